"""A sequential test for the arena: stop once bot a's share of game points is surely not 50%.

**Method: an anytime-valid confidence sequence** (Waudby-Smith, Arbour, Sinha, Kennedy and
Ramdas, "Time-uniform central limit theory and asymptotic confidence sequences", 2021/2024,
the two-sided normal-mixture boundary). After ``n`` duplicate pairs (a deal played twice with
the seats swapped: the unit whose luck cancels) the interval for the mean ``μ`` of i.i.d.
values ``x_i`` is ``x̄ ± σ̂ · sqrt(2(nρ²+1)/(n²ρ²) · ln(sqrt(nρ²+1)/α))``: with probability
about ``1 − α`` it covers ``μ`` *at every n at once*, so one may look after every pair and stop
whenever it excludes the null, and the interval printed at the stop is still valid.

Why this and not the others: the arena needs a *share with an interval* at the stop (the
strength table prints one), which an SPRT does not give, and an SPRT also needs a point
alternative (``58%``?) and a model of the per-pair distribution (game points per pair take
13 values from −6 to 6). Alpha spending over planned looks needs the looks and the largest
sample fixed in advance; the confidence sequence needs neither — it is the limit of spending
over a look after every pair — and costs a width about 1.5 times the fixed-n interval at the
planned size ``plan`` (``ρ`` is tuned for it), a little more before and after.

**The share.** Bot a's share of game points is ``θ = Σa_i / Σ(a_i + b_i)`` over the pairs
(game points of a and b in pair ``i``). Its interval is the confidence sequence of the
linearised values ``z_i = (a_i − θ̂(a_i + b_i)) / t̄`` (``t̄``: mean points per pair; the
delta method, as for a ratio estimator) centred at ``θ̂``. The test stops once that interval
excludes 0.5, after at least ``min_pairs`` pairs (the variance estimate needs a few).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final

#: Fewest duplicate pairs before the test may stop: the variance estimate needs some.
MIN_PAIRS: Final = 20
#: Pairs the boundary is tuned for (narrowest relative to the fixed-n interval there).
PLAN_PAIRS: Final = 150


def half_width_factor(n: int, alpha: float, plan: int) -> float:
    """Multiplier of ``σ̂`` giving the half-width of the confidence sequence after ``n``
    values (``plan``: the ``n`` the mixture parameter ``ρ`` is tuned for)."""
    rho2 = (-2 * math.log(alpha) + math.log(-2 * math.log(alpha) + 1)) / plan
    return math.sqrt(2 * (n * rho2 + 1) / (n * n * rho2) * math.log(math.sqrt(n * rho2 + 1)
                                                                      / alpha))


@dataclass(frozen=True, slots=True)
class ShareInterval:
    """Bot a's share of game points after ``pairs`` duplicate pairs, with its interval."""

    pairs: int
    share: float
    low: float
    high: float
    #: The interval excludes 0.5 after at least ``MIN_PAIRS`` pairs: the test stops.
    decided: bool

    def text(self) -> str:
        return f"{self.share:.1%} [{self.low:.1%}, {self.high:.1%}]"


class SequentialShare:
    """Running share of game points of bot a over duplicate pairs, with the sequential test
    of the module doc; feed each pair's game points with :meth:`add`."""

    def __init__(self, alpha: float = 0.05, min_pairs: int = MIN_PAIRS,
                 plan: int = PLAN_PAIRS) -> None:
        if not 0 < alpha < 1:
            raise ValueError(f"alpha must lie strictly between 0 and 1; got {alpha}")
        self.alpha, self.min_pairs, self.plan = alpha, max(min_pairs, 2), max(plan, 1)
        self.pairs: list[tuple[float, float]] = []

    def add(self, a: float, b: float) -> ShareInterval:
        """Record one pair (game points of a and of b over its two hands, or any other
        non-negative amounts of which a's share is measured); the new interval."""
        self.pairs.append((a, b))
        return self.interval()

    def interval(self) -> ShareInterval:
        n = len(self.pairs)
        total_a = sum(a for a, _ in self.pairs)
        total = total_a + sum(b for _, b in self.pairs)
        if n < 2 or total == 0:
            return ShareInterval(n, 0.5, 0.0, 1.0, False)
        share = total_a / total
        mean_t = total / n
        z = [(a - share * (a + b)) / mean_t for a, b in self.pairs]  # mean 0 by construction
        sigma = math.sqrt(sum(x * x for x in z) / (n - 1))
        half = sigma * half_width_factor(n, self.alpha, self.plan)
        low, high = max(0.0, share - half), min(1.0, share + half)
        decided = n >= self.min_pairs and not low <= 0.5 <= high
        return ShareInterval(n, share, low, high, decided)

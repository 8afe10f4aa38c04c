"""The rating model: OpenSkill's Weng-Lin Plackett-Luce, one model for every variant.

Why OpenSkill (``openskill`` on PyPI, maintained) and not Glicko-2: Glicko-2 rates one player
against one opponent, which covers sixty-six and schnapsen only. Three-hand is a free-for-all
of three with a finishing order, four-hand two partnerships; the Weng-Lin models rate teams of
any size and any number of teams ranked in one match, so one model serves all four variants
(and a computer level at a table is rated like any member of a team). Plackett-Luce is the
model the library recommends for rankings of more than two teams.

Each rated entity (a player, or a computer level as ``computer``) has ``mu`` (mean skill,
25 at the start) and ``sigma`` (its uncertainty, 25/3 at the start), per variant. The model
uses the library's defaults (beta 25/6, tau 25/300: a little uncertainty is added back before
each match so a rating keeps moving).

**Display rating** (what a newcomer reads, "strong ≈ 1650"): ``1500 + 30 × (mu − 25)``,
rounded. 30 per unit of ``mu`` is the familiar Elo scale: with settled ratings the model
predicts 10:1 odds for a lead of ``√2 · beta · ln 10 ≈ 13.6`` in ``mu``, and Elo gives 10:1 for
400 points (400 / 13.6 ≈ 30). A rating is ``provisional`` while ``sigma`` > :data:`SETTLED`
(as Lichess marks ratings with a wide deviation). Listings are sorted by the conservative
``ordinal`` = ``mu − 3 sigma`` (the library's), so one lucky match does not top a table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from openskill.models import PlackettLuce

#: Display scale: display = BASE + SCALE × (mu − MU0).
BASE: Final = 1500
SCALE: Final = 30
MU0: Final = 25.0
SIGMA0: Final = 25.0 / 3
#: Above this sigma a rating is provisional.
SETTLED: Final = 5.0


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float = MU0
    sigma: float = SIGMA0
    matches: int = 0

    @property
    def ordinal(self) -> float:
        return self.mu - 3 * self.sigma

    @property
    def display(self) -> int:
        return display(self.mu)

    @property
    def provisional(self) -> bool:
        return self.sigma > SETTLED

    def encode(self) -> str:
        return f"{self.mu!r} {self.sigma!r} {self.matches}"

    @classmethod
    def decode(cls, raw: str) -> Rating:
        mu, sigma, matches = raw.split()
        return cls(float(mu), float(sigma), int(matches))

    @classmethod
    def stored(cls, raw: str | None) -> Rating:
        """A stored value's rating; a newcomer's for ``None`` (never rated)."""
        return cls() if raw is None else cls.decode(raw)


@dataclass(frozen=True, slots=True)
class Rated:
    """Which way a match may move each side's ratings: the sides whose ratings may rise, and
    those whose ratings may fall (a change the other way is not written)."""

    rise: frozenset[int]
    fall: frozenset[int]

    def allows(self, side: int, old: Rating, new: Rating) -> bool:
        return side in (self.rise if new.mu > old.mu else self.fall)


def display(mu: float) -> int:
    return round(BASE + SCALE * (mu - MU0))


def new_model(tau: float | None = None) -> PlackettLuce:
    """The model (``tau=0`` reproduces the library's published worked examples, made before
    tau existed)."""
    return PlackettLuce() if tau is None else PlackettLuce(tau=tau)


def rate(model: PlackettLuce, teams: Sequence[Sequence[Rating]], ranks: Sequence[int],
         ) -> list[list[Rating]]:
    """New ratings of every member of ``teams`` after a match in which team ``i`` finished
    ``ranks[i]`` (1 = first; equal ranks are a tie)."""
    given = [[model.rating(mu=r.mu, sigma=r.sigma) for r in team] for team in teams]
    rated = model.rate(given, ranks=[float(r) for r in ranks])
    return [[Rating(new.mu, new.sigma, old.matches + 1) for new, old in zip(t, team, strict=True)]
            for t, team in zip(rated, teams, strict=True)]

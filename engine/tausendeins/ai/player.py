"""Computer players for Tausendeins: :func:`rank` a seat's candidate actions from its view,
and :func:`choose` the best of them.

A computer sees only its seat's view (:func:`engine.tausendeins.view`), never the hidden
state: :mod:`~engine.tausendeins.ai.knowledge` reads the view and draws deals of the unseen
cards consistent with it. The levels (:data:`LEVELS`; the work bounds are per move):

* ``random``: a uniformly random legal action, from the given generator.
* ``easy``: the rule-of-thumb player of :mod:`~engine.tausendeins.ai.policy` (one decision).
* ``normal``: determinized Monte-Carlo. Each candidate action is tried in sampled deals and
  the deal played out by the rule-of-thumb policy for both seats; the best mean change of
  (own total - other total) wins. At most ``Level.playouts`` playouts a move (160), shared
  among the candidates (at least one deal each).
* ``strong``: the same with 400 playouts, and an exact solve
  (:mod:`~engine.tausendeins.ai.solver`) in place of playouts wherever a phase-2 deal is down
  to ``Level.solve_cards`` cards a hand (8). In the stock deal from trick 5 on every card is
  known, and one alpha-beta search finds a best action; in the last 8 tricks of a musik or
  ``all`` deal every candidate is valued exactly in each of ``Level.solve_samples`` (12)
  sampled deals. At most ``Level.solve_nodes`` (40,000) positions a move; past that it plays
  out as ``normal`` does. In the auction it values each bid over ``Level.bid_samples`` (40)
  sampled deals played out with itself as declarer: the contract made (+ the bid, or the
  score under ``contract_gain`` actual) or failed (- the bid), less the other's score;
  passing is valued by playouts with the other as declarer; it takes the best.

:func:`rank` gives each candidate its mean value, the deal margin in points (the seat's
change of total minus the other's): over the playouts, over the exact solves, or a bid's as
above (a known deal: the exact value). ``random`` and ``easy`` value nothing: their ranking is
their one action. The hint of the service is the ``strong`` ranking.

Candidates: every legal action, except that discards are cut to the ``Level.discards`` (8)
cheapest pairs by the policy's order, and bids and raises to the two lowest (a pass, or
leading without a raise, is always a candidate).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Final

from engine.tausendeins.actions import BID, DISCARD, PASS, RAISE, T1001Action
from engine.tausendeins.ai.knowledge import InvalidView, Knowledge, clone, knowledge
from engine.tausendeins.ai.policy import discard_order, policy_action
from engine.tausendeins.ai.solver import SearchBudgetExceeded, Solver, child, deal_value
from engine.tausendeins.deal import after_auction
from engine.tausendeins.game import apply
from engine.tausendeins.state import AUCTION, PLAY, PLAYING, T1001State


@dataclass(frozen=True, slots=True)
class Level:
    """A computer level and its work bounds per move."""

    name: str
    description: str
    #: Playouts a move (0: no sampling; ``random`` and ``easy``).
    playouts: int = 0
    #: Exact solve with at most this many cards a hand in phase 2 (0: never).
    solve_cards: int = 0
    #: Positions the exact solve may visit a move, over all its sampled deals.
    solve_nodes: int = 0
    #: Sampled deals solved exactly when the deal is not fully known.
    solve_samples: int = 0
    #: Sampled deals for valuing bids (0: bids are candidates like any action).
    bid_samples: int = 0
    #: Discard pairs considered in the musik stage.
    discards: int = 8


LEVEL_TABLE: Final = {lv.name: lv for lv in (
    Level("random", "a uniformly random legal action"),
    Level("easy", "rules of thumb: meld on lead, win cheap tricks, open and pass unless strong"),
    Level("normal", "Monte-Carlo over sampled deals, 160 policy playouts a move", playouts=160),
    Level("strong", "Monte-Carlo with 400 playouts, an exact solve of the last 8 tricks "
          "(40,000 positions), bids valued over 40 sampled deals", playouts=400,
          solve_cards=8, solve_nodes=40_000, solve_samples=12, bid_samples=40),
)}
LEVELS: Final = {name: lv.description for name, lv in LEVEL_TABLE.items()}


def level(spec: str | Level) -> Level:
    """A level by name (or the level itself); raises ``KeyError`` naming the levels."""
    if isinstance(spec, Level):
        return spec
    if spec not in LEVEL_TABLE:
        raise KeyError(f"unknown level {spec!r}; levels: {', '.join(LEVEL_TABLE)}")
    return LEVEL_TABLE[spec]


@dataclass(frozen=True, slots=True)
class Ranking:
    """The candidate actions of a seat, best first, each with its mean value: the deal
    margin in points (the seat's change of total minus the other's, as
    :func:`~engine.tausendeins.ai.solver.deal_value` gives it once the deal is settled; a
    bid's as :func:`_bid` values it)."""

    level: str
    actions: tuple[tuple[T1001Action, float], ...]
    #: Sampled deals behind the values (0: one legal action, or a level that values nothing).
    samples: int
    #: How the values were reached: ``only``, ``random``, ``policy`` (no values: the one
    #: action of ``random`` or ``easy``, valued 0), ``exact`` (a known deal searched),
    #: ``solved`` (sampled deals searched exactly), ``playouts`` or ``bids``.
    method: str

    @property
    def best(self) -> T1001Action:
        return self.actions[0][0]

    def reason(self) -> str:
        """One line on the best action and the next best."""
        top, value = self.actions[0]
        if self.method == "only":
            return f"{top.text()} is the only legal action"
        if self.method in ("random", "policy"):
            return f"{top.text()} is the {self.level} level's choice (it values no action)"
        how = {"exact": "exactly (every card is known)",
               "solved": f"on average over {self.samples} sampled deals solved exactly"
               }.get(self.method, f"on average over {self.samples} sampled deals played out")
        text = f"{top.text()} is worth {value:+.1f} points of deal margin {how}"
        if len(self.actions) > 1:
            nxt, v = self.actions[1]
            text += f"; next best {nxt.text()} {v:+.1f}"
        return text

    def as_dict(self) -> dict[str, Any]:
        """The JSON form of an analysis (``expected_game_points``: the mean deal margin)."""
        return {"level": self.level, "best": self.best.as_dict(),
                "actions": [{"action": a.as_dict(), "text": a.text(),
                             "expected_game_points": round(v, 3)} for a, v in self.actions],
                "samples": self.samples, "reason": self.reason()}


def choose(view: dict[str, Any], lv: str | Level, rng: random.Random) -> T1001Action:
    """The action of the view's seat at level ``lv``: the best of :func:`rank` (a known
    deal's search stops at its best action); it depends only on the view, the level and
    ``rng``. Raises :class:`InvalidView` when the seat has nothing to do."""
    return rank(view, lv, rng, complete=False).best


def rank(view: dict[str, Any], lv: str | Level, rng: random.Random, *,
         complete: bool = True) -> Ranking:
    """The candidates of the view's seat ranked by level ``lv`` (see the module text), best
    first; of equal values the first candidate first. With ``complete`` false a known deal
    ranks only its best action (the one alpha-beta search); else the other candidates are
    then searched too, within another ``Level.solve_nodes`` positions (past it they are left
    out). Raises :class:`InvalidView` when the seat has nothing to do."""
    spec = level(lv)
    legal = [T1001Action.from_dict(a) for a in view.get("legal_actions", [])]
    if not legal:
        raise InvalidView("the seat of this view has no action to take now")
    if len(legal) == 1:
        return Ranking(spec.name, ((legal[0], 0.0),), 0, "only")
    if spec.name == "random":
        return Ranking(spec.name, ((rng.choice(legal), 0.0),), 0, "random")
    k = knowledge(view)
    if spec.playouts == 0:
        return Ranking(spec.name, ((policy_action(k.sample(rng), k.seat), 0.0),), 0, "policy")
    if spec.bid_samples and k.base.stage == AUCTION:
        return _bid(k, spec, rng, legal)
    candidates = _candidates(k, spec, legal)
    if spec.solve_cards and k.base.stage == PLAY and k.stock_size == 0 \
            and k.base.hands[k.seat].bit_count() <= spec.solve_cards:
        solved = _solve(k, spec, rng, candidates, complete)
        if solved is not None:
            return solved
    return _sample(k, spec, rng, candidates)


def _candidates(k: Knowledge, spec: Level, legal: list[T1001Action]) -> list[T1001Action]:
    out = [a for a in legal if a.kind not in (DISCARD, BID, RAISE)]
    if any(a.kind == DISCARD for a in legal):
        hand = k.base.hands[k.seat]
        out += discard_order(hand)[:spec.discards]
    for kind in (BID, RAISE):
        out += sorted((a for a in legal if a.kind == kind), key=lambda a: a.number or 0)[:2]
    return out


def play_out(state: T1001State, seat: int) -> int:
    """Play the deal to its settlement by the policy; ``seat``'s total minus the other's."""
    while state.status == PLAYING:
        mover = state.to_act()
        assert mover is not None
        apply(state, mover, policy_action(state, mover))
    return deal_value(state, seat)


def _ranked(spec: Level, candidates: list[T1001Action], sums: list[float], n: int,
            method: str) -> Ranking:
    """``candidates`` by their sums over ``n`` deals, best first (a stable sort: of equals
    the first), each with its mean."""
    order = sorted(range(len(candidates)), key=lambda i: -sums[i])
    return Ranking(spec.name, tuple((candidates[i], sums[i] / n) for i in order), n, method)


def _sample(k: Knowledge, spec: Level, rng: random.Random,
            candidates: list[T1001Action]) -> Ranking:
    deals = max(1, spec.playouts // len(candidates))
    sums = [0.0] * len(candidates)
    for _ in range(deals):
        state = k.sample(rng)
        for i, action in enumerate(candidates):
            s = clone(state)
            apply(s, k.seat, action)
            sums[i] += play_out(s, k.seat)
    return _ranked(spec, candidates, sums, deals, "playouts")


def _solve(k: Knowledge, spec: Level, rng: random.Random, candidates: list[T1001Action],
           complete: bool) -> Ranking | None:
    """A known deal's best action by one alpha-beta search (then, if ``complete``, the
    others' exact values, see :func:`rank`); else the mean exact values over
    ``Level.solve_samples`` sampled deals; ``None`` when the search passes its bound."""
    solver = Solver(k.seat, spec.solve_nodes)
    if k.determined:
        state = k.sample(rng)
        try:
            best, value = solver.best_action(state)
        except SearchBudgetExceeded:
            return None
        ranked = [(best, float(value))]
        if complete:
            solver.max_nodes += spec.solve_nodes
            try:
                others = [(a, float(solver.value(child(state, k.seat, a))))
                          for a in candidates if a != best]
            except SearchBudgetExceeded:
                others = []
            ranked += sorted(others, key=lambda av: -av[1])
        return Ranking(spec.name, tuple(ranked), 1, "exact")
    sums = [0.0] * len(candidates)
    try:
        for _ in range(spec.solve_samples):
            state = k.sample(rng)
            solver.memo.clear()
            values = dict(solver.action_values(state))
            for i, action in enumerate(candidates):
                sums[i] += values[action]
    except SearchBudgetExceeded:
        return None
    return _ranked(spec, candidates, sums, spec.solve_samples, "solved")


def _bid(k: Knowledge, spec: Level, rng: random.Random,
         legal: list[T1001Action]) -> Ranking:
    """Value passing and each bid over sampled deals (see the module text); of equals a
    pass first, then the lower bid."""
    seat, rules = k.seat, k.base.rules
    bids = [a.number for a in legal if a.kind == BID and a.number is not None]
    sums = [0.0] * (len(bids) + 1)  # the pass, then each bid
    for _ in range(spec.bid_samples):
        state = k.sample(rng)
        passed = clone(state)
        apply(passed, seat, T1001Action.simple(PASS))
        sums[0] += play_out(passed, seat)
        mine = clone(state)
        mine.declarer = seat
        after_auction(mine)
        play_out(mine, seat)
        settled = mine.settlement
        assert settled is not None and settled["contract"] is not None
        score = settled["contract"]["score"]
        defender = settled["seats"][1 - seat]["change"]
        for i, b in enumerate(bids, 1):
            gain = (b if rules.contract_gain == "bid" else score) if score >= b else -b
            sums[i] += gain - defender
    candidates = [T1001Action.simple(PASS), *(T1001Action.bid(b) for b in bids)]
    return _ranked(spec, candidates, sums, spec.bid_samples, "bids")

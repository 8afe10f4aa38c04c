"""Computer players for Tausendeins: :func:`choose` an action for a seat from its view.

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
from engine.tausendeins.ai.solver import SearchBudgetExceeded, Solver, deal_value
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


def choose(view: dict[str, Any], lv: str | Level, rng: random.Random) -> T1001Action:
    """The action of the view's seat at level ``lv``; it depends only on the view, the
    level and ``rng``. Raises :class:`InvalidView` when the seat has nothing to do."""
    spec = level(lv)
    legal = [T1001Action.from_dict(a) for a in view.get("legal_actions", [])]
    if not legal:
        raise InvalidView("the seat of this view has no action to take now")
    if len(legal) == 1:
        return legal[0]
    if spec.name == "random":
        return rng.choice(legal)
    k = knowledge(view)
    if spec.playouts == 0:
        return policy_action(k.sample(rng), k.seat)
    if spec.bid_samples and k.base.stage == AUCTION:
        return _bid(k, spec, rng, legal)
    candidates = _candidates(k, spec, legal)
    if spec.solve_cards and k.base.stage == PLAY and k.stock_size == 0 \
            and k.base.hands[k.seat].bit_count() <= spec.solve_cards:
        solved = _solve(k, spec, rng, candidates)
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


def _best(candidates: list[T1001Action], sums: list[float]) -> T1001Action:
    return candidates[max(range(len(candidates)), key=lambda i: sums[i])]


def _sample(k: Knowledge, spec: Level, rng: random.Random,
            candidates: list[T1001Action]) -> T1001Action:
    deals = max(1, spec.playouts // len(candidates))
    sums = [0.0] * len(candidates)
    for _ in range(deals):
        state = k.sample(rng)
        for i, action in enumerate(candidates):
            s = clone(state)
            apply(s, k.seat, action)
            sums[i] += play_out(s, k.seat)
    return _best(candidates, sums)


def _solve(k: Knowledge, spec: Level, rng: random.Random,
           candidates: list[T1001Action]) -> T1001Action | None:
    """A known deal's best action by one alpha-beta search; else the best mean exact value
    over ``Level.solve_samples`` sampled deals; ``None`` when the search passes its bound."""
    solver = Solver(k.seat, spec.solve_nodes)
    if k.determined:
        try:
            return solver.best_action(k.sample(rng))[0]
        except SearchBudgetExceeded:
            return None
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
    return _best(candidates, sums)


def _bid(k: Knowledge, spec: Level, rng: random.Random,
         legal: list[T1001Action]) -> T1001Action:
    """Value passing and each bid over sampled deals (see the module text)."""
    seat, rules = k.seat, k.base.rules
    bids = [a.number for a in legal if a.kind == BID and a.number is not None]
    pass_sum = 0.0
    bid_sums = [0.0] * len(bids)
    for _ in range(spec.bid_samples):
        state = k.sample(rng)
        passed = clone(state)
        apply(passed, seat, T1001Action.simple(PASS))
        pass_sum += play_out(passed, seat)
        mine = clone(state)
        mine.declarer = seat
        after_auction(mine)
        play_out(mine, seat)
        settled = mine.settlement
        assert settled is not None and settled["contract"] is not None
        score = settled["contract"]["score"]
        defender = settled["seats"][1 - seat]["change"]
        for i, b in enumerate(bids):
            gain = (b if rules.contract_gain == "bid" else score) if score >= b else -b
            bid_sums[i] += gain - defender
    if not bids or pass_sum >= max(bid_sums):
        return T1001Action.simple(PASS)
    return T1001Action.bid(bids[max(range(len(bids)), key=lambda i: bid_sums[i])])




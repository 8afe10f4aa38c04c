"""Decisions of the computer levels (docs/rules.md §8): :func:`choose` and :func:`evaluate`.

Both take only a seat's view, so a computer never sees hidden cards. Method (determinized
search): draw deals of the unseen cards uniformly among those consistent with what the seat
knows (:mod:`engine.ai.sampling`) — with ``Level.infer_depth``, in proportion to how likely the
opponent's last phase-1 plays were in each (:mod:`engine.ai.inference`); in each deal, try
every *plan* — a legal action together with the seat's own follow-up before a card leaves its
hand (a meld and the King or Queen it leads, an exchange or a closing and the lead after it) —
and play on: by the rule-of-thumb policy (:mod:`engine.ai.policy`) while the talon is open, and
once it is closed or exhausted (two-hand) by the exact solver (:mod:`engine.ai.solver`) when
hands are small enough for the level. A closing plan is thus valued by solving the closed
position in each deal, with one first lead for all deals. ``strong`` with a short talon
(``Level.search_talon``) searches the whole rest of the hand of each deal exactly instead of
playing out (:mod:`engine.ai.talon`): the opponent's replies, the draws, closing and exchanging
included. A little earlier (``Level.search_from``) its playouts switch to that search once the
talon is that short: so late in phase 1 a trick played by the policy misleads more than fewer
deals do. Why these settings: docs/ai-tuning.md (the regret and arena figures behind them).

An action is worth the best average over the plans that start with it, in game points for
the seat's side. In a two-hand phase 2 (talon closed or exhausted), actions of equal value
are ranked by the opponent's chances to go wrong: in each deal, the mean value over his next
actions, each then played on exactly. Against a perfect player they are all the same; against a
fallible one the first is better.

``expert`` spends twice ``strong``'s budget (``EXPERT_WORK``) on more sampled deals, and
searches the rest of the hand exactly only from 2 talon cards on (``search_talon`` 2, as
``strong_v1``): there the one hidden talon card goes to the trick's winner and the face-up
trump to the loser, so a deal's fixed talon order tells the search nothing a player would
not know. An exact search from more talon cards sees the order of the draws in each deal
(strategy fusion); searching from 4 talon cards on, after policy playouts from the first
trick, ``expert`` lost to ``strong_v1`` (see ``EXPERT_WORK``). A cap of search nodes per
move (``max_nodes``) bounds it further.
Where the variant has no talon (four-hand) no exact search fits: it plays as ``strong``
(``fallback``; :mod:`engine.ai.catalogue` lists what each level plays as, per variant).

What a move spends is a *work budget* (``Level.work``, in the units of :class:`Work`: deals,
playouts, policy moves and search nodes, each weighed by its CPU cost on the pure path), not
time: sampling stops before a deal that would pass it, so the same view, generator and budget
give the same move on a quiet or a loaded machine and on the pure or the compiled path (which
spends about half the time on it). The native search core (:mod:`engine.ai.solver`) counts
fewer nodes for the same values, so there the budget buys more deals and the moves are its
own, the same for the same view, generator and budget. The CPU time (``Level.budget_ms``) is
only a cap.

A seat on lead holding 66 credited points after a trick always declares (``easy`` sometimes
forgets); no level ever declares with fewer. Declaring at once is also the most it can score:
the game points of a declaration (docs/rules.md §4: 1, 2 if the opponent has at most 32, 3 if he has
no trick) depend on the opponent's points and tricks, which playing on can only raise, so
playing on "for Schneider" never pays with 66 in hand; before 66 the search values every line
in game points, Schneider and Schwarz included.
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass, field, replace
from typing import Any, Final

from engine.actions import CLOSE, DECLARE, DECLARE_ACTION, PLAY, Action
from engine.ai.inference import draw
from engine.ai.knowledge import InvalidView, Knowledge
from engine.ai.policy import heuristic_action
from engine.ai.sampling import Sampler, to_state
from engine.ai.solver import Position, Solver
from engine.ai.talon import TalonSolver
from engine.cards import meld_value
from engine.play import apply, legal_actions
from engine.rules import Variant
from engine.scoring import DECLARE_TARGET
from engine.state import PLAYING, GameState

#: Sampling also stops after this many caps (``Level.budget_ms``) of wall-clock time (a
#: machine so loaded that the thread gets little CPU: then the move depends on the load). At
#: 4, ``strong``'s heavy moves stopped there on the development machine at load average 15
#: (``python -m engine.ai.bench levels``: the pure and compiled paths played other moves).
WALL_FACTOR: Final = 10
#: A move (:func:`choose`, not :func:`evaluate`) stops sampling early once, after at least
#: ``EARLY_MIN`` deals, the best plan's lead over every plan starting with another action has
#: a lower confidence bound (``EARLY_Z`` standard errors of the paired per-deal difference)
#: above ``-EARLY_MARGIN`` game points: more deals would not change the move that matters.
EARLY_MIN: Final = 24
EARLY_Z: Final = 3.0
EARLY_MARGIN: Final = 0.05
#: The early-stop test runs every this many deals.
EARLY_EVERY: Final = 8
#: A closing plan that fails in a sampled deal counts this many game points worse there. The
#: solver plays the closed position seeing every card of the deal, which the real closer
#: does not (strategy fusion), so closing looks better than it is; the hedge keeps a level
#: from closing unless it wins in most deals. At 1.0, strong closed in about a third of its
#: hands against random; replaying 230 of those positions four times each, closing won 95.1% of
#: the hands and the best other action 97.8%, for about the same game points (2,196 vs 2,169).
#: Over 2,000 duplicate hands against random, strong won 1,799 at 1.5 and 1,829 at 2.0.
CLOSE_HEDGE: Final = 2.0
#: Work units (:class:`Work`) of each piece of search work: its mean CPU cost (µs) on the
#: pure path of the 2-core development machine, fitted (least squares) to the CPU time of
#: 145 decisions of ``normal``, ``strong`` and ``expert`` (load average 10-13): the summed
#: units were within 4% of the summed CPU time of each level, a decision's within 0.84-1.24
#: of it (10th-90th percentile; 0.44-1.76 at the extremes). A talon node's own cost hides
#: behind its solver nodes' (the fit put it near 0); 12 keeps it counted.
WORK_DEAL: Final = 130
WORK_PLAYOUT: Final = 45
WORK_MOVE: Final = 10
WORK_SOLVED: Final = 2
WORK_NODE: Final = 12


@dataclass(slots=True)
class Work:
    """The search work one decision did, counted as it went: sampled deals, playouts (a plan
    in a deal), the policy's moves in them, nodes of the exact phase-2 solvers
    (:attr:`Solver.nodes`) and of the talon search (:attr:`TalonSolver.nodes`).
    :attr:`units` weighs them by their mean cost (``WORK_*``): a unit is about a microsecond
    of the pure Python engine."""

    deals: int = 0
    playouts: int = 0
    moves: int = 0
    solved: int = 0
    nodes: int = 0

    @property
    def units(self) -> int:
        return (WORK_DEAL * self.deals + WORK_PLAYOUT * self.playouts + WORK_MOVE * self.moves
                + WORK_SOLVED * self.solved + WORK_NODE * self.nodes)


@dataclass(frozen=True, slots=True)
class Level:
    """A computer level: per-move budget and how it thinks."""

    name: str
    description: str
    #: Cap per move: CPU time (ms) of the deciding thread, on one core (sampling also stops
    #: after ``WALL_FACTOR`` times that in wall-clock time). With a ``work`` budget it only
    #: guards the think time; without one (``work`` 0) it is the budget.
    budget_ms: float
    max_samples: int
    #: Two-hand phase 2 is solved exactly once each hand holds at most this many cards.
    solve_from: int
    #: Two-hand, talon open with at most this many cards: the rest of the hand is searched
    #: exactly in each sampled deal (:mod:`engine.ai.talon`), no more policy moves.
    search_talon: int
    #: Two-hand with at most this many talon cards at the decision: the playouts switch to
    #: that exact search once the talon is down to ``search_talon`` cards (``switch_talon``
    #: if set). Earlier decisions play by the policy until the talon is closed or exhausted,
    #: which leaves time for more deals.
    search_from: int
    #: Chance of playing the rule-of-thumb move without looking further ("by feel").
    feel: float
    #: Chance of forgetting to declare while holding 66.
    forget: float
    #: Game points a closing plan counts worse in a deal where it fails (see ``CLOSE_HEDGE``).
    close_hedge: float = CLOSE_HEDGE
    #: A decision with more than ``search_talon`` and at most ``search_from`` talon cards:
    #: its playouts switch to the exact search at this many talon cards (0: at
    #: ``search_talon``), a cheaper search that leaves time for more deals. Off in every
    #: level: with 8 talon cards ``strong:search_from=8,switch_talon=4`` (policy down to 4
    #: cards, then exact; about 18 deals instead of 350) lost 0.249 game points per choice
    #: against 0.301 for ``strong`` over 32 choices (``python -m engine.ai.bench regret --talon
    #: 8 --n 16 --oracle-samples 30 --oracle strong:search_from=8``, seeds 1, 2), within the
    #: noise of an oracle of 30 deals that plays one policy trick itself.
    switch_talon: int = 0
    #: Inference (:mod:`engine.ai.inference`): the opponent's last this many phase-1 plays
    #: weight the sampled deals (0: uniform deals), with the model's sureness ``infer_beta``
    #: and this many uniform candidates per deal. Off in every level: it did not win
    #: measurably (sequential arenas with ``budget_ms=100`` against ``strong_v1`` at the same
    #: budget: depth 3, 47.1% of game points [37.3%, 57.0%] over 186 hands; depth 1, 50.2%
    #: [42.2%, 58.3%] over 254 (docs/strength.md); ``normal:infer_depth=3`` against
    #: ``normal``: 51.5% [42.5%, 60.6%] over 204 hands). Kept as a setting to measure better
    #: models against.
    infer_depth: int = 0
    infer_beta: float = 0.5
    infer_candidates: int = 6
    #: Most nodes of the exact talon search (:attr:`TalonSolver.nodes`) per move: sampling
    #: stops once the deals so far have used that many (0: no cap; the CPU budget binds).
    max_nodes: int = 0
    #: The level that decides instead where the variant has no talon (four-hand: no exact
    #: search fits, so a level above ``strong`` would only spend more time); "" for none.
    fallback: str = ""
    #: Work budget per move, in work units (:class:`Work`): sampling stops before a deal
    #: that would pass it, so the move depends on the seed and this budget, not on how
    #: loaded the machine is (0: no work budget, ``budget_ms`` binds).
    work: int = 0
    #: 1: the exact searches run on the native search core where it is built; 0: the Python
    #: search (compiled by mypyc where built), as before the core, so that an arena can play
    #: both in one process (``strong:native=0``). The work budget counts the nodes of the
    #: search that runs, so the core's fewer nodes buy more deals.
    native: int = 1


#: ``strong``'s work budget per move (units of :class:`Work`: the 900 ms of CPU it had before work
#: budgets, on the pure path; its cap is 1.4 s). With it (``python -m engine.ai.bench levels --hands
#: 6 --seed 11 --levels strong``, load average 11-15): pure median 309 ms, p99 1,154 ms over 86
#: moves; compiled median 44 ms, p99 787 ms over 100; ``expert`` (``--hands 3``) pure median 146 ms,
#: p99 2,725 ms over 58 moves, compiled median 91 ms, p99 1,538 ms over 58. The budget buys more
#: deals for the close choices of phase 1; early stopping keeps the rest quick: median 265 ms, p99
#: 907 ms CPU per move over 581 moves (limits 500 ms and 1.5 s; ``python -m engine.ai.bench levels
#: --hands 32 --levels strong``). With the faster searches and ``search_talon`` 4: median 54 ms, p99
#: 901 ms, max 901 ms over 407 moves (``--hands 24 --seed 5``); the budget buys 1.9 times the deals
#: at 8 talon cards (``python -m engine.ai.bench deals --n 12 --against PATH-to-the-old-code``).
#: With ``search_talon`` 6: median 93 ms, p99 907 ms, max 926 ms over 253 moves (``--hands 16 --seed
#: 5``): a decision with 6 talon cards mostly spends the whole budget. The median of 8 hands (about
#: 150 moves) ranged from 123 to 510 ms between runs. With 8 talon cards its choices lost 0.036 game
#: points on average against 600 deals of its own method, and 0.043 with 450 ms (150 positions:
#: ``python -m engine.ai.bench regret --talon 8 --n 50 --oracle-samples 600 --levels strong
#: strong:budget_ms=450,max_samples=400`` with ``--seed`` 6, 7 and 8; seed 6 alone favoured 450 ms,
#: 0.027 against 0.030).
STRONG_WORK: Final = 900_000


#: ``expert``'s work budget per move (units of :class:`Work`): twice ``strong``'s. As
#: ``strong_v1``'s search with this budget (``search_talon`` 2) it took 49.3% of the game
#: points [44.2%, 54.4%] over 322 hands against ``strong_v1``, undecided, at 45 ms median and
#: 1,662 ms p99 CPU a move, compiled (``python -m api.arena.strength --pairs
#: expert:strong_v1 --max-minutes 15 --jobs 2``). Before, ``expert`` played each deal by the
#: policy from the first trick to 4 talon cards and then searched it exactly (``search_from``
#: 12, ``switch_talon`` 4, 2,000,000 units): ``strong_v1`` was decided stronger, 41.0%
#: [32.3%, 49.8%] over 226 hands. Earlier figures of that search, with about 2 s of the pure
#: path, its CPU time before work budgets, measured
#: (``python -m engine.ai.bench levels --hands 12 --seed 11 --levels expert strong``, loaded
#: machine): median 146 ms, p99 2,008 ms, max 2,012 ms over 205 moves; ``strong`` there median
#: 73 ms, p99 462 ms over 233. Against ``strong`` its search (as the variant
#: ``strong:budget_ms=2000,max_samples=2000,search_from=12,switch_talon=4``) took 55.2% of the
#: game points [37.1%, 73.4%] over 56 hands, and against ``strong_v1`` 45.7% [32.6%, 58.8%]
#: over 110: both undecided, not yet shown stronger (docs/strength.md).
EXPERT_WORK: Final = 2 * STRONG_WORK
#: ``expert``'s cap per move (CPU ms), within its p99 of 3 s.
EXPERT_CAP_MS: Final = 2800.0
#: ``expert``'s cap of talon-search nodes per move: a safety stop, set at about five times what
#: its CPU budget allowed on the pure path when it searched from 8-10 talon cards (about 35,000
#: nodes a second there). From 2 talon cards (``search_talon``) a deal's talon search is one
#: trick, at most about a dozen nodes (8 positions: 2,042-4,024 nodes over 240-2,000 deals),
#: so its 2,000 deals stay far below it; variants that search earlier still stop there.
EXPERT_MAX_NODES: Final = 400_000


#: Every level, frozen ones included, by name.
LEVEL_TABLE: Final = {
    lv.name: lv
    for lv in (
        Level("random", "Any legal action, uniformly at random (never declares falsely).",
              0, 0, 0, 0, 0, 0.0, 0.0),
        Level("easy", "Thinks briefly (two sampled deals, quick playouts), sometimes plays by "
              "feel, sometimes forgets to declare 66.", 18, 2, 0, 0, 0, 0.25, 0.3,
              work=10_000),
        Level("normal", "Plays out every legal action in several sampled deals of the unseen "
              "cards and takes the best; solves small endgames exactly.", 180, 40, 5, 0, 0,
              0.0, 0.0, work=100_000),
        Level("strong", "Many sampled deals; solves the endgame (talon closed or exhausted) "
              "exactly in each, and the whole rest of the hand once the talon is short; "
              "closes when it pays.", 1400, 1000, 6, 6, 4, 0.0, 0.0, work=STRONG_WORK),
        Level("expert", "For tables, the tour's last stations and analysis: twice strong's work a "
              "move, spent on more sampled deals; solves the endgame exactly in each, and the "
              "whole rest of the hand once only the last hidden talon card is left to draw. In "
              "four-hand it plays as strong.", EXPERT_CAP_MS, 2000, 6, 2, 4, 0.0, 0.0,
              max_nodes=EXPERT_MAX_NODES, fallback="strong", work=EXPERT_WORK),
        Level("strong_v1", "strong as issue 19 found it, frozen to measure changes against: "
              "uniform sampled deals, the whole rest of the hand searched exactly from 2 "
              "talon cards on.", 1400, 1000, 6, 2, 4, 0.0, 0.0, work=900_000),
    )
}
#: Frozen versions of a level, kept for measurements (``sixtysix arena``, the benches) and
#: not offered by the public levels list.
FROZEN: Final = frozenset({"strong_v1"})
#: Levels no longer offered, each with the level that plays for it: a level is offered only
#: while docs/strength.md decides it stronger than the one below. ``expert`` was not (49.3% of
#: the game points [44.2%, 54.4%] over 322 hands against ``strong_v1``, 48.5% [35.6%, 61.4%]
#: over 126 against ``strong`` with 32 cards): kept for the arena, and a stored game's
#: ``expert`` seat plays as ``strong``.
RETIRED: Final = {"expert": "strong"}
#: Level names with their descriptions (the public ones).
LEVELS: Final = {name: lv.description for name, lv in LEVEL_TABLE.items()
                 if name not in FROZEN and name not in RETIRED}


@dataclass(frozen=True, slots=True)
class ActionValue:
    action: Action
    #: Expected game points for the seat's side (positive: winning), averaged over samples.
    #: Actions are ranked by it, except a closing: by its value with the level's hedge.
    value: float

    def as_dict(self) -> dict[str, Any]:
        return {"action": self.action.as_dict(), "text": self.action.text(),
                "expected_game_points": round(self.value, 3)}


@dataclass(frozen=True, slots=True)
class Evaluation:
    """Every legal action ranked (best first), with how the ranking was reached."""

    level: str
    actions: tuple[ActionValue, ...]
    samples: int
    reason: str
    #: The seat holds 66 credited points on lead and would declare now.
    would_declare: bool
    #: Nodes of the exact talon search used (0 when none ran).
    nodes: int = 0
    #: The search work spent (its ``units`` against the level's ``work`` budget).
    work: Work = field(default_factory=Work)

    @property
    def best(self) -> Action:
        return self.actions[0].action

    def as_dict(self) -> dict[str, Any]:
        return {"level": self.level, "best": self.best.as_dict(),
                "actions": [a.as_dict() for a in self.actions], "samples": self.samples,
                "reason": self.reason, "would_declare_66": self.would_declare}


def _level(level: str | Level) -> Level:
    return level if isinstance(level, Level) else level_variant(level)


def exact_search_fits(variant: Variant) -> bool:
    """Whether the exact two-hand searches (:mod:`~engine.ai.solver`, :mod:`~engine.ai.talon`)
    fit ``variant``: it has a talon (two and three hands, with either pack; without one, as in
    four-hand, the levels play on by their playouts)."""
    return variant.has_talon


def plays_as(level: Level, variant: Variant) -> Level:
    """The level that decides for ``level`` in ``variant``: its ``fallback`` where no exact
    search fits the variant (:func:`exact_search_fits`), else ``level`` itself."""
    if level.fallback and not exact_search_fits(variant):
        return LEVEL_TABLE[level.fallback]
    return level


def level_variant(spec: str) -> Level:
    """A level from ``name`` or ``name:field=value,...`` (e.g. ``strong:close_hedge=2``), for
    measuring a change of one of its settings. Raises ``ValueError`` on an unknown level or
    field, a value of the wrong type, or a change to ``random`` (which has no settings)."""
    name, _, changes = spec.partition(":")
    lv = LEVEL_TABLE.get(name)
    if lv is None:
        raise ValueError(f"unknown level {name!r}; allowed: {', '.join(LEVEL_TABLE)}")
    if not changes:
        return lv
    if name == "random":
        raise ValueError("level 'random' has no settings to change")
    fields: dict[str, Any] = {}
    for change in changes.split(","):
        key, _, raw = change.partition("=")
        if key in ("name", "description") or not hasattr(lv, key):
            raise ValueError(f"level {name!r} has no setting {key!r}")
        fields[key] = type(getattr(lv, key))(raw)
    return replace(lv, name=spec, **fields)


def credited(k: Knowledge) -> int:
    """The seat's side's credited points: trick points plus credited melds."""
    side = k.side_of(k.seat)
    points, _, _ = k.won()
    melds = sum(meld_value(suit, k.trump) for seat, suit, cred in k.melds
                if cred and k.side_of(seat) == side)
    return points.get(side, 0) + melds


def can_declare_66(k: Knowledge) -> bool:
    return DECLARE_ACTION in k.legal and credited(k) >= DECLARE_TARGET


def _only_action(view: dict[str, Any]) -> Action | None:
    """The single legal action of the view (e.g. ``continue``), if there is just one."""
    legal = view.get("legal_actions")
    if isinstance(legal, list) and len(legal) == 1 and isinstance(legal[0], dict):
        return Action.from_dict(legal[0])
    return None


def choose(view: dict[str, Any], level: str | Level, rng: random.Random | None = None,
           budget_ms: float | None = None, until: float | None = None) -> Action:
    """The action ``level`` takes in the position of ``view`` (a seat's view whose turn it
    is). ``level``: a name, a variant of one (see :func:`level_variant`) or a :class:`Level`.

    ``rng`` drives sampling and the level's whims (default: a fresh ``random.Random``).
    Sampling stops before a deal that would pass the level's work budget (``Level.work``),
    so the move depends only on the view, ``rng`` and that budget, unless the cap stops it
    first: ``budget_ms`` (default the level's) in CPU ms of this thread, or ``WALL_FACTOR``
    times that in wall-clock time, or at ``until`` (a ``time.perf_counter()``: a reply's
    deadline). At least one deal is sampled.
    Raises :class:`InvalidView` if the view is not a position where the seat has to act.
    """
    lv = _level(level)
    rng = rng or random.Random()
    only = _only_action(view)
    if only is not None:
        return only
    k = Knowledge.from_view(view)
    legal = list(k.legal)
    if not legal:
        raise InvalidView("the seat has no action to take in this view")
    if lv.name == "random":
        honest = [a for a in legal if a.kind != DECLARE or can_declare_66(k)]
        return rng.choice(honest)
    if can_declare_66(k) and rng.random() >= lv.forget:
        return DECLARE_ACTION
    if rng.random() < lv.feel:
        state = to_state(k, Sampler(k).sample(rng))
        action = heuristic_action(state, k.seat, rng)
        if action.kind != DECLARE:
            return action
    return _evaluate(k, lv, rng, budget_ms, None, declare=False, early=True, until=until).best


def evaluate(view: dict[str, Any], level: str | Level = "strong",
             rng: random.Random | None = None, budget_ms: float | None = None,
             samples: int | None = None, declare: bool = True) -> Evaluation:
    """Rank every legal action of ``view``'s seat by expected game points (see module doc).

    ``level``: as in :func:`choose`.

    ``samples`` is the number of sampled deals, in place of the level's work budget (default:
    that budget, and the level's cap of deals); the cap (``budget_ms`` or the level's, as in
    :func:`choose`) stops sampling earlier. At least one deal is always used.
    With ``declare`` false the seat's own declaration is left out (a hint that must not
    reveal "would declare 66").
    """
    lv = _level(level)
    only = _only_action(view)
    if only is not None:
        return Evaluation(lv.name, (ActionValue(only, 0.0),), 0,
                          f"{only.text()} is the only legal action", False)
    k = Knowledge.from_view(view)
    if not k.legal:
        raise InvalidView("the seat has no action to take in this view")
    return _evaluate(k, lv, rng or random.Random(), budget_ms, samples, declare=declare)


# ---------------------------------------------------------------------------- search


def _plans(state: GameState, seat: int, declare: bool,
           taken: frozenset[str] = frozenset()) -> list[tuple[Action, ...]]:
    """Sequences of the seat's actions up to a card played or a declaration.

    A meld, an exchange and a closing each go on to the seat's next action (at most one of
    each kind per plan), so that "close" is worth its best lead averaged over the sampled
    deals, not each deal's best lead (which would value closing as if the closer saw every
    card). A declaration is planned only if ``declare``; below 66 credited points it is valued
    as the false declaration it would be (and ranked last, see :func:`_evaluate`).
    """
    out: list[tuple[Action, ...]] = []
    for a in legal_actions(state, seat):
        if a.kind == DECLARE:
            if declare:
                out.append((a,))
        elif a.kind == PLAY:
            out.append((a,))
        elif a.kind not in taken:
            after = state.copy()
            apply(after, seat, a)
            out.extend((a, *p) for p in _plans(after, seat, declare, taken | {a.kind}))
    return out


def outcome(state: GameState, side: int) -> int:
    """Game points for ``side`` of a settled hand (negative when the other side scores),
    the trump Ten's point of ``trump_ten_point`` included (counted when its trick was won)."""
    settlement = state.settlement
    assert settlement is not None
    ten = settlement.get("trump_ten_side")
    extra = 0 if ten is None else 1 if ten == side else -1
    winner = settlement["winner_side"]
    if winner is None:
        return extra
    points: int = settlement["game_points"]
    return extra + (points if winner == side else -points)


def _play_on(state: GameState, side: int, lv: Level, rng: random.Random,
             solvers: dict[tuple[Any, ...], Solver], deep: TalonSolver | None, work: Work,
             search_at: int | None = None) -> int:
    """Game points for ``side`` of playing ``state`` on (policy, then the exact solver),
    the policy's moves counted in ``work``.

    With ``deep``, a state with the talon open and at most ``search_at`` talon cards
    (default: the level's ``search_talon``) is searched exactly instead.
    """
    two_hand = exact_search_fits(state.rules.variant)
    limit = lv.search_talon if search_at is None else search_at
    while state.status == PLAYING:
        seat = state.to_act()
        assert seat is not None
        if deep is not None and state.talon_open and len(state.talon) <= limit:
            v = deep.value(state)
            return v if state.side_of(seat) == side else -v
        if two_hand and not state.talon_open and max(
                state.hands[s].bit_count() for s in state.active) <= lv.solve_from:
            pos = Position.from_state(state)
            ctx = (pos.trump, pos.closer, pos.snapshot, pos.bonus, pos.last_trick_wins,
                   pos.pending_melds)
            solver = solvers.get(ctx)
            if solver is None:
                solver = solvers[ctx] = Solver.for_position(pos, bool(lv.native))
            v = solver.value(pos)
            return v if state.side_of(seat) == side else -v
        work.moves += 1
        apply(state, seat, heuristic_action(state, seat, rng))
    return outcome(state, side)


def _chances(state: GameState, side: int, lv: Level, rng: random.Random,
              solvers: dict[tuple[Any, ...], Solver], work: Work) -> float | None:
    """Game points for ``side`` if the other side's next action were picked at random, then
    both sides played on as :func:`_play_on` does (exactly, for a two-hand phase 2 deal).

    Breaks ties between actions of equal value: the one that leaves the opponent more
    ways to go wrong is never worse against a perfect player and better against a fallible
    one. ``None`` when the opponent does not choose next (the hand is over, or the seat's
    side acts again, or the opponent declares 66 at once). False declarations are left out
    of the opponent's choices: no computer level makes them.
    """
    seat = state.to_act()
    if seat is None or state.status != PLAYING or state.side_of(seat) == side:
        return None
    legal = legal_actions(state, seat)
    if DECLARE_ACTION in legal and state.credited_points(state.side_of(seat)) >= DECLARE_TARGET:
        return None
    replies = [a for a in legal if a.kind != DECLARE]
    total = 0
    for reply in replies:
        s = state.copy()
        apply(s, seat, reply)
        total += _play_on(s, side, lv, rng, solvers, None, work)
    return total / len(replies)


def _settled(plans: list[tuple[Action, ...]], values: list[list[float]]) -> bool:
    """Whether the best plan's lead is sure enough to stop sampling (see ``EARLY_MIN``);
    ``values``: per plan, its score in each deal so far."""
    n = len(values[0])
    top = max(range(len(plans)), key=lambda i: sum(values[i]))
    for i, plan in enumerate(plans):
        if plan[0] == plans[top][0]:
            continue
        diffs = [a - b for a, b in zip(values[top], values[i], strict=True)]
        mean = sum(diffs) / n
        variance = sum((d - mean) ** 2 for d in diffs) / (n - 1)
        if mean - EARLY_Z * math.sqrt(variance / n) < -EARLY_MARGIN:
            return False
    return True


def _evaluate(k: Knowledge, lv: Level, rng: random.Random, budget_ms: float | None,
              samples: int | None, declare: bool, early: bool = False,
              until: float | None = None) -> Evaluation:
    """Evaluate every legal action; ``declare``: a seat holding 66 declares (ranked first);
    ``early``: stop sampling once the choice is settled (``EARLY_MIN``); ``until``: stop
    sampling at this ``time.perf_counter()``."""
    acting = plays_as(lv, k.rules.variant)
    if acting is not lv:
        lv = replace(acting, name=lv.name)
    start, wall = time.thread_time(), time.perf_counter()
    # the cap (s): it guards the think time; the work budget sets what is spent
    limit = (budget_ms if budget_ms is not None else max(lv.budget_ms, 1.0)) / 1000
    cap = samples if samples is not None else max(lv.max_samples, 1)
    would_declare = declare and can_declare_66(k)
    sampler = Sampler(k)
    # Two-hand with the talon exhausted: one consistent deal, the position is exact.
    exact = sampler.count() == 1 and k.talon_hidden == 0
    if exact:
        cap = 1
    side = k.side_of(k.seat)
    search = (exact_search_fits(k.rules.variant) and k.talon_open and lv.search_talon > 0
              and k.talon_size <= max(lv.search_from, lv.search_talon))
    search_at = (lv.switch_talon if lv.switch_talon and k.talon_size > lv.search_talon
                 else lv.search_talon)
    plans: list[tuple[Action, ...]] | None = None
    totals: list[float] = []  # per plan: game points summed over the deals
    # Two-hand phase 2 (talon closed or exhausted): ties are broken by the opponent's
    # chances to go wrong, summed per plan over the deals (see _chances)
    phase2 = k.rules.variant.has_talon and not k.talon_open and len(k.active) == 2
    chances: list[float] = []
    scores: list[list[float]] = []  # per plan, per deal: game points, a failed closing hedged
    n = 0
    work = Work()
    # an explicit number of deals is the work; else the level's work budget (if any)
    allowed = lv.work if samples is None else 0
    while n < cap:
        state = to_state(k, draw(sampler, rng, lv.infer_depth, lv.infer_beta,
                                 lv.infer_candidates))
        if plans is None:
            plans = _plans(state, k.seat, declare)
            totals = [0.0] * len(plans)
            chances = [0.0] * len(plans)
            scores = [[] for _ in plans]
        solvers: dict[tuple[Any, ...], Solver] = {}
        deep = TalonSolver(k.rules, k.trump, bool(lv.native)) if search else None
        work.deals += 1
        work.playouts += len(plans)
        for i, plan in enumerate(plans):
            s = state.copy()
            for a in plan:
                apply(s, k.seat, a)
            chance = _chances(s, side, lv, rng, solvers, work) if phase2 else None
            points = _play_on(s, side, lv, rng, solvers, deep, work, search_at)
            totals[i] += points
            chances[i] += points if chance is None else chance
            scores[i].append(points - lv.close_hedge if points < 0 and plan[0].kind == CLOSE
                             else points)
        n += 1
        work.solved += sum(solver.nodes for solver in solvers.values())
        if deep is not None:
            work.nodes += deep.nodes
            work.solved += deep.solver_nodes
            if lv.max_nodes and work.nodes * (n + 1) > lv.max_nodes * n:
                break  # one more deal like these would pass the cap
        if allowed and work.units * (n + 1) > allowed * n:
            break  # one more deal like these would pass the work budget
        if (time.thread_time() - start > limit * n / (n + 1)
                or time.perf_counter() - wall > WALL_FACTOR * limit
                or (until is not None and time.perf_counter() >= until)):
            break
        if early and n >= EARLY_MIN and n % EARLY_EVERY == 0 and _settled(plans, scores):
            break
    assert plans is not None
    # per first action: its best plan by hedged score (ties: by the opponent's chances to go
    # wrong, phase 2 only), and that plan's expected game points
    best: dict[Action, tuple[float, float, float]] = {}
    for plan, total, score, chance in zip(plans, totals, scores, chances, strict=True):
        hedged = sum(score) / n
        if plan[0] not in best or (hedged, chance / n) > best[plan[0]][:2]:
            best[plan[0]] = hedged, chance / n, total / n

    def rank(item: tuple[Action, tuple[float, float, float]]) -> tuple[int, float, float]:
        """A due declaration first; a false one last, whatever its value: never advised."""
        hedged, chance, _ = item[1]
        if item[0] == DECLARE_ACTION:
            return (0 if would_declare else 2), -hedged, -chance
        return 1, -hedged, -chance

    ranked = sorted(best.items(), key=rank)
    values = tuple(ActionValue(a, v) for a, (_, _, v) in ranked)
    if would_declare:
        reason = f"declare: {credited(k)} credited points (a player always declares at 66)"
    else:
        wider = (len(ranked) > 1 and ranked[0][1][0] == ranked[1][1][0]
                 and ranked[0][1][1] > ranked[1][1][1])
        reason = _reason(values, n, exact, wider)
    return Evaluation(lv.name, values, n, reason, would_declare, work.nodes, work)


def _reason(values: tuple[ActionValue, ...], n: int, exact: bool, wider: bool) -> str:
    """One line on the best action; ``wider``: it ties with the next best but leaves the
    opponent more ways to go wrong."""
    top = values[0]
    how = "exactly (all cards are known)" if exact else f"on average over {n} sampled deals"
    text = f"{top.action.text()} is worth {top.value:+.2f} game points {how}"
    if len(values) > 1:
        text += f"; next best {values[1].action.text()} {values[1].value:+.2f}"
    if wider:
        text += ", but it leaves the opponent more ways to go wrong"
    return text


"""The native search core (engine/ai/_core.c) against the Python searches it replaces: the
same values and the same value of every card (so the same best moves), over thousands of random
phase-2 positions (the solver) and positions with a short talon (the talon search) of every
variant, pack and scoring option they serve (two- and three-hand, 24 and 32 cards, Schnapsen;
four-hand has no talon and Tausendeins its own solver, so neither reaches them). Node counts
may differ: the core cuts its search at sure bounds the Python search does not try, so it
visits fewer nodes."""

from __future__ import annotations

import os
import random
import shutil
from pathlib import Path
from typing import Any

import pytest

from engine import GameState, native
from engine.ai.solver import NATIVE_CORE, NATIVE_SOLVE, Position, Solver, solve
from engine.ai.talon import TalonSolver
from tests.engine.ai.helpers import random_action_states
from tests.engine.native_probe import run_probe

needs_core = pytest.mark.skipif(NATIVE_CORE is None,
                                reason=f"search core: {native.describe_core()}")

#: (variant, rule options, most cards in a hand): every variant and pack the phase-2 solver
#: serves, with the options its search reads.
CASES: list[tuple[str, dict[str, object], int]] = [
    ("sixty-six", {}, 6),
    ("sixty-six", {"automatic_66": True, "meld_credit": "next_trick",
                   "played_out_points": "one"}, 6),
    ("sixty-six", {"meld_before_first_trick": "forbidden"}, 6),
    ("schnapsen", {}, 5),
    ("three-hand", {}, 6),
    ("sixty-six", {"deck": 32}, 6),
    ("sixty-six", {"deck": 32, "ten_rank": "low"}, 6),
    ("three-hand", {"deck": 32}, 6),
]


def phase2_positions(variant: str, options: dict[str, object], most: int, seed: int,
                     count: int) -> list[GameState]:
    """``count`` random positions of two-hand play with the talon closed or exhausted and at
    most ``most`` cards in the hand to act, the more cards the likelier (leads and answers,
    closed hands and not)."""
    rng = random.Random(seed)
    out: list[GameState] = []
    for state in random_action_states(variant, rng, 40 * count, close_chance=0.15,
                                      options=options):
        seat = state.to_act()
        assert seat is not None
        if (not state.talon_open and len(state.active) == 2
                and rng.random() < state.hands[seat].bit_count() / most <= 1):
            out.append(state.copy())
            if len(out) == count:
                break
    return out


def _solvers(pos: Position) -> tuple[Solver, Solver]:
    pure, core = Solver.for_position(pos, native=False), Solver.for_position(pos)
    assert not pure.native and core.native
    return pure, core


@needs_core
@pytest.mark.parametrize(("variant", "options", "most"), CASES,
                         ids=[f"{v}-{o}" for v, o, _ in CASES])
def test_native_core_equals_the_python_solver(variant: str, options: dict[str, object],
                                              most: int) -> None:
    """Fresh solvers: each card's value, in fewer nodes in all; shared solvers (as a player
    keeps one per rules context over its deals): each value, the tables kept from position
    to position."""
    positions = phase2_positions(variant, options, most, 7, 600)
    assert len(positions) == 600
    assert any(s.closed_by is not None for s in positions)
    assert any(s.trick for s in positions) and any(not s.trick for s in positions)
    shared: dict[tuple[Any, ...], tuple[Solver, Solver]] = {}
    values = set()
    nodes = [0, 0]  # the Python search's, the core's
    for state in positions:
        pos = Position.from_state(state)
        pure, core = _solvers(pos)
        expected = pure.card_values(pos)
        assert core.card_values(pos) == expected, pos
        nodes[0] += pure.nodes
        nodes[1] += core.nodes
        values.update(expected.values())
        ctx = (pos.trump, pos.closer, pos.snapshot)
        pair = shared.get(ctx)
        if pair is None:
            pair = shared[ctx] = _solvers(pos)
        assert pair[1].value(pos) == pair[0].value(pos), pos
    assert len(values) >= 4
    assert nodes[1] < nodes[0]


@needs_core
@pytest.mark.parametrize(("variant", "options", "most"), CASES,
                         ids=[f"{v}-{o}" for v, o, _ in CASES])
def test_one_call_solve_equals_the_python_solver(variant: str, options: dict[str, object],
                                                 most: int) -> None:
    """:func:`solve` by the core's one call (the position read from the state as ints, its
    table kept between calls) gives the Python search's value of every position."""
    assert NATIVE_SOLVE is not None
    positions = phase2_positions(variant, options, most, 11, 600)
    assert any(s.closed_by is not None for s in positions)
    assert any(s.trick for s in positions) and any(s.melded_suit is not None for s in positions)
    values = set()
    for state in positions:
        expected = solve(state, native=False)
        assert solve(state) == expected, Position.from_state(state)
        values.add(expected)
    assert len(values) >= 4


#: (variant, rule options) of the talon search: every variant with a talon, both packs, and
#: the options it reads (closing, exchange and meld rules, scoring).
TALON_CASES: list[tuple[str, dict[str, object]]] = [
    ("sixty-six", {}),
    ("sixty-six", {"automatic_66": True, "meld_credit": "next_trick",
                   "played_out_points": "one"}),
    ("sixty-six", {"closing": False, "meld_before_first_trick": "forbidden"}),
    ("schnapsen", {}),
    ("three-hand", {}),
    ("sixty-six", {"deck": 32}),
    ("sixty-six", {"deck": 32, "ten_rank": "low"}),
]


def short_talon_positions(variant: str, options: dict[str, object], seed: int,
                          count: int) -> list[GameState]:
    """``count`` random two-hand positions with the talon open and 2 or 4 cards in it (the
    longer one a quarter of the time: its search costs the Python reference ten times
    more)."""
    rng = random.Random(seed)
    out: list[GameState] = []
    for state in random_action_states(variant, rng, 40 * count, close_chance=0.0,
                                      options=options):
        size = len(state.talon)
        if (state.talon_open and len(state.active) == 2
                and (size == 2 or (size == 4 and rng.random() < 0.15))):
            out.append(state.copy())
            if len(out) == count:
                break
    return out


@needs_core
@pytest.mark.parametrize(("variant", "options"), TALON_CASES,
                         ids=[f"{v}-{o}" for v, o in TALON_CASES])
def test_native_talon_search_equals_the_python_one(variant: str,
                                                   options: dict[str, object]) -> None:
    """Fresh searches and searches shared over the positions of one trump (as a player
    keeps one over its deals): each value."""
    positions = short_talon_positions(variant, options, 5, 150)
    assert len(positions) == 150
    assert any(len(s.talon) == 4 for s in positions) and any(s.trick for s in positions)
    shared: dict[int, tuple[TalonSolver, TalonSolver]] = {}
    values = set()
    for state in positions:
        pure = TalonSolver(state.rules, state.trump, native=False)
        core = TalonSolver(state.rules, state.trump)
        assert core.native and not pure.native
        expected = pure.value(state)
        assert core.value(state) == expected, (state.hands, state.talon, state.trick)
        values.add(expected)
        pair = shared.get(state.trump)
        if pair is None:
            pair = shared[state.trump] = (TalonSolver(state.rules, state.trump, native=False),
                                          TalonSolver(state.rules, state.trump))
        assert pair[1].value(state) == pair[0].value(state)
    assert len(values) >= 4


@needs_core
def test_every_window_gives_the_same_bound() -> None:
    """The talon search calls the solver with windows: in every window the core fails low,
    fails high or answers the value as the Python search does, and a bound it returns holds
    (the value is at most a fail-low answer, at least a fail-high one)."""
    for state in phase2_positions("sixty-six", {}, 6, 11, 150):
        pos = Position.from_state(state)
        exact = Solver.for_position(pos, native=False).value(pos)
        for alpha in range(-4, 4):
            for beta in range(alpha + 1, 5):
                pure, core = _solvers(pos)
                got, want = core._node(pos, alpha, beta), pure._node(pos, alpha, beta)
                assert min(max(got, alpha), beta) == min(max(want, alpha), beta), (pos, alpha)
                assert exact >= got if got >= beta else exact <= got if got <= alpha else (
                    exact == got), (pos, alpha, beta)


@needs_core
def test_the_core_refuses_what_is_no_position() -> None:
    pos = Position.from_state(phase2_positions("sixty-six", {}, 6, 3, 1)[0])
    solver = Solver.for_position(pos)
    with pytest.raises(ValueError, match="disjoint"):
        solver.lead(0, 3, 1, 0, 0, 0, 0, 0, -4, 4)
    with pytest.raises(ValueError, match="window"):
        solver.lead(0, 1, 2, 0, 0, 0, 0, 0, 4, -4)
    assert NATIVE_SOLVE is not None
    with pytest.raises(ValueError, match="disjoint"):
        NATIVE_SOLVE(0, -1, 0, 0, 10, 3, 0, 3, 1, 0, 0, 0, 0, 0, -1, -1)
    with pytest.raises(ValueError, match="trump"):
        NATIVE_SOLVE(4, -1, 0, 0, 10, 3, 0, 1, 2, 0, 0, 0, 0, 0, -1, -1)
    with pytest.raises(TypeError, match="16 arguments"):
        NATIVE_SOLVE(0, -1)


def test_the_core_is_built_wherever_a_compiler_is() -> None:
    """CI installs with a C compiler: the core must be there and in use (without
    ``SIXTYSIX_PURE``)."""
    if native.pure_requested():
        assert NATIVE_CORE is None and native.describe_core().startswith("Python")
    elif os.environ.get("CI") == "true" and native.compiler_blocker() is None:
        assert NATIVE_CORE is not None and native.describe_core() == "native C"


_PROBE = """
import json
import engine.native as n
from engine.ai.solver import NATIVE_CORE
print(json.dumps({"core": n.describe_core(), "loaded": NATIVE_CORE is not None}))
"""


def _probe(root: Path, pure: str | None = None) -> dict[str, object]:
    return run_probe(_PROBE, root, pure)


ROOT = Path(native.__file__).resolve().parents[1]


@needs_core
def test_sixtysix_pure_and_a_stale_core_run_the_python_search(tmp_path: Path) -> None:
    """``SIXTYSIX_PURE=1`` keeps the Python reference; a core whose C source changed since
    its build is passed over, and ``sixtysix --version`` says why."""
    assert _probe(ROOT) == {"core": "native C", "loaded": True}
    assert _probe(ROOT, "1") == {"core": "Python (SIXTYSIX_PURE is set)", "loaded": False}
    shutil.copytree(ROOT / "engine", tmp_path / "engine",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for shared in ROOT.glob("*__mypyc*"):  # mypyc's modules, where built, need their library
        shutil.copy2(shared, tmp_path / shared.name)
    source = tmp_path / native.CORE_SOURCE
    assert _probe(tmp_path)["core"] == "native C"
    source.write_text(source.read_text() + "\n")
    assert _probe(tmp_path) == {
        "core": "Python; native core engine/ai/_core.c changed since the build",
        "loaded": False}

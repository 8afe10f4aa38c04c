"""The work budget (``Level.work``): a move depends on the seed and the budget, not on how
loaded the machine is nor on the engine path of the Python search (pure Python or compiled).
The native search core visits fewer nodes for the same values, so there a budget buys more
search and the moves are its own (the same in every process)."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from typing import Any

import pytest

from engine import PLAYING, Rules, apply, native, new_game, view
from engine.ai import choose, evaluate, level_variant
from engine.ai.catalogue import listing
from engine.ai.player import LEVEL_TABLE, LEVELS
from engine.ai.solver import NATIVE_CORE
from tests.engine.ai.test_talon import short_talon_positions
from tests.engine.test_native import ROOT

#: ``strong`` and ``expert`` with small work budgets: quick, and far inside their CPU caps.
SMALL = ("strong:work=30000", "expert:work=60000")


def hand_moves(levels: tuple[str, str], seed: int) -> list[dict[str, Any]]:
    """Every action of one hand of two-hand sixty-six between ``levels`` (seat 0, seat 1),
    dealt and played from one generator seeded with ``seed``."""
    rng = random.Random(seed)
    state, _ = new_game(Rules.make("sixty-six"), first_dealer=seed % 2, rng=rng)
    moves: list[dict[str, Any]] = []
    while state.status == PLAYING:
        seat = state.to_act()
        assert seat is not None
        action = choose(view(state, seat), levels[seat], rng)
        moves.append(action.as_dict())
        apply(state, seat, action)
    return moves


def test_the_same_seed_and_work_budget_choose_the_same_moves() -> None:
    first = hand_moves(SMALL, 5)
    assert len(first) >= 12
    assert hand_moves(SMALL, 5) == first


def child_moves(pure: bool, core: bool) -> list[dict[str, Any]]:
    """:func:`hand_moves` of ``SMALL`` and seed 7 in a fresh interpreter (another hash seed):
    on the pure path (``pure``), or on the path built here with the native search core
    (``core``) or with the Python search (its loader told the core is absent)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONHASHSEED": "random"}
    env.pop(native.PURE_VARIABLE, None)
    if pure:
        env[native.PURE_VARIABLE] = "1"
    code = ("import json; import engine.native as n; "
            + ("" if core else "n._core_loaded.append((None, 'left out')); ")
            + "from tests.engine.ai.test_work_budget import SMALL, hand_moves; "
            "print(json.dumps(hand_moves(SMALL, 7)))")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                          text=True, check=True, cwd=ROOT)
    moves: list[dict[str, Any]] = json.loads(done.stdout)
    return moves


def test_pure_and_compiled_python_searches_choose_the_same_moves() -> None:
    """The Python search, pure and compiled (where built): the same hand, move for move (its
    nodes are the same on both paths)."""
    assert child_moves(pure=True, core=False) == child_moves(pure=False, core=False)


@pytest.mark.skipif(NATIVE_CORE is None, reason=f"search core: {native.describe_core()}")
def test_the_native_core_chooses_the_same_moves_in_every_process() -> None:
    """The native search core cuts its search at sure bounds, so a budget buys it more
    search than the Python one (its moves may differ from theirs): in every process the same
    seed and budget still choose the same moves."""
    assert child_moves(pure=False, core=True) == hand_moves(SMALL, 7)


@pytest.mark.skipif(NATIVE_CORE is None, reason=f"search core: {native.describe_core()}")
def test_a_level_with_native_0_plays_as_the_python_search() -> None:
    """``native=0`` (an arena of the core against the Python search in one process): the
    moves of a process whose core is left out, while the core is loaded here."""
    python = (f"{SMALL[0]},native=0", f"{SMALL[1]},native=0")
    assert hand_moves(python, 7) == child_moves(pure=False, core=False)


@pytest.mark.parametrize("options", [{}, {"deck": 32}])
def test_sampling_stops_at_the_work_budget(options: dict[str, object]) -> None:
    """Fewer deals under a smaller budget; the same generator, the same evaluation (with the
    32-card pack too, whose exact searches count their work as the 24 cards' do)."""
    for state in short_talon_positions(Rules.make("sixty-six", options), 3, 2, 4):
        seen = view(state, state.to_act())
        wide = evaluate(seen, "strong:work=1000000000,max_samples=8", random.Random(1))
        assert wide.samples == 8 and wide.work.units > 0
        budget = wide.work.units // 3
        narrow = evaluate(seen, f"strong:work={budget},max_samples=8", random.Random(1))
        assert 1 <= narrow.samples < 8
        # it stopped before a deal that, like those so far, would pass the budget
        assert narrow.work.units * (narrow.samples + 1) > budget * narrow.samples
        assert evaluate(seen, f"strong:work={budget},max_samples=8",
                        random.Random(1)) == narrow


def test_an_explicit_number_of_deals_replaces_the_work_budget() -> None:
    state = short_talon_positions(Rules.make("sixty-six"), 4, 1, 4)[0]
    ev = evaluate(view(state, state.to_act()), "strong:work=1", random.Random(1),
                  budget_ms=1e6, samples=5)
    assert ev.samples == 5


def test_every_searching_level_has_a_work_budget_within_its_cap() -> None:
    for name in LEVELS:
        lv = LEVEL_TABLE[name]
        assert (lv.work > 0) == (name != "random")
    assert level_variant("strong:work=5").work == 5
    for levels in listing().values():
        for entry in levels:
            acting = LEVEL_TABLE[entry.plays_as]
            assert (entry.work_units, entry.cap_ms) == (acting.work, round(acting.budget_ms))
            assert entry.cap_ms <= entry.think_p99_ms

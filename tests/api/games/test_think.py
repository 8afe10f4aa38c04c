"""The think-time settings (api/games/think.py): read from the environment as the other
settings are, checked, and applied to a level's work: a move spends what they leave it."""

from __future__ import annotations

import random
import time

import pytest

from api.config import from_env
from api.games.computers import choose_move
from api.games.think import MIN_CAP_MS, ThinkSettingError, ThinkSettings, scaled, scaled_1001
from engine import Rules, new_game, view
from engine.ai import evaluate
from engine.ai.player import LEVEL_TABLE
from engine.tausendeins.ai.player import LEVEL_TABLE as T1001_TABLE


def test_the_settings_come_from_the_environment() -> None:
    assert ThinkSettings.from_settings(from_env({})) == ThinkSettings(1.0, 0, 1.5, 0.125)
    got = ThinkSettings.from_settings(from_env({
        "SIXTYSIX_THINK_SCALE": "0.5", "SIXTYSIX_MOVE_CPU_MS": "300",
        "SIXTYSIX_REPLY_TARGET": "2.5", "SIXTYSIX_THINK_FLOOR": "0.25"}))
    assert got == ThinkSettings(0.5, 300, 2.5, 0.25)


@pytest.mark.parametrize(("name", "raw"), [
    ("SIXTYSIX_THINK_SCALE", "0"), ("SIXTYSIX_THINK_SCALE", "-1"),
    ("SIXTYSIX_REPLY_TARGET", "0"), ("SIXTYSIX_THINK_FLOOR", "1.5"),
    ("SIXTYSIX_THINK_FLOOR", "0")])
def test_a_setting_out_of_range_is_refused_by_name(name: str, raw: str) -> None:
    with pytest.raises(ThinkSettingError, match=name):
        ThinkSettings.from_settings(from_env({name: raw}))


def test_a_setting_of_the_wrong_type_is_refused_by_name() -> None:
    with pytest.raises(ValueError, match="SIXTYSIX_MOVE_CPU_MS"):
        from_env({"SIXTYSIX_MOVE_CPU_MS": "fast"})


def test_scale_share_and_caps_set_a_levels_work() -> None:
    strong = LEVEL_TABLE["strong"]
    assert scaled(strong, ThinkSettings().think()) is strong  # the defaults: as measured
    half = scaled(strong, ThinkSettings(scale=0.5).think())
    assert (half.work, half.max_samples, half.budget_ms) == (
        strong.work // 2, strong.max_samples // 2, strong.budget_ms / 2)
    floor = scaled(strong, ThinkSettings(scale=0.5, cpu_cap_ms=300).think(0.125))
    assert floor.work == round(strong.work / 16) and floor.budget_ms == 300
    before = time.perf_counter()
    late_think = ThinkSettings().think(1.0, deadline_ms=-40.0)  # past its deadline
    late = scaled(strong, late_think)
    assert late.budget_ms == MIN_CAP_MS and late.work == strong.work
    assert late_think.until is not None and before < late_think.until <= (
        time.perf_counter() + MIN_CAP_MS / 1000)
    assert ThinkSettings().think(0.5).until is None  # no deadline: no wall-clock stop
    assert scaled(LEVEL_TABLE["random"], ThinkSettings(scale=0.1).think()) is LEVEL_TABLE["random"]
    t1001 = scaled_1001(T1001_TABLE["strong"], ThinkSettings(scale=0.25).think())
    assert (t1001.playouts, t1001.bid_samples) == (100, 10)


def test_a_move_at_a_smaller_share_spends_less_work() -> None:
    state, _ = new_game(Rules.make("sixty-six"), first_dealer=1, rng=random.Random(3))
    seen = view(state, state.to_act() or 0)
    full_level = LEVEL_TABLE["normal"]
    small_level = scaled(full_level, ThinkSettings().think(0.125))
    full = evaluate(seen, full_level, random.Random(1), budget_ms=1e6)
    small = evaluate(seen, small_level, random.Random(1), budget_ms=1e6)
    assert small.work.units <= small_level.work < full_level.work
    assert small.samples < full.samples
    # the registry's chooser takes the same settings (a legal action whatever they are)
    assert choose_move("strong", seen, ThinkSettings(scale=0.05).think()).as_dict() in seen[
        "legal_actions"]

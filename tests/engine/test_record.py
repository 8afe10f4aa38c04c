"""Records of play (engine.record) and their replay (engine.replay)."""

from __future__ import annotations

import copy
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine import Event, GameState, Rules, apply, legal_actions, new_game
from engine.actions import RESIGN_ACTION
from engine.record import InvalidRecord, action_of, build, parse_text, to_text
from engine.replay import ReplayMismatch, main, replay
from engine.rules import VARIANTS


def played(variant: str, seed: int, resign_at: int | None = None,
           options: dict[str, object] | None = None) -> tuple[GameState, list[Event]]:
    """A whole random game of ``variant`` (with ``options``) and its full event log (resigned
    by seat 0 after ``resign_at`` actions if given)."""
    rng = random.Random(seed)
    state, events = new_game(Rules.make(variant, {"match_points": 3, **(options or {})}),
                             rng=rng)
    steps = 0
    while not state.over:
        if steps == resign_at:
            events += apply(state, 0, RESIGN_ACTION)
            break
        seat = next(s for s in range(state.players) if legal_actions(state, s))
        events += apply(state, seat, rng.choice(legal_actions(state, seat)), rng=rng)
        steps += 1
    return state, events


@pytest.mark.parametrize(("variant", "options"), [
    *((name, {}) for name in VARIANTS),
    *((name, {"deck": 32}) for name, v in VARIANTS.items() if 32 in v.decks),
    ("sixty-six", {"deck": 32, "ten_rank": "low"}),
    ("four-hand", {"deck": 32, "four_hand_scoring": "hoyle", "trump_ten_point": True}),
])
def test_a_record_replays_to_the_same_settlements_and_result(
        variant: str, options: dict[str, object]) -> None:
    state, events = played(variant, 3, options=options)
    record = json.loads(json.dumps(build(state, events, reveal=True)))
    assert record["complete"] and len(record["hands"]) == state.hand_no
    assert all(h["settlement"] for h in record["hands"])
    done = replay(record)
    assert done.hands == state.hand_no
    assert done.actions == sum(1 for e in events if action_of(e) is not None)
    assert done.state.score == state.score and done.state.set_winner == state.set_winner
    text_replay = replay(parse_text(to_text(record)))
    assert text_replay.state.settlement == state.settlement
    assert to_text(parse_text(to_text(record))) == to_text(record)


def test_a_resigned_game_replays_with_its_resignation() -> None:
    state, events = played("sixty-six", 5, resign_at=3)
    record = build(state, events, reveal=True)
    assert record["result"]["reason"] == "resigned" and record["result"]["by"] == 0
    assert record["hands"][-1]["actions"][-1] == {"seat": 0, "type": "resign"}
    assert replay(record).state.ended == ("resigned", 0)


def tampered(record: dict[str, Any], hand: int, action: int, card: str) -> dict[str, Any]:
    out = copy.deepcopy(record)
    out["hands"][hand]["actions"][action] = {
        **out["hands"][hand]["actions"][action], "type": "play", "card": card}
    return out


def test_the_first_difference_is_named() -> None:
    state, events = played("sixty-six", 8)
    record = json.loads(json.dumps(build(state, events, reveal=True)))
    first_play = next(i for i, a in enumerate(record["hands"][1]["actions"])
                      if a["type"] == "play")
    deck = record["hands"][1]["deck"]
    seat = record["hands"][1]["actions"][first_play]["seat"]
    held_by_nobody = deck[12]  # the face-up trump card: in no hand at the first trick
    with pytest.raises(ReplayMismatch, match=rf"^hand 2, action {first_play + 1}: {seat}:play:"
                       rf"{held_by_nobody} is illegal: you do not hold {held_by_nobody}$"):
        replay(tampered(record, 1, first_play, held_by_nobody))
    wrong = copy.deepcopy(record)
    wrong["hands"][0]["settlement"]["game_points"] += 1
    with pytest.raises(ReplayMismatch, match=r"^hand 1: settlement game_points: recorded"):
        replay(wrong)
    result = copy.deepcopy(record)
    result["result"]["score"] = [0, 0]
    with pytest.raises(ReplayMismatch, match=r"result score: recorded \[0, 0\]"):
        replay(result)


def test_a_masked_record_shows_the_seats_own_cards_and_cannot_be_replayed() -> None:
    state, events = played("sixty-six", 9)
    record = build(state, events, reveal=False, seat=1)
    assert all(h["deck"] is None for h in record["hands"])
    first_deal = next(e for e in events if e.type == "cards_dealt" and e.owner == 1)
    assert record["hands"][0]["cards"] == first_deal.for_seat(1)["cards"]
    with pytest.raises(InvalidRecord, match="hand 1 has no deck"):
        replay(record)
    assert "deck=?" in to_text(record)


@pytest.mark.parametrize("text, message", [
    ("", "line 1: a record starts with"),
    ("variant=sixty-six nonsense\n", "is not option=value"),
    ("variant=sixty-six match_points=4\n", "rules: match_points"),
    ("variant=sixty-six\ndealer=x deck=? |\n", "line 2: a hand is"),
    ("variant=sixty-six\ndealer=1 deck=? | 0:dance\n", "line 2: 'dance' is not an action"),
    ("variant=sixty-six\ndealer=1 deck=? | play:QH\n", "is not seat:action"),
])
def test_bad_text_records_name_the_line(text: str, message: str) -> None:
    with pytest.raises(InvalidRecord, match=message):
        parse_text(text)


def test_the_command_exits_non_zero_on_a_mismatch(tmp_path: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    state, events = played("schnapsen", 2)
    record = json.loads(json.dumps(build(state, events, reveal=True)))
    good = tmp_path / "good.json"
    good.write_text(json.dumps(record))
    assert main([str(good), "--show"]) == 0
    out = capsys.readouterr().out
    assert f"schnapsen: {state.hand_no} hands" in out and "settlements and result identical" in out
    record["hands"][0]["dealer"] = 1 - record["hands"][0]["dealer"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(record))
    assert main([str(bad)]) == 1
    assert "MISMATCH at hand 1" in capsys.readouterr().err
    assert main([str(tmp_path / "missing.json")]) == 2


def test_python_m_engine_replay_runs_without_a_warning(tmp_path: Path) -> None:
    """``python -m engine.replay`` under ``-W error``: runpy's "found in sys.modules" warning
    (the module imported by ``import engine`` before it ran as ``__main__``) fails it."""
    state, events = played("sixty-six", 4)
    record = tmp_path / "game.json"
    record.write_text(json.dumps(build(state, events, reveal=True)))
    done = subprocess.run([sys.executable, "-W", "error", "-m", "engine.replay", str(record)],
                          capture_output=True, text=True, timeout=120, check=False)
    assert (done.returncode, done.stderr) == (0, "")
    assert "settlements and result identical" in done.stdout

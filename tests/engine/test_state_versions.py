"""Stored states of older schema versions keep loading (issue E, stored-state versions).

``fixtures/state_v1.json`` is a mid-hand game saved by schema version 1 on 2026-11-29, and
``fixtures/state_v2.json`` one saved by version 2 (who has moved, how the game ended); they
must load, keep their facts and play on to the end with every later engine. Version 3 stores
the same members as a JSON array; the objects of the older versions still load from their text.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from engine import (
    InvalidState,
    from_dict,
    from_json,
    legal_actions,
    may_abort,
    to_dict,
    to_json,
    view,
)
from engine.actions import RESIGN_ACTION
from engine.play import apply
from engine.serialize import FIELDS, MIGRATIONS, SCHEMA_VERSION
from engine.state import MATCH_OVER

FIXTURE = Path(__file__).parent / "fixtures" / "state_v1.json"
FIXTURE_V2 = Path(__file__).parent / "fixtures" / "state_v2.json"


def load_fixture() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(FIXTURE.read_text())
    return data


def test_v1_fixture_loads_with_its_facts() -> None:
    state = from_dict(load_fixture())
    assert state.hand_no == 2
    assert state.score == [0, 3]
    assert state.trick == [state.trick[0]] and view(state, 1)["trick"][0]["card"] == "TH"
    assert view(state, 0)["melds"] == [{"seat": 0, "suit": "D", "points": 20, "credited": True}]
    assert state.total_card_points() == 120
    assert to_dict(state)["v"] == SCHEMA_VERSION


def test_v1_fixture_plays_to_the_end() -> None:
    state = from_dict(load_fixture())
    rng = random.Random(7)
    for _ in range(2000):
        if state.status == MATCH_OVER:
            break
        seat = next(s for s in range(state.players) if legal_actions(state, s))
        apply(state, seat, rng.choice(legal_actions(state, seat)), rng=rng)
    assert state.status == MATCH_OVER


def test_migrations_chain_to_the_current_version(monkeypatch: pytest.MonkeyPatch) -> None:
    """A dict of an older version passes through every migration in order."""
    current = load_fixture()
    older = {**current, "v": 0, "legacy_trump": current["tr"]}
    del older["tr"]

    def v0_to_v1(data: dict[str, Any]) -> dict[str, Any]:
        data = {**data, "v": 1, "tr": data["legacy_trump"]}
        del data["legacy_trump"]
        return data

    monkeypatch.setitem(MIGRATIONS, 0, v0_to_v1)
    assert to_dict(from_dict(older)) == to_dict(from_dict(current))


def test_unknown_versions_and_corrupt_states_are_refused() -> None:
    with pytest.raises(InvalidState, match="unknown state schema version"):
        from_dict({**load_fixture(), "v": SCHEMA_VERSION + 1})
    with pytest.raises(InvalidState):
        from_dict({**load_fixture(), "v": -5})
    with pytest.raises(InvalidState, match="corrupt"):
        from_dict({k: v for k, v in load_fixture().items() if k != "hs"})
    with pytest.raises(InvalidState, match="not JSON"):
        from_json("{not json")


def test_v1_games_upgrade_counting_every_seat_as_moved() -> None:
    """A game stored before resign and abort existed can be resigned, no longer aborted."""
    state = from_dict(load_fixture())
    assert state.moved == 0b11 and state.ended is None
    assert not may_abort(state, 0) and not may_abort(state, 1)


def test_v2_fixture_keeps_who_has_moved() -> None:
    """``fixtures/state_v2.json``: seat 0 melded and led, seat 1 has not moved yet."""
    state = from_dict(json.loads(FIXTURE_V2.read_text()))
    assert state.moved == 0b01 and state.ended is None
    assert may_abort(state, 0) and not may_abort(state, 1)
    apply(state, 0, RESIGN_ACTION)
    assert state.status == MATCH_OVER and state.set_winner == 1
    assert from_dict(to_dict(state)).ended == ("resigned", 0)


def test_stored_texts_of_older_versions_load_and_save_as_the_array() -> None:
    """A game saved as a version-1 or version-2 object (the text in Redis) loads through
    ``from_json``, keeps its facts and is saved again as the version-3 array."""
    for fixture in (FIXTURE, FIXTURE_V2):
        text = fixture.read_text()
        assert json.loads(text)["v"] < SCHEMA_VERSION
        state = from_json(text)
        assert to_dict(state) == to_dict(from_dict(json.loads(text)))
        stored = json.loads(to_json(state))
        assert stored == [SCHEMA_VERSION, *(to_dict(state)[name] for name in FIELDS)]
        assert to_json(from_json(to_json(state))) == to_json(state)


def test_the_array_is_shorter_than_the_object() -> None:
    state = from_dict(json.loads(FIXTURE_V2.read_text()))
    assert len(to_json(state)) < 0.7 * len(json.dumps(to_dict(state), separators=(",", ":")))


@pytest.mark.parametrize("text", [
    f"[{SCHEMA_VERSION + 1}]", "[2]", '["3"]', "[3]", f"[{SCHEMA_VERSION},1,2]", "7", '"x"'])
def test_unknown_or_corrupt_arrays_are_refused(text: str) -> None:
    with pytest.raises(InvalidState):
        from_json(text)


def test_an_array_with_a_corrupt_value_is_refused() -> None:
    stored = json.loads(to_json(from_dict(load_fixture())))
    stored[1 + FIELDS.index("ta")] = "ZZ"  # no card
    with pytest.raises(InvalidState, match="corrupt"):
        from_json(json.dumps(stored))
    stored[1 + FIELDS.index("ta")] = 5  # not a string of cards
    with pytest.raises(InvalidState, match="corrupt"):
        from_json(json.dumps(stored))

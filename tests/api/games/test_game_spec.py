"""The game spec that ``POST /v1/games``, tables and the tour share, and its one check."""

from __future__ import annotations

import pytest

from api.errors import FieldError
from api.games.spec import GameSettings, GameSpec, SeatSpec, check_spec
from api.http.schemas import CreateGameSchema, TableSettingsSchema


def test_the_settings_defaults_are_a_requests_that_names_none() -> None:
    assert GameSettings().to_dict() == TableSettingsSchema().load({})
    assert GameSpec.from_body(CreateGameSchema().load({})) == GameSpec()


def test_a_stored_tables_settings_without_a_newer_one_take_its_default() -> None:
    assert GameSettings.from_dict({"point_counter": True}) == GameSettings(point_counter=True)


def test_a_body_becomes_its_spec() -> None:
    body = CreateGameSchema().load({
        "variant": "schnapsen", "rules": {"close_min_talon": 3}, "match_points": 3,
        "seats": [{"kind": "human", "name": "Ann"}, {"kind": "computer", "level": "strong"}],
        "settings": {"think_time_s": 30}, "first_dealer": 1})
    assert GameSpec.from_body(body) == GameSpec(
        "schnapsen", {"close_min_talon": 3}, GameSettings(think_time_s=30),
        (SeatSpec("human", "Ann"), SeatSpec("computer", level="strong")), match_points=3,
        first_dealer=1)


def test_the_check_fills_the_default_seats_and_names() -> None:
    checked = check_spec(GameSpec(seats=(SeatSpec("human"), SeatSpec("computer"))))
    assert checked.seats == [{"kind": "human", "name": "Player 1", "level": None},
                             {"kind": "computer", "name": "Computer (random)",
                              "level": "random"}]
    assert checked.clock is None
    assert checked.rules == check_spec(GameSpec()).rules


@pytest.mark.parametrize(("spec", "field", "detail"), [
    (GameSpec(seats=(SeatSpec("human"),)), "seats", "this variant seats 2 players; got 1"),
    (GameSpec(seats=(SeatSpec("computer"),) * 2), "seats", "at least one seat must be human"),
    (GameSpec(seats=(SeatSpec("human", level="strong"), SeatSpec("computer"))),
     "seats.0.level", "only computer seats have a level"),
    (GameSpec(seats=(SeatSpec("human"), SeatSpec("computer", level="godlike"))),
     "seats.1.level", "unknown level 'godlike'"),
    (GameSpec(rules={"match_points": 7}, match_points=3), "match_points",
     "differs from rules.match_points"),
    (GameSpec(settings=GameSettings(think_time_s=1000)), "settings.think_time_s", "must be"),
])
def test_a_bad_spec_is_a_field_error_on_the_field_at_fault(spec: GameSpec, field: str,
                                                           detail: str) -> None:
    with pytest.raises(FieldError) as caught:
        check_spec(spec)
    assert caught.value.field == field
    assert str(caught.value).startswith(f"{field}: {detail}")


def test_a_bad_rule_option_is_named_where_it_was_given() -> None:
    with pytest.raises(FieldError) as caught:
        check_spec(GameSpec(rules={"close_min_talon": "many"}))
    assert caught.value.field == "rules.close_min_talon"
    with pytest.raises(FieldError) as caught:
        check_spec(GameSpec(match_points=-1))
    assert caught.value.field == "match_points"
    with pytest.raises(FieldError) as caught:
        check_spec(GameSpec(variant="no-such-variant"))
    assert caught.value.field == "variant"

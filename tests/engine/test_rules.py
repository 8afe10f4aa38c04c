"""Rules, options and settings: validation names the option and the allowed values."""

from __future__ import annotations

import pytest

from engine import InvalidOption, Rules, Settings, describe, find_variant
from engine.rules import OPTIONS, VARIANTS

DEFAULTS = {
    "deck": 24,
    "ten_rank": "high",
    "exchange_min_talon": 2,
    "exchange_requires_trick": False,
    "close_min_talon": 3,
    "meld_before_first_trick": "pending",
    "false_declaration": "fixed",
    "last_trick_bonus": 10,
    "match_points": 7,
    "schneider_bummerl": True,
    "set_bummerl": 1,
    "closing": True,
    "automatic_66": False,
    "meld_credit": "immediate",
    "played_out_points": "table",
    "four_hand_scoring": "project",
    "trump_ten_point": False,
}


def test_defaults_are_those_of_rules_md() -> None:
    rules = Rules.make()
    assert rules.variant.name == "sixty-six"
    assert rules.options() == DEFAULTS


@pytest.mark.parametrize(
    ("name", "value"),
    [(name, value) for name, opt in OPTIONS.items() for value in opt.allowed],
)
def test_every_allowed_option_value_is_accepted(name: str, value: object) -> None:
    needs: dict[str, object] = {
        ("ten_rank", "low"): {"deck": 32}, ("four_hand_scoring", "hoyle"): {"deck": 32},
        ("trump_ten_point", True): {"deck": 32, "four_hand_scoring": "hoyle"},
    }.get((name, value), {})
    variant = "four-hand" if OPTIONS[name].variants == ("four-hand",) else "sixty-six"
    assert getattr(Rules.make(variant, {name: value, **needs}), name) == value


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("match_points", 5),
        ("match_points", "7"),
        ("match_points", True),
        ("set_bummerl", 4),
        ("exchange_min_talon", 1),
        ("close_min_talon", 6),
        ("exchange_requires_trick", 1),
        ("schneider_bummerl", "yes"),
        ("meld_before_first_trick", "never"),
        ("false_declaration", "double"),
        ("last_trick_bonus", 20),
        ("closing", "no"),
        ("automatic_66", 1),
        ("meld_credit", "later"),
        ("played_out_points", 1),
        ("four_hand_scoring", "bicycle"),
        ("trump_ten_point", "yes"),
    ],
)
def test_bad_option_values_name_the_option_and_allowed_values(name: str, value: object) -> None:
    variant = "four-hand" if OPTIONS[name].variants == ("four-hand",) else "sixty-six"
    with pytest.raises(InvalidOption) as err:
        Rules.make(variant, {name: value})
    assert err.value.option == name
    assert err.value.allowed == list(OPTIONS[name].allowed)
    message = str(err.value)
    assert message.startswith(f"{name} must be one of ")
    for allowed in OPTIONS[name].allowed:
        assert repr(allowed) in message


def test_unknown_option_lists_the_options() -> None:
    with pytest.raises(InvalidOption) as err:
        Rules.make("sixty-six", {"trumps_wild": True})
    assert err.value.option == "trumps_wild"
    assert err.value.allowed == list(OPTIONS)
    assert "unknown option 'trumps_wild'" in str(err.value)
    assert "exchange_min_talon" in str(err.value)


def test_unknown_variant_lists_the_variants() -> None:
    with pytest.raises(InvalidOption) as err:
        Rules.make("skat")
    assert err.value.option == "variant"
    assert err.value.allowed == ["sixty-six", "schnapsen", "three-hand", "four-hand"]
    assert str(err.value) == (
        "unknown variant 'skat'; allowed: sixty-six, schnapsen, three-hand, four-hand")
    with pytest.raises(InvalidOption):
        find_variant("Sixty-Six")


@pytest.mark.parametrize(
    ("variant", "name", "value"),
    [
        ("schnapsen", "last_trick_bonus", 0),
        ("four-hand", "exchange_min_talon", 3),
        ("four-hand", "close_min_talon", 4),
        ("four-hand", "exchange_requires_trick", True),
    ],
)
def test_option_outside_its_variants_is_refused(variant: str, name: str, value: object) -> None:
    with pytest.raises(InvalidOption) as err:
        Rules.make(variant, {name: value})
    assert err.value.option == name
    assert f"{name} does not apply to {variant}" in str(err.value)


@pytest.mark.parametrize("variant", list(VARIANTS))
def test_every_variant_is_made_with_its_facts(variant: str) -> None:
    v = Rules.make(variant).variant
    expected = {
        "sixty-six": (2, 24, 6, 2),
        "schnapsen": (2, 20, 5, 2),
        "three-hand": (3, 24, 6, 3),
        "four-hand": (4, 24, 6, 2),
    }[variant]
    assert (v.players, len(v.deck), v.hand_size, v.sides) == expected


def test_bonus_is_zero_in_schnapsen_and_follows_the_option_elsewhere() -> None:
    assert Rules.make("schnapsen").bonus == 0
    assert Rules.make("sixty-six").bonus == 10
    assert Rules.make("sixty-six", {"last_trick_bonus": 0}).bonus == 0


def test_describe_lists_variants_options_and_settings() -> None:
    d = describe()
    variants = {v["name"]: v for v in d["variants"]}
    assert variants["sixty-six"]["talon_size"] == 12
    assert variants["schnapsen"]["talon_size"] == 10
    assert variants["three-hand"]["talon_size"] == 12
    assert variants["four-hand"]["talon_size"] == 0
    assert variants["sixty-six"]["decks"] == [
        {"deck": 24, "deck_size": 24, "hand_size": 6, "talon_size": 12, "tricks": 12,
         "exchange_card": "9"},
        {"deck": 32, "deck_size": 32, "hand_size": 6, "talon_size": 20, "tricks": 16,
         "exchange_card": "7"}]
    assert [(d["hand_size"], d["talon_size"], d["tricks"], d["exchange_card"])
            for d in variants["four-hand"]["decks"]] == [(6, 0, 6, None), (8, 0, 8, None)]
    assert [d["deck_size"] for d in variants["schnapsen"]["decks"]] == [20]
    assert variants["four-hand"]["trump_by"] == "dealer_last_card"
    options = {o["name"]: o for o in d["options"]}
    assert {n: o["default"] for n, o in options.items()} == DEFAULTS
    for name, opt in OPTIONS.items():
        assert options[name]["allowed"] == list(opt.allowed)
        assert options[name]["description"] and options[name]["source"]
    assert [s["name"] for s in d["settings"]] == ["point_counter", "hint_66"]


def test_settings_validation() -> None:
    assert Settings.make({"hint_66": True}) == Settings(point_counter=False, hint_66=True)
    with pytest.raises(InvalidOption) as err:
        Settings.make({"hint_66": 1})
    assert err.value.option == "hint_66"
    with pytest.raises(InvalidOption) as err:
        Settings.make({"clock": True})
    assert err.value.option == "clock"

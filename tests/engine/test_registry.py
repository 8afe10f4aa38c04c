"""The registry of games (:mod:`engine.registry`): the built-in games by name, variant, state
and stored form; a game defined elsewhere registered beside them; a clash refused."""

from __future__ import annotations

import json
from collections.abc import Sequence

import pytest

from api.games import rated
from engine import registry
from engine.errors import InvalidOption, InvalidState
from engine.games import NAMES
from tests.engine.toy_game import Toy

FAMILY = ("sixty-six", "schnapsen", "three-hand", "four-hand")


def test_every_variant_of_the_house_has_its_game() -> None:
    assert registry.variants()[:len(NAMES)] == list(NAMES)
    for variant in FAMILY:
        assert registry.for_variant(variant) is registry.get("sixty-six")
    assert registry.for_variant("tausendeins") is registry.get("tausendeins")
    assert [registry.get("sixty-six").players(v) for v in FAMILY] == [2, 2, 3, 4]


def test_an_unknown_variant_or_game_is_refused_naming_the_known() -> None:
    with pytest.raises(InvalidOption) as refused:
        registry.for_variant("skat")
    assert refused.value.option == "variant" and refused.value.allowed is not None
    assert list(NAMES) == refused.value.allowed[:len(NAMES)]
    with pytest.raises(InvalidOption, match="unknown game 'skat'"):
        registry.get("skat")


@pytest.mark.parametrize("variant", [*FAMILY, "tausendeins"])
def test_a_state_and_its_stored_form_find_their_game(variant: str) -> None:
    game = registry.for_variant(variant)
    state, _ = game.new_game(game.make_rules(variant))
    assert registry.for_state(state) is game and game.variant_of(state) == variant
    assert registry.for_stored(json.loads(json.dumps(game.to_stored(state)))) is game


def test_what_is_no_game_is_refused() -> None:
    with pytest.raises(TypeError):
        registry.for_state(object())
    with pytest.raises(InvalidState):
        registry.for_stored({"var": "skat"})


def test_the_capabilities_answer_what_the_service_asked_by_class() -> None:
    family, t1001 = registry.get("sixty-six").capabilities, registry.get("tausendeins").capabilities
    assert family.rated and family.text_record and family.clock and family.light_66
    assert family.settings == ("point_counter", "hint_66") and family.matches
    assert not (t1001.rated or t1001.text_record or t1001.clock or t1001.light_66
                or t1001.settings or t1001.matches)
    assert t1001.unrated == rated.TAUSENDEINS and t1001.hand_word == ("deal", "deals")


def test_table_settings_are_refused_by_a_game_without_them() -> None:
    game = registry.get("tausendeins")
    with pytest.raises(InvalidOption, match="tausendeins games have no hint_66"):
        game.new_game(game.make_rules("tausendeins"), {"hint_66": True})


class _Renamed(Toy):
    """The toy under another name, with the variants given."""

    def __init__(self, name: str, variants: Sequence[str]) -> None:
        super().__init__(name)
        self._variants = tuple(variants)

    def variants(self) -> Sequence[str]:
        return self._variants


def test_a_game_defined_elsewhere_is_registered_and_found() -> None:
    game = _Renamed("toy-two", ("toy-two",))
    registry.register(game)
    try:
        registry.register(game)  # again: no change
        assert registry.get("toy-two") is game and registry.for_variant("toy-two") is game
        assert list(registry.games()).count(game) == 1
    finally:
        registry.unregister("toy-two")
    with pytest.raises(InvalidOption):
        registry.get("toy-two")


@pytest.mark.parametrize(("name", "variants"), [("schnapsen", ("x",)),
                                                ("toy-three", ("four-hand",))])
def test_a_name_or_variant_already_taken_is_refused(name: str, variants: tuple[str]) -> None:
    with pytest.raises(ValueError, match="already registered"):
        registry.register(_Renamed(name, variants))
    assert registry.for_variant("four-hand") is registry.get("sixty-six")


"""Actions: text and dict round trips, invalid (unparsable) input."""

from __future__ import annotations

import pytest

from engine import Action, InvalidAction
from tests.engine.helpers import UNIVERSE


@pytest.mark.parametrize("action", UNIVERSE, ids=lambda a: a.text())
def test_text_dict_and_repr_round_trip(action: Action) -> None:
    assert Action.from_text(action.text()) is action
    assert Action.from_dict(action.as_dict()) is action
    assert eval(repr(action)) == action


def test_examples() -> None:
    assert Action.from_text("play:QH").text() == "play:QH"
    assert Action.from_text("meld:H").as_dict() == {"type": "meld", "suit": "H"}
    assert Action.from_text(" Play:QH ").text() == "play:QH"
    assert Action.from_dict({"type": "play", "card": "TD"}).text() == "play:TD"
    assert str(Action.from_text("declare")) == "declare"


@pytest.mark.parametrize(
    "text", ["", "dance", "play", "play:", "play:XX", "play:1H", "meld:X", "meld:KH",
             "close:now", "exchange:9C", "play:QH:QH", "play:qh", "meld:h", "play:Qh"],
)
def test_garbage_is_invalid(text: str) -> None:
    with pytest.raises(InvalidAction):
        Action.from_text(text)


@pytest.mark.parametrize(
    "data", [{}, {"type": "dance"}, {"type": "play"}, {"type": "play", "card": "ZZ"},
             {"type": "meld", "suit": 3}, {"type": 5}, {"type": "play", "card": "qh"},
             {"type": "play", "card": " QH"}, {"type": "play", "card": "QH "},
             {"type": "meld", "suit": "h"}],
)
def test_garbage_dicts_are_invalid(data: dict[str, object]) -> None:
    with pytest.raises(InvalidAction):
        Action.from_dict(data)


def test_actions_are_immutable_values() -> None:
    action = Action.from_text("play:QH")
    with pytest.raises(AttributeError):
        action.kind = "meld"
    assert action == Action("play", card=action.card)
    assert hash(action) == hash(Action("play", card=action.card))

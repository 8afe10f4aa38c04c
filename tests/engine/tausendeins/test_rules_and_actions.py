"""Tausendeins options, the registry by variant name, actions, the raise, resign and abort."""

from __future__ import annotations

import pytest

from engine import describe, make_rules
from engine.errors import IllegalAction, InvalidAction, InvalidOption, InvalidState
from engine.replay import ReplayMismatch
from engine.rules import VARIANTS, Rules
from engine.tausendeins import (
    OPTIONS,
    T1001Action,
    T1001Rules,
    build,
    from_dict,
    is_legal,
    new_game,
    replay,
    to_dict,
    view,
)
from engine.tausendeins.record import InvalidRecord
from tests.engine.tausendeins.helpers import D, F, act, deck, game, legal_texts, play_out

DEFAULTS = {"marriage_values": "german", "deal": "stock", "phase1_follow": "free",
            "phase2_head": True, "marriage_order": "free", "meld_first_lead": "allowed",
            "meld_without_trick": "lapses", "last_trick_bonus": 0, "deal_rounding": "none",
            "target_points": 1001, "bidding": "contract", "bid_min": 100, "bid_step": 10,
            "bid_cap": "marriages", "contract_gain": "bid", "defender_marriages": "count",
            "contract_deal": "stock", "musik_shown": True, "musik_leftover": "last_trick"}


def test_make_rules_dispatches_by_variant_and_validates_every_option() -> None:
    rules = make_rules("tausendeins")
    assert isinstance(rules, T1001Rules) and rules.options() == DEFAULTS
    assert isinstance(make_rules("sixty-six"), Rules)
    assert "tausendeins" not in VARIANTS  # the Sixty-Six engine does not take it
    for name, opt in OPTIONS.items():
        with pytest.raises(InvalidOption) as err:
            make_rules("tausendeins", {name: "nonsense" if opt.type is not str else 7})
        assert err.value.option == name
    with pytest.raises(InvalidOption, match="unknown option"):
        make_rules("tausendeins", {"closing": False})
    assert make_rules("tausendeins", {"target_points": 1500}).options()["target_points"] == 1500
    with pytest.raises(InvalidOption, match="from 100 to 10001"):
        make_rules("tausendeins", {"target_points": 99})


def test_describe_lists_the_variant_and_its_options() -> None:
    variants = {v["name"]: v for v in describe()["variants"]}  # type: ignore[union-attr]
    t = variants["tausendeins"]
    assert "served" not in t and t["players"] == 2 and t["trump_by"] == "marriage"
    options = {o["name"]: o for o in t["options"]}
    assert {n: o["default"] for n, o in options.items()} == DEFAULTS
    for o in options.values():
        assert o["description"] and o["variants"] == ["tausendeins"]
        assert (o["type"] in ("string", "integer", "boolean") and o["default"] in o["allowed"]) \
            or o["range"]
    assert options["target_points"]["allowed"] == [100, 10001]
    assert {o["name"] for o in describe()["options"]}.isdisjoint(  # type: ignore[union-attr]
        {"marriage_values", "bidding"})


def test_rules_round_trip_through_as_dict() -> None:
    rules = T1001Rules.make({"bidding": "none", "deal": "all"})
    assert T1001Rules.from_dict(rules.as_dict()) == rules
    assert rules.changed_options() == {"bidding": "none", "deal": "all"}
    with pytest.raises(InvalidOption):
        T1001Rules.from_dict({"variant": "sixty-six"})


@pytest.mark.parametrize("text", ["play:QH", "meld:H", "bid:110", "pass", "take_musik:2",
                                  "discard:AC,9D", "raise:130", "continue", "resign", "abort"])
def test_actions_round_trip_as_text_and_json(text: str) -> None:
    action = T1001Action.from_text(text)
    assert action.text() == text and str(action) == text
    assert T1001Action.from_dict(action.as_dict()) == action


@pytest.mark.parametrize("bad", ["play:XX", "bid:", "bid:-1", "discard:AC", "dance", "pass:1"])
def test_bad_action_text_is_invalid(bad: str) -> None:
    with pytest.raises(InvalidAction):
        T1001Action.from_text(bad)


def test_bad_action_json_is_invalid() -> None:
    for data in ({"type": "bid"}, {"type": "bid", "points": True}, {"type": "discard"},
                 {"type": "close"}):
        with pytest.raises(InvalidAction):
            T1001Action.from_dict(data)  # type: ignore[arg-type]


def test_the_musik_declarer_may_raise_once_before_his_first_lead() -> None:
    state = game({"contract_deal": "musik"},
                 deck(["KS", "QS", "9C"], [], ["AH", "TH", "KH", "QH"], kind="musik"))
    act(state, D, "pass")
    assert "raise:110" not in legal_texts(state, F)
    with pytest.raises(IllegalAction, match="raise"):
        act(state, F, "raise:110")
    act(state, F, "take_musik:2")
    act(state, F, "discard:KC,QC")  # the clubs marriage given up
    texts = legal_texts(state, F)
    # hearts and spades held: 120 + 60 + 80
    assert "raise:260" in texts and "raise:270" not in texts and "meld:H" in texts
    act(state, F, "raise:150")
    assert state.contract == 150 and state.raised
    assert not any(t.startswith("raise") for t in legal_texts(state, F))
    assert view(state, D)["auction"] == {"calls": [{"seat": F, "bid": 100},
                                                   {"seat": D, "bid": None}],
                                         "contract": 150, "declarer": F, "raised": True}
    play_out(state)
    assert state.settlement is not None and state.settlement["contract"]["contract"] == 150


def test_resign_and_abort() -> None:
    state, _ = new_game(T1001Rules.make({"bidding": "none"}), first_dealer=D)
    assert is_legal(state, D, T1001Action.simple("abort"))
    act(state, F, "play:" + view(state, F)["hand"][0])
    with pytest.raises(IllegalAction, match="no longer be aborted"):
        act(state, D, "abort")
    act(state, D, "resign")
    assert (state.status, state.winner, state.ended) == ("match_over", F, ("resigned", D))
    with pytest.raises(IllegalAction, match="over"):
        act(state, F, "resign")
    aborted, _ = new_game(T1001Rules.make(), first_dealer=F)
    act(aborted, D, "abort")
    assert aborted.status == "aborted" and not is_legal(aborted, F, T1001Action.simple("pass"))


def test_a_record_without_decks_or_with_a_changed_action_does_not_replay() -> None:
    state, events = new_game(T1001Rules.make({"bidding": "none"}), first_dealer=D)
    events += play_out(state)
    hidden = build(state, events, reveal=False, seat=F)
    assert hidden["hands"][0]["deck"] is None and len(hidden["hands"][0]["cards"]) == 8
    with pytest.raises(InvalidRecord):
        replay(hidden)
    record = build(state, events, reveal=True)
    assert replay(record).totals == state.totals
    record["hands"][0]["settlement"]["totals"] = [0, 0]
    with pytest.raises(ReplayMismatch, match="settlement"):
        replay(record)


def test_a_corrupt_state_does_not_load() -> None:
    state, _ = new_game(T1001Rules.make(), first_dealer=D)
    data = to_dict(state)
    assert from_dict(data) == state
    for broken in ({**data, "v": 9}, {**data, "sk": "XX"}, {k: v for k, v in data.items()
                                                           if k != "hs"}):
        with pytest.raises(InvalidState):
            from_dict(broken)


def test_a_refusal_says_why_and_lists_the_legal_actions() -> None:
    state, _ = new_game(T1001Rules.make(), first_dealer=D)
    with pytest.raises(IllegalAction) as err:
        act(state, F, "pass")
    assert "not your turn" in err.value.reason
    with pytest.raises(IllegalAction) as err:
        act(state, D, "play:AC")
    assert "auction" in err.value.reason
    assert T1001Action.bid(110) in err.value.legal and T1001Action.simple("pass") in err.value.legal

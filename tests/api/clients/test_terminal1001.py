"""The terminal's Tausendeins: real engine views and events as text, and the typed commands."""

from __future__ import annotations

import re
from typing import Any

from api.clients.client import action_dict, action_text
from api.clients.play import T1001_TEXTS, texts_of
from api.clients.terminal1001 import (
    numbered_choices,
    parse_choice,
    render_actions,
    render_event,
    render_result,
    render_settlement,
    render_view,
    trump_after,
)
from engine.events import Event
from engine.tausendeins import view
from tests.engine.tausendeins.helpers import D, F, act, deck, game, play_out, script

NAMES = {0: "Ann", 1: "Computer"}
#: Ann (forehand) holds the marriages of hearts and diamonds, the dealer that of clubs.
HANDS = (["KH", "QH", "AS", "KD", "QD", "TS", "9S", "JH"],
         ["AC", "TC", "KC", "QC", "JC", "9C", "AH", "TH"])
STOCK_DECK = deck(*HANDS)
MUSIK_DECK = deck([*HANDS[0], "AD", "TD"], [*HANDS[1], "KS", "QS"], ["9H", "JD", "9D", "JS"],
                  kind="musik")


def _lines(events: list[Event], seat: int, trump: str | None = None) -> list[str]:
    """The log lines ``seat`` reads for ``events``, the trump followed as play.py does."""
    out = []
    for event in events:
        seen = event.for_seat(seat)
        line = render_event(seen, seat, NAMES, trump)
        trump = trump_after(seen, trump)
        if line:
            out.append(line)
    return out


def _choices(seen: dict[str, Any]) -> list[Any]:
    return numbered_choices(seen["legal_actions"], seen["trump_suit"])


def test_a_deal_without_auction_starts_without_trump_and_with_the_stock() -> None:
    seen = view(game({"bidding": "none"}, STOCK_DECK), F)
    text = render_view(seen, NAMES)
    assert "Deal 1 · dealer: Computer · forehand: You · trick 1 of 12" in text
    assert "Game to 1001: You 0 (1001 to go) · Computer 0 (1001 to go)" in text
    assert "Trump: none (no marriage yet) · stock: 8 cards" in text
    assert "Your hand: AS TS 9S KH QH JH KD QD" in text  # no trump: C S H D, high to low
    assert "Auction" not in text and "Contract" not in text
    assert texts_of(seen) is T1001_TEXTS


def test_each_marriage_sets_trump_and_the_log_says_the_change() -> None:
    state = game({"bidding": "none", "meld_without_trick": "counts"}, STOCK_DECK)
    events = script(state, ["0:meld:H", "0:play:KH", "1:play:AH"])
    lines = _lines(events, F)
    assert ("You meld the marriage of hearts for 60: trump is now H (hearts)." in lines)
    assert "Computer took the trick KH AH for 15 points with the higher card of the suit led." \
        in lines
    text = render_view(view(state, D), NAMES)
    assert "Trump: H (hearts) · stock: 6 cards" in text
    assert "Marriages: Ann hearts 60 (trick 1)" in text
    assert "Last trick: Ann KH, You AH → You" in text
    assert "Known cards of Ann: QH" in text  # the partner of the melded King
    state2 = game({"bidding": "none"}, STOCK_DECK)
    first = script(state2, ["0:meld:H", "0:play:QH", "1:play:9C", "0:meld:D"])
    lines = _lines(first, D)
    assert lines[0] == ("Ann melds the marriage of hearts for 60 (counts once a trick is won): "
                        "trump is now H (hearts).")
    assert lines[-1] == ("Ann melds the marriage of diamonds for 40: trump is now D "
                         "(diamonds), was hearts.")
    assert "Ann: the marriage of hearts now counts 60." in lines


def test_the_auction_numbers_the_lowest_bid_and_pass_and_names_the_others() -> None:
    state = game({}, STOCK_DECK)
    seen = view(state, D)
    assert "Auction: Ann 100; highest bid 100 by Ann" in render_view(seen, NAMES)
    choices = _choices(seen)
    assert [action_text(c) for c in choices] == ["bid:110", "pass"]
    listing = render_actions(choices, seen["legal_actions"]).splitlines()
    assert listing == ["  1) bid:110", "  2) pass", "  or bid N: 110 to 220 in steps of 10"]
    legal = seen["legal_actions"]
    assert parse_choice("1", choices, legal) == {"type": "bid", "points": 110}
    assert parse_choice("bid 150", choices, legal) == {"type": "bid", "points": 150}
    assert parse_choice("bid:150", choices, legal) == {"type": "bid", "points": 150}
    assert parse_choice(" PASS ", choices, legal) == {"type": "pass"}
    assert parse_choice("bid 1x0", choices, legal) is None
    assert parse_choice("bid", choices, legal) is None
    events = act(state, D, "bid:120") + act(state, F, "pass")
    assert _lines(events, F) == ["Computer bids 120.", "You pass.",
                                 "Computer plays a contract of 120."]
    text = render_view(view(state, F), NAMES)
    assert "Contract: 120 by Computer (auction: You 100, Computer 120, You pass)" in text


def test_the_musik_deal_takes_a_musik_discards_two_and_raises() -> None:
    state = game({"contract_deal": "musik"}, MUSIK_DECK)
    act(state, D, "pass")
    seen = view(state, F)
    assert "Musiks: 2 of 2 cards, face down" in render_view(seen, NAMES)
    choices = _choices(seen)
    assert [action_text(c) for c in choices] == ["take_musik:1", "take_musik:2"]
    assert parse_choice("musik 2", choices, seen["legal_actions"]) == {
        "type": "take_musik", "musik": 2}
    taken = act(state, F, "take_musik:1")
    assert _lines(taken, D) == ["Ann takes musik 1: 9H JD."]
    seen = view(state, F)
    choices = _choices(seen)
    assert choices == []  # 66 pairs: typed, not numbered
    listing = render_actions(choices, seen["legal_actions"])
    assert listing.startswith("  discard two cards of your hand: discard C C (e.g. discard ")
    order = parse_choice("discard 9s jh", choices, seen["legal_actions"])
    assert order == {"type": "discard", "cards": ["9S", "JH"]}
    assert parse_choice("discard 9S", choices, seen["legal_actions"]) is None
    dropped = act(state, F, "discard:9S,JH")
    assert _lines(dropped, F) == ["You discard 9S JH."]
    assert _lines(dropped, D) == ["Ann discards two cards."]
    seen = view(state, F)
    text = render_view(seen, NAMES)
    assert "Musik 1 taken by You: 9H JD" in text and "You discarded: 9S JH" in text
    assert "no stock: follow suit and win the trick if you can, else trump" in text
    choices = _choices(seen)
    raises = [c for c in choices if c["type"] == "raise"]
    assert raises == [{"type": "raise", "points": 110}]  # only the lowest is numbered
    assert "  or raise N: 110 to 220 in steps of 10" in render_actions(
        choices, seen["legal_actions"])
    assert parse_choice("raise", choices, seen["legal_actions"]) == {
        "type": "raise", "points": 110}
    assert parse_choice("raise 130", choices, seen["legal_actions"]) == {
        "type": "raise", "points": 130}
    assert parse_choice("meld h", choices, seen["legal_actions"]) == {"type": "meld", "suit": "H"}
    assert parse_choice("kh", choices, seen["legal_actions"]) == {"type": "play", "card": "KH"}
    assert _lines(act(state, F, "raise:130"), D) == ["Ann raises the contract to 130."]
    assert "Contract: 130 (raised) by You" in render_view(view(state, F), NAMES)
    assert parse_choice("raise", _choices(view(state, F)), view(state, F)["legal_actions"]) \
        is None  # one raise only


def test_plays_are_numbered_in_the_order_of_the_hand_then_the_marriages() -> None:
    seen = view(game({"bidding": "none"}, STOCK_DECK), F)
    choices = _choices(seen)
    hand = render_view(seen, NAMES).split("Your hand: ")[1].split()
    assert [c["card"] for c in choices if c["type"] == "play"] == hand
    assert [c.get("suit") for c in choices[len(hand):]] == ["H", "D"]
    assert len(choices) == len(seen["legal_actions"])


def test_the_settlement_shows_the_working_of_each_seat_and_the_contract() -> None:
    state = game({}, STOCK_DECK)
    events = act(state, D, "pass") + play_out(state)
    settled = next(e for e in events if e.type == "hand_settled").for_seat(F)["settlement"]
    text = render_settlement(settled, F, NAMES)
    contract = settled["contract"]
    how = "made" if contract["made"] else "failed"
    assert text.splitlines()[0].startswith(
        f"Deal 1 over: the contract 100 of You {how} (score {contract['score']}, ")
    assert re.search(r"^  You: cards \d+( \+ marriage [CSHD] \d+)* = \d+; [+-]\d+ → -?\d+ "
                     r"\(\d+ to go\)", text, re.M)
    assert re.search(r"^  Computer: cards \d+.* = \d+; \+\d+ → \d+ \(\d+ to go\)", text, re.M)
    assert re.search(r"^    took: ([ATKQJ9][CSHD] ?)+$", text, re.M)
    shown = render_view(view(state, F), NAMES)
    mine = settled["seats"][F]["total"]
    assert f"Game to 1001: You {mine} ({1001 - mine} to go)" in shown or mine < 0


def test_the_result_names_the_winner_and_a_resignation() -> None:
    state = game({}, STOCK_DECK)
    events = act(state, F, "resign")
    assert _lines(events, D) == ["Ann resigned."]
    assert render_result(view(state, D), NAMES) == "You won (0:0). Ann resigned."
    aborted = game({}, STOCK_DECK)
    act(aborted, D, "abort")
    assert render_result(view(aborted, F), NAMES) == "Aborted by Computer: no result."


def test_a_game_to_a_low_target_ends_with_the_winner_line() -> None:
    state = game({"target_points": 100, "bidding": "none"}, STOCK_DECK)
    events = play_out(state)
    while state.status != "match_over":
        events += act(state, F, "continue") + act(state, D, "continue") + play_out(state)
    lines = _lines(events, F)
    assert re.fullmatch(r"\*\*\* (You|Computer) won the game \d+:\d+\. \*\*\*", lines[-1])
    assert any(line.startswith("— Deal 2: You deal; a stock of 8; no trump until a marriage")
               for line in lines)


def test_tausendeins_action_text_round_trips_through_the_client() -> None:
    for text in ("bid:110", "raise:130", "take_musik:2", "discard:JS,9H", "pass", "meld:H"):
        assert action_text(action_dict(text)) == text

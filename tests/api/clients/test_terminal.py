"""Terminal rendering of real engine views, events and settlements."""

from __future__ import annotations

import random
from typing import Any

from api.clients.terminal import (
    order_actions,
    parse_choice,
    render_actions,
    render_event,
    render_hint,
    render_match,
    render_result,
    render_settlement,
    render_view,
    sort_cards,
    table_names,
)
from engine import (
    HAND_OVER,
    MATCH_OVER,
    Action,
    Event,
    GameState,
    Rules,
    apply,
    legal_actions,
    new_game,
    view,
)
from tests.api.helpers import HEARTS_DECK as DECK
from tests.engine.helpers import play_out, run, start
from tests.engine.test_deck32_hoyle import DECK_100, DECK_TIE, TEN_POINT
from tests.engine.test_rule_options import STRONG_F

NAMES = {0: "Ann", 1: "Computer"}


def _game(**options: Any) -> GameState:
    state, _ = new_game(Rules.make("sixty-six", options), first_dealer=1, decks=[DECK])
    return state


def _act(state: GameState, seat: int, text: str) -> list[Event]:
    return apply(state, seat, Action.from_text(text))


def test_view_shows_hand_trump_talon_and_an_empty_table() -> None:
    text = render_view(view(_game(), 0), NAMES)
    assert "Hand 1 · dealer: Computer" in text
    assert "Match to 7: You 0 (7 to go) · Computer 0 (7 to go)" in text
    assert "Trump: H (hearts), face up: 9H · talon: 12 cards" in text
    assert "Table: (empty)" in text
    assert "Your hand: KH QH JC 9C AS TS" in text  # trumps first, then C S H D, high to low
    assert "Last trick" not in text


def test_meld_shows_as_known_cards_to_the_opponent_and_on_the_table() -> None:
    state = _game()
    _act(state, 0, "meld:H")
    _act(state, 0, "play:QH")
    text = render_view(view(state, 1), NAMES)
    assert "Known cards of Ann: KH" in text  # QH is on the table, no longer in the hand
    assert "Meld: Ann 40 in hearts (pending: no trick yet)" in text
    assert "Table: Ann QH" in text
    assert "Your hand: AH TH KS QS JD 9D" in text


def test_last_trick_closing_and_points_counter() -> None:
    state, _ = new_game(Rules.make("sixty-six"), first_dealer=1, decks=[DECK])
    state.settings = type(state.settings)(point_counter=True)
    _act(state, 0, "play:AS")
    _act(state, 1, "play:KS")
    _act(state, 0, "close")
    text = render_view(view(state, 0), NAMES)
    assert "Last trick: You AS, Computer KS → You" in text
    assert "talon: 10 cards, closed by You" in text
    assert "face up" not in text  # a closed talon hides its trump card
    assert "Your points: 15 (tricks 15, melds 0)" in text
    assert "Points of Computer: 0 (tricks 0, melds 0)" in text


def test_running_points_count_pending_melds_apart() -> None:
    state = _game()
    state.settings = type(state.settings)(point_counter=True)
    _act(state, 0, "meld:H")
    text = render_view(view(state, 0), NAMES)
    assert "Your points: 0 (tricks 0, melds 0, pending 40)" in text
    _act(state, 0, "play:QH")
    _act(state, 1, "play:9D")
    text = render_view(view(state, 0), NAMES)
    assert "Your points: 43 (tricks 3, melds 40)" in text
    assert "Points of Ann" not in render_view(view(_game(), 1), NAMES)  # counter off


def test_actions_are_listed_in_the_order_of_the_hand() -> None:
    seen = view(_game(), 0)
    legal = order_actions(seen["legal_actions"], seen["trump_suit"])
    assert [a["card"] for a in legal if a["type"] == "play"] == (
        render_view(seen, NAMES).split("Your hand: ")[1].split())
    assert [a["type"] for a in legal[6:]] == ["meld", "close"]
    assert len(legal) == len(seen["legal_actions"])


def test_melds_are_listed_trumps_first_then_by_suit() -> None:
    legal = [{"type": "close"}, {"type": "meld", "suit": "C"}, {"type": "meld", "suit": "D"},
             {"type": "play", "card": "9C"}, {"type": "meld", "suit": "S"},
             {"type": "play", "card": "AD"}]
    assert [a.get("card") or a.get("suit") or a["type"]
            for a in order_actions(legal, "D")] == ["AD", "9C", "D", "C", "S", "close"]


def test_actions_are_numbered_and_chosen_by_number_card_or_text() -> None:
    seen = view(_game(), 0)
    legal = order_actions(seen["legal_actions"], seen["trump_suit"])
    listing = render_actions(legal).splitlines()
    assert listing[0] == "  1) play:KH"
    assert listing[6] == "  7) meld:H"
    assert parse_choice("1", legal) == {"type": "play", "card": "KH"}
    assert parse_choice(" 7 ", legal) == {"type": "meld", "suit": "H"}
    assert parse_choice("play:qh", legal) == {"type": "play", "card": "QH"}
    assert parse_choice(" th ", legal) == {"type": "play", "card": "TH"}  # bare card code
    assert parse_choice("TS", legal) == {"type": "play", "card": "TS"}
    assert parse_choice("TX", legal) is None
    assert parse_choice("close", legal) == {"type": "close"}
    # parsed but not legal now: passed on, the server says why it is refused
    assert parse_choice("play:AH", legal) == {"type": "play", "card": "AH"}
    assert parse_choice("0", legal) is None
    assert parse_choice(str(len(legal) + 1), legal) is None
    assert parse_choice("hello", legal) is None


def test_trick_events_name_the_reason() -> None:
    state = _game()
    events = _act(state, 0, "play:TS") + _act(state, 1, "play:TH")
    lines = [render_event(e.for_seat(0), 0, NAMES) for e in events]
    assert lines[0] == "You played TS."
    assert lines[1] == "Computer played TH."
    assert lines[2] == "Computer took the trick TS TH for 20 points with a trump."
    assert lines[3] == "Computer drew a card."  # hidden from seat 0
    assert lines[4] == "You drew TC."  # own draw, from the private part
    higher = _act(state, 1, "play:KS") + _act(state, 0, "play:AS")
    assert render_event(higher[2].for_seat(0), 0, NAMES) == (
        "You took the trick KS AS for 15 points with the higher card of the suit led.")


def test_dealt_cards_show_only_to_their_owner() -> None:
    _, events = new_game(Rules.make("sixty-six"), first_dealer=1, decks=[DECK])
    dealt = [e for e in events if e.type == "cards_dealt"]
    mine = [render_event(e.for_seat(0), 0, NAMES, "H") for e in dealt]
    assert "You are dealt KH QH JC 9C AS TS." in mine  # as the hand shows them
    assert None in mine  # the other seat's cards are not shown


def test_computers_are_named_by_where_they_sit() -> None:
    def seats(n: int) -> list[dict[str, Any]]:
        return [{"seat": 0, "kind": "human", "name": "Ann", "level": None}] + [
            {"seat": i, "kind": "computer", "name": "Computer (normal)", "level": "normal"}
            for i in range(1, n)]

    assert table_names(seats(4), 0) == {
        1: "West (normal)", 2: "North (normal, partner)", 3: "East (normal)"}
    assert table_names(seats(3), 0) == {1: "West (normal)", 2: "East (normal)"}
    assert table_names(seats(2), 0) == {1: "Computer (normal)"}
    assert table_names(seats(4), 2) == {
        0: "North (Ann, partner)", 1: "East (normal)", 3: "West (normal)"}
    assert table_names(seats(3), None) == {0: "Ann", 1: "Computer (normal)",
                                           2: "Computer (normal)"}


def test_a_hint_shows_advice_reason_and_the_mark() -> None:
    hint = {"level": "strong", "hand_no": 2, "best": {"type": "play", "card": "TS"},
            "actions": [{"text": "play:TS", "expected_game_points": 0.84},
                        {"text": "close", "expected_game_points": -0.5}],
            "reason": "play:TS is worth +0.84 game points"}
    assert render_hint(hint).splitlines() == [
        "Hint (strong computer): play:TS",
        "  play:TS is worth +0.84 game points",
        "  expected game points: play:TS +0.84, close -0.50",
        "  Hand 2 is now marked as hinted for you: it does not count for the leaderboard."]
    seen = {**view(_game(), 0), "hinted_hands": [{"seat": 0, "hand_no": 1,
                                                                "match_no": 1}]}
    assert "You took a hint in this hand" in render_view(seen, NAMES)
    assert "hint" not in render_view({**seen, "seat": 1}, NAMES)


def _play_out(state: GameState, rng: random.Random) -> list[Event]:
    """Plays random legal actions (never declaring) until the hand is over."""
    events: list[Event] = []
    while state.status not in (HAND_OVER, MATCH_OVER):
        seat = state.to_act()
        assert seat is not None
        choices = [a for a in legal_actions(state, seat) if a.kind != "declare"]
        events += apply(state, seat, rng.choice(choices))
    return events


def test_settlement_shows_its_working() -> None:
    state = _game()
    events = _play_out(state, random.Random(7))
    settlement = state.settlement
    assert settlement is not None
    text = render_settlement(settlement, 0, NAMES)
    lines = text.splitlines()
    assert lines[0].startswith("Hand over: ")
    assert settlement["explanation"] in lines[0]
    for side in settlement["sides"]:
        who = "You" if side["seats"] == [0] else "Computer"
        line = next(x for x in lines if x.startswith(f"  {who}: tricks {side['trick_points']}"))
        assert line.split(" = ")[1].split(" ")[0] == str(side["total"])
        assert f"took: {' '.join(sort_cards(side['cards']))}" in text
    settled = next(e for e in events if e.type == "hand_settled")
    assert render_event(settled.for_seat(0), 0, NAMES) == text


def test_false_declaration_shows_the_missing_points() -> None:
    state = _game()
    _act(state, 0, "play:AS")
    _act(state, 1, "play:9D")
    _act(state, 0, "declare")
    assert state.settlement is not None
    text = render_settlement(state.settlement, 0, NAMES)
    assert text.startswith(
        "Hand over: Computer won 3 game points (a false declaration: the opponent has no trick).")
    assert "  You: tricks 11 = 11" in text
    assert "The declaration was 55 points short of 66." in text


def test_forfeited_meld_is_shown() -> None:
    settlement = {
        "reason": "played_out", "explanation": "the loser took no trick", "winners": [1],
        "game_points": 3, "missing_points": None,
        "sides": [
            {"seats": [0], "trick_points": 0, "melds": [],
             "forfeited_melds": [{"seat": 0, "suit": "H", "points": 40}],
             "last_trick_bonus": 0, "total": 0, "cards": []},
            {"seats": [1], "trick_points": 120, "melds": [], "forfeited_melds": [],
             "last_trick_bonus": 10, "total": 130, "cards": ["AH", "TH"]},
        ],
    }
    text = render_settlement(settlement, 0, NAMES)
    assert "  You: tricks 0 = 0 (forfeited: 40 in H)" in text
    assert "  Computer: tricks 120 + last trick 10 = 130" in text
    assert "    took: -" in text


def test_match_and_result_lines() -> None:
    match = {"target": 7, "points": [7, 3], "needed": [0, 4], "bummerl": [0, 1],
             "set_bummerl": 1, "winner": 0, "set_winner": 0, "result_reason": "points",
             "resigned_by": None, "aborted_by": None}
    assert render_match(match, 1, NAMES) == "Match to 7: Ann 7 (0 to go) · You 3 (4 to go)"
    assert render_result({"seat": 0, "match": match}, NAMES) == "You won (7:3)."
    in_set = {**match, "set_bummerl": 2, "bummerl": [2, 1], "set_winner": 1}
    assert render_match(in_set, 0, NAMES).endswith("· Bummerl: You 2, Computer 1")
    assert render_result({"seat": 0, "match": in_set}, NAMES) == "Computer won (7:3)."
    resigned = {**match, "points": [2, 3], "set_winner": 1, "result_reason": "resigned",
                "resigned_by": 0}
    assert render_result({"seat": 0, "match": resigned}, NAMES) == (
        "Computer won (2:3). You resigned.")
    aborted = {**match, "points": [0, 0], "set_winner": None, "result_reason": "aborted",
               "aborted_by": 1}
    assert render_result({"seat": 0, "match": aborted}, NAMES) == "Aborted by Computer: no result."
    partners = {**match, "points": [7, 3, 7, 3], "set_winner": 0}
    four = {0: "West", 1: "You", 2: "East", 3: "North"}
    assert render_result({"seat": 1, "variant": "four-hand", "match": partners}, four) == (
        "West + East won (7:3:7:3).")


def test_an_explanation_that_repeats_the_reason_is_said_once() -> None:
    settlement = {"reason": "closing_failed", "explanation": "the closing failed",
                  "winners": [0], "game_points": 2, "sides": [], "missing_points": None}
    assert render_settlement(settlement, 0, NAMES) == (
        "Hand over: You won 2 game points (the closing failed).")
    tie = {**settlement, "reason": "tie", "explanation": "equal points 65:65", "winners": []}
    assert render_settlement(tie, 0, NAMES) == (
        "Hand over: nobody scores (a tie: equal points 65:65).")


def test_a_set_is_announced_only_when_it_has_several_matches() -> None:
    single = {"type": "set_won", "winners": [0], "bummerl": [0, 1], "matches_won": [1, 0]}
    assert render_event(single, 0, NAMES) is None
    longer = {**single, "bummerl": [1, 2], "matches_won": [2, 1]}
    assert render_event(longer, 0, NAMES) == "*** You won the set. ***"


def test_a_chat_message_is_a_line_with_its_sender() -> None:
    message = {"seq": 9, "type": "chat", "seat": 1, "name": "Bob", "text": "nice trick",
               "at": "2026-12-01T08:51:08Z"}
    assert render_event(message, 0, {1: "Bob"}) == "[Bob] nice trick"
    assert render_event(message, 1, {0: "Ann"}) == "[You] nice trick"
    assert render_event(message, None, {0: "Ann", 1: "Bob"}) == "[Bob] nice trick"


def test_an_automatic_66_is_told_as_reached_not_declared() -> None:
    state = start(STRONG_F, options={"automatic_66": True})
    events = run(state, "1 play:AS; 0 play:QH; 1 play:TS; 0 play:QD; 1 meld:C")
    lines = [render_event(e.for_seat(0), 0, NAMES, "C") for e in events[-3:]]
    assert lines[1] == "Computer reached 66 with 67 points: the hand is over."
    assert lines[2] is not None and lines[2].startswith(
        "Hand over: Computer won 3 game points (reached 66 with 67 points: the loser took "
        "no trick).")


def test_the_8s_and_7s_of_the_32_card_pack_sort_under_the_9() -> None:
    assert sort_cards(["7S", "9S", "8S", "7H", "AS"], "H") == ["7H", "AS", "9S", "8S", "7S"]


def test_a_hoyle_settlement_shows_the_carry_and_the_trump_ten() -> None:
    names = {0: "Ann", 1: "East", 2: "North", 3: "West"}
    state = start(DECK_TIE, "four-hand", TEN_POINT, more=[DECK_100])
    events = play_out(state)
    assert state.settlement is not None
    tied = render_settlement(state.settlement, 0, names)
    assert "The winners of the next hand get 1 game point(s) more." in tied
    side = state.settlement["trump_ten_side"]
    assert ("The trump Ten: 1 game point to "
            + ("You + North." if side == 0 else "East + West.")) in tied
    ten = next(e for e in events if e.type == "trump_ten_point")
    assert render_event(ten.for_seat(0), 0, names).endswith("took the trump Ten: 1 game point "
                                                            f"({':'.join(map(str, state.score))}).")
    for seat in range(4):
        apply(state, seat, Action.from_text("continue"))
    play_out(state)
    assert state.settlement is not None
    assert "1 of these game points carried from tied hands." in render_settlement(
        state.settlement, 0, names)


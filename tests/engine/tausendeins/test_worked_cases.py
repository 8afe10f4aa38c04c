"""The worked cases of RULES-1001 §10, one test each, on stacked decks (RULES-1001 §2)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.cards import CARD_CODES
from engine.errors import IllegalAction
from engine.tausendeins import view
from engine.tausendeins.scoring import game_winner, round_score
from engine.tausendeins.state import T1001State
from tests.engine.tausendeins.helpers import D, F, act, deck, game, play_out, plays, script, step

NONE = {"bidding": "none"}


def _words(*parts: str) -> list[str]:
    return " ".join(parts).split()


#: A deal found by random play (bidding none, seat 1 dealing): forehand takes 70 card points
#: and melds clubs (credited before the last trick), the dealer takes 50 and melds nothing.
DEAL_13 = (_words("QH TC AD QD 9C AS JS 9H TD JD QC KD KC QS 9S TS TH AH KH KS JH JC AC 9D"),
           _words("0:meld:C 0:play:QC 1:play:QD 0:play:TH 1:play:TS 0:play:AD 1:play:AS 0:play:KH "
                  "1:play:9C 1:play:JD 0:play:KD 0:play:9D 1:play:TD 1:play:KS 0:play:JS 1:play:JC "
                  "0:play:TC 0:play:9H 1:play:AH 1:play:9S 0:play:KC 0:play:JH 1:play:AC 1:play:QS "
                  "0:play:QH"))
#: Deals under the default contract in which the dealer passes at once and forehand, the
#: declarer at 100, scores 95 (the dealer 25), and 130 (70 in cards and hearts 60; the
#: dealer 50).
DEAL_95 = (_words("KD TD TC AD KC AH 9D AS QC JH QH JD AC 9C KH JC QS KS TH QD 9S 9H TS JS"),
           _words("1:pass 0:play:JD 1:play:JC 0:play:TD 1:play:AH 0:play:QH 1:play:9C 0:play:TC "
                  "1:play:KH 0:play:QS 1:play:KS 1:play:KC 0:play:AC 0:play:KD 1:play:AD 1:play:QD "
                  "0:play:9D 1:play:9H 0:play:TH 0:play:TS 1:play:JS 0:play:9S 1:play:QC 0:play:AS "
                  "1:play:JH"))
DEAL_130 = (_words("9D KH TC AS 9H JH 9S QD AH QC TH QH JD KS TD JS 9C AD KD JC TS QS KC AC"),
            _words("1:pass 0:play:9S 1:play:AH 0:play:9C 1:play:9H 0:play:QD 1:play:JH 0:play:TS "
                   "1:play:KS 0:meld:H 0:play:QH 1:play:AS 0:play:TC 1:play:AC 1:play:JS 0:play:TH "
                   "0:play:9D 1:play:AD 1:play:QC 0:play:KC 0:play:KH 1:play:QS 0:play:JD "
                   "1:play:TD 1:play:JC 0:play:KD"))


def _seat(state: T1001State, seat: int) -> dict[str, Any]:
    """``seat``'s part of the deal's settlement."""
    assert state.settlement is not None
    entry: dict[str, Any] = state.settlement["seats"][seat]
    return entry


def test_case_01_stock_deal_draws_winner_first_and_plays_twelve_tricks_of_120() -> None:
    state = game(NONE, deck([], []))
    assert [h.bit_count() for h in state.hands] == [8, 8] and len(state.stock) == 8
    for trick in range(1, 5):
        events = []
        for _ in range(2):
            seat = state.to_act()
            assert seat is not None
            events += act(state, seat, sorted(plays(state, seat))[0].join(("play:", "")))
        winner = state.tricks[-1][2]
        assert [e.data["seat"] for e in events if e.type == "card_drawn"] == [winner, 1 - winner]
        assert len(state.stock) == 8 - 2 * trick
        assert [h.bit_count() for h in state.hands] == [8, 8]
    assert state.phase == 2
    play_out(state)
    assert len(state.tricks) == 12
    assert sum(_seat(state, s)["card_points"] for s in (F, D)) == 120


def test_case_02_without_trump_a_card_of_another_suit_never_wins() -> None:
    state = game(NONE, deck(["9H"], ["AS"]))
    events = script(state, ["0:play:9H", "1:play:AS"])
    won = next(e for e in events if e.type == "trick_won")
    assert won.data["seat"] == F and won.data["reason"] == "off_suit"


def test_case_03_phase_one_is_free_unless_phase1_follow() -> None:
    cards = deck(["KH"], ["TH", "9C"])
    state = game(NONE, cards)
    script(state, ["0:play:KH", "1:play:9C"])
    assert state.tricks[-1][2] == F
    strict = game({**NONE, "phase1_follow": "follow"}, cards)
    act(strict, F, "play:KH")
    with pytest.raises(IllegalAction, match="follow suit"):
        act(strict, D, "play:9C")
    hearts = {c for c in view(strict, D)["hand"] if c.endswith("H")}
    assert "TH" in hearts and plays(strict, D) == hearts


@pytest.mark.parametrize(("reply", "winner"), [("AH", F), ("AC", D)])
def test_case_04_a_meld_makes_its_suit_trump_for_the_very_trick(reply: str,
                                                                winner: int) -> None:
    state = game(NONE, deck(["KC", "QC"], ["AH", "AC"]))
    act(state, F, "meld:C")
    seen = view(state, D)
    assert seen["trump_suit"] == "C" and seen["known_cards"] == {"0": ["KC", "QC"]}
    assert seen["melds"] == [{"seat": F, "suit": "C", "value": 100, "trick_no": 1,
                              "state": "pending", "credited_at": None}]
    script(state, ["0:play:QC", f"1:play:{reply}"])
    assert state.tricks[-1][2] == winner
    assert view(state, D)["known_cards"] == {"0": ["KC"]}  # QC was played
    assert state.marriages[0].state == ("credited" if winner == F else "pending")


def test_case_05_a_new_meld_changes_trump_and_the_old_trump_is_plain() -> None:
    state = game(NONE, deck(["KC", "QC", "AC", "AD", "9S"], ["TC", "KH", "QH", "9H", "9D"]))
    script(state, ["0:meld:C", "0:play:QC", "1:play:TC"])
    assert state.tricks[-1][2] == D and state.trump == 0
    script(state, ["1:meld:H", "1:play:KH", "0:play:9S"])
    assert view(state, F)["trump_suit"] == "H"
    script(state, ["1:play:9D", "0:play:AD"])
    assert state.tricks[-1][2] == F and state.phase == 1
    events = script(state, ["0:play:AC", "1:play:9H"])
    won = next(e for e in events if e.type == "trick_won")
    assert won.data["seat"] == D and won.data["reason"] == "trump"
    assert [(m["suit"], m["value"]) for m in view(state, F)["melds"]] == [("C", 100), ("H", 60)]


_LOW_D = ["9S", "JS", "QS", "KS", "AS", "TS", "9D", "JD"]


def test_case_06_ascending_marriage_order() -> None:
    rules = {**NONE, "marriage_order": "ascending"}
    clubs = game(rules, deck(["KC", "QC", "KH", "QH"], _LOW_D))
    script(clubs, ["0:meld:C", "0:play:KC", "1:play:9S"])
    assert "meld:H" not in {a["type"] + ":" + a.get("suit", "")
                            for a in view(clubs, F)["legal_actions"]}
    with pytest.raises(IllegalAction, match="ascending"):
        act(clubs, F, "meld:H")
    diamonds = game(rules, deck(["KD", "QD", "KH", "QH"], ["9S", "JS", "QS", "KS", "AS", "TS",
                                                          "9C", "JC"]))
    script(diamonds, ["0:meld:D", "0:play:KD", "1:play:9S", "0:meld:H"])
    assert diamonds.trump == 2
    hearts = game(rules, deck(["KH", "QH", "KD", "QD"], [*_LOW_D[:6], "9C", "JC"]))
    assert {"meld:H", "meld:D"} <= {f"meld:{a['suit']}" for a in view(hearts, F)["legal_actions"]
                                    if a["type"] == "meld"}
    script(hearts, ["0:meld:H", "0:play:KH", "1:play:9S"])
    with pytest.raises(IllegalAction, match="ascending"):
        act(hearts, F, "meld:D")


_FOUR = (["KS", "QS", "KD", "QD", "KC", "QC", "KH", "QH"],
         ["9C", "JC", "9D", "JD", "9H", "JH", "9S", "JS"],
         ["AC", "TC", "AS", "TS", "AH", "TH", "AD", "TD"])
_FOUR_MELDS = ["0:meld:S", "0:play:KS", "1:play:9C", "0:meld:D", "0:play:KD", "1:play:9D",
               "0:meld:C", "0:play:KC", "1:play:JD", "0:meld:H", "0:play:KH", "1:play:9H"]


@pytest.mark.parametrize(("values", "expected"), [("by_order", [40, 60, 80, 100]),
                                                  ("german", [80, 40, 100, 60])])
def test_case_07_marriage_values_by_order_and_german(values: str, expected: list[int]) -> None:
    state = game({**NONE, "marriage_values": values}, deck(*_FOUR))
    script(state, _FOUR_MELDS)
    assert [m["suit"] for m in view(state, D)["melds"]] == ["S", "D", "C", "H"]
    assert [m["value"] for m in view(state, D)["melds"]] == expected


_LOSER = (["KS", "QS", "9C", "JC", "9D", "JD", "9H", "JH"],
          ["AS", "TS", "AC", "TC", "AH", "TH", "AD", "TD"],
          ["KC", "QC", "JS", "QH", "9S", "QD", "KH", "KD"])
_LOSE_ALL = ["0:meld:S", "0:play:KS", "1:play:AS", "1:play:AC", "0:play:9C", "1:play:TC",
             "0:play:JC", "1:play:KC", "0:play:QC", "1:play:TS", "0:play:QS", "1:play:AH",
             "0:play:9H", "1:play:TH", "0:play:JH", "1:play:KH", "0:play:QH", "1:play:AD",
             "0:play:9D", "1:play:TD", "0:play:JD", "1:play:JS", "0:play:QD", "1:play:9S",
             "0:play:KD"]


@pytest.mark.parametrize(("rule", "score"), [("lapses", 0), ("counts", 80)])
def test_case_08_a_meld_without_a_trick_is_forfeited(rule: str, score: int) -> None:
    state = game({**NONE, "meld_without_trick": rule}, deck(*_LOSER))
    script(state, _LOSE_ALL)
    mine = _seat(state, F)
    assert mine["tricks"] == 0 and mine["score"] == score
    if rule == "lapses":
        assert mine["forfeited_marriages"] == [{"suit": "S", "value": 80, "trick_no": 1}]
        assert mine["marriages"] == []
        assert state.settlement is not None and "forfeited" in state.settlement["explanation"]
    else:
        assert mine["forfeited_marriages"] == []
    assert _seat(state, D)["score"] == 120


def test_case_09_a_pending_meld_is_credited_with_the_first_trick() -> None:
    state = game(NONE, deck(*_LOSER))
    script(state, _LOSE_ALL[:5])
    assert state.marriages[0].state == "pending"
    assert view(state, D)["pending_marriages"] == [{"seat": F, "suit": "S", "value": 80}]
    events = script(state, ["1:play:JS", "0:play:QS"])
    assert state.tricks[-1][2] == F
    credited = [e.data for e in events if e.type == "meld_credited"]
    assert credited == [{"seat": F, "suit": "S", "value": 80, "trick_no": 3}]
    assert view(state, D)["melds"][0]["credited_at"] == 3


def test_case_10_meld_first_lead_forbidden() -> None:
    state = game({**NONE, "meld_first_lead": "forbidden"},
                 deck(["KS", "QS", "AC"], ["9D", "JD", "QD", "KD", "AD", "TD", "9H", "JH"]))
    with pytest.raises(IllegalAction, match="first lead"):
        act(state, F, "meld:S")
    script(state, ["0:play:AC", "1:play:9D", "0:meld:S"])
    assert state.trump == 1


_TO_TRICK_5 = ["0:play:AC", "1:play:JC", "0:play:TC", "1:play:QC", "0:play:AS", "1:play:JS",
               "0:play:TS", "1:play:QS", "0:play:TD"]
_HEARTS_TO_5 = ["0:meld:H", "0:play:KH", "1:play:JC", "0:play:AH", "1:play:QC", "0:play:TH",
                "1:play:KC", "0:play:AD", "1:play:TC", "0:play:TD"]


@pytest.mark.parametrize(("forehand", "dealer", "stock", "moves", "allowed"), [
    (["TD", "AC", "TC", "AS", "TS", "9C", "9S", "9H"],
     ["AD", "9D", "JC", "QC", "JS", "QS", "KC", "KS"],
     ["KD", "AH", "QD", "TH", "JD", "KH", "QH", "JH"], _TO_TRICK_5, {"AD"}),
    (["TD", "AD", "AC", "TC", "AS", "TS", "9C", "9S"],
     ["9D", "JC", "QC", "JS", "QS", "KC", "KS", "9H"],
     ["KD", "AH", "QD", "TH", "JD", "KH", "QH", "JH"], _TO_TRICK_5, {"9D"}),
    (["TD", "KH", "QH", "AH", "TH", "AD", "KD", "QD"],
     ["JH", "AC", "TC", "KC", "QC", "JC", "AS", "TS"],
     ["9H", "9C", "JD", "KS", "9D", "QS", "9S", "JS"], _HEARTS_TO_5, {"JH"}),
    (["TD", "KH", "QH", "AH", "TH", "AD", "KD", "QD"],
     ["JH", "AC", "TC", "KC", "QC", "JC", "AS", "TS"],
     ["9C", "9H", "JD", "KS", "9D", "QS", "9S", "JS"], _HEARTS_TO_5, {"JH", "9H"}),
    (["TD", "AD", "AC", "TC", "AS", "TS", "9C", "9S"],
     ["JC", "QC", "JS", "QS", "KC", "KS", "9H", "JH"],
     ["KD", "AH", "QD", "TH", "JD", "KH", "9D", "QH"], _TO_TRICK_5, None),
], ids=["must-win-with-AD", "must-follow-9D", "must-trump-JH", "any-trump", "void-no-trump"])
def test_case_11_phase_two_follow_win_then_trump(forehand: list[str], dealer: list[str],
                                                 stock: list[str], moves: list[str],
                                                 allowed: set[str] | None) -> None:
    state = game(NONE, deck(forehand, dealer, stock))
    script(state, moves)
    assert len(state.tricks) == 4 and state.phase == 2 and not state.stock
    hand = set(view(state, D)["hand"])
    assert plays(state, D) == (hand if allowed is None else allowed)
    if allowed is not None:
        refused = sorted(hand - allowed)[0]
        with pytest.raises(IllegalAction, match="follow suit"):
            act(state, D, f"play:{refused}")


@pytest.mark.parametrize(("forehand", "dealer", "head", "allowed"), [
    (["KH", "QH", "TH", "JH"], ["AH", "9H"], True, {"AH"}),
    (["KH", "QH", "AH", "TH", "JH"], ["9H"], True, {"9H"}),
    (["KH", "QH", "AH", "TH", "JH", "9H"], [], True, None),
    (["KH", "QH", "TH", "JH"], ["AH", "9H"], False, {"AH", "9H"}),
], ids=["must-win-AH", "only-9H", "no-heart", "head-false"])
def test_case_12_phase_two_with_trump_led(forehand: list[str], dealer: list[str], head: bool,
                                          allowed: set[str] | None) -> None:
    state = game({**NONE, "deal": "all", "phase2_head": head}, deck(forehand, dealer,
                                                                    kind="all"))
    assert [h.bit_count() for h in state.hands] == [12, 12] and state.phase == 2
    script(state, ["0:meld:H", "0:play:KH"])
    hand = set(view(state, D)["hand"])
    assert plays(state, D) == (hand if allowed is None else allowed)


def test_case_13_totals_and_the_end_of_the_game() -> None:
    cards, moves = DEAL_13
    state = game(NONE, cards)
    script(state, moves)
    assert (_seat(state, F)["card_points"], _seat(state, F)["score"]) == (70, 170)
    assert _seat(state, D)["score"] == 50 and state.totals == [170, 50]
    assert state.status == "hand_over" and _seat(state, F)["needed"] == 831
    # passing the target in mid-deal does not end the deal
    low = game({**NONE, "target_points": 100}, cards)
    for i, move in enumerate(moves):
        script(low, [move])
        if i < len(moves) - 1:
            assert low.status == "playing"
    assert low.status == "match_over" and low.winner == F
    for before, status, winner in (([870, 962], "match_over", F), ([840, 960], "hand_over",
                                                                    None)):
        deal = game(NONE, cards)
        deal.totals = list(before)
        script(deal, moves)
        assert (deal.status, deal.winner, deal.totals) == (status, winner,
                                                           [before[0] + 170, before[1] + 50])
    assert deal.settlement is not None and deal.settlement["another_deal"]
    script(deal, ["0:continue", "1:continue"])
    assert deal.hand_no == 2 and deal.dealer == F and deal.status == "playing"
    assert game_winner([1040, 1012], 1001) == F and game_winner([1010, 1010], 1001) is None


@pytest.mark.parametrize("bonus", [10, 0])
def test_case_14_last_trick_bonus(bonus: int) -> None:
    cards, moves = DEAL_13
    state = game({**NONE, "last_trick_bonus": bonus}, cards)
    script(state, moves)
    last = state.tricks[-1][2]
    assert _seat(state, last)["last_trick_bonus"] == bonus
    assert _seat(state, 1 - last)["last_trick_bonus"] == 0
    assert _seat(state, F)["score"] + _seat(state, D)["score"] == 220 + bonus


def test_case_15_rounding_to_the_nearest_ten() -> None:
    assert [round_score(x, "nearest_10") for x in (74, 75, 120)] == [70, 80, 120]
    assert round_score(74, "none") == 74
    cards, moves = DEAL_95
    state = game({"deal_rounding": "nearest_10"}, cards)
    script(state, moves)
    declarer, other = _seat(state, F), _seat(state, D)
    assert (declarer["score"], declarer["rounded"]) == (95, 95)  # the declarer's: never
    assert (other["score"], other["rounded"], other["change"]) == (25, 30, 30)


def test_case_16_the_contract() -> None:
    state = game({}, deck([], []))
    assert view(state, D)["auction"]["calls"] == [{"seat": F, "bid": 100}]
    with pytest.raises(IllegalAction, match="multiple of 10"):
        act(state, D, "bid:105")
    act(state, D, "pass")
    assert (state.declarer, state.contract, state.to_act()) == (F, 100, F)
    failed = game({}, DEAL_95[0])
    script(failed, DEAL_95[1])
    assert failed.settlement is not None
    assert failed.settlement["contract"] == {"declarer": F, "contract": 100, "raised": False,
                                             "score": 95, "made": False, "by": -5}
    assert failed.totals == [-100, 25]
    for gain, total in (("bid", 100), ("actual", 130)):
        made = game({"contract_gain": gain}, DEAL_130[0])
        script(made, DEAL_130[1])
        assert made.settlement is not None and made.settlement["contract"]["made"]
        assert made.totals == [total, 50]


@pytest.mark.parametrize(("dealer", "top"), [
    (["AC", "TC", "AS", "TS", "AH", "TH", "AD", "TD"], 120),
    (["KS", "QS", "AC", "TC", "AH", "TH", "AD", "TD"], 200)])
def test_case_17_bids_capped_by_marriages(dealer: list[str], top: int) -> None:
    state = game({}, deck([], dealer))
    bids = [a["points"] for a in view(state, D)["legal_actions"] if a["type"] == "bid"]
    assert max(bids) == top
    with pytest.raises(IllegalAction, match="at most"):
        act(state, D, f"bid:{top + 10}")
    act(state, D, f"bid:{top}")
    assert state.contract == top


def test_case_18_the_musik_deal() -> None:
    cards = deck(["9C"], ["TC", "JC"], ["AH", "TH", "KS", "QS"], kind="musik")
    state = game({"contract_deal": "musik"}, cards)
    seen: list[str] = []
    assert [h.bit_count() for h in state.hands] == [10, 10]
    assert [[CARD_CODES[c] for c in m] for m in state.musiks] == [["AH", "TH"], ["KS", "QS"]]
    act(state, D, "pass")
    seen += [json.dumps(view(state, s)) for s in (F, D, None)]
    act(state, F, "take_musik:2")
    assert state.hands[F].bit_count() == 12
    assert view(state, D)["musik"]["cards"] == ["KS", "QS"]
    assert view(state, D)["known_cards"] == {"0": ["KS", "QS"]}
    with pytest.raises(IllegalAction, match="discard"):
        act(state, F, "play:9C")
    discards = ["JS", "9S"]
    act(state, F, f"discard:{discards[0]},{discards[1]}")
    assert state.hands[F].bit_count() == 10
    act(state, F, "play:9C")
    assert state.phase == 2 and plays(state, D) == {"TC", "JC"}
    while state.status == "playing":
        seen += [json.dumps(view(state, s)) for s in (F, D, None)]
        step(state)
    seen += [json.dumps(view(state, s)) for s in (F, D, None)]
    assert len(state.tricks) == 10
    for text in seen:
        assert '"AH"' not in text and '"TH"' not in text  # the other musik: never shown
    for text in seen[1::3] + seen[2::3]:
        assert '"JS"' not in text and '"9S"' not in text  # the discards, to the other seat
    settlement = state.settlement
    assert settlement is not None
    last = state.tricks[-1][2]
    assert settlement["leftover"] == {"points": 23, "to": last, "rule": "last_trick"}  # AH TH JS 9S
    assert _seat(state, last)["leftover_points"] == 23
    assert sum(_seat(state, s)["card_points"] for s in (F, D)) == 97


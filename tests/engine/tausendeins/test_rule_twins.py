"""Rules told apart from their nearest wrong twins (RULES-1001 §1-§7): each test here fails
when the engine is changed by one plausible single-rule mistake that the worked cases let
through (the target reached with ``>``, forehand leading after the auction, a defender's
marriages, a contract made exactly, the musik's unused cards, ...)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.cards import HEARTS
from engine.errors import IllegalAction
from engine.tausendeins import view
from engine.tausendeins.scoring import game_winner
from engine.tausendeins.state import T1001State
from tests.engine.tausendeins.helpers import D, F, act, deck, game, legal_texts, plays, script
from tests.engine.tausendeins.test_worked_cases import (
    _FOUR,
    _FOUR_MELDS,
    DEAL_13,
    DEAL_130,
    _words,
)

#: Under the default contract the dealer passes and forehand, declarer at 100, takes exactly
#: 100 in cards (no marriage).
DEAL_EXACT = (_words("9C QH QS AD AC JS JC QD KD AH TH TS JD TD KS JH QC KC TC AS 9S 9D 9H KH"),
              _words("1:pass 0:play:JC 1:play:AC 1:play:QC 0:play:KC 0:play:TC 1:play:AS "
                     "0:play:9C 1:play:KS 0:play:TS 1:play:JS 0:play:QS 1:play:AH 0:play:9S "
                     "1:play:KH 0:play:TH 1:play:JH 0:play:QH 1:play:AD 0:play:9H 1:play:TD "
                     "0:play:QD 1:play:KD 1:play:9D 0:play:JD"))
#: Forehand, declarer at 100, melds spades (80, credited at trick 3); the dealer wins trick 1
#: and melds hearts (60, credited at once): 58 + 80 for forehand, 62 + 60 for the dealer.
DEAL_BOTH_MELD = (_words("KS QS AC KH QH AS TC 9D 9C JC KC QC TS JS 9S AH TH JH 9H AD TD KD "
                         "QD JD"),
                  _words("1:pass 0:meld:S 0:play:QS 1:play:AS 1:meld:H 1:play:KH 0:play:9D "
                         "1:play:JC 0:play:AC 0:play:TC 1:play:9C 0:play:KC 1:play:AH "
                         "1:play:JS 0:play:TS 0:play:QC 1:play:TH 1:play:9S 0:play:KS "
                         "0:play:JH 1:play:QH 1:play:9H 0:play:AD 1:play:KD 0:play:TD "
                         "0:play:QD 1:play:JD"))
#: A musik deal: forehand, declarer at 100, takes musik 1 and discards TC QC; the unused
#: cards (musik 2: AD TS, and the discards) hold 34 points; the dealer wins the last trick.
DEAL_MUSIK = (_words("AS JH QD KH TC 9C TD JS QS TH 9D AH QC KS KD JD AC KC QH 9S JC 9H AD "
                     "TS"),
              _words("1:pass 0:take_musik:1 0:discard:TC,QC 0:play:JC 1:play:AC 1:play:KC "
                     "0:play:AS 1:play:9C 0:play:KS 1:play:QS 0:play:AH 1:play:JS 0:play:KH "
                     "1:play:9S 0:play:JH 1:play:TH 0:play:9H 1:play:QH 0:play:KD 1:play:TD "
                     "0:play:QD 1:play:JD 0:play:9D"))


#: A dealer's hand without a marriage: he may bid up to 120.
_NO_MARRIAGE = ["AC", "TC", "AS", "TS", "AH", "TH", "AD", "TD"]


def _played(options: dict[str, object], deal: tuple[list[str], list[str]],
            totals: tuple[int, int] = (0, 0)) -> T1001State:
    """``deal`` played out under ``options`` from the running ``totals``."""
    state = game(options, deal[0])
    state.totals = list(totals)
    script(state, deal[1])
    return state


def _seats(state: T1001State) -> list[dict[str, Any]]:
    assert state.settlement is not None
    seats: list[dict[str, Any]] = state.settlement["seats"]
    return seats


@pytest.mark.parametrize(("options", "deal", "before", "after", "winner"), [
    ({"bidding": "none"}, DEAL_13, (831, 0), [1001, 50], F),
    ({}, DEAL_130, (901, 0), [1001, 50], F),
    ({"target_points": 150}, DEAL_130, (0, 100), [100, 150], D),
], ids=["no-contract", "contract-made", "defender-at-target"])
def test_a_total_of_exactly_the_target_reaches_it(options: dict[str, object],
                                                  deal: tuple[list[str], list[str]],
                                                  before: tuple[int, int],
                                                  after: list[int], winner: int) -> None:
    """§6: "at or above" the target: a total of exactly the target ends the game."""
    state = _played(options, deal, before)
    assert state.totals == after
    assert (state.status, state.winner) == ("match_over", winner)
    assert game_winner([1001, 1000], 1001) == F and game_winner([1000, 1001], 1001) == D
    assert game_winner([1000, 1000], 1001) is None


def test_when_both_reach_the_target_the_higher_total_wins_whichever_seat() -> None:
    assert game_winner([1012, 1040], 1001) == D and game_winner([1040, 1012], 1001) == F
    state = _played({"bidding": "none"}, DEAL_13, (850, 990))
    assert (state.totals, state.winner) == ([1020, 1040], D)


def test_the_declarer_leads_the_first_trick_even_when_he_is_the_dealer() -> None:
    """§7.2: the declarer leads, not forehand (§2's forehand lead is for ``bidding`` none)."""
    state = game({}, deck([], []))
    script(state, ["1:bid:110", "0:pass"])
    assert (state.declarer, state.contract, state.to_act(), state.leader) == (D, 110, D, D)
    assert legal_texts(state, F) == set()
    assert plays(state, D) == set(view(state, D)["hand"])
    with pytest.raises(IllegalAction, match="not your turn"):
        act(state, F, "play:" + view(state, F)["hand"][0])
    act(state, D, "play:" + view(state, D)["hand"][0])
    assert state.trick and state.to_act() == F
    musik = game({"contract_deal": "musik"}, deck([], [], kind="musik"))
    script(musik, ["1:bid:110", "0:pass", "1:take_musik:1"])
    assert musik.to_act() == D
    discard = view(musik, D)["hand"][:2]
    act(musik, D, f"discard:{discard[0]},{discard[1]}")
    assert (musik.stage, musik.to_act()) == ("play", D)


@pytest.mark.parametrize(("rule", "dealer_score", "scored"), [("count", 122, True),
                                                               ("ignored", 62, False)])
def test_a_defenders_marriage_scores_unless_ignored(rule: str, dealer_score: int,
                                                    scored: bool) -> None:
    """§7.3 ``defender_marriages``: the non-declarer's credited marriage counts (default) or
    scores nothing (ignored), and sets trump either way; the declarer's counts either way."""
    state = _played({"defender_marriages": rule}, DEAL_BOTH_MELD)
    declarer, defender = _seats(state)
    assert declarer["score"] == 58 + 80 and declarer["marriages"][0]["scored"]
    assert (defender["card_points"], defender["score"]) == (62, dealer_score)
    assert [(m["suit"], m["value"], m["scored"]) for m in defender["marriages"]] == [
        ("H", 60, scored)]
    assert state.totals == [100, dealer_score]
    assert state.trump == HEARTS  # the defender's meld set trump


def test_a_contract_reached_exactly_is_made() -> None:
    """§7.3: made if the deal score is "at least" the contract."""
    state = _played({}, DEAL_EXACT)
    assert state.settlement is not None
    assert state.settlement["contract"] == {"declarer": F, "contract": 100, "raised": False,
                                            "score": 100, "made": True, "by": 0}
    assert state.totals == [100, 20]


def test_the_opening_bid_and_the_step_follow_their_options() -> None:
    """§7.1: forehand opens with ``bid_min``; bids rise by multiples of ``bid_step``."""
    low = game({"bid_min": 80}, deck([], []))
    assert (low.contract, view(low, D)["auction"]["calls"]) == (80, [{"seat": F, "bid": 80}])
    assert min(int(t.removeprefix("bid:")) for t in legal_texts(low, D) if t != "pass") == 90
    fives = game({"bid_step": 5}, deck([], _NO_MARRIAGE))
    bids = sorted(int(t.removeprefix("bid:")) for t in legal_texts(fives, D) if t != "pass")
    assert bids == [105, 110, 115, 120]
    act(fives, D, "bid:115")
    assert fives.contract == 115


@pytest.mark.parametrize(("values", "top"), [("by_order", 220), ("german", 260),
                                             ("russian", 260)])
def test_the_bid_cap_counts_held_marriages_by_the_marriage_values(values: str,
                                                                  top: int) -> None:
    """§7.1: under ``by_order`` two held marriages count 40 + 60, else their suits' values."""
    state = game({"marriage_values": values}, deck([], ["KS", "QS", "KH", "QH"]))
    bids = [int(t.removeprefix("bid:")) for t in legal_texts(state, D) if t != "pass"]
    assert max(bids) == top


def test_russian_marriage_values() -> None:
    """§1 ``russian``: H 100, D 80, C 60, S 40."""
    state = game({"bidding": "none", "marriage_values": "russian"}, deck(*_FOUR))
    script(state, _FOUR_MELDS)
    assert [(m["suit"], m["value"]) for m in view(state, D)["melds"]] == [
        ("S", 40), ("D", 80), ("C", 60), ("H", 100)]


def test_after_melding_the_leader_must_lead_the_king_or_queen() -> None:
    """§4: a meld names the suit, then one of its two cards is led."""
    state = game({"bidding": "none"}, deck(["KS", "QS", "AC"], []))
    act(state, F, "meld:S")
    assert plays(state, F) == {"KS", "QS"}
    with pytest.raises(IllegalAction, match="after melding spades you must lead"):
        act(state, F, "play:AC")


def test_a_new_deal_starts_without_trumps() -> None:
    """§1: "a deal starts without a trump suit", whatever the last deal's trump was."""
    state = _played({"bidding": "none"}, DEAL_13)
    assert state.trump == 0 and state.settlement is not None
    assert state.settlement["trump_at_end"] == "C"
    script(state, ["0:continue", "1:continue"])
    assert state.hand_no == 2 and state.trump is None
    assert view(state, D)["trump_suit"] is None


@pytest.mark.parametrize(("rule", "to"), [("last_trick", D), ("declarer", F), ("none", None)])
def test_the_unused_musik_cards_go_as_musik_leftover_says(rule: str, to: int | None) -> None:
    """§7.4: the other musik and the discards (34 here) score for the winner of the last trick
    (the dealer), the declarer (forehand), or nobody."""
    state = _played({"contract_deal": "musik", "musik_leftover": rule}, DEAL_MUSIK)
    assert state.tricks[-1][2] == D and state.declarer == F
    assert state.settlement is not None
    assert state.settlement["leftover"] == {"points": 34, "to": to, "rule": rule}
    assert [s["leftover_points"] for s in _seats(state)] == [
        34 if s == to else 0 for s in (F, D)]


def test_an_unshown_musik_stays_hidden_from_the_other_player() -> None:
    """§7.4 ``musik_shown`` false: the taken musik is not shown to the opponent (nor is it
    known in the declarer's hand), while the declarer sees it."""
    cards = deck(["9C"], ["TC", "JC"], ["AH", "TH", "KS", "QS"], kind="musik")
    state = game({"contract_deal": "musik", "musik_shown": False}, cards)
    script(state, ["1:pass", "0:take_musik:2"])
    other = view(state, D)
    assert other["musik"]["cards"] is None and other["known_cards"] == {}
    assert '"KS"' not in json.dumps(other) and '"QS"' not in json.dumps(other)
    assert view(state, F)["musik"]["cards"] == ["KS", "QS"]

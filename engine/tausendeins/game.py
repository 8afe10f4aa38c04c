"""Legal actions and applying them in Tausendeins (RULES-1001 §3-§8).

``legal_actions(state, seat)`` is exactly what :func:`apply` accepts from ``seat`` (empty when
it is not his turn), apart from ``resign`` (any time until the game is over) and ``abort``
(while the other seat has made no move), which end the game and are never listed.
:func:`apply` changes the state in place and returns the events; an illegal action raises
:class:`~engine.errors.IllegalAction` with :func:`illegal_reason` and the legal actions,
leaving the state untouched.
"""

from __future__ import annotations

import random
from itertools import combinations

from engine.cards import CARD_CODES, MARRIAGES, POINTS, SUIT_CODES, SUIT_NAMES, cards_of
from engine.errors import IllegalAction
from engine.events import Event
from engine.tausendeins.actions import (
    ABORT,
    BID,
    CONTINUE,
    DISCARD,
    MELD,
    PASS,
    PLAY,
    RAISE,
    RESIGN,
    TAKE_MUSIK,
    T1001Action,
)
from engine.tausendeins.auction import bid_refusal, bids, raise_open
from engine.tausendeins.deal import after_auction, deal, next_deck
from engine.tausendeins.play import (
    follower_wins,
    held_marriages,
    meld_refusal,
    playable,
    win_reason,
)
from engine.tausendeins.scoring import settle
from engine.tausendeins.state import (
    ABORTED,
    AUCTION,
    CREDITED,
    HAND_OVER,
    MATCH_OVER,
    MUSIK,
    PENDING,
    PLAYING,
    RESIGNED,
    Call,
    Marriage,
    T1001State,
)
from engine.tausendeins.state import PLAY as PLAY_STAGE

_PASS = T1001Action.simple(PASS)
_CONTINUE = T1001Action.simple(CONTINUE)


def legal_actions(state: T1001State, seat: int) -> list[T1001Action]:
    """Exactly the actions ``seat`` may take now (empty when it is not his turn)."""
    if state.status == HAND_OVER:
        return [] if state.acks >> seat & 1 else [_CONTINUE]
    if state.status != PLAYING or seat != state.to_act():
        return []
    if state.stage == AUCTION:
        return [*(T1001Action.bid(n) for n in bids(state, seat)), _PASS]
    if state.stage == MUSIK:
        if state.musik_taken is None:
            return [T1001Action.take_musik(1), T1001Action.take_musik(2)]
        return [T1001Action.discard(a, b)
                for a, b in combinations(cards_of(state.hands[seat]), 2)]
    out = [T1001Action.play(c) for c in cards_of(playable(state, seat))]
    if not state.trick and state.melded_suit is None:
        out += [T1001Action.meld(s) for s in held_marriages(state.hands[seat])
                if meld_refusal(state, seat, s) is None]
        if raise_open(state, seat):
            out += [T1001Action.raise_to(n) for n in bids(state, seat)]
    return out


def is_legal(state: T1001State, seat: int, action: T1001Action) -> bool:
    """Whether :func:`apply` accepts ``action`` from ``seat`` now (``resign`` and ``abort``
    included)."""
    if action.kind == RESIGN:
        return not state.over
    if action.kind == ABORT:
        return not state.over and not state.moved >> (1 - seat) & 1
    return action in legal_actions(state, seat)


def illegal_reason(state: T1001State, seat: int, action: T1001Action) -> str:
    """Why ``action`` is not legal for ``seat`` now, in a player's words."""
    kind = action.kind
    if state.status == ABORTED:
        return "the game was aborted"
    if state.status == MATCH_OVER:
        return "the game is over"
    if kind == ABORT:
        return "the other player has made a move: the game can no longer be aborted"
    if state.status == HAND_OVER:
        if kind != CONTINUE:
            return "the deal is over: acknowledge the settlement with continue"
        return "you have already acknowledged this settlement"
    if kind == CONTINUE:
        return "there is no settlement to acknowledge: the deal is still being played"
    if seat != state.to_act():
        return f"not your turn: waiting for seat {state.to_act()}"
    stage_kinds = {AUCTION: (BID, PASS), MUSIK: (TAKE_MUSIK, DISCARD)}.get(
        state.stage, (PLAY, MELD, RAISE))
    if kind not in stage_kinds:
        what = {AUCTION: "the auction is on: bid or pass",
                MUSIK: "take a musik, then discard two cards"}.get(
            state.stage, "the deal is being played: play a card")
        return f"{kind} is not possible now; {what}"
    if kind in (BID, RAISE):
        assert action.number is not None
        if kind == RAISE and not raise_open(state, seat):
            return "only the declarer of a musik deal may raise, once, before his first lead"
        return bid_refusal(state, seat, action.number)
    if kind == TAKE_MUSIK:
        if state.musik_taken is not None:
            return "you have taken a musik: now discard two cards"
        return "there are two musiks: take_musik 1 or 2"
    if kind == DISCARD:
        if state.musik_taken is None:
            return "take a musik first"
        return "discard two different cards of your hand"
    if kind == MELD:
        assert action.suit is not None
        if state.trick:
            return "only the player on lead may meld"
        return meld_refusal(state, seat, action.suit) or "you may not meld now"
    return _play_reason(state, seat, action)


def _play_reason(state: T1001State, seat: int, action: T1001Action) -> str:
    assert action.card is not None
    hand = state.hands[seat]
    if not hand >> action.card & 1:
        return f"you do not hold {CARD_CODES[action.card]}"
    allowed = " ".join(CARD_CODES[c] for c in cards_of(playable(state, seat)))
    if not state.trick:
        assert state.melded_suit is not None
        return f"after melding {SUIT_NAMES[state.melded_suit]} you must lead {allowed}"
    if state.stock:
        return f"you must follow suit: {allowed}"
    return f"you must follow suit and win the trick if you can, else follow suit, else " \
        f"trump: {allowed}"


def apply(state: T1001State, seat: int, action: T1001Action,
          rng: random.Random | None = None) -> list[Event]:
    """Apply ``seat``'s ``action`` in place and return the events; ``rng`` shuffles the next
    deal (default: the secure shuffle). Raises :class:`IllegalAction` if it is not legal."""
    if not is_legal(state, seat, action):
        raise IllegalAction(illegal_reason(state, seat, action), legal_actions(state, seat))
    kind = action.kind
    if kind == CONTINUE:
        return _continue(state, seat, rng)
    state.moved |= 1 << seat
    if kind == RESIGN:
        state.status = MATCH_OVER
        state.winner = 1 - seat
        state.ended = (RESIGNED, seat)
        return [Event("resigned", {"seat": seat, "winner": 1 - seat})]
    if kind == ABORT:
        state.status = ABORTED
        state.ended = (ABORTED, seat)
        return [Event("aborted", {"seat": seat})]
    if kind in (BID, RAISE):
        assert action.number is not None
        if kind == BID:
            state.calls.append(Call(seat, action.number))
        state.raised = kind == RAISE
        state.contract = action.number
        state.declarer = seat
        return [Event(kind, {"seat": seat, "points": action.number})]
    if kind == PASS:
        state.calls.append(Call(seat, None))
        after_auction(state)
        return [Event("pass", {"seat": seat}),
                Event("auction_won", {"declarer": state.declarer, "contract": state.contract})]
    if kind == TAKE_MUSIK:
        return _take_musik(state, seat, action)
    if kind == DISCARD:
        for c in action.cards:
            state.hands[seat] ^= 1 << c
            state.discards |= 1 << c
        state.stage = PLAY_STAGE
        return [Event("discarded", {"seat": seat, "count": 2}, seat,
                      {"cards": [CARD_CODES[c] for c in action.cards]})]
    if kind == MELD:
        return _meld(state, seat, action)
    return _play(state, seat, action)


def _take_musik(state: T1001State, seat: int, action: T1001Action) -> list[Event]:
    assert action.number is not None
    state.musik_taken = action.number
    cards = state.musiks[action.number - 1]
    codes = [CARD_CODES[c] for c in cards]
    for c in cards:
        state.hands[seat] |= 1 << c
        if state.rules.musik_shown:
            state.shown |= 1 << c
    if state.rules.musik_shown:
        return [Event("musik_taken", {"seat": seat, "musik": action.number, "cards": codes})]
    return [Event("musik_taken", {"seat": seat, "musik": action.number}, seat,
                  {"cards": codes})]


def _meld(state: T1001State, seat: int, action: T1001Action) -> list[Event]:
    suit = action.suit
    assert suit is not None
    rules = state.rules
    trick_no = len(state.tricks) + 1
    value = rules.marriage_value(suit, len(state.marriages))
    at_once = rules.meld_without_trick == "counts" or state.won_tricks(seat) > 0
    state.marriages.append(Marriage(seat, suit, value, trick_no,
                                    CREDITED if at_once else PENDING,
                                    trick_no if at_once else None))
    state.trump = suit
    state.melded_suit = suit
    state.shown |= MARRIAGES[suit]
    return [Event("meld", {"seat": seat, "suit": SUIT_CODES[suit], "value": value,
                           "trick_no": trick_no, "credited": at_once, "trump": SUIT_CODES[suit]})]


def _play(state: T1001State, seat: int, action: T1001Action) -> list[Event]:
    c = action.card
    assert c is not None
    state.hands[seat] ^= 1 << c
    state.shown &= ~(1 << c)
    state.melded_suit = None
    state.trick.append(c)
    events = [Event("card_played", {"seat": seat, "card": CARD_CODES[c]})]
    if len(state.trick) < 2:
        return events
    lead, follow = state.trick
    leader = state.leader
    winner = seat if follower_wins(state.trump, lead, follow) else leader
    state.tricks.append((leader, (lead, follow), winner))
    state.taken[winner] |= (1 << lead) | (1 << follow)
    state.trick = []
    state.leader = winner
    trick_no = len(state.tricks)
    events.append(Event("trick_won", {
        "seat": winner, "trick_no": trick_no, "cards": [CARD_CODES[lead], CARD_CODES[follow]],
        "points": POINTS[lead] + POINTS[follow],
        "reason": win_reason(state.trump, lead, follow)}))
    for m in state.marriages:
        if m.seat == winner and m.state == PENDING:
            m.state = CREDITED
            m.credited_at = trick_no
            events.append(Event("meld_credited", {"seat": winner, "suit": SUIT_CODES[m.suit],
                                                  "value": m.value, "trick_no": trick_no}))
    if state.stock:
        for who in (winner, 1 - winner):
            drawn = state.stock.pop()
            state.hands[who] |= 1 << drawn
            events.append(Event("card_drawn", {"seat": who, "stock_size": len(state.stock)},
                                who, {"card": CARD_CODES[drawn]}))
        if not state.stock:
            events.append(Event("stock_exhausted", {}))
    elif not state.hands[winner]:
        events += _finish(state)
    return events


def _finish(state: T1001State) -> list[Event]:
    settlement = settle(state)
    state.settlement = settlement
    state.status = HAND_OVER if state.winner is None else MATCH_OVER
    state.acks = 0
    events = [Event("hand_settled", {"settlement": settlement})]
    if state.winner is not None:
        events.append(Event("game_won", {"winner": state.winner, "totals": list(state.totals)}))
    return events


def _continue(state: T1001State, seat: int, rng: random.Random | None) -> list[Event]:
    state.acks |= 1 << seat
    events = [Event("continue", {"seat": seat})]
    if state.acks != 0b11:
        return events
    state.dealer = 1 - state.dealer
    return events + deal(state, next_deck(state, rng))

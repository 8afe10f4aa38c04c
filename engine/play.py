"""Legal actions and applying them (docs/rules.md §2, §6): the engine's hot path.

``legal_actions(state, seat)`` is exactly the set of moves :func:`apply` accepts from ``seat``;
it is empty when it is not that seat's turn. Besides those moves :func:`apply` accepts the two
actions that end the game instead of playing it, never listed in ``legal_actions`` (so a bot
choosing among them never resigns by accident):

* ``resign``: from any seat at any time until the game is over. The resigner's side loses: the
  match and the game (the whole set) go to the other side — in four-hand the other
  partnership; in three-hand the other player with more game points (on a tie the lower
  seat). Game points, Bummerl and matches won stay as played; the hand in play is not
  settled. ``state.ended`` is ``("resigned", seat)`` and the status ``match_over``.
* ``abort``: from seat ``s`` while some *other* seat has not yet made its first move of the
  game (a move is any action but ``continue``): no result, counted for nobody; the status is
  ``aborted``. Who may abort at a table of humans and computers is narrowed by
  :func:`may_abort` (the service asks it with the human seats).
* ``timeout`` (the clock's, never a player's): from the seat to act while a hand is played
  (``legal_actions`` not empty): its side loses the hand as by a false declaration (a
  closer's side as by a failed closing); the settlement's reason is ``timeout``.
* ``forfeit`` (the clock's): as ``resign``, but ``state.ended`` is ``("timeout", seat)``.

:func:`apply` changes the state in place (no copies) and returns the events; anything illegal
raises :class:`~engine.errors.IllegalAction` with a reason in a player's words and the legal
actions, leaving the state untouched.

The options of other rule sets (:mod:`engine.rules`): without ``closing`` no ``close`` is
legal; with ``automatic_66`` no ``declare`` is, and a trick or a meld that brings its side to
66 credited points ends the hand (event ``reached_66``); with ``meld_credit`` ``next_trick``
every meld waits for its side's next won trick.

Following duty, once the talon is closed or exhausted (two- and three-hand) and from the first
trick in four-hand: follow suit and beat the best card so far if you can; else follow suit;
else trump, over-trumping a trump already in the trick if you can (and, unable to, any
trump); else any card. In two-hand the best card so far is the led card, so this is the rule
of docs/rules.md §2. Four-hand decision: the duty to beat holds even against one's partner, as the
sources state it without exception.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from typing import Final

from engine.actions import (
    ABORT,
    CLOSE,
    CLOSE_ACTION,
    CONTINUE,
    CONTINUE_ACTION,
    DECLARE,
    DECLARE_ACTION,
    EXCHANGE,
    EXCHANGE_ACTION,
    FORFEIT,
    MELD,
    PLAY,
    RESIGN,
    TIMEOUT,
    Action,
)
from engine.cards import (
    CARD_CODES,
    CARDS,
    KING,
    MARRIAGES,
    POINTS,
    QUEEN,
    RANK_NAMES,
    RANK_OF,
    SUIT_CARDS_32,
    SUIT_CODES,
    SUIT_MASKS,
    SUIT_NAMES,
    SUIT_OF,
    Card,
    Mask,
    Suit,
    card,
    cards_of,
    meld_value,
)
from engine.deal import deal, next_deck
from engine.errors import IllegalAction
from engine.events import Event
from engine.play_events import CardDrawn, CardPlayed, Declared, HandSettled, TrickWon
from engine.scoring import DECLARE_TARGET, decide, settlement
from engine.state import (
    ABORTED,
    HAND_OVER,
    MATCH_OVER,
    PLAYING,
    RESIGNED,
    TIMED_OUT,
    GameState,
    PendingSettlement,
)

#: Play actions for each 12-bit pattern of the low two suits (clubs, spades) and of the high
#: two (hearts, diamonds): a 24-card mask's are ``[*_LOW[mask & 4095], *_HIGH[mask >> 12]]``
#: (:func:`_plays` for any mask).
_LOW: Final = tuple(tuple(Action.play(c) for c in cards_of(pattern)) for pattern in range(4096))
_HIGH: Final = tuple(tuple(Action.play(c) for c in cards_of(pattern << 12))
                     for pattern in range(4096))


#: ``_SUIT_32[s][pattern]``: the play actions of :data:`engine.cards.SUIT_CARDS_32`.
_SUIT_32: Final = tuple(tuple(tuple(Action.play(c) for c in cards) for cards in per_suit)
                        for per_suit in SUIT_CARDS_32)


def _plays(mask: Mask) -> list[Action]:
    """The play actions of the cards of ``mask``, suit by suit, high to low."""
    if mask >> 24:
        c, s, h, d = _SUIT_32
        return [*c[(mask & 63) | (mask >> 18 & 0xC0)],
                *s[(mask >> 6 & 63) | (mask >> 20 & 0xC0)],
                *h[(mask >> 12 & 63) | (mask >> 22 & 0xC0)],
                *d[(mask >> 18 & 63) | (mask >> 24 & 0xC0)]]
    return [*_LOW[mask & 4095], *_HIGH[mask >> 12]]

_MELDS: Final = tuple(Action.meld(s) for s in range(4))

# --------------------------------------------------------------------------- legality


def playable(state: GameState, seat: int) -> int:
    """Mask of the cards ``seat`` may play now (0 when it may not play)."""
    if state.status != PLAYING:
        return 0
    hand = state.hands[seat]
    trick = state.trick
    if not trick:
        if seat != state.leader:
            return 0
        suit = state.melded_suit
        return hand if suit is None else hand & MARRIAGES[suit]
    active = state.active
    if len(active) == 2:  # the trick holds the leader's card: the other active seat is to act
        if seat == state.leader or seat not in active:
            return 0
    elif seat != state.to_act():
        return 0
    if state.closed_by is None and state.talon:
        return hand
    best = trick[state.trick_winner_index()] if len(trick) > 1 else trick[0]
    led_suit = SUIT_OF[trick[0]]
    follow = hand & SUIT_MASKS[led_suit]
    higher = state.rules.plan.higher
    if follow:
        if SUIT_OF[best] == led_suit:
            return follow & higher[best] or follow
        return follow
    trumps = hand & SUIT_MASKS[state.trump]
    if trumps:
        if SUIT_OF[best] == state.trump:
            return trumps & higher[best] or trumps
        return trumps
    return hand


#: Bits of the Kings whose Queen is in the same mask too: ``hand & hand >> 1 & _KINGS``.
_KINGS: Final = sum(1 << (6 * s + KING) for s in range(4))
assert QUEEN == KING + 1
#: The meld actions of each such set of King bits.
_MELDS_OF: Final = {
    both: tuple(_MELDS[s] for s in range(4) if both >> (6 * s + KING) & 1)
    for both in (sum(1 << (6 * s + KING) for s in range(4) if k >> s & 1) for k in range(16))
}


def _lead_options(state: GameState, seat: int, out: list[Action]) -> list[Action]:
    """``out`` with the meld, exchange, close and declare actions open to ``seat``, the player
    on lead, now, appended."""
    plan = state.rules.plan
    won = state.won_tricks[seat % 2 if plan.pairs else seat]
    if state.melded_suit is None:
        hand = state.hands[seat]
        if plan.melds and (won or plan.meld_early):
            both = hand & hand >> 1 & _KINGS
            if both:
                out += _MELDS_OF[both]
        if state.closed_by is None:
            size = len(state.talon)
            if (
                hand & plan.exchange_bits[state.trump]
                and size >= plan.exchange_min_talon
                and (won or plan.exchange_early)
            ):
                out.append(EXCHANGE_ACTION)
            if size >= plan.close_min_talon:
                out.append(CLOSE_ACTION)
    if won and not plan.automatic_66:
        out.append(DECLARE_ACTION)
    return out


def legal_actions(state: GameState, seat: int) -> list[Action]:
    """Exactly the actions ``seat`` may take now (empty when it is not its turn)."""
    if state.status != PLAYING:
        if state.status == HAND_OVER and not state.acks >> seat & 1:
            return [CONTINUE_ACTION]
        return []
    if state.trick or seat != state.leader:
        return _plays(playable(state, seat))
    suit = state.melded_suit
    mask = state.hands[seat]
    if suit is not None:
        mask &= MARRIAGES[suit]
    return _lead_options(state, seat, _plays(mask))


def may_abort(state: GameState, seat: int, seats: Iterable[int] | None = None) -> bool:
    """Whether ``seat`` may abort: the game is not over and one of ``seats`` (default: every
    seat) other than ``seat`` has not yet made its first move."""
    if state.over:
        return False
    others = range(state.players) if seats is None else seats
    return any(s != seat and not state.moved >> s & 1 for s in others)


def is_legal(state: GameState, seat: int, action: Action) -> bool:
    """Whether ``action`` is in ``legal_actions(state, seat)``, or is a ``resign`` or an
    ``abort`` that :func:`apply` accepts now."""
    kind = action.kind
    if kind == PLAY:
        assert action.card is not None
        return bool(playable(state, seat) >> action.card & 1)
    if kind in _LEAD_ACTS:
        return _lead_legal(state, seat, action)
    if kind in (RESIGN, FORFEIT):
        return not state.over
    if kind == TIMEOUT:
        return state.status == PLAYING and bool(legal_actions(state, seat))
    if kind == ABORT:
        return may_abort(state, seat)
    return kind == CONTINUE and action in legal_actions(state, seat)


def _lead_legal(state: GameState, seat: int, action: Action) -> bool:
    """Whether the meld, exchange, close or declare ``action`` is open to ``seat`` now."""
    return (state.status == PLAYING and not state.trick and seat == state.leader
            and action in _lead_options(state, seat, []))


# --------------------------------------------------------------------------- apply


def _duel(trump: Suit, first: Card, second: Card, ten_low: bool
          ) -> tuple[bool, str, int, Mask]:
    """A two-card trick: whether ``second`` wins it, why, its points and its cards
    (``ten_low``: option ``ten_rank`` low)."""
    if SUIT_OF[second] == SUIT_OF[first]:
        order = _TEN_LOW_ORDER if ten_low else RANK_OF
        wins, reason = order[second] < order[first], "higher_card"
    elif SUIT_OF[second] == trump:
        wins, reason = True, "trump"
    else:
        wins, reason = False, "off_suit"
    return wins, reason, POINTS[first] + POINTS[second], (1 << first) | (1 << second)


#: Rank order of each card with ``ten_rank`` low (A K Q J T 9 8 7; smaller is higher).
_TEN_LOW_ORDER: Final = tuple((0, 4, 1, 2, 3, 5, 6, 7)[RANK_OF[c]] for c in range(CARDS))
#: ``_DUELS[ten_low][trump][first][second]``: :func:`_duel`, for every pair of cards.
_DUELS: Final = tuple(
    tuple(tuple(tuple(_duel(t, a, b, low) for b in range(CARDS)) for a in range(CARDS))
          for t in range(4))
    for low in (False, True))


def apply(
    state: GameState, seat: int, action: Action, rng: random.Random | None = None
) -> list[Event]:
    """Apply ``seat``'s ``action`` in place and return the events.

    ``rng`` shuffles the next hand's deck on ``continue`` (default: the secure shuffle).
    Raises :class:`IllegalAction` (state unchanged) if the action is not legal now.
    """
    c = action.card
    if c is None:
        return _act(state, seat, action, rng)
    # The hot path, inline: playing card ``c``, whose legality is one bit of playable().
    trick = state.trick
    hands = state.hands
    if not trick:  # a lead: any card (after a meld: its King or Queen); it completes no trick
        suit = state.melded_suit
        allowed = hands[seat] if suit is None else hands[seat] & MARRIAGES[suit]
        if not allowed >> c & 1 or seat != state.leader or state.status != PLAYING:
            raise IllegalAction(illegal_reason(state, seat, action), legal_actions(state, seat))
        state.moved |= 1 << seat
        hands[seat] ^= 1 << c
        state.melded_suit = None
        trick.append(c)
        played = CardPlayed()
        played.args = (seat, c)
        return [played]
    if not playable(state, seat) >> c & 1:
        raise IllegalAction(illegal_reason(state, seat, action), legal_actions(state, seat))
    state.moved |= 1 << seat
    hands[seat] ^= 1 << c  # ``c`` is in the hand
    state.melded_suit = None
    trick.append(c)
    played = CardPlayed()
    played.args = (seat, c)
    if len(trick) < len(state.active):
        return [played]
    # The trick is complete.
    leader = state.leader
    if len(trick) == 2:  # two- and three-hand: a side is a seat
        first = trick[0]
        second_wins, reason, points, taken = _DUELS[state.rules.plan.ten_low][state.trump][first][c]
        winner, loser = (seat, leader) if second_wins else (leader, seat)
        cards: tuple[Card, ...] = (first, c)
        side = winner
        state.won_points[side] += points
        state.won_tricks[side] += 1
        state.taken[side] |= taken
    else:
        winner, cards, points, reason = _take_trick(state, trick)
        side = winner % 2
        loser = winner  # four-hand has no talon: nobody draws
    state.tricks.append((leader, cards, winner))
    state.trick = []
    state.leader = winner
    won = TrickWon()
    won.args = (winner, cards, points, reason)
    events: list[Event] = [played, won]
    plan = state.rules.plan
    ten = plan.trump_ten_bits[state.trump]
    if ten and any(1 << x & ten for x in cards) \
            and _trump_ten_point(state, winner, side, events):
        return _finish_hand(state, events, None, trump_ten=side)
    if state.melds and (state.won_tricks[side] == 1 or plan.credit_every_trick):
        _credit_pending(state, side, events)
    # automatic_66: the trick's winner reached 66; the hand ends once the cards are drawn.
    reached = plan.automatic_66 and state.credited_points(side) >= DECLARE_TARGET
    talon = state.talon
    if talon and state.closed_by is None:
        # Only two seats play a hand with a talon: the winner draws first, then ``loser``.
        public = state.public
        size = len(talon) - 1
        drawn = talon.pop()
        hands[winner] |= 1 << drawn
        first_draw = CardDrawn()
        first_draw.args = (winner, drawn, public >> drawn & 1, size)
        first_draw.owner = winner
        drawn = talon.pop()
        hands[loser] |= 1 << drawn
        second_draw = CardDrawn()
        second_draw.args = (loser, drawn, public >> drawn & 1, size - 1)
        second_draw.owner = loser
        events += first_draw, second_draw
        if not size - 1:
            events.append(Event("talon_exhausted", {}))
    elif not hands[winner] and not reached:
        # Every active hand holds the same number of cards after a trick.
        return _finish_hand(state, events, None)
    return _reached_66(state, winner, events) if reached else events


def _trump_ten_point(state: GameState, seat: int, side: int, events: list[Event]) -> bool:
    """``trump_ten_point``: ``seat`` won the trump Ten in a trick, 1 game point to ``side`` at
    once (event ``trump_ten_point``); whether that reaches ``match_points``."""
    state.score[side] += 1
    events.append(Event("trump_ten_point", {"seat": seat, "side": side,
                                            "score": list(state.score)}))
    return state.score[side] >= state.rules.match_points


def _take_trick(state: GameState, trick: list[Card]) -> tuple[int, tuple[Card, ...], int, str]:
    """Score the complete trick of more than two cards (four-hand) to its winner's side;
    return the winner, the cards, their points and why he won."""
    active = state.active
    win_i = state.trick_winner_index()
    winner = active[(active.index(state.leader) + win_i) % len(active)]
    win_card = trick[win_i]
    led_suit = SUIT_OF[trick[0]]
    if SUIT_OF[win_card] != led_suit:
        reason = "trump"
    elif any(SUIT_OF[x] == led_suit for x in trick if x != win_card):
        reason = "higher_card"
    else:
        reason = "off_suit"
    points = 0
    taken = 0
    for x in trick:
        points += POINTS[x]
        taken |= 1 << x
    side = winner % 2
    state.won_points[side] += points
    state.won_tricks[side] += 1
    state.taken[side] |= taken
    return winner, tuple(trick), points, reason


def _act(state: GameState, seat: int, action: Action, rng: random.Random | None,
         ) -> list[Event]:
    """:func:`apply` of any action but a card's."""
    kind = action.kind
    lead = _LEAD_ACTS.get(kind)
    if lead is not None:
        if not _lead_legal(state, seat, action):
            raise IllegalAction(illegal_reason(state, seat, action), legal_actions(state, seat))
        state.moved |= 1 << seat
        return lead(state, seat, action)
    if not is_legal(state, seat, action):
        raise IllegalAction(illegal_reason(state, seat, action), legal_actions(state, seat))
    if kind == CONTINUE:
        return _continue(state, seat, rng)
    if kind == TIMEOUT:
        return _finish_hand(state, [Event("timeout", {"seat": seat})], None, timed_out=seat)
    if kind == FORFEIT:
        return _resign(state, seat, TIMED_OUT)
    state.moved |= 1 << seat
    if kind == RESIGN:
        return _resign(state, seat, RESIGNED)
    assert kind == ABORT
    state.status = ABORTED
    state.ended = (ABORTED, seat)
    return [Event("aborted", {"seat": seat})]


def _declare(state: GameState, seat: int, action: Action) -> list[Event]:
    declared = Declared()
    declared.args = (seat, state.credited_points(seat % 2 if state.rules.plan.pairs else seat))
    return _finish_hand(state, [declared], seat)


def _credit_pending(state: GameState, side: int, events: list[Event]) -> None:
    for i, (seat, suit, credited) in enumerate(state.melds):
        if not credited and state.side_of(seat) == side:
            state.melds[i] = (seat, suit, True)
            events.append(Event("meld_credited", {
                "seat": seat, "suit": SUIT_CODES[suit],
                "points": meld_value(suit, state.trump)}))


def _meld(state: GameState, seat: int, action: Action) -> list[Event]:
    """Credited at once if the side has a trick (``meld_credit`` ``immediate``), else pending
    until its first trick (``next_trick``: its next trick); may reach ``automatic_66``."""
    suit = action.suit
    assert suit is not None
    rules = state.rules
    side = state.side_of(seat)
    credited = state.won_tricks[side] > 0 and rules.meld_credit == "immediate"
    state.melds.append((seat, suit, credited))
    state.melded_suit = suit
    state.public |= MARRIAGES[suit]
    events = [Event("meld", {
        "seat": seat, "suit": SUIT_CODES[suit], "points": meld_value(suit, state.trump),
        "cards": [CARD_CODES[card(KING, suit)], CARD_CODES[card(QUEEN, suit)]],
        "credited": credited})]
    if credited and rules.automatic_66 and state.credited_points(side) >= DECLARE_TARGET:
        return _reached_66(state, seat, events)
    return events


def _reached_66(state: GameState, seat: int, events: list[Event]) -> list[Event]:
    """``automatic_66``: ``seat``'s side reached 66 credited points; the hand ends at once,
    scored as ``seat``'s correct declaration (event ``reached_66``)."""
    events.append(Event("reached_66", {
        "seat": seat, "points": state.credited_points(state.side_of(seat))}))
    return _finish_hand(state, events, seat)


def _exchange(state: GameState, seat: int, action: Action) -> list[Event]:
    rank = state.rules.variant.exchange_rank
    assert rank is not None
    low = card(rank, state.trump)
    face = state.talon[0]
    state.talon[0] = low
    state.hands[seat] ^= (1 << low) | (1 << face)
    state.public |= 1 << low
    return [Event("exchange", {
        "seat": seat, "took": CARD_CODES[face], "gave": CARD_CODES[low]})]


def _close(state: GameState, seat: int, action: Action) -> list[Event]:
    opponent = state.opponent_side(state.side_of(seat))
    state.closed_by = seat
    state.closed_at = len(state.tricks)
    state.closed_snapshot = (state.credited_points(opponent), state.won_tricks[opponent])
    return [Event("close", {"seat": seat, "talon_size": len(state.talon)})]


#: The actions of the player on lead besides his card, by kind: their appliers.
_LEAD_ACTS: Final[dict[str, Callable[[GameState, int, Action], list[Event]]]] = {
    DECLARE: _declare, CLOSE: _close, MELD: _meld, EXCHANGE: _exchange}


def _finish_hand(state: GameState, events: list[Event], declarer: int | None,
                 timed_out: int | None = None, trump_ten: int | None = None) -> list[Event]:
    """Settle the hand (see :func:`~engine.scoring.settle`; ``trump_ten``: the side whose
    trump-Ten point won the match), score it into the match and the set.

    ``four_hand_scoring`` hoyle: a tie adds 1 to the game points carried to the next hand's
    winners; a hand with a winner pays them (in its game points) and clears the carry.

    The set goes to the side with the fewest Bummerl once one side has ``set_bummerl``; a tie
    (three-hand, where every other player gets one) goes to the winner of the deciding match.
    """
    winner, points, working = decide(state, declarer, timed_out, trump_ten)
    if state.rules.plan.hoyle:
        state.carried = state.carried + 1 if winner is None else 0
    pending = PendingSettlement(settlement, working)
    state.settle_later(pending)
    state.status = HAND_OVER
    state.acks = 0
    settled = HandSettled()
    settled.args = (pending,)
    events.append(settled)
    if winner is None:
        return events
    rules = state.rules
    state.score[winner] += points
    if state.score[winner] < rules.match_points:
        return events
    given = {}
    for side in range(len(state.score)):
        if side != winner:
            n = 2 if rules.schneider_bummerl and state.score[side] == 0 else 1
            state.bummerl[side] += n
            given[side] = n
    state.matches_won[winner] += 1
    state.last_match_winner = winner
    match = {
        "match_no": state.match_no, "winner_side": winner,
        "winners": list(state.seats_of(winner)), "score": list(state.score),
        "bummerl_given": {str(k): v for k, v in given.items()}, "bummerl": list(state.bummerl),
    }
    pending.get()["match"] = match
    events.append(Event("match_won", match))
    if max(state.bummerl) >= rules.set_bummerl:
        sides = range(len(state.bummerl))
        state.set_winner = min(sides, key=lambda s: (state.bummerl[s], s != winner, s))
        state.status = MATCH_OVER
        events.append(Event("set_won", {
            "winner_side": state.set_winner, "winners": list(state.seats_of(state.set_winner)),
            "bummerl": list(state.bummerl), "matches_won": list(state.matches_won)}))
    return events


def _resign(state: GameState, seat: int, reason: str) -> list[Event]:
    """The resigner's side loses the match and the game; nothing else changes. ``reason``:
    :data:`RESIGNED`, or :data:`TIMED_OUT` for a forfeit on time (event ``forfeited``)."""
    side = state.side_of(seat)
    score = state.score
    winner = max((s for s in range(len(score)) if s != side), key=lambda s: (score[s], -s))
    state.last_match_winner = winner
    state.set_winner = winner
    state.status = MATCH_OVER
    state.ended = (reason, seat)
    return [Event("resigned" if reason == RESIGNED else "forfeited", {
        "seat": seat, "winner_side": winner, "winners": list(state.seats_of(winner))})]


def _continue(state: GameState, seat: int, rng: random.Random | None) -> list[Event]:
    state.acks |= 1 << seat
    events = [Event("continue", {"seat": seat})]
    if state.acks != (1 << state.players) - 1:
        return events
    if max(state.score) >= state.rules.match_points:
        state.score = [0] * len(state.score)
        state.match_no += 1
    state.dealer = (state.dealer + 1) % state.players
    events += deal(state, next_deck(state, rng))
    return events


# --------------------------------------------------------------------------- reasons


def illegal_reason(state: GameState, seat: int, action: Action) -> str:
    """Why ``action`` is illegal for ``seat`` now, in a player's words."""
    if state.status == ABORTED:
        return "the game was aborted"
    if state.status == MATCH_OVER:
        return "the game is over"
    if action.kind == ABORT:
        return ("every other player has made a move: the game can no longer be aborted, "
                "only resigned")
    if state.status == HAND_OVER:
        if action.kind != CONTINUE:
            return "the hand is over: acknowledge the settlement with continue"
        return "you have already acknowledged this settlement"
    if seat not in state.active:
        return "you sit out this hand"
    if action.kind == CONTINUE:
        return "there is no settlement to acknowledge: the hand is still being played"
    to_act = state.to_act()
    if seat != to_act:
        return f"not your turn: waiting for seat {to_act}"
    if action.kind != PLAY and state.trick:
        return f"only the player on lead may {action.kind}; you must play a card"
    side = state.side_of(seat)
    hand = state.hands[seat]
    if action.kind == PLAY:
        assert action.card is not None
        return _play_reason(state, seat, action.card)
    if action.kind == MELD:
        assert action.suit is not None
        suit = action.suit
        if state.melded_suit is not None:
            return "you have already melded on this lead: lead its King or Queen"
        if hand & MARRIAGES[suit] != MARRIAGES[suit]:
            k, q = CARD_CODES[card(KING, suit)], CARD_CODES[card(QUEEN, suit)]
            return f"to meld {SUIT_NAMES[suit]} you must hold both {k} and {q}"
        if not state.rules.plan.melds:
            return "these rules (four_hand_scoring hoyle) have no marriages: nothing may be melded"
        return "these rules allow no meld before your first trick"
    if action.kind == EXCHANGE:
        rules = state.rules
        rank = rules.variant.exchange_rank
        if rank is None:
            return "there is no trump card to exchange in this variant"
        if state.melded_suit is not None:
            return "after a meld you must lead its King or Queen"
        if state.closed_by is not None:
            return "the talon is closed"
        if len(state.talon) < rules.exchange_min_talon:
            return f"the talon must hold at least {rules.exchange_min_talon} cards to exchange"
        if not hand >> card(rank, state.trump) & 1:
            return f"you do not hold the trump {RANK_NAMES[rank]} " \
                f"({CARD_CODES[card(rank, state.trump)]})"
        return "you must win a trick before you may exchange"
    if action.kind == CLOSE:
        if not state.rules.variant.has_talon:
            return "there is no talon to close in this variant"
        if state.melded_suit is not None:
            return "after a meld you must lead its King or Queen"
        if state.closed_by is not None:
            return "the talon is already closed"
        if not state.rules.closing:
            return "these rules do not allow closing the talon"
        return f"the talon must hold at least {state.rules.close_min_talon} cards to close"
    assert action.kind == DECLARE
    if state.rules.automatic_66:
        return "these rules have no declaration: the hand ends by itself when a side reaches 66"
    if state.won_tricks[side] == 0:
        return "you must win a trick before you may declare"
    return "you may not declare now"


def _names(mask: int) -> str:
    """``"TH or AH"``: the cards of ``mask``, low to high within a suit."""
    names = [CARD_CODES[c] for c in sorted(cards_of(mask), key=lambda c: (SUIT_OF[c], -RANK_OF[c]))]
    return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " or " + names[-1]


def _play_reason(state: GameState, seat: int, c: int) -> str:
    hand = state.hands[seat]
    if not hand >> c & 1:
        return f"you do not hold {CARD_CODES[c]}"
    allowed = playable(state, seat)
    if not state.trick:
        suit = state.melded_suit
        assert suit is not None
        return f"after melding {SUIT_NAMES[suit]} you must lead {_names(allowed)} (or declare)"
    trick = state.trick
    best = trick[state.trick_winner_index()]
    led_suit = SUIT_OF[trick[0]]
    if allowed & SUIT_MASKS[led_suit]:
        if SUIT_OF[best] == led_suit and allowed != hand & SUIT_MASKS[led_suit]:
            return f"you must follow suit and win the trick: {_names(allowed)}"
        return f"you must follow suit: {_names(allowed)}"
    if SUIT_OF[best] == state.trump and allowed != hand & SUIT_MASKS[state.trump]:
        return f"you must over-trump: {_names(allowed)}"
    return f"you hold no {SUIT_NAMES[led_suit]}, so you must trump: {_names(allowed)}"

"""What one seat (or a spectator) may know: :func:`view` (docs/rules.md §2, §7).

A view holds the seat's own hand and public facts only: the face-up trump card, talon size,
cards on the table and taken tricks, melds, and the other seats' cards that were shown face up
and are still in their hands (``known_cards``: melded Kings and Queens, the trump card taken by
an exchange or as the last card of the talon). Never another hand, the talon order or a
preset deck. ``can_resign`` says whether the seat may ``resign`` now (any time until the game
is over; never listed in ``legal_actions``). ``settings.point_counter`` adds each side's
points; ``settings.hint_66`` adds ``can_declare_66`` for a seat holding 66 credited points.
"""

from __future__ import annotations

from typing import Any

from engine.cards import CARD_CODES, SUIT_CODES, codes, meld_value
from engine.play import legal_actions
from engine.state import ABORTED, MATCH_OVER, PLAYING, RESIGNED, TIMED_OUT, GameState


def _trick_cards(state: GameState, leader: int, cards: tuple[int, ...] | list[int]) -> list[
        dict[str, Any]]:
    active = state.active
    start = active.index(leader)
    return [
        {"seat": active[(start + i) % len(active)], "card": CARD_CODES[c]}
        for i, c in enumerate(cards)
    ]


def _trick(state: GameState, t: tuple[int, tuple[int, ...], int]) -> dict[str, Any]:
    leader, cards, winner = t
    return {"leader": leader, "cards": _trick_cards(state, leader, cards), "winner": winner}


def view(state: GameState, seat: int | None) -> dict[str, Any]:
    """The game as ``seat`` sees it; ``None`` gives the spectator view (public facts only)."""
    rules = state.rules
    variant = rules.variant
    players = variant.players
    sitting_out = next((s for s in range(players) if s not in state.active), None)
    own_side = state.side_of(seat) if seat is not None else None
    hand_sides = state.hand_sides
    talon_face = state.talon[0] if state.talon and state.closed_by is None else None
    out: dict[str, Any] = {
        "seat": seat,
        "variant": variant.name,
        "rules": rules.as_dict(),
        "settings": state.settings.as_dict(),
        "status": state.status,
        "hand_no": state.hand_no,
        "dealer": state.dealer,
        "forehand": state.active[0],
        "sitting_out": sitting_out,
        "to_act": state.to_act(),
        "hand": codes(state.hands[seat]) if seat is not None else None,
        "hand_sizes": [state.hands[s].bit_count() for s in range(players)],
        "trump_suit": SUIT_CODES[state.trump],
        "trump_card": CARD_CODES[talon_face] if talon_face is not None else None,
        "turned_card": CARD_CODES[state.trump_card],
        "talon_size": len(state.talon),
        "closed_by": state.closed_by,
        "closed_after_tricks": state.closed_at,
        "phase": 1 if state.talon_open else 2,
        "leader": state.leader,
        "trick": _trick_cards(state, state.leader, state.trick),
        "last_trick": _trick(state, state.tricks[-1]) if state.tricks else None,
        "tricks": [_trick(state, t) for t in state.tricks],
        "tricks_won": [
            {"side": s, "seats": list(state.seats_of(s)), "tricks": state.won_tricks[s]}
            for s in hand_sides
        ],
        "known_cards": {
            str(s): codes(state.hands[s] & state.public)
            for s in state.active
            if s != seat and state.hands[s] & state.public
        },
        "melds": [
            {"seat": m_seat, "suit": SUIT_CODES[suit], "points": meld_value(suit, state.trump),
             "credited": credited}
            for m_seat, suit, credited in state.melds
        ],
        "legal_actions": [a.as_dict() for a in legal_actions(state, seat)]
        if seat is not None else [],
        "can_resign": seat is not None and not state.over,
        "match": _match(state),
        "settlement": state.settlement,
    }
    if state.settings.point_counter:
        out["points"] = [
            {"side": s, "seats": list(state.seats_of(s)), "trick_points": state.won_points[s],
             "melds": state.meld_points(s), "pending_melds": state.meld_points(s, False),
             "total": state.credited_points(s)}
            for s in hand_sides
        ]
    if state.settings.hint_66 and own_side is not None and state.status == PLAYING:
        out["can_declare_66"] = (
            own_side in hand_sides and state.credited_points(own_side) >= 66
        )
    return out


def _match(state: GameState) -> dict[str, Any]:
    """The match and set scores per seat, and how the game ended.

    ``result_reason``: ``None`` while the game runs, ``"points"`` when a side reached the
    target, ``"resigned"`` (``resigned_by`` the seat), ``"timeout"`` (the match forfeited
    on time, ``timed_out_by`` the seat) or ``"aborted"`` (``aborted_by``). Under
    ``four_hand_scoring`` hoyle, ``carried``: the game points the winners of the next hand
    with winners get on top (one per hand tied 65:65 since the last such hand).
    """
    rules = state.rules
    players = rules.variant.players
    per_seat = [state.side_of(s) for s in range(players)]
    target = rules.match_points
    ended = state.ended
    reason, by = ended if ended is not None else (None, None)
    if reason is None and state.status == MATCH_OVER:
        reason = "points"
    out: dict[str, Any] = {
        "match_no": state.match_no,
        "target": target,
        "points": [state.score[side] for side in per_seat],
        "needed": [max(0, target - state.score[side]) for side in per_seat],
        "bummerl": [state.bummerl[side] for side in per_seat],
        "matches_won": [state.matches_won[side] for side in per_seat],
        "set_bummerl": rules.set_bummerl,
        "winner": state.last_match_winner
        if state.last_match_winner is not None and (
            max(state.score) >= target or reason in (RESIGNED, TIMED_OUT)) else None,
        "set_winner": state.set_winner,
        "result_reason": reason,
        "resigned_by": by if reason == RESIGNED else None,
        "aborted_by": by if reason == ABORTED else None,
        "timed_out_by": by if reason == TIMED_OUT else None,
    }
    if rules.plan.hoyle:
        out["carried"] = state.carried
    return out

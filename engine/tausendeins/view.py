"""What one seat (or a spectator) may know of a Tausendeins game (RULES-1001 §9).

A view holds the seat's own hand and public facts: the current trump (or none), the meld
history, phase and stock count, the cards on the table and taken tricks, the other seat's
cards that were shown and not played yet (a meld's partner card, a shown musik card, also
once it is discarded face down: the others cannot tell which were discarded), the auction
calls, contract and declarer, both totals and the target, pending marriages, the
settlement of a finished deal, and the seat's legal actions. Never the stock, an unshown or
untaken musik, the discards (to anyone but the declarer) or the other hand.
"""

from __future__ import annotations

from typing import Any

from engine.cards import CARD_CODES, SUIT_CODES, codes
from engine.tausendeins.game import legal_actions
from engine.tausendeins.options import NAME
from engine.tausendeins.state import PENDING, T1001State


def view(state: T1001State, seat: int | None) -> dict[str, Any]:
    """The game as ``seat`` sees it; ``None`` gives the spectator view."""
    rules = state.rules
    known = {str(s): codes(held & state.shown) for s, held in enumerate(_held(state))
             if s != seat and held & state.shown}
    musik: dict[str, Any] | None = None
    if rules.musik:
        taken = state.musik_taken
        shown = taken is not None and (rules.musik_shown or seat == state.declarer)
        musik = {"musiks": len(state.musiks), "taken": taken,
                 "cards": [CARD_CODES[c] for c in state.musiks[taken - 1]]
                 if shown and taken is not None else None,
                 "discarded": bool(state.discards),
                 "own_discards": codes(state.discards)
                 if seat is not None and seat == state.declarer and state.discards else None}
    return {
        "seat": seat,
        "variant": NAME,
        "rules": rules.as_dict(),
        "status": state.status,
        "stage": state.stage,
        "hand_no": state.hand_no,
        "dealer": state.dealer,
        "forehand": state.forehand,
        "to_act": state.to_act(),
        "hand": codes(state.hands[seat]) if seat is not None else None,
        "hand_sizes": [state.hands[s].bit_count() for s in (0, 1)],
        "trump_suit": SUIT_CODES[state.trump] if state.trump is not None else None,
        "phase": state.phase,
        "stock_size": len(state.stock),
        "leader": state.leader,
        "trick": [{"seat": state.leader if i == 0 else 1 - state.leader, "card": CARD_CODES[c]}
                  for i, c in enumerate(state.trick)],
        "tricks": [{"trick_no": n, "leader": lead, "winner": win,
                    "cards": [CARD_CODES[c] for c in cards]}
                   for n, (lead, cards, win) in enumerate(state.tricks, 1)],
        "tricks_total": rules.tricks,
        "known_cards": known,
        "melds": [{"seat": m.seat, "suit": SUIT_CODES[m.suit], "value": m.value,
                   "trick_no": m.trick_no, "state": m.state, "credited_at": m.credited_at}
                  for m in state.marriages],
        "pending_marriages": [{"seat": m.seat, "suit": SUIT_CODES[m.suit], "value": m.value}
                              for m in state.marriages if m.state == PENDING],
        "melded_suit": SUIT_CODES[state.melded_suit] if state.melded_suit is not None else None,
        "auction": {"calls": [{"seat": c.seat, "bid": c.bid} for c in state.calls],
                    "contract": state.contract, "declarer": state.declarer,
                    "raised": state.raised} if rules.contract else None,
        "musik": musik,
        "totals": list(state.totals),
        "target": rules.target_points,
        "needed": [max(0, rules.target_points - t) for t in state.totals],
        "winner": state.winner,
        "ended": list(state.ended) if state.ended is not None else None,
        "legal_actions": [a.as_dict() for a in legal_actions(state, seat)]
        if seat is not None else [],
        "can_resign": seat is not None and not state.over,
        "settlement": state.settlement,
    }


def _held(state: T1001State) -> tuple[int, int]:
    """Each seat's hand, the declarer's with his discards: a shown card stays known until it
    is played, whether it was kept or laid away face down."""
    hands = [state.hands[0], state.hands[1]]
    if state.declarer is not None:
        hands[state.declarer] |= state.discards
    return hands[0], hands[1]

"""The auction and the musik (RULES-1001 §7.1, §7.4).

Forehand's opening ``bid_min`` is compulsory and made by the deal. Then the dealer and
forehand alternate, the dealer first: a bid rises by a positive multiple of ``bid_step``; a
pass ends the auction, and the last bidder is the declarer at his bid. ``bid_cap`` marriages:
no bid above 120 plus the marriages held in the bidder's hand at that moment (by_order: n
marriages count 40 + 60 + ...); ``bid_cap`` none, and for every bid: no bid above the most a
deal can hold (:attr:`~engine.tausendeins.options.T1001Rules.most_points`, project choice:
a higher one could never be made, and the list of legal bids stays finite).

With ``contract_deal`` musik the declarer then takes musik 1 or 2 into his hand, discards
two cards, and before his first lead may raise the contract once (project choice: one raise,
by any multiple of ``bid_step``, capped as a bid is, by the hand after the discard).
"""

from __future__ import annotations

from engine.tausendeins.options import CARD_POINTS
from engine.tausendeins.play import held_marriages
from engine.tausendeins.state import T1001State


def bid_cap(state: T1001State, seat: int) -> int:
    """The highest bid (or raise) ``seat`` may make now."""
    rules = state.rules
    if rules.bid_cap == "none":
        return rules.most_points
    held = held_marriages(state.hands[seat])
    return min(rules.most_points, CARD_POINTS + rules.held_marriages_value(held))


def bids(state: T1001State, seat: int) -> list[int]:
    """The amounts ``seat`` may bid or raise to now (above the current contract)."""
    assert state.contract is not None
    step = state.rules.bid_step
    return list(range(state.contract + step, bid_cap(state, seat) + 1, step))


def bid_refusal(state: T1001State, seat: int, points: int) -> str:
    """Why a bid or raise of ``points`` is refused (it is not in :func:`bids`)."""
    assert state.contract is not None
    step = state.rules.bid_step
    if points <= state.contract:
        return f"a bid must be higher than {state.contract}"
    if (points - state.contract) % step:
        return f"a bid must rise by a multiple of {step} (from {state.contract})"
    cap = bid_cap(state, seat)
    if state.rules.bid_cap == "marriages" and cap < state.rules.most_points:
        return f"with the marriages in your hand you may bid at most {cap}"
    return f"no bid may exceed {cap}, the most a deal can hold"


def raise_open(state: T1001State, seat: int) -> bool:
    """The musik declarer, on his first lead after discarding, may still raise once."""
    return (state.rules.musik and seat == state.declarer and not state.raised
            and not state.tricks and not state.trick and state.melded_suit is None)

"""The settlement of a Tausendeins deal and the match to the target (RULES-1001 §5-§7.3).

A seat's deal score: card points in his tricks, his credited marriages (under a contract
with ``defender_marriages`` ignored, the non-declarer's score nothing), ``last_trick_bonus``
for the last trick, and with the musik deal the unused cards' points if ``musik_leftover``
gives them to him. ``deal_rounding`` nearest_10 rounds it (5 up); under a contract only the
non-declarer's. Without a contract both add their scores. Under a contract the declarer adds
the contract (``contract_gain`` bid; actual: his score) if his score reaches it, else
subtracts it; the other adds his rounded score.

After a deal: one total at or over ``target_points`` wins; both, the higher; equal totals
there play another deal.
"""

from __future__ import annotations

from typing import Any

from engine.cards import SUIT_CODES, codes, points_of
from engine.tausendeins.state import CREDITED, FORFEITED, PENDING, T1001State


def round_score(score: int, rounding: str) -> int:
    """``score`` rounded as ``deal_rounding`` says (nearest_10: a last digit of 5 rounds up)."""
    return (score + 5) // 10 * 10 if rounding == "nearest_10" else score


def leftover_cards(state: T1001State) -> int:
    """The musik deal's unused cards (the other musik and the discards) as a mask."""
    mask = state.discards
    for i, musik in enumerate(state.musiks, 1):
        if i != state.musik_taken:
            for c in musik:
                mask |= 1 << c
    return mask


def leftover_to(state: T1001State) -> int | None:
    """The seat scoring the unused cards (``None``: nobody, or no musik deal)."""
    how = state.rules.musik_leftover
    if not state.rules.musik or how == "none":
        return None
    return state.declarer if how == "declarer" else state.tricks[-1][2]


def settle(state: T1001State) -> dict[str, Any]:
    """Score the finished deal into the totals and decide the game; returns the settlement."""
    rules = state.rules
    for m in state.marriages:
        if m.state == PENDING:
            m.state = FORFEITED
    last_winner = state.tricks[-1][2]
    leftover = leftover_cards(state)
    to = leftover_to(state)
    contract = rules.contract
    seats: list[dict[str, Any]] = []
    for seat in (0, 1):
        ignored = contract and seat != state.declarer and rules.defender_marriages == "ignored"
        credited = [m for m in state.marriages if m.seat == seat and m.state == CREDITED]
        card_points = points_of(state.taken[seat])
        bonus = rules.last_trick_bonus if seat == last_winner else 0
        left = points_of(leftover) if seat == to else 0
        marriages = 0 if ignored else sum(m.value for m in credited)
        score = card_points + marriages + bonus + left
        rounded = score if contract and seat == state.declarer else \
            round_score(score, rules.deal_rounding)
        seats.append({
            "seat": seat, "cards": codes(state.taken[seat]), "card_points": card_points,
            "tricks": state.won_tricks(seat),
            "marriages": [{"suit": SUIT_CODES[m.suit], "value": m.value, "trick_no": m.trick_no,
                           "credited_at": m.credited_at, "scored": not ignored}
                          for m in credited],
            "forfeited_marriages": [{"suit": SUIT_CODES[m.suit], "value": m.value,
                                     "trick_no": m.trick_no}
                                    for m in state.marriages
                                    if m.seat == seat and m.state == FORFEITED],
            "last_trick_bonus": bonus, "leftover_points": left,
            "score": score, "rounded": rounded, "change": rounded,
            "total_before": state.totals[seat],
        })
    deal_contract: dict[str, Any] | None = None
    if contract:
        assert state.declarer is not None and state.contract is not None
        mine = seats[state.declarer]
        made = mine["score"] >= state.contract
        gain = state.contract if rules.contract_gain == "bid" else mine["score"]
        mine["change"] = gain if made else -state.contract
        deal_contract = {"declarer": state.declarer, "contract": state.contract,
                         "raised": state.raised, "score": mine["score"], "made": made,
                         "by": mine["score"] - state.contract}
    for entry in seats:
        state.totals[entry["seat"]] += entry["change"]
        entry["total"] = state.totals[entry["seat"]]
        entry["needed"] = max(0, rules.target_points - entry["total"])
    state.winner = game_winner(state.totals, rules.target_points)
    return {
        "hand_no": state.hand_no, "dealer": state.dealer, "seats": seats,
        "contract": deal_contract, "last_trick_by": last_winner,
        "leftover": None if not rules.musik else {
            "points": points_of(leftover), "to": to, "rule": rules.musik_leftover},
        "trump_at_end": SUIT_CODES[state.trump] if state.trump is not None else None,
        "target": rules.target_points, "totals": list(state.totals),
        "winner": state.winner,
        "another_deal": state.winner is None,
        "explanation": explain(seats, deal_contract, state.winner),
    }


def game_winner(totals: list[int], target: int) -> int | None:
    """The winner after a deal: the higher of the totals at or over ``target`` (equal: none)."""
    over = [s for s in (0, 1) if totals[s] >= target]
    if len(over) == 1:
        return over[0]
    if len(over) == 2 and totals[0] != totals[1]:
        return 0 if totals[0] > totals[1] else 1
    return None


def explain(seats: list[dict[str, Any]], contract: dict[str, Any] | None,
            winner: int | None) -> str:
    """The settlement in a sentence per seat."""
    parts = []
    for e in seats:
        extra = "".join(f" + {m['suit']} marriage {m['value'] if m['scored'] else 0}"
                        for m in e["marriages"])
        extra += "".join(f" ({m['suit']} marriage {m['value']} forfeited)"
                         for m in e["forfeited_marriages"])
        if e["last_trick_bonus"]:
            extra += f" + last trick {e['last_trick_bonus']}"
        if e["leftover_points"]:
            extra += f" + unused cards {e['leftover_points']}"
        rounded = f" → {e['rounded']}" if e["rounded"] != e["score"] else ""
        parts.append(f"seat {e['seat']}: {e['card_points']} in cards{extra} = "
                     f"{e['score']}{rounded}; {e['change']:+d} → {e['total']}")
    text = "; ".join(parts)
    if contract is not None:
        how = "made" if contract["made"] else "failed"
        text += (f". Contract {contract['contract']} by seat {contract['declarer']} {how} "
                 f"by {abs(contract['by'])}")
    return text + (f". Seat {winner} wins the game." if winner is not None else ".")


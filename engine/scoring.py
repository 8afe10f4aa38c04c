"""Scoring a finished hand in game points, with its working (docs/rules.md §3, §4).

The *table* applied to the loser: no trick → 3; a trick but at most 32 points → 2;
33 or more → 1. Points are trick points plus *credited* melds (plus the last-trick bonus
when the hand was played out with the talon exhausted, not closed).

Decisions where docs/rules.md leaves room, taken as a careful player would:

* A closer's false declaration is a failed closing (the table of §4 says so), not a
  ``false_declaration`` under that option.
* When the closer's opponent declares correctly he wins by the table applied to the closer
  now, at least 2, and 3 if he himself had no trick when the talon was closed.
* The loser's points for the table include his last-trick bonus, if he took the last trick.

Options of other rule sets (see :mod:`engine.rules`): with ``automatic_66`` the ``declarer``
is the seat whose trick or meld reached 66, scored as a correct declaration under the
reasons ``reached_66``, ``closed_reached_66`` and ``reached_66_against_closer``; with
``played_out_points`` ``one`` the reasons ``played_out`` and ``last_trick`` are worth 1.

``four_hand_scoring`` hoyle (four-hand, 32 cards; docs/rules.md §13) replaces the table by the
winners' own points (:func:`hoyle_table`): 66 to 99 → 1, 100 or more → 2, every trick of a
hand played out → 3. A false declaration and a timeout give the other side 2, or 3 without a
trick, as before; a tie (65:65) scores nothing and adds 1 to ``GameState.carried``, which the
winners of the next hand with a winner get on top (reason ``tie``; the settlement says
``carried_to_next``, and the hand that pays it ``carried_points``). With ``trump_ten_point``
the settlement names the side that won the trump Ten (``trump_ten_side``; its game point was
counted when the trick was won, see :mod:`engine.play`), and a hand ended by that point
winning the match has the reason ``trump_ten`` and 0 game points of its own.
"""

from __future__ import annotations

from typing import Any, Final

from engine.cards import Mask, codes, meld_value
from engine.state import GameState, Meld

#: Points a side needs to declare (and win by declaring).
DECLARE_TARGET: Final = 66
#: ``automatic_66``: the reason of a declaration's settlement when the hand ended by itself.
_AUTOMATIC: Final = {"declaration": "reached_66", "closed_declaration": "closed_reached_66",
                     "declaration_against_closer": "reached_66_against_closer"}


def table(tricks: int, points: int) -> tuple[int, str]:
    """Game points won against a loser with ``tricks`` and ``points``, and why."""
    if tricks == 0:
        return 3, "the loser took no trick"
    if points <= 32:
        return 2, f"the loser has {points} points (32 or fewer)"
    return 1, f"the loser has {points} points (33 or more)"


def hoyle_table(points: int, every_trick: bool) -> tuple[int, str]:
    """``four_hand_scoring`` hoyle: game points of winners with ``points`` (``every_trick``:
    they took every trick of a hand played out), and why."""
    if every_trick:
        return 3, "the winners took every trick"
    if points >= 100:
        return 2, f"the winners have {points} points (100 or more)"
    return 1, f"the winners have {points} points (66 to 99)"


#: What a settlement's working is made of, taken from the state when the hand ended:
#: (players, trump, active seats, hands, melds, trick points, tricks, taken cards) per seat or
#: side, as tuples (the state's lists change with the next hand).
Facts = tuple[int, int, tuple[int, ...], tuple[Mask, ...], tuple[Meld, ...], tuple[int, ...],
              tuple[int, ...], tuple[Mask, ...]]


def settle(state: GameState, declarer: int | None, timed_out: int | None = None,
           ) -> dict[str, Any]:
    """The settlement of the current hand, ended by ``declarer``'s "66!", by ``timed_out``'s
    think time running out (reason ``timeout``: the hand is lost as by a false declaration,
    a closer's as a failed closing), or (both ``None``) played out.

    Returns a JSON-ready dict: ``reason``, ``explanation``, ``winner_side``, ``winners``
    (seats), ``game_points``, ``declared_by``, ``closed_by``, ``last_trick_by``,
    ``missing_points`` (false declaration), ``at_close``, per side its working and, for a
    timeout only, ``timed_out`` (the seat).
    """
    return settlement(*decide(state, declarer, timed_out)[2])


def facts(state: GameState) -> Facts:
    """The parts of ``state`` a settlement's working shows."""
    return (state.rules.variant.players, state.trump, state.active, tuple(state.hands),
            tuple(state.melds), tuple(state.won_points), tuple(state.won_tricks),
            tuple(state.taken))


def decide(state: GameState, declarer: int | None, timed_out: int | None = None,
           trump_ten: int | None = None) -> tuple[int | None, int, tuple[Any, ...]]:
    """The outcome of :func:`settle`: the winning side (``None``: a tie), its game points, and
    the arguments of :func:`settlement` for the settlement itself. ``trump_ten``: the side
    whose trump-Ten point (``trump_ten_point``) just won it the match, ending the hand."""
    rules = state.rules
    plan = rules.plan
    pairs = plan.pairs
    first, second = state.active[0], state.active[1]
    side_a, side_b = (first % 2, second % 2) if pairs else (first, second)
    closer = state.closed_by
    closer_side = None if closer is None else closer % 2 if pairs else closer
    last_by = state.tricks[-1][2] if state.tricks else None
    won_points = state.won_points
    total_a, total_b = won_points[side_a], won_points[side_b]
    if state.melds:
        total_a += state.meld_points(side_a)
        total_b += state.meld_points(side_b)
    bonus_a = bonus_b = 0
    if declarer is None and timed_out is None and trump_ten is None and closer is None \
            and last_by is not None:
        if (last_by % 2 if pairs else last_by) == side_a:
            bonus_a = plan.bonus
        else:
            bonus_b = plan.bonus
    total_a += bonus_a
    total_b += bonus_b
    total = {side_a: total_a, side_b: total_b}
    tricks = state.won_tricks
    snapshot = state.closed_snapshot  # (points, tricks) of the closer's opponent at closing

    missing: int | None = None
    winner: int | None
    hoyle = plan.hoyle
    if trump_ten is not None:
        winner, points, reason = trump_ten, 0, "trump_ten"
        why = "the trump Ten's game point won the match at once"
    elif declarer is not None:
        d = declarer % 2 if pairs else declarer
        o = side_b if d == side_a else side_a
        if total[d] >= DECLARE_TARGET:
            winner = d
            if hoyle:
                points, why = hoyle_table(total[d], False)
                reason = "declaration"
            elif closer_side is None:
                points, why = table(tricks[o], total[o])
                reason = "declaration"
            elif closer_side == d:
                assert snapshot is not None
                points, why = table(snapshot[1], snapshot[0])
                reason, why = "closed_declaration", why + " when the talon was closed"
            else:
                assert snapshot is not None
                points, why = table(tricks[o], total[o])
                if snapshot[1] == 0:
                    points, why = 3, "the declarer had no trick when the talon was closed"
                elif points < 2:
                    points, why = 2, "against a closer at least 2"
                reason = "declaration_against_closer"
        else:
            winner = o
            missing = DECLARE_TARGET - total[d]
            points, why, reason = _lost_by(state, d, o, total, closer_side)
    elif timed_out is not None:
        loser = timed_out % 2 if pairs else timed_out
        winner = side_b if loser == side_a else side_a
        points, why, reason = _lost_by(state, loser, winner, total, closer_side)
        if reason == "false_declaration":
            why = why.replace("a false declaration", "running out of time")
        why = f"seat {timed_out} ran out of time: {why}"
        reason = "timeout"
    elif closer_side is not None:
        assert snapshot is not None
        o = side_b if closer_side == side_a else side_a
        if total[closer_side] >= DECLARE_TARGET:
            winner = closer_side
            points, why = table(snapshot[1], snapshot[0])
            reason, why = "closed_played_out", why + " when the talon was closed"
        else:
            winner = o
            points, why = _failed_closing(snapshot[1])
            reason = "closing_failed"
    elif rules.variant.last_trick_wins:
        assert last_by is not None
        winner = last_by % 2 if pairs else last_by
        o = side_b if winner == side_a else side_a
        points, why = table(tricks[o], total[o])
        reason = "last_trick"
    elif total_a == total_b:
        winner, points, reason = None, 0, "tie"
        why = f"equal points {total_a}:{total_b}"
    else:
        winner, o = (side_a, side_b) if total_a > total_b else (side_b, side_a)
        points, why = hoyle_table(total[winner], tricks[o] == 0) if hoyle \
            else table(tricks[o], total[o])
        reason = "played_out"
    if plan.played_out_one and reason in ("played_out", "last_trick"):
        points, why = 1, "a played-out hand is worth 1 whatever the loser's points"
    if plan.automatic_66 and reason in _AUTOMATIC:
        assert winner is not None
        reason, why = _AUTOMATIC[reason], f"reached 66 with {total[winner]} points: {why}"

    extra: tuple[int, int, bool, int | None] | None = None
    if hoyle:
        carried = state.carried
        if winner is not None and carried and trump_ten is None:
            points += carried
            why += f"; +{carried} carried from {carried} tied hand{'s' if carried > 1 else ''}"
        elif winner is None:
            why += f"; the winners of the next hand get {carried + 1} more"
        ten = plan.trump_ten_bits[state.trump]
        ten_side = next((s for s in (side_a, side_b) if state.taken[s] & ten), None) \
            if ten else None
        extra = (carried if winner is not None and trump_ten is None else 0,
                 carried + 1 if winner is None else 0, bool(ten), ten_side)

    at_close = None if snapshot is None or closer_side is None else (
        side_b if closer_side == side_a else side_a, snapshot)
    return winner, points, (
        facts(state), reason, why, winner, points, declarer, closer,
        last_by if declarer is None and timed_out is None and trump_ten is None else None,
        missing, at_close, (bonus_a, bonus_b), (total_a, total_b), timed_out, extra)


def settlement(facts: Facts, reason: str, why: str, winner: int | None, points: int,
               declarer: int | None, closer: int | None, last_by: int | None,
               missing: int | None, at_close: tuple[int, tuple[int, int]] | None,
               bonus: tuple[int, int], total: tuple[int, int], timed_out: int | None,
               hoyle: tuple[int, int, bool, int | None] | None = None) -> dict[str, Any]:
    """The settlement dict of :func:`decide`'s outcome (``at_close``: the closer's opponent's
    side and its (points, tricks) at closing; ``bonus``, ``total``: forehand's side first;
    ``hoyle``: under ``four_hand_scoring`` hoyle, the carried game points this hand's winners
    got, those the next hand's winners will get, whether ``trump_ten_point`` counts the trump
    Ten, and the side that won it)."""
    players, trump, active, hands, melds, won_points, won_tricks, taken = facts
    pairs = players == 4
    out: dict[str, Any] = {
        "reason": reason,
        "explanation": why,
        "winner_side": winner,
        "winners": [] if winner is None else [winner, winner + 2] if pairs else [winner],
        "game_points": points,
        "declared_by": declarer,
        "closed_by": closer,
        "last_trick_by": last_by,
        "missing_points": missing,
        "at_close": None if at_close is None else {
            "side": at_close[0], "points": at_close[1][0], "tricks": at_close[1][1]},
    }
    sides = [seat % 2 if pairs else seat for seat in active[:2]]
    out["sides"] = [{
        "side": side,
        "seats": [side, side + 2] if pairs else [side],
        "trick_points": won_points[side],
        "tricks": won_tricks[side],
        "melds": _melds(melds, side, pairs, trump, True),
        "forfeited_melds": _melds(melds, side, pairs, trump, False),
        "last_trick_bonus": bonus[i],
        "total": total[i],
        "cards": codes(taken[side]),
    } for i, side in enumerate(sides)]
    out["hands_left"] = {str(seat): codes(hands[seat]) for seat in active}
    if timed_out is not None:
        out["timed_out"] = timed_out
    if hoyle is not None:
        out["carried_points"], out["carried_to_next"] = hoyle[0], hoyle[1]
        if hoyle[2]:
            out["trump_ten_side"] = hoyle[3]
    return out


def _melds(melds: tuple[Meld, ...], side: int, pairs: bool, trump: int, credited: bool,
           ) -> list[dict[str, Any]]:
    """The melds of ``side`` that are (or, ``credited`` false, are not) credited."""
    return [{"seat": seat, "suit": "CSHD"[suit], "points": meld_value(suit, trump)}
            for seat, suit, cred in melds
            if cred == credited and (seat % 2 if pairs else seat) == side]


def _lost_by(state: GameState, loser: int, winner: int, total: dict[int, int],
             closer_side: int | None) -> tuple[int, str, str]:
    """Game points, why and reason of side ``loser`` losing the hand by a false declaration
    (a closer's, ``closer_side`` being his: a failed closing) to side ``winner``."""
    if closer_side == loser:
        assert state.closed_snapshot is not None
        points, why = _failed_closing(state.closed_snapshot[1])
        return points, why, "closing_failed"
    tricks = state.won_tricks
    if state.rules.false_declaration == "mirror":
        points, why = table(tricks[winner], total[winner])
        return points, "what the declarer would have won: " + why, "false_declaration"
    if tricks[winner] == 0:
        return 3, "the opponent has no trick", "false_declaration"
    return 2, "a false declaration gives the opponent 2", "false_declaration"


def _failed_closing(opponent_tricks_at_close: int) -> tuple[int, str]:
    if opponent_tricks_at_close == 0:
        return 3, "the closing failed and the opponent had no trick when the talon was closed"
    return 2, "the closing failed"

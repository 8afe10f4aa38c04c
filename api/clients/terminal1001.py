"""Tausendeins (1001) in the terminal: its views, events and settlements as text, and the
reader's commands (pure functions; docs/rules.md, "Tausendeins").

Cards and the hand's order are those of :mod:`api.clients.terminal`, ordered by the current
trump (none until the first marriage of a deal). The numbered choices are the plays (in the
order of the hand), the marriages to meld, the lowest bid, ``pass``, the two musiks, the lowest
raise and ``continue``; every action may also be typed: a card (``QH``), ``meld H``,
``bid N``, ``pass``, ``musik 1``, ``discard 9H JS``, ``raise`` (the lowest) or ``raise N``,
``continue``, or the action text (``bid:110``, ``take_musik:2``, ``discard:9H,JS``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from api.clients.client import ActionDict, action_dict, action_text
from api.clients.terminal import (
    CARD,
    SUIT_NAMES,
    SUIT_ORDER,
    Names,
    card_key,
    cards_text,
    render_trick_event,
    seat_name,
    typed_action,
)
from engine.numerals import parse_natural

PROMPT = "Your choice (number, card, bid N, pass, musik N, discard C C, raise [N], meld S, " \
    "hint, say TEXT; q quits): "
HELP = ("Type a number from the list, a card (e.g. QH), an action (bid 110, pass, musik 1, "
        "discard 9H JS, raise, raise 130, meld H, continue) or hint.")
#: What a Tausendeins hint's values are (``expected_game_points`` of the answer).
HINT_VALUES = "mean deal margin (your points minus the other's)"
#: Numbered choices after the plays and melds, in this order (the lowest bid and raise only).
_NUMBERED = ("bid", "pass", "take_musik", "raise", "continue")
#: Words the reader may type for an action type.
_VERBS = {"musik": "take_musik", "take_musik": "take_musik", "bid": "bid", "raise": "raise",
          "pass": "pass", "continue": "continue", "meld": "meld", "discard": "discard",
          "play": "play"}


def suit_text(suit: str | None) -> str:
    """``D (diamonds)``, or ``none`` before the first marriage of a deal."""
    return f"{suit} ({SUIT_NAMES[suit]})" if suit else "none"


def trump_after(event: Mapping[str, Any], trump: str | None) -> str | None:
    """The trump suit after ``event``: none at a new deal, the suit of a marriage."""
    if event["type"] == "hand_dealt":
        return None
    if event["type"] == "meld":
        return str(event["suit"])
    return trump


def numbered_choices(legal_actions: Sequence[Mapping[str, Any]], trump: str | None
                     ) -> list[ActionDict]:
    """The actions given numbers: plays in the order of the hand, then melds by suit, then
    the lowest bid, pass, the musiks, the lowest raise and continue. Discards, and the other
    bids and raises, are typed (:func:`render_actions` says which)."""
    plays = sorted((a for a in legal_actions if a["type"] == "play"),
                   key=lambda a: card_key(a["card"], trump))
    melds = sorted((a for a in legal_actions if a["type"] == "meld"),
                   key=lambda a: SUIT_ORDER.index(a["suit"]))
    rest: list[Mapping[str, Any]] = []
    for kind in _NUMBERED:
        of_kind = [a for a in legal_actions if a["type"] == kind]
        rest += of_kind[:1] if kind in ("bid", "raise") else of_kind
    return [action_dict(a) for a in (*plays, *melds, *rest)]


def _amounts(points: Sequence[int]) -> str:
    """``110, 120, 130`` or, for more than four, ``110 to 200 in steps of 10``."""
    if len(points) <= 4:
        return ", ".join(map(str, points))
    return f"{points[0]} to {points[-1]} in steps of {points[1] - points[0]}"


def render_actions(choices: Sequence[Mapping[str, Any]],
                   legal_actions: Sequence[Mapping[str, Any]]) -> str:
    """The numbered choices, then what may be typed beyond them: the bids or raises allowed,
    and how to discard."""
    lines = [f"  {i}) {action_text(a)}" for i, a in enumerate(choices, 1)]
    for kind in ("bid", "raise"):
        points = [a["points"] for a in legal_actions if a["type"] == kind]
        if len(points) > 1:
            lines.append(f"  or {kind} N: {_amounts(points)}")
    discards = [a for a in legal_actions if a["type"] == "discard"]
    if discards:
        lines.append(f"  discard two cards of your hand: discard C C (e.g. discard "
                     f"{' '.join(discards[0]['cards'])})")
    return "\n".join(lines)


def parse_choice(text: str, choices: Sequence[Mapping[str, Any]],
                 legal_actions: Sequence[Mapping[str, Any]]) -> ActionDict | None:
    """A choice by number (in the order of ``choices``), a card to play, a command (``bid
    110``, ``musik 2``, ``discard 9H JS``, ``raise``: the lowest legal raise) or action text;
    ``None`` if none of these. What parses but is not legal now is returned: the server says
    why it is refused."""
    text = text.strip()
    if (number := parse_natural(text)) is not None:
        index = number - 1
        return action_dict(choices[index]) if 0 <= index < len(choices) else None
    if CARD.fullmatch(text.upper()):
        return {"type": "play", "card": text.upper()}
    if not text:
        return None
    verb, *args = text.split()
    kind = _VERBS.get(verb.lower())
    if kind is not None and ":" not in text:
        return _command(kind, [a.upper() for a in args], legal_actions)
    return typed_action(text)


def _command(kind: str, args: list[str], legal_actions: Sequence[Mapping[str, Any]]
             ) -> ActionDict | None:
    """The action of a typed command ``kind`` with its words ``args`` (upper case)."""
    if kind in ("pass", "continue"):
        return {"type": kind} if not args else None
    if kind == "raise" and not args:
        lowest = next((a for a in legal_actions if a["type"] == "raise"), None)
        return action_dict(lowest) if lowest is not None else None
    if kind == "discard":
        ok = len(args) == 2 and all(CARD.fullmatch(a) for a in args)
        return {"type": "discard", "cards": args} if ok else None
    if len(args) != 1:
        return None
    if kind == "play":
        return {"type": "play", "card": args[0]} if CARD.fullmatch(args[0]) else None
    if kind == "meld":
        return {"type": "meld", "suit": args[0]} if args[0] in SUIT_NAMES else None
    amount = parse_natural(args[0])
    if amount is None:
        return None
    if kind == "take_musik":
        return {"type": "take_musik", "musik": amount}
    return {"type": kind, "points": amount}


# --------------------------------------------------------------------------- the table


def render_view(view: Mapping[str, Any], names: Names) -> str:
    """The table: the deal, the totals to the target, trump and stock, the auction and musik,
    the marriages, the last trick, the table, the other's known cards and the hand."""
    me = view.get("seat")
    trump = view["trump_suit"]
    tricks = view["tricks"]
    head = (f"Deal {view['hand_no']} · dealer: {seat_name(view['dealer'], me, names)} · "
            f"forehand: {seat_name(view['forehand'], me, names)}")
    if view["stage"] == "play" and view["status"] == "playing":
        head += f" · trick {len(tricks) + 1} of {view['tricks_total']}"
    lines = [head, render_totals(view, me, names)]
    if view["stock_size"]:
        stock = f"stock: {view['stock_size']} cards"
    else:
        stock = "no stock: follow suit and win the trick if you can, else trump"
    lines.append(f"Trump: {suit_text(trump)}{'' if trump else ' (no marriage yet)'} · {stock}")
    lines += _auction_lines(view, me, names)
    lines += _musik_lines(view, me, names)
    if view["melds"]:
        lines.append("Marriages: " + "; ".join(_meld_text(m, me, names) for m in view["melds"]))
    if tricks:
        last = tricks[-1]
        follower = 1 - last["leader"]
        lines.append(f"Last trick: {seat_name(last['leader'], me, names)} {last['cards'][0]}, "
                     f"{seat_name(follower, me, names)} {last['cards'][1]} → "
                     f"{seat_name(last['winner'], me, names)}")
    table = ", ".join(f"{seat_name(p['seat'], me, names)} {p['card']}" for p in view["trick"])
    lines.append(f"Table: {table or '(empty)'}")
    for seat, known in sorted(view.get("known_cards", {}).items()):
        lines.append(f"Known cards of {seat_name(int(seat), me, names)}: "
                     f"{cards_text(known, trump)}")
    if view.get("hand") is not None:
        lines.append(f"Your hand: {cards_text(view['hand'], trump)}")
    return "\n".join(lines)


def render_totals(view: Mapping[str, Any], me: int | None, names: Names) -> str:
    """``Game to 1001: You 100 (901 to go) · Computer 35 (966 to go)``."""
    parts = [f"{seat_name(s, me, names)} {view['totals'][s]} ({view['needed'][s]} to go)"
             for s in (0, 1)]
    return f"Game to {view['target']}: " + " · ".join(parts)


def _auction_lines(view: Mapping[str, Any], me: int | None, names: Names) -> list[str]:
    auction = view.get("auction")
    if not auction:
        return []
    calls = ", ".join(
        f"{seat_name(c['seat'], me, names)} {'pass' if c['bid'] is None else c['bid']}"
        for c in auction["calls"])
    who = seat_name(auction["declarer"], me, names)
    if view["stage"] == "auction":
        return [f"Auction: {calls}; highest bid {auction['contract']} by {who}"]
    raised = " (raised)" if auction["raised"] else ""
    return [f"Contract: {auction['contract']}{raised} by {who} (auction: {calls})"]


def _musik_lines(view: Mapping[str, Any], me: int | None, names: Names) -> list[str]:
    musik = view.get("musik")
    if not musik:
        return []
    if musik["taken"] is None:
        return [f"Musiks: {musik['musiks']} of 2 cards, face down"]
    who = seat_name((view.get("auction") or {}).get("declarer"), me, names)
    cards = f": {cards_text(musik['cards'], view['trump_suit'])}" if musik["cards"] else ""
    lines = [f"Musik {musik['taken']} taken by {who}{cards}"]
    if musik["own_discards"]:
        lines.append(f"You discarded: {cards_text(musik['own_discards'], view['trump_suit'])}")
    elif musik["discarded"]:
        lines.append(f"{who} discarded two cards")
    return lines


def _meld_text(meld: Mapping[str, Any], me: int | None, names: Names) -> str:
    state = {"pending": ", pending: counts with a trick won", "forfeited": ", forfeited",
             "credited": ""}.get(meld["state"], f", {meld['state']}")
    return (f"{seat_name(meld['seat'], me, names)} {SUIT_NAMES[meld['suit']]} {meld['value']} "
            f"(trick {meld['trick_no']}{state})")


# --------------------------------------------------------------------------- the log


def render_event(event: Mapping[str, Any], me: int | None, names: Names,
                 trump: str | None = None) -> str | None:
    """One event as a line; ``None`` for the events the reader need not see. ``trump`` is the
    trump before the event: a marriage says what it was."""
    kind = event["type"]
    who = seat_name(event.get("seat"), me, names)
    you = event.get("seat") == me
    if kind == "hand_dealt":
        deals = "deal" if event["dealer"] == me else "deals"
        where = (f"a stock of {event['stock_size']}" if event["stock_size"]
                 else f"{event['musiks']} musiks of 2" if event["musiks"] else "no stock")
        return (f"— Deal {event['hand_no']}: {seat_name(event['dealer'], me, names)} {deals}; "
                f"{where}; no trump until a marriage is melded.")
    if kind == "cards_dealt":
        return f"You are dealt {cards_text(event['cards'])}." if event.get("cards") else None
    if kind == "bid":
        opens = " (the compulsory opening bid)" if event.get("compulsory") else ""
        return f"{who} {'bid' if you else 'bids'} {event['points']}{opens}."
    if kind == "pass":
        return f"{who} {'pass' if you else 'passes'}."
    if kind == "auction_won":
        return (f"{seat_name(event['declarer'], me, names)} "
                f"{'play' if event['declarer'] == me else 'plays'} a contract of "
                f"{event['contract']}.")
    if kind == "musik_taken":
        cards = f": {cards_text(event['cards'])}" if event.get("cards") else ""
        return f"{who} {'take' if you else 'takes'} musik {event['musik']}{cards}."
    if kind == "discarded":
        cards = cards_text(event["cards"]) if event.get("cards") else "two cards"
        return f"{who} {'discard' if you else 'discards'} {cards}."
    if kind == "raise":
        return f"{who} {'raise' if you else 'raises'} the contract to {event['points']}."
    if kind == "meld":
        return _meld_event(event, who, you, trump)
    if kind == "meld_credited":
        return (f"{who}: the marriage of {SUIT_NAMES[event['suit']]} now counts "
                f"{event['value']}.")
    if (line := render_trick_event(event, who)) is not None:
        return line
    if kind == "stock_exhausted":
        return "The stock is empty: follow suit and win the trick if you can, else trump."
    if kind == "hand_settled":
        return render_settlement(event["settlement"], me, names)
    if kind == "game_won":
        score = ":".join(map(str, event["totals"]))
        return f"*** {seat_name(event['winner'], me, names)} won the game {score}. ***"
    if kind == "resigned":
        return f"{who} resigned."
    if kind == "aborted":
        return f"{who} aborted the game."
    return None


def _meld_event(event: Mapping[str, Any], who: str, you: bool, trump: str | None) -> str:
    pending = "" if event["credited"] else " (counts once a trick is won)"
    was = f", was {SUIT_NAMES[trump]}" if trump and trump != event["suit"] else ""
    return (f"{who} {'meld' if you else 'melds'} the marriage of {SUIT_NAMES[event['suit']]} "
            f"for {event['value']}{pending}: trump is now {suit_text(event['suit'])}{was}.")


def render_settlement(settlement: Mapping[str, Any], me: int | None, names: Names) -> str:
    """A finished deal with its working: the contract made or failed, then each seat's card
    points, marriages, bonus and unused cards, its deal score (rounded), the change to its
    total and what it still needs, and the cards it took."""
    contract = settlement.get("contract")
    head = f"Deal {settlement['hand_no']} over"
    if contract:
        how = "made" if contract["made"] else "failed"
        head += (f": the contract {contract['contract']} of "
                 f"{seat_name(contract['declarer'], me, names)} {how} (score "
                 f"{contract['score']}, {abs(contract['by'])} "
                 f"{'over' if contract['by'] >= 0 else 'short'})")
    lines = [head + "."]
    for entry in settlement["seats"]:
        terms = [f"cards {entry['card_points']}"]
        terms += [f"marriage {m['suit']} {m['value'] if m['scored'] else 0}"
                  for m in entry["marriages"]]
        if entry["last_trick_bonus"]:
            terms.append(f"last trick {entry['last_trick_bonus']}")
        if entry["leftover_points"]:
            terms.append(f"unused cards {entry['leftover_points']}")
        rounded = f" → {entry['rounded']}" if entry["rounded"] != entry["score"] else ""
        line = (f"  {seat_name(entry['seat'], me, names)}: {' + '.join(terms)} = "
                f"{entry['score']}{rounded}; {entry['change']:+d} → {entry['total']} "
                f"({entry['needed']} to go)")
        if entry["forfeited_marriages"]:
            line += " (forfeited, no trick: " + ", ".join(
                f"{m['suit']} {m['value']}" for m in entry["forfeited_marriages"]) + ")"
        lines += [line, f"    took: {cards_text(entry['cards'], settlement['trump_at_end'])}"]
    return "\n".join(lines)


def render_result(view: Mapping[str, Any], names: Names) -> str:
    """The last line of a finished game: the winner and the totals, who resigned; an aborted
    game has no winner."""
    me = view.get("seat")
    ended = view.get("ended") or [None, None]
    if view["status"] == "aborted":
        return f"Aborted by {seat_name(ended[1], me, names)}: no result."
    who = seat_name(view["winner"], me, names) if view["winner"] is not None else "Nobody"
    line = f"{who} won ({':'.join(map(str, view['totals']))})."
    if ended[0] == "resigned":
        line += f" {seat_name(ended[1], me, names)} resigned."
    return line

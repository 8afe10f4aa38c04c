"""Text rendering of views, events and settlements for the terminal (pure functions).

Cards are shown in the API's codes (``QH``: queen of hearts) so that what a player reads is
what he types, always in one order (:func:`sort_cards`: trumps first, then clubs, spades,
hearts, diamonds, high to low): the hand, known cards, dealt and taken cards and the numbered
legal actions. ``me`` is the seat of the reader, called "You"; ``names`` names the other seats
(:func:`table_names`: by where they sit in three- and four-hand).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

from api.clients.client import ActionDict, action_dict, action_text
from api.text_policy import shown
from engine.errors import InvalidAction
from engine.numerals import parse_natural

SUIT_NAMES = {"C": "clubs", "S": "spades", "H": "hearts", "D": "diamonds"}
SUIT_ORDER = "CSHD"
#: High to low; the 8s and 7s only with the option ``deck`` 32.
RANK_ORDER = "ATKQJ987"
CARD = re.compile(f"[{RANK_ORDER}][{SUIT_ORDER}]")
#: Where the other seats sit, clockwise from the reader (play goes to the next seat number).
DIRECTIONS = {3: ("West", "East"), 4: ("West", "North", "East")}
#: The commands besides the legal actions; the prompt names them.
HINT_COMMAND = "hint"
#: ``say TEXT`` sends a chat message.
SAY_COMMAND = "say"
PROMPT = "Your choice (number, card, action, hint, say TEXT; q quits): "

TRICK_REASONS = {
    "higher_card": "the higher card of the suit led",
    "trump": "a trump",
    "off_suit": "the suit led, not followed",
}

SETTLEMENT_REASONS = {
    "declaration": "declared 66",
    "closed_declaration": "closed the talon and declared 66",
    "declaration_against_closer": "declared 66 against the closer",
    "reached_66": "reached 66",
    "closed_reached_66": "closed the talon and reached 66 (automatic)",
    "reached_66_against_closer": "reached 66 against the closer",
    "false_declaration": "a false declaration",
    "closing_failed": "the closing failed",
    "closed_played_out": "closed the talon and reached 66",
    "last_trick": "took the last trick",
    "played_out": "more points when the cards ran out",
    "tie": "a tie",
    "trump_ten": "the trump Ten's game point won the match",
}

Names = Mapping[int, str]


def seat_name(seat: int | None, me: int | None, names: Names) -> str:
    """``You`` for the reader, else the seat's name, else ``Seat N``."""
    if seat is None:
        return "nobody"
    if seat == me:
        return "You"
    return names.get(seat, f"Seat {seat}")


def table_names(seats: Sequence[Mapping[str, Any]], me: int | None) -> dict[int, str]:
    """The other seats' names as the reader sees them (``seats`` as in a view).

    Two-hand: the seat's name. Three- and four-hand: where the seat sits from the reader,
    clockwise (``West``, ``North``, ``East``), with a computer's level or a human's name, and
    the partner marked in four-hand: ``North (normal, partner)``, ``East (Bob)``.
    """
    players = len(seats)
    names: dict[int, str] = {}
    for info in seats:
        seat = info["seat"]
        if seat == me:
            continue
        if me is None or players not in DIRECTIONS:
            names[seat] = shown(info["name"])
            continue
        offset = (seat - me) % players
        tags = [info["level"] if info["kind"] == "computer" else shown(info["name"])]
        if players == 4 and offset == 2:
            tags.append("partner")
        names[seat] = f"{DIRECTIONS[players][offset - 1]} ({', '.join(tags)})"
    return names


def _suit_key(suit: str, trump: str | None) -> tuple[bool, int]:
    return suit != trump, SUIT_ORDER.index(suit)


def card_key(code: str, trump: str | None = None) -> tuple[bool, int, int]:
    """The place of a card in the terminal's one order: trumps first, then C S H D; high to
    low within a suit.
    """
    return (*_suit_key(code[1], trump), RANK_ORDER.index(code[0]))


def sort_cards(cards: Sequence[str], trump: str | None = None) -> list[str]:
    """Cards grouped by suit (trumps first), high to low within a suit."""
    return sorted(cards, key=lambda code: card_key(code, trump))


def order_actions(legal_actions: Sequence[Mapping[str, Any]], trump: str | None
                  ) -> list[ActionDict]:
    """The legal actions as numbered for the reader: plays in the order of the hand, then
    melds by suit (trumps first), then the rest in the server's order.
    """

    def key(action: Mapping[str, Any]) -> tuple[int, tuple[bool, int, int] | tuple[bool, int]]:
        if action["type"] == "play":
            return 0, card_key(action["card"], trump)
        if action["type"] == "meld":
            return 1, _suit_key(action["suit"], trump)
        return 2, (False, 0)

    return [action_dict(a) for a in sorted(legal_actions, key=key)]


def cards_text(cards: Sequence[str], trump: str | None = None) -> str:
    return " ".join(sort_cards(cards, trump)) or "-"


def _plays(plays: Sequence[Mapping[str, Any]], me: int | None, names: Names) -> str:
    return ", ".join(f"{seat_name(p['seat'], me, names)} {p['card']}" for p in plays)


def render_view(view: Mapping[str, Any], names: Names) -> str:
    """The table as the reader sees it: match, trump and talon, table, melds, hand."""
    me = view.get("seat")
    trump = view["trump_suit"]
    lines = [f"Hand {view.get('hand_no', '?')} · dealer: {seat_name(view['dealer'], me, names)}"]
    lines.append(render_match(view["match"], me, names))
    talon = f"talon: {view['talon_size']} cards"
    if view.get("closed_by") is not None:
        talon += f", closed by {seat_name(view['closed_by'], me, names)}"
    face = f", face up: {view['trump_card']}" if view.get("trump_card") else ""
    lines.append(f"Trump: {trump} ({SUIT_NAMES[trump]}){face} · {talon}")
    last = view.get("last_trick")
    if last:
        lines.append(f"Last trick: {_plays(last['cards'], me, names)}"
                     f" → {seat_name(last['winner'], me, names)}")
    lines.append(f"Table: {_plays(view['trick'], me, names) or '(empty)'}")
    for seat, known in sorted(view.get("known_cards", {}).items()):
        who = seat_name(int(seat), me, names)
        lines.append(f"Known cards of {who}: {cards_text(known, trump)}")
    for meld in view.get("melds", []):
        pending = "" if meld["credited"] else " (pending: no trick yet)"
        lines.append(f"Meld: {seat_name(meld['seat'], me, names)} {meld['points']} in "
                     f"{SUIT_NAMES[meld['suit']]}{pending}")
    lines += [_points(side, me, names) for side in view.get("points") or []]
    if view.get("can_declare_66"):
        lines.append("You hold 66: you may declare.")
    if any(m["seat"] == me and m["hand_no"] == view.get("hand_no")
           for m in view.get("hinted_hands", [])):
        lines.append("You took a hint in this hand: it is marked as hinted (unrated).")
    if view.get("hand") is not None:
        lines.append(f"Your hand: {cards_text(view['hand'], trump)}")
    return "\n".join(lines)


def _points(side: Mapping[str, Any], me: int | None, names: Names) -> str:
    """A side's running points (the table's point counter): ``Your points: 35 (tricks 15,
    melds 20, pending 40)``; pending melds count once the side wins a trick.
    """
    seats = side["seats"]
    who = " + ".join(seat_name(s, me, names) for s in seats)
    if me not in seats:
        label = f"Points of {who}"
    else:
        label = "Your points" if len(seats) == 1 else f"Your side's points ({who})"
    pending = f", pending {side['pending_melds']}" if side.get("pending_melds") else ""
    return (f"{label}: {side['total']} (tricks {side['trick_points']}, melds {side['melds']}"
            f"{pending})")


def render_match(match: Mapping[str, Any], me: int | None, names: Names) -> str:
    """``Match to 7: You 2 (5 to go) · Seat 1 4 (3 to go)``, with Bummerl in a set."""
    parts = [
        f"{seat_name(seat, me, names)} {points} ({needed} to go)"
        for seat, (points, needed) in enumerate(zip(match["points"], match["needed"], strict=True))
    ]
    text = f"Match to {match['target']}: " + " · ".join(parts)
    if match.get("set_bummerl", 1) > 1:
        bummerl = ", ".join(
            f"{seat_name(seat, me, names)} {n}" for seat, n in enumerate(match["bummerl"]))
        text += f" · Bummerl: {bummerl}"
    return text


def render_actions(choices: Sequence[Mapping[str, Any]]) -> str:
    """Numbered choices (as :func:`order_actions` orders them): ``  1) play:QH``."""
    return "\n".join(f"  {i}) {action_text(a)}" for i, a in enumerate(choices, 1))


def parse_choice(text: str, choices: Sequence[Mapping[str, Any]]) -> ActionDict | None:
    """A choice by number (1-based, in the order of ``choices``), as a card to play (``QH``)
    or as action text (``play:QH``); ``None`` if none of these.

    Text that parses but is not legal now is returned: the server explains why it is refused.
    """
    text = text.strip()
    if (number := parse_natural(text)) is not None:
        index = number - 1
        return action_dict(choices[index]) if 0 <= index < len(choices) else None
    if CARD.fullmatch(text.upper()):
        return {"type": "play", "card": text.upper()}
    return typed_action(text)


def typed_action(text: str) -> ActionDict | None:
    """Action text as typed (``play:qh``: the API takes card and suit codes in upper case
    only, a person may type them in any), or ``None`` if it is none."""
    kind, sep, arg = text.partition(":")
    try:
        return action_dict(kind + sep + arg.upper())
    except InvalidAction:
        return None


def render_hint(hint: Mapping[str, Any], values: str = "expected game points") -> str:
    """The answer of ``POST /v1/games/{id}/hint``: the advice, its reason, every action's
    value (``values`` says what it is), and that the hand is now marked as hinted.
    """
    ranked = ", ".join(f"{a['text']} {a['expected_game_points']:+.2f}" for a in hint["actions"])
    return "\n".join([
        f"Hint ({hint['level']} computer): {action_text(hint['best'])}",
        f"  {hint['reason']}",
        f"  {values}: {ranked}",
        f"  Hand {hint['hand_no']} is now marked as hinted for you: it does not count for "
        "the leaderboard.",
    ])


def render_chat(message: Mapping[str, Any], me: int | None, names: Names) -> str:
    """A chat message as ``[Name] text`` (``[You] text`` for the reader's own); a control or
    invisible character (the server refuses them now; an older message may hold one) prints
    as its ``\\uXXXX`` escape."""
    return f"[{seat_name(message['seat'], me, names)}] {shown(message['text'])}"


def render_trick_event(event: Mapping[str, Any], who: str) -> str | None:
    """A card played, a trick won or a card drawn by ``who`` as a line (both games say them
    alike); ``None`` for any other event."""
    kind = event["type"]
    if kind == "card_played":
        return f"{who} played {event['card']}."
    if kind == "trick_won":
        reason = TRICK_REASONS.get(event["reason"], event["reason"])
        return (f"{who} took the trick {' '.join(event['cards'])} for {event['points']} points "
                f"with {reason}.")
    if kind == "card_drawn":
        card = event.get("card")
        return f"{who} drew {card}." if card else f"{who} drew a card."
    return None


def render_event(event: Mapping[str, Any], me: int | None, names: Names,
                 trump: str | None = None) -> str | None:
    """One event as a line (or lines); ``None`` for events the reader need not see. ``trump``
    (the suit of the hand) orders dealt and taken cards as the hand shows them.
    """
    kind = event["type"]
    who = seat_name(event.get("seat"), me, names)
    if kind == "chat":
        return render_chat(event, me, names)
    if kind == "hand_dealt":
        deals = "deal" if event["dealer"] == me else "deals"
        return (f"— Hand {event['hand_no']}: {seat_name(event['dealer'], me, names)} {deals}; "
                f"trump {event['trump_suit']} ({SUIT_NAMES[event['trump_suit']]}), "
                f"{event['trump_card']} face up.")
    if kind == "cards_dealt":
        return f"You are dealt {cards_text(event['cards'], trump)}." if event.get("cards") else None
    if (line := render_trick_event(event, who)) is not None:
        return line
    if kind == "meld":
        pending = "" if event["credited"] else " (pending until a trick is won)"
        return (f"{who} melded {' '.join(event['cards'])}: {event['points']} in "
                f"{SUIT_NAMES[event['suit']]}{pending}.")
    if kind == "meld_credited":
        return f"{who}: the meld in {SUIT_NAMES[event['suit']]} now counts {event['points']}."
    if kind == "exchange":
        return f"{who} exchanged {event['gave']} for {event['took']}."
    if kind == "close":
        return f"{who} closed the talon ({event['talon_size']} cards left): strict play now."
    if kind == "talon_exhausted":
        return "The talon is exhausted: strict play now."
    if kind == "declare":
        return f"{who} declared 66 with {event['points']} points."
    if kind == "reached_66":
        return f"{who} reached 66 with {event['points']} points: the hand is over."
    if kind == "trump_ten_point":
        return (f"{who} took the trump Ten: 1 game point "
                f"({':'.join(map(str, event['score']))}).")
    if kind == "hand_settled":
        return render_settlement(event["settlement"], me, names, trump)
    if kind == "match_won":
        winners = " + ".join(seat_name(s, me, names) for s in event["winners"])
        return f"*** {winners} won the match {':'.join(map(str, event['score']))}. ***"
    if kind == "set_won" and sum(event["matches_won"]) > 1:  # a set of more than one match
        winners = " + ".join(seat_name(s, me, names) for s in event["winners"])
        return f"*** {winners} won the set. ***"
    return None


def render_settlement(settlement: Mapping[str, Any], me: int | None, names: Names,
                      trump: str | None = None) -> str:
    """The outcome of a hand with its working: each side's points, melds, bonus and cards
    (in the order of the hand, by ``trump``).
    """
    reason = SETTLEMENT_REASONS.get(settlement["reason"], settlement["reason"])
    explanation = settlement["explanation"]
    why = explanation if explanation.startswith(reason) else f"{reason}: {explanation}"
    if settlement["winners"]:
        winners = " + ".join(seat_name(s, me, names) for s in settlement["winners"])
        points = settlement["game_points"]
        head = f"Hand over: {winners} won {points} game point{'s' if points != 1 else ''} ({why})."
    else:
        head = f"Hand over: nobody scores ({why})."
    lines = [head]
    for side in settlement["sides"]:
        who = " + ".join(seat_name(s, me, names) for s in side["seats"])
        terms = [f"tricks {side['trick_points']}"]
        terms += [f"meld {m['points']} in {m['suit']}" for m in side["melds"]]
        if side["last_trick_bonus"]:
            terms.append(f"last trick {side['last_trick_bonus']}")
        line = f"  {who}: {' + '.join(terms)} = {side['total']}"
        if side["forfeited_melds"]:
            lapsed = ", ".join(f"{m['points']} in {m['suit']}" for m in side["forfeited_melds"])
            line += f" (forfeited: {lapsed})"
        lines.append(line)
        lines.append(f"    took: {cards_text(side['cards'], trump)}")
    if settlement.get("missing_points"):
        lines.append(f"  The declaration was {settlement['missing_points']} points short of 66.")
    lines += _hoyle_lines(settlement, me, names)
    return "\n".join(lines)


def _hoyle_lines(settlement: Mapping[str, Any], me: int | None, names: Names) -> list[str]:
    """Under ``four_hand_scoring`` hoyle: the carried game points and the trump Ten's point."""
    lines = []
    if settlement.get("carried_points"):
        lines.append(f"  {settlement['carried_points']} of these game points carried from "
                     "tied hands.")
    if settlement.get("carried_to_next"):
        lines.append(f"  The winners of the next hand get {settlement['carried_to_next']} "
                     "game point(s) more.")
    if "trump_ten_side" in settlement:
        side = settlement["trump_ten_side"]
        lines.append("  Nobody took the trump Ten." if side is None else
                     "  The trump Ten: 1 game point to "
                     f"{' + '.join(seat_name(s, me, names) for s in (side, side + 2))}.")
    return lines


def render_result(view: Mapping[str, Any], names: Names) -> str:
    """The final line of a finished game: the winners of the set (or of the single match) with
    the match score, and who resigned; an aborted game has no winner.
    """
    me = view.get("seat")
    match = view["match"]
    if match.get("result_reason") == "aborted":
        return f"Aborted by {seat_name(match['aborted_by'], me, names)}: no result."
    side = match.get("set_winner")
    seats = range(len(match["points"]))
    if side is None:
        winners: list[int] = []
    elif view.get("variant") == "four-hand":  # partners 0+2 against 1+3: a side is seat % 2
        winners = [s for s in seats if s % 2 == side]
    else:
        winners = [side]
    who = " + ".join(seat_name(s, me, names) for s in winners) or "Nobody"
    score = ":".join(str(p) for p in match["points"])
    line = f"{who} won ({score})."
    if match.get("result_reason") == "resigned":
        line += f" {seat_name(match['resigned_by'], me, names)} resigned."
    return line

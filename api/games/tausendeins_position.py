"""Checking a pasted Tausendeins seat's view for ``POST /v1/analysis``, cheaply, in the web
request.

A Tausendeins position is what ``GET /v1/games/{id}`` answers a seat (members not listed in
:data:`REQUIRED` are ignored): the members :func:`engine.tausendeins.ai.knowledge.knowledge`
reads, of the types the view gives them; card codes of the 24-card deck, each card in one
place only of the hand, the table, the taken tricks, the other seat's shown cards and the
declarer's own discards (a shown musik's cards lie in one of those too); seat 0 or 1 to act
in a deal in play; ``legal_actions`` those the rules give in a deal that fits the view. Each
problem is a 422 naming its field (:class:`~api.errors.FieldError`). What passes is sound
input for :func:`engine.tausendeins.ai.rank` on the worker: what still fails there raises
only what :func:`api.games.advice.advise_tausendeins` answers as a 422.
"""

from __future__ import annotations

import random
from typing import Any, Final

from api.errors import FieldError
from api.games.positions import card_list, is_int
from engine.cards import CARD_CODES, cards_of, parse_suit
from engine.errors import EngineError, InvalidCard
from engine.tausendeins import T1001Action, T1001Rules
from engine.tausendeins.ai.knowledge import FULL, knowledge
from engine.tausendeins.game import legal_actions
from engine.tausendeins.state import AUCTION, MUSIK, PLAY, PLAYING

#: Members of a Tausendeins view that a position must have (the others are ignored).
REQUIRED: Final = ("seat", "variant", "rules", "status", "stage", "hand_no", "dealer",
                   "to_act", "hand", "hand_sizes", "trump_suit", "melded_suit", "stock_size",
                   "leader", "trick", "tricks", "known_cards", "melds", "auction", "musik",
                   "totals", "legal_actions")
SEATS: Final = (0, 1)
#: The 24 cards of the game.
DECK: Final = frozenset(cards_of(FULL))


def _need(ok: bool, field: str, message: str) -> None:
    if not ok:
        raise FieldError(field, message)


def _seat(value: Any, field: str, *, nullable: bool = False) -> None:
    _need((nullable and value is None) or (is_int(value) and value in SEATS), field,
          "must be a seat, 0 or 1" + (", or null" if nullable else ""))


def _count(value: Any, field: str, most: int, *, nullable: bool = False) -> None:
    _need((nullable and value is None) or (is_int(value) and 0 <= value <= most), field,
          f"must be a whole number 0..{most}" + (", or null" if nullable else ""))


def _suit(value: Any, field: str, *, nullable: bool = True) -> None:
    if nullable and value is None:
        return
    try:
        parse_suit(value)
    except InvalidCard:
        raise FieldError(field, "must be a suit C, S, H or D" + (", or null" if nullable
                                                                 else "")) from None


def _object(value: Any, field: str, members: tuple[str, ...]) -> dict[str, Any]:
    _need(isinstance(value, dict), field, "must be an object with " + ", ".join(members))
    for name in members:
        _need(name in value, f"{field}.{name}", "missing")
    out: dict[str, Any] = value
    return out


def _list(value: Any, field: str) -> list[Any]:
    _need(isinstance(value, list), field, "must be a list")
    out: list[Any] = value
    return out


class _Places:
    """Where each card of the view lies: a card in two places is a 422 on the second."""

    def __init__(self) -> None:
        self.places: dict[int, str] = {}

    def cards(self, value: Any, field: str, *, count: int | None = None,
              record: bool = True) -> list[int]:
        out = card_list(value, field, DECK)
        for i, c in enumerate(out):
            _need(c not in out[:i], field, f"card {CARD_CODES[c]} appears twice")
        if count is not None:
            _need(len(out) == count, field, f"must hold {count} cards")
        if record:
            for c in out:
                if c in self.places:
                    raise FieldError(field, f"card {CARD_CODES[c]} appears in "
                                     f"{self.places[c]} and in {field}")
                self.places[c] = field
        return out


def _check_members(view: dict[str, Any]) -> T1001Rules:
    """Every required member of its type (cards aside)."""
    for name in REQUIRED:
        _need(name in view, name, "missing: a position is a seat's view of a deal in play")
    _need(isinstance(view["rules"], dict), "rules", "must be an object of rule options")
    try:
        rules = T1001Rules.from_dict(view["rules"])
    except EngineError as exc:
        raise FieldError("rules", str(exc)) from None
    _need(view["seat"] is not None, "seat",
          "must be 0 or 1 (a spectator's view has no hand to analyse)")
    _seat(view["seat"], "seat")
    _need(view["status"] == PLAYING, "status",
          f"the deal is not in play (status {view['status']!r})")
    _need(view["stage"] in (AUCTION, MUSIK, PLAY), "stage", "must be auction, musik or play")
    _need(view["to_act"] == view["seat"] and is_int(view["to_act"]), "to_act",
          f"it is not seat {view['seat']}'s turn (to_act is {view['to_act']!r})")
    _count(view["hand_no"], "hand_no", 1 << 30)
    _seat(view["dealer"], "dealer")
    sizes = view["hand_sizes"]
    _need(isinstance(sizes, list) and len(sizes) == 2 and all(
        is_int(n) and 0 <= n <= 12 for n in sizes), "hand_sizes", "must list 2 sizes 0..12")
    _suit(view["trump_suit"], "trump_suit")
    _suit(view["melded_suit"], "melded_suit")
    _count(view["stock_size"], "stock_size", 24)
    _seat(view["leader"], "leader", nullable=True)
    totals = view["totals"]
    _need(isinstance(totals, list) and len(totals) == 2 and all(is_int(t) for t in totals),
          "totals", "must list 2 whole totals")
    _need(isinstance(view["known_cards"], dict) and all(
        k in ("0", "1") for k in view["known_cards"]), "known_cards",
        "must map a seat \"0\" or \"1\" to card codes")
    for i, t in enumerate(_list(view["trick"], "trick")):
        _seat(_object(t, f"trick.{i}", ("seat", "card"))["seat"], f"trick.{i}.seat")
    for i, t in enumerate(_list(view["tricks"], "tricks")):
        t = _object(t, f"tricks.{i}", ("trick_no", "leader", "winner", "cards"))
        _count(t["trick_no"], f"tricks.{i}.trick_no", 12)
        _seat(t["leader"], f"tricks.{i}.leader")
        _seat(t["winner"], f"tricks.{i}.winner")
    for i, m in enumerate(_list(view["melds"], "melds")):
        field = f"melds.{i}"
        m = _object(m, field, ("seat", "suit", "value", "trick_no", "state", "credited_at"))
        _seat(m["seat"], f"{field}.seat")
        _suit(m["suit"], f"{field}.suit", nullable=False)
        _count(m["value"], f"{field}.value", 1000)
        _count(m["trick_no"], f"{field}.trick_no", 12)
        _need(isinstance(m["state"], str), f"{field}.state", "must be a string")
        _count(m["credited_at"], f"{field}.credited_at", 12, nullable=True)
    _check_auction(view["auction"], rules)
    _check_musik(view["musik"], rules)
    _need(isinstance(view["legal_actions"], list) and bool(view["legal_actions"]),
          "legal_actions", "must list the seat's actions (at least one)")
    return rules


def _check_auction(auction: Any, rules: T1001Rules) -> None:
    """The calls, the contract and the declarer (the high bid so far and its bidder)."""
    if not rules.contract:
        _need(auction is None, "auction", "must be null: these rules have no auction")
        return
    auction = _object(auction, "auction", ("calls", "contract", "declarer", "raised"))
    for i, c in enumerate(_list(auction["calls"], "auction.calls")):
        c = _object(c, f"auction.calls.{i}", ("seat", "bid"))
        _seat(c["seat"], f"auction.calls.{i}.seat")
        _count(c["bid"], f"auction.calls.{i}.bid", 1000, nullable=True)
    _count(auction["contract"], "auction.contract", 1000)
    _seat(auction["declarer"], "auction.declarer")
    _need(isinstance(auction["raised"], bool), "auction.raised", "must be true or false")


def _check_musik(musik: Any, rules: T1001Rules) -> None:
    if not rules.musik:
        _need(musik is None, "musik", "must be null: these rules have no musik")
        return
    musik = _object(musik, "musik", ("taken", "cards", "discarded", "own_discards"))
    _need(musik["taken"] is None or (is_int(musik["taken"]) and musik["taken"] in (1, 2)),
          "musik.taken", "must be 1, 2 or null")
    _need(isinstance(musik["discarded"], bool), "musik.discarded", "must be true or false")


def _check_cards(view: dict[str, Any]) -> None:
    """Card codes of the deck, in one place each (a shown musik's cards may be elsewhere)."""
    places = _Places()
    hand = places.cards(view["hand"], "hand")
    _need(len(hand) == view["hand_sizes"][view["seat"]], "hand",
          f"holds {len(hand)} cards but hand_sizes[{view['seat']}] is "
          f"{view['hand_sizes'][view['seat']]}")
    places.cards([t["card"] for t in view["trick"]], "trick")
    for i, t in enumerate(view["tricks"]):
        places.cards(t["cards"], f"tricks.{i}.cards", count=2)
    for s, cards in view["known_cards"].items():
        places.cards(cards, f"known_cards.{s}")
    musik = view["musik"]
    if musik is not None:
        if musik["cards"] is not None:
            places.cards(musik["cards"], "musik.cards", count=2, record=False)
        if musik["own_discards"] is not None:
            places.cards(musik["own_discards"], "musik.own_discards", count=2)


def check_tausendeins_position(view: dict[str, Any]) -> dict[str, Any]:
    """The Tausendeins position of ``view`` (a dict); raises :class:`~api.errors.FieldError`
    naming the first problem: a missing member or one of the wrong type, an unknown or
    repeated card, not the seat's turn, a view no deal fits, or ``legal_actions`` that differ
    from what the rules give in a deal that fits it."""
    _check_members(view)
    _check_cards(view)
    seat = view["seat"]
    stated = set()
    for i, a in enumerate(view["legal_actions"]):
        _need(isinstance(a, dict), f"legal_actions.{i}", "must be an action object")
        try:
            stated.add(T1001Action.from_dict(a))
        except EngineError as exc:
            raise FieldError(f"legal_actions.{i}", str(exc)) from None
    try:
        legal = legal_actions(knowledge(view).sample(random.Random(0)), seat)
    except (EngineError, ValueError, LookupError) as exc:
        raise FieldError("body", f"inconsistent position: {exc}") from None
    _need(bool(legal), "to_act", f"seat {seat} has no action to take in this position")
    _need(stated == set(legal), "legal_actions",
          "differ from what the rules allow here: " + ", ".join(a.text() for a in legal))
    return {**view, "legal_actions": [a.as_dict() for a in legal]}

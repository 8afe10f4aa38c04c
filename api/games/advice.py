"""Advice of the computer for the hint and analysis endpoints: checking a position, ranking it.

A *position* is a seat's view (``GET /v1/games/{id}`` with a seat token, or
:func:`engine.view`); members not listed here are ignored. :func:`position_of_record` makes
one from the text form of a record (:mod:`engine.record`) instead: the record is replayed
through the engine and the seat's view of the position reached is the position.
:func:`check_position` names the first problem of a pasted position as a 422 on its field;
:func:`advise` ranks every legal action with the computer's expected game points
(:func:`engine.ai.evaluate`).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from api.errors import FieldError
from api.games.computers import TAUSENDEINS_PLAYS_AS
from api.games.positions import card_list, is_int
from api.games.tausendeins_position import REQUIRED as T1001_REQUIRED
from api.games.tausendeins_position import check_tausendeins_position
from engine import (
    Action,
    EngineError,
    InvalidOption,
    Rules,
    legal_actions,
    view,
)
from engine.ai import Knowledge, evaluate
from engine.ai.sampling import Sampler, to_state
from engine.cards import CARD_CODES
from engine.deal import deal_order
from engine.family import SIXTY_SIX_FAMILY
from engine.hosted import capabilities_of, game_name
from engine.record import parse_text
from engine.registry import variants
from engine.replay import replay
from engine.tausendeins.ai import rank
from engine.tausendeins.registration import TAUSENDEINS

#: Longest time budget a request may ask for, ms.
MAX_BUDGET_MS: Final = 2000
#: Most sampled deals a request may ask for.
MAX_SAMPLES: Final = 2000
#: Level that answers hints (docs/rules.md §7: "a hint from the strong computer").
HINT_LEVEL: Final = "strong"
#: Members of a view that a position must have (the others are ignored).
REQUIRED: Final = ("seat", "variant", "rules", "status", "dealer", "to_act", "hand",
                   "hand_sizes", "trump_suit", "turned_card", "talon_size", "closed_by",
                   "closed_after_tricks", "leader", "trick", "tricks", "melds")
#: The members of an analysis body that gives a record instead of a view.
RECORD_REQUIRED: Final = ("record_text", "seat")


@dataclass(frozen=True, slots=True)
class Adviser:
    """A game's advice: the members its positions must have, their check and ranking."""

    required: tuple[str, ...]
    check: Callable[[dict[str, Any]], dict[str, Any]]
    rank: Callable[[dict[str, Any], str, float | None, int | None, bool], dict[str, Any]]


def adviser_of(view: Mapping[str, Any]) -> Adviser:
    """The adviser of a position's game (an unknown variant: the Sixty-Six family's, whose
    check names the fault); a game without one is a 422 on ``variant``."""
    variant = view.get("variant")
    game = game_name(variant) if variant in variants() else SIXTY_SIX_FAMILY.name
    if game not in ADVISERS:
        raise FieldError("variant", f"positions of {game} cannot be analysed")
    return ADVISERS[game]


def required_of(view: Mapping[str, Any]) -> tuple[str, ...]:
    """The members a position of ``view``'s game must have."""
    return adviser_of(view).required


def _seat_in(value: Any, seats: tuple[int, ...]) -> bool:
    return is_int(value) and value in seats


def _trick_cards(trick: Any, field: str, deck: frozenset[int]) -> list[int]:
    if not isinstance(trick, list) or not all(isinstance(x, dict) for x in trick):
        raise FieldError(field, "must be a list of {seat, card}")
    return card_list([x.get("card") for x in trick], field, deck)


def _rules(view: Mapping[str, Any]) -> Rules:
    try:
        rules = view["rules"]
        if not isinstance(rules, dict):
            raise FieldError("rules", "must be an object of rule options")
        return Rules.from_dict({**rules, "variant": view["variant"]})
    except InvalidOption as exc:
        raise FieldError("variant" if exc.option == "variant" else f"rules.{exc.option}",
                         str(exc)) from None


def _check_cards(view: Mapping[str, Any], rules: Rules, seat: int) -> None:
    """Known card codes, each card in one place only, the seat's hand of the stated size."""
    variant = rules.variant
    deck = frozenset(variant.deck)
    places: dict[int, str] = {}

    def place(cards: list[int], field: str) -> None:
        for c in cards:
            if c in places:
                where = "twice" if places[c] == field else f"in {places[c]} and in {field}"
                raise FieldError(field, f"card {CARD_CODES[c]} appears {where}")
            places[c] = field

    hand = card_list(view["hand"], "hand", deck)
    place(hand, "hand")
    sizes = view["hand_sizes"]
    if not isinstance(sizes, list) or len(sizes) != variant.players or not all(
            is_int(n) and 0 <= n <= variant.hand_size for n in sizes):
        raise FieldError("hand_sizes", f"must list {variant.players} hand sizes of 0.."
                         f"{variant.hand_size}")
    if len(hand) != sizes[seat]:
        raise FieldError("hand", f"holds {len(hand)} cards but hand_sizes[{seat}] is "
                         f"{sizes[seat]}")
    place(_trick_cards(view["trick"], "trick", deck), "trick")
    if not isinstance(view["tricks"], list):
        raise FieldError("tricks", "must be a list of tricks")
    for i, t in enumerate(view["tricks"]):
        if not isinstance(t, dict):
            raise FieldError(f"tricks.{i}", "must be a trick {leader, cards, winner}")
        place(_trick_cards(t.get("cards"), f"tricks.{i}", deck), f"tricks.{i}")
    known = view.get("known_cards") or {}
    if not isinstance(known, dict):
        raise FieldError("known_cards", "must map seats to card lists")
    for s, cards in known.items():
        place(card_list(cards, f"known_cards.{s}", deck), f"known_cards.{s}")
    if view.get("trump_card") is not None:
        place(card_list([view["trump_card"]], "trump_card", deck), "trump_card")


def _check_talon(view: Mapping[str, Any], rules: Rules, active: tuple[int, ...]) -> None:
    """Talon size within the variant's, and a closing by a seat in play after a past trick."""
    variant = rules.variant
    most = len(variant.deck) - len(active) * variant.hand_size if variant.has_talon else 0
    size = view["talon_size"]
    if not is_int(size) or not 0 <= size <= most:
        raise FieldError("talon_size", f"must be 0..{most}")
    closed_by, after = view["closed_by"], view["closed_after_tricks"]
    if closed_by is None and after is None:
        return
    if not _seat_in(closed_by, active):
        raise FieldError("closed_by", f"must be null or a seat in play {list(active)}")
    if not is_int(after) or not 0 <= after <= len(view["tricks"]):
        raise FieldError("closed_after_tricks", "must be the number of tricks played before "
                         "the talon was closed")


def _check_turn(view: Mapping[str, Any], rules: Rules, seat: int) -> None:
    """The hand is in play, it is the seat's turn, and the hand sizes fit the tricks played."""
    if view["status"] != "playing":
        raise FieldError("status", f"the hand is not in play (status {view['status']!r})")
    if not is_int(view["to_act"]) or view["to_act"] != seat:
        raise FieldError("to_act", f"it is not seat {seat}'s turn (to_act is "
                         f"{view['to_act']})")
    players = rules.variant.players
    dealer = view["dealer"]
    if not is_int(dealer) or not 0 <= dealer < players:
        raise FieldError("dealer", f"must be a seat 0..{players - 1}")
    active = deal_order(rules.variant, dealer)
    for i, t in enumerate(view["tricks"]):
        if not _seat_in(t.get("leader"), active) or not _seat_in(t.get("winner"), active) or len(
                t["cards"]) != len(active):
            raise FieldError(f"tricks.{i}", f"a trick has {len(active)} cards, its leader and "
                             f"winner among the seats in play {list(active)}")
    trick = view["trick"]
    leader = view["leader"]
    if not _seat_in(leader, active) or len(trick) >= len(active):
        raise FieldError("trick", f"a trick in progress has a leader among {list(active)} and "
                         f"fewer than {len(active)} cards")
    turn = active[(active.index(leader) + len(trick)) % len(active)]
    if turn != seat:
        raise FieldError("to_act", f"seat {turn} plays next to this trick, not seat {seat}")
    _check_talon(view, rules, active)
    for i, m in enumerate(view["melds"] if isinstance(view["melds"], list) else [None]):
        if not isinstance(m, dict) or not _seat_in(m.get("seat"), active) or m.get("suit") not in (
                "C", "S", "H", "D") or not isinstance(m.get("credited"), bool):
            raise FieldError(f"melds.{i}", "a meld is {seat, suit, credited} of a seat in play")
    played = {x.get("seat") for x in trick}
    sizes = view["hand_sizes"]
    full = {sizes[s] + (s in played) for s in range(players) if sizes[s] or s in played}
    if len(full) > 1:
        raise FieldError("hand_sizes", "do not fit the trick in progress: every player "
                         "holds as many cards as the others until he plays to it")


def check_position(view: Any) -> dict[str, Any]:
    """The position of ``view`` with its legal actions as the rules give them.

    Raises :class:`~api.errors.FieldError` (422) naming the first problem found: a missing
    member, an unknown or repeated card, a hand of the wrong size, a hand that is over, not
    the seat's turn, a position no deal of the unseen cards fits, or ``legal_actions`` that
    differ from what the rules allow. A Tausendeins view is checked by
    :func:`~api.games.tausendeins_position.check_tausendeins_position`.
    """
    if not isinstance(view, dict):
        raise FieldError("body", "must be a seat's view (a JSON object)")
    return adviser_of(view).check(view)


def _check_family_position(view: dict[str, Any]) -> dict[str, Any]:
    """:func:`check_position` of a Sixty-Six family's position."""
    for name in REQUIRED:
        if name not in view:
            raise FieldError(name, "missing: a position is a seat's view of a hand in play")
    rules = _rules(view)
    seat = view["seat"]
    if not is_int(seat) or not (
            0 <= seat < rules.variant.players):
        raise FieldError("seat", f"must be a seat 0..{rules.variant.players - 1} (a "
                         "spectator's view has no hand to analyse)")
    _check_cards(view, rules, seat)
    _check_turn(view, rules, seat)
    position = {**view, "legal_actions": []}
    try:
        knowledge = Knowledge.from_view(position)
        state = to_state(knowledge, Sampler(knowledge).sample(random.Random(0)))
        legal = legal_actions(state, seat)
    except (EngineError, ValueError, LookupError) as exc:
        raise FieldError("body", f"inconsistent position: {exc}") from None
    if not legal:
        raise FieldError("to_act", f"seat {seat} has no action to take in this position")
    given = view.get("legal_actions")
    if given is not None:
        try:
            stated = {Action.from_dict(a) for a in given}
        except (EngineError, TypeError, AttributeError):
            raise FieldError("legal_actions", "must be a list of actions") from None
        if stated != set(legal):
            raise FieldError("legal_actions", "differ from what the rules allow here: "
                             + ", ".join(a.text() for a in legal))
    position["legal_actions"] = [a.as_dict() for a in legal]
    return position


def _header_variant(text: str) -> str | None:
    """The ``variant=`` of a text record's first line (``None`` if it has none)."""
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            first = line.split()[0]
            return first.removeprefix("variant=") if first.startswith("variant=") else None
    return None


def position_of_record(text: Any, seat: Any) -> dict[str, Any]:
    """The position of ``seat`` after replaying the text record ``text`` (a header line and
    the hands so far, the last one up to the position: deck and actions); checked by
    :func:`check_position`. A record that does not parse or replay is a 422 on
    ``record_text``."""
    if not isinstance(text, str):
        raise FieldError("record_text", "must be the text form of a record")
    variant = _header_variant(text)
    if variant in variants() and not capabilities_of(variant).text_record:
        raise FieldError("record_text", f"a {variant.capitalize()} record has no text "
                         "form; paste the seat's view instead")
    try:
        state = replay(parse_text(text)).state
    except EngineError as exc:
        raise FieldError("record_text", str(exc)) from None
    if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < state.players:
        raise FieldError("seat", f"must be the seat to analyse for, 0..{state.players - 1}")
    return check_position(view(state, seat))


def advise(position: dict[str, Any], level: str, budget_ms: float | None,
           samples: int | None, reveal_declare: bool) -> dict[str, Any]:
    """Every legal action of ``position`` ranked by ``level``'s expected game points.

    Without ``reveal_declare`` the seat's own declaration is neither ranked nor flagged (a
    hint at a table with ``hint_66`` off). A Tausendeins position is ranked by
    :func:`advise_tausendeins` instead, by the level ``level`` plays as there (``expert``:
    ``strong``).
    """
    return adviser_of(position).rank(position, level, budget_ms, samples, reveal_declare)


def _advise_family(position: dict[str, Any], level: str, budget_ms: float | None,
                   samples: int | None, reveal_declare: bool) -> dict[str, Any]:
    """:func:`advise` on a Sixty-Six family's position."""
    try:
        ev = evaluate(position, level, budget_ms=budget_ms, samples=samples,
                      declare=reveal_declare)
    except (EngineError, ValueError, LookupError) as exc:
        raise FieldError("body", f"the position cannot be analysed: {exc}") from None
    out = ev.as_dict()
    if not reveal_declare:
        del out["would_declare_66"]
    return out


def advise_tausendeins(position: dict[str, Any], level: str) -> dict[str, Any]:
    """The candidate actions of a Tausendeins seat's view ranked by ``level``
    (:func:`engine.tausendeins.ai.rank`): ``expected_game_points`` is there the mean deal
    margin in points (the seat's change of total minus the other's). The level's own work
    bounds apply (no time budget, no sample count); discards are cut to the level's cheapest
    pairs, bids and raises to the two lowest, as the computer considers them."""
    try:
        ranking = rank(position, level, random.Random())
    except (EngineError, ValueError, LookupError) as exc:
        raise FieldError("body", f"the position cannot be analysed: {exc}") from None
    return ranking.as_dict()


def _advise_tausendeins(position: dict[str, Any], level: str, budget_ms: float | None,
                        samples: int | None, reveal_declare: bool) -> dict[str, Any]:
    return advise_tausendeins(position, TAUSENDEINS_PLAYS_AS[level])


#: Each game's adviser, by the game's name.
ADVISERS: Final[dict[str, Adviser]] = {
    SIXTY_SIX_FAMILY.name: Adviser(REQUIRED, _check_family_position, _advise_family),
    TAUSENDEINS.name: Adviser(T1001_REQUIRED, check_tausendeins_position, _advise_tausendeins),
}

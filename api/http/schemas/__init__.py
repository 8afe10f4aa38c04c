"""Marshmallow schemas of the HTTP API (snake_case), with examples for the documentation.

Request schemas validate input (a failure is a 422 problem naming the field). Numbers in a
JSON body must be JSON numbers: an integer field takes only integers (not ``0.5``, ``1.0``,
``"1"`` or ``true``), a number field no strings or booleans. Every number of a query string
has a minimum and a maximum (stated in the OpenAPI document). Response schemas document the
answers; the views are built by :mod:`api.games.service` and sent as they are.
"""

from __future__ import annotations

from typing import Any, Final

from marshmallow import INCLUDE, Schema, ValidationError, fields, validate

from api.games.store import MAX_PAGE, MAX_SEQ
from api.text_policy import PATTERN, POLICY, normalised, refusal
from engine.actions import KINDS
from engine.numerals import parse_natural
from engine.tausendeins.actions import KINDS as T1001_KINDS

MAX_WAIT: Final = 30
#: Most seats of any variant (four-hand): seat numbers are 0..MAX_SEAT.
MAX_SEAT: Final = 3
MAX_EVENTS: Final = MAX_PAGE
DEFAULT_EVENTS: Final = 100
SEAT_KINDS: Final = ("human", "computer")
_CARD: Final = {"description": "Card code: rank A T K Q J 9 then suit C S H D", "example": "QH"}
_SUIT: Final = {"description": "Suit code: C S H D", "example": "H"}
INVITE: Final = {"description": "Spectators of a private table's game: its invite code "
                                 "(or the X-Invite-Code header)"}


def invite_code_query() -> fields.String:
    """The ``invite_code`` query parameter of a spectator of a private table's game."""
    return fields.String(validate=validate.Length(1, 100), metadata=INVITE)


# --------------------------------------------------------------------------- requests


class BodyInteger(fields.Integer):
    """An integer member of a JSON body: only a JSON integer (not ``1.0``, ``"1"`` or
    ``true``). Every integer a request body carries is one of these."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(strict=True, **kwargs)


class QueryInteger(fields.Integer):
    """An integer query parameter: 1 to 18 ASCII digits (no sign, space or other digits, such
    as ``²`` or ``٣``); anything else is a 422 naming it. Every integer query value is one."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> int:
        number = parse_natural(value) if isinstance(value, str) else None
        if number is None:
            raise self.make_error("invalid")
        return number


class BodyNumber(fields.Float):
    """A number member of a JSON body: a JSON number, not a string or a boolean."""

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise self.make_error("invalid")
        return super()._deserialize(value, attr, data, **kwargs)


class PolicyText(fields.String):
    """A string of the text policy (:mod:`api.text_policy`) of ``low`` to ``high``
    characters: loaded normalised; one that breaks it is a 422 on the field saying why."""

    def __init__(self, low: int, high: int, **kwargs: Any) -> None:
        metadata = {**kwargs.pop("metadata", {}), "minLength": low, "maxLength": high,
                    "pattern": PATTERN}
        super().__init__(metadata=metadata, **kwargs)
        self.bounds = (low, high)

    def _deserialize(self, value: Any, attr: str | None, data: Any, **kwargs: Any) -> Any:
        text = normalised(super()._deserialize(value, attr, data, **kwargs))
        reason = refusal(text, *self.bounds)
        if reason is not None:
            raise ValidationError(reason)
        return text


#: Shortest and longest seat name, in characters.
NAME_LENGTH: Final = (1, 40)


def _plain_name(name: str) -> bool:
    """Whether seat name ``name`` is one ``SeatSpecSchema`` loads as it is."""
    return normalised(name) == name and refusal(name, *NAME_LENGTH) is None


class SeatSpecSchema(Schema):
    kind = fields.String(required=True, validate=validate.OneOf(SEAT_KINDS),
                         metadata={"example": "human"})
    name = PolicyText(*NAME_LENGTH, metadata={
        "description": "Shown to every seat; default 'Player N' or 'Computer (level)'; "
                       f"{POLICY} (422 on it)", "example": "Ann"})
    level = fields.String(metadata={
        "description": "Computer level (see GET /v1/rules); default random", "example": "random"})


def _strict_bool(description: str) -> fields.Boolean:
    """A boolean that accepts only JSON true and false."""
    return fields.Boolean(load_default=False, truthy={True}, falsy={False},
                          metadata={"description": description})


class TableSettingsSchema(Schema):
    point_counter = _strict_bool("Show each side's current points in views")
    hint_66 = _strict_bool("Flag in the view when the seat holds 66 credited points")
    auto_continue = _strict_bool("Acknowledge finished hands for human seats too: the next "
                                 "hand is dealt at once (the settlement stays in the events)")
    think_time_s = BodyInteger(allow_none=True, load_default=None, metadata={
        "description": "Clock: seconds a human seat has for each move, 10 to 120; null: no "
                       "clock. After a hand the settlement stays open until every human "
                       "continues or for 10 s of reading time plus this (a pause: 60 s more)",
        "example": 30})
    on_timeout = fields.String(load_default="computer", validate=validate.OneOf(
        ("computer", "forfeit")), metadata={
        "description": "When a move's time runs out: computer (a computer of timeout_level "
                       "makes that one move for the seat) or forfeit (the hand is lost as by "
                       "a false declaration, settlement reason timeout). The third expiry in "
                       "a row without a move of the seat's own forfeits the match "
                       "(result_reason timeout)"})
    timeout_level = fields.String(load_default="normal", metadata={
        "description": "Computer level that moves for a seat out of time (GET /v1/rules)"})


class CreateGameSchema(Schema):
    variant = fields.String(load_default="sixty-six", metadata={
        "description": "sixty-six (2 seats), schnapsen (2), three-hand (3), four-hand (4) or "
                       "tausendeins (2: the race to 1001 in which marriages set trump, with "
                       "its own rules options and actions; no clock, point_counter or "
                       "hint_66 there); another name is a 422", "example": "sixty-six"})
    rules = fields.Dict(keys=fields.String(), values=fields.Raw(), load_default=dict, metadata={
        "description": "Rule options by name (GET /v1/rules lists them)",
        "example": {"close_min_talon": 3}})
    seats = fields.List(fields.Nested(SeatSpecSchema), metadata={
        "description": "One per player, seat 0 first: exactly 2 for sixty-six and "
                       "schnapsen, 3 for three-hand, 4 for four-hand (partners 0+2 against "
                       "1+3); another count is a 422. Default: seat 0 human, the others "
                       "computer (random). At least one seat must be human."})
    match_points = BodyInteger(metadata={
        "description": "Game points that win a match (the rule option of that name)",
        "example": 7})
    set_bummerl = BodyInteger(metadata={
        "description": "Bummerl that win a set (the rule option of that name)", "example": 1})
    settings = fields.Nested(TableSettingsSchema,
                             load_default=lambda: TableSettingsSchema().load({}))
    deck = fields.List(fields.String(), metadata={
        "description": "Explicit deal order of the first hand (all 24, Schnapsen 20 card "
                       "codes, dealt first card first); the game is then unrated"})
    first_dealer = BodyInteger(validate=validate.Range(min=0, max=MAX_SEAT), metadata={
        "description": "Seat that deals first, 0 to seats − 1; default: cut for the deal",
        "example": 1})

    @staticmethod
    def quick_load(data: Any) -> dict[str, Any] | None:
        """What ``load`` returns for a body whose every member is of the plain kind it takes
        (strings, ``int`` integers, ``bool`` booleans, known members only), without
        marshmallow (about 0.2 ms a creation); ``None`` for any other body (load it)."""
        if type(data) is not dict or not data.keys() <= _CREATE_MEMBERS:
            return None
        variant, rules = data.get("variant", "sixty-six"), data.get("rules", {})
        settings = _quick_settings(data.get("settings", {}))
        if (type(variant) is not str or type(rules) is not dict or settings is None
                or not all(type(k) is str for k in rules)
                or ("seats" in data and not _quick_seats(data["seats"]))
                or ("deck" in data and (type(data["deck"]) is not list
                                        or not all(type(c) is str for c in data["deck"])))
                or not all(type(data[n]) is int for n in _CREATE_INTEGERS if n in data)
                or not 0 <= data.get("first_dealer", 0) <= MAX_SEAT):
            return None
        out: dict[str, Any] = {"variant": variant, "rules": dict(rules)}
        if "seats" in data:
            out["seats"] = [{n: seat[n] for n in _SEAT_ORDER if n in seat}
                            for seat in data["seats"]]
        out.update({n: data[n] for n in ("match_points", "set_bummerl") if n in data})
        out["settings"] = settings
        if "deck" in data:
            out["deck"] = list(data["deck"])
        if "first_dealer" in data:
            out["first_dealer"] = data["first_dealer"]
        return out


_CREATE_MEMBERS: Final = frozenset(CreateGameSchema().fields)
_CREATE_INTEGERS: Final = ("match_points", "set_bummerl", "first_dealer")
_SEAT_ORDER: Final = tuple(SeatSpecSchema().fields)  # as load answers them
_SEAT_MEMBERS: Final = frozenset(_SEAT_ORDER)
_SETTINGS_DEFAULTS: Final = TableSettingsSchema().load({})
_SETTINGS_FLAGS: Final = ("point_counter", "hint_66", "auto_continue")


def _quick_seats(seats: Any) -> bool:
    """Whether ``seats`` are seat specs ``SeatSpecSchema`` takes as they are."""
    return type(seats) is list and all(
        type(seat) is dict and seat.keys() <= _SEAT_MEMBERS and seat.get("kind") in SEAT_KINDS
        and all(type(seat.get(n, "")) is str for n in ("name", "level"))
        and ("name" not in seat or _plain_name(seat["name"]))
        for seat in seats)


def _quick_settings(given: Any) -> dict[str, Any] | None:
    """What ``TableSettingsSchema().load(given)`` returns for plain settings, else ``None``."""
    if type(given) is not dict or not given.keys() <= _SETTINGS_DEFAULTS.keys():
        return None
    out = {**_SETTINGS_DEFAULTS, **given}
    if (not all(type(out[n]) is bool for n in _SETTINGS_FLAGS)
            or not (out["think_time_s"] is None or type(out["think_time_s"]) is int)
            or out["on_timeout"] not in ("computer", "forfeit")
            or type(out["on_timeout"]) is not str or type(out["timeout_level"]) is not str):
        return None
    return out


#: The action types a request may post: the Sixty-Six family's, Tausendeins' own, ``pause``.
ACTION_TYPES: Final = (*KINDS, *(k for k in T1001_KINDS if k not in KINDS), "pause")
_QUICK_TYPES: Final = frozenset(ACTION_TYPES)
_ACTION_MEMBERS: Final = frozenset(("type", "card", "suit"))
_POINTS: Final = {"description": "Tausendeins, for bid and raise: the contract's points, a "
                                 "bid step above the last (legal_actions lists them)",
                  "example": 110}
_MUSIK: Final = {"description": "Tausendeins, for take_musik: 1 or 2", "example": 2}
_CARDS: Final = {"description": "Tausendeins, for discard: the two cards laid away",
                 "example": ["9H", "JS"]}


class ActionSchema(Schema):
    type = fields.String(required=True, validate=validate.OneOf(ACTION_TYPES),
                         metadata={"example": "play", "description": "pause: hold a "
                                   "settlement open longer at a table with a clock"})
    card = fields.String(metadata={**_CARD, "description": "For play: " + _CARD["description"]})
    suit = fields.String(metadata={**_SUIT, "description": "For meld: " + _SUIT["description"]})
    points = BodyInteger(metadata=_POINTS)
    musik = BodyInteger(metadata=_MUSIK)
    cards = fields.List(fields.String(), metadata=_CARDS)

    @staticmethod
    def quick_load(data: Any) -> dict[str, Any] | None:
        """What ``load`` returns for a body it takes as it is (only these members, all
        strings, a known type), without marshmallow; ``None`` for any other body (load it)."""
        if (type(data) is dict and data.keys() <= _ACTION_MEMBERS
                and all(type(v) is str for v in data.values())
                and data.get("type") in _QUICK_TYPES):
            return dict(data)
        return None


class ViewQuerySchema(Schema):
    after_version = QueryInteger(validate=validate.Range(min=0, max=MAX_SEQ), metadata={
        "description": "Long-poll: answer once the version exceeds this"})
    wait = fields.Float(load_default=0.0, validate=validate.Range(min=0, max=MAX_WAIT),
                        metadata={"description": f"Long-poll: longest wait in seconds "
                                                 f"(at most {MAX_WAIT})"})
    invite_code = invite_code_query()


class EventsQuerySchema(Schema):
    after = QueryInteger(load_default=0, validate=validate.Range(min=0, max=MAX_SEQ), metadata={
        "description": "Answer events with seq greater than this"})
    limit = QueryInteger(load_default=DEFAULT_EVENTS,
                           validate=validate.Range(min=1, max=MAX_EVENTS),
                           metadata={"description": f"At most this many events (≤ {MAX_EVENTS})"})
    invite_code = invite_code_query()


class StreamQuerySchema(Schema):
    after = QueryInteger(validate=validate.Range(min=0, max=MAX_SEQ), metadata={
        "description": "Resume after this event seq (Last-Event-ID, when sent, wins)"})
    ticket = fields.String(validate=validate.Length(1, 100), metadata={
        "description": "A stream ticket from POST /v1/games/{game_id}/stream-ticket (for "
                       "clients that cannot send Authorization, such as EventSource)"})
    invite_code = invite_code_query()


# --------------------------------------------------------------------------- responses


class SeatSchema(Schema):
    seat = fields.Integer(metadata={"example": 0})
    kind = fields.String(validate=validate.OneOf(SEAT_KINDS), metadata={"example": "human"})
    name = fields.String(metadata={"example": "Ann"})
    level = fields.String(allow_none=True, metadata={"description": "Computer seats only"})


class CreatedSeatSchema(SeatSchema):
    token = fields.String(allow_none=True, metadata={
        "description": "Bearer token of a human seat, shown only in this response"})


class ViewSeatSchema(SeatSchema):
    connected = fields.Boolean(metadata={"description": (
        "Whether the seat was seen within the last 30 s (SIXTYSIX_PRESENCE_WINDOW): a stream "
        "of it open, or a request with its token; always true for a computer seat and for "
        "the caller's own seat")})


class TicketSchema(Schema):
    ticket = fields.String(metadata={"description": "Pass as ?ticket= to the stream, once"})
    expires_in = fields.Integer(metadata={"description": "Seconds the ticket is valid"})


class CreatedGameSchema(Schema):
    game_id = fields.String(metadata={"example": "q3V9k2xR0aLmT7wZ"})
    version = fields.Integer(metadata={"example": 1})
    variant = fields.String(metadata={"example": "sixty-six"})
    rated = fields.Boolean(metadata={
        "description": "Counts for the leaderboard and ratings: only a game created with a "
                       "player token, against computers only, without a deck"})
    unrated_reason = fields.String(allow_none=True, metadata={
        "description": "Why the game does not count; null when it does"})
    seats = fields.List(fields.Nested(CreatedSeatSchema))


class ActionOutSchema(Schema):
    type = fields.String(metadata={"example": "play"})
    card = fields.String(metadata=_CARD)
    suit = fields.String(metadata=_SUIT)
    points = fields.Integer(metadata=_POINTS)
    musik = fields.Integer(metadata=_MUSIK)
    cards = fields.List(fields.String(), metadata=_CARDS)


class TrickCardSchema(Schema):
    seat = fields.Integer()
    card = fields.String(metadata=_CARD)


class TrickSchema(Schema):
    """A taken trick of the Sixty-Six family: each card with its seat."""

    leader = fields.Integer(required=True)
    cards = fields.List(fields.Nested(TrickCardSchema), required=True)
    winner = fields.Integer(required=True)


class TausendeinsTrickSchema(Schema):
    """A taken trick of Tausendeins: its number and the cards in the order played."""

    trick_no = fields.Integer(required=True, metadata={"description": "From 1"})
    leader = fields.Integer(required=True)
    cards = fields.List(fields.String(metadata=_CARD), required=True, metadata={
        "description": "The leader's card first"})
    winner = fields.Integer(required=True)


def _one_of_components(*names: str, **metadata: Any) -> fields.Raw:
    """A member that is one of the component schemas ``names`` (OpenAPI ``anyOf``; each is
    registered by :class:`api.http.openapi_docs.DocsPlugin`)."""
    return fields.Raw(metadata={
        **metadata, "anyOf": [{"$ref": f"#/components/schemas/{n}"} for n in names]})


class MatchSchema(Schema):
    match_no = fields.Integer()
    target = fields.Integer(metadata={"description": "Game points that win the match"})
    points = fields.List(fields.Integer(), metadata={"description": "Game points per seat"})
    needed = fields.List(fields.Integer())
    bummerl = fields.List(fields.Integer())
    matches_won = fields.List(fields.Integer())
    set_bummerl = fields.Integer()
    winner = fields.Integer(allow_none=True, metadata={"description": "Side that won the match"})
    set_winner = fields.Integer(allow_none=True)
    result_reason = fields.String(allow_none=True, validate=validate.OneOf(
        ("points", "resigned", "aborted")), metadata={
        "description": "How the game ended: null while it runs; points (a side reached the "
                       "target), resigned (the other side won) or aborted (no result)"})
    resigned_by = fields.Integer(allow_none=True, metadata={"description": "Seat that resigned"})
    aborted_by = fields.Integer(allow_none=True, metadata={"description": "Seat that aborted"})
    timed_out_by = fields.Integer(allow_none=True, metadata={
        "description": "Seat whose clock forfeited the match (result_reason timeout)"})
    carried = fields.Integer(metadata={
        "description": "four_hand_scoring hoyle only: game points the winners of the next "
                       "hand with winners get on top, one per hand tied 65:65 before it"})


class EventSchema(Schema):
    seq = fields.Integer(metadata={"description": "Position in the game's event log, from 1"})
    type = fields.String(metadata={"example": "card_played", "description": (
        "dealer_chosen, hand_dealt, cards_dealt, card_played, trick_won, card_drawn, meld, "
        "meld_credited, exchange, close, talon_exhausted, declare, hand_settled, match_won, "
        "set_won, continue, resigned or aborted; or chat (a seat's message: seat, name, "
        "text, at; see POST /v1/games/{game_id}/chat); further members depend on the type")})

    class Meta:
        unknown = INCLUDE  # documents the type-specific members as additional properties


class ClockSchema(Schema):
    think_time_s = fields.Integer()
    on_timeout = fields.String(validate=validate.OneOf(("computer", "forfeit")))
    timeout_level = fields.String()
    deadline = fields.String(allow_none=True, metadata={
        "description": "When the time of the human to act (or of the humans still reading a "
                       "settlement) runs out, UTC ISO 8601; null when no human is to act",
        "example": "2026-12-01T10:00:30.000Z"})
    remaining_ms = fields.Integer(allow_none=True, metadata={
        "description": "Milliseconds left until deadline at the answer; null with it"})
    for_ = fields.String(data_key="for", allow_none=True, validate=validate.OneOf(
        ("move", "settlement")), metadata={"description": "What the deadline is for"})
    seat = fields.Integer(allow_none=True, metadata={"description": "The seat to move"})
    expiries = fields.List(fields.Integer(), metadata={
        "description": "Per seat, its expiries in a row without a move of its own (3 "
                       "forfeit the match)"})
    can_pause = fields.Boolean(metadata={
        "description": "This seat may post {\"type\": \"pause\"} now"})


class GameViewSchema(Schema):
    game_id = fields.String()
    version = fields.Integer(metadata={"description": "Also the ETag"})
    rated = fields.Boolean(metadata={"description": "Counts for the leaderboard and ratings"})
    unrated_reason = fields.String(allow_none=True, metadata={
        "description": "Why the game does not count (no player account, a given deck, an "
                       "unrated table, a pair of players at its bound of rated matches); "
                       "null when it does"})
    seats = fields.List(fields.Nested(ViewSeatSchema))
    hinted_hands = fields.List(fields.Dict(), metadata={
        "description": "{seat, hand_no, match_no} of every hand a seat asked for a hint in "
                       "(it does not count for the leaderboard)"})
    seat = fields.Integer(allow_none=True, metadata={"description": "Null for a spectator"})
    game = fields.String(metadata={
        "description": "The game the variant is of (GET /v1/rules lists each variant's)",
        "example": "sixty-six"})
    variant = fields.String()
    rules = fields.Dict(keys=fields.String(), values=fields.Raw())
    settings = fields.Dict(keys=fields.String(), values=fields.Raw(), metadata={
        "description": "point_counter, hint_66, auto_continue, think_time_s (null: no clock) "
                       "and with a clock on_timeout, timeout_level"})
    status = fields.String(validate=validate.OneOf(("playing", "hand_over", "match_over",
                                                    "aborted")))
    hand_no = fields.Integer()
    dealer = fields.Integer()
    forehand = fields.Integer()
    sitting_out = fields.Integer(allow_none=True)
    to_act = fields.Integer(allow_none=True)
    hand = fields.List(fields.String(), allow_none=True, metadata={
        "description": "The seat's cards; null for a spectator"})
    hand_sizes = fields.List(fields.Integer())
    trump_suit = fields.String(allow_none=True, metadata={
        **_SUIT, "description": _SUIT["description"] + "; null in Tausendeins before a "
                                                       "marriage sets trump"})
    trump_card = fields.String(allow_none=True, metadata={
        "description": "The face-up trump card under the talon; null when closed or gone"})
    turned_card = fields.String()
    talon_size = fields.Integer()
    closed_by = fields.Integer(allow_none=True)
    closed_after_tricks = fields.Integer(allow_none=True)
    phase = fields.Integer()
    leader = fields.Integer()
    trick = fields.List(fields.Nested(TrickCardSchema))
    last_trick = fields.Nested(TrickSchema, allow_none=True)
    tricks = fields.List(_one_of_components("Trick", "TausendeinsTrick"), metadata={
        "description": "The taken tricks of the hand: Trick, or in Tausendeins TausendeinsTrick"})
    tricks_won = fields.List(fields.Dict())
    known_cards = fields.Dict(keys=fields.String(), values=fields.List(fields.String()),
                              metadata={"description": "Other seats' cards shown face up, by seat"})
    melds = fields.List(fields.Dict())
    points = fields.List(fields.Dict(), metadata={"description": "With the point counter on"})
    can_declare_66 = fields.Boolean(metadata={"description": "With hint_66 on"})
    legal_actions = fields.List(fields.Nested(ActionOutSchema), metadata={
        "description": "The moves the seat may make now; resign and abort are never listed"})
    can_resign = fields.Boolean(metadata={
        "description": "The seat may post {\"type\": \"resign\"} now: always, from a human "
                       "seat, until the game is over"})
    can_abort = fields.Boolean(metadata={
        "description": "The seat may post {\"type\": \"abort\"} now: while another human "
                       "seat has not made its first move"})
    computers_unavailable = fields.Boolean(metadata={
        "description": "A computer seat is to move and no worker process of the computers "
                       "runs: its move waits until one runs again (/readyz names the missing "
                       "part); false otherwise"})
    match = fields.Nested(MatchSchema, metadata={"description": "The Sixty-Six family's"})
    stage = fields.String(validate=validate.OneOf(("auction", "musik", "play")), metadata={
        "description": "Tausendeins: the deal's stage (the auction, the declarer's musik, "
                       "the tricks)"})
    stock_size = fields.Integer(metadata={"description": "Tausendeins: cards in the stock"})
    tricks_total = fields.Integer(metadata={"description": "Tausendeins: tricks in the deal"})
    melded_suit = fields.String(allow_none=True, metadata={
        "description": "Tausendeins: the suit just melded, whose King or Queen the leader "
                       "now leads"})
    pending_marriages = fields.List(fields.Dict(), metadata={
        "description": "Tausendeins: marriages announced by a seat that has won no trick "
                       "yet (credited at its first trick, or forfeited)"})
    auction = fields.Dict(allow_none=True, metadata={
        "description": "Tausendeins with bidding contract: calls ({seat, bid}, bid null for "
                       "a pass), contract, declarer, raised"})
    musik = fields.Dict(allow_none=True, metadata={
        "description": "Tausendeins with contract_deal musik: musiks, taken (1 or 2), its "
                       "cards once shown, discarded, own_discards (the declarer's only)"})
    totals = fields.List(fields.Integer(), metadata={
        "description": "Tausendeins: each seat's total over the deals"})
    target = fields.Integer(metadata={"description": "Tausendeins: the total that wins"})
    needed = fields.List(fields.Integer(), metadata={
        "description": "Tausendeins: what each seat still needs to reach the target"})
    winner = fields.Integer(allow_none=True, metadata={
        "description": "Tausendeins: the seat that won the game"})
    ended = fields.List(fields.Raw(), allow_none=True, metadata={
        "description": "Tausendeins: [resigned or aborted, seat] when an action ended it"})
    settlement = fields.Dict(allow_none=True, metadata={
        "description": "The finished hand's settlement with its working; null during a hand"})
    clock = fields.Nested(ClockSchema, allow_none=True, metadata={
        "description": "The game's clock; null at a table without think_time_s"})
    events = fields.List(fields.Nested(EventSchema), metadata={
        "description": "This seat's events of the last change (see /events for all)"})


class EventPageSchema(Schema):
    events = fields.List(fields.Nested(EventSchema))
    next_after = QueryInteger(metadata={"description": "Pass as after for the next page"})
    last_seq = fields.Integer(metadata={"description": "seq of the newest event of the game"})


_THINK_MEDIAN: Final = {"description": "Think-time budget: median CPU ms per move it stays "
                                        "within", "example": 500}
_THINK_P99: Final = {"description": "Think-time budget: 99th percentile of CPU ms per move",
                     "example": 1500}
_WORK: Final = {"description": "Work budget per move, in work units (about a microsecond of "
                               "CPU each on the pure-Python engine): a move spends at most "
                               "this, so a loaded server plays the same moves; 0: none (the "
                               "cap is the budget)", "example": 900000}
_CAP: Final = {"description": "CPU ms per move at which a move stops, whatever work is left",
               "example": 1400}


class LevelSchema(Schema):
    name = fields.String(metadata={"example": "random"})
    description = fields.String()
    think_median_ms = fields.Integer(metadata=_THINK_MEDIAN)
    think_p99_ms = fields.Integer(metadata=_THINK_P99)


class VariantLevelSchema(Schema):
    name = fields.String(metadata={"example": "strong"})
    plays_as = fields.String(metadata={
        "description": "The level whose search decides in this variant: the level itself, or "
                       "its fallback where the level's exact search does not fit (no offered "
                       "level has one now)",
        "example": "strong"})
    exact_search = fields.Boolean(metadata={
        "description": "Whether sampled deals are searched exactly (endgame solver, talon "
                       "search) in this variant"})
    think_median_ms = fields.Integer(metadata=_THINK_MEDIAN)
    think_p99_ms = fields.Integer(metadata=_THINK_P99)
    work_units = fields.Integer(metadata=_WORK)
    cap_ms = fields.Integer(metadata=_CAP)
    description = fields.String(metadata={
        "description": "Tausendeins only, whose levels (engine.tausendeins.ai) spend a fixed "
                       "number of playouts a move and have no think-time budget, work budget "
                       "or cap (so neither these members nor think_median_ms, think_p99_ms)"})


class LeaderboardRulesSchema(Schema):
    placement_bonus = fields.List(fields.Integer(), metadata={
        "description": "Points of first, second and third place at a match's end",
        "example": [30, 15, 5]})
    leave_penalty = fields.Integer(metadata={
        "description": "Points a player loses for leaving a match against other players",
        "example": 10})
    min_settled_hands = fields.Integer(metadata={
        "description": "Hands of a match settled before a resignation places the others (else "
                       "nobody is placed or rated)",
        "example": 1})
    rated_pair_limit = fields.Integer(metadata={
        "description": "Rated matches two player accounts may start together within "
                       "rated_pair_window_s (more play unrated, saying why)", "example": 10})
    rated_pair_window_s = fields.Integer(metadata={"example": 86400})


class RulesSchema(Schema):
    variants = fields.List(fields.Dict())
    options = fields.List(fields.Dict())
    settings = fields.List(fields.Dict())
    computer_levels = fields.List(fields.Nested(LevelSchema))
    leaderboard = fields.Nested(LeaderboardRulesSchema)
    computer_levels_by_variant = fields.Dict(
        keys=fields.String(), values=fields.List(fields.Nested(VariantLevelSchema)),
        metadata={"description": "Per variant with its own pack (deck 24; Schnapsen 20 "
                                 "cards), every computer level as it plays there"})
    computer_levels_by_deck = fields.Dict(
        keys=fields.String(), values=fields.Dict(
            keys=fields.String(), values=fields.List(fields.Nested(VariantLevelSchema))),
        metadata={"description": "Per variant, then per value of its rule option deck "
                                 "(\"24\", \"32\"), every computer level as it plays there: "
                                 "with 32 cards no exact search fits, so a level with a "
                                 "fallback plays as it"})


class ArchiveHealthSchema(Schema):
    status = fields.String(metadata={"example": "ok", "description": (
        "ok; unavailable: its database cannot be reached (finished games wait in Redis, reads "
        "of archived games answer 503); backlog: more finished games wait than "
        "SIXTYSIX_ARCHIVE_PENDING_WARN")})
    pending = fields.Integer(metadata={"example": 0, "description": (
        "finished games waiting for the archive")})
    oldest_pending_seconds = fields.Float(metadata={"example": 0.0, "description": (
        "seconds the oldest of them has waited")})


class HealthSchema(Schema):
    status = fields.String(metadata={"example": "ok", "description": (
        "ok, or (readiness) degraded: a part of the worker tier is missing, or the archive is "
        "not ok")})
    missing = fields.List(fields.String(), metadata={"example": [], "description": (
        "readiness only: the parts of the worker tier with no process running (workers, "
        "scheduler); the web tier serves meanwhile")})
    archive = fields.Nested(ArchiveHealthSchema, metadata={"description": (
        "readiness only, with an archive (DATABASE_URL): its state; live play goes on "
        "whatever it says")})


class ProblemSchema(Schema):
    type = fields.String(metadata={
        "description": "https://sixtysix.dev/problems/<slug>: stable, one per kind of error",
        "example": "https://sixtysix.dev/problems/bad-request"})
    title = fields.String()
    status = fields.Integer()
    detail = fields.String()
    instance = fields.String()
    request_id = fields.String(metadata={"description": "As in the X-Request-Id header"})
    limit = fields.String(metadata={"description": "429: the rate limit that was hit",
                                    "example": "10 per 1 second per token"})
    errors = fields.Dict(keys=fields.String(), values=fields.List(fields.String()),
                         metadata={"description": "400/422: field → messages"})
    reason = fields.String(metadata={"description": "409 illegal-action: why"})
    legal_actions = fields.List(fields.Nested(ActionOutSchema), metadata={
        "description": "409 illegal-action: what is allowed now"})
    current_version = fields.Integer(metadata={"description": "409/412: the game's version"})
    allowed = fields.List(fields.Raw(), metadata={
        "description": "422: the values the field accepts"})
    game_id = fields.String(metadata={"description": "404: the game that was not found"})
    max_messages = fields.Integer(metadata={
        "description": "409 chat-full: the most chat messages a game holds"})
    max_games = fields.Integer(metadata={
        "description": "403 too-many-games: the most active games an address may have"})
    player_id = fields.String(metadata={"description": "404: the player that was not found"})
    table_id = fields.String(metadata={"description": "404: the table that was not found"})
    station = fields.String(metadata={
        "description": "404/409: the tour station that was not found or is not open"})
    queue_limit = fields.Integer(metadata={
        "description": "503 advice-queue-full: the most hints and analyses that wait for a "
                       "worker (SIXTYSIX_ADVICE_QUEUE)"})
    max_open_tables = fields.Integer(metadata={
        "description": "409 too-many-open-tables: the most open tables a player may have"})
    open_tables = fields.List(fields.String(), metadata={
        "description": "409 too-many-open-tables: the player's open tables"})
    version = fields.Integer(metadata={
        "description": "503 saved-view-unavailable: the table's version after the saved change"})

"""A small typed client of the Sixty-Six HTTP API (used by the CLI, the tests and bots).

>>> client = SixtySixClient("http://127.0.0.1:8066")
>>> game = client.create_game(seats=[{"kind": "human", "name": "Ann"},
...                                  {"kind": "computer", "level": "random"}])
>>> me = client.with_token(game["seats"][0]["token"])
>>> view = me.view(game["game_id"])
>>> view = me.act(game["game_id"], view["legal_actions"][0])   # or me.act(game_id, "play:QH")

Every error answer (``application/problem+json``) raises :class:`ApiError`.

Retries: a request answered 429 or 503 is sent again after the answer's ``Retry-After``
seconds (at most :data:`MAX_SLEEP`; :data:`DEFAULT_SLEEP` without one), :data:`TRIES` times in
all, then its :class:`ApiError` is raised (``tries`` says how many were made). Every action and
chat message is sent with an ``Idempotency-Key`` (a fresh random one unless given) that its
retries reuse, so a repeated one is answered from the first and never applied twice. That makes
an ``outcome-unknown`` 503 (the server lost touch with its store while saving: the action may
have been applied) safe to repeat as well; a create has no key unless given one, so there it is
raised at once: look for the game before creating another. A 503 ``store-unavailable`` means
nothing was applied, so every request repeats it. A table change (no key) of unknown outcome,
and one saved whose answer could not be read (``saved-view-unavailable``), are raised at once
(:attr:`ApiError.unsettled`): reload the table.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from typing import Any, Final, NotRequired, Self, TypedDict, cast

import requests

from engine.actions import Action
from engine.errors import InvalidAction
from engine.numerals import parse_natural
from engine.tausendeins.actions import T1001Action

#: Seconds to wait for a connection; a read waits the long-poll time plus this margin.
CONNECT_TIMEOUT = 5.0
READ_MARGIN = 15.0
#: Tries of a request answered 429 or 503 (the first one included).
TRIES: Final = 5
#: Longest sleep before a retry, seconds, whatever ``Retry-After`` says.
MAX_SLEEP: Final = 10.0
#: Sleep before a retry when the answer has no ``Retry-After``, seconds.
DEFAULT_SLEEP: Final = 1.0
PROBLEMS: Final = "https://sixtysix.dev/problems/"
#: The server may have applied the write it could not confirm.
OUTCOME_UNKNOWN: Final = PROBLEMS + "outcome-unknown"
#: The server saved the write (a table change) but could not read its answer.
SAVED_VIEW_UNAVAILABLE: Final = PROBLEMS + "saved-view-unavailable"
#: The problems of a write that may stand: the caller reloads, never repeats it blindly.
UNSETTLED: Final = (OUTCOME_UNKNOWN, SAVED_VIEW_UNAVAILABLE)
IDEMPOTENCY_KEY: Final = "Idempotency-Key"

View = dict[str, Any]
"""A seat's (or the spectator's) view of a game: see ``GET /v1/games/{game_id}``."""


class ActionDict(TypedDict):
    """An action body: ``{"type": "play", "card": "QH"}``, ``{"type": "meld", "suit": "H"}``,
    ``{"type": "close"}``; Tausendeins also ``{"type": "bid", "points": 110}`` (and raise),
    ``{"type": "take_musik", "musik": 2}``, ``{"type": "discard", "cards": ["9H", "JS"]}``.
    """

    type: str
    card: NotRequired[str]
    suit: NotRequired[str]
    points: NotRequired[int]
    musik: NotRequired[int]
    cards: NotRequired[list[str]]


class SeatSpec(TypedDict):
    """A seat of a new game: ``{"kind": "human", "name": ...}`` or ``{"kind": "computer", ...}``."""

    kind: str
    name: NotRequired[str]
    level: NotRequired[str]


class CreatedSeat(TypedDict):
    seat: int
    kind: str
    name: str
    token: NotRequired[str | None]


class CreatedGame(TypedDict):
    """The 201 answer of ``POST /v1/games``: tokens are shown only here."""

    game_id: str
    version: int
    seats: list[CreatedSeat]


class EventPage(TypedDict):
    """A page of events: each has ``seq`` and ``type``; page on with ``after=next_after``."""

    events: list[dict[str, Any]]
    next_after: int
    last_seq: int


class ChatMessage(TypedDict):
    """The 201 answer of ``POST /v1/games/{id}/chat``: the message as logged."""

    seq: int
    seat: int
    name: str
    text: str
    at: str


class CreatedPlayer(TypedDict):
    """The 201 answer of ``POST /v1/players``: the token is shown only here."""

    player_id: str
    name: str
    kind: str
    token: str


class Profile(TypedDict):
    player_id: str
    name: str
    kind: str
    created_at: str
    stats: dict[str, dict[str, int]]


class GamePage(TypedDict):
    """A page of ``GET /v1/players/me/games``; page on with ``cursor=next_cursor``."""

    games: list[dict[str, Any]]
    next_cursor: str | None


class TableSeatSpec(TypedDict):
    """A seat of a new table: ``{"kind": "open" | "player" | "computer", "level"?: ...}``."""

    kind: str
    level: NotRequired[str]


class YourSeat(TypedDict):
    seat: int
    game_id: str | None
    token: str | None


class TableView(TypedDict):
    """``GET /v1/tables/{id}``: ``you`` is set for a seated player (with his seat token)."""

    table_id: str
    version: int
    variant: str
    status: str
    visibility: str
    seats: list[dict[str, Any]]
    game_id: str | None
    games: list[str]
    rematch: list[int]
    spectators: int
    you: YourSeat | None
    invite_code: str | None


class TablePage(TypedDict):
    tables: list[dict[str, Any]]
    next_cursor: str | None


def _params(**values: Any) -> dict[str, Any]:
    """The given values without the ``None`` ones."""
    return {k: v for k, v in values.items() if v is not None}


class ApiError(Exception):
    """An error answer of the API, carrying its RFC 9457 problem fields.

    ``legal_actions`` is set on 409 (illegal action); ``retry_after`` (seconds) on 429 and
    503; ``tries`` is how many times the request was sent.
    """

    def __init__(
        self,
        status: int,
        title: str,
        detail: str,
        type: str = "about:blank",
        legal_actions: list[ActionDict] | None = None,
        retry_after: float | None = None,
        body: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{status} {title}: {detail}")
        self.status = status
        self.title = title
        self.detail = detail
        self.type = type
        self.legal_actions = legal_actions
        self.retry_after = retry_after
        self.body: Mapping[str, Any] = body or {}
        self.tries = 1

    def retryable(self, keyed: bool) -> bool:
        """Whether sending the request again is safe and may succeed; ``keyed``: it carries an
        ``Idempotency-Key``."""
        if self.status == 503:
            return self.type != SAVED_VIEW_UNAVAILABLE and (keyed or self.type != OUTCOME_UNKNOWN)
        return self.status == 429

    @property
    def unsettled(self) -> bool:
        """Whether the write may stand (``outcome-unknown``, ``saved-view-unavailable``):
        reload what it changed to find out."""
        return self.type in UNSETTLED

    def gave_up(self) -> ApiError:
        """This error as the last of :attr:`tries` sends, saying so in its message."""
        self.args = (f"{self.args[0]} (gave up after {self.tries} tries)",)
        return self

    @classmethod
    def from_response(cls, response: requests.Response) -> ApiError:
        """Read the problem document of an error answer (any body is tolerated)."""
        try:
            body = response.json()
        except ValueError:
            body = None
        if not isinstance(body, dict):
            body = {"detail": response.text[:500]}
        retry = parse_natural(response.headers.get("Retry-After", "").strip())
        return cls(
            status=response.status_code,
            title=str(body.get("title") or response.reason or "error"),
            detail=str(body.get("detail") or ""),
            type=str(body.get("type") or "about:blank"),
            legal_actions=body.get("legal_actions"),
            retry_after=None if retry is None else float(retry),
            body=body,
        )


def action_dict(action: Mapping[str, Any] | str) -> ActionDict:
    """An action as the API's JSON body; text such as ``play:QH`` or ``close`` is parsed, and
    text of a Tausendeins action (``bid:110``, ``take_musik:2``, ``discard:9H,JS``).

    Raises ``engine.InvalidAction`` for text that is not an action of either game.
    """
    if isinstance(action, str):
        try:
            return cast(ActionDict, Action.from_text(action).as_dict())
        except InvalidAction:
            return cast(ActionDict, T1001Action.from_text(action).as_dict())
    return cast(ActionDict, dict(action))


def action_text(action: Mapping[str, Any]) -> str:
    """``{"type": "play", "card": "QH"}`` → ``play:QH``; ``{"type": "close"}`` → ``close``;
    ``{"type": "bid", "points": 110}`` → ``bid:110``; ``{"type": "discard", "cards": ["9H",
    "JS"]}`` → ``discard:9H,JS``."""
    arg = action.get("card") or action.get("suit") or action.get("points") \
        or action.get("musik") or ",".join(action.get("cards") or ())
    return f"{action['type']}:{arg}" if arg else str(action["type"])


class SixtySixClient:
    """HTTP client bound to a server and optionally a seat token (``Authorization: Bearer``)."""

    def __init__(
        self,
        base_url: str,
        token: str | None = None,
        session: requests.Session | None = None,
        *,
        tries: int = TRIES,
        max_sleep: float = MAX_SLEEP,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        self.base_url = base_url.rstrip("/")
        self.token = token
        self.session = session or requests.Session()
        self.tries = max(1, tries)
        self.max_sleep = max_sleep
        self.sleep = sleep

    def with_token(self, token: str | None) -> SixtySixClient:
        """A client for another seat sharing this one's connection pool and retry settings."""
        return SixtySixClient(self.base_url, token, self.session, tries=self.tries,
                              max_sleep=self.max_sleep, sleep=self.sleep)

    def close(self) -> None:
        self.session.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # ----------------------------------------------------------------------- endpoints

    def create_game(
        self,
        variant: str = "sixty-six",
        seats: Sequence[SeatSpec] | None = None,
        *,
        rules: Mapping[str, Any] | None = None,
        match_points: int | None = None,
        set_bummerl: int | None = None,
        settings: Mapping[str, Any] | None = None,
        deck: Sequence[Any] | None = None,
        first_dealer: int | None = None,
        idempotency_key: str | None = None,
    ) -> CreatedGame:
        """``POST /v1/games``; omitted fields take the server's defaults."""
        body: dict[str, Any] = {"variant": variant}
        optional = {
            "seats": list(seats) if seats is not None else None,
            "rules": dict(rules) if rules is not None else None,
            "match_points": match_points,
            "set_bummerl": set_bummerl,
            "settings": dict(settings) if settings is not None else None,
            "deck": list(deck) if deck is not None else None,
            "first_dealer": first_dealer,
        }
        body.update({k: v for k, v in optional.items() if v is not None})
        headers = {IDEMPOTENCY_KEY: idempotency_key} if idempotency_key else {}
        return cast(CreatedGame, self._request("POST", "/v1/games", json=body, headers=headers))

    def view(
        self, game_id: str, after_version: int | None = None, wait: float | None = None
    ) -> View:
        """``GET /v1/games/{id}``: this seat's view; with ``after_version`` and ``wait``
        (seconds, at most 30) a long-poll that answers once the version exceeds ``after_version``.
        """
        params: dict[str, Any] = {}
        if after_version is not None:
            params["after_version"] = after_version
        if wait is not None:
            params["wait"] = wait
        return cast(View, self._request("GET", f"/v1/games/{game_id}", params=params, wait=wait))

    def act(
        self,
        game_id: str,
        action: Mapping[str, Any] | str,
        if_match: int | None = None,
        idempotency_key: str | None = None,
    ) -> View:
        """``POST /v1/games/{id}/actions``: apply ``action`` (dict or text like ``play:QH``);
        the computer seats answer in the same request. Returns this seat's new view.

        Sent with ``idempotency_key`` or else a fresh random key, reused by the retries.
        """
        headers = {IDEMPOTENCY_KEY: idempotency_key or secrets.token_urlsafe(16)}
        if if_match is not None:
            headers["If-Match"] = f'"{if_match}"'
        return cast(View, self._request(
            "POST", f"/v1/games/{game_id}/actions", json=action_dict(action), headers=headers))

    def hint(self, game_id: str, budget_ms: int | None = None) -> dict[str, Any]:
        """``POST /v1/games/{id}/hint``: the strong computer's advice to this seat (``best``,
        ranked ``actions``, ``reason``); the hand is then marked as hinted.
        """
        params = {"budget_ms": budget_ms} if budget_ms is not None else None
        return cast(dict[str, Any], self._request(
            "POST", f"/v1/games/{game_id}/hint", params=params))

    def chat(self, game_id: str, text: str, idempotency_key: str | None = None) -> ChatMessage:
        """``POST /v1/games/{id}/chat``: send ``text`` (one line, at most 200 characters) to
        the table as this seat; every seat and spectator reads it as a ``chat`` event.

        Sent with ``idempotency_key`` or else a fresh random key, reused by the retries (429
        and 503 as for any request), so a retried message is logged once.
        """
        headers = {IDEMPOTENCY_KEY: idempotency_key or secrets.token_urlsafe(16)}
        return cast(ChatMessage, self._request("POST", f"/v1/games/{game_id}/chat",
                                               json={"text": text}, headers=headers))

    def events(self, game_id: str, after: int = 0, limit: int | None = None) -> EventPage:
        """``GET /v1/games/{id}/events``: one page of this seat's events with ``seq > after``."""
        params: dict[str, Any] = {"after": after}
        if limit is not None:
            params["limit"] = limit
        return cast(EventPage, self._request(
            "GET", f"/v1/games/{game_id}/events", params=params))

    def all_events(self, game_id: str, after: int = 0) -> list[dict[str, Any]]:
        """Every event with ``seq > after``, following the pages to the last one."""
        out: list[dict[str, Any]] = []
        while True:
            page = self.events(game_id, after)
            out += page["events"]
            if not page["events"] or page["next_after"] >= page["last_seq"]:
                return out
            after = page["next_after"]

    # ----------------------------------------------------------------------- the lobby
    # A client bound to a player token (``with_token(created["token"])``) speaks for the
    # player; a seat token for a game comes from ``table(...)["you"]["token"]``.

    def create_player(self, name: str, kind: str = "human") -> CreatedPlayer:
        """``POST /v1/players``: a new player; its ``token`` is shown only here."""
        return cast(CreatedPlayer, self._request("POST", "/v1/players",
                                                 json={"name": name, "kind": kind}))

    def me(self) -> Profile:
        """``GET /v1/players/me`` (player token): name, kind, matches played and won."""
        return cast(Profile, self._request("GET", "/v1/players/me"))

    def player(self, player_id: str) -> Profile:
        """``GET /v1/players/{id}``: a player's public profile."""
        return cast(Profile, self._request("GET", f"/v1/players/{player_id}"))

    def my_games(self, status: str = "active", cursor: str | None = None,
                 limit: int | None = None) -> GamePage:
        """``GET /v1/players/me/games`` (player token): one page, newest first."""
        return cast(GamePage, self._request("GET", "/v1/players/me/games", params=_params(
            status=status, cursor=cursor, limit=limit)))

    def create_table(
        self,
        seats: Sequence[TableSeatSpec],
        variant: str = "sixty-six",
        *,
        visibility: str = "public",
        rules: Mapping[str, Any] | None = None,
        match_points: int | None = None,
        settings: Mapping[str, Any] | None = None,
    ) -> TableView:
        """``POST /v1/tables`` (player token): ``seats`` of kinds open, computer, player."""
        body: dict[str, Any] = {"variant": variant, "seats": list(seats),
                                "visibility": visibility}
        optional = {"rules": dict(rules) if rules is not None else None,
                    "match_points": match_points,
                    "settings": dict(settings) if settings is not None else None}
        body.update({k: v for k, v in optional.items() if v is not None})
        return cast(TableView, self._request("POST", "/v1/tables", json=body))

    def tables(self, variant: str | None = None, status: str = "open",
               cursor: str | None = None, limit: int | None = None) -> TablePage:
        """``GET /v1/tables``: one page of public tables, newest first."""
        return cast(TablePage, self._request("GET", "/v1/tables", params=_params(
            variant=variant, status=status, cursor=cursor, limit=limit)))

    def table(self, table_id: str, invite_code: str | None = None) -> TableView:
        """``GET /v1/tables/{id}``: with a player token, ``you`` holds the seat token."""
        return cast(TableView, self._request("GET", f"/v1/tables/{table_id}",
                                             params=_params(invite_code=invite_code)))

    def join_table(self, table_id: str, seat: int | None = None,
                   invite_code: str | None = None) -> TableView:
        """``POST /v1/tables/{id}/join`` (player token): take ``seat`` or the first open."""
        return cast(TableView, self._request("POST", f"/v1/tables/{table_id}/join",
                                             json=_params(seat=seat, invite_code=invite_code)))

    def leave_table(self, table_id: str) -> TableView:
        """``POST /v1/tables/{id}/leave`` (player token): free the seat before the start."""
        return cast(TableView, self._request("POST", f"/v1/tables/{table_id}/leave"))

    def watch(self, game_id: str, invite_code: str | None = None) -> View:
        """``GET /v1/games/{id}`` as a spectator (send no token): a private table's game
        needs its invite code."""
        return cast(View, self.with_token(None)._request(
            "GET", f"/v1/games/{game_id}", params=_params(invite_code=invite_code)))

    def rematch(self, table_id: str) -> TableView:
        """``POST /v1/tables/{id}/rematch`` (player token): ask for the next match."""
        return cast(TableView, self._request("POST", f"/v1/tables/{table_id}/rematch"))

    def leaderboard(self, period: str = "all", variant: str | None = None,
                    kind: str = "human", cursor: str | None = None,
                    limit: int | None = None) -> dict[str, Any]:
        """``GET /v1/leaderboard``: one page of a board, best first."""
        return cast(dict[str, Any], self._request("GET", "/v1/leaderboard", params=_params(
            period=period, variant=variant, kind=kind, cursor=cursor, limit=limit)))

    def ratings(self, variant: str = "sixty-six", kind: str = "human",
                cursor: str | None = None, limit: int | None = None) -> dict[str, Any]:
        """``GET /v1/ratings``: one page of a variant's ratings of ``kind``."""
        return cast(dict[str, Any], self._request("GET", "/v1/ratings", params=_params(
            variant=variant, kind=kind, cursor=cursor, limit=limit)))

    def player_games(self, player_id: str, cursor: str | None = None,
                     limit: int | None = None) -> dict[str, Any]:
        """``GET /v1/players/{id}/games``: one page of finished matches, newest first."""
        return cast(dict[str, Any], self._request(
            "GET", f"/v1/players/{player_id}/games", params=_params(cursor=cursor,
                                                                     limit=limit)))

    def tour(self) -> dict[str, Any]:
        """``GET /v1/tour`` (player token): the stations, stamps and which are open."""
        return cast(dict[str, Any], self._request("GET", "/v1/tour"))

    def start_tour(self, station: str) -> dict[str, Any]:
        """``POST /v1/tour/{station}/start`` (player token): the game id and seat token."""
        return cast(dict[str, Any], self._request("POST", f"/v1/tour/{station}/start"))

    def rules(self) -> dict[str, Any]:
        """``GET /v1/rules``: variants, options with defaults and allowed values, levels."""
        return cast(dict[str, Any], self._request("GET", "/v1/rules"))

    def health(self) -> dict[str, Any]:
        """``GET /healthz``: the process is up."""
        return cast(dict[str, Any], self._request("GET", "/healthz"))

    # ----------------------------------------------------------------------- transport

    def _request(
        self,
        method: str,
        path: str,
        *,
        json: Any = None,
        params: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
        wait: float | None = None,
    ) -> Any:
        all_headers = {"Accept": "application/json", **(headers or {})}
        if self.token:
            all_headers["Authorization"] = f"Bearer {self.token}"
        for sent in range(1, self.tries + 1):
            response = self.session.request(
                method,
                self.base_url + path,
                json=json,
                params=params,
                headers=all_headers,
                timeout=(CONNECT_TIMEOUT, (wait or 0) + READ_MARGIN),
            )
            if response.ok:
                return response.json()
            error = ApiError.from_response(response)
            error.tries = sent
            if not error.retryable(IDEMPOTENCY_KEY in all_headers):
                raise error
            if sent == self.tries:
                raise error.gave_up()
            self.sleep(min(error.retry_after or DEFAULT_SLEEP, self.max_sleep))
        raise AssertionError("unreachable")  # pragma: no cover

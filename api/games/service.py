"""Games as the HTTP API sees them: creating, acting, the computers' moves, per-seat views.

One service function, two entrypoints: :func:`act` applies a seat's action and saves it with
the version check, for a human's request in the web tier and for a computer's choice in a
worker (:func:`play_computer`, run only by :mod:`api.worker.jobs`; the web tier never runs a
search). After each action the trivial automatic steps follow in the same save: with
``auto_continue``, finished hands are acknowledged for human seats. A saved game may then wait
for a computer (:func:`computer_to_move`): the caller enqueues its move job
(:func:`request_computers`), and a worker plays it, saves, and goes on until a human must act.

At a table with a clock (:mod:`api.live.clock`) every save also sets the next deadline in the
game's meta; :func:`expire` applies a deadline that has passed (the clock's job at the
deadline and every request touching the game after it call it), and :func:`pause` holds a
settlement open longer.

``resign`` is accepted from a human seat at any time until the game is over (computers never
resign: they choose among ``legal_actions``, which never lists it). ``abort`` is accepted from
a human seat while another *human* seat has not yet made its first move of the game (any
action but ``continue``); so it needs two human seats, and once every other human has moved
only ``resign`` is left. :func:`abort_refusal` says why an abort is refused.
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any, Final, Protocol

from api.errors import FieldError
from api.games import rated
from api.games.computers import computer_level
from api.games.meta import ExtraMeta, GameMeta
from api.games.spec import GameSpec, check_spec, seats_of
from api.games.store import Game, GameStore, IdempotentWrite
from api.games.think import FULL, Think
from api.games.think_time import computer_thinking
from api.games.tokens import digest, new_token
from api.keys import owner_key
from api.live import clock
from api.live.presence import Seen
from engine import Event, IllegalAction, InvalidAction, InvalidCard, InvalidDeck, InvalidOption
from engine.actions import ABORT, CONTINUE
from engine.hosted import (
    HostedAction,
    HostedState,
    action_of,
    apply,
    capabilities_of,
    illegal_reason,
    is_over,
    kind_of,
    legal_actions,
    may_abort,
    new_game,
    only_continue,
    view,
)
from engine.hosted import parse_action as parse_hosted_action

#: Game ids are ``secrets.token_urlsafe(12)``, or ``<table_id>.<n>`` for a table's n-th game;
#: anything else in a URL is an unknown game.
GAME_ID: Final = re.compile(r"[A-Za-z0-9_-]{1,64}(\.[0-9]{1,6})?")
#: What follows every save of a game (the composition root's pipeline,
#: :class:`api.composition.Pipeline`: standings, a table's result).
AfterSave = Callable[[Game], None]


class SeatedPlayer(Protocol):
    """What a create request's player (:class:`api.players.store.Player`) lends a game."""

    @property
    def player_id(self) -> str: ...

    @property
    def name(self) -> str: ...


@dataclass(slots=True)
class NewGame:
    """A dealt game, not saved yet (its computers' opening moves are a worker's job)."""

    state: HostedState
    meta: GameMeta
    events: list[Event]
    tokens: list[str | None]


def prepare_game(spec: GameSpec, extra_meta: ExtraMeta | None = None,
                 *, seat_tokens: bool = True) -> NewGame:
    """Check ``spec`` (:func:`~api.games.spec.check_spec`) and deal (nothing saved; no
    computer moves here).

    ``extra_meta`` is kept in the game's meta beside the seats (a table's game keeps its
    ``table`` there). Each human seat gets a new token (``None`` for computer seats); without
    ``seat_tokens`` none does (a table's game: each player's is minted when he first fetches
    it, see :mod:`api.tables.seat_tokens`).
    """
    checked = check_spec(spec)
    deck = spec.deck
    try:
        state, events = new_game(spec.variant, checked.rules, checked.settings,
                                 first_dealer=spec.first_dealer,
                                 decks=None if deck is None else [list(deck)])
    except InvalidOption as exc:
        raise FieldError(exc.option, str(exc), exc.allowed) from None
    except (InvalidDeck, InvalidCard) as exc:
        raise FieldError("deck", str(exc)) from None
    seats = checked.seats
    unrated = rated.DECK if deck is not None else capabilities_of(spec.variant).unrated
    tokens = [new_token() if s["kind"] == "human" and seat_tokens else None for s in seats]
    meta: GameMeta = {
        "seats": [{"kind": s["kind"], "name": s["name"], "level": s["level"],
                   "token_sha256": digest(t) if t else None}
                  for s, t in zip(seats, tokens, strict=True)],
        "auto_continue": spec.settings.auto_continue,
        "clock": checked.clock,
        "rated": True,
        "unrated_reason": None,
        "created_at": int(time.time()),
        **(extra_meta or {}),
    }
    if unrated is not None:  # whatever a table says: such a game never counts
        meta["rated"], meta["unrated_reason"] = False, unrated
    events += trivial_moves(state, meta)
    clock.stamp(state, meta, time.time())
    return NewGame(state, meta, events, tokens)


def create_game(store: GameStore, body: Mapping[str, Any], owner: str | None = None,
                player: SeatedPlayer | None = None) -> tuple[Game, list[str | None]]:
    """Validate a create request, deal and save (then :func:`request_computers`).

    ``owner`` is the client address the game counts against (see :class:`GameStore`).
    ``player`` (the request's player token) takes the first human seat, under his name, and
    the game counts for him (meta ``player``, as a table's or the tour's) if every other seat
    is a computer and no deck is given; otherwise it is unrated and says why.
    Returns the saved game and each seat's token (``None`` for computer seats).
    """
    new = prepare_create(body, owner, player)
    return save_created(store, new_game_id(), new), new.tokens


def prepare_create(body: Mapping[str, Any], owner: str | None = None,
                   player: SeatedPlayer | None = None) -> NewGame:
    """:func:`prepare_game` of a create request counted against ``owner`` (an address), its
    first human seat ``player``'s when given (see :func:`create_game`)."""
    spec = GameSpec.from_body(body)
    extra: ExtraMeta = {} if owner is None else {"owner": {"key": owner_key(owner)}}
    if player is not None:
        specs = list(seats_of(spec))
        mine = next((i for i, s in enumerate(specs) if s.kind == "human"), 0)
        specs[mine] = replace(specs[mine], name=player.name)
        spec = spec.with_seats(tuple(specs))
        players: list[str | None] = [None] * len(specs)
        players[mine] = player.player_id
        extra["player"] = {"player_id": player.player_id, "players": players,
                           "started_ms": int(time.time() * 1000)}
    new = prepare_game(spec, extra)
    if new.meta["rated"] and (reason := _unrated(player, new.meta["seats"])) is not None:
        new.meta["rated"], new.meta["unrated_reason"] = False, reason
    return new


def new_game_id() -> str:
    return secrets.token_urlsafe(12)


def save_created(store: GameStore, game_id: str, new: NewGame) -> Game:
    """Save the prepared game ``new`` as ``game_id`` at version 1."""
    return store.create(game_id, new.state, new.meta, new.events)


def _unrated(player: SeatedPlayer | None, seats: Sequence[Mapping[str, Any]]) -> str | None:
    """Why a created game (no deck) does not count, or ``None`` if it does."""
    if player is None:
        return rated.ANONYMOUS
    if sum(s["kind"] == "human" for s in seats) > 1:
        return rated.PEOPLE
    return None


#: The action type that holds a settlement open longer (:func:`pause`; not an engine action).
PAUSE: Final = "pause"


def parse_action(state: HostedState, body: Mapping[str, Any]) -> HostedAction:
    """The action of a request body in ``state``'s game; an unparsable one is a 422 on the
    member at fault (``card``, ``suit``, ``points``, ``musik``, ``cards``, ``type``, or one
    its type does not take)."""
    try:
        return parse_hosted_action(state, body)
    except InvalidAction as exc:
        raise FieldError(exc.member or "type", str(exc)) from None


def check_pause(body: Mapping[str, Any]) -> None:
    """A ``pause`` body takes no member but ``type``: another is a 422 naming it."""
    for name in body:
        if name != "type":
            raise FieldError(name, f"{name!r} is not a member of pause: pause takes no other "
                                   "member")


def act(store: GameStore, game: Game, seat: int, action: HostedAction,
        idempotent: IdempotentWrite | None = None, *, after_save: AfterSave,
        timed_out: bool = False, seen: Seen | None = None) -> Game:
    """Apply ``seat``'s action and the trivial automatic steps after it, set the clock, save
    once, and run ``after_save`` on the saved game.

    The same for a human's request, a computer's move (:func:`play_computer`) and the
    clock's action for a seat whose time ran out (``timed_out``: :func:`expire`). Raises
    :class:`~engine.IllegalAction` (nothing saved) or :class:`~api.games.store.VersionConflict`
    (someone saved first; nothing saved). ``seen``: the seat's presence, written by the save.
    """
    if kind_of(action) == ABORT and (refusal := abort_refusal(game, seat)) is not None:
        raise IllegalAction(refusal, legal_actions(game.state, seat))
    events = apply(game.state, seat, action)
    if timed_out:
        clock.mark_expired(game.meta, seat, events)
    events += trivial_moves(game.state, game.meta)
    clocked = game.meta.get("clock") is not None
    if clocked:
        clock.stamp(game.state, game.meta, time.time(), seat, timed_out)
    saved = store.save(game, events, write_meta=clocked, idempotent=idempotent, seen=seen)
    after_save(saved)  # standings; a table's finished match: counts, status
    return saved


def expire(store: GameStore, game: Game, *, search: bool, after_save: AfterSave,
           think: Think = FULL) -> Game | None:
    """Apply what the game's clock does now that it has run out (see :mod:`api.live.clock`), one
    save per action; the last saved game, or ``None`` when nothing is due. The delayed job
    calls it at the deadline (``search``: a computer may choose the move), and every request
    touching the game after it (no search: :class:`~api.live.clock.NeedsWorker` for a computer's
    move; ``think``: what the computer's search may spend). Raises
    :class:`~api.games.store.VersionConflict` if someone saved first."""
    saved = None
    while clock.due(game.meta, time.time()):
        chosen = clock.timeout_action(game.state, game.meta, search=search, think=think)
        if chosen is None:
            break
        game = saved = act(store, game, *chosen, after_save=after_save, timed_out=True)
    return saved


def pause(store: GameStore, game: Game, seat: int,
          idempotent: IdempotentWrite | None = None, seen: Seen | None = None) -> Game:
    """``seat``'s ``pause`` of the settlement (:func:`api.live.clock.pause`), saved; raises
    :class:`~engine.IllegalAction` or :class:`~api.games.store.VersionConflict` (nothing saved)."""
    events = clock.pause(game.state, game.meta, seat)
    return store.save(game, events, write_meta=True, idempotent=idempotent, seen=seen)


def trivial_moves(state: HostedState, meta: GameMeta) -> list[Event]:
    """With ``auto_continue``, acknowledge finished hands for human seats (no search)."""
    events: list[Event] = []
    if not meta["auto_continue"]:
        return events
    while True:
        humans = [seat for seat in human_seats(meta) if only_continue(state, seat)]
        if not humans:
            return events
        events += apply(state, humans[0], action_of(state, CONTINUE))


def computer_to_move(state: HostedState, meta: GameMeta) -> int | None:
    """The first computer seat that has an action to take, or ``None`` (a human must act,
    or the game is over)."""
    for seat, info in enumerate(meta["seats"]):
        if info["kind"] == "computer" and legal_actions(state, seat):
            return seat
    return None


def play_computer(store: GameStore, game: Game, after_save: AfterSave, think: Think = FULL,
                  ) -> Game | None:
    """Choose the next computer seat's action from its view (the search: a worker's CPU work,
    as much as ``think`` gives it) and :func:`act` it; ``None`` if no computer is to move.
    Raises as :func:`act` does."""
    seat = computer_to_move(game.state, game.meta)
    if seat is None:
        return None
    level = game.meta["seats"][seat]["level"]
    assert level is not None  # a computer seat's
    with computer_thinking(level):
        choice = computer_level(level).choose(view(game.state, seat), think)
    return act(store, game, seat, choice, after_save=after_save)


class MoveQueue(Protocol):
    """What :func:`request_computers` needs of the task queue (:mod:`api.worker.queue`)."""

    def enqueue_move(self, game_id: str, version: int) -> None: ...

    def move_in_hand(self, game_id: str, version: int) -> bool: ...


def request_computers(queue: MoveQueue, game: Game, *, check: bool = False) -> bool:
    """Enqueue the move job of ``game`` if a computer is to move; whether one is.

    With ``check`` (a request that merely touches the game) nothing is enqueued while a
    worker holds the game or its job for this version still waits: so a job lost with a
    killed worker is enqueued again by the next request, and no other request adds one.
    """
    if computer_to_move(game.state, game.meta) is None:
        return False
    if not check or not queue.move_in_hand(game.game_id, game.version):
        queue.enqueue_move(game.game_id, game.version)
    return True


def human_seats(meta: GameMeta) -> list[int]:
    return [i for i, s in enumerate(meta["seats"]) if s["kind"] == "human"]


def abort_refusal(game: Game, seat: int) -> str | None:
    """Why human ``seat`` may not abort the game now, or ``None`` if it may."""
    humans = human_seats(game.meta)
    if may_abort(game.state, seat, humans):
        return None
    if len(humans) < 2 and not is_over(game.state):
        return "only a game between two or more human players can be aborted; resign instead"
    try:
        abort = action_of(game.state, ABORT)
    except InvalidAction as exc:  # a game without the action
        return str(exc)
    return illegal_reason(game.state, seat, abort)


def public_seats(meta: GameMeta) -> list[dict[str, Any]]:
    """Seats as everyone may see them: never a token or its digest."""
    return [{"seat": i, "kind": s["kind"], "name": s["name"], "level": s["level"]}
            for i, s in enumerate(meta["seats"])]


def view_seats(game: Game, seat: int | None) -> list[dict[str, Any]]:
    """The public seats with ``connected``: seen within the presence window when loaded (a
    computer always; the caller's own seat too, since it asks now)."""
    seats = public_seats(game.meta)
    connected = game.connected or [False] * len(seats)
    for item, seen in zip(seats, connected, strict=True):
        item["connected"] = seen or item["kind"] == "computer" or item["seat"] == seat
    return seats


def game_view(game: Game, seat: int | None, computers_unavailable: bool = False
              ) -> dict[str, Any]:
    """``engine.view`` for ``seat`` plus the game's id, version, seats and recent events;
    ``computers_unavailable``: a computer is to move and no worker runs to move it."""
    out = view(game.state, seat)
    settings = out.setdefault("settings", {})  # Tausendeins' engine has no table settings
    settings["auto_continue"] = game.meta["auto_continue"]
    if (timing := game.meta.get("clock")) is not None:
        settings.update({k: timing[k] for k in clock.SETTINGS})
    out["can_abort"] = seat is not None and abort_refusal(game, seat) is None
    out["computers_unavailable"] = computers_unavailable
    return {
        "game_id": game.game_id,
        "version": game.version,
        "rated": game.meta["rated"],
        "unrated_reason": None if game.meta["rated"] else game.meta.get("unrated_reason"),
        "seats": view_seats(game, seat),
        "hinted_hands": game.meta.get("hinted_hands", []),
        **out,
        "clock": clock.clock_view(game.state, game.meta, seat, time.time()),
        "events": [e.for_seat(seat) for e in game.recent],
    }

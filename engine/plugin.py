"""What a game plug-in provides: the :class:`Game` protocol, with its :class:`Capabilities`,
:class:`Census` and :class:`Outcome` (the kernel each game and :mod:`engine.registry` import;
it imports no game).

A game gives its variants, options, rules, play, views, outcome, stored form and record
through one :class:`Game`; what a service asks of a game beyond play (is it rated, has it table
settings, a clock, a text record, the 66 light?) it reads from :class:`Capabilities`, data
rather than a test of a class or a variant's name.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol, TypeVar, runtime_checkable

from engine.errors import InvalidAction
from engine.events import Event
from engine.rules import Option

S = TypeVar("S")
A = TypeVar("A")


@dataclass(frozen=True, slots=True)
class Capabilities:
    """What a game offers beyond its play, as the questions a service asks."""

    #: Its finished games count for the leaderboard (else ``unrated`` says why not).
    rated: bool
    unrated: str | None
    #: The table settings (names) it takes; each shapes views, not play.
    settings: tuple[str, ...]
    #: Moves may run on a clock (``think_time_s``).
    clock: bool
    #: Its record has the text form beside JSON (:func:`engine.record.to_text`).
    text_record: bool
    #: A view may flag the seat's 66 credited points (setting ``hint_66``).
    light_66: bool
    #: A game is a set of matches (``match_no`` counts them); else one match.
    matches: bool
    #: The word for one deal of cards and its plural (``hand``/``hands``, ``deal``/``deals``).
    hand_word: tuple[str, str]


@dataclass(frozen=True, slots=True)
class Census:
    """Where every card of the current hand lies, and the card points each side took.

    ``locations``: cards (codes) by place (``hand 0``, ``talon``, ``trick``, ``taken 1``, …),
    together exactly ``deck``; ``counted``: the trick points the engine credits each side;
    ``taken``: the points of the cards in each side's tricks (they must agree)."""

    deck: tuple[str, ...]
    locations: Mapping[str, Sequence[str]]
    counted: tuple[int, ...]
    taken: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Outcome:
    """A finished game: ``reason`` (``points``, ``resigned``, ``timeout``, ``aborted``), the
    seats that won (none when aborted) and each seat's final points (its side's)."""

    reason: str
    winners: tuple[int, ...]
    points: tuple[int, ...]
    matches_won: tuple[int, ...] = field(default=())


@runtime_checkable
class JsonAction(Protocol):
    """What every game's action is: its JSON form (``type`` and the member it takes), as an
    :class:`~engine.errors.IllegalAction`'s ``legal`` actions are listed."""

    def as_dict(self) -> Mapping[str, Any]: ...


class Game(Protocol[S, A]):
    """One game: its rules, play, views, stored form and record (``S`` its state, ``A`` its
    action). Seats are 0-based ints; ``None`` as a seat is a spectator."""

    @property
    def name(self) -> str: ...

    @property
    def capabilities(self) -> Capabilities: ...

    def variants(self) -> Sequence[str]:
        """Its variant names (a one-variant game: its own name)."""

    def players(self, variant: str) -> int: ...

    def options(self, variant: str) -> Sequence[Option]:
        """The rule options of ``variant``, each with its default, values and description."""

    def describe(self, variant: str) -> dict[str, object]:
        """``variant`` as ``GET /v1/rules`` lists it."""

    def random_play_options(self, variant: str) -> Mapping[str, object]:
        """Options under which a game played at random ends soon (a conformance suite plays
        with them; none when the defaults do)."""

    def make_rules(self, variant: str, options: Mapping[str, object] | None = None) -> Any:
        """Validated rules; raises :class:`~engine.errors.InvalidOption`."""

    def new_game(self, rules: Any, settings: Mapping[str, bool] | None = None, *,
                 first_dealer: object = None, decks: Sequence[Sequence[str]] | None = None,
                 rng: random.Random | None = None) -> tuple[S, list[Event]]:
        """A new game, its first hand dealt (``settings``: of :attr:`Capabilities.settings`)."""

    def owns(self, state: object) -> bool:
        """Whether ``state`` is a state of this game."""

    def variant_of(self, state: S) -> str: ...

    def settings_of(self, state: S) -> Mapping[str, bool]: ...

    def hand_mark(self, state: S) -> tuple[int, int]:
        """The current hand's number and its match's (1 in a one-match game)."""

    def parse_action(self, body: Mapping[str, Any]) -> A:
        """The action of a JSON body; raises :class:`~engine.errors.InvalidAction`."""

    def action_json(self, action: A) -> dict[str, Any]: ...

    def simple_action(self, kind: str) -> A:
        """The action without arguments ``kind`` (``continue``, ``resign``, ``abort``)."""

    def legal_actions(self, state: S, seat: int) -> Sequence[A]:
        """Exactly the moves ``seat`` may make now (``resign`` and ``abort`` not listed)."""

    def apply(self, state: S, seat: int, action: A) -> list[Event]:
        """Apply the action; raises :class:`~engine.errors.IllegalAction` with its reason and
        the legal actions, the state untouched."""

    def illegal_reason(self, state: S, seat: int, action: A) -> str: ...

    def may_abort(self, state: S, seat: int, seats: Sequence[int]) -> bool: ...

    def over(self, state: S) -> bool: ...

    def status(self, state: S) -> str:
        """``playing``, ``hand_over`` (a finished hand waits to be acknowledged),
        ``match_over`` or ``aborted``."""

    def view(self, state: S, seat: int | None) -> dict[str, Any]: ...

    def hidden(self, state: S, seat: int | None) -> frozenset[str]:
        """The cards ``seat`` may not see now (codes): no view of it may name one."""

    def census(self, state: S) -> Census: ...

    def outcome(self, state: S) -> Outcome | None:
        """How the game ended; ``None`` while it runs."""

    def to_stored(self, state: S) -> Any:
        """The stored form, a JSON value."""

    def owns_stored(self, data: Any) -> bool:
        """Whether a parsed stored form is of this game."""

    def from_stored(self, data: Any) -> S:
        """The state of a stored form; raises :class:`~engine.errors.InvalidState`."""

    def build_record(self, state: S, events: Sequence[Event], *, reveal: bool,
                     seat: int | None = None) -> dict[str, Any]:
        """The record from the complete event log (decks only with ``reveal``)."""

    def replay(self, record: Mapping[str, Any]) -> S:
        """The final state of a replayed record; raises
        :class:`~engine.replay.ReplayMismatch` at the first difference from it."""


def check_members(kind: str, body: Mapping[str, Any], members: Mapping[str, str]) -> None:
    """Refuse a member of an action's JSON ``body`` other than ``type`` and the one its
    ``kind`` takes (``members``: kind → member); raises :class:`InvalidAction` naming it."""
    allowed = members.get(kind)
    for name in body:
        if name not in ("type", allowed):
            takes = f"takes only {allowed!r}" if allowed else "takes no other member"
            raise InvalidAction(f"{name!r} is not a member of {kind}: {kind} {takes}", name)

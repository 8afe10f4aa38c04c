"""What a new game is made of, whoever asks for it: ``POST /v1/games``, a table's start, a tour
station. :class:`GameSpec` holds the variant, rule options, table settings, seats and the
optional first dealer and deck; :func:`check_spec` checks it once for all of them and raises
the 422 :class:`~api.http.errors.FieldError` of the field at fault, named as in the create
request (``seats.1.level``, ``rules.close_min_talon``, ``settings.think_time_s``).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass, field, fields, replace
from typing import Any, Final

from api.errors import FieldError
from api.games.computers import COMPUTER_LEVELS, unknown_level
from api.live import clock
from engine import InvalidOption
from engine.hosted import HostedRules, capabilities_of, make_rules, players_of

#: Rule options that the create request also takes at top level.
TOP_LEVEL_OPTIONS: Final = ("match_points", "set_bummerl")
DEFAULT_VARIANT: Final = "sixty-six"


@dataclass(frozen=True, slots=True)
class GameSettings:
    """A game's table settings, as ``settings`` of a create request (and of a table); the
    defaults are those of a request that names none."""

    point_counter: bool = False
    hint_66: bool = False
    auto_continue: bool = False
    #: Clock: seconds a human seat has for each move; ``None``: no clock.
    think_time_s: int | None = None
    on_timeout: str = "computer"
    timeout_level: str = "normal"

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameSettings:
        """The settings of a loaded request or a stored table (a missing one: its default)."""
        return cls(**{f.name: data[f.name] for f in fields(cls) if f.name in data})

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)


@dataclass(frozen=True, slots=True)
class SeatSpec:
    """A seat asked for: ``human`` or ``computer``; ``name`` and ``level`` as given (``None``:
    not given, so the default)."""

    kind: str
    name: str | None = None
    level: str | None = None

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> SeatSpec:
        return cls(data["kind"], data.get("name"), data.get("level"))


@dataclass(frozen=True, slots=True)
class GameSpec:
    """A game to deal; ``seats`` ``None``: one human, the others computers (:func:`seats_of`).

    ``match_points`` and ``set_bummerl`` are the top-level forms of the rule options of those
    names (``None``: not given).
    """

    variant: str = DEFAULT_VARIANT
    rules: Mapping[str, Any] = field(default_factory=dict)
    settings: GameSettings = GameSettings()
    seats: tuple[SeatSpec, ...] | None = None
    match_points: int | None = None
    set_bummerl: int | None = None
    first_dealer: int | None = None
    deck: tuple[str, ...] | None = None

    @classmethod
    def from_body(cls, body: Mapping[str, Any]) -> GameSpec:
        """The spec of a loaded ``POST /v1/games`` body."""
        seats = body.get("seats")
        deck = body.get("deck")
        return cls(variant=body["variant"], rules=dict(body["rules"]),
                   settings=GameSettings.from_dict(body["settings"]),
                   seats=None if seats is None else tuple(SeatSpec.from_dict(s) for s in seats),
                   match_points=body.get("match_points"), set_bummerl=body.get("set_bummerl"),
                   first_dealer=body.get("first_dealer"),
                   deck=None if deck is None else tuple(deck))

    def top_level(self) -> dict[str, int]:
        """The top-level rule options given, by name."""
        given = {"match_points": self.match_points, "set_bummerl": self.set_bummerl}
        return {k: v for k, v in given.items() if v is not None}

    def with_seats(self, seats: tuple[SeatSpec, ...]) -> GameSpec:
        return replace(self, seats=seats)


@dataclass(frozen=True, slots=True)
class CheckedSpec:
    """A spec that passed :func:`check_spec`: the engine's rules and settings, and the seats
    as a game's meta keeps them (``kind``, ``name``, ``level``; ``level`` ``None`` for a
    human)."""

    rules: HostedRules
    #: The game's table settings (those of its capabilities; none for a game without).
    settings: dict[str, bool]
    seats: list[dict[str, Any]]
    #: The clock's state of a new game (:func:`api.live.clock.check_settings`), or ``None``.
    clock: dict[str, Any] | None


def default_seats(players: int) -> tuple[SeatSpec, ...]:
    """The seats of a spec that names none: one human, the others computers."""
    return (SeatSpec("human"),) + (SeatSpec("computer"),) * (players - 1)


def seats_of(spec: GameSpec) -> tuple[SeatSpec, ...]:
    """The spec's seats, or the default ones of its variant."""
    return spec.seats if spec.seats is not None else default_seats(players_of(spec.variant))


def _seats(specs: tuple[SeatSpec, ...], players: int) -> list[dict[str, Any]]:
    if len(specs) != players:
        raise FieldError("seats", f"this variant seats {players} players; got {len(specs)}")
    if not any(s.kind == "human" for s in specs):
        raise FieldError("seats", "at least one seat must be human")
    seats = []
    for i, spec in enumerate(specs):
        if spec.kind == "human":
            if spec.level is not None:
                raise FieldError(f"seats.{i}.level", "only computer seats have a level")
            name = f"Player {i + 1}" if spec.name is None else spec.name
            seats.append({"kind": "human", "name": name, "level": None})
            continue
        level = "random" if spec.level is None else spec.level
        if level not in COMPUTER_LEVELS:
            raise FieldError(f"seats.{i}.level", unknown_level(level), list(COMPUTER_LEVELS))
        name = f"Computer ({level})" if spec.name is None else spec.name
        seats.append({"kind": "computer", "name": name, "level": level})
    return seats


def _rules(spec: GameSpec) -> HostedRules:
    options = dict(spec.rules)
    top = spec.top_level()
    for name, value in top.items():
        if name in options and options[name] != value:
            raise FieldError(name, f"differs from rules.{name}")
        options[name] = value
    try:
        return make_rules(spec.variant, options)
    except InvalidOption as exc:
        field_name = exc.option if exc.option == "variant" or exc.option in top \
            else f"rules.{exc.option}"
        raise FieldError(field_name, str(exc), exc.allowed) from None


def _settings(spec: GameSpec) -> dict[str, bool]:
    """The game's table settings of ``spec``; one the game has not, or a clock for a game
    without one, is a 422."""
    offers = capabilities_of(spec.variant)
    for name in ("point_counter", "hint_66", "think_time_s"):
        has = offers.clock if name == "think_time_s" else name in offers.settings
        if getattr(spec.settings, name) and not has:
            raise FieldError(f"settings.{name}", f"{spec.variant} games have no {name}")
    return {name: bool(getattr(spec.settings, name)) for name in offers.settings}


def check_spec(spec: GameSpec) -> CheckedSpec:
    """The rules, engine settings, seats and clock of ``spec``; a bad one is a 422 on it."""
    rules = _rules(spec)
    settings = _settings(spec)
    players = players_of(spec.variant)
    clocked = clock.check_settings(spec.settings.to_dict(), players)
    return CheckedSpec(rules, settings, _seats(seats_of(spec), players), clocked)

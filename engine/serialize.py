"""Compact, versioned JSON for a :class:`~engine.state.GameState`.

``from_json(to_json(s))`` reproduces ``s`` exactly at every step. Hands, taken cards and the
public-card set are bitmasks; the talon, tricks and preset decks are strings of card codes.

Two forms: the dict of :func:`to_dict` (member names as keys, ``"v"`` the schema version),
which :func:`from_dict` loads, and the stored text of :func:`to_json`, since version 3 a JSON
array: the version, then the members' values in the order of :data:`FIELDS`
(``[3,"sixty-six",{},...]``: about half the bytes of the object, parsed and written in about
half the time, which every HTTP action pays twice). :func:`from_json` loads that array, and
the objects of versions 1 and 2 that stored games still hold. Older versions are upgraded by
:data:`MIGRATIONS` (version → function returning the next version's dict) before loading.

Version 2 added ``mv`` (seats that have made a move, for ``abort``) and ``en`` (how the game
was ended by an action: ``[reason, seat]`` or null). A version-1 game upgrades with every seat
counted as having moved (it can be resigned, no longer aborted). Version 3 has the members of
version 2 and stores them as the array.

A stored state may end with one optional member after those of :data:`FIELDS`: ``cy``, the game
points carried to the next hand's winners after hands tied 65:65 under ``four_hand_scoring``
hoyle (``GameState.carried``), written only when not 0, so every other state is stored as
before.

Speed (every HTTP action loads and saves a state): the stored form of a rule set and the rule
set of a stored form are cached (both are immutable values), and card strings are parsed by
one dictionary lookup per card.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import lru_cache
from typing import Any, Final

from engine.cards import CARD_CODES, parse_card
from engine.errors import EngineError, InvalidState
from engine.rules import VARIANTS, Rules, Settings
from engine.state import GameState

SCHEMA_VERSION: Final = 3
#: The members of a state, in the order of the stored array (after the version).
FIELDS: Final = ("var", "opt", "set", "dl", "hn", "mn", "sc", "bu", "mw", "lw", "sw", "st", "ak",
                 "pd", "ac", "hs", "tr", "tc", "ta", "cb", "ca", "cs", "ld", "tk", "tt", "wp",
                 "wt", "tn", "md", "ms", "pu", "se", "mv", "en")
#: The optional member written after :data:`FIELDS` when not 0 (``GameState.carried``).
CARRIED: Final = "cy"


def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    players = VARIANTS[data["var"]].players
    return {**data, "v": 2, "mv": (1 << players) - 1, "en": None}


def _v2_to_v3(data: dict[str, Any]) -> dict[str, Any]:
    return {**data, "v": 3}  # the same members; only the stored form changed


#: Upgrades of stored dicts: ``MIGRATIONS[v]`` turns a version-``v`` dict into version ``v+1``.
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _v1_to_v2,
                                                                     2: _v2_to_v3}


def _cards(cards: list[int] | tuple[int, ...]) -> str:
    return "".join(CARD_CODES[c] for c in cards)


#: Card code → card, for the codes this module writes (anything else goes to parse_card).
_CARD_OF: Final = {code: i for i, code in enumerate(CARD_CODES)}
#: Distinct rule sets and settings cached (a server meets a handful).
_CACHED: Final = 256


def _parse_cards(text: str) -> list[int]:
    card_of = _CARD_OF
    try:
        return [card_of[text[i : i + 2]] for i in range(0, len(text), 2)]
    except KeyError:  # not our own spelling: parse_card accepts it or says what is wrong
        return [parse_card(text[i : i + 2]) for i in range(0, len(text), 2)]


@lru_cache(maxsize=_CACHED)
def _stored_options(rules: Rules) -> dict[str, Any]:
    """The options of ``rules`` that differ from its variant's defaults (do not mutate)."""
    return rules.changed_options()


@lru_cache(maxsize=_CACHED)
def _stored_settings(settings: Settings) -> dict[str, Any]:
    """The settings that are on (do not mutate)."""
    return {k: v for k, v in settings.as_dict().items() if v}


_Items = tuple[tuple[str, Any], ...]


@lru_cache(maxsize=_CACHED)
def _rules_of(variant: str, options: _Items) -> Rules:
    return Rules.make(variant, dict(options))


@lru_cache(maxsize=_CACHED)
def _settings_of(settings: _Items) -> Settings:
    return Settings.make(dict(settings))


def _key(values: dict[str, Any]) -> _Items:
    """A cache key of a stored options or settings dict (an unhashable value is a TypeError)."""
    return tuple(sorted(values.items()))


def _values(state: GameState) -> list[Any]:
    """The members' values in the order of :data:`FIELDS`."""
    rules = state.rules
    return [
        rules.variant.name,
        dict(_stored_options(rules)),
        dict(_stored_settings(state.settings)),
        state.dealer,
        state.hand_no,
        state.match_no,
        state.score,
        state.bummerl,
        state.matches_won,
        state.last_match_winner,
        state.set_winner,
        state.status,
        state.acks,
        [_cards(d) for d in state.preset_decks],
        list(state.active),
        state.hands,
        state.trump,
        state.trump_card,
        _cards(state.talon),
        state.closed_by,
        state.closed_at,
        list(state.closed_snapshot) if state.closed_snapshot is not None else None,
        state.leader,
        _cards(state.trick),
        [[leader, _cards(cards), winner] for leader, cards, winner in state.tricks],
        state.won_points,
        state.won_tricks,
        state.taken,
        [[seat, suit, int(cred)] for seat, suit, cred in state.melds],
        state.melded_suit,
        state.public,
        state.settlement,
        state.moved,
        list(state.ended) if state.ended is not None else None,
    ]


def to_dict(state: GameState) -> dict[str, Any]:
    out = {"v": SCHEMA_VERSION, **dict(zip(FIELDS, _values(state), strict=True))}
    if state.carried:
        out[CARRIED] = state.carried
    return out


def from_dict(data: dict[str, Any]) -> GameState:
    """Load a stored dict, migrating older schema versions; raises :class:`InvalidState`."""
    try:
        version = data["v"]
        while version < SCHEMA_VERSION:
            data = MIGRATIONS[version](data)
            version = data["v"]
        if version != SCHEMA_VERSION:
            raise InvalidState(f"unknown state schema version {version!r}")
        return _load([data[name] for name in FIELDS], data.get(CARRIED, 0))
    except InvalidState:
        raise
    except (KeyError, TypeError, ValueError, IndexError, EngineError) as exc:
        raise InvalidState(f"corrupt game state: {exc!r}") from exc


def _load(values: list[Any], carried: object = 0) -> GameState:
    """The state of the members' values in the order of :data:`FIELDS` and of the optional
    :data:`CARRIED` (raises what a corrupt value raises: the callers say so)."""
    (var, opt, settings, dl, hn, mn, sc, bu, mw, lw, sw, st, ak, pd, ac, hs, tr, tc, ta, cb,
     ca, cs, ld, tk, tt, wp, wt, tn, md, ms, pu, se, mv, en) = values
    state = GameState(_rules_of(var, _key(opt)), _settings_of(_key(settings)))
    state.dealer = dl
    state.hand_no = hn
    state.match_no = mn
    state.score = list(sc)
    state.bummerl = list(bu)
    state.matches_won = list(mw)
    state.last_match_winner = lw
    state.set_winner = sw
    state.status = st
    state.acks = ak
    state.preset_decks = [_parse_cards(d) for d in pd]
    state.active = tuple(ac)
    state.hands = list(hs)
    state.trump = tr
    state.trump_card = tc
    state.talon = _parse_cards(ta)
    state.closed_by = cb
    state.closed_at = ca
    state.closed_snapshot = tuple(cs) if cs is not None else None
    state.leader = ld
    state.trick = _parse_cards(tk)
    state.tricks = [(t[0], tuple(_parse_cards(t[1])), t[2]) for t in tt]
    state.won_points = list(wp)
    state.won_tricks = list(wt)
    state.taken = list(tn)
    state.melds = [(m[0], m[1], bool(m[2])) for m in md]
    state.melded_suit = ms
    state.public = pu
    state.settlement = se
    state.moved = mv
    state.ended = (en[0], en[1]) if en is not None else None
    if not isinstance(carried, int) or isinstance(carried, bool) or not 0 <= carried < 1 << 16:
        raise ValueError(f"carried game points must be a small int; got {carried!r}")
    state.carried = carried
    return state


#: Compact JSON (the stdlib's C encoder).
_encode: Final = json.JSONEncoder(separators=(",", ":")).encode


def to_stored(state: GameState) -> list[Any]:
    """The stored form as a value: ``[SCHEMA_VERSION, <values in the order of FIELDS>]``
    (:func:`to_json` writes it; a caller may write it with another JSON encoder), and
    :data:`CARRIED`'s value last when not 0."""
    stored = [SCHEMA_VERSION, *_values(state)]
    if state.carried:
        stored.append(state.carried)
    return stored


def to_json(state: GameState) -> str:
    """The stored form as text."""
    return _encode(to_stored(state))


def json_object(text: str | bytes, what: str,
                error: type[InvalidState] = InvalidState) -> dict[str, Any]:
    """``text`` parsed as a JSON object; else ``error`` saying what ``what`` is not."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise error(f"{what} is not JSON: {exc}") from exc
    if not isinstance(data, dict):
        raise error(f"{what} must be a JSON object")
    return data


def from_json(text: str | bytes) -> GameState:
    """Load the stored form of :func:`to_json`, or the object an older version stored;
    raises :class:`InvalidState`."""
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise InvalidState(f"game state is not JSON: {exc}") from exc
    return from_stored(data)


def from_stored(data: Any) -> GameState:
    """Load a parsed stored form (:func:`to_stored`'s array, or an older version's object);
    raises :class:`InvalidState`."""
    if isinstance(data, dict):
        return from_dict(data)
    if not isinstance(data, list) or not data:
        raise InvalidState("game state must be a JSON array or object")
    if data[0] != SCHEMA_VERSION:
        raise InvalidState(f"unknown state schema version {data[0]!r}")
    if len(data) not in (1 + len(FIELDS), 2 + len(FIELDS)):
        raise InvalidState(f"corrupt game state: {len(data) - 1} values, not {len(FIELDS)}")
    try:
        return _load(data[1:1 + len(FIELDS)], data[1 + len(FIELDS)] if len(data) > 1 + len(FIELDS)
                     else 0)
    except (TypeError, ValueError, IndexError, KeyError, EngineError) as exc:
        raise InvalidState(f"corrupt game state: {exc!r}") from exc

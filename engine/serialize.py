"""Compact, versioned JSON for a :class:`~engine.state.GameState`.

``from_json(to_json(s))`` reproduces ``s`` exactly at every step. Hands, taken cards and the
public-card set are bitmasks; the talon, tricks and preset decks are strings of card codes.
The key ``"v"`` is the schema version; older versions are upgraded by :data:`MIGRATIONS`
(version → function returning the next version's dict) before loading.

Version 2 added ``mv`` (seats that have made a move, for ``abort``) and ``en`` (how the game
was ended by an action: ``[reason, seat]`` or null). A version-1 game upgrades with every seat
counted as having moved (it can be resigned, no longer aborted).

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

SCHEMA_VERSION: Final = 2


def _v1_to_v2(data: dict[str, Any]) -> dict[str, Any]:
    players = VARIANTS[data["var"]].players
    return {**data, "v": 2, "mv": (1 << players) - 1, "en": None}


#: Upgrades of stored dicts: ``MIGRATIONS[v]`` turns a version-``v`` dict into version ``v+1``.
MIGRATIONS: dict[int, Callable[[dict[str, Any]], dict[str, Any]]] = {1: _v1_to_v2}


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


def to_dict(state: GameState) -> dict[str, Any]:
    rules = state.rules
    return {
        "v": SCHEMA_VERSION,
        "var": rules.variant.name,
        "opt": dict(_stored_options(rules)),
        "set": dict(_stored_settings(state.settings)),
        "dl": state.dealer,
        "hn": state.hand_no,
        "mn": state.match_no,
        "sc": state.score,
        "bu": state.bummerl,
        "mw": state.matches_won,
        "lw": state.last_match_winner,
        "sw": state.set_winner,
        "st": state.status,
        "ak": state.acks,
        "pd": [_cards(d) for d in state.preset_decks],
        "ac": list(state.active),
        "hs": state.hands,
        "tr": state.trump,
        "tc": state.trump_card,
        "ta": _cards(state.talon),
        "cb": state.closed_by,
        "ca": state.closed_at,
        "cs": list(state.closed_snapshot) if state.closed_snapshot is not None else None,
        "ld": state.leader,
        "tk": _cards(state.trick),
        "tt": [[leader, _cards(cards), winner] for leader, cards, winner in state.tricks],
        "wp": state.won_points,
        "wt": state.won_tricks,
        "tn": state.taken,
        "md": [[seat, suit, int(cred)] for seat, suit, cred in state.melds],
        "ms": state.melded_suit,
        "pu": state.public,
        "se": state.settlement,
        "mv": state.moved,
        "en": list(state.ended) if state.ended is not None else None,
    }


def from_dict(data: dict[str, Any]) -> GameState:
    """Load a stored dict, migrating older schema versions; raises :class:`InvalidState`."""
    try:
        version = data["v"]
        while version < SCHEMA_VERSION:
            data = MIGRATIONS[version](data)
            version = data["v"]
        if version != SCHEMA_VERSION:
            raise InvalidState(f"unknown state schema version {version!r}")
        state = GameState(_rules_of(data["var"], _key(data["opt"])),
                          _settings_of(_key(data["set"])))
        state.dealer = data["dl"]
        state.hand_no = data["hn"]
        state.match_no = data["mn"]
        state.score = list(data["sc"])
        state.bummerl = list(data["bu"])
        state.matches_won = list(data["mw"])
        state.last_match_winner = data["lw"]
        state.set_winner = data["sw"]
        state.status = data["st"]
        state.acks = data["ak"]
        state.preset_decks = [_parse_cards(d) for d in data["pd"]]
        state.active = tuple(data["ac"])
        state.hands = list(data["hs"])
        state.trump = data["tr"]
        state.trump_card = data["tc"]
        state.talon = _parse_cards(data["ta"])
        state.closed_by = data["cb"]
        state.closed_at = data["ca"]
        state.closed_snapshot = tuple(data["cs"]) if data["cs"] is not None else None
        state.leader = data["ld"]
        state.trick = _parse_cards(data["tk"])
        state.tricks = [(t[0], tuple(_parse_cards(t[1])), t[2]) for t in data["tt"]]
        state.won_points = list(data["wp"])
        state.won_tricks = list(data["wt"])
        state.taken = list(data["tn"])
        state.melds = [(m[0], m[1], bool(m[2])) for m in data["md"]]
        state.melded_suit = data["ms"]
        state.public = data["pu"]
        state.settlement = data["se"]
        state.moved = data["mv"]
        state.ended = (data["en"][0], data["en"][1]) if data["en"] is not None else None
    except InvalidState:
        raise
    except (KeyError, TypeError, ValueError, IndexError, EngineError) as exc:
        raise InvalidState(f"corrupt game state: {exc!r}") from exc
    return state


def to_json(state: GameState) -> str:
    return json.dumps(to_dict(state), separators=(",", ":"))


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
    return from_dict(json_object(text, "game state"))

"""The key schema: :mod:`api.keys` spells every key as stored data has it, and its table is
the one ``docs/operations.md`` shows."""

from __future__ import annotations

import re
from pathlib import Path

from api import keys

DOC = Path(__file__).resolve().parents[2] / "docs" / "operations.md"
BEGIN = "<!-- keys table: api.keys.markdown_table() -->\n"
END = "<!-- /keys table -->"

#: Each builder with its key for fixed arguments: the stored format, which must not change
#: (a key spelt otherwise would lose every game, table and player already stored).
BUILT: list[tuple[str, str]] = [
    (keys.game_key("g1"), "sixtysix:game:{g1}"),
    (keys.game_key("t1.2"), "sixtysix:game:{t1}.2"),
    (keys.events_key("t1.2"), "sixtysix:events:{t1}.2"),
    (keys.notify_channel("t1.2"), "sixtysix:notify:{t1}.2"),
    (keys.listener_channel("p1"), "sixtysix:listener:{p1}"),
    (keys.ticket_key("g1", "tk"),
     "sixtysix:ticket:{g1}:1ec22d56dbbc91e849b00643bc4f10eb764441c93bde5c6090fe81db55cf6932"),
    (keys.owner_key("10.0.0.1"), "sixtysix:owner:{f5047344122f0dee9974ba6761e61c6b}"),
    (keys.idem_key("create", "k"),
     "sixtysix:idem:{create}:8254c329a92850f6d539dd376f4816ee2764517da5e0235514af433164480d7a"),
    (keys.name_key("ANNA"),
     "sixtysix:player-name:{55579b557896d0ce1764c47fed644f9b35f58bad620674af23f356d80ed0c503}"),
    (keys.write_key("t1.2", "w"), "sixtysix:write:{t1}.2:w"),
    (keys.table_key("t1"), "sixtysix:table:{t1}"),
    (keys.watchers_key("t1"), "sixtysix:watchers:{t1}"),
    (keys.index_key("open", None), "sixtysix:lobby:{open:all}"),
    (keys.index_key("open", "schnapsen"), "sixtysix:lobby:{open:schnapsen}"),
    (keys.table_channel("t1"), "sixtysix:table-notify:{t1}"),
    (keys.open_tables_key("p1"), "sixtysix:player-tables:{p1}:open"),
    (keys.player_key("p1"), "sixtysix:player:{p1}"),
    (keys.token_key("abc"), "sixtysix:player-token:{abc}"),
    (keys.games_key("p1", "finished"), "sixtysix:player-games:{p1}:finished"),
    (keys.history_key("p1"), "sixtysix:player-history:{p1}"),
    (keys.results_key("p1"), "sixtysix:player-history:{p1}:results"),
    (keys.tour_key("p1"), "sixtysix:tour:{p1}"),
    (keys.ratings_key("sixty-six"), "sixtysix:ratings:{ratings}:sixty-six"),
    (keys.listing_key("sixty-six", "bot"), "sixtysix:ratings:{ratings}:sixty-six:bot"),
    (keys.rated_marker_key("g1"), "sixtysix:ratings:{ratings}:done:g1"),
    (keys.board_key("human", "all", None), "sixtysix:leaderboard:{leaderboard}:human:all:all"),
    (keys.board_key("bot", "month", "schnapsen", "2026-11"),
     "sixtysix:leaderboard:{leaderboard}:bot:month:2026-11:schnapsen"),
    (keys.hands_key(), "sixtysix:leaderboard:{leaderboard}:hands-won"),
    (keys.awards_marker_key("g1"), "sixtysix:leaderboard:{leaderboard}:done:g1"),
    (keys.slot_meta_key(keys.RATINGS_TAG, "outbox"), "sixtysix:ratings:{ratings}:meta:outbox"),
    (keys.slot_meta_key(keys.LEADERBOARD_TAG, "outbox-overflow"),
     "sixtysix:leaderboard:{leaderboard}:meta:outbox-overflow"),
    (keys.slot_meta_key(keys.RATINGS_TAG, "outbox-popped"),
     "sixtysix:ratings:{ratings}:meta:outbox-popped"),
    (keys.slot_meta_key(keys.LEADERBOARD_TAG, "cached"),
     "sixtysix:leaderboard:{leaderboard}:meta:cached"),
    (keys.OUTBOX, "sixtysix:outbox"),
    (keys.TOUR_CACHED, "sixtysix:tour-cached"),
    (keys.TOUR_LOADING, "sixtysix:tour-loading"),
    (keys.pair_key("pb", "pa"), "sixtysix:rated-pairs:{pairs}:pa:pb"),
    (keys.active_key(29000000), "sixtysix:active:{stats}:29000000"),
    (keys.lease_key("t1.2"), "sixtysix:moving:{t1.2}"),
    (keys.tier_key("workers"), "sixtysix-tier:workers"),
    (keys.INDEXED_KEY, "sixtysix:player-skeletons-indexed"),
    (keys.AWAITING, "sixtysix:awaiting-computers"),
    (keys.DEADLINES, "sixtysix:clock-deadlines"),
    (keys.ARCHIVE_PENDING, "sixtysix:archive-pending"),
    (keys.ARCHIVE_DRAIN_LOCK, "sixtysix:archive-drain"),
    (keys.ARCHIVE_RECONCILED, "sixtysix:archive-reconciled"),
    (f"LIMITS:LIMITER/{keys.RATE_PREFIX}/a/1/1/second",
     "LIMITS:LIMITER/sixtysix:rate/a/1/1/second"),
]


def _pattern(spec: keys.KeySpec) -> re.Pattern[str]:
    """A row's key as a regular expression: each ``<...>`` stands for one or more characters,
    and a hash tag may be followed by a table game's number (``{<table_id>}.<n>``)."""
    parts = re.split(r"<[^>]*>", spec.pattern)
    return re.compile(".+".join(re.escape(p) for p in parts).replace(r"\}", r"\}(\.[0-9]+)?"))


def test_the_doc_shows_the_modules_table() -> None:
    text = DOC.read_text(encoding="utf-8")
    assert BEGIN in text and END in text, "docs/operations.md has lost its keys table"
    shown = text[text.index(BEGIN) + len(BEGIN):text.index(END)]
    assert shown == keys.markdown_table(), (
        "docs/operations.md's keys table differs from api.keys.KEYS; put this in its place:\n"
        + keys.markdown_table())


def test_the_builders_spell_the_stored_keys() -> None:
    for built, expected in BUILT:
        assert built == expected
    assert keys.skeleton_key("Anna") == keys.skeleton_key("\N{GREEK CAPITAL LETTER ALPHA}nna")


def test_every_key_has_a_row_of_the_table() -> None:
    rows = [_pattern(spec) for spec in keys.KEYS]
    built = [b for b, _ in BUILT] + [keys.skeleton_key("Anna")]
    for key in built:
        assert any(r.fullmatch(key) for r in rows), f"{key} has no row in api.keys.KEYS"
    assert len({spec.pattern for spec in keys.KEYS}) == len(keys.KEYS), "a row is twice"


def test_a_channel_names_its_game() -> None:
    for game_id in ("g1", "t1.2"):
        assert keys.game_id_of_channel(keys.notify_channel(game_id).encode()) == game_id
    assert keys.notify_channel("g1").startswith(keys.NOTIFY_PATTERN.rstrip("*"))
    assert keys.table_channel("t1").startswith(keys.TABLE_NOTIFY_PATTERN.rstrip("*"))

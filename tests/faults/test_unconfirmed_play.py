"""``sixtysix play`` when a move's outcome is unknown: the terminal says so (never that it
failed) and reloads the table, against a real server whose Redis stops taking writes.

``CLIENT PAUSE ... WRITE`` holds every save (reads go on) longer than the server's store
timeout, so each try of the move is answered 503 ``outcome-unknown``; the client gives up after
its tries and the terminal, instead of a traceback, says the move may have been applied and
shows the table read again.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
import redis

from api.clients.client import SixtySixClient
from api.clients.play import play_match
from api.runtime.local import LocalServer
from api.runtime.redis_server import EmbeddedRedis
from tests.faults.integrity import stored_version
from tests.faults.play import UNLIMITED

#: Socket timeout of the server's Redis connections, seconds (the store's settle wait too).
REDIS_TIMEOUT = 0.5
#: Tries of the terminal's client (no sleep between them): all within the pause.
TRIES = 3
#: Milliseconds the writes are paused at most (the test unpauses them before).
PAUSE_MS = 60_000


@pytest.fixture
def own_redis(tmp_path: Path) -> Iterator[EmbeddedRedis]:
    with EmbeddedRedis(tmp_path / "redis", appendonly=False) as server:
        yield server


@pytest.fixture
def server(own_redis: EmbeddedRedis) -> Iterator[str]:
    config = {**UNLIMITED, "SIXTYSIX_REDIS_TIMEOUT": REDIS_TIMEOUT}
    with LocalServer(own_redis.url, config, workers=0) as local:
        yield local.url


def _play_paused(server: str, admin: redis.Redis, first: str,
                 ) -> tuple[str, SixtySixClient, int, list[str]]:
    """Ann's terminal on a new game: ``first`` typed at the first prompt while Redis takes
    no writes, then ``q`` (writes go on again). The game id, Ann's client, the version
    before and what the terminal said."""
    client = SixtySixClient(server, tries=TRIES, sleep=lambda seconds: None)
    game = client.create_game(seats=[{"kind": "human", "name": "Ann"},
                                     {"kind": "human", "name": "Bob"}], first_dealer=1)
    game_id, ann = game["game_id"], client.with_token(game["seats"][0]["token"])
    before = stored_version(admin, game_id)
    said: list[str] = []
    prompts: list[str] = []

    def ask(prompt: str) -> str:
        prompts.append(prompt)
        if len(prompts) == 1:
            ann.view(game_id)  # Ann's presence is fresh: the reads write nothing meanwhile
            admin.execute_command("CLIENT", "PAUSE", PAUSE_MS, "WRITE")
            return first
        admin.execute_command("CLIENT", "UNPAUSE")
        return "q"

    try:
        assert play_match(ann, game_id, ask, said.append) is False  # quit, no traceback
    finally:
        admin.execute_command("CLIENT", "UNPAUSE")
    assert len(prompts) == 2
    return game_id, ann, before, said


def test_a_move_of_unknown_outcome_is_said_so_and_the_table_reloaded(
        server: str, own_redis: EmbeddedRedis) -> None:
    admin = redis.Redis.from_url(own_redis.url)
    game_id, ann, before, said = _play_paused(server, admin, "1")
    told = [line for line in said if "could not confirm your move" in line]
    assert told == ["The server could not confirm your move: it may have been applied. "
                    "Reloading the table."]
    assert not any("fail" in line.lower() for line in said)
    after = said.index(told[0])
    tables = [i for i, line in enumerate(said) if "\nTable: " in line]
    assert any(i > after for i in tables), said  # the table was shown again after it
    # whole, and the move at most once (its tries share one key and are fenced off or one
    # of them applied): what the reloaded table shows
    now = stored_version(admin, game_id)
    assert now in (before, before + 1)
    assert ann.view(game_id)["version"] == now


def test_a_chat_message_of_unknown_outcome_may_have_been_sent(
        server: str, own_redis: EmbeddedRedis) -> None:
    admin = redis.Redis.from_url(own_redis.url)
    _, _, _, said = _play_paused(server, admin, "say Good luck!")
    assert "The server could not confirm your message: it may have been sent." in said
    assert not any("Not sent" in line for line in said)

"""Redis killed (SIGKILL) while games are being played, then restarted from its append-only
file: every game is back at the last version acknowledged to a client (or, if an action was in
flight at the kill, possibly that action's version), and every save is whole.

``appendfsync always`` makes Redis write each command to the file before it answers; with the
default ``everysec`` (deploy/) up to about a second of acknowledged moves can be lost on a crash
of the machine (not of redis-server alone, whose writes the kernel still holds).
"""

from __future__ import annotations

import random
import threading
from pathlib import Path

import redis
import requests

from api.runtime.local import LocalServer
from api.runtime.redis_server import EmbeddedRedis
from tests.faults.integrity import kill9, stored_version
from tests.faults.play import UNLIMITED, StoreUnavailable, TwoHumans
from tests.waiting import until

GAMES = 8


def test_games_come_back_at_their_acknowledged_versions(tmp_path: Path) -> None:
    data = tmp_path / "redis"
    server = EmbeddedRedis(data, appendonly=True, extra_args=("--appendfsync", "always")).start()
    port = server.port
    games: list[TwoHumans] = []
    in_flight: dict[str, bool] = {}
    failures: list[str] = []
    try:
        with LocalServer(server.url, UNLIMITED) as app:
            with requests.Session() as session:
                games = [TwoHumans.create(session, app.url) for _ in range(GAMES)]
            started = threading.Barrier(GAMES + 1)

            def play(game: TwoHumans, seed: int) -> None:
                try:
                    _play(game, seed)
                except AssertionError as exc:  # e.g. a 500, or no seat able to act
                    failures.append(f"{game.game_id}: {exc!r}")

            def _play(game: TwoHumans, seed: int) -> None:
                """Random moves until the store goes away under a request (a 503 or a
                broken connection); any other answer but 200 is a failure."""
                rng = random.Random(seed)
                with requests.Session() as own:
                    started.wait()
                    while True:
                        in_flight[game.game_id] = True
                        try:
                            response = game.move(own, app.url, rng)
                        except (requests.RequestException, StoreUnavailable):
                            return
                        if response is None or response.status_code == 503:
                            return
                        assert response.status_code == 200, response.text
                        in_flight[game.game_id] = False

            threads = [threading.Thread(target=play, args=(g, i)) for i, g in enumerate(games)]
            for t in threads:
                t.start()
            started.wait()
            # the kill comes once the games have moved (a loaded machine acknowledges fewer
            # moves in a given time), not after a guessed time
            until(lambda: sum(g.acked for g in games) > 2 * GAMES, "moves acknowledged")
            kill9(server.url)
            for t in threads:
                t.join(60)
            server.stop()
        assert not failures, failures
        acked = {g.game_id: g.acked for g in games}
        assert sum(acked.values()) > 2 * GAMES, acked  # the games did move before the kill

        with EmbeddedRedis(data, port=port, appendonly=True) as again:
            client = redis.Redis.from_url(again.url)
            try:
                for game in games:
                    stored = stored_version(client, game.game_id)
                    allowed = {game.acked, game.acked + 1} if in_flight[game.game_id] else {
                        game.acked}
                    assert stored in allowed, (game.game_id, stored, game.acked)
            finally:
                client.close()
    finally:
        server.stop()

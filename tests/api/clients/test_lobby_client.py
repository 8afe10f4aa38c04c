"""The typed client's lobby calls against a live server: players, tables, leave, rematch."""

from __future__ import annotations

import random

import pytest
import redis

from api.clients.client import ApiError, SixtySixClient


def test_the_lobby_through_the_client(live_url: str, redis_client: redis.Redis) -> None:
    with SixtySixClient(live_url) as anon:
        made = anon.create_player("Ann")
        ann = anon.with_token(made["token"])
        bob = anon.with_token(anon.create_player("Bob", kind="bot")["token"])
        assert ann.me()["player_id"] == made["player_id"] == anon.player(made["player_id"])[
            "player_id"]
        first = ann.create_table([{"kind": "player"}, {"kind": "open"}], match_points=3)
        second = ann.create_table([{"kind": "player"}, {"kind": "open"}], "schnapsen")
        page = anon.tables(limit=1, variant=None)
        assert [t["table_id"] for t in page["tables"]] == [second["table_id"]]
        assert page["next_cursor"] is not None
        rest = anon.tables(cursor=page["next_cursor"], limit=1)
        assert [t["table_id"] for t in rest["tables"]] == [first["table_id"]]
        assert [t["table_id"] for t in anon.tables("schnapsen")["tables"]] == [
            second["table_id"]]
        third = ann.create_table([{"kind": "player"}, {"kind": "open"}, {"kind": "open"}],
                                 "three-hand")
        assert bob.join_table(third["table_id"], seat=2)["seats"][2]["bot"] is True
        left = bob.leave_table(third["table_id"])
        assert left["you"] is None and left["status"] == "open"
        started = bob.join_table(first["table_id"])
        you = started["you"]
        assert you is not None and you["token"] and you["game_id"]
        tokens = {you["seat"]: you["token"]}
        mine = ann.table(first["table_id"])["you"]
        assert mine is not None and mine["token"]
        tokens[mine["seat"]] = mine["token"]
        seats = {s: anon.with_token(t) for s, t in tokens.items()}
        game_id = you["game_id"]
        rng = random.Random(4)
        while True:
            views = {s: c.view(game_id) for s, c in seats.items()}
            if views[0]["status"] == "match_over":
                break
            seat = next(s for s, v in views.items() if v["legal_actions"])
            seats[seat].act(game_id, rng.choice(views[seat]["legal_actions"]))
        assert anon.watch(game_id)["seat"] is None
        assert [g["game_id"] for g in ann.my_games("finished")["games"]] == [game_id]
        assert ann.rematch(first["table_id"])["rematch"] == [0]
        again = bob.rematch(first["table_id"])
        assert again["status"] == "playing" and len(again["games"]) == 2
        with pytest.raises(ApiError) as refused:
            ann.join_table(first["table_id"])
        assert refused.value.status == 409 and "seat" in refused.value.detail

"""Tausendeins over HTTP (docs/rules.md, "Tausendeins"): listed by GET /v1/rules, created by
POST /v1/games and at tables with its own options, played to the end against every computer
level through the worker tier and between two players at a table, each seat seeing only its
own hand, refused with the reason where an action, option or setting does not apply, and its
record replayed to the same result."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from flask.testing import FlaskClient

from api.games import rated
from engine.replay import main as replay_main
from engine.tausendeins import replay
from tests.api.helpers import act, assert_problem, bearer, create, two_humans, view
from tests.api.lobby_helpers import join, new_player, new_table, play_to_end, seat_tokens, table

SMALL = {"target_points": 200, "bidding": "contract", "contract_deal": "musik"}
#: Without an auction every deal adds to both totals: a match to 200 ends in a few deals
#: even between random players (whose failed contracts would drive both totals down).
NO_AUCTION = {"target_points": 200, "bidding": "none"}
#: Actions a test's human makes at most in one match.
MAX_ACTIONS = 600


def test_the_rules_list_tausendeins_with_its_options(client: FlaskClient) -> None:
    body = client.get("/v1/rules").json
    assert body is not None
    entry = next(v for v in body["variants"] if v["name"] == "tausendeins")
    assert entry["players"] == 2 and entry["trump_by"] == "marriage"
    options = {o["name"]: o for o in entry["options"]}
    assert options["target_points"]["default"] == 1001
    assert options["bidding"]["allowed"] == ["contract", "none"]
    assert all(len(o["description"]) > 20 for o in options.values())


def _human_choice(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    """A random legal action, but a pass in the auction: the computer declares."""
    return {"type": "pass"} if {"type": "pass"} in legal else rng.choice(legal)


@pytest.mark.parametrize(("level", "rules"), [
    ("random", NO_AUCTION), ("easy", NO_AUCTION), ("normal", SMALL), ("strong", SMALL)])
def test_a_match_against_each_level_plays_to_the_end_and_replays(
        client: FlaskClient, level: str, rules: dict[str, Any], tmp_path: Path,
        capsys: pytest.CaptureFixture[str]) -> None:
    created = create(client, variant="tausendeins", rules=rules,
                     seats=[{"kind": "human"}, {"kind": "computer", "level": level}])
    assert created["variant"] == "tausendeins"
    assert created["rated"] is False and created["unrated_reason"] == rated.TAUSENDEINS
    game_id, token = created["game_id"], created["seats"][0]["token"]
    current = view(client, game_id, token)
    stages, kinds = set(), set()
    rng = random.Random(level)
    for _ in range(MAX_ACTIONS):
        current = my_turn(client, game_id, token, current)
        assert current["variant"] == "tausendeins" and len(current["hand"]) <= 12
        if current["status"] == "match_over":
            break
        stages.add(current["stage"])
        action = _human_choice(current["legal_actions"], rng)
        kinds.add(action["type"])
        response = act(client, game_id, token, action)
        assert response.status_code == 200, response.json
        current = response.json
    assert current["status"] == "match_over"
    assert max(current["totals"]) >= 200 and current["winner"] in (0, 1)
    assert "play" in stages and "play" in kinds
    record = client.get(f"/v1/games/{game_id}/record").json
    assert record is not None and record["variant"] == "tausendeins"
    # every deal's auction, whoever called in it (seat 0 is asked only when it is its turn)
    called = [{a["type"] for a in h["actions"]} & {"bid", "pass"} for h in record["hands"]]
    assert all(not c for c in called) if rules is NO_AUCTION else all(called)
    assert all(len(h["deck"]) == 24 for h in record["hands"])
    done = replay(record)
    assert done.totals == current["totals"] == record["result"]["totals"]
    saved = tmp_path / "record.json"
    saved.write_text(json.dumps(record), encoding="utf-8")
    capsys.readouterr()
    assert replay_main([str(saved)]) == 0  # python -m engine.replay
    assert "settlements and result identical" in capsys.readouterr().out


def my_turn(client: FlaskClient, game_id: str, token: str, current: dict[str, Any]
            ) -> dict[str, Any]:
    """The view once seat 0 has an action (long-polls while a computer still thinks)."""
    while not current["legal_actions"] and current["status"] != "match_over":
        response = client.get(f"/v1/games/{game_id}?after_version={current['version']}"
                              "&wait=10", headers=bearer(token))
        assert response.status_code in (200, 304), response.json
        if response.status_code == 200:
            assert response.json is not None
            current = response.json
    return current


def _since_deal(events: list[dict[str, Any]], hand_no: int) -> list[dict[str, Any]]:
    """The events of deal ``hand_no`` (from its ``hand_dealt`` on)."""
    start = max((i for i, e in enumerate(events)
                 if e["type"] == "hand_dealt" and e.get("hand_no") == hand_no), default=0)
    return events[start:]


def test_a_seat_never_sees_the_other_hand_in_views_events_or_records(
        client: FlaskClient) -> None:
    game_id, tokens = two_humans(client, variant="tausendeins",
                                 rules={**SMALL, "musik_shown": False})
    rng = random.Random(5)
    for _ in range(60):
        views = [view(client, game_id, t) for t in tokens]
        for seat, seen in enumerate(views):
            record = client.get(f"/v1/games/{game_id}/record", headers=bearer(tokens[seat])).json
            assert record is not None
            assert all(h["deck"] is None for h in record["hands"]) or record["complete"]
            other = set(views[1 - seat]["hand"])
            shown = set(seen["known_cards"].get(str(1 - seat), []))
            hand_no = seen["hand_no"]
            events = client.get(f"/v1/games/{game_id}/events?after=0&limit=500",
                                headers=bearer(tokens[seat])).json
            assert events is not None
            this_deal = _since_deal(events["events"], hand_no)
            text = json.dumps(seen) + json.dumps(this_deal) + json.dumps(record["hands"][-1])
            hidden = other - shown - {c["card"] for c in seen["trick"]}
            assert not any(f'"{card}"' in text for card in hidden), (seat, hidden)
            musik = seen["musik"]
            if musik["taken"] is not None and seat != seen["auction"]["declarer"]:
                assert musik["cards"] is None and musik["own_discards"] is None
        if views[0]["status"] == "match_over":
            break
        seat = next(s for s in (0, 1) if views[s]["legal_actions"])
        response = act(client, game_id, tokens[seat], rng.choice(views[seat]["legal_actions"]))
        assert response.status_code == 200, response.json


def test_spectators_see_no_hand(client: FlaskClient) -> None:
    game_id, _ = two_humans(client, variant="tausendeins")
    watched = view(client, game_id)
    assert watched["seat"] is None and watched["hand"] is None
    assert watched["legal_actions"] == []


def test_the_auction_refuses_a_bid_off_its_steps_with_the_reason(client: FlaskClient) -> None:
    game_id, tokens = two_humans(client, variant="tausendeins", rules=SMALL, first_dealer=0)
    current = view(client, game_id, tokens[0])
    assert current["stage"] == "auction" and current["to_act"] == 0
    assert {"type": "pass"} in current["legal_actions"]
    problem = assert_problem(act(client, game_id, tokens[0], {"type": "bid", "points": 105}),
                             409, "illegal-action")
    assert "multiple of 10" in problem["detail"]
    problem = assert_problem(act(client, game_id, tokens[0], {"type": "bid", "points": "x"}),
                             422, "validation-error")
    assert "points" in problem["errors"]
    problem = assert_problem(act(client, game_id, tokens[0], {"type": "close"}), 422,
                             "validation-error")
    assert "close" in problem["errors"]["type"][0]  # a Sixty-Six action, not Tausendeins'
    assert view(client, game_id, tokens[0])["version"] == current["version"]


@pytest.mark.parametrize(("body", "field"), [
    ({"rules": {"target_points": 50}}, "rules.target_points"),
    ({"rules": {"bidding": "auction"}}, "rules.bidding"),
    ({"rules": {"close_min_talon": 3}}, "rules.close_min_talon"),
    ({"match_points": 7}, "match_points"),
    ({"settings": {"point_counter": True}}, "settings.point_counter"),
    ({"settings": {"think_time_s": 30}}, "settings.think_time_s"),
    ({"seats": [{"kind": "human"}] * 3}, "seats"),
])
def test_what_does_not_apply_is_a_422_on_its_field(client: FlaskClient, body: dict[str, Any],
                                                   field: str) -> None:
    response = client.post("/v1/games", json={"variant": "tausendeins", **body})
    problem = assert_problem(response, 422, "validation-error")
    assert field in problem["errors"], problem


def test_the_text_record_says_it_serves_only_the_sixty_six_family(
        client: FlaskClient) -> None:
    """(Hints are given in Tausendeins too: tests/api/games/test_tausendeins_hint.py.)"""
    created = create(client, variant="tausendeins")
    game_id, token = created["game_id"], created["seats"][0]["token"]
    response = client.get(f"/v1/games/{game_id}/record?format=text", headers=bearer(token))
    problem = assert_problem(response, 422, "validation-error")
    assert "format" in problem["errors"]


def test_two_players_play_a_match_at_a_table_to_the_end(client: FlaskClient) -> None:
    ann_id, ann = new_player(client, "Ann")
    bob_id, bob = new_player(client, "Bob")
    created = new_table(client, ann, variant="tausendeins", rules=NO_AUCTION,
                        seats=[{"kind": "player"}, {"kind": "open"}])
    table_id = created["table_id"]
    assert created["match_points"] is None and created["rules"]["target_points"] == 200
    listed = client.get("/v1/tables?variant=tausendeins").json
    assert listed is not None and [t["table_id"] for t in listed["tables"]] == [table_id]
    join(client, bob, table_id)
    game_id, tokens = seat_tokens(client, table_id, [ann, bob])
    started = view(client, game_id, tokens[0])
    assert started["variant"] == "tausendeins" and started["rated"] is False
    assert started["unrated_reason"] == rated.TAUSENDEINS
    last = play_to_end(client, game_id, tokens, random.Random(11))
    assert max(last["totals"]) >= 200
    assert table(client, table_id, ann)["status"] == "finished"
    for player_id, seat in ((ann_id, 0), (bob_id, 1)):
        page = client.get(f"/v1/players/{player_id}/games").json
        assert page is not None
        entry = next(g for g in page["games"] if g["game_id"] == game_id)
        assert entry["variant"] == "tausendeins" and entry["points"] == last["totals"]
        assert entry["result"] == ("won" if last["winner"] == seat else "lost")


def test_a_table_refuses_a_clock_or_a_third_seat_for_tausendeins(client: FlaskClient) -> None:
    _, ann = new_player(client, "Ann")
    response = client.post("/v1/tables", headers=bearer(ann), json={
        "variant": "tausendeins", "seats": [{"kind": "player"}, {"kind": "open"}],
        "settings": {"think_time_s": 30}})
    assert "settings.think_time_s" in assert_problem(response, 422, "validation-error")["errors"]
    response = client.post("/v1/tables", headers=bearer(ann), json={
        "variant": "tausendeins", "seats": [{"kind": "player"}, {"kind": "open"}] * 2})
    assert "seats" in assert_problem(response, 422, "validation-error")["errors"]


def test_the_unrated_line_is_in_a_player_s_words() -> None:
    """The page shows the reason as it is: no word of the service's internals (issue V)."""
    assert rated.TAUSENDEINS.startswith("unrated: Tausendeins games do not count")
    assert not any(word in rated.TAUSENDEINS for word in ("seeds", "leaderboard points"))

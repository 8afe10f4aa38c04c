"""The pipeline after a save (:class:`api.composition.Pipeline`) runs once for a finished match:
once for a table's match and once for a tour's, whoever made the last move; a replayed request
and the views that look for a result not yet recorded do not run it again, and the standings
(each player's history) are written once, not by two paths."""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from api.games.service import act, computer_to_move, play_computer
from api.games.store import Game
from api.players.history import HistoryStore
from api.players.service import player_of_token
from api.tour.service import start
from engine import legal_actions
from tests.api.helpers import act as post_action
from tests.api.helpers import bearer
from tests.api.lobby_helpers import join, new_player, new_table, seat_tokens


@dataclasses.dataclass
class Runs:
    """The games the pipeline ran for once over, and the histories written."""

    finished: list[str] = dataclasses.field(default_factory=list)
    histories: list[tuple[str, str]] = dataclasses.field(default_factory=list)


@pytest.fixture
def runs(app: Flask, monkeypatch: pytest.MonkeyPatch) -> Iterator[Runs]:
    """The app's pipeline, counted: its runs for a game that is over, and every history
    entry added (by whichever path)."""
    found = Runs()
    services = app.extensions["sixtysix"]
    pipeline = services.after_save

    def counted(game: Game) -> None:
        if game.state.over:
            found.finished.append(game.game_id)
        pipeline(game)

    add = HistoryStore.add

    def added(self: HistoryStore, player_id: str, finished_ms: int, game_id: str,
              result: dict[str, Any]) -> bool:
        found.histories.append((player_id, game_id))
        return add(self, player_id, finished_ms, game_id, result)

    monkeypatch.setattr(HistoryStore, "add", added)
    app.extensions["sixtysix"] = dataclasses.replace(services, after_save=counted)
    yield found
    app.extensions["sixtysix"] = services


def _play(client: FlaskClient, game_id: str, tokens: dict[int, str], rng: random.Random,
          ) -> tuple[str, dict[str, Any], str]:
    """Play both human seats to the end, each action with its own Idempotency-Key; the last
    action's token, body and key."""
    last: tuple[str, dict[str, Any], str] | None = None
    for step in range(3000):
        views = {seat: client.get(f"/v1/games/{game_id}", headers=bearer(t)).json
                 for seat, t in tokens.items()}
        first: dict[str, Any] = next(iter(views.values()))  # type: ignore[assignment]
        if first["status"] == "match_over":
            assert last is not None
            return last
        seat = next(s for s, v in views.items() if v and v["legal_actions"])
        action = rng.choice(views[seat]["legal_actions"])  # type: ignore[index]
        last = (tokens[seat], action, f"move-{step}")
        response = post_action(client, game_id, tokens[seat], action,
                               **{"Idempotency-Key": last[2]})
        assert response.status_code == 200, response.json
    raise AssertionError(f"{game_id} did not end")


def test_a_finished_table_match_runs_the_pipeline_once(client: FlaskClient, runs: Runs,
                                                       ) -> None:
    (ann_id, ann), (bob_id, bob) = new_player(client, "Ann"), new_player(client, "Bob")
    table_id = new_table(client, ann, match_points=3,
                         seats=[{"kind": "player"}, {"kind": "open"}])["table_id"]
    join(client, bob, table_id)
    game_id, tokens = seat_tokens(client, table_id, [ann, bob])
    token, action, key = _play(client, game_id, tokens, random.Random(5))
    assert runs.finished == [game_id]
    assert sorted(runs.histories) == sorted([(ann_id, game_id), (bob_id, game_id)])

    replayed = post_action(client, game_id, token, action, **{"Idempotency-Key": key})
    assert replayed.status_code == 200  # the stored answer, nothing applied again
    assert client.get(f"/v1/tables/{table_id}", headers=bearer(ann)).json[
        "status"] == "finished"  # type: ignore[index]
    assert client.get("/v1/players/me/games", headers=bearer(bob)).status_code == 200
    assert runs.finished == [game_id]
    assert len(runs.histories) == 2


def test_a_finished_tour_match_runs_the_pipeline_once(app: Flask, client: FlaskClient,
                                                      runs: Runs) -> None:
    """The tour's opponent moved here too (no job is enqueued), so every save is counted."""
    player_id, token = new_player(client, "Tess")
    services = app.extensions["sixtysix"]
    player = player_of_token(services.players, token)
    assert player is not None
    game, _ = start(services.games, services.tour, player, token, "chicago", None)
    after_save: Callable[[Game], None] = services.after_save
    rng = random.Random(11)
    while not game.state.over:
        if computer_to_move(game.state, game.meta) is not None:
            moved = play_computer(services.games, game, after_save)
            assert moved is not None
            game = moved
        else:
            game = act(services.games, game, 0, rng.choice(legal_actions(game.state, 0)),
                       after_save=after_save)
    assert runs.finished == [game.game_id]
    assert runs.histories == [(player_id, game.game_id)]

"""The players' results of a game being archived: taken from their Redis histories (where
the standings listed them when the game ended) or, missing there, built from the game; and
removed from Redis once the database holds them: from their histories, and a table's match
from their lists of finished games ("my games"), which the database answers then too. The
archive's sweep asks for them through :class:`api.archive.sweep.ResultsOf`."""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any

from api.games.store import Game
from api.players.history import HistoryStore
from api.players.records import result_row
from api.players.store import PlayerStore, cursor_of, game_member
from api.standings import history_items, player_kinds, seat_players


@dataclass(frozen=True, slots=True)
class Result:
    """One player's result: his Redis history member (the cursor) and database row."""

    player_id: str
    member: str
    row: dict[str, Any]

    @property
    def game_member(self) -> str | None:
        """The member of a table's match in the player's finished games (else ``None``)."""
        started = self.row["started_at"]
        return None if started is None else game_member(started, self.row["game_id"])


@dataclass(frozen=True, slots=True)
class PlayerResults:
    history: HistoryStore
    players: PlayerStore

    def of(self, game: Game) -> list[Result]:
        """The ``player_results`` rows of a finished game, one per seated player."""
        ids = seat_players(game.meta) or []
        out: list[Result] = []
        built: dict[str, dict[str, Any]] | None = None
        now_ms = int(time.time() * 1000)
        table = game.meta.get("table")
        started = None if table is None else table["started_ms"]
        for player_id in dict.fromkeys(i for i in ids if i is not None):
            found = self.history.pending(player_id, game.game_id)
            if found is None:  # the standings' step failed, or the history was removed
                if built is None:
                    built = history_items(game, ids, player_kinds(self.players, ids), now_ms)
                found = game_member(now_ms, game.game_id), built[player_id]
            member, item = found
            out.append(Result(player_id, member, result_row(
                player_id, cursor_of(member)[0], item, started, archived=True)))
        return out

    def forget(self, results: list[Result]) -> None:
        """Remove the results from the players' Redis histories and finished games (the
        database has them)."""
        for result in results:
            self.history.forget(result.player_id, result.member)
            if result.game_member is not None:
                self.players.forget_game(result.player_id, "finished", result.game_member)

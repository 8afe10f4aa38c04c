"""Every worked case of RULES-1001 §10 (``tests/engine/tausendeins/test_worked_cases.py``)
through HTTP, as :mod:`tests.api.worked_over_http` plays them: the same 200s, the same 409
reasons, the same final views. Case 13 starts two of its games from totals set by hand, which
no request can set; those two are not played over HTTP, and no other game is left out."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
import redis

import engine.tausendeins
import tests.engine.tausendeins.helpers as helpers
import tests.engine.tausendeins.test_worked_cases as cases
from api.runtime.redis_server import EmbeddedRedis
from tests.api.worked_over_http import Described, cases_of, play_recorded, record

#: The worked-case tests with games set up by hand, and how many.
SET_UP_BY_HAND = {"test_case_13_totals_and_the_end_of_the_game": 2}


def _described(options: Mapping[str, object], cards: Sequence[str]) -> Described:
    return "tausendeins", dict(options), list(cards), helpers.D  # helpers.game: seat 1 deals


@pytest.mark.parametrize(("name", "kwargs"), cases_of(cases))
def test_every_worked_case_plays_the_same_over_http(
        redis_server: EmbeddedRedis, redis_client: redis.Redis,
        monkeypatch: pytest.MonkeyPatch, name: str, kwargs: dict[str, Any]) -> None:
    games = record(monkeypatch, cases, name, kwargs, factory="game",
                   factory_homes=[helpers, cases], describe=_described,
                   apply_homes=[engine.tausendeins, helpers])
    play_recorded(redis_server.url, games, SET_UP_BY_HAND.get(name, 0))


def test_the_cases_are_all_here() -> None:
    numbers = {p.values[0].split("_")[2] for p in cases_of(cases)}
    assert numbers == {f"{n:02d}" for n in range(1, 19)}

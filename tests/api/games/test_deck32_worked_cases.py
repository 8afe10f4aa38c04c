"""Every worked case of the 32-card game (RULES-32 §7, ``tests/engine/test_deck32.py``)
through HTTP, as :mod:`tests.api.worked_over_http` plays them: the same 200s, the same 409
reasons, the same final views of every seat."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import pytest
import redis

import tests.engine.helpers as helpers
import tests.engine.test_deck32 as cases
from api.runtime.redis_server import EmbeddedRedis
from engine import Settings
from tests.api.worked_over_http import Described, cases_of, play_recorded, record


def _described(deck: Sequence[str], variant: str = "sixty-six",
               options: Mapping[str, object] | None = None, *, dealer: int = 0,
               settings: Settings | None = None, more: Sequence[Sequence[str]] = ()
               ) -> Described:
    """What :func:`tests.engine.helpers.start` deals; a game with table settings or later
    decks could not be made the same over HTTP, so none may be recorded."""
    assert settings is None and not more, "a worked case that HTTP cannot deal the same"
    return variant, dict(options or {}), list(deck), dealer


@pytest.mark.parametrize(("name", "kwargs"), cases_of(cases))
def test_every_worked_case_plays_the_same_over_http(
        redis_server: EmbeddedRedis, redis_client: redis.Redis,
        monkeypatch: pytest.MonkeyPatch, name: str, kwargs: dict[str, Any]) -> None:
    games = record(monkeypatch, cases, name, kwargs, factory="start",
                   factory_homes=[helpers, cases], describe=_described,
                   apply_homes=[helpers, cases])
    play_recorded(redis_server.url, games)


def test_the_cases_are_all_here() -> None:
    numbers = {int(p.values[0].split("_")[2]) for p in cases_of(cases)}
    assert numbers == set(range(1, 11))

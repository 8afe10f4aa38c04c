"""``sixtysix play --deck 32`` against a served URL: a whole 32-card match by typed input."""

from __future__ import annotations

import io
import re

import pytest
import redis

from api.cli import main

SEVENS_AND_EIGHTS = re.compile(r"\b[78][CSHD]\b")


def test_a_whole_32_card_match_by_typed_choices(
        live_url: str, redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    # always the first choice (more lines than any 3-point match asks for)
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 2000))
    assert main(["play", "--url", live_url, "--deck", "32", "--match-points", "3",
                 "--level", "random", "--name", "Ann"]) == 0
    out = capsys.readouterr().out
    assert re.search(r"· talon: 20 cards(, closed by .*)?$", out, re.M)  # before any draw
    assert SEVENS_AND_EIGHTS.search(out)
    assert re.search(r"^\*\*\* .* won the match \d+:\d+\. \*\*\*$", out, re.M)


def test_deck_32_is_refused_where_it_does_not_apply(
        capsys: pytest.CaptureFixture[str]) -> None:
    for variant in ("schnapsen", "tausendeins"):
        assert main(["play", "--variant", variant, "--deck", "32"]) == 2
        assert "--deck is an option of sixty-six, three-hand, four-hand only" in \
            capsys.readouterr().err

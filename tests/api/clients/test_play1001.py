"""``sixtysix play --variant tausendeins`` against a served URL: a whole game by scripted input."""

from __future__ import annotations

import io
import re

import pytest
import redis

from api.cli import main
from api.clients.client import SixtySixClient
from api.clients.play import play_against_computer

#: The musik deal to a low target: the auction, the musik, the discard and the raise all come
#: up, and the game ends within a few deals.
RULES = {"target_points": 100, "contract_deal": "musik"}


def test_a_whole_game_of_tausendeins_with_typed_commands(
        limited_url: str, redis_client: redis.Redis) -> None:
    """With the shipped rate limits and worker model, as a user gets them."""
    lines: list[str] = []
    typed: list[str] = []

    def ask(prompt: str) -> str:
        """Pass in every auction, take musik 2, discard the example pair, else the first
        choice; first an answer that is not a choice, then a hint."""
        assert "bid N" in prompt and "hint" in prompt
        said = "\n".join(lines).splitlines()
        hand = max(i for i, x in enumerate(said) if x.startswith("Your hand: "))
        listing = said[hand + 1:]
        example = [re.search(r"\(e\.g\. discard (\S+ \S+)\)$", x) for x in listing]
        if len(typed) < 2:
            answer = ("what?", "hint")[len(typed)]
        elif any(example):
            answer = f"discard {next(e for e in example if e)[1].lower()}"
        elif any(re.fullmatch(r"  \d+\) pass", x) for x in listing):
            answer = "pass"
        elif "  2) take_musik:2" in listing:
            answer = "musik 2"
        else:
            answer = "1"
        typed.append(answer)
        return answer

    with SixtySixClient(limited_url) as client:
        code = play_against_computer(client, "tausendeins", "random", None, "Ann", ask,
                                     lines.append, rules=RULES)
    out = "\n".join(lines)
    assert code == 0
    assert "Not a choice: 'what?'" in out
    assert re.search(r"^Hint \(strong computer\): \S+", out, re.M)
    assert "  mean deal margin (your points minus the other's): " in out
    assert "marked as hinted for you" in out
    assert re.search(r"^— Deal 1: .* deals?; 2 musiks of 2; no trump until a marriage is "
                     r"melded\.$", out, re.M)
    them = r"Computer \(random\)"
    assert re.search(rf"^Game to 100: You -?\d+ \(\d+ to go\) · {them} -?\d+ \(\d+ to go\)$",
                     out, re.M)
    assert "Trump: none (no marriage yet)" in out
    assert re.search(rf"^(You bid|{them} bids) 100 \(the compulsory opening bid\)\.$", out, re.M)
    assert re.search(rf"^(You play|{them} plays) a contract of \d+\.$", out, re.M)
    assert re.search(rf"^(You take|{them} takes) musik [12]", out, re.M)
    assert re.search(rf"^Deal \d+ over: the contract \d+ of (You|{them}) (made|failed)", out,
                     re.M)
    assert re.search(r"^  You: cards \d+.* = \d+; [+-]\d+ → -?\d+ \(\d+ to go\)$", out, re.M)
    assert re.fullmatch(rf"\*\*\* (You|{them}) won the game -?\d+:-?\d+\. \*\*\*", lines[-1])
    assert sum(1 for x in lines if "won the game" in x) == 1
    assert "musik 2" in typed or "pass" in typed


def test_main_plays_tausendeins_against_a_url_and_quits(
        live_url: str, redis_client: redis.Redis, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("q\n"))
    assert main(["play", "--url", live_url, "--variant", "tausendeins",
                 "--target-points", "300"]) == 1
    out = capsys.readouterr().out
    assert "Game to 300: You 0 (300 to go)" in out
    assert re.search(r"^Your choice .*musik N.*: ", out, re.M)

"""A client that openapi-python-client (the test extra's pin) writes from the OpenAPI document
plays a whole match of every game, as a client author's bot would: the bot in seat 0, random
computers in the others, with the shipped rate limits on. Every answer's body is also checked
against the document's schema of its operation and status (JSON Schema 2020-12), so the
document names every member the server sends."""

from __future__ import annotations

import importlib
import json
import re
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from types import ModuleType
from typing import Any

import httpx
import pytest
import redis

from tests.api.http.document import DOCUMENT, METHODS, escape, validator

#: The generated package's name (the test's own, so it never meets another import).
PACKAGE = "sixtysix_generated_client"
#: No post hooks: the generator's default runs ruff on its output, which only formats it.
CONFIG = "post_hooks: []\n"
#: Seconds a long poll waits at most for the computers (the API's bound is 30).
WAIT = 10
#: Requests a match may take at most: a bound that stops a bot going round in circles.
MOST_REQUESTS = 2000


def generate(tmp: Path) -> subprocess.CompletedProcess[str]:
    """Run openapi-python-client on the code's document into ``tmp/PACKAGE``."""
    (tmp / "openapi.json").write_text(json.dumps(DOCUMENT), encoding="utf-8")
    (tmp / "config.yaml").write_text(CONFIG, encoding="utf-8")
    return subprocess.run(
        [sys.executable, "-m", "openapi_python_client", "generate", "--path", "openapi.json",
         "--config", "config.yaml", "--meta", "none", "--output-path", PACKAGE],
        cwd=tmp, capture_output=True, text=True, timeout=300, check=False)


@pytest.fixture(scope="module")
def client_package(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ModuleType]:
    """The generated client, written without a warning and imported."""
    tmp = tmp_path_factory.mktemp("generated")
    done = generate(tmp)
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    assert "Warning" not in out and "Unable" not in out, out
    sys.path.insert(0, str(tmp))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(tmp))
        for name in [n for n in sys.modules if n == PACKAGE or n.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def _operations() -> list[tuple[str, re.Pattern[str], dict[str, Any]]]:
    """(method, path pattern, its pointer) of every operation of the document."""
    found = []
    for path, item in DOCUMENT["paths"].items():
        pattern = re.compile("^" + re.sub(r"\\\{[^}]+\\\}", "[^/]+", re.escape(path)) + "$")
        for method in item:
            if method in METHODS:
                found.append((method, pattern, {"at": f"#/paths/{escape(path)}/{method}",
                                                "operation": item[method]}))
    return found


OPERATIONS = _operations()


@dataclass
class Checked:
    """The answers seen (method, path, status) and the members the document does not allow."""

    seen: list[tuple[str, str, int]] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)

    def __call__(self, response: httpx.Response) -> None:
        """An httpx response hook: check the body against the document's schema."""
        response.read()
        method, path = response.request.method.lower(), response.request.url.path
        self.seen.append((method, path, response.status_code))
        at, operation = next((o["at"], o["operation"]) for m, pattern, o in OPERATIONS
                             if m == method and pattern.match(path))
        status = str(response.status_code)
        assert status in operation["responses"], f"{method} {path}: {status} undocumented"
        answer = operation["responses"][status]
        where = f"{at}/responses/{status}"
        if "$ref" in answer:
            where = answer["$ref"]
            answer = DOCUMENT["components"]["responses"][where.rsplit("/", 1)[1]]
        media = response.headers.get("Content-Type", "").split(";")[0]
        if not response.content:
            return
        assert media in answer.get("content", {}), f"{method} {path} {status}: {media}"
        schema_at = f"{where}/content/{escape(media)}/schema"
        self.problems += [f"{method} {path} {status}: {'/'.join(map(str, e.absolute_path))}: "
                          f"{e.message}" for e in validator(schema_at).iter_errors(response.json())]


def _retry_after(response: Any) -> float | None:
    """Seconds a 429 or a 503 with ``Retry-After`` asks to wait; None for any other answer."""
    if response.status_code in (429, 503) and "Retry-After" in response.headers:
        return float(response.headers["Retry-After"])
    return None


def _call(endpoint: Any, **kwargs: Any) -> Any:
    """``endpoint.sync_detailed(**kwargs)``, sent again after Retry-After when asked to."""
    for _ in range(20):
        response = endpoint.sync_detailed(**kwargs)
        pause = _retry_after(response)
        if pause is None:
            return response
        time.sleep(pause)
    raise AssertionError(f"still refused: {response.status_code} {response.content!r}")


def _choice(legal: list[Any]) -> Any:
    """Pass in a Tausendeins auction (the other side's contract: the bot's card points bring
    it to the target in a few deals, where its own failed contracts could sink it), else the
    first legal action."""
    return next((a for a in legal if a.type_ == "pass"), legal[0])


def play_match(package: ModuleType, url: str, checked: Checked, variant: str,
               rules: dict[str, Any], seats: int) -> Any:
    """A whole match of ``variant`` by the generated client, the bot in seat 0 choosing by
    :func:`_choice` (a match may end in a hand the bot sits out, so seat 1 deals first): its
    last view."""
    models = importlib.import_module(f"{PACKAGE}.models")
    create_game, get_game, post_action = (importlib.import_module(f"{PACKAGE}.api.{name}")
                                          for name in ("games.create_game", "games.get_game",
                                                       "actions.post_action"))
    hooks = {"event_hooks": {"response": [checked]}}
    anonymous = package.Client(base_url=url, httpx_args=hooks, raise_on_unexpected_status=True)
    body = models.CreateGame.from_dict({  # seat 1 deals first: the bot plays the first hand
        "variant": variant, "rules": rules, "first_dealer": 1,
        "seats": [{"kind": "human", "name": "bot"},
                  *({"kind": "computer", "level": "random"} for _ in range(seats - 1))]})
    created = _call(create_game, client=anonymous, body=body)
    assert created.status_code == 201, created.content
    game = created.parsed
    assert isinstance(game, models.CreatedGame) and game.seats[0].token
    seat = package.AuthenticatedClient(base_url=url, token=game.seats[0].token,
                                       httpx_args=hooks, raise_on_unexpected_status=True)
    view = _call(get_game, game_id=game.game_id, client=seat).parsed
    for _ in range(MOST_REQUESTS):
        assert isinstance(view, models.GameView), view
        if view.status in ("match_over", "aborted"):
            return view
        if view.legal_actions:
            action = models.Action.from_dict(_choice(view.legal_actions).to_dict())
            answer = _call(post_action, game_id=game.game_id, client=seat, body=action,
                           if_match=f'"{view.version}"')
            if answer.status_code in (409, 412):  # the game changed meanwhile: reload
                answer = _call(get_game, game_id=game.game_id, client=seat)
        else:
            answer = _call(get_game, game_id=game.game_id, client=seat,
                           after_version=view.version, wait=WAIT)
        assert answer.status_code == 200, answer.content
        view = answer.parsed
    raise AssertionError(f"no end after {MOST_REQUESTS} requests: {view}")


#: Every game: (variant, rule options, seats).
GAMES = [
    ("sixty-six", {"match_points": 3}, 2),
    ("sixty-six", {"match_points": 3, "deck": 32}, 2),
    ("schnapsen", {"match_points": 3}, 2),
    ("three-hand", {"match_points": 3}, 3),
    ("four-hand", {"match_points": 3}, 4),
    ("tausendeins", {"target_points": 100}, 2),
]


@pytest.mark.parametrize(("variant", "rules", "seats"), GAMES,
                         ids=[f"{v}-{r.get('deck', 24)}" for v, r, _ in GAMES])
def test_the_generated_client_plays_a_whole_match(
        client_package: ModuleType, limited_url: str, redis_client: redis.Redis,
        variant: str, rules: dict[str, Any], seats: int) -> None:
    """With the shipped rate limits (limited_url)."""
    checked = Checked()
    view = play_match(client_package, limited_url, checked, variant, rules, seats)
    assert view.status == "match_over" and view.variant == variant
    if variant == "tausendeins":
        assert view.winner in (0, 1) and max(view.totals) >= 100
        assert any(isinstance(t.trick_no, int) for t in view.tricks)
    else:
        assert view.match.winner in range(seats) and max(view.match.points) >= 3
    actions = [s for m, p, s in checked.seen if p.endswith("/actions")]
    assert len(actions) >= 2 and set(actions) <= {200, 409, 412}
    assert checked.problems == []


def test_an_answer_the_document_does_not_allow_is_reported() -> None:
    checked = Checked()
    request = httpx.Request("GET", "http://testserver/v1/games/q3V9k2xR0aLmT7wZ")
    body = {"game_id": "q3V9k2xR0aLmT7wZ", "version": "1", "dealt_by": 1}
    checked(httpx.Response(200, json=body, request=request))
    assert checked.seen == [("get", "/v1/games/q3V9k2xR0aLmT7wZ", 200)]
    assert len(checked.problems) == 2 and "'dealt_by' was unexpected" in checked.problems[0]

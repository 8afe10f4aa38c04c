"""The one text policy (:mod:`api.text_policy`) on every path a name or a text enters: seat
names of ``POST /v1/games`` (its quick body parser and its schema), player names, chat; its
tables agree with Python's Unicode data; the terminal shows stored text as what it holds."""

from __future__ import annotations

import sys
import unicodedata

import pytest
from flask.testing import FlaskClient

from api.clients.terminal import render_chat, table_names
from api.http.schemas import CreateGameSchema
from api.text_policy import (
    FILLERS,
    REFUSED_CATEGORIES,
    REFUSED_RANGES,
    SPACES,
    UNICODE_VERSION,
    invisible,
    shown,
)
from tests.api.helpers import assert_problem, bearer, create
from tests.api.live.test_chat import chat, events

#: What the attack on seat names sent, and more of the same kind.
REFUSED_NAMES = [
    ("a\x00b", "character 2 is a control character (U+0000)"),
    ("a\x1b[2J", "character 2 is a control character (U+001B)"),
    ("two\nlines", "character 4 is a control character (U+000A)"),
    ("Ann\n", "character 4 is a control character (U+000A)"),
    ("a\u2028b", "character 2 is a line separator (U+2028)"),
    ("Ann\u202eboB", "character 4 is a bidirectional control (U+202E)"),
    ("An\u200dn", "character 3 is a format character (U+200D)"),
    ("Ann\u3164", "character 4 is an invisible filler (U+3164)"),
    ("\u2800", "character 1 is an invisible filler (U+2800)"),
    ("\ufeffAnn", "character 1 is a format character (U+FEFF)"),
    ("Ann\U000e0041", "character 4 is a format character (U+E0041)"),
    (" \u3000 ", "must not be empty"),
    ("x" * 41, "must be at most 40 characters; got 41"),
]


@pytest.mark.parametrize(("name", "reason"), REFUSED_NAMES)
def test_a_seat_name_breaking_the_policy_is_a_422_naming_the_seat_and_why(
        client: FlaskClient, name: str, reason: str) -> None:
    body = {"seats": [{"kind": "human", "name": "Bob"}, {"kind": "human", "name": name}]}
    assert CreateGameSchema.quick_load(body) is None  # the schema says why
    problem = assert_problem(client.post("/v1/games", json=body), 422, "validation-error")
    assert list(problem["errors"]) == ["seats.1.name"]
    assert reason in problem["errors"]["seats.1.name"][0]
    assert reason in problem["detail"]


def test_a_seat_name_is_normalised_and_trimmed_and_chat_carries_it(client: FlaskClient) -> None:
    created = create(client, seats=[{"kind": "human", "name": "\u00a0Zoe\u0308  "},
                                    {"kind": "human", "name": "Bob"}])
    assert [s["name"] for s in created["seats"]] == ["Zoë", "Bob"]
    game_id, token = created["game_id"], created["seats"][0]["token"]
    assert chat(client, game_id, token, "hello").status_code == 201
    said = [e for e in events(client, game_id)["events"] if e["type"] == "chat"]
    assert [(e["name"], e["text"]) for e in said] == [("Zoë", "hello")]


def test_a_plain_seat_name_takes_the_quick_path_as_it_is() -> None:
    body = {"seats": [{"kind": "human", "name": "Zoë Müller"}, {"kind": "computer"}]}
    assert CreateGameSchema.quick_load(body) == CreateGameSchema().load(body)


@pytest.mark.parametrize(("name", "reason"), REFUSED_NAMES[:-2])
def test_a_player_name_breaking_the_policy_is_a_422_saying_why(client: FlaskClient, name: str,
                                                               reason: str) -> None:
    problem = assert_problem(client.post("/v1/players", json={"name": f"{name}xyz"[:20]}),
                             422, "validation-error")
    assert list(problem["errors"]) == ["name"]


def test_chat_text_keeps_the_same_policy(client: FlaskClient) -> None:
    created = create(client, seats=[{"kind": "human"}, {"kind": "human"}])
    token = created["seats"][0]["token"]
    for text, reason in REFUSED_NAMES[:-1]:
        refused = chat(client, created["game_id"], token, text)
        assert reason in assert_problem(refused, 422, "validation-error")["errors"]["text"][0]
    response = client.post(f"/v1/games/{created['game_id']}/chat", json={"text": " hi\u3000"},
                           headers=bearer(token))
    assert response.json is not None and response.json["text"] == "hi"


def test_the_tables_are_python_s_unicode_data() -> None:
    assert unicodedata.unidata_version == UNICODE_VERSION
    spaces = "".join(c for c in map(chr, range(sys.maxunicode + 1))
                     if unicodedata.category(c) == "Zs")
    assert spaces == SPACES
    refused = {c for c in range(sys.maxunicode + 1)
               if unicodedata.category(chr(c)) in REFUSED_CATEGORIES}
    assert refused == {c for low, high in REFUSED_RANGES for c in range(low, high + 1)}
    assert all(unicodedata.category(c) not in REFUSED_CATEGORIES for c in FILLERS)


def test_the_terminal_shows_a_stored_name_and_text_as_what_they_hold() -> None:
    seats = [{"seat": 0, "kind": "human", "name": "Ann"},
             {"seat": 1, "kind": "human", "name": "a\x1b[2J\u202e"}]
    names = table_names(seats, 0)
    assert names == {1: "a\\u001b[2J\\u202e"}
    line = render_chat({"seat": 1, "text": "wipe\x1b[2J\u3164"}, 0, names)
    assert line == "[a\\u001b[2J\\u202e] wipe\\u001b[2J\\u3164"
    assert all(invisible(c) is None for c in line)
    assert shown("Zoë 🂡") == "Zoë 🂡"

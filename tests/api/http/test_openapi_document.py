"""The OpenAPI document holds up for the tools that read it: every example is valid against
its own schema (JSON Schema 2020-12, as OpenAPI 3.1 uses), descriptions are CommonMark, and
the places it sends a reader to exist. (Redocly's linter and the client generators run in
test_openapi_tools.py and tests/api/clients/test_generated_client.py.)"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from api.http.openapi_docs import markdown
from tests.api.http.document import DOCUMENT, METHODS, ROOT, escape, every_example, validator


def invalid_examples(document: dict[str, Any]) -> list[str]:
    """Each example of ``document`` that its schema refuses: where, and why."""
    problems = []
    for where, schema_at, example in every_example(document):
        problems += [f"{where}: {'/'.join(map(str, e.absolute_path))}: {e.message}"
                     for e in validator(schema_at, document).iter_errors(example)]
    return problems


def test_every_example_is_valid_against_its_own_schema() -> None:
    places = [where for where, _, _ in every_example(DOCUMENT)]
    for kind in ("/requestBody/", "/responses/", "/parameters/", "#/components/headers/",
                 "#/components/schemas/"):
        assert any(kind in where for where in places), kind
    assert len(places) > 150
    assert invalid_examples(DOCUMENT) == []


def test_an_example_its_schema_refuses_is_reported() -> None:
    broken = json.loads(json.dumps(DOCUMENT))
    problem = broken["components"]["responses"]["TooManyGames"]["content"][
        "application/problem+json"]["examples"]["too_many_games"]["value"]
    problem["max_open_games"] = 1  # no such member
    problem["status"] = "403"  # a string
    view = broken["paths"]["/v1/games/{game_id}"]["get"]["responses"]["200"]["content"][
        "application/json"]["examples"]["tausendeins_settled"]["value"]
    view["tricks"][0]["cards"][0] = {"card": "KC"}  # neither kind of trick
    broken["components"]["parameters"]["LastEventId"]["example"] = -1
    found = invalid_examples(broken)
    assert len(found) == 4, found
    assert any("too_many_games/value: : Additional properties" in f and "max_open_games" in f
               for f in found), found
    assert any("tausendeins_settled/value: tricks/0" in f for f in found), found
    assert any(f.startswith("#/components/parameters/LastEventId/example") for f in found)


def _texts(node: Any, at: str = "#") -> Iterator[tuple[str, str]]:
    """(where, text) of every description and summary in ``node``."""
    if isinstance(node, dict):
        for key, value in node.items():
            if key in ("description", "summary") and isinstance(value, str):
                yield f"{at}/{key}", value
            else:
                yield from _texts(value, f"{at}/{escape(key)}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _texts(value, f"{at}/{i}")


def test_descriptions_use_markdown_code_spans_not_restructuredtext_literals() -> None:
    literal = [where for where, text in _texts(DOCUMENT) if "``" in text]
    assert literal == []
    spans = [text for _, text in _texts(DOCUMENT) if re.search(r"`[^`]+`", text)]
    assert len(spans) > 30  # the docstrings' literals are there, as code spans
    assert markdown("send ``If-Match: \"3\"`` or ``*``") == 'send `If-Match: "3"` or `*`'


def test_the_pages_and_sections_the_document_names_exist() -> None:
    named = [(where, page, section) for where, text in _texts(DOCUMENT)
             for page, section in re.findall(r"(README|docs/[\w-]+\.md), \"([^\"]+)\"",
                                             re.sub(r"\s+", " ", text))]
    assert named, "the document names no section (the test looks for: page, \"Section\")"
    for where, page, section in named:
        path = ROOT / ("README.md" if page == "README" else page)
        headings = re.findall(r"^#+ (.+)$", path.read_text(encoding="utf-8"), re.MULTILINE)
        assert section in headings, f"{where}: {page} has no section {section!r}"


def test_every_operation_states_its_security_an_empty_list_when_public() -> None:
    schemes = set(DOCUMENT["components"]["securitySchemes"])
    operations = {f"{method} {path}": operation for path, item in DOCUMENT["paths"].items()
                  for method, operation in item.items() if method in METHODS}
    assert len(operations) > 25
    assert [name for name, operation in operations.items() if "security" not in operation] == []
    assert all(set(alternative) <= schemes for operation in operations.values()
               for alternative in operation["security"])
    assert operations["get /v1/rules"]["security"] == []
    assert operations["post /v1/games/{game_id}/actions"]["security"] == [{"seatToken": []}]


def test_the_document_names_its_server_and_only_used_schemas() -> None:
    assert DOCUMENT["servers"] == [{"url": "/", "description": "The server this document is "
                                                               "served by"}]
    text = json.dumps(DOCUMENT)
    unused = [name for name in DOCUMENT["components"]["schemas"]
              if f'"#/components/schemas/{name}"' not in text]
    assert unused == []

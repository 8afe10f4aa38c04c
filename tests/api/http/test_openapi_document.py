"""The OpenAPI document holds up for the tools that read it: every example is valid against
its own schema (JSON Schema 2020-12, as OpenAPI 3.1 uses), descriptions are CommonMark, and
the places it sends a reader to exist. (Redocly's linter and the client generators run in
test_openapi_tools.py and tests/api/clients/test_generated_client.py.)"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from api.http.openapi_check import SPEC_PATH, generated
from api.http.openapi_docs import markdown

DOCUMENT: dict[str, Any] = json.loads(generated())
ROOT = SPEC_PATH.parents[1]
_BASE = "urn:sixtysix:openapi"
#: Schema keywords whose value is a schema, and those whose value is a list or map of them.
_SUBSCHEMA = ("items", "additionalProperties", "not", "contains", "propertyNames", "if",
              "then", "else", "unevaluatedItems", "unevaluatedProperties")
_SCHEMA_LISTS = ("anyOf", "allOf", "oneOf", "prefixItems")
_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "dependentSchemas")


def _escape(key: str | int) -> str:
    return str(key).replace("~", "~0").replace("/", "~1")


def _schema_examples(schema: Any, at: str) -> Iterator[tuple[str, str, Any]]:
    """(where, schema pointer, example) of ``schema`` at ``at`` and of its subschemas."""
    if not isinstance(schema, dict):
        return
    if "example" in schema:
        yield f"{at}/example", at, schema["example"]
    for i, example in enumerate(schema.get("examples", [])):
        yield f"{at}/examples/{i}", at, example
    for key in _SUBSCHEMA:
        yield from _schema_examples(schema.get(key), f"{at}/{key}")
    for key in _SCHEMA_LISTS:
        for i, sub in enumerate(schema.get(key, [])):
            yield from _schema_examples(sub, f"{at}/{key}/{i}")
    for key in _SCHEMA_MAPS:
        for name, sub in schema.get(key, {}).items():
            yield from _schema_examples(sub, f"{at}/{key}/{_escape(name)}")


def _carrier_examples(carrier: Any, at: str) -> Iterator[tuple[str, str, Any]]:
    """The examples of a parameter, header or media type object at ``at`` (the ``example``
    or each of ``examples``' values next to its ``schema``), and those in the schema."""
    if not isinstance(carrier, dict) or "$ref" in carrier:
        return
    if "schema" in carrier:
        schema_at = f"{at}/schema"
        if "example" in carrier:
            yield f"{at}/example", schema_at, carrier["example"]
        for name, example in carrier.get("examples", {}).items():
            assert "value" in example, f"{at}/examples/{name} has no value"
            yield f"{at}/examples/{_escape(name)}/value", schema_at, example["value"]
        yield from _schema_examples(carrier["schema"], schema_at)
    for kind in ("content", "headers"):
        for name, inner in carrier.get(kind, {}).items():
            yield from _carrier_examples(inner, f"{at}/{kind}/{_escape(name)}")


def _response_and_body_examples(operation: dict[str, Any], at: str
                                ) -> Iterator[tuple[str, str, Any]]:
    for i, parameter in enumerate(operation.get("parameters", [])):
        yield from _carrier_examples(parameter, f"{at}/parameters/{i}")
    if "requestBody" in operation:
        yield from _carrier_examples(operation["requestBody"], f"{at}/requestBody")
    for status, response in operation.get("responses", {}).items():
        yield from _carrier_examples(response, f"{at}/responses/{_escape(status)}")


def every_example(document: dict[str, Any]) -> Iterator[tuple[str, str, Any]]:
    """(where, pointer of its schema, example) of every example ``document`` holds: request
    bodies, responses, parameters, headers, and the schemas' own, components included."""
    for path, item in document.get("paths", {}).items():
        for i, parameter in enumerate(item.get("parameters", [])):
            yield from _carrier_examples(parameter, f"#/paths/{_escape(path)}/parameters/{i}")
        for method, operation in item.items():
            if isinstance(operation, dict) and method != "parameters":
                yield from _response_and_body_examples(
                    operation, f"#/paths/{_escape(path)}/{method}")
    components = document.get("components", {})
    for kind in ("parameters", "headers", "responses", "requestBodies"):
        for name, carrier in components.get(kind, {}).items():
            yield from _carrier_examples(carrier, f"#/components/{kind}/{_escape(name)}")
    for name, schema in components.get("schemas", {}).items():
        yield from _schema_examples(schema, f"#/components/schemas/{_escape(name)}")
    assert not components.get("examples"), "components.examples: check them here too"


def invalid_examples(document: dict[str, Any]) -> list[str]:
    """Each example of ``document`` that its schema refuses: where, and why."""
    registry: Registry[Any] = Registry().with_resource(_BASE, DRAFT202012.create_resource(document))
    problems = []
    for where, schema_at, example in every_example(document):
        validator = Draft202012Validator({"$ref": _BASE + schema_at}, registry=registry)
        problems += [f"{where}: {'/'.join(map(str, e.absolute_path))}: {e.message}"
                     for e in validator.iter_errors(example)]
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
                yield from _texts(value, f"{at}/{_escape(key)}")
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
                  for method, operation in item.items() if method in _METHODS}
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

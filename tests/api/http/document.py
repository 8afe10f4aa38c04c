"""The OpenAPI document as the code generates it, and a walk over its examples (the
document's tests and the tools' tests share them)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from jsonschema import Draft202012Validator
from referencing import Registry
from referencing.jsonschema import DRAFT202012

from api.http.openapi_check import SPEC_PATH, generated

#: The document the code generates (another test keeps openapi/openapi.json equal to it).
DOCUMENT: dict[str, Any] = json.loads(generated())
#: The repository's root.
ROOT = SPEC_PATH.parents[1]
#: Schema keywords whose value is a schema, and those whose value is a list or map of them.
_SUBSCHEMA = ("items", "additionalProperties", "not", "contains", "propertyNames", "if",
              "then", "else", "unevaluatedItems", "unevaluatedProperties")
_SCHEMA_LISTS = ("anyOf", "allOf", "oneOf", "prefixItems")
METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")
_SCHEMA_MAPS = ("properties", "patternProperties", "$defs", "dependentSchemas")


def escape(key: str | int) -> str:
    """``key`` as a JSON pointer's reference token."""
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
            yield from _schema_examples(sub, f"{at}/{key}/{escape(name)}")


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
            yield f"{at}/examples/{escape(name)}/value", schema_at, example["value"]
        yield from _schema_examples(carrier["schema"], schema_at)
    for kind in ("content", "headers"):
        for name, inner in carrier.get(kind, {}).items():
            yield from _carrier_examples(inner, f"{at}/{kind}/{escape(name)}")


def _response_and_body_examples(operation: dict[str, Any], at: str
                                ) -> Iterator[tuple[str, str, Any]]:
    for i, parameter in enumerate(operation.get("parameters", [])):
        yield from _carrier_examples(parameter, f"{at}/parameters/{i}")
    if "requestBody" in operation:
        yield from _carrier_examples(operation["requestBody"], f"{at}/requestBody")
    for status, response in operation.get("responses", {}).items():
        yield from _carrier_examples(response, f"{at}/responses/{escape(status)}")


def every_example(document: dict[str, Any]) -> Iterator[tuple[str, str, Any]]:
    """(where, pointer of its schema, example) of every example ``document`` holds: request
    bodies, responses, parameters, headers, and the schemas' own, components included."""
    for path, item in document.get("paths", {}).items():
        for i, parameter in enumerate(item.get("parameters", [])):
            yield from _carrier_examples(parameter, f"#/paths/{escape(path)}/parameters/{i}")
        for method, operation in item.items():
            if isinstance(operation, dict) and method != "parameters":
                yield from _response_and_body_examples(
                    operation, f"#/paths/{escape(path)}/{method}")
    components = document.get("components", {})
    for kind in ("parameters", "headers", "responses", "requestBodies"):
        for name, carrier in components.get(kind, {}).items():
            yield from _carrier_examples(carrier, f"#/components/{kind}/{escape(name)}")
    for name, schema in components.get("schemas", {}).items():
        yield from _schema_examples(schema, f"#/components/schemas/{escape(name)}")
    assert not components.get("examples"), "components.examples: check them here too"


_BASE = "urn:sixtysix:openapi"


def validator(schema_at: str, document: dict[str, Any] | None = None) -> Draft202012Validator:
    """A JSON Schema 2020-12 validator (OpenAPI 3.1's dialect) of the schema at JSON pointer
    ``schema_at`` of ``document`` (default :data:`DOCUMENT`), its references resolved."""
    resource = DRAFT202012.create_resource(DOCUMENT if document is None else document)
    registry: Registry[Any] = Registry().with_resource(_BASE, resource)
    return Draft202012Validator({"$ref": _BASE + schema_at}, registry=registry)

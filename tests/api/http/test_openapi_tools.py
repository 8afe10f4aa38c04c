"""The npm tools of tools/openapi (pinned by its package-lock.json, installed by ``npm ci
--prefix tools/openapi``) on the OpenAPI document: Redocly's linter with its recommended rules,
warnings as errors, on openapi/openapi.json (its ignore file names paths in it; test_openapi.py
keeps it equal to the code's); openapi-typescript's types of the code's document,
type-checked by tsc with every example of a request body or a response typed as its schema.
The tests install the tools themselves when they are missing and npm is there; without node or
npm they skip, unless ``CI`` is set (``.ci/run`` installs both)."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.api.http.document import DOCUMENT, ROOT, every_example

TOOLS = ROOT / "tools" / "openapi"
#: The environment of the tools: no telemetry, no look-up of a newer version.
QUIET = {**os.environ, "REDOCLY_TELEMETRY": "off", "REDOCLY_SUPPRESS_UPDATE_NOTICE": "true",
         "NO_COLOR": "1"}
#: A bound on each tool's run (seconds), not a performance figure.
TIMEOUT = 300


def tool(name: str) -> Path:
    """The installed tool ``name`` of tools/openapi, installed first by ``npm ci`` from the lock
    when it is missing and npm is there (so the README's test command runs these checks too);
    a skip, or with ``CI`` a failure, when node, npm or the tool is missing."""
    path = TOOLS / "node_modules" / ".bin" / name
    if not path.exists() and shutil.which("node") and shutil.which("npm"):
        run(["npm", "ci", "--no-audit", "--no-fund"], TOOLS)
    reason = None
    if shutil.which("node") is None:
        reason = "node is missing: apt-get install nodejs npm"
    elif not path.exists():
        reason = f"{name} is missing: npm ci --prefix tools/openapi"
    if reason is not None:
        if os.environ.get("CI"):
            pytest.fail(f"CI is set but {reason} (.ci/run does)")
        pytest.skip(reason)
    return path


def run(argv: list[str | Path], cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(a) for a in argv], cwd=cwd, env=QUIET, capture_output=True,
                          text=True, timeout=TIMEOUT, check=False)


def test_redocly_lint_with_the_recommended_rules_finds_nothing() -> None:
    done = run([tool("redocly"), "lint", "--config", "redocly.yaml", "--format", "stylish"],
               TOOLS)
    out = done.stdout + done.stderr
    assert done.returncode == 0, out
    assert "valid" in out and not re.search(r"\b(error|warning)s?\b", out.split("validated")[-1])
    assert "recommended-strict" in (TOOLS / "redocly.yaml").read_text()


def _type_of(schema_at: str) -> str | None:
    """The TypeScript type openapi-typescript gives the schema at JSON pointer ``schema_at``
    (a media type's schema: a request body's, a response's, a response component's); None for
    one it gives no name (a parameter's, a property's)."""
    parts = [p.replace("~1", "/").replace("~0", "~") for p in schema_at[2:].split("/")]
    if parts[0] == "components" and parts[1] == "responses" and parts[-1] == "schema":
        _, _, name, _, media, _ = parts
        return f'components["responses"]["{name}"]["content"]["{media}"]'
    if parts[0] != "paths" or parts[-1] != "schema" or parts[-3] != "content":
        return None
    path, method, media = parts[1], parts[2], parts[-2]
    operation = f'paths["{path}"]["{method}"]'
    if parts[3] == "requestBody":
        return f'NonNullable<{operation}["requestBody"]>["content"]["{media}"]'
    if parts[3] == "responses" and len(parts) == 7:
        return f'{operation}["responses"][{parts[4]}]["content"]["{media}"]'
    return None


def typed_examples() -> str:
    """TypeScript that declares every example of a request body or a response as a constant
    of the type its schema was given: tsc's excess-property and type checks are the test."""
    lines = ['import type { components, paths } from "./sixtysix";', ""]
    for i, (where, schema_at, example) in enumerate(every_example(DOCUMENT)):
        typed = _type_of(schema_at)
        if typed is not None and not isinstance(example, str):
            lines += [f"// {where}", f"export const example{i}: {typed} = "
                      f"{json.dumps(example, ensure_ascii=False)};"]
    return "\n".join(lines) + "\n"


#: A bot's use of the types: create a game, read the view, choose an action.
USE = """import type { components, paths } from "./sixtysix";

type Create = NonNullable<paths["/v1/games"]["post"]["requestBody"]>["content"]["application/json"];
type Created = paths["/v1/games"]["post"]["responses"][201]["content"]["application/json"];
type View = paths["/v1/games/{game_id}"]["get"]["responses"][200]["content"]["application/json"];
type Move = components["schemas"]["ActionOut"];

export const create: Create = {
  variant: "tausendeins",
  seats: [{ kind: "human", name: "bot" }, { kind: "computer", level: "random" }],
};

export function token(created: Created): string | null | undefined {
  return created.seats?.[0]?.token;
}

export function choose(view: View): Move | null {
  return view.legal_actions?.[0] ?? null;
}

export function taken(view: View): string[] {
  return (view.tricks ?? []).flatMap((trick) =>
    "trick_no" in trick ? trick.cards : trick.cards.map((played) => played.card ?? ""));
}
"""


def test_openapi_typescript_types_type_check_with_every_example(tmp_path: Path) -> None:
    # a member with a default may be left out of a request: not required in the types
    (tmp_path / "openapi.json").write_text(json.dumps(DOCUMENT), encoding="utf-8")
    generate = run([tool("openapi-typescript"), "openapi.json", "-o", "sixtysix.d.ts",
                    "--default-non-nullable", "false"], tmp_path)
    assert generate.returncode == 0, generate.stdout + generate.stderr
    examples = typed_examples()
    assert examples.count("export const") > 50
    (tmp_path / "examples.ts").write_text(examples, encoding="utf-8")
    (tmp_path / "use.ts").write_text(USE, encoding="utf-8")
    check = run([tool("tsc"), "--noEmit", "--strict", "--exactOptionalPropertyTypes",
                 "--target", "es2022", "--module", "esnext", "--moduleResolution", "bundler",
                 "sixtysix.d.ts", "examples.ts", "use.ts"], tmp_path)
    assert check.returncode == 0, check.stdout[:5000] + check.stderr


def test_tsc_refuses_an_example_its_type_does_not_allow(tmp_path: Path) -> None:
    (tmp_path / "sixtysix.d.ts").write_text(
        "export interface components { schemas: { Trick: { leader: number; cards: { seat?: "
        "number; card?: string }[]; winner: number } } }\nexport interface paths {}\n")
    (tmp_path / "examples.ts").write_text(
        'import type { components } from "./sixtysix";\nexport const trick: '
        'components["schemas"]["Trick"] = {"leader": 0, "cards": [{"seat": 0}], "trick_no": 1, '
        '"winner": 0};\n')
    check = run([tool("tsc"), "--noEmit", "--strict", "sixtysix.d.ts",
                 "examples.ts"], tmp_path)
    assert check.returncode != 0 and "trick_no" in check.stdout, check.stdout


def test_a_missing_tool_skips_but_fails_with_ci_set(monkeypatch: pytest.MonkeyPatch,
                                                    tmp_path: Path) -> None:
    monkeypatch.setattr(f"{__name__}.TOOLS", tmp_path)
    monkeypatch.delenv("CI", raising=False)
    with pytest.raises(pytest.skip.Exception, match="redocly is missing: npm ci"):
        tool("redocly")
    monkeypatch.setenv("CI", "true")
    with pytest.raises(pytest.fail.Exception, match="CI is set but redocly is missing"):
        tool("redocly")

"""Check that ``openapi/openapi.json`` is the spec the code generates.

``python -m api.http.openapi_check`` exits 1 and prints a unified diff if they differ;
``python -m api.http.openapi_check --write`` regenerates the file. No Redis is needed.
"""

from __future__ import annotations

import argparse
import difflib
import json
import sys
from pathlib import Path
from typing import Final

from api.app import create_app

SPEC_PATH: Final = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"


def generated() -> str:
    """The spec as committed: 2-space indented JSON with sorted keys and a final newline."""
    app = create_app({"REDIS_URL": "redis://localhost:6379/0"})
    spec = app.extensions["sixtysix_api"].spec.to_dict()
    return json.dumps(spec, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m api.http.openapi_check", description=__doc__)
    parser.add_argument("--write", action="store_true", help="regenerate the committed spec")
    parser.add_argument("--path", type=Path, default=SPEC_PATH, help="spec file to check")
    args = parser.parse_args(argv)
    fresh = generated()
    if args.write:
        args.path.parent.mkdir(parents=True, exist_ok=True)
        args.path.write_text(fresh, encoding="utf-8")
        print(f"wrote {args.path}")
        return 0
    committed = args.path.read_text(encoding="utf-8") if args.path.exists() else ""
    if committed == fresh:
        print(f"{args.path} is up to date")
        return 0
    sys.stdout.writelines(difflib.unified_diff(
        committed.splitlines(keepends=True), fresh.splitlines(keepends=True),
        fromfile=f"{args.path} (committed)", tofile="generated"))
    print(f"\n{args.path} is stale: run `python -m api.http.openapi_check --write`",
          file=sys.stderr)
    return 1


if __name__ == "__main__":
    sys.exit(main())

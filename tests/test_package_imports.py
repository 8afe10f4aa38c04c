"""The layering of ``api/``: the packages that import each other both ways are no more than
those listed (each with why it remains), and stores are built only where a process composes
its adapters, never in a domain module from a client borrowed off another store."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path
from typing import Final

API: Final = Path(__file__).resolve().parent.parent / "api"

#: The two-way pairs of ``api/*`` packages that remain, each with its reason.
TWO_WAY: Final = {
    ("admin", "runtime"): "runtime's serve runs admin's migrate at its start, while admin's "
                          "commands connect to Redis through runtime",
    ("archive", "runtime"): "runtime's serve migrates the archive's schema before its processes "
                            "start, while the archive's outbox drain takes runtime's Redis "
                            "client",
    ("games", "live"): "the game store writes live presence and the service runs the clock, "
                       "while live's streams, chat and clock read games and their levels",
    ("games", "worker"): "the computers' turn (games/turns.py) enqueues on the worker tier's "
                         "TaskQueue, whose jobs run the games' use cases",
    ("http", "runtime"): "runtime's gunicorn worker answers problem+json from http.errors",
    ("runtime", "worker"): "runtime's serve and local server start the worker pool, which "
                           "connects through runtime",
}
#: The domain packages beside ``games`` (as lists: the second part of a module's name).
DOMAINS: Final = [["players"], ["tables"], ["leaderboard"], ["ratings"], ["tour"]]
#: Modules that build stores: the composition root and the tools owning their own Redis.
BUILDERS: Final = frozenset({"composition.py", "cli.py", "ratings/seed_make.py"})


def _packages() -> list[str]:
    return sorted(p.name for p in API.iterdir() if (p / "__init__.py").is_file())


def _imported(tree: ast.AST) -> Iterator[str]:
    """Every module name an import in ``tree`` names (``from a import b``: ``a`` and
    ``a.b``), in functions too."""
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            yield node.module
            yield from (f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            yield from (alias.name for alias in node.names)


def two_way_pairs() -> set[tuple[str, str]]:
    """The pairs of ``api/*`` packages each of which imports the other, sorted by name."""
    packages = _packages()
    edges = set()
    for package in packages:
        for path in (API / package).rglob("*.py"):
            for name in _imported(ast.parse(path.read_text())):
                parts = name.split(".")
                if parts[0] == "api" and len(parts) > 1 and parts[1] in packages and (
                        parts[1] != package):
                    edges.add((package, parts[1]))
    return {(a, b) for a, b in edges if a < b and (b, a) in edges}


def store_builds() -> list[str]:
    """``path:line`` of every call of a ``...Store`` class outside :data:`BUILDERS`."""
    found = []
    for path in API.rglob("*.py"):
        name = path.relative_to(API).as_posix()
        if name in BUILDERS:
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call):
                func = node.func
                called = (func.id if isinstance(func, ast.Name)
                          else func.attr if isinstance(func, ast.Attribute) else "")
                if called.endswith("Store") and called[:1].isupper():
                    found.append(f"{name}:{node.lineno}")
    return found


def test_no_new_two_way_package_imports() -> None:
    assert two_way_pairs() == set(TWO_WAY)  # a pair gone: take it off the list too


def test_games_imports_no_other_domain_package() -> None:
    for path in (API / "games").rglob("*.py"):
        for name in _imported(ast.parse(path.read_text())):
            parts = name.split(".")
            assert parts[0] != "api" or parts[1:2] not in DOMAINS, f"{path.name}: {name}"


def test_stores_are_built_only_by_the_composition_root() -> None:
    assert store_builds() == []


def test_the_checks_see_what_they_check() -> None:
    """The scans find the packages and the imports they judge (they cannot pass empty)."""
    assert {"games", "http", "tables", "worker"} <= set(_packages())
    assert ("runtime", "worker") in two_way_pairs()
    assert list(_imported(ast.parse("from api.x import y\nimport api.z"))) == [
        "api.x", "api.x.y", "api.z"]

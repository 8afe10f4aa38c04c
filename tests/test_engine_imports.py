"""Fitness of the game axis (issue 38): ``api/`` reaches the engine through its kernel and the
registry (:mod:`engine.hosted`, :mod:`engine.registry`, :mod:`engine.plugin`, the cards,
errors, events and numerals), and nothing above the engine tests which game it holds. What
``api/`` still imports beyond the kernel is listed per file with the reason it remains, so the
list can only shrink on purpose."""

from __future__ import annotations

import ast
import importlib
import re
from collections.abc import Iterator
from pathlib import Path
from typing import Final

ROOT: Final = Path(__file__).resolve().parent.parent
#: The engine's kernel and registry: what any game's service may import.
KERNEL: Final = ("engine.registry", "engine.hosted", "engine.plugin", "engine.errors",
                 "engine.events", "engine.cards", "engine.numerals")

_AI = "a computer's search and its levels are each game's own (the protocol has no AI yet)"
_FAMILY_RATED = ("the leaderboard's scoring and the tour read the Sixty-Six family's "
                 "states and Variant data (its rated games)")
_VOCABULARY = ("the shared words of play (statuses playing/hand_over/aborted, action kinds "
               "continue/abort/timeout) still live in the family's engine.state/actions")
#: Each api file that imports more of the engine than the kernel, with why.
BEYOND_KERNEL: Final = {
    "api/arena/__init__.py": "the arena is the Sixty-Six family's bench for its computer",
    "api/arena/strength.py": "the strength table measures each game's computer levels",
    "api/cli.py": "the command line's replay, bench and arena tools are the engine's own",
    "api/clients/client.py": "the client's action builders of both games (item 3, clients)",
    "api/games/advice.py": "the hint and analysis positions of each game (item 3: the HTTP "
                           "position checkers move to their game)",
    "api/games/computers.py": _AI,
    "api/games/records.py": "the text form of a record is the family's (engine.record)",
    "api/games/service.py": _VOCABULARY,
    "api/games/tausendeins_position.py": "Tausendeins' HTTP position checker (item 3)",
    "api/games/think.py": _AI,
    "api/http/examples.py": "the OpenAPI examples show a Sixty-Six game's rules",
    "api/http/resources/hint.py": _VOCABULARY,
    "api/http/resources/rules.py": _AI,
    "api/http/schemas/__init__.py": "the action body's schema lists both games' action "
                                    "members",
    "api/http/schemas/ai.py": _AI,
    "api/http/schemas/lobby.py": "a table's rules are checked by engine.games",
    "api/leaderboard/scoring.py": _FAMILY_RATED,
    "api/live/clock.py": _VOCABULARY,
    "api/ratings/arena.py": _AI,
    "api/standings.py": _VOCABULARY,
    "api/tables/service.py": "a table's rules and default levels (engine.games, engine.ai)",
    "api/tour/service.py": _FAMILY_RATED,
}
#: A branch on the game by its class or its name (the issue's grep).
BRANCH: Final = re.compile(
    r'isinstance\([^)]*(GameState|T1001State|T1001Rules|T1001Action)\b|is_tausendeins\(|'
    r'== *(TAUSENDEINS|"tausendeins"|tausendeins\.NAME)|!= *(TAUSENDEINS|"tausendeins")')


def _origins(module: str, names: list[str]) -> Iterator[str]:
    """The modules ``from module import names`` takes its names from (a kernel module's
    names are the kernel's, whatever they alias)."""
    if module.startswith(KERNEL):
        yield module
        return
    imported = importlib.import_module(module)
    for name in names:
        value = getattr(imported, name, None)
        if value is None:
            yield f"{module}.{name}"
        elif hasattr(value, "__name__") and hasattr(value, "__file__"):
            yield value.__name__
        else:
            yield getattr(value, "__module__", None) or module


def engine_imports(path: Path) -> set[str]:
    """The engine modules ``path`` imports from (functions' imports too)."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0 and (
                node.module.split(".")[0] == "engine"):
            out.update(_origins(node.module, [a.name for a in node.names]))
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.split(".")[0] == "engine")
    return out


def beyond_kernel() -> dict[str, set[str]]:
    """Per api file, the engine modules it imports outside the kernel."""
    found = {}
    for path in sorted((ROOT / "api").rglob("*.py")):
        beyond = {m for m in engine_imports(path)
                  if m.split(".")[0] == "engine" and not m.startswith(KERNEL)}
        if beyond:
            found[str(path.relative_to(ROOT))] = beyond
    return found


def test_api_imports_only_the_kernel_but_the_listed_files() -> None:
    assert set(beyond_kernel()) == set(BEYOND_KERNEL)


def test_no_python_above_the_engine_branches_on_the_game() -> None:
    sites = [f"{path.relative_to(ROOT)}:{n}" for path in sorted((ROOT / "api").rglob("*.py"))
             for n, line in enumerate(path.read_text().splitlines(), 1)
             if BRANCH.search(line)]
    assert sites == []


def test_engine_hosted_asks_only_the_registry() -> None:
    imported = engine_imports(ROOT / "engine" / "hosted.py")
    assert imported <= {"engine.registry", "engine.plugin", "engine.errors", "engine.events"}

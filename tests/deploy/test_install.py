"""A newcomer's install is CI's: bounded dependencies, one pinned tree, a fresh venv in CI,
and the README's test command as CI's last line."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parents[2]
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
CONSTRAINTS = (ROOT / "constraints.txt").read_text().splitlines()
CI_RUN = (ROOT / ".ci" / "run").read_text()
README = (ROOT / "README.md").read_text()


def _direct() -> list[Requirement]:
    given = [*PYPROJECT["dependencies"], *(
        r for extra in PYPROJECT["optional-dependencies"].values() for r in extra)]
    return [Requirement(r) for r in given]


def _pins() -> dict[str, str]:
    pins: dict[str, str] = {}
    for line in CONSTRAINTS:
        if not line or line.startswith("#"):
            continue
        name, sep, version = line.partition("==")
        assert sep and re.fullmatch(r"[A-Za-z0-9_.\-]+", name) and version, line
        pins[canonicalize_name(name)] = version
    return pins


def test_every_direct_dependency_has_an_upper_bound() -> None:
    unbounded = [str(r) for r in _direct()
                 if not any(s.operator in ("<", "<=", "==", "~=") for s in r.specifier)]
    assert not unbounded


def test_the_constraints_pin_every_dependency_within_its_bounds() -> None:
    pins = _pins()
    for requirement in _direct():
        name = canonicalize_name(requirement.name)
        assert name in pins, f"{name} is not in constraints.txt: run make lock"
        assert requirement.specifier.contains(pins[name], prereleases=True), (
            f"constraints.txt pins {name}=={pins[name]}, outside {requirement}: run make lock")


def _readme_commands() -> list[str]:
    quickstart = README.split("## Start", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```sh\n(.*?)\n```", quickstart, re.DOTALL)


def test_the_readme_makes_a_venv_first_and_installs_the_pinned_tree() -> None:
    venv, serve, test = _readme_commands()[:3]
    assert venv.startswith("python3 -m venv ") and "bin/activate" in venv
    for command in (serve, test):
        assert command.startswith("pip install -c constraints.txt -e "), command
    assert "sixtysix serve" in serve


def test_ci_installs_the_pinned_tree_into_a_fresh_venv_and_runs_the_readme_command() -> None:
    lines = [line.strip() for line in CI_RUN.splitlines() if line.strip()]
    test_command = _readme_commands()[2].split(" && ", 1)[1]
    assert lines[-1] == test_command
    venv = next(i for i, line in enumerate(lines) if "python3 -m venv" in line)
    activate = next(i for i, line in enumerate(lines) if "/bin/activate" in line)
    install = lines.index("python -m pip install -c constraints.txt -e '.[test]'")
    assert venv < activate < install < len(lines) - 1
    assert "mktemp -d" in CI_RUN  # a new directory: nothing left from an earlier run


def test_ci_still_installs_the_system_tools_the_tests_need() -> None:
    installs = " ".join(re.findall(r"apt_install ([a-z0-9 .-]+)", CI_RUN))
    for package in ("redis-server", "chromium", "chromium-driver", "nodejs"):
        assert package in installs.split(), package

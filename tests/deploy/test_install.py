"""A newcomer's install is CI's: bounded dependencies, one pinned tree, a fresh venv in CI,
and the README's test command as CI's last line; the README's second install keeps the
engine the first compiled."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from engine import native

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


#: Seconds one ``pip install -e`` may take here (a compile is minutes on two busy cores).
INSTALL_TIMEOUT = 1200


def _install(venv: Path, source: Path, target: str) -> str:
    """``pip install -v -e target`` (no dependencies: only the build is looked at) into
    ``venv`` from ``source``, as the README does it; pip's output. In a session of its own:
    no terminal, so the build's notices go to its stderr only."""
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", native.PURE_VARIABLE)}
    done = subprocess.run(
        [str(venv / "bin" / "python"), "-m", "pip", "install", "-v", "--no-deps",
         "--disable-pip-version-check", "-c", "constraints.txt", "-e", target],
        cwd=source, env=env, capture_output=True, text=True, timeout=INSTALL_TIMEOUT,
        start_new_session=True)
    assert done.returncode == 0, done.stdout[-3000:] + done.stderr[-3000:]
    return done.stdout + done.stderr


@pytest.mark.slow
def test_the_second_editable_install_keeps_the_engine_the_first_compiled(
        tmp_path: Path) -> None:
    """The README's serve and test installs compile the engine once: the second finds the
    build current (``engine.native.current_build``), says so, and leaves its files as
    they were (the native search core's too); the venv then runs the compiled engine and
    the native core."""
    blocker = native.build_blocker()
    if blocker is not None:
        assert os.environ.get("CI") != "true", blocker  # .ci/run installs gcc and headers
        pytest.skip(f"no compiled engine here: {blocker}")
    source = tmp_path / "sixtysix"
    tracked = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                             check=True).stdout.decode().split("\0")
    for name in filter(None, tracked):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    built = [source.joinpath(*name.split(".")).with_name(name.split(".")[-1] + suffix)
             for name in [*native.extension_names(), native.CORE]] + [
                 source / "engine" / native.MANIFEST]

    first = _install(venv, source, ".")
    assert "sixtysix: compiling the engine with mypyc" in first
    stamps = {path: path.stat().st_mtime_ns for path in built}
    second = _install(venv, source, ".[test]")
    assert "sixtysix: compiled engine reused" in second
    assert "sixtysix: native search core reused" in second
    assert "compiling the engine" not in second
    assert {path: path.stat().st_mtime_ns for path in built} == stamps
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", native.PURE_VARIABLE)}
    engine = subprocess.run(
        [str(venv / "bin" / "python"), "-c",
         "import engine.native as n; print(n.describe()); print(n.describe_core())"],
        cwd=tmp_path, env=env, capture_output=True, text=True, check=True)
    assert engine.stdout.splitlines() == ["compiled, mypyc", "native C"]

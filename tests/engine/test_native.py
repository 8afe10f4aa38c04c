"""Which engine path is loaded: the compiled hot modules or the pure Python source
(:mod:`engine.native`), according to ``SIXTYSIX_PURE``."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import sysconfig
from pathlib import Path
from types import ModuleType

from engine import native
from tests.engine.native_probe import run_probe

_PROBE = """
import json
import engine.native as n
print(json.dumps({"describe": n.describe(), "path": n.path(),
                  "files": {m: __import__(m, fromlist=["_"]).__file__ for m in n.COMPILED}}))
"""


#: The directory holding this checkout's ``engine`` (and the build's shared library).
ROOT = Path(native.__file__).resolve().parents[1]


def _probe(pure: str | None, root: Path = ROOT) -> dict[str, object]:
    return run_probe(_PROBE, root, pure)


def test_sixtysix_pure_loads_every_hot_module_from_its_source() -> None:
    loaded = _probe("1")
    assert loaded["describe"] == "pure Python" and loaded["path"] == native.PURE_PATH
    files = loaded["files"]
    assert isinstance(files, dict) and set(files) == set(native.COMPILED)
    assert all(str(f).endswith(".py") for f in files.values())


def test_without_sixtysix_pure_the_build_decides() -> None:
    """Compiled in CI wherever the extension can be built (a compiler and Python's headers),
    and never half compiled; ``SIXTYSIX_PURE=0`` is not a request for the pure path."""
    for pure in (None, "0"):
        loaded = _probe(pure)
        assert (loaded["describe"], loaded["path"]) in (("pure Python", native.PURE_PATH), (
            "compiled, mypyc", native.COMPILED_PATH))
        if os.environ.get("CI") == "true" and native.build_blocker() is None:
            assert loaded["describe"] == "compiled, mypyc"


def test_this_process_runs_the_path_its_environment_asks_for() -> None:
    expected = "pure Python" if native.pure_requested() else _probe(None)["describe"]
    assert native.describe() == expected


def test_a_build_older_than_its_source_is_passed_over_whole(tmp_path: Path) -> None:
    """A compiled module must not run code its source no longer has: a checkout whose
    ``engine/ai/talon.py`` changed after the build runs every module from source, and says
    why."""
    shutil.copytree(ROOT / "engine", tmp_path / "engine",
                    ignore=shutil.ignore_patterns("__pycache__"))
    for shared in ROOT.glob("*__mypyc*"):
        shutil.copy2(shared, tmp_path / shared.name)
    talon = tmp_path / "engine" / "ai" / "talon.py"
    talon.write_text(talon.read_text() + "\n")
    loaded = _probe(None, tmp_path)
    if _probe(None)["describe"] == "compiled, mypyc":
        assert loaded["describe"] == "pure Python; changed since the build: engine.ai.talon"
    else:
        assert loaded["describe"] == "pure Python" and loaded["path"] == native.PURE_PATH
    files = loaded["files"]
    assert isinstance(files, dict) and all(str(f).endswith(".py") for f in files.values())


def test_a_build_without_its_shared_library_is_passed_over(tmp_path: Path) -> None:
    """A build whose group library failed (each extension is optional: the modules can be
    built and the library not) would not even import: it runs every module from source,
    and says why."""
    shutil.copytree(ROOT / "engine", tmp_path / "engine",
                    ignore=shutil.ignore_patterns("__pycache__"))
    loaded = _probe(None, tmp_path)  # the modules without the library beside ROOT
    if _probe(None)["describe"] == "compiled, mypyc":
        assert loaded["describe"] == f"pure Python; the build lacks {native.GROUP}__mypyc"
    else:
        assert loaded["describe"] == "pure Python" and loaded["path"] == native.PURE_PATH
    files = loaded["files"]
    assert isinstance(files, dict) and all(str(f).endswith(".py") for f in files.values())


def _native_at(root: Path) -> ModuleType:
    """``engine/native.py`` loaded from a copy under ``root``, as ``setup.py`` loads it: its
    build is the one beside that copy's sources."""
    (root / "engine" / "ai").mkdir(parents=True)
    for name in [*native.COMPILED, "engine.native"]:
        shutil.copy2(ROOT.joinpath(*name.split(".")).with_suffix(".py"),
                     root.joinpath(*name.split(".")).with_suffix(".py"))
    spec = importlib.util.spec_from_file_location("_native_copy", root / "engine/native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_build_is_current_when_every_module_is_built_from_the_sources_as_they_are(
        tmp_path: Path) -> None:
    """What lets an editable install keep a build (``setup.py``): every extension module for
    this Python, and the manifest's digests those of the sources."""
    copy = _native_at(tmp_path)
    assert not copy.current_build()  # nothing built
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    built = [tmp_path.joinpath(*name.split(".")).with_name(name.split(".")[-1] + suffix)
             for name in copy.extension_names()]
    for path in built:
        path.write_bytes(b"")
    assert not copy.current_build()  # no manifest
    manifest = tmp_path / "engine" / native.MANIFEST
    manifest.write_text(json.dumps(copy.source_digests()))
    assert copy.current_build()
    built[0].unlink()  # the group's shared library gone
    assert not copy.current_build()
    built[0].write_bytes(b"")
    talon = tmp_path / "engine" / "ai" / "talon.py"
    talon.write_text(talon.read_text() + "\n")
    assert not copy.current_build()  # a source changed since

"""Which engine is running: the compiled hot modules or the pure Python reference.

The modules of :data:`COMPILED` are compiled by mypyc from their own typed source when the
package is installed where a C compiler and Python's headers exist (``setup.py``); the
extension modules then sit beside the ``.py`` files and Python imports them first. The pure
Python source stays the reference: ``SIXTYSIX_PURE=1`` (any value but empty or ``0``) in the
environment before :mod:`engine` is imported installs a finder that loads these modules from
their ``.py`` files instead. So does a build that no longer matches its source (a ``.py``
file changed since the build, as after editing or checking out another revision without
``pip install -e .`` again, by the digests the build records in :data:`MANIFEST`; or a
build without one of the modules): the compiled modules call each other directly, so they
are used all together or not at all. :func:`describe` says which path is in use and why
(``sixtysix --version``), :func:`path` names it (``pure`` or ``compiled``). This module
imports only the standard library, is never compiled, and is imported first by :mod:`engine`.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import shlex
import shutil
import sys
import sysconfig
from collections.abc import Sequence
from types import ModuleType
from typing import Final

#: The modules built as the compiled extension (``setup.py`` reads this list): dealing, legal
#: actions and applying them with the state and actions they work on, the exact solvers, the
#: deal sampler, and the card tables they all read. A compiled function checks its arguments
#: against its annotations (a wrong type is a ``TypeError`` at the call: a parser of outside
#: input takes ``object``), a compiled class takes no attributes but its own and is made only
#: through ``__init__``; the events of the hot path stay plain Python
#: (:mod:`engine.play_events`).
COMPILED: Final = ("engine.cards", "engine.actions", "engine.state", "engine.deal", "engine.play",
                   "engine.ai.sampling", "engine.ai.solver", "engine.ai.talon")
#: Set to force the pure Python path (read once, when :mod:`engine` is first imported).
PURE_VARIABLE: Final = "SIXTYSIX_PURE"


def pure_requested() -> bool:
    """Whether the environment asks for the pure Python path."""
    return os.environ.get(PURE_VARIABLE, "") not in ("", "0")


def build_blocker() -> str | None:
    """What the compiled engine's build lacks here (``setup.py`` then skips it), or ``None``."""
    if importlib.util.find_spec("mypyc") is None:
        return "mypyc (mypy) is not installed"
    return compiler_blocker()


def compiler_blocker() -> str | None:
    """What a build of C extensions lacks here (no compiler, no Python headers), or ``None``:
    the native search core (:data:`CORE`) needs nothing else."""
    compiler = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")[:1]
    if not compiler or shutil.which(compiler[0]) is None:
        return "no C compiler"
    if not os.path.isfile(os.path.join(sysconfig.get_paths()["include"], "Python.h")):
        return "no Python headers (Python.h)"
    return None


class SourceFinder(importlib.abc.MetaPathFinder):
    """Finds the modules of :data:`COMPILED` as their ``.py`` source, ahead of any extension
    module of the same name in the package's directory."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in COMPILED or path is None:
            return None
        name = fullname.rpartition(".")[2] + ".py"
        for entry in path:
            source = os.path.join(entry, name)
            if os.path.isfile(source):
                return importlib.util.spec_from_file_location(fullname, source)
        return None


#: The package directory that holds ``engine/`` (modules are found beside this file).
_ROOT: Final = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: Written by the build beside the extension modules: the SHA-256 of each module's source.
MANIFEST: Final = "compiled_sources.json"


def source_digests() -> dict[str, str]:
    """The SHA-256 of the source of each module of :data:`COMPILED`, as built."""
    out = {}
    for name in COMPILED:
        with open(os.path.join(_ROOT, *name.split(".")) + ".py", "rb") as source:
            out[name] = hashlib.sha256(source.read()).hexdigest()
    return out


#: The native search core: the phase-2 solver's search in C (``engine/ai/_core.c``), built
#: by ``setup.py`` beside mypyc's modules wherever a C compiler exists (it needs no mypyc).
CORE: Final = "engine.ai._core"
#: Its C source, whose SHA-256 the build compiles into the module (``SOURCE_DIGEST``).
CORE_SOURCE: Final = os.path.join("engine", "ai", "_core.c")


def core_digest() -> str | None:
    """The SHA-256 of :data:`CORE_SOURCE` as it is, or ``None`` where it is absent (an
    install without its sources)."""
    try:
        with open(os.path.join(_ROOT, CORE_SOURCE), "rb") as source:
            return hashlib.sha256(source.read()).hexdigest()
    except OSError:
        return None


def _load_core() -> tuple[ModuleType | None, str]:
    try:
        module = importlib.import_module(CORE)
    except ImportError:
        return None, "not built"
    digest = core_digest()
    if digest is not None and getattr(module, "SOURCE_DIGEST", None) != digest:
        return None, f"{CORE_SOURCE} changed since the build"
    return module, ""


_core_loaded: list[tuple[ModuleType | None, str]] = []


def search_core() -> ModuleType | None:
    """The native search core (:data:`CORE`), or ``None``: with ``SIXTYSIX_PURE`` set, where
    it is not built, or where its C source changed since the build (the search is then the
    pure Python reference, compiled by mypyc or not)."""
    if pure_requested():
        return None
    if not _core_loaded:
        _core_loaded.append(_load_core())
    return _core_loaded[0][0]


def describe_core() -> str:
    """Which search core runs: ``native C`` or ``Python`` (with why, when not native)."""
    if pure_requested():
        return f"Python ({PURE_VARIABLE} is set)"
    if search_core() is not None:
        return "native C"
    return f"Python; native core {_core_loaded[0][1]}"


#: mypyc's group of the build (``setup.py``): the compiled modules share its library, the
#: top-level extension module ``<GROUP>__mypyc`` beside ``engine/``.
GROUP: Final = "sixtysix_engine"


def extension_names() -> list[str]:
    """The extension modules of a build: the group's shared library and a module of each of
    :data:`COMPILED`."""
    return [f"{GROUP}__mypyc", *COMPILED]


def _built(name: str, suffixes: Sequence[str]) -> bool:
    return any(os.path.isfile(os.path.join(_ROOT, *name.split(".")) + suffix)
               for suffix in suffixes)


def stale_build() -> str | None:
    """Why the extension modules beside the sources must not be used, or ``None`` (none
    built, or all built from the sources as they are)."""
    suffixes = importlib.machinery.EXTENSION_SUFFIXES
    if not any(_built(name, suffixes) for name in COMPILED):
        return None
    # the group's shared library too: a module without it cannot even be imported
    lacking = [name for name in extension_names() if not _built(name, suffixes)]
    if lacking:
        return "the build lacks " + ", ".join(lacking)
    try:
        with open(os.path.join(_ROOT, "engine", MANIFEST), encoding="utf-8") as manifest:
            recorded = json.load(manifest)
    except (OSError, ValueError):
        return f"the build has no engine/{MANIFEST}"
    changed = [n for n, digest in source_digests().items() if recorded.get(n) != digest]
    return "changed since the build: " + ", ".join(changed) if changed else None


def current_build() -> bool:
    """Whether every extension module of :func:`extension_names` lies beside the sources,
    built for this Python (its ``EXT_SUFFIX``) from the sources as they are: an editable
    install (``setup.py``) then keeps it instead of compiling again."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    return (all(_built(name, [suffix]) for name in extension_names())
            and stale_build() is None)


#: Why the compiled modules are not used although requested by nobody: a stale build.
SKIPPED: Final = None if pure_requested() else stale_build()


def _install() -> None:
    if (pure_requested() or SKIPPED) and not any(
            isinstance(f, SourceFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, SourceFinder())


def compiled_modules() -> list[str]:
    """The modules of :data:`COMPILED` loaded as extension modules (imports them)."""
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    out = []
    for name in COMPILED:
        module = importlib.import_module(name)
        if (module.__file__ or "").endswith(suffixes):
            out.append(name)
    return out


#: The engine paths as :func:`path` names them (``api.strength`` keys its entries by them).
PURE_PATH: Final = "pure"
COMPILED_PATH: Final = "compiled"


def path() -> str:
    """:data:`COMPILED_PATH` when every module of :data:`COMPILED` is compiled, else
    :data:`PURE_PATH` (imports them)."""
    return COMPILED_PATH if len(compiled_modules()) == len(COMPILED) else PURE_PATH


def describe() -> str:
    """``compiled, mypyc`` when every module of :data:`COMPILED` is compiled, ``pure
    Python`` when none is (with the reason when a stale build was passed over; ``partly
    compiled: ...`` otherwise, which :func:`stale_build` prevents)."""
    done = compiled_modules()
    if not done:
        return "pure Python" if SKIPPED is None else f"pure Python; {SKIPPED}"
    if len(done) == len(COMPILED):
        return "compiled, mypyc"
    return "partly compiled: " + ", ".join(done)


_install()

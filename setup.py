"""Build: the engine's hot modules (``engine.native.COMPILED``) compiled by mypyc from their own
typed source, as an optional extension beside the ``.py`` files, and the native search core
(``engine.native.CORE``, ``engine/ai/_core.c``, plain C).

Skipped, with a one-line notice, where no C compiler or no Python headers exist
(``engine.native.compiler_blocker``), mypyc's modules also where mypyc is missing
(``engine.native.build_blocker``), both with ``SIXTYSIX_PURE=1``; the install never
fails for them (each extension is ``optional``: a failed compile leaves the pure Python module
in use). Everything else is configured in ``pyproject.toml``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
import sysconfig
from pathlib import Path
from typing import Any

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent


def _native() -> Any:
    """``engine/native.py`` loaded alone (the package itself is not imported to build it)."""
    spec = importlib.util.spec_from_file_location("_sixtysix_native", HERE / "engine/native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _say(message: str) -> None:
    """``message`` on stderr, which pip shows with ``-v`` only, and on the terminal pip runs
    in, if any: pip hides a build's output, and a compile of minutes would show nothing but
    its spinner."""
    print(message, file=sys.stderr, flush=True)
    try:
        with open("/dev/tty", "w", encoding="utf-8") as terminal:
            terminal.write(f"\n{message}\n")
    except OSError:  # no terminal (CI, a service): stderr only
        pass


def ext_modules() -> list[Any]:
    """The extension modules, as names only: :class:`BuildExt` compiles them, or keeps a
    current build (so that reading the metadata never compiles). The native search core
    (``engine.native.CORE``) needs a C compiler only; mypyc's modules need mypyc too."""
    native = _native()
    if native.pure_requested():
        print(f"sixtysix: compiled engine and native search core skipped "
              f"({native.PURE_VARIABLE} is set); the pure Python engine is used", file=sys.stderr)
        return []
    out: list[Any] = []
    why = native.compiler_blocker()
    if why is None:
        # the C source's digest is compiled in: engine.native passes over a stale build
        out.append(Extension(native.CORE, [native.CORE_SOURCE], optional=True,
                             define_macros=[("SIXTYSIX_CORE_DIGEST",
                                             f'"{native.core_digest()}"')]))
    else:
        print(f"sixtysix: native search core skipped ({why}); the Python search is used",
              file=sys.stderr)
    why = native.build_blocker()
    if why is not None:
        print(f"sixtysix: compiled engine skipped ({why}); the pure Python engine is used",
              file=sys.stderr)
        return out
    sources = [name.replace(".", "/") + ".py" for name in native.COMPILED]
    # a failed compile leaves the pure modules in use
    return out + [Extension(name, sources, optional=True) for name in native.extension_names()]


def _compiled(native: Any) -> dict[str, Any]:
    """mypyc's extensions of :data:`engine.native.COMPILED` by name (writes their C)."""
    from mypyc.build import mypycify

    paths = [name.replace(".", "/") + ".py" for name in native.COMPILED]
    made = mypycify(paths, opt_level="3", group_name=native.GROUP)
    return {extension.name: extension for extension in made}


def _core_current(native: Any) -> bool:
    """Whether the native search core beside its source was built for this Python from
    ``engine/ai/_core.c`` as it is: the digest the build compiles into it (its
    ``SOURCE_DIGEST``) is read from the file's bytes, not imported (a module loaded here
    could not be overwritten safely by the build that follows)."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX") or ".so"
    built = HERE.joinpath(*native.CORE.split(".")).with_name(
        native.CORE.rpartition(".")[2] + suffix)
    digest = native.core_digest()
    return digest is not None and built.is_file() and digest.encode() in built.read_bytes()


class BuildExt(build_ext):
    """Compiles the engine's modules with mypyc and records the digests of the sources
    compiled (``engine.native.MANIFEST``), so that a build older than its sources is passed
    over at import instead of run. In place (an editable install) a build that is current
    (``engine.native.current_build``: every module built for this Python from the sources
    as they are) is kept, and so is a current native search core (:func:`_core_current`): a
    second ``pip install -e`` does not compile again."""

    def run(self) -> None:
        native = _native()
        if self.inplace and _core_current(native) and any(
                extension.name == native.CORE for extension in self.extensions):
            _say("sixtysix: native search core reused: built from engine/ai/_core.c as it is")
            self.extensions = [e for e in self.extensions if e.name != native.CORE]
        mypyc = [extension for extension in self.extensions if extension.name != native.CORE]
        if not mypyc:  # the native core alone, or nothing
            super().run()
            return
        if self.inplace and native.current_build():
            _say("sixtysix: compiled engine reused: built from the engine's sources as they "
                 f"are (engine/{native.MANIFEST})")
            self.extensions = [e for e in self.extensions if e.name == native.CORE]
            super().run()
            return
        _say("sixtysix: compiling the engine with mypyc: a few minutes on two cores (pip "
             "shows only that the build is still running)")
        made = _compiled(native)
        for extension in mypyc:  # as named (build_ext has annotated them)
            vars(extension).update({key: value for key, value in vars(made[extension.name])
                                    .items() if not key.startswith("_") and key != "optional"})
        super().run()
        target = HERE if self.inplace else Path(self.build_lib)
        manifest = target / "engine" / native.MANIFEST
        manifest.parent.mkdir(parents=True, exist_ok=True)
        manifest.write_text(json.dumps(native.source_digests(), indent=1) + "\n")
        _say("sixtysix: compiled engine built")


os.chdir(HERE)  # mypycify takes paths relative to the project
setup(ext_modules=ext_modules(), cmdclass={"build_ext": BuildExt})

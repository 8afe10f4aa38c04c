"""Build: the engine's hot modules (``engine.native.COMPILED``) compiled by mypyc from their own
typed source, as an optional extension beside the ``.py`` files.

Skipped, with a one-line notice, where no C compiler or no Python headers exist, where mypyc
is missing (``engine.native.build_blocker``), or with ``SIXTYSIX_PURE=1``; the install never
fails for it (each extension is ``optional``: a failed compile leaves the pure Python module
in use). Everything else is configured in ``pyproject.toml``.
"""

from __future__ import annotations

import importlib.util
import json
import os
import sys
from pathlib import Path
from typing import Any

from setuptools import setup
from setuptools.command.build_ext import build_ext

HERE = Path(__file__).resolve().parent


def _native() -> Any:
    """``engine/native.py`` loaded alone (the package itself is not imported to build it)."""
    spec = importlib.util.spec_from_file_location("_sixtysix_native", HERE / "engine/native.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def ext_modules() -> list[Any]:
    native = _native()
    why = f"{native.PURE_VARIABLE} is set" if native.pure_requested() else native.build_blocker()
    if why is not None:
        print(f"sixtysix: compiled engine skipped ({why}); the pure Python engine is used",
              file=sys.stderr)
        return []
    from mypyc.build import mypycify

    paths = [name.replace(".", "/") + ".py" for name in native.COMPILED]
    extensions = mypycify(paths, opt_level="3", group_name="sixtysix_engine")
    for extension in extensions:
        extension.optional = True  # a failed compile leaves the pure module in use
    return extensions


class BuildExt(build_ext):
    """Also records the digests of the sources compiled (``engine.native.MANIFEST``), so that
    a build older than its sources is passed over at import instead of run."""

    def run(self) -> None:
        super().run()
        if not self.extensions:
            return
        native = _native()
        target = HERE if self.inplace else Path(self.build_lib)
        manifest = target / "engine" / native.MANIFEST
        manifest.parent.mkdir(parents=True, exist_ok=True)
        manifest.write_text(json.dumps(native.source_digests(), indent=1) + "\n")


os.chdir(HERE)  # mypycify takes paths relative to the project
setup(ext_modules=ext_modules(), cmdclass={"build_ext": BuildExt})

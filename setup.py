"""Builds the compiled core: the Cython engine and kernels beside the Python modules they mirror.

They are optional extensions, installed all or none. With ``PATIENCE_NO_EXTENSIONS`` set (to
anything but the empty string, as multidict, yarl and frozenlist read theirs) none is built; where
Cython or a working C compiler is missing, or the compiler fails on any one module, the build says
so in one line and the package installs on its Python engine alone, without any compiled module
(``patience --version`` names the engine in use). Everything else is in pyproject.toml.
"""

from __future__ import annotations

import os
import sys
from importlib.machinery import EXTENSION_SUFFIXES

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext
from setuptools.command.build_py import build_py

ROOT = os.path.dirname(os.path.abspath(__file__))

#: The compiled modules, each beside the Python module it mirrors (``solver/_search.pyx`` beside
#: ``solver/search.py``); ``solver/_protocol.pxd`` declares the kernel that every one of them knows.
MODULES = (
    "solver._protocol",
    "solver._table",
    "solver._search",
    "solver._chance",
    "solver._graph",
    "rulesets._accordion",
    "rulesets._royal_marriage",
    "rulesets._amazons",
    "rulesets._baroness",
    "rulesets._thirteens",
)

SKIPPED = "patience-solver: the compiled core was not built ({why}); installed on the Python engine"


def _extensions() -> list[Extension]:
    if os.environ.get("PATIENCE_NO_EXTENSIONS"):
        print(SKIPPED.format(why="PATIENCE_NO_EXTENSIONS is set"), file=sys.stderr)
        return []
    try:
        from Cython.Build import cythonize
    except ImportError:
        print(SKIPPED.format(why="Cython is not installed"), file=sys.stderr)
        return []
    # -O3: the kernels' loops over piles and the table's probes gain from it (gcc and clang both
    # take it; other compilers get their defaults).
    flags = ["-O3"] if os.name == "posix" else []
    extensions = [Extension(name, [name.replace(".", "/") + ".pyx"], extra_compile_args=flags) for name in MODULES]
    return cythonize(
        extensions,
        language_level=3,
        compiler_directives={"boundscheck": False, "wraparound": False, "cdivision": True, "initializedcheck": False},
        quiet=True,
    )


def _remove_compiled(folder: str) -> None:
    """Delete the compiled modules in ``folder``: a build's lib directory (what the wheel is made
    of), or the sources (where an editable install keeps them)."""
    for name in MODULES:
        for suffix in EXTENSION_SUFFIXES:
            path = os.path.join(folder, *name.split(".")) + suffix
            if os.path.exists(path):
                os.remove(path)


class OptionalBuildExt(build_ext):
    """Builds every compiled module or, when the compiler fails, installs none: one line says
    why, and the package installs on its Python engine. Only the modules this build compiled are
    installed, never those an earlier one left in build/ (setuptools would skip compiling a
    module whose file there looks up to date)."""

    def run(self) -> None:
        in_place = self.inplace  # an editable install's (setuptools clears it while it builds)
        _remove_compiled(self.build_lib)
        try:
            super().run()
        except Exception as error:  # a missing or failing compiler: CompileError, PlatformError, OSError
            _remove_compiled(self.build_lib)  # those compiled before the failure
            if in_place:
                _remove_compiled(ROOT)  # an earlier build's, which the editable install would import
            print(SKIPPED.format(why=f"{type(error).__name__}: {error}".strip()), file=sys.stderr)
            self.extensions = []


class PythonOnlyBuildPy(build_py):
    """Where no compiled module is to be built (build_ext does not run), an editable install
    leaves none of an earlier build's beside the sources. (A wheel's files need no such care: a
    build without extensions gathers them in build/lib, where no build of the compiled core
    writes.)"""

    def run(self) -> None:
        super().run()
        if self.editable_mode and not self.distribution.ext_modules:
            _remove_compiled(ROOT)


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt, "build_py": PythonOnlyBuildPy})

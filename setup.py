"""Builds the compiled core: the Cython engine and kernels beside the Python modules they mirror.

They are optional extensions. With ``PATIENCE_NO_EXTENSIONS`` set (to anything but the empty
string, as multidict, yarl and frozenlist read theirs) none is built; where Cython or a working C
compiler is missing the build says so in one line and the package installs on its Python engine
alone (``patience --version`` names the engine in use). Everything else is in pyproject.toml.
"""

from __future__ import annotations

import os
import sys

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

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


class OptionalBuildExt(build_ext):
    """Builds every compiled module or, when the compiler fails, none: one line says why, and the
    package installs on its Python engine."""

    def run(self) -> None:
        try:
            super().run()
        except Exception as error:  # a missing or failing compiler: CompileError, PlatformError, OSError
            print(SKIPPED.format(why=f"{type(error).__name__}: {error}".strip()), file=sys.stderr)
            self.extensions = []


setup(ext_modules=_extensions(), cmdclass={"build_ext": OptionalBuildExt})

"""Which engine searches a game, chosen here once: :func:`engine_of` makes an
:class:`~solver.python_engine.Engine` from the game's rules, holding them and the game it
searches, whose methods (depth-first, iterative deepening, the proofs of a hint, the exact
chance, the clairvoyant share, the relaxed bound) take a position and keyword-only options. No
other place branches on compiled or Python.

Two implementations answer alike (one test suite runs on both): the Python engine
(:mod:`solver.python_engine`), the readable specification and the fallback, and the compiled
core's (:mod:`solver.compiled_engine`), made wherever the core was built and the game has a
kernel. ``PATIENCE_NO_EXTENSIONS`` set to anything but the empty string (the convention of
multidict, aiohttp, yarl and frozenlist) forces the Python engine; it is read when an engine is
made, so a program or a test may switch engines between games. Either way a search answers a
:class:`~solver.result.SearchResult` in the game's own moves, with ``engine`` naming the engine. A
game whose kernel does not import (an installation put together by hand may lack some) is
searched by the Python engine; solver.service.engines names the engine in use for ``patience
--version``.
"""

from __future__ import annotations

from typing import Any

from solver import search
from solver.compiled_engine import (
    NO_EXTENSIONS,
    CompiledEngine,
    CompiledSearchEngine,
    chance_kernels,
    compiled_core,
    kernel_of,
)
from solver.protocol import GameRules
from solver.python_engine import NATIVE, PYTHON, Engine, PythonEngine

__all__ = ["NATIVE", "NO_EXTENSIONS", "PYTHON", "Engine", "compiled_core", "engine_of", "expanded", "kernel_of"]


def engine_of(rules: Any, searched: GameRules[Any, Any] | None = None) -> Engine:
    """The engine for a game: the compiled core's where it was built and wanted and the game
    searched (``searched``, else ``rules`` itself) has a kernel, judging a face-down stock there
    too where the chance module and the rules' kernels are there; else the Python engine."""
    searched = rules if searched is None else searched
    if kernel_of(searched) is None:
        return PythonEngine(rules, searched)
    judged = chance_kernels(rules)
    if judged is None:
        return CompiledSearchEngine(rules, searched)
    return CompiledEngine(rules, searched, judged)


def expanded() -> int:
    """The states this process's searches have expanded so far on both engines (each counts at
    its looks at the limits, every 1,024 states): a display shows the growth between two looks."""
    core = compiled_core()
    return search.expanded() + (0 if core is None else core.expanded())

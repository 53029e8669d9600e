"""Which engine searches: the compiled core (solver/_search.pyx) wherever it was built and the
game has a kernel, else the Python engine (solver.search), which stays the readable
specification and the fallback.

``PATIENCE_NO_EXTENSIONS`` set to anything but the empty string (the convention of multidict,
aiohttp, yarl and frozenlist) forces the Python engine. It is read at every search, so a program
or a test may switch engines as it goes. Either way a search answers a
:class:`~solver.result.SearchResult` in the game's own moves (the kernel's move codes turned back
by the ruleset's ``decode``, code by code), with ``engine`` naming the engine. A game whose
kernel does not import (an installation put together by hand may lack some) is searched by the
Python engine; solver.service.engines names the engine in use for ``patience --version``.
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Sequence
from types import ModuleType
from typing import Any, TypeVar

from solver import search
from solver.protocol import CostedGame, Game
from solver.result import NO_LIMITS, Limits, SearchResult

State = TypeVar("State", bound=Hashable)
Move = TypeVar("Move", bound=Hashable)

NATIVE, PYTHON = "native", "python"
#: The environment variable that forces the Python engine (and skips building the extensions).
NO_EXTENSIONS = "PATIENCE_NO_EXTENSIONS"


def compiled_core() -> ModuleType | None:
    """The compiled engine, or None where it was not built or NO_EXTENSIONS is set."""
    if os.environ.get(NO_EXTENSIONS):
        return None
    try:
        from solver import _search
    except ImportError:
        return None
    return _search


def kernel_of(game: Any) -> Any | None:
    """The game's compiled kernel where the compiled engine searches it, else None (no core
    built or wanted, or no kernel for this ruleset)."""
    make = getattr(game, "kernel", None)
    if make is None or compiled_core() is None:
        return None
    try:
        return make()
    except ImportError:
        return None


def engine_for(game: Any) -> str:
    """NATIVE or PYTHON: the engine that searches ``game``."""
    return PYTHON if kernel_of(game) is None else NATIVE


def expanded() -> int:
    """The states this process's searches have expanded so far on both engines (each counts at
    its looks at the limits, every 1,024 states): a display shows the growth between two looks."""
    core = compiled_core()
    return search.expanded() + (0 if core is None else core.expanded())


def decoded(game: Any, codes: Sequence[int]) -> tuple[Any, ...]:
    """A kernel's line of move codes as the game's own moves. A code names its move whatever the
    state (solver.protocol.Compiled.decode), so the line is not replayed here: replaying it in
    Python to decode it took most of a short search's time (self-working: 250 of 280 us a deal);
    solver.replay.checked replays it once, as the referee."""
    return tuple(map(game.decode, codes))


def depth_first(
    game: Game[State, Move],
    start: State,
    limits: Limits = NO_LIMITS,
    restart_nodes: int | None = search.RESTART_NODES,
) -> SearchResult[Move]:
    """:func:`solver.search.depth_first` on the engine :func:`engine_for` names."""
    kernel = kernel_of(game)
    core = compiled_core()
    if kernel is None or core is None:
        return search.depth_first(game, start, limits, restart_nodes)
    compiled: Any = game
    result: SearchResult[Any] = core.depth_first(
        kernel,
        compiled.encode(start),
        max_nodes=limits.max_nodes,
        max_seconds=limits.max_seconds,
        max_memory=limits.max_memory,
        restart_nodes=restart_nodes,
    )
    return result._replace(best_line=decoded(game, result.best_line))


def iterative_deepening(game: CostedGame[State, Move], start: State, limits: Limits = NO_LIMITS) -> SearchResult[Move]:
    """:func:`solver.search.iterative_deepening` on the engine :func:`engine_for` names."""
    kernel = kernel_of(game)
    core = compiled_core()
    if kernel is None or core is None:
        return search.iterative_deepening(game, start, limits)
    compiled: Any = game
    result: SearchResult[Any] = core.iterative_deepening(
        kernel,
        compiled.encode(start),
        max_nodes=limits.max_nodes,
        max_seconds=limits.max_seconds,
        max_memory=limits.max_memory,
        restart_nodes=search.RESTART_NODES,
    )
    return result._replace(best_line=decoded(game, result.best_line))

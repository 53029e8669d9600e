"""patience-solver: an exhaustive solver for patience (solitaire) card games.

    >>> import solver
    >>> solver.solve("accordion", seed=7).result
    'won'

The Python API: :func:`solve`, :func:`hint`, :func:`survey` and :func:`load_survey` (the
commands' answers, :mod:`solver.api`); :class:`Game`, a game to play move by move
(:mod:`solver.board`); :func:`games` and :func:`describe`, what is on offer; ``__version__``;
and :mod:`solver.errors`, every error a caller may meet. Each is imported on first use, so that
the engine's own modules and the command line start without them.
"""

from __future__ import annotations

from typing import Any

__all__ = ["solve", "hint", "survey", "load_survey", "Game", "Move", "games", "describe", "errors", "__version__"]

_FROM = {
    "solve": "solver.api",
    "hint": "solver.api",
    "survey": "solver.api",
    "load_survey": "solver.api",
    "Game": "solver.board",
    "Move": "solver.board",
    "games": "solver.service.catalogue",
    "describe": "solver.service.catalogue",
}


def __getattr__(name: str) -> Any:
    import importlib

    if name in _FROM:
        return getattr(importlib.import_module(_FROM[name]), name)
    if name == "errors":
        return importlib.import_module("solver.errors")
    if name == "__version__":
        from importlib.metadata import version

        return version("patience-solver")
    raise AttributeError(f"module 'solver' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})

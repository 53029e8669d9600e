"""patience-solver: an exhaustive solver for patience (solitaire) card games.

    >>> import solver
    >>> solver.solve("accordion", seed=7).result
    'won'

The Python API: :func:`solve`, :func:`hint`, :func:`survey` and :func:`load_survey` (the
commands' answers, :mod:`solver.api`); :class:`Game`, a game to play move by move
(:mod:`solver.board`); :func:`games` and :func:`describe`, what is on offer; ``__version__``;
and :mod:`solver.errors`, every error a caller may meet. Each is imported on first use, so that
the engine's own modules and the command line start without them. This module imports nothing
itself (not even typing, 3 ms): the console script's Ctrl-C handler is set only once this
package and ``solver.cli`` are imported.
"""

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

TYPE_CHECKING = False  # typing's own flag, without importing typing (mypy takes the name as True)
if TYPE_CHECKING:
    from typing import Any

    from solver import errors
    from solver.api import hint, load_survey, solve, survey
    from solver.board import Game, Move
    from solver.service.catalogue import describe, games


def __getattr__(name: str) -> "Any":  # a string: typing is not imported
    import importlib

    if name in _FROM:
        return getattr(importlib.import_module(_FROM[name]), name)
    if name == "errors":
        return importlib.import_module("solver.errors")
    if name == "__version__":
        from importlib.metadata import version

        return version("patience-solver")
    raise AttributeError(f"module 'solver' has no attribute {name!r}")


def __dir__() -> "list[str]":
    return sorted({*globals(), *__all__})

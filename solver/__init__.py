"""patience-solver: an exhaustive solver for patience games.

``solver.solve``, ``solver.hint``, ``solver.survey`` and ``solver.load_survey`` are the Python
API (:mod:`solver.api`); they are imported on first use, so that the engine's own modules and the
command line start without them. This module imports nothing itself (not even typing, 3 ms): the
console script's Ctrl-C handler is set only once this package and ``solver.cli`` are imported.
"""

__all__ = ["solve", "hint", "survey", "load_survey"]

TYPE_CHECKING = False  # typing's own flag, without importing typing (mypy takes the name as True)
if TYPE_CHECKING:
    from typing import Any

    from solver.api import hint, load_survey, solve, survey


def __getattr__(name: str) -> "Any":  # a string: typing is not imported
    if name in __all__:
        from solver import api

        return getattr(api, name)
    raise AttributeError(f"module 'solver' has no attribute {name!r}")

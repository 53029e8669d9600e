"""patience-solver: an exhaustive solver for patience games.

``solver.solve``, ``solver.hint``, ``solver.survey`` and ``solver.load_survey`` are the Python
API (:mod:`solver.api`); they are imported on first use, so that the engine's own modules and the
command line start without them.
"""

from __future__ import annotations

from typing import Any

__all__ = ["solve", "hint", "survey", "load_survey"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from solver import api

        return getattr(api, name)
    raise AttributeError(f"module 'solver' has no attribute {name!r}")

"""What a search answers: verdict, winning line, best score reached, and statistics."""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from enum import StrEnum
from typing import Any, Generic, NamedTuple, Self, TypeVar

from solver.errors import LimitError

Move = TypeVar("Move", bound=Hashable)


class Verdict(StrEnum):
    """``lost`` only when the whole reachable space was searched; a limit hit gives ``unknown``."""

    WON = "won"
    LOST = "lost"
    UNKNOWN = "unknown"


#: The largest count a limit may be (a signed 64-bit integer).
_MOST = 2**63 - 1
#: How to put each limit right, for the error message.
_FIXES = {
    "max_nodes": "give e.g. --max-nodes 1000000, or leave it out for no limit",
    "max_seconds": "give e.g. --max-seconds 60, or leave it out for no limit",
    "max_memory": "give e.g. --max-memory 2G",
}


class _Bounds(NamedTuple):
    """The fields of :class:`Limits`, which checks them as it is made."""

    max_nodes: int | None = None
    max_seconds: float | None = None
    max_memory: int | None = None


class Limits(_Bounds):
    """Bounds on one search. ``None`` means unbounded; a limit given must be positive and finite
    (NaN or infinity would silently mean no limit: leave the limit out for that)."""

    __slots__ = ()

    def __new__(
        cls, max_nodes: int | None = None, max_seconds: float | None = None, max_memory: int | None = None
    ) -> Limits:
        for name, value in zip(_Bounds._fields, (max_nodes, max_seconds, max_memory)):
            # A whole number is finite however long (math.isfinite of 10**400 overflows a float);
            # the counts are signed 64-bit in the compiled engine and in a survey file.
            finite = isinstance(value, int) and value <= _MOST or isinstance(value, float) and math.isfinite(value)
            if value is not None and not (finite and value > 0):
                option = "--" + name.replace("_", "-")
                if isinstance(value, int) and value > _MOST:
                    shown = value if value < 10**30 else "a number of more than 30 digits"
                    raise LimitError(f"{option} must be at most 2**63 - 1, not {shown}: {_FIXES[name]}")
                raise LimitError(f"{option} must be positive and finite, not {value}: {_FIXES[name]}")
        return super().__new__(cls, max_nodes, max_seconds, max_memory)

    @classmethod
    def _make(cls, iterable: Iterable[Any]) -> Self:  # type: ignore[override]  # typeshed's is generic over the tuple
        """Made through the constructor, so that ``_replace`` checks the values it puts in too."""
        return cls(*iterable)


#: No limit at all: the default of every search.
NO_LIMITS = Limits()


class Stats(NamedTuple):
    """Counters of one search: states expanded, table size and memory, CPU seconds."""

    nodes: int = 0
    table_entries: int = 0
    peak_table_entries: int = 0
    peak_table_bytes: int = 0
    evictions: int = 0
    seconds: float = 0.0
    iterations: int = 0


class SearchResult(NamedTuple, Generic[Move]):
    """The answer. ``best_score`` is proven minimal unless the verdict is ``unknown``.

    ``solution`` holds the winning moves when won; ``best_line`` reaches ``best_score``.
    ``limit`` names the limit that stopped the search, if one did. ``least_cost_floor``, when a
    limit stopped the search for the cheapest win after a win was found, is a proven lower
    bound on the cost of any win (the found line's cost is then not proven least). Equality
    compares every field, the search's counters too: compare ``verdict``, ``best_score`` and
    ``best_line`` to compare answers.
    """

    verdict: Verdict
    best_score: int
    best_line: tuple[Move, ...]
    stats: Stats
    limit: str | None = None
    least_cost_floor: int | None = None
    #: Which engine searched: "native" (the compiled core) or "python" (see solver.engine).
    engine: str = "python"

    @property
    def solution(self) -> tuple[Move, ...] | None:
        return self.best_line if self.verdict is Verdict.WON else None

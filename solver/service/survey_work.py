"""A survey's unit of work: what decides its results (:class:`SurveySpec`), what a worker runs
on a chunk of deals (:func:`solve_seeds`, :func:`solve_lines`) and sends back (:class:`Batch`),
and what a run did (:class:`Tally`). Workers (processes or Dask workers) import this module to
rebuild the survey's :class:`Setup` and solve.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from rulesets.cards import Card
from rulesets.family import OptionError
from solver.result import Limits
from solver.service.row_codec import VERDICTS, Stored, solver_version, stored_row
from solver.service.setup import Setup
from solver.service.solving import solve


@dataclass(frozen=True)
class SurveySpec:
    """Everything that decides a survey's results: the game as the user named it, the limits, and
    whether the fewest-redeals search is used.

    Picklable, so that workers (processes or Dask workers) rebuild the same :class:`Setup`.
    """

    game: str
    variant: str | None
    options: tuple[str, ...]
    max_nodes: int | None
    max_seconds: float | None
    max_memory: int | None
    fewest_redeals: bool = False

    def __post_init__(self) -> None:
        self.limits()  # refuses a limit that is not positive and finite, before any file is made
        if self.fewest_redeals and not hasattr(self.setup().game, "move_cost"):
            raise OptionError(f"--fewest-redeals counts redeals, and {self.setup().family.name} has none: leave it out")

    def setup(self) -> Setup:
        return _setup(self.game, self.variant, self.options)

    def limits(self) -> Limits:
        return Limits(max_nodes=self.max_nodes, max_seconds=self.max_seconds, max_memory=self.max_memory)

    def identity(self) -> dict[str, str]:
        """The settings a survey file is keyed on: rows of two surveys mix only if these agree."""
        setup = self.setup()
        identity = {
            "game": setup.family.name,
            "variant": setup.variant,
            "options": json.dumps(setup.settings, sort_keys=True),
            "max_nodes": json.dumps(self.max_nodes),
            "max_seconds": json.dumps(self.max_seconds),
            "max_memory": json.dumps(self.max_memory),
            "solver_version": solver_version(),
        }
        if self.fewest_redeals:  # absent otherwise, so files written before the setting stay resumable
            identity["fewest_redeals"] = "true"
        return identity


_SETUPS: dict[tuple[Any, ...], Setup] = {}
_SETUP_LOCK = threading.Lock()


def _setup(game: str, variant: str | None, options: tuple[str, ...]) -> Setup:
    """The Setup, built once per process (Dask workers may run chunks in threads)."""
    key = (game, variant, options)
    with _SETUP_LOCK:
        if key not in _SETUPS:
            _SETUPS[key] = Setup.of(game, variant, list(options))
        return _SETUPS[key]


class Batch(NamedTuple):
    """What a worker sends back for a chunk of deals: the solver and options it ran (a remote
    worker must run the survey's), and each deal's stored row (see :func:`stored_row`)."""

    solver_version: str
    options: str
    rows: list[Stored]

    def seconds(self) -> float:
        """The CPU seconds of the chunk's searches."""
        return sum(row.microseconds or 0 for row in self.rows) / 1e6


def solve_seeds(spec: SurveySpec, seeds: Sequence[int]) -> Batch:
    """Solve each seed; one row per seed (a unit of work sent to workers)."""
    setup = spec.setup()
    return _rows(spec, ((setup.deal(seed=seed), seed, None) for seed in seeds))


def solve_lines(spec: SurveySpec, lines: Sequence[tuple[int, str]]) -> Batch:
    """Solve each (line number, deal) of a file; one row per line (a unit of work sent to workers)."""
    setup = spec.setup()
    return _rows(spec, ((setup.deal(text=deal), None, line) for line, deal in lines))


def _rows(spec: SurveySpec, deals: Iterable[tuple[list[Card], int | None, int | None]]) -> Batch:
    """The row of each (deal, its seed, its line), solved under the survey's rules and limits."""
    setup, limits = spec.setup(), spec.limits()
    rows = [stored_row(solve(setup, cards, limits, seed, spec.fewest_redeals), line) for cards, seed, line in deals]
    return Batch(solver_version(), json.dumps(setup.settings, sort_keys=True), rows)


@dataclass
class Tally:
    """What a survey run did: deals wanted, already stored (and their verdicts), solved now, and
    the verdicts of the deals solved now."""

    total: int = 0
    skipped_results: dict[str, int] = field(default_factory=dict)
    solved: int = 0
    wall_seconds: float = 0.0
    results: dict[str, int] = field(default_factory=dict)
    interrupted: bool = False

    def note(self, batch: Batch) -> None:
        self.solved += len(batch.rows)
        for row in batch.rows:
            verdict = VERDICTS[row.verdict]
            self.results[verdict] = self.results.get(verdict, 0) + 1

    @property
    def skipped(self) -> int:
        """The deals wanted that were stored before this run."""
        return sum(self.skipped_results.values())

    def stored(self, verdict: str) -> int:
        """The deals of the wanted seeds stored with this verdict, before this run or by it."""
        return self.skipped_results.get(verdict, 0) + self.results.get(verdict, 0)


Arrived = Callable[[Batch], None]
#: What a worker runs on a chunk: :func:`solve_seeds` or :func:`solve_lines`.
Work = Callable[[SurveySpec, list[Any]], Batch]

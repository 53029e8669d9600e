"""A survey's unit of work: what decides its results (:class:`SurveySpec`), what a worker runs
on a chunk of deals (:func:`solve_seeds`, :func:`solve_lines`) and sends back (:class:`Batch`),
and what a run did (:class:`RunTally`). Workers (processes or Dask workers) import this module to
rebuild the survey's :class:`Setup` and solve each deal, or, in a survey of a player, have a
fresh player play it.
"""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from rulesets.cards import Card
from rulesets.family import OptionError
from solver.draws import SCHEME
from solver.engine import NO_EXTENSIONS
from solver.players import Player
from solver.result import Limits
from solver.service.playing import dealt, make_player, play
from solver.service.setup import Setup
from solver.service.solving import solve
from solver.surveys.row_codec import VERDICTS, Stored, played_row, solver_version, stored_row


@dataclass(frozen=True)
class SurveySpec:
    """Everything that decides a survey's results: the game as the user named it, the limits, and
    whether the fewest-redeals search is used; or, in a survey of a player (which searches
    nothing under limits), the player, its ``samples`` and ``rng_seed`` (None: the player's own
    defaults).

    Picklable, so that workers (processes or Dask workers) rebuild the same :class:`Setup` and
    make the same player for each deal.
    """

    game: str
    variant: str | None
    options: tuple[str, ...]
    max_nodes: int | None
    max_seconds: float | None
    max_memory: int | None
    fewest_redeals: bool = False
    player: str | None = None
    samples: int | None = None
    rng_seed: int | None = None

    def __post_init__(self) -> None:
        self.limits()  # refuses a limit that is not positive and finite, before any file is made
        if self.player is not None:
            self.make_player()  # refuses an unknown player, or settings it does not take
            _refuse_search_settings(self)
        elif self.samples is not None or self.rng_seed is not None:
            setting = "--samples" if self.samples is not None else "--rng-seed"
            raise OptionError(
                f"{setting} sets a player's draws, and no --player was given: add one, e.g. --player sampling "
                f"(or leave out {setting} to survey which deals can be won)"
            )
        if self.fewest_redeals and not hasattr(self.setup().game, "move_cost"):
            raise OptionError(f"--fewest-redeals counts redeals, and {self.setup().family.name} has none: leave it out")

    def setup(self) -> Setup:
        return _setup(self.game, self.variant, self.options)

    def limits(self) -> Limits:
        return Limits(max_nodes=self.max_nodes, max_seconds=self.max_seconds, max_memory=self.max_memory)

    def make_player(self) -> Player:
        """A fresh player of the survey (one plays one deal: it keeps its draws between turns)."""
        assert self.player is not None, "a survey of a player"
        return make_player(self.player, self.samples, self.rng_seed)

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
        if self.player is not None:  # absent likewise: a survey of solvability has none
            settings = self.make_player().settings()
            identity["player"] = self.player
            identity["player_settings"] = json.dumps(settings)
            if "rng_seed" in settings:  # a player that draws: the draws' name (absent before it was named)
                identity["draws"] = SCHEME
        return identity


#: The settings of a search, which a player's game has no use for, as ``survey`` names them.
_SEARCH_SETTINGS = {
    "max_nodes": "--max-nodes",
    "max_seconds": "--max-seconds",
    "max_memory": "--max-memory",
    "fewest_redeals": "--fewest-redeals",
}


def _refuse_search_settings(spec: SurveySpec) -> None:
    """Refuse a search's limits or the fewest-redeals search in a survey of a player: it plays each
    deal to its end, its searches bounded by its own settings, and solves none."""
    for name, flag in _SEARCH_SETTINGS.items():
        if getattr(spec, name) not in (None, False):
            raise OptionError(
                f"{flag} sets the search that finds which deals can be won; the {spec.player} player plays "
                f"each deal to its end: leave out {flag} (or --player)"
            )


_SETUPS: dict[tuple[Any, ...], Setup] = {}
_SETUP_LOCK = threading.Lock()


def _setup(game: str, variant: str | None, options: tuple[str, ...]) -> Setup:
    """The Setup, built once per process and engine (Dask workers may run chunks in threads;
    a test switches engines with PATIENCE_NO_EXTENSIONS, read when a setup is made)."""
    key = (game, variant, options, os.environ.get(NO_EXTENSIONS))
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
    """The row of each (deal, its seed, its line), solved under the survey's rules and limits, or
    played to its end by a fresh player of the survey (as ``patience play`` plays it)."""
    setup, limits = spec.setup(), spec.limits()
    if spec.player is not None:
        rows = [
            played_row(play(setup, dealt(setup, cards, seed), spec.make_player()), line) for cards, seed, line in deals
        ]
    else:
        rows = [
            stored_row(solve(setup, cards, limits, seed=seed, least_cost=spec.fewest_redeals), line)
            for cards, seed, line in deals
        ]
    return Batch(solver_version(), json.dumps(setup.settings, sort_keys=True), rows)


@dataclass
class RunTally:
    """What a survey run did: deals wanted, already stored (and their verdicts), solved now, the
    verdicts of the deals solved now, and whether multiprocessing's resource tracker died (and
    was started again) while the pool of workers ran."""

    total: int = 0
    skipped_results: dict[str, int] = field(default_factory=dict)
    solved: int = 0
    wall_seconds: float = 0.0
    results: dict[str, int] = field(default_factory=dict)
    interrupted: bool = False
    tracker_restarted: bool = False

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

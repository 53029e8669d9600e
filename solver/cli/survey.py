"""Batch solvability surveys: solve every seed of a range and store one row per deal in SQLite.

A survey file holds one survey: a ``survey`` table of metadata naming the game, variant, option
values, per-deal limits and solver version, and a ``deals`` table with one row per seed. Rows are
committed as results arrive (WAL journal, synchronous commits), so an interrupted survey -- Ctrl-C,
``kill -9``, a power cut -- loses at most the deals being solved at that moment, and rerunning the
same command skips every stored seed. A run whose rules, options or limits differ from the file's is
refused rather than mixed in.

Each deal's result depends only on its deal, the rules and the limits, never on which worker solved
it or when, so the stored results are the same whatever ``--jobs`` or ``--scheduler`` is used --
provided the deciding limit is ``--max-nodes`` (and ``--max-memory``, which bounds the table by a
count of entries). ``--max-seconds`` is CPU time: which deals it cuts off depends on the machine and
its load, so surveys limited by it are not reproducible.

The worker pool is a spawn-context :class:`~concurrent.futures.ProcessPoolExecutor` (or, with
``--scheduler``, a Dask distributed cluster); only the parent process writes to the file.
"""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import sys
import threading
import time
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator, List, Optional, Sequence

import typer

from solver.cli import (  # the package defines these before it imports this module
    MaxMemoryOption,
    MaxNodesOption,
    MaxSecondsOption,
    OptionsOption,
    VariantOption,
)
from solver.cli.run import Setup, parse_size, solve
from solver.result import Limits, Verdict

#: Seeds are SQLite integers (signed 64-bit), so a survey covers game numbers up to this one.
MAX_SURVEY_SEED = 2**63 - 1
SCHEMA_VERSION = 1
#: How long to keep trying to reach a ``--scheduler``.
DASK_CONNECT_TIMEOUT = "30s"
#: Columns of the ``deals`` table, in order (``seconds`` is CPU seconds of the search).
COLUMNS = (
    "seed", "game", "variant", "options", "deal", "result", "score", "score_proven",
    "limit_hit", "nodes", "seconds", "peak_table_bytes", "solver_version",
)
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS survey (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE IF NOT EXISTS deals (
    seed INTEGER PRIMARY KEY,          -- PySolFC game number; one row per seed (PRIMARY KEY)
    game TEXT NOT NULL,
    variant TEXT NOT NULL,
    options TEXT NOT NULL,             -- JSON object of every option's value
    deal TEXT NOT NULL,                -- the cards, first dealt first
    result TEXT NOT NULL,              -- won, lost or unknown
    score INTEGER,                     -- best score reached (lower is better), NULL if no end reached
    score_proven INTEGER NOT NULL,     -- 1 if the score is the proven minimum (no limit was hit)
    limit_hit TEXT,                    -- the limit that stopped the search, if any
    nodes INTEGER NOT NULL,
    seconds REAL NOT NULL,             -- CPU seconds of the search
    peak_table_bytes INTEGER NOT NULL,
    solver_version TEXT NOT NULL
)""",
)


class SurveyError(ValueError):
    """A survey that cannot run or be read: bad seed ranges, a foreign or mismatched file."""


def solver_version() -> str:
    """The installed patience-solver version, recorded with every survey row."""
    try:
        from importlib.metadata import version

        return version("patience-solver")
    except Exception:  # pragma: no cover - running from a tree that was never installed
        return "unknown"


# ----------------------------------------------------------------------------- seed ranges


def parse_seeds(text: str) -> list[tuple[int, int]]:
    """Seed ranges such as ``1-1000,2000-2100`` or ``7`` as sorted, merged, inclusive (low, high) pairs."""
    spans: list[tuple[int, int]] = []
    for part in text.replace(" ", "").split(","):
        if not part:
            continue
        low_text, dash, high_text = part.partition("-")
        try:
            low = int(low_text)
            high = int(high_text) if dash else low
        except ValueError:
            raise SurveyError(f"cannot read seed range {part!r}: write e.g. 1-1000,2000-2100") from None
        if low < 1 or high < low:
            raise SurveyError(f"seed range {part!r} is empty or starts below 1")
        if high > MAX_SURVEY_SEED:
            raise SurveyError(f"seed {high} is too large for a survey file (seeds are stored up to {MAX_SURVEY_SEED})")
        spans.append((low, high))
    if not spans:
        raise SurveyError("no seeds given: write e.g. --seeds 1-1000")
    spans.sort()
    merged = [spans[0]]
    for low, high in spans[1:]:
        last_low, last_high = merged[-1]
        if low <= last_high + 1:
            merged[-1] = (last_low, max(last_high, high))
        else:
            merged.append((low, high))
    return merged


def seed_list(text: str) -> list[int]:
    """Every seed of ranges written as for :func:`parse_seeds`, in order (for benchmarks)."""
    return [seed for low, high in parse_seeds(text) for seed in range(low, high + 1)]


def count_seeds(spans: Sequence[tuple[int, int]]) -> int:
    return sum(high - low + 1 for low, high in spans)


# ----------------------------------------------------------------------------- what a survey is


@dataclass(frozen=True)
class SurveySpec:
    """Everything that decides a survey's results: the game as the user named it, and the limits.

    Picklable, so that workers (processes or Dask workers) rebuild the same :class:`Setup`.
    """

    game: str
    variant: Optional[str]
    options: tuple[str, ...]
    max_nodes: Optional[int]
    max_seconds: Optional[float]
    max_memory: Optional[int]

    def setup(self) -> Setup:
        return _setup(self.game, self.variant, self.options)

    def limits(self) -> Limits:
        return Limits(max_nodes=self.max_nodes, max_seconds=self.max_seconds, max_memory=self.max_memory)

    def identity(self) -> dict[str, str]:
        """The metadata a survey file is keyed on: rows of two surveys mix only if these agree."""
        setup = self.setup()
        family = setup.family
        return {
            "game": family.name,
            "variant": setup.variant,
            "options": json.dumps(setup.settings, sort_keys=True),
            "max_nodes": json.dumps(self.max_nodes),
            "max_seconds": json.dumps(self.max_seconds),
            "max_memory": json.dumps(self.max_memory),
            "solver_version": solver_version(),
        }


_SETUPS: dict[tuple[Any, ...], Setup] = {}
_SETUP_LOCK = threading.Lock()


def _setup(game: str, variant: Optional[str], options: tuple[str, ...]) -> Setup:
    """The Setup, built once per process (Dask workers may run chunks in threads)."""
    key = (game, variant, options)
    with _SETUP_LOCK:
        if key not in _SETUPS:
            _SETUPS[key] = Setup.of(game, variant, list(options))
        return _SETUPS[key]


Row = tuple[Any, ...]


def solve_seeds(spec: SurveySpec, seeds: Sequence[int]) -> list[Row]:
    """Solve each seed; one ``deals`` row per seed (the unit of work sent to workers)."""
    from rulesets.cards import format_cards

    setup = spec.setup()
    limits = spec.limits()
    family = setup.family
    options = json.dumps(setup.settings, sort_keys=True)
    version = solver_version()
    rows = []
    for seed in seeds:
        cards = setup.deal(seed=seed)
        outcome = solve(setup, cards, limits, seed)
        result = outcome.result
        rows.append((
            seed, family.name, setup.variant, options, format_cards(cards), result.verdict.value,
            outcome.score(), int(result.verdict is not Verdict.UNKNOWN), result.limit, result.stats.nodes,
            round(result.stats.seconds, 6), result.stats.peak_table_bytes, version,
        ))
    return rows


# ----------------------------------------------------------------------------- the store


class Store:
    """A survey file: metadata checked on open, rows inserted (never replaced) as they arrive."""

    def __init__(self, path: Path, identity: Optional[dict[str, str]] = None) -> None:
        self.path = Path(path)
        if identity is None and not self.path.exists():
            raise SurveyError(f"{self.path}: no such survey file")
        try:
            self.db = sqlite3.connect(self.path, timeout=60, isolation_level=None)
            self.db.execute("PRAGMA journal_mode=WAL")
            self.db.execute("PRAGMA synchronous=FULL")
            tables = {name for (name,) in self.db.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        except sqlite3.DatabaseError as error:
            raise SurveyError(f"{self.path} is not a survey file ({error})") from None
        if tables and not {"survey", "deals"} <= tables:
            raise SurveyError(f"{self.path} is an SQLite file but not a survey file; give another --out")
        if identity is None:
            if not tables:
                raise SurveyError(f"{self.path} is not a survey file (it holds no survey)")
            self.meta = dict(self.db.execute("SELECT key, value FROM survey"))
            return
        if not tables:
            with self._transaction():  # IF NOT EXISTS / OR IGNORE: another run may be creating it too
                for statement in _SCHEMA:
                    self.db.execute(statement)
                self.db.executemany(
                    "INSERT OR IGNORE INTO survey (key, value) VALUES (?, ?)",
                    [("schema", str(SCHEMA_VERSION)), *identity.items()],
                )
        self.meta = dict(self.db.execute("SELECT key, value FROM survey"))
        differ = [k for k, v in identity.items() if self.meta.get(k) != v]
        if differ:
            raise SurveyError(
                f"{self.path} holds a survey with other settings ("
                + "; ".join(f"{k}: file has {self.meta.get(k)}, this run {identity[k]}" for k in differ)
                + "); results of different rules, options, limits or solver versions are not mixed: give another --out"
            )

    def _transaction(self) -> "_Transaction":
        return _Transaction(self.db)

    def stored_in(self, low: int, high: int) -> set[int]:
        return {seed for (seed,) in self.db.execute("SELECT seed FROM deals WHERE seed BETWEEN ? AND ?", (low, high))}

    def count_in(self, spans: Sequence[tuple[int, int]]) -> tuple[int, int]:
        """(stored deals, of which won) within the seed ranges."""
        done = won = 0
        for low, high in spans:
            n, w = self.db.execute(
                "SELECT COUNT(*), COALESCE(SUM(result = 'won'), 0) FROM deals WHERE seed BETWEEN ? AND ?", (low, high)
            ).fetchone()
            done, won = done + n, won + w
        return done, won

    def missing(self, spans: Sequence[tuple[int, int]], block: int = 10000) -> Iterator[int]:
        """The seeds of the ranges not stored yet, in increasing order (memory bounded by ``block``)."""
        for low, high in spans:
            for start in range(low, high + 1, block):
                end = min(high, start + block - 1)
                stored = self.stored_in(start, end)
                for seed in range(start, end + 1):
                    if seed not in stored:
                        yield seed

    def add(self, rows: Iterable[Row]) -> None:
        with self._transaction():
            self.db.executemany(
                f"INSERT OR IGNORE INTO deals ({', '.join(COLUMNS)}) VALUES ({', '.join('?' * len(COLUMNS))})",
                list(rows),
            )

    def close(self) -> None:
        self.db.close()


class _Transaction:
    def __init__(self, db: sqlite3.Connection) -> None:
        self.db = db

    def __enter__(self) -> None:
        self.db.execute("BEGIN IMMEDIATE")

    def __exit__(self, kind: Any, *_: Any) -> None:
        self.db.execute("COMMIT" if kind is None else "ROLLBACK")


# ----------------------------------------------------------------------------- running


@dataclass
class Tally:
    """What a survey run did: deals wanted, already stored, solved now, and verdict counts."""

    total: int = 0
    skipped: int = 0
    solved: int = 0
    won: int = 0
    wall_seconds: float = 0.0
    results: dict[str, int] = field(default_factory=dict)
    interrupted: bool = False

    def note(self, rows: Sequence[Row]) -> None:
        self.solved += len(rows)
        for row in rows:
            self.results[row[5]] = self.results.get(row[5], 0) + 1
            self.won += row[5] == "won"


class _Chunker:
    """Splits the pending seeds into chunks sized to take about ``target`` seconds each."""

    def __init__(self, seeds: Iterator[int], target: float, first: int = 2, most: int = 500) -> None:
        self.seeds, self.target, self.size, self.most = seeds, target, first, most
        self.per_deal: Optional[float] = None
        self.exhausted = False

    def learn(self, rows: Sequence[Row]) -> None:
        if rows:
            mean = sum(row[10] for row in rows) / len(rows) + 0.0002
            self.per_deal = mean if self.per_deal is None else 0.7 * self.per_deal + 0.3 * mean
            self.size = max(1, min(self.most, int(self.target / self.per_deal)))

    def next(self) -> list[int]:
        chunk = []
        for seed in self.seeds:
            chunk.append(seed)
            if len(chunk) >= self.size:
                break
        if len(chunk) < self.size:
            self.exhausted = True
        return chunk


class _Progress:
    """A rich progress bar on stderr (deals done, rate, ETA, wins), or nothing."""

    def __init__(self, show: bool, title: str, total: int, done: int, won: int) -> None:
        self.bar = None
        if not show:
            return
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeRemainingColumn

        self.bar = Progress(
            TextColumn("{task.description}"),
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]} deals/s"),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            TextColumn("won {task.fields[won]} ({task.fields[share]})"),
            console=Console(stderr=True),
            transient=False,
        )
        self.started, self.start_done = time.monotonic(), done
        self.task = self.bar.add_task(title, total=total, completed=done, won=won, rate="-", share=_share(won, done))
        self.bar.start()

    def update(self, done: int, won: int) -> None:
        if self.bar is not None:
            elapsed = time.monotonic() - self.started
            rate = (done - self.start_done) / elapsed if elapsed > 0 else 0.0
            self.bar.update(self.task, completed=done, won=won, rate=f"{rate:.1f}", share=_share(won, done))

    def close(self) -> None:
        if self.bar is not None:
            self.bar.stop()


def _share(won: int, done: int) -> str:
    return f"{100 * won / done:.1f}%" if done else "-"


def show_progress() -> bool:
    """Progress bars are for people: only when stderr is a terminal and not under CI."""
    return sys.stderr.isatty() and not os.environ.get("CI")


def _worker_init(parent: int) -> None:
    """Pool workers leave Ctrl-C to the parent, and exit if the parent dies (e.g. ``kill -9``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


class _Interrupted(Exception):
    pass


def _on_sigterm(signum: int, frame: Any) -> None:
    raise _Interrupted()


def run_survey(
    spec: SurveySpec,
    seeds: Sequence[tuple[int, int]],
    out: Path,
    jobs: int = 1,
    scheduler: Optional[str] = None,
    progress: Optional[bool] = None,
    chunk_seconds: float = 0.5,
    on_rows: Optional[Callable[[Sequence[Row]], None]] = None,
) -> Tally:
    """Solve every seed of ``seeds`` not stored in ``out`` yet; store each row as it arrives.

    ``jobs`` worker processes (1: solve in this process; 0: one per CPU), or the Dask cluster at
    ``scheduler``. Ctrl-C or SIGTERM stops cleanly (what was solved is kept) and sets ``interrupted``.
    """
    identity = spec.identity()
    store = Store(out, identity)
    tally = Tally(total=count_seeds(seeds))
    try:
        done, won = store.count_in(seeds)
        tally.skipped = done
        bar = _Progress(
            show_progress() if progress is None else progress,
            f"{identity['game']} ({identity['variant']})", tally.total, done, won,
        )
        chunker = _Chunker(store.missing(seeds), chunk_seconds)
        started = time.monotonic()

        def arrived(rows: Sequence[Row]) -> None:
            for row in rows[:1]:  # a remote worker must run the same solver on the same rules
                if (row[3], row[12]) != (identity["options"], identity["solver_version"]):
                    raise SurveyError(
                        f"a worker runs solver {row[12]} with options {row[3]}; this survey is solver "
                        f"{identity['solver_version']} with options {identity['options']}: install the same version everywhere"
                    )
            store.add(rows)
            tally.note(rows)
            chunker.learn(rows)
            bar.update(done + tally.solved, won + tally.won)
            if on_rows is not None:
                on_rows(rows)

        previous = signal.getsignal(signal.SIGTERM) if threading.current_thread() is threading.main_thread() else None
        if previous is not None:
            signal.signal(signal.SIGTERM, _on_sigterm)
        try:
            if scheduler:
                _run_dask(spec, chunker, scheduler, arrived)
            elif (jobs or os.cpu_count() or 1) <= 1:
                while not chunker.exhausted:
                    chunk = chunker.next()
                    if chunk:
                        arrived(solve_seeds(spec, chunk))
            else:
                _run_pool(spec, chunker, jobs or os.cpu_count() or 1, arrived)
        except (KeyboardInterrupt, _Interrupted):
            tally.interrupted = True
        finally:
            if previous is not None:
                signal.signal(signal.SIGTERM, previous)
            tally.wall_seconds = time.monotonic() - started
            bar.close()
    finally:
        store.close()
    return tally


def _run_pool(spec: SurveySpec, chunker: _Chunker, jobs: int, arrived: Callable[[Sequence[Row]], None]) -> None:
    import multiprocessing

    pool = ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context("spawn"), initializer=_worker_init, initargs=(os.getpid(),))
    running: set[Future[list[Row]]] = set()
    try:
        while True:
            while len(running) < 2 * jobs and not chunker.exhausted:
                chunk = chunker.next()
                if chunk:
                    running.add(pool.submit(solve_seeds, spec, chunk))
            if not running:
                break
            finished, running = wait(running, return_when=FIRST_COMPLETED)
            for future in finished:
                arrived(future.result())
    except BaseException:
        for process in list(getattr(pool, "_processes", {}).values()):  # stop deals in flight at once
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()


def _run_dask(spec: SurveySpec, chunker: _Chunker, scheduler: str, arrived: Callable[[Sequence[Row]], None]) -> None:
    try:
        from distributed import Client, as_completed
    except ImportError:
        raise SurveyError("--scheduler needs Dask: pip install 'patience-solver[dask]'") from None
    try:
        client = Client(scheduler, timeout=DASK_CONNECT_TIMEOUT)
    except (OSError, TimeoutError) as error:
        raise SurveyError(f"cannot reach the Dask scheduler at {scheduler}: {error}") from None
    try:
        threads = max(1, sum(client.nthreads().values()))
        chunker.target *= 4  # fewer, larger chunks over the network
        in_flight = as_completed()
        submitted: set[Any] = set()

        def feed() -> None:
            while len(submitted) < 2 * threads and not chunker.exhausted:
                chunk = chunker.next()
                if chunk:
                    future = client.submit(solve_seeds, spec, chunk, pure=False)
                    submitted.add(future)
                    in_flight.add(future)

        feed()
        try:
            while submitted:
                future = next(in_flight)
                submitted.discard(future)
                arrived(future.result())
                future.release()
                feed()
        except BaseException:
            client.cancel(list(submitted))
            raise
    finally:
        client.close()


# ----------------------------------------------------------------------------- the command


def survey_command(
    game: str = typer.Argument(..., help="A game or variant name."),
    seeds: str = typer.Option(..., "--seeds", help="Seed ranges, e.g. 1-100000 or 1-1000,2000-2100."),
    out: Path = typer.Option(..., "--out", help="The SQLite survey file (created, or resumed)."),
    jobs: int = typer.Option(1, "--jobs", "-j", help="Worker processes (0: one per CPU)."),
    variant: Optional[str] = VariantOption,
    option: List[str] = OptionsOption,
    max_nodes: Optional[int] = MaxNodesOption,
    max_seconds: Optional[float] = MaxSecondsOption,
    max_memory: str = MaxMemoryOption,
    scheduler: Optional[str] = typer.Option(
        None, "--scheduler", help="Run on the Dask distributed cluster at this address, e.g. tcp://HOST:8786 (extra 'dask')."
    ),
    progress: Optional[bool] = typer.Option(
        None, "--progress/--no-progress", help="Show a progress bar (default: only on a terminal, not under CI)."
    ),
) -> None:
    """Solve every seed of a range under per-deal limits; store one row per deal in SQLite (resumable).

    Rerunning the same command after an interruption skips the deals already stored.
    A file of other rules, options or limits is refused.
    Results are the same whatever --jobs or --scheduler when --max-nodes is the limit that decides;
    --max-seconds counts CPU time, so which deals it cuts off varies with the machine and its load.
    """
    if jobs < 0:
        raise SurveyError("--jobs must be 0 (one per CPU) or more")
    spans = parse_seeds(seeds)
    spec = SurveySpec(game, variant, tuple(option), max_nodes, max_seconds, parse_size(max_memory))
    spec.setup()  # report a bad game, variant or option before touching the file
    tally = run_survey(spec, spans, out, jobs, scheduler, progress)
    counts = ", ".join(f"{tally.results.get(k, 0)} {k}" for k in ("won", "lost", "unknown"))
    rate = f", {tally.solved / tally.wall_seconds:.1f} deals/s" if tally.solved and tally.wall_seconds > 0 else ""
    typer.echo(
        f"{out}: {tally.skipped + tally.solved} of {tally.total} deals stored "
        f"({tally.skipped} already there; solved now: {counts}{rate})"
    )
    if tally.interrupted:
        typer.echo("interrupted: rerun the same command to carry on where it stopped", err=True)
        raise typer.Exit(130)

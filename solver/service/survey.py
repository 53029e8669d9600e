"""Running a survey: solve every seed of a range, or every deal of a file, under per-deal limits
and store one row per deal (keyed by its seed, or its line in the file).

Each deal's result depends only on its deal, the rules and the limits, never on which worker solved
it or when, so the stored results are the same whatever the number of jobs or the scheduler --
provided the deciding limit is ``max_nodes`` (and ``max_memory``, which bounds the table by a count
of entries). ``max_seconds`` is CPU time: which deals it cuts off depends on the machine and its
load, so surveys limited by it are not reproducible.

The workers are a spawn-context :class:`~concurrent.futures.ProcessPoolExecutor` (or a Dask
distributed cluster); only the parent process writes to the file. Nothing here prints: a caller
follows a run through its ``on_progress`` callback.
"""

from __future__ import annotations

import json
import logging
import os
import queue
import signal
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import (
    FIRST_COMPLETED,
    CancelledError,
    Future,
    ProcessPoolExecutor,
    wait,
)
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NamedTuple

from rulesets.cards import Card
from rulesets.family import OptionError
from solver.result import Limits
from solver.service.deal_file import DealFile
from solver.service.errors import RunLost, SchedulerLost, StoreFault, SurveyError, WorkerLost
from solver.service.resume import changed_file
from solver.service.row_codec import VERDICTS, Stored, solver_version, stored_row
from solver.service.seeds import MAX_SURVEY_SEED, Span, count_seeds
from solver.service.setup import Setup
from solver.service.solving import solve
from solver.service.store import Store

#: How long to keep trying to reach a scheduler.
DASK_CONNECT_TIMEOUT = "30s"


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
        return sum(row[5] or 0 for row in self.rows) / 1e6


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
            verdict = VERDICTS[row[1]]  # type: ignore[index]
            self.results[verdict] = self.results.get(verdict, 0) + 1

    @property
    def skipped(self) -> int:
        """The deals wanted that were stored before this run."""
        return sum(self.skipped_results.values())

    def stored(self, verdict: str) -> int:
        """The deals of the wanted seeds stored with this verdict, before this run or by it."""
        return self.skipped_results.get(verdict, 0) + self.results.get(verdict, 0)


class _Stream:
    """The deals of a stream (a pipe, a terminal) as they come: read by a thread of their own, so
    that the deals read are solved and stored while the next are awaited (read whole first, an
    endless one grew without bound and nothing was solved). Each deal read is held to the survey
    file's lines: the same deal on a line the file holds (skipped if stored), a deal after them
    only where the surveyed stream was cut short. A bad or changed line ends the stream: the deals
    read before it are still solved and stored, then :attr:`error` is raised."""

    #: How many deals read may wait to be solved (the stream's writer then waits).
    WAITING = 10000

    def __init__(self, deals: DealFile, store: Store, tally: Tally) -> None:
        self.name, self.store, self.tally = deals.name, store, tally
        self.first = list(deals.deals)
        self.error: Exception | None = None
        self.ended = False
        self.queue: queue.Queue[Any] = queue.Queue(self.WAITING)
        self.surveyed: list[tuple[int, str, str | None]] = []  # the file's lines, read ahead in blocks
        self.after = 0  # the last line of the file read so far
        self.beyond = False  # past the last of the file's lines the survey held
        assert deals.more is not None, "a stream has more deals to come"
        threading.Thread(target=self._read, args=(deals.more,), daemon=True).start()

    def _read(self, more: Iterator[tuple[int, str]]) -> None:
        try:
            for deal in more:
                self.queue.put(deal)
        except Exception as error:  # a bad line, a stream that is not text: raised where it is taken
            self.queue.put(error)
        else:
            self.queue.put(None)

    def ready(self) -> bool:
        """Whether a deal (or the end) can be taken without waiting."""
        return bool(self.first) or not self.queue.empty()

    def take(self, block: bool) -> tuple[int, str] | None:
        """The next deal to solve; None if none is ready (``block``: wait for one) or at the end."""
        while not self.ended:
            if self.first:
                found = self.first.pop(0)
            else:
                try:
                    found = self.queue.get(block=block)
                except queue.Empty:
                    return None
            if isinstance(found, Exception) or found is None:
                self._end(found)
                return None
            if self._new(found):
                return found
        return None

    def _new(self, deal: tuple[int, str]) -> bool:
        """Hold a deal read to the survey's lines: whether it is still to be solved (the tally
        counts the deals the survey holds, stored or not, and each new one read)."""
        line, cards = deal
        while not self.beyond:
            if not self.surveyed:
                self.surveyed = self.store.surveyed_lines(self.after)[::-1]
                self.beyond = not self.surveyed
            if not self.surveyed or self.surveyed[-1][0] > line:
                break
            was, was_cards, result = self.surveyed.pop()
            if was < line:  # a deal the surveyed file had on a line that now has none
                return self._changed((was, was_cards), deal)
            self.after = line
            if was_cards != cards:
                return self._changed((was, was_cards), deal)
            return result is None
        if self.surveyed or not self.store.lines_open:  # a deal where the surveyed file had none
            return self._changed(None, deal)
        self.after = line  # beyond the deals of a stream cut short: a new one
        self.store.read_line(line, cards)
        self.tally.total += 1
        return True

    def _changed(self, was: tuple[int, str] | None, now: tuple[int, str] | None) -> bool:
        self._end(changed_file(self.store.path, self.name, was, now))
        return False

    def _end(self, error: Exception | None) -> None:
        """The stream ended, or stopped at ``error``; at its end, the file's lines must all have
        been read again, and are then complete."""
        self.ended = True
        if error is None:
            rest = self.surveyed[-1:] or ([] if self.beyond else self.store.surveyed_lines(self.after, 1))
            if rest:
                error = changed_file(self.store.path, self.name, rest[-1][:2], None)
        if error is None:
            self.store.end_of_lines()
        self.error = error


class _Chunker:
    """Splits the pending deals (seeds, or a file's lines) into chunks sized to take about
    ``target`` seconds each; of a stream, the deals ready, never waiting for a whole chunk."""

    def __init__(self, pending: Iterator[Any] | _Stream, target: float, first: int = 2, most: int = 500) -> None:
        self.pending, self.target, self.size, self.most = pending, target, first, most
        self.per_deal: float | None = None
        self.exhausted = False
        #: How long a wait for finished work may take before the stream is looked at again.
        self.poll = 0.1 if isinstance(pending, _Stream) else None

    def learn(self, batch: Batch) -> None:
        if batch.rows:
            mean = batch.seconds() / len(batch.rows) + 0.0002
            self.per_deal = mean if self.per_deal is None else 0.7 * self.per_deal + 0.3 * mean
            self.size = max(1, min(self.most, int(self.target / self.per_deal)))

    def ready(self) -> bool:
        """Whether a chunk can be had without waiting (always, but of a stream)."""
        return not isinstance(self.pending, _Stream) or self.pending.ready()

    def next(self, block: bool = True) -> list[Any]:
        """The next chunk: empty once every deal is taken (or, not ``block``ing, if a stream has
        none ready)."""
        chunk: list[Any] = []
        while len(chunk) < self.size and not self.exhausted:
            if isinstance(self.pending, _Stream):
                deal = self.pending.take(block and not chunk)
                self.exhausted = self.pending.ended
            else:
                deal = next(self.pending, None)
                self.exhausted = deal is None
            if deal is None:
                break
            chunk.append(deal)
        return chunk


Arrived = Callable[[Batch], None]
#: What a worker runs on a chunk: :func:`solve_seeds` or :func:`solve_lines`.
Work = Callable[[SurveySpec, list[Any]], Batch]


def run_survey(
    spec: SurveySpec,
    deals: Sequence[Span] | DealFile,
    out: Path,
    jobs: int = 1,
    scheduler: str | None = None,
    chunk_seconds: float = 0.5,
    on_progress: Callable[[Tally], None] | None = None,
) -> Tally:
    """Solve every deal of ``deals`` (seed ranges, or a file's deals) not stored in ``out`` yet;
    store each row as it arrives.

    ``jobs`` worker processes (1: solve in this process; 0: one per CPU), or the Dask cluster at
    ``scheduler``. ``on_progress`` sees the tally once the stored seeds are counted and after each
    batch. Ctrl-C or SIGTERM stops cleanly (what was solved is kept) and sets ``interrupted``.
    The settings, the scheduler and the file are all checked before a deal is solved; a fault of
    the file or the scheduler after that is raised saying how many deals are stored.
    """
    workers = worker_count(jobs)
    client = _dask_client(scheduler) if scheduler else None
    try:
        if client is None and workers > 1:
            _quiet_resource_tracker()
        if isinstance(deals, DealFile):
            store = Store(out, spec.identity(), deals)
        else:
            store = Store(out, spec.identity(), requested=deals)
        try:
            return _fill(spec, store, deals, workers, client, chunk_seconds, on_progress)
        finally:
            store.close()
    finally:
        if client is not None:
            client.close(timeout=5)


def _fill(
    spec: SurveySpec,
    store: Store,
    deals: Sequence[Span] | DealFile,
    workers: int,
    client: Any,
    chunk_seconds: float,
    on_progress: Callable[[Tally], None] | None,
) -> Tally:
    """Count what the open survey holds, then solve and store the rest; a fault of the file or
    the scheduler is raised saying how many deals are stored."""
    tally = Tally()
    try:
        if isinstance(deals, DealFile) and deals.more is not None:
            tally.total, tally.skipped_results = store.count_lines(), store.count_in([(1, MAX_SURVEY_SEED)])
            pending: Iterator[Any] | _Stream = _Stream(deals, store, tally)
            work: Work = solve_lines
        else:
            tally.total, tally.skipped_results, pending, work = _pending(store, deals)
        chunker = _Chunker(pending, chunk_seconds * (4 if client else 1))  # Dask: fewer, larger
        if on_progress is not None:
            on_progress(tally)

        def arrived(batch: Batch) -> None:
            _check_worker(batch, store.meta)
            store.add(batch.rows)
            tally.note(batch)
            chunker.learn(batch)
            if on_progress is not None:
                on_progress(tally)

        _run_interruptibly(spec, work, chunker, workers, client, arrived, tally)
        if isinstance(pending, _Stream) and pending.error is not None and not tally.interrupted:
            raise SurveyError(f"{pending.error}; {_stored(tally)} are stored in {store.path}") from None
    except StoreFault as fault:  # the file failed under the run: what is stored stays
        fix = f"{fault.fix}, then rerun the same command to carry on" if fault.resumable else fault.fix
        raise StoreFault(store.path, f"{fault.what} after {_stored(tally)} were stored", fix) from None
    except RunLost as lost:  # the scheduler or a worker went away: what is stored stays
        raise type(lost)(
            f"{lost}; {_stored(tally)} are stored in {store.path}: rerun the same command to carry on"
        ) from None
    return tally


def _pending(store: Store, deals: Sequence[Span] | DealFile) -> tuple[int, dict[str, int], Iterator[Any], Work]:
    """The deals wanted, those stored already (counted by verdict), the rest to solve, and how."""
    if isinstance(deals, DealFile):  # every stored line is one of the file's: the store checked
        every = (1, MAX_SURVEY_SEED)
        stored = store.stored_in(*every)
        return (
            len(deals.deals),
            store.count_in([every]),
            iter([deal for deal in deals.deals if deal[0] not in stored]),
            solve_lines,
        )
    return count_seeds(deals), store.count_in(deals), store.missing(deals), solve_seeds


def worker_count(jobs: int) -> int:
    """The worker processes ``--jobs`` asks for: 0 means one per CPU; more than four per CPU
    would only crowd the machine (and each is a process), so they are refused."""
    cpus = os.cpu_count() or 1
    if not 0 <= jobs <= 4 * cpus:
        raise SurveyError(
            f"--jobs must be from 0 (one per CPU) to {4 * cpus} (four per CPU on this machine), not {jobs}"
        )
    return jobs or cpus


def _stored(tally: Tally) -> str:
    return f"{tally.skipped + tally.solved} of {tally.total} deals"


def _check_worker(batch: Batch, identity: dict[str, str]) -> None:
    """A remote worker must run the same solver on the same rules."""
    if (batch.options, batch.solver_version) != (identity["options"], identity["solver_version"]):
        raise SurveyError(
            f"a worker runs solver {batch.solver_version} with options {batch.options}; this survey is solver "
            f"{identity['solver_version']} with options {identity['options']}: install the same version everywhere"
        )


class _Interrupted(Exception):
    pass


def _on_sigterm(signum: int, frame: Any) -> None:
    raise _Interrupted()


def _run_interruptibly(
    spec: SurveySpec, work: Work, chunker: _Chunker, workers: int, client: Any, arrived: Arrived, tally: Tally
) -> None:
    """Run the chunks where they are to run; Ctrl-C or SIGTERM ends the run as ``interrupted``."""
    started = time.monotonic()
    previous = signal.getsignal(signal.SIGTERM) if threading.current_thread() is threading.main_thread() else None
    if previous is not None:
        signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        if client is not None:
            _run_dask(spec, work, chunker, client, arrived)
        elif workers <= 1:
            while not chunker.exhausted:
                chunk = chunker.next()
                if chunk:
                    arrived(work(spec, chunk))
        else:
            _run_pool(spec, work, chunker, workers, arrived)
    except (KeyboardInterrupt, _Interrupted):
        tally.interrupted = True
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        tally.wall_seconds = time.monotonic() - started


def _quiet_resource_tracker() -> None:
    """Start multiprocessing's resource tracker with its stderr on /dev/null. After a ``kill -9``
    of this process it still removes the pool's semaphores, but would otherwise tell the user's
    terminal about "leaked semaphore objects" that are no fault of theirs."""
    from multiprocessing import resource_tracker

    with _quiet_stderr():
        resource_tracker.ensure_running()


@contextmanager
def _quiet_stderr() -> Iterator[None]:
    """Standard error on /dev/null meanwhile: for the processes started then, which keep it."""
    try:
        saved, quiet = os.dup(2), os.open(os.devnull, os.O_WRONLY)
    except OSError:  # no stderr to keep quiet
        yield
        return
    try:
        os.dup2(quiet, 2)
        yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)
        os.close(quiet)


def _started() -> None:
    """Nothing: the work that starts every worker of a pool (see :func:`_run_pool`)."""


def _worker_init(parent: int) -> None:
    """Pool workers leave Ctrl-C to the parent, end at once on SIGTERM (the parent's way of
    stopping them: the console script, imported again by a spawned worker, sets a handler of its
    own), and exit if the parent dies (e.g. ``kill -9``)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)

    def watch() -> None:
        while True:
            time.sleep(0.5)
            if os.getppid() != parent:
                os._exit(1)

    threading.Thread(target=watch, daemon=True).start()


def _run_pool(spec: SurveySpec, work: Work, chunker: _Chunker, jobs: int, arrived: Arrived) -> None:
    import multiprocessing

    pool = ProcessPoolExecutor(
        jobs, mp_context=multiprocessing.get_context("spawn"), initializer=_worker_init, initargs=(os.getpid(),)
    )
    running: set[Future[Batch]] = set()
    try:
        # Every worker started at once, with stderr on /dev/null (their failures reach this
        # process as exceptions): one this process's kill -9 caught starting up told the terminal
        # of its own EOFError.
        with _quiet_stderr():
            for started in [pool.submit(_started) for _ in range(jobs)]:
                started.exception()
        while True:
            while len(running) < 2 * jobs and not chunker.exhausted and (not running or chunker.ready()):
                chunk = chunker.next(block=not running)  # a stream: wait only with nothing running
                if not chunk:
                    break
                running.add(pool.submit(work, spec, chunk))
            if not running:
                if chunker.exhausted:
                    break
                continue
            finished, running = wait(running, timeout=chunker.poll, return_when=FIRST_COMPLETED)
            if any(isinstance(future.exception(), BrokenProcessPool) for future in finished):
                finished |= wait(running).done  # a broken pool ends every chunk: keep those it finished
                running = set()
            _take(finished, arrived)
    except BaseException as error:
        for process in list(getattr(pool, "_processes", {}).values()):  # stop deals in flight at once
            process.terminate()
        pool.shutdown(wait=False, cancel_futures=True)
        if isinstance(error, BrokenProcessPool):
            raise WorkerLost("a worker process died (killed, or out of memory?)") from None
        raise
    pool.shutdown()


def _take(finished: set[Future[Batch]], arrived: Arrived) -> None:
    """Store the rows of every chunk that finished, then raise the first failure among the others:
    a chunk that failed (a dead worker) must not lose the rows other workers computed."""
    failures = [error for error in (future.exception() for future in finished) if error is not None]
    for future in finished:
        if future.exception() is None:
            arrived(future.result())
    if failures:
        raise failures[0]


def _dask_client(scheduler: str) -> Any:
    """A client of the Dask scheduler at ``scheduler`` (connected before any file is created)."""
    try:
        from distributed import Client
    except ImportError:
        raise SurveyError("--scheduler needs Dask: pip install 'patience-solver[dask]'") from None
    # The client's failures reach the caller as SurveyError or SchedulerLost; Dask's own log lines
    # (the client's, and the batched channel's traceback when a scheduler goes away) would only
    # repeat them on the terminal. Dask's configuration gives distributed.client a level of its own.
    for name in ("distributed", "distributed.client"):
        logging.getLogger(name).setLevel(logging.CRITICAL)
    scheme = scheduler.partition("://")[0] if "://" in scheduler else "tcp"
    try:
        return Client(scheduler, timeout=DASK_CONNECT_TIMEOUT)
    except Exception as error:  # noqa: BLE001 - Dask's own, of any kind (TLS without certificates: a TypeError)
        fix = _FIXES.get(scheme, "check the address, e.g. tcp://host:8786, and that the scheduler runs")
        raise SurveyError(f"cannot reach the Dask scheduler at {scheduler}: {error}; {fix}") from None


#: What to do when a scheduler of a kind cannot be reached.
_FIXES = {
    "inproc": "an inproc:// scheduler lives inside one program (a LocalCluster of threads): give the address of "
    "one that runs apart, e.g. tcp://host:8786",
    "tls": "a tls:// scheduler needs Dask's TLS certificates in its configuration (distributed.comm.tls); "
    "or give a tcp:// address",
    "ucx": "a ucx:// scheduler needs Dask's UCX support installed (the ucx-py or distributed-ucxx package); "
    "or give a tcp:// address",
}


def _run_dask(spec: SurveySpec, work: Work, chunker: _Chunker, client: Any, arrived: Arrived) -> None:
    """Keep the cluster's threads busy with chunks (two each) until every deal is stored; a lost
    scheduler (its futures cancelled, its connection closed) is raised as :class:`SchedulerLost`."""
    from distributed import as_completed

    submitted: set[Any] = set()
    try:
        threads = max(1, sum(client.nthreads().values()))
        in_flight = as_completed()

        def feed() -> None:
            while len(submitted) < 2 * threads and not chunker.exhausted and (not submitted or chunker.ready()):
                chunk = chunker.next(block=not submitted)  # a stream: wait only with nothing running
                if not chunk:
                    break
                future = client.submit(work, spec, chunk, pure=False)
                submitted.add(future)
                in_flight.add(future)

        feed()
        while submitted:
            future = next(in_flight)
            submitted.discard(future)
            arrived(future.result())
            future.release()
            feed()
    except (CancelledError, OSError, TimeoutError) as error:  # the store raises none of these
        raise SchedulerLost(
            f"the Dask scheduler at {client.scheduler.address} went away ({type(error).__name__})"
        ) from None
    except BaseException:
        client.cancel(list(submitted))
        raise

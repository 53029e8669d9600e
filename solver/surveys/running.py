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

import logging
import os
import signal
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

from solver.errors import RunLost, StoreFault, SurveyError
from solver.service.deal_file import DealFile
from solver.service.seeds import MAX_SURVEY_SEED, Span, count_seeds
from solver.surveys.feed import Chunker, Stream
from solver.surveys.store import Store
from solver.surveys.work import Arrived, Batch, RunTally, SurveySpec, Work, solve_lines, solve_seeds
from solver.surveys.workers import quiet_resource_tracker, run_dask, run_pool

#: How long to keep trying to reach a scheduler.
DASK_CONNECT_TIMEOUT = "30s"


def run_survey(
    spec: SurveySpec,
    deals: Sequence[Span] | DealFile,
    out: Path,
    *,
    jobs: int = 1,
    scheduler: str | None = None,
    chunk_seconds: float = 0.5,
    on_progress: Callable[[RunTally], None] | None = None,
) -> RunTally:
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
            quiet_resource_tracker()
        if isinstance(deals, DealFile):
            store = Store(out, spec.identity(), deals)
        else:
            store = Store(out, spec.identity(), requested=deals)
        try:
            return _fill(
                spec, store, deals, workers=workers, client=client, chunk_seconds=chunk_seconds, on_progress=on_progress
            )
        finally:
            store.close()
    finally:
        if client is not None:
            client.close(timeout=5)


def _fill(
    spec: SurveySpec,
    store: Store,
    deals: Sequence[Span] | DealFile,
    *,
    workers: int,
    client: Any,
    chunk_seconds: float,
    on_progress: Callable[[RunTally], None] | None,
) -> RunTally:
    """Count what the open survey holds, then solve and store the rest; a fault of the file or
    the scheduler is raised saying how many deals are stored."""
    tally = RunTally()
    try:
        if isinstance(deals, DealFile) and deals.more is not None:
            tally.total, tally.skipped_results = store.count_lines(), store.count_in([(1, MAX_SURVEY_SEED)])
            pending: Iterator[Any] | Stream = Stream(deals, store, tally)
            work: Work = solve_lines
        else:
            tally.total, tally.skipped_results, pending, work = _pending(store, deals)
        chunker = Chunker(pending, chunk_seconds * (4 if client else 1))  # Dask: fewer, larger
        if on_progress is not None:
            on_progress(tally)

        def arrived(batch: Batch) -> None:
            _check_worker(batch, store.meta)
            store.add(batch.rows)
            tally.note(batch)
            chunker.learn(batch)
            if on_progress is not None:
                on_progress(tally)

        _run_interruptibly(spec, work, chunker, workers=workers, client=client, arrived=arrived, tally=tally)
        if isinstance(pending, Stream) and pending.error is not None and not tally.interrupted:
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


def _stored(tally: RunTally) -> str:
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
    spec: SurveySpec, work: Work, chunker: Chunker, *, workers: int, client: Any, arrived: Arrived, tally: RunTally
) -> None:
    """Run the chunks where they are to run; Ctrl-C or SIGTERM ends the run as ``interrupted``."""
    started = time.monotonic()
    previous = signal.getsignal(signal.SIGTERM) if threading.current_thread() is threading.main_thread() else None
    if previous is not None:
        signal.signal(signal.SIGTERM, _on_sigterm)
    try:
        if client is not None:
            run_dask(spec, work, chunker, client=client, arrived=arrived)
        elif workers <= 1:
            while not chunker.exhausted:
                chunk = chunker.next()
                if chunk:
                    arrived(work(spec, chunk))
        else:
            tally.tracker_restarted = run_pool(spec, work, chunker, jobs=workers, arrived=arrived)
    except (KeyboardInterrupt, _Interrupted):
        tally.interrupted = True
    finally:
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)
        tally.wall_seconds = time.monotonic() - started


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

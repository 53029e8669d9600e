"""Where a survey's chunks run: a pool of spawned worker processes (each leaving Ctrl-C to the
parent, and ending if the parent dies) or a Dask cluster, each kept busy with two chunks a worker
or thread; the rows of every chunk that finished are kept before a failure is raised.
"""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from concurrent.futures import (
    FIRST_COMPLETED,
    CancelledError,
    Future,
    ProcessPoolExecutor,
    wait,
)
from concurrent.futures.process import BrokenProcessPool
from contextlib import contextmanager
from typing import Any

from solver.errors import SchedulerLost, WorkerLost
from solver.surveys.feed import Chunker
from solver.surveys.work import Arrived, Batch, SurveySpec, Work


def quiet_resource_tracker() -> bool:
    """Start multiprocessing's resource tracker with its stderr on /dev/null (again, if it died:
    killed, say); whether it had died. After a ``kill -9`` of this process it still removes the
    pool's semaphores, but would otherwise tell the user's terminal about "leaked semaphore
    objects" that are no fault of theirs; and one started again by Python itself would print a
    traceback for each semaphore unregistered that it never saw registered."""
    import warnings
    from multiprocessing import resource_tracker

    with warnings.catch_warnings(record=True) as caught, _quiet_stderr():
        warnings.simplefilter("always")
        resource_tracker.ensure_running()
    return any(str(warning.message).startswith("resource_tracker:") for warning in caught)


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


def run_pool(spec: SurveySpec, work: Work, chunker: Chunker, *, jobs: int, arrived: Arrived) -> bool:
    """Run the chunks on ``jobs`` spawned workers; whether multiprocessing's resource tracker
    died meanwhile (it is started again, quietly: :func:`_shut_down`)."""
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
        _shut_down(pool, wait=False)
        if isinstance(error, BrokenProcessPool):
            raise WorkerLost("a worker process died (killed, or out of memory?)") from None
        raise
    return _shut_down(pool, wait=True)


def _shut_down(pool: ProcessPoolExecutor, wait: bool) -> bool:
    """Shut the pool down (without waiting: its chunks in flight cancelled); whether the resource
    tracker had died. Its queues' semaphores are unregistered from the tracker as the pool lets
    them go: it is made sure to run first, quietly, and the shutdown runs with stderr on
    /dev/null, so that a tracker dying even now is started again without a word."""
    restarted = quiet_resource_tracker()
    with _quiet_stderr():
        pool.shutdown(wait=wait, cancel_futures=not wait)
    return restarted


def _take(finished: set[Future[Batch]], arrived: Arrived) -> None:
    """Store the rows of every chunk that finished, then raise the first failure among the others:
    a chunk that failed (a dead worker) must not lose the rows other workers computed."""
    failures = [error for error in (future.exception() for future in finished) if error is not None]
    for future in finished:
        if future.exception() is None:
            arrived(future.result())
    if failures:
        raise failures[0]


def run_dask(spec: SurveySpec, work: Work, chunker: Chunker, *, client: Any, arrived: Arrived) -> None:
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

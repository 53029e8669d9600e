"""Helpers shared by the test modules: solving with a checked line, walking lines of play, and
PySolFC's deal number 1 (the deal most tests start from)."""

from __future__ import annotations

import importlib.util
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from random import Random
from typing import Any

from hypothesis import strategies as st

from solver.engine import engine_of
from solver.replay import checked
from solver.result import Limits, SearchResult


def load_benchmark(name: str) -> Any:
    """benchmarks/NAME.py (the folder is no package) as a module, for what a test holds it to."""
    spec = importlib.util.spec_from_file_location(name, Path(__file__).parent.parent / "benchmarks" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


#: PySolFC's deal number 1 (full deck, first dealt first), as ``patience deal GAME --seed 1`` prints it.
PYSOL_DEAL_1 = (
    "JD 2D 9H JC 5D 7H 7C 5H KD KC 9S 5S AD QC KH 3H 2S KS 9D QD JS AS AH 3C 4C 5C TS QH 4H AC 4D "
    "7S 3S TD 4S TH 8H 2C JH 7D 6D 8S 8D QS 6C 3D 8C TC 6S 9C 2H 6H"
)


def solve(game: Any, start: Any, limit: int | None = None) -> SearchResult[Any]:
    """The depth-first search's result from ``start``, its line replayed through the rules."""
    return checked(game, start, engine_of(game).depth_first(start, limits=Limits(max_nodes=limit)))


def assert_same_search_without_restarts(game: Any, start: Any, limits: Limits, context: Any) -> None:
    """Both engines searched without restarts (which then visit states in the same order) reach
    the same verdict, score and line by the same number of states."""
    from solver import search

    compiled = engine_of(game).depth_first(start, limits=limits, restart_nodes=None)
    python = search.depth_first(game, start, limits, restart_nodes=None)
    assert compiled.engine == "native"
    assert (compiled.verdict, compiled.best_score, compiled.best_line, compiled.stats.nodes) == (
        python.verdict,
        python.best_score,
        python.best_line,
        python.stats.nodes,
    ), context


def random_play(game: Any, state: Any, rng: Random, steps: int) -> Iterator[tuple[Any, Any]]:
    """Up to ``steps`` random legal moves from ``state``: each (state, move played there), and
    the last state with move None (where play stopped)."""
    for _ in range(steps):
        moves = game.moves(state)
        if not moves:
            break
        move = rng.choice(moves)
        yield state, move
        state = game.apply(state, move)
    yield state, None


def states_along(game: Any, start: Any, line: Sequence[Any]) -> list[Any]:
    """The states of a line of play, ``start`` first and the final state last."""
    states = [start]
    for move in line:
        states.append(game.apply(states[-1], move))
    return states


def walk(game: Any, start: Any, choices: Sequence[int]) -> list[tuple[Any, Any]]:
    """A line of play steered by ``choices`` (move ``choice % len(moves)`` at each step, as
    hypothesis draws them): each state met with the move then played, the last state with None
    (no move left, or the choices used up)."""
    steps = []
    state = start
    for choice in choices:
        moves = game.moves(state)
        if not moves:
            break
        move = moves[choice % len(moves)]
        steps.append((state, move))
        state = game.apply(state, move)
    steps.append((state, None))
    return steps


def reachable_states(game: Any, start: Any) -> set[Any]:
    """Every state the ruleset ``game`` reaches from ``start`` by legal moves (``start`` included)."""
    seen, todo = {start}, [start]
    while todo:
        state = todo.pop()
        for move in game.moves(state):
            after = game.apply(state, move)
            if after not in seen:
                seen.add(after)
                todo.append(after)
    return seen


def reference_rows() -> list[dict[str, str]]:
    """The Accordion reference file's deals (tests/data/accordion-reference.tsv): each with its
    ``deal_id``, ``cards``, and the verdict and minimal piles of Solvitaire, an independent solver."""
    import csv
    from pathlib import Path

    with (Path(__file__).parent / "data" / "accordion-reference.tsv").open() as rows:
        return list(csv.DictReader(rows, delimiter="\t"))


def reference_deal(deal_id: str) -> str:
    """The cards of the reference file's deal ``deal_id``."""
    return next(row["cards"] for row in reference_rows() if row["deal_id"] == deal_id)


# --- a second deal, for the games that fix their end cards ----------------------------------------

#: PySolFC's deal number 32000 (full deck, first dealt first), the second deal the seeded layouts
#: are checked on.
PYSOL_DEAL_32000 = (
    "7S 4D JS 8D 6D 3H 3D TH JC 3C 2C 5S 9D AC 9C 2S 4H 6S 8S 9S TS 9H KD QD 6H 7D 5H QS AD QH TC "
    "4C AH JD 4S JH TD 3S 7H 8C 6C 2H 2D 5D KS QC KH 5C 7C 8H KC AS"
)


# --- the command line, run in this process ----------------------------------------------------------


@dataclass(frozen=True)
class Ran:
    """How a command line run by :func:`run_cli` ended: its exit code and what it wrote."""

    exit_code: int
    stdout: str
    stderr: str

    @property
    def output(self) -> str:
        """Standard output, then standard error."""
        return self.stdout + self.stderr


def run_cli(*args: str, stdin: str | bytes = b"") -> Ran:
    """Run ``patience ARGS`` in this process, as the console script does (the application's
    ``run``), reading ``stdin`` as its standard input and capturing what it writes."""
    import contextlib
    import io
    import sys

    from solver.cli.application import run

    given = stdin.encode() if isinstance(stdin, str) else stdin
    out, err, before = io.StringIO(), io.StringIO(), sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(given), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            code = run(args)
    finally:
        sys.stdin = before
    return Ran(code, out.getvalue(), err.getvalue())


# --- toy games given as explicit graphs, for the engine ---------------------------------------------


@dataclass(frozen=True)
class GraphGame:
    """States are node numbers; a move is (target, cost); node scores; won nodes score 0."""

    edges: dict = field(hash=False)
    scores: dict = field(hash=False)

    def moves(self, state):
        return self.edges.get(state, [])

    def apply(self, state, move):
        return move[0]

    def is_won(self, state):
        return self.scores[state] == 0

    def key(self, state):
        return state.to_bytes(4, "little")

    def score(self, state):
        return self.scores[state]

    def lower_bound(self, state):
        return 0

    def move_cost(self, state, move):
        return move[1]

    def cost_to_win_bound(self, state):
        return 0

    def cost_to_win_cap(self):
        return 0

    def hold_bound_cache(self, max_bytes):
        return lambda: 0

    def kernel(self):
        """The graph as the compiled engine's kernel, built from this game's own answers at
        every node (so that the subclasses' bounds carry over)."""
        from solver._graph import GraphKernel

        nodes = range(max(self.scores) + 1)
        return GraphKernel(
            [list(self.moves(node)) for node in nodes],
            [self.score(node) for node in nodes],
            [self.is_won(node) for node in nodes],
            [self.lower_bound(node) for node in nodes],
            [self.cost_to_win_bound(node) for node in nodes],
            self.cost_to_win_cap(),
        )

    def encode(self, state):
        return state.to_bytes(4, "little")

    def decode(self, code):
        return self.moves(code >> 16)[code & 0xFFFF]  # solver/_graph.pyx: node * 65,536 + index


def chain(n, cyclic=False, won_at=None):
    """0 -> 1 -> ... -> n-1 (and back to 0 if cyclic); scores count down to 1 (or 0 at won_at)."""
    edges = {i: [(i + 1, 1)] for i in range(n - 1)}
    if cyclic:
        edges[n - 1] = [(0, 1)]
    scores = {i: n - i for i in range(n)}
    if won_at is not None:
        scores[won_at] = 0
    return GraphGame(edges, scores)


@st.composite
def graphs(draw, acyclic=False):
    """Graph games of 2 to 12 nodes started at node 0 (which is not won); two moves may lead to one
    node (at different costs); with ``acyclic``, every move leads to a higher node."""
    n = draw(st.integers(2, 12))
    edges = {}
    for node in range(n):
        targets = st.integers(node + 1, n - 1) if acyclic else st.integers(0, n - 1)
        edges[node] = (
            []
            if acyclic and node == n - 1
            else draw(st.lists(st.tuples(targets, st.integers(0, 3)), max_size=4, unique=True))
        )
    scores = {node: draw(st.integers(0, 5)) if node else draw(st.integers(1, 5)) for node in range(n)}
    return GraphGame(edges, scores)


# ----------------------------------------------------------------------------- surveys
# The survey tests' common ground: a quick survey of every verdict, what must agree between two
# runs of it, and the `patience` command in a subprocess.

#: Parlett under a small node limit: a quick mix of won, lost and unknown deals.
SURVEY_GAME, SURVEY_VARIANT, SURVEY_NODES = "accordion", "parlett", 2000


#: The columns two runs of one survey must agree on: everything but CPU seconds and table bytes.
#: The key comes first: the seed, or in a survey of a file of deals, the line.
def survey_table(path: Any) -> list[tuple[Any, ...]]:
    """A survey file's deals, by seed (or line), as far as runs must agree on them: the key, game,
    variant, options, deal, result, score, score_proven, limit_hit, nodes and solver version."""
    import sqlite3
    from pathlib import Path

    from solver.surveys.store import Store

    # Opened to write first, as a rerun opens it: after a kill -9 SQLite then recovers the -wal's
    # last commit, which a read-only connection trusting the dead writer's -shm index may miss.
    sqlite3.connect(path).execute("SELECT COUNT(*) FROM deals").connection.close()
    store = Store(Path(path))
    try:
        return [(row.seed if row.line is None else row.line, *row[1:10], row.solver_version) for row in store.rows()]
    finally:
        store.close()


def survey_spec(nodes: int = SURVEY_NODES) -> Any:
    """The tests' survey of :data:`SURVEY_VARIANT`, as the command line builds it (no options, a
    limit of ``nodes`` states a deal, the default memory bound)."""
    from solver.surveys.running import SurveySpec

    return SurveySpec(SURVEY_GAME, SURVEY_VARIANT, (), nodes, None, 2 * 1024**3)


#: The survey the fault and refusal tests run (tests/test_survey_faults.py, test_survey_refusals.py).
FAULTS_SEEDS, FAULTS_TOTAL = "1-80", 80


def stored_deals(path: Any) -> int:
    """How many deals a survey file (perhaps being written) holds; 0 before it is made. The
    connection is closed before this returns: one left open in the test's process across a
    kill -9 of the writer keeps SQLite from recovering the writer's last commit from its -wal
    (every connection of a process shares one lock), so a later read missed rows a rerun found."""
    import contextlib
    import sqlite3

    try:
        with contextlib.closing(sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=5)) as db:
            return int(db.execute("SELECT COUNT(*) FROM deals").fetchone()[0])
    except sqlite3.OperationalError:  # not made yet, or its tables not yet written
        return 0


def faults_reference(tmp_path_factory: Any) -> tuple[Any, list[tuple[Any, ...]]]:
    """An uninterrupted run of that survey (in this process): its file and its rows, which hold
    every verdict."""
    from solver.service.seeds import parse_seeds
    from solver.surveys.running import run_survey

    spec = survey_spec()
    path = tmp_path_factory.mktemp("reference") / "reference.sqlite"
    assert run_survey(spec, parse_seeds(FAULTS_SEEDS), path).solved == FAULTS_TOTAL
    rows = survey_table(path)
    assert {row[5] for row in rows} == {"won", "lost", "unknown"}, "the sample should hold every verdict"
    return path, rows


def survey_args(out: Any, seeds: Any, *extra: str) -> list[str]:
    """The arguments of ``patience survey`` for the quick survey of ``seeds`` into ``out``
    (``seeds``: seed ranges, or the Path of a file of deals, surveyed with ``--file``)."""
    from pathlib import Path

    deals = ["--file", str(seeds)] if isinstance(seeds, Path) else ["--seeds", seeds]
    return [
        "survey",
        SURVEY_GAME,
        "--variant",
        SURVEY_VARIANT,
        *deals,
        "--max-nodes",
        str(SURVEY_NODES),
        "--out",
        str(out),
        *extra,
    ]


def survey_deal_file(path: Any, seeds: range) -> Any:
    """A file of the quick survey's deals of ``seeds``, line i holding the deal of the i-th seed:
    for seeds from 1, its survey stores what theirs does, keyed by line instead of seed."""
    from rulesets.cards import format_cards
    from solver.service.setup import Setup

    setup = Setup.of(SURVEY_GAME, SURVEY_VARIANT)
    path.write_text("".join(format_cards(setup.deal(seed=seed)) + "\n" for seed in seeds))
    return path


def interruptible() -> None:
    """Give a command a test will interrupt SIGINT's default disposition (``preexec_fn``): a test
    run started in the background, where the shell has its commands ignore SIGINT, handed that
    on, and Ctrl-C was ignored (the entry point rightly keeps an ignored SIGINT ignored)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)


def patience_command() -> list[str]:
    """The installed ``patience`` command (beside this Python), as a subprocess runs it."""
    import shutil
    import sys
    from pathlib import Path

    beside = Path(sys.executable).with_name("patience")
    found = str(beside) if beside.exists() else shutil.which("patience")
    assert found, "patience is not installed: pip install -e ."
    return [found]


def snapshot(directory: Any) -> dict[str, bytes]:
    """Every file of a directory and its bytes: what a refused command must leave as it was."""
    return {entry.name: entry.read_bytes() for entry in sorted(directory.iterdir()) if entry.is_file()}


def error_line(result: Any) -> str:
    """The one stderr line of a refused command (exit code 2)."""
    lines = result.stderr.strip().splitlines()
    assert result.exit_code == 2 and len(lines) == 1 and lines[0].startswith("patience: error: "), (
        result.exit_code,
        result.stderr,
    )
    return lines[0]


def wilson_by_bisection(won: int, n: int, z: float = 1.959963984540054) -> tuple[float, float]:
    """The Wilson interval from its definition: the p with |won/n - p| = z * sqrt(p (1 - p) / n)."""
    import math

    observed = won / n

    def outside(p: float) -> float:
        return abs(observed - p) - z * math.sqrt(p * (1 - p) / n)

    def root(inside: float, beyond: float) -> float:
        for _ in range(200):
            middle = (inside + beyond) / 2
            if outside(middle) > 0:
                beyond = middle
            else:
                inside = middle
        return (inside + beyond) / 2

    return root(observed, 0.0), root(observed, 1.0)


class DaskCluster:
    """A Dask scheduler and its workers, each a process of its own started as a user would (``dask
    scheduler``, ``dask worker``) on this machine's loopback address, one thread a worker and no
    nanny (so that a worker killed stays dead). A context manager: everything it started is
    stopped on leaving, by process number."""

    def __init__(self, folder: Any, workers: int) -> None:
        from pathlib import Path

        self.folder, self.count = Path(folder), workers
        self.folder.mkdir(parents=True, exist_ok=True)
        self.file = self.folder / "scheduler.json"
        self.scheduler: Any = None
        self.workers: list[Any] = []

    def _written(self) -> dict[str, Any] | None:
        """The scheduler file once the scheduler has written it whole (it exists, empty or half
        written, a moment before: a test read it so under load), else None."""
        import json

        try:
            written = json.loads(self.file.read_text())
        except (FileNotFoundError, ValueError):
            return None
        return written if isinstance(written, dict) and "address" in written else None

    def __enter__(self) -> DaskCluster:
        import subprocess
        import sys
        import time
        from pathlib import Path

        dask = str(Path(sys.executable).with_name("dask"))
        quiet = {"stdout": subprocess.DEVNULL, "stderr": subprocess.DEVNULL}
        self.scheduler = subprocess.Popen(
            [dask, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard", "--scheduler-file",
             str(self.file)], **quiet,
        )  # fmt: skip
        deadline = time.monotonic() + 60
        written = None
        while written is None and time.monotonic() < deadline:
            written = self._written()
            if written is None:
                time.sleep(0.1)
        assert written is not None, "the Dask scheduler did not start"
        self.address = written["address"]
        for _ in range(self.count):
            self.workers.append(
                subprocess.Popen(
                    [
                        dask,
                        "worker",
                        "--scheduler-file",
                        str(self.file),
                        "--nthreads",
                        "1",
                        "--no-nanny",
                        "--no-dashboard",
                        "--host",
                        "127.0.0.1",
                        "--death-timeout",
                        "60",
                    ],
                    **quiet,
                )  # fmt: skip
            )
        from distributed import Client

        with Client(self.address, timeout="60s") as client:
            client.wait_for_workers(self.count, timeout=60)
        return self

    def kill_worker(self) -> None:
        """``kill -9`` the first worker that is still running."""
        import signal

        for worker in self.workers:
            if worker.poll() is None:
                worker.send_signal(signal.SIGKILL)
                worker.wait(timeout=30)
                return

    def __exit__(self, *_: object) -> None:
        for process in [*self.workers, self.scheduler]:
            if process is not None and process.poll() is None:
                process.terminate()
        for process in [*self.workers, self.scheduler]:
            if process is not None:
                try:
                    process.wait(timeout=20)
                except Exception:  # noqa: BLE001 - one that will not end is killed
                    process.kill()
                    process.wait(timeout=10)


#: Runs a command (its address space capped at argv[1] bytes where above 0, killed after argv[2]
#: seconds) and prints its peak resident KiB and CPU seconds, then what it printed. The command
#: is started from this small process, not from the test's: a child's peak counts from its
#: parent's memory at the fork (Linux keeps the larger across the exec), which the test runner's
#: would pass on.
_MEASURED = (
    "import json, resource, subprocess, sys\n"
    "cap, limit = int(sys.argv[1]), float(sys.argv[2])\n"
    "def capped():\n"
    "    if cap:\n"
    "        resource.setrlimit(resource.RLIMIT_AS, (cap, cap))\n"
    "try:\n"
    "    done = subprocess.run(sys.argv[3:], capture_output=True, text=True, preexec_fn=capped, timeout=limit)\n"
    "    code, out, err = done.returncode, done.stdout, done.stderr\n"
    "except subprocess.TimeoutExpired:\n"
    "    code, out, err = -9, '', 'killed: over the time limit'\n"
    "used = resource.getrusage(resource.RUSAGE_CHILDREN)\n"
    "print(json.dumps([used.ru_maxrss, used.ru_utime + used.ru_stime, code, out, err]))\n"
)


@dataclass(frozen=True)
class Measured:
    """A command run on its own: its peak resident bytes, CPU seconds, exit code and output."""

    peak: int
    seconds: float
    code: int
    stdout: str
    stderr: str


def measured(args: Sequence[str], address_cap: int = 0, timeout: float = 120) -> Measured:
    """``patience ARGS`` run from a small go-between process (see ``_MEASURED``), measured."""
    import json
    import subprocess
    import sys

    done = subprocess.run(
        [sys.executable, "-c", _MEASURED, str(address_cap), str(timeout), *patience_command(), *args],
        capture_output=True,
        text=True,
        check=True,
    )
    peak, seconds, code, stdout, stderr = json.loads(done.stdout)
    return Measured(peak * 1024, seconds, code, stdout, stderr)

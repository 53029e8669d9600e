"""Solve every deal of the Accordion reference file and compare with the reference solver.

Prints agreement of verdict and minimal piles, total and worst CPU seconds beside the reference
solver's recorded ``peer_cpu_s`` (per group of deals: random, constructed, published), nodes per
second, table memory per stored state, and the process's peak memory.

``--python`` also solves every deal on the Python engine in this process (which engine goes first
alternates deal by deal), and prints each group's CPU seconds and states per CPU second on both
engines and their ratio; ``--no-restarts`` searches without restarts (then both engines visit the
same states, which is checked deal by deal). ``--against DIR`` also solves every deal with
another checkout's code (``DIR/.venv/bin/python``
running this script with ``--serve`` in ``DIR``), deal by deal in one run, each deal by one side
and then the other (which goes first alternates), and prints both sides' CPU seconds: on a
machine whose speed drifts from minute to minute, only such a ratio means anything.

    python benchmarks/accordion_reference.py [--rows N] [--only-lost] [--max-seconds S] [--slowest K]
        [--no-memory-bound] [--python] [--no-restarts] [--against DIR]
"""

from __future__ import annotations

import argparse
import csv
import json
import resource
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from rulesets.cards import parse_cards
from solver import engine, search
from solver.engine import engine_of
from solver.replay import checked
from solver.result import Limits, SearchResult
from solver.search import RESTART_NODES
from solver.service import engines
from solver.service.setup import Setup

REFERENCE = Path(__file__).resolve().parent.parent / "tests" / "data" / "accordion-reference.tsv"


class Timing(NamedTuple):
    """One deal's CPU seconds, ours and the reference solver's (ordered by ours first), and the
    other side's (the Python engine with ``--python``, another checkout with ``--against``; 0
    without either)."""

    ours: float
    peer: float
    deal_id: str
    nodes: int
    against: float = 0.0
    against_nodes: int = 0


@dataclass
class Group:
    """The deals of one kind (random, constructed, published; lost ones apart)."""

    deals: int = 0
    ours: float = 0.0
    peer: float = 0.0
    ours_worst: float = 0.0
    peer_worst: float = 0.0
    against: float = 0.0
    against_worst: float = 0.0
    nodes: int = 0
    against_nodes: int = 0

    def add(self, timing: Timing) -> None:
        self.deals += 1
        self.ours += timing.ours
        self.peer += timing.peer
        self.ours_worst = max(self.ours_worst, timing.ours)
        self.peer_worst = max(self.peer_worst, timing.peer)
        self.against += timing.against
        self.against_worst = max(self.against_worst, timing.against)
        self.nodes += timing.nodes
        self.against_nodes += timing.against_nodes


class Solved(NamedTuple):
    """What one side found for one deal (the verdict by name, so it crosses a pipe as JSON)."""

    verdict: str
    best_score: int
    nodes: int
    seconds: float


def solve(
    game: Any, cards: str, max_seconds: float | None, python: bool = False, restarts: int | None = RESTART_NODES
) -> tuple[Solved, SearchResult[Any]]:
    """One deal solved from the start, on the engine in use (or the Python one), its line
    replayed through the rules."""
    start = game.start(parse_cards(cards))
    limits = Limits(max_seconds=max_seconds)
    if python:
        found = search.depth_first(game, start, limits, restart_nodes=restarts)
    else:
        found = engine.engine_of(game).depth_first(start, limits=limits, restart_nodes=restarts)
    result = checked(game, start, found)
    return Solved(result.verdict.value, result.best_score, result.stats.nodes, result.stats.seconds), result


def serve(max_seconds: float | None) -> None:
    """``--serve``: solve each deal read from stdin (one line of cards) and answer a JSON line."""
    game = Setup.of("accordion").game
    for line in sys.stdin:
        print(json.dumps(solve(game, line, max_seconds)[0]), flush=True)


class PythonEngine:
    """The Python engine as the other side, in this process (``--python``)."""

    def __init__(self, game: Any, max_seconds: float | None, restarts: int | None) -> None:
        self.game, self.max_seconds, self.restarts = game, max_seconds, restarts

    def solve(self, cards: str) -> Solved:
        return solve(self.game, cards, self.max_seconds, python=True, restarts=self.restarts)[0]

    def close(self) -> None:
        pass


class Against:
    """Another checkout solving deals on request: its python runs this script with ``--serve``."""

    def __init__(self, checkout: Path, max_seconds: float | None) -> None:
        checkout = checkout.resolve()  # the worker starts in it, so a relative path would not do
        command = [str(checkout / ".venv" / "bin" / "python"), str(Path(__file__).resolve()), "--serve"]
        if max_seconds is not None:
            command += ["--max-seconds", str(max_seconds)]
        self.process = subprocess.Popen(command, cwd=checkout, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)

    def solve(self, cards: str) -> Solved:
        assert self.process.stdin is not None and self.process.stdout is not None
        self.process.stdin.write(cards + "\n")
        self.process.stdin.flush()
        return Solved(*json.loads(self.process.stdout.readline()))

    def close(self) -> None:
        assert self.process.stdin is not None
        self.process.stdin.close()
        self.process.wait()


def disagreement(row: dict[str, str], found: Solved, side: str = "") -> str | None:
    """How a side's verdict and minimal piles differ from the reference's, if they do."""
    verdict = "won" if row["solvable"] == "yes" else "lost"
    piles = int(row["min_piles"])
    if (found.verdict, found.best_score) == (verdict, piles):
        return None
    return f"{side}{row['deal_id']}: {found.verdict} {found.best_score}, reference {verdict} {piles}"


def print_groups(groups: dict[str, Group], against: bool) -> None:
    print(
        f"{'group':<12}{'deals':>6}{'ours s':>10}{'peer s':>10}{'ratio':>8}{'our worst':>11}{'peer worst':>12}", end=""
    )
    print(f"{'other s':>10}{'other/ours':>12}{'other worst':>13}" if against else "")
    for name, group in sorted(groups.items()):
        ratio = group.peer / group.ours if group.ours else float("inf")
        print(
            f"{name:<12}{group.deals:>6}{group.ours:>10.2f}{group.peer:>10.2f}{ratio:>8.1f}"
            f"{group.ours_worst:>11.3f}{group.peer_worst:>12.2f}",
            end="",
        )
        speedup = group.against / group.ours if group.ours else float("inf")
        print(f"{group.against:>10.2f}{speedup:>12.2f}{group.against_worst:>13.3f}" if against else "")
    if against:
        print(f"{'group':<12}{'our states/s':>14}{'other states/s':>16}{'ratio':>8}")
        for name, group in sorted(groups.items()):
            ours, other = group.nodes / max(group.ours, 1e-9), group.against_nodes / max(group.against, 1e-9)
            print(f"{name:<12}{ours:>14,.0f}{other:>16,.0f}{ours / max(other, 1e-9):>8.1f}")


def bounded_run(game: Any, row: dict[str, str]) -> None:
    """The hardest deal again with the table bounded to 256 KiB."""
    start = game.start(parse_cards(row["cards"]))
    bound = 256 * 1024
    bounded = checked(game, start, engine_of(game).depth_first(start, limits=Limits(max_memory=bound, max_seconds=60)))
    print(
        f"memory bound {bound // 1024} KiB on {row['deal_id']}: {bounded.verdict.value}, "
        f"min piles {bounded.best_score}, peak table {bounded.stats.peak_table_bytes // 1024} KiB, "
        f"{bounded.stats.evictions} evictions, {bounded.stats.seconds:.2f} s"
    )


def arguments() -> argparse.Namespace:
    """The command line's options."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=None, help="only the first N rows")
    parser.add_argument("--only-lost", action="store_true", help="only the deals the reference found lost")
    parser.add_argument("--max-seconds", type=float, default=None, help="CPU limit per deal")
    parser.add_argument(
        "--no-memory-bound",
        action="store_true",
        help="skip re-solving the slowest deal under a 256 KiB table (a lost one can take a minute)",
    )
    parser.add_argument("--slowest", type=int, default=5, help="list the K slowest deals")
    parser.add_argument(
        "--against", type=Path, default=None, help="also time another checkout (its root, with a .venv), deal by deal"
    )
    parser.add_argument("--serve", action="store_true", help="solve deals read from stdin (for --against)")
    parser.add_argument("--python", action="store_true", help="also time the Python engine, deal by deal")
    parser.add_argument(
        "--no-restarts", action="store_true", help="search without restarts (both engines then expand the same states)"
    )
    return parser.parse_args()


class Run(NamedTuple):
    """What solving the reference's deals found: the deals by group, each deal's timing, where
    a side disagrees with the reference (or the engines expand different states), and the
    largest table (its states and bytes)."""

    groups: dict[str, Group]
    timings: list[Timing]
    disagreements: list[str]
    largest: tuple[int, int]


def solve_rows(
    rows: list[dict[str, str]],
    game: Any,
    other: Against | PythonEngine | None,
    max_seconds: float | None,
    restarts: int | None,
    same_states: bool,
) -> Run:
    """Each row's deal solved by us and by the ``other`` side if any (which goes first
    alternates), held to the reference; with ``same_states``, both engines must expand the same
    number of states."""
    groups: dict[str, Group] = {}
    timings: list[Timing] = []
    disagreements = []
    largest_entries = largest_bytes = 0
    for number, row in enumerate(rows):
        theirs = other.solve(row["cards"]) if other is not None and number % 2 else None
        ours, result = solve(game, row["cards"], max_seconds, restarts=restarts)
        if other is not None and theirs is None:
            theirs = other.solve(row["cards"])
        if same_states and theirs is not None and theirs.nodes != ours.nodes:
            disagreements.append(f"{row['deal_id']}: {ours.nodes} states, {theirs.nodes} on the Python engine")
        disagreements += [d for d in (disagreement(row, ours), theirs and disagreement(row, theirs, "other: ")) if d]
        timing = Timing(
            ours.seconds,
            float(row["peer_cpu_s"]),
            row["deal_id"],
            ours.nodes,
            theirs.seconds if theirs else 0.0,
            theirs.nodes if theirs else 0,
        )
        groups.setdefault(row["deal_id"].split("-")[0] + ("/lost" if row["solvable"] == "no" else ""), Group()).add(
            timing
        )
        timings.append(timing)
        largest_entries, largest_bytes = max(
            (largest_entries, largest_bytes), (result.stats.peak_table_entries, result.stats.peak_table_bytes)
        )
    return Run(groups, timings, disagreements, (largest_entries, largest_bytes))


def main() -> int:
    args = arguments()
    if args.serve:
        serve(args.max_seconds)
        return 0
    restarts = None if args.no_restarts else RESTART_NODES

    rows = list(csv.DictReader(REFERENCE.open(), delimiter="\t"))[: args.rows]
    if args.only_lost:
        rows = [row for row in rows if row["solvable"] == "no"]
    game = Setup.of("accordion").game
    print(f"engine: {engines.status()}" + (", beside the Python engine" if args.python else ""))
    other: Against | PythonEngine | None = None
    if args.python:
        other = PythonEngine(game, args.max_seconds, restarts)
    elif args.against is not None:
        other = Against(args.against, args.max_seconds)
    run = solve_rows(rows, game, other, args.max_seconds, restarts, args.python and args.no_restarts)
    timings, disagreements, (largest_entries, largest_bytes) = run.timings, run.disagreements, run.largest

    agreeing = len(rows) - len({line.removeprefix("other: ").split(":")[0] for line in disagreements})
    sides = " (both sides)" if other is not None else ""
    print(f"deals: {len(rows)}, agreement on verdict and min piles{sides}: {agreeing}/{len(rows)}")
    for line in disagreements:
        print("  DISAGREES", line)
    if other is not None:
        other.close()
    print_groups(run.groups, other is not None)
    nodes, seconds = sum(t.nodes for t in timings), sum(t.ours for t in timings)
    print(f"nodes: {nodes}, {nodes / seconds:,.0f} nodes per CPU second")
    print(
        f"largest table: {largest_entries} states in {largest_bytes / 2**20:.1f} MiB, "
        f"{largest_bytes / max(1, largest_entries):.0f} bytes per stored state"
    )
    if not args.no_memory_bound:
        hardest = max(timings).deal_id
        bounded_run(game, next(row for row in rows if row["deal_id"] == hardest))
    print(f"peak memory of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
    print("slowest deals (ours s, peer s, id, nodes" + (", other s, other nodes):" if other else "):"))
    for timing in sorted(timings, reverse=True)[: args.slowest]:
        print(f"  {timing.ours:8.3f} {timing.peer:8.2f}  {timing.deal_id}  {timing.nodes}", end="")
        print(f"  {timing.against:8.3f}  {timing.against_nodes}" if other else "")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())

"""Solve every deal of the Accordion reference file and compare with the reference solver.

Prints agreement of verdict and minimal piles, total and worst CPU seconds beside the reference
solver's recorded ``peer_cpu_s`` (per group of deals: random, constructed, published), nodes per
second, table memory per stored state, and the process's peak memory.

    python benchmarks/accordion_reference.py [--rows N] [--only-lost] [--max-seconds S] [--slowest K]
        [--no-memory-bound]
"""

from __future__ import annotations

import argparse
import csv
import resource
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, NamedTuple

from rulesets.cards import parse_cards
from solver.replay import checked
from solver.result import Limits, SearchResult, Verdict
from solver.search import depth_first
from solver.service.setup import Setup

REFERENCE = Path(__file__).resolve().parent.parent / "tests" / "data" / "accordion-reference.tsv"


class Timing(NamedTuple):
    """One deal's CPU seconds, ours and the reference solver's (ordered by ours first)."""

    ours: float
    peer: float
    deal_id: str
    nodes: int


@dataclass
class Group:
    """The deals of one kind (random, constructed, published; lost ones apart)."""

    deals: int = 0
    ours: float = 0.0
    peer: float = 0.0
    ours_worst: float = 0.0
    peer_worst: float = 0.0

    def add(self, timing: Timing) -> None:
        self.deals += 1
        self.ours += timing.ours
        self.peer += timing.peer
        self.ours_worst = max(self.ours_worst, timing.ours)
        self.peer_worst = max(self.peer_worst, timing.peer)


def disagreement(row: dict[str, str], result: SearchResult[Any]) -> str | None:
    """How our verdict and minimal piles differ from the reference's, if they do."""
    verdict = Verdict.WON if row["solvable"] == "yes" else Verdict.LOST
    piles = int(row["min_piles"])
    if (result.verdict, result.best_score) == (verdict, piles):
        return None
    return f"{row['deal_id']}: {result.verdict.value} {result.best_score}, reference {verdict.value} {piles}"


def print_groups(groups: dict[str, Group]) -> None:
    print(f"{'group':<12}{'deals':>6}{'ours s':>10}{'peer s':>10}{'ratio':>8}{'our worst':>11}{'peer worst':>12}")
    for name, group in sorted(groups.items()):
        ratio = group.peer / group.ours if group.ours else float("inf")
        print(
            f"{name:<12}{group.deals:>6}{group.ours:>10.2f}{group.peer:>10.2f}{ratio:>8.1f}"
            f"{group.ours_worst:>11.3f}{group.peer_worst:>12.2f}"
        )


def bounded_run(game: Any, row: dict[str, str]) -> None:
    """The hardest deal again with the table bounded to 256 KiB."""
    start = game.start(parse_cards(row["cards"]))
    bound = 256 * 1024
    bounded = checked(game, start, depth_first(game, start, Limits(max_memory=bound, max_seconds=60)))
    print(
        f"memory bound {bound // 1024} KiB on {row['deal_id']}: {bounded.verdict.value}, "
        f"min piles {bounded.best_score}, peak table {bounded.stats.peak_table_bytes // 1024} KiB, "
        f"{bounded.stats.evictions} evictions, {bounded.stats.seconds:.2f} s"
    )


def main() -> int:
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
    args = parser.parse_args()

    rows = list(csv.DictReader(REFERENCE.open(), delimiter="\t"))[: args.rows]
    if args.only_lost:
        rows = [row for row in rows if row["solvable"] == "no"]
    game = Setup.of("accordion").game
    groups: dict[str, Group] = {}
    timings: list[Timing] = []
    disagreements = []
    largest_entries = largest_bytes = 0
    for row in rows:
        start = game.start(parse_cards(row["cards"]))
        result = checked(game, start, depth_first(game, start, Limits(max_seconds=args.max_seconds)))
        differs = disagreement(row, result)
        if differs is not None:
            disagreements.append(differs)
        timing = Timing(result.stats.seconds, float(row["peer_cpu_s"]), row["deal_id"], result.stats.nodes)
        groups.setdefault(row["deal_id"].split("-")[0] + ("/lost" if row["solvable"] == "no" else ""), Group()).add(
            timing
        )
        timings.append(timing)
        largest_entries, largest_bytes = max(
            (largest_entries, largest_bytes), (result.stats.peak_table_entries, result.stats.peak_table_bytes)
        )

    print(f"deals: {len(rows)}, agreement on verdict and min piles: {len(rows) - len(disagreements)}/{len(rows)}")
    for line in disagreements:
        print("  DISAGREES", line)
    print_groups(groups)
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
    print("slowest deals (ours s, peer s, id, nodes):")
    for timing in sorted(timings, reverse=True)[: args.slowest]:
        print(f"  {timing.ours:8.3f} {timing.peer:8.2f}  {timing.deal_id}  {timing.nodes}")
    return 1 if disagreements else 0


if __name__ == "__main__":
    sys.exit(main())

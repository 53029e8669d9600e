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
from pathlib import Path

from rulesets.accordion import OpenAccordion as OpenRow
from rulesets.cards import parse_cards
from solver.replay import checked
from solver.result import Limits, Verdict
from solver.search import depth_first

REFERENCE = Path(__file__).resolve().parent.parent / "tests" / "data" / "accordion-reference.tsv"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rows", type=int, default=None, help="only the first N rows")
    parser.add_argument("--only-lost", action="store_true", help="only the deals the reference found lost")
    parser.add_argument("--max-seconds", type=float, default=None, help="CPU limit per deal")
    parser.add_argument("--no-memory-bound", action="store_true",
                        help="skip re-solving the slowest deal under a 256 KiB table (a lost one can take a minute)")
    parser.add_argument("--slowest", type=int, default=5, help="list the K slowest deals")
    args = parser.parse_args()

    rows = list(csv.DictReader(REFERENCE.open(), delimiter="\t"))[: args.rows]
    if args.only_lost:
        rows = [row for row in rows if row["solvable"] == "no"]
    game = OpenRow()
    groups: dict[str, dict[str, float]] = {}
    timings = []
    disagreements = []
    nodes = 0
    seconds = 0.0
    largest = (0, 0)
    for row in rows:
        start = game.start(parse_cards(row["cards"]))
        result = checked(game, start, depth_first(game, start, Limits(max_seconds=args.max_seconds)))
        expected = (Verdict.WON if row["solvable"] == "yes" else Verdict.LOST, int(row["min_piles"]))
        if (result.verdict, result.best_score) != expected:
            disagreements.append(f"{row['deal_id']}: {result.verdict.value} {result.best_score}, reference {expected[0].value} {expected[1]}")
        group = groups.setdefault(row["deal_id"].split("-")[0] + ("/lost" if row["solvable"] == "no" else ""), {
            "deals": 0, "ours": 0.0, "peer": 0.0, "ours_worst": 0.0, "peer_worst": 0.0})
        spent, peer = result.stats.seconds, float(row["peer_cpu_s"])
        group["deals"] += 1
        group["ours"] += spent
        group["peer"] += peer
        group["ours_worst"] = max(group["ours_worst"], spent)
        group["peer_worst"] = max(group["peer_worst"], peer)
        timings.append((spent, peer, row["deal_id"], result.stats.nodes))
        nodes += result.stats.nodes
        seconds += spent
        largest = max(largest, (result.stats.peak_table_entries, result.stats.peak_table_bytes))

    print(f"deals: {len(rows)}, agreement on verdict and min piles: {len(rows) - len(disagreements)}/{len(rows)}")
    for line in disagreements:
        print("  DISAGREES", line)
    print(f"{'group':<12}{'deals':>6}{'ours s':>10}{'peer s':>10}{'ratio':>8}{'our worst':>11}{'peer worst':>12}")
    for name, group in sorted(groups.items()):
        ratio = group["peer"] / group["ours"] if group["ours"] else float("inf")
        print(f"{name:<12}{group['deals']:>6}{group['ours']:>10.2f}{group['peer']:>10.2f}{ratio:>8.1f}"
              f"{group['ours_worst']:>11.3f}{group['peer_worst']:>12.2f}")
    print(f"nodes: {nodes}, {nodes / seconds:,.0f} nodes per CPU second")
    print(f"largest table: {largest[0]} states in {largest[1] / 2**20:.1f} MiB, "
          f"{largest[1] / max(1, largest[0]):.0f} bytes per stored state")
    if not args.no_memory_bound:
        solve_slowest_under_a_memory_bound(game, rows, max(timings)[2])
    print(f"peak memory of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
    print("slowest deals (ours s, peer s, id, nodes):")
    for spent, peer, deal_id, count in sorted(timings, reverse=True)[: args.slowest]:
        print(f"  {spent:8.3f} {peer:8.2f}  {deal_id}  {count}")
    return 1 if disagreements else 0


def solve_slowest_under_a_memory_bound(game: OpenRow, rows: list[dict[str, str]], deal_id: str) -> None:
    """Solve one deal again with a 256 KiB table (evictions and all) and print how that went."""
    row = next(row for row in rows if row["deal_id"] == deal_id)
    start = game.start(parse_cards(row["cards"]))
    bound = 256 * 1024
    bounded = checked(game, start, depth_first(game, start, Limits(max_memory=bound, max_seconds=60)))
    print(f"memory bound {bound // 1024} KiB on {deal_id}: {bounded.verdict.value}, "
          f"min piles {bounded.best_score}, peak table {bounded.stats.peak_table_bytes // 1024} KiB, "
          f"{bounded.stats.evictions} evictions, {bounded.stats.seconds:.2f} s")


if __name__ == "__main__":
    sys.exit(main())

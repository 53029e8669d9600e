"""Amazons survey: win rate (95% Wilson interval), lost / unknown counts, CPU time per deal and
search speed, for each preset over a range of PySolFC game numbers.

    python benchmarks/amazons.py --seeds 1-1000 --max-nodes 1000000
    python benchmarks/amazons.py --seeds 1-100 --variants amazons,amazons-pysol --jobs 2

Every reported line is replayed through the rules (solver.replay.checked) before it counts.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulesets.amazons import FAMILIES  # noqa: E402
from solver.replay import checked  # noqa: E402
from solver.result import Limits  # noqa: E402
from solver.search import depth_first, iterative_deepening, line_cost  # noqa: E402
from solver.cli.report import wilson  # noqa: E402
from solver.cli.survey import seed_list  # noqa: E402

FAMILY = FAMILIES[0]
PRESETS = tuple(variant.name for variant in FAMILY.variants)


def solve_one(task: tuple[str, int, int | None, float | None, bool]) -> tuple[str, int, str, int, int, float, int | None]:
    """(variant, seed, verdict, cards left, nodes, CPU seconds, redeals in the solution when
    they are proven fewest, else None)."""
    variant, seed, max_nodes, max_seconds, fewest = task
    game = FAMILY.build(FAMILY.settings(variant))
    start = game.start(FAMILY.seeded_deal(seed))
    began = time.process_time()
    search = iterative_deepening if fewest else depth_first
    result = checked(game, start, search(game, start, Limits(max_nodes=max_nodes, max_seconds=max_seconds)))
    seconds = time.process_time() - began
    redeals = None
    if fewest and result.solution is not None and result.limit is None:
        redeals = line_cost(game, start, result.solution)
    return variant, seed, result.verdict.value, result.best_score, result.stats.nodes, seconds, redeals


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="1-1000", help="game numbers, e.g. 1-1000 or 1-50,32000")
    parser.add_argument("--max-nodes", type=int, default=1_000_000, help="node limit per deal")
    parser.add_argument("--max-seconds", type=float, default=None, help="CPU-second limit per deal")
    parser.add_argument("--variants", default=",".join(PRESETS), help="comma-separated presets")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--fewest-redeals", action="store_true", help="use IDA* (fewest passes) instead of DFS")
    parser.add_argument("--verbose", action="store_true", help="print one line per deal")
    args = parser.parse_args(argv)
    seeds = seed_list(args.seeds)
    variants = [v.strip() for v in args.variants.split(",") if v.strip()]
    for variant in variants:
        FAMILY.variant(variant)  # unknown names fail here
    tasks = [(v, s, args.max_nodes, args.max_seconds, args.fewest_redeals) for v in variants for s in seeds]
    results: dict[str, list[tuple]] = {v: [] for v in variants}
    wall = time.time()
    if args.jobs > 1:
        with ProcessPoolExecutor(max_workers=args.jobs) as pool:
            outcomes = pool.map(solve_one, tasks, chunksize=4)
            for outcome in outcomes:
                results[outcome[0]].append(outcome)
                if args.verbose:
                    print(*outcome, flush=True)
    else:
        for task in tasks:
            outcome = solve_one(task)
            results[outcome[0]].append(outcome)
            if args.verbose:
                print(*outcome, flush=True)
    print(
        f"Amazons, PySolFC seeds {args.seeds} ({len(seeds)} deals), max_nodes={args.max_nodes}, "
        f"max_seconds={args.max_seconds}, search={'IDA* (fewest redeals)' if args.fewest_redeals else 'DFS'}, "
        f"pid {os.getpid()}, wall {time.time() - wall:.0f}s"
    )
    header = f"{'preset':15} {'won':>5} {'lost':>5} {'unknown':>7} {'win rate':>9} {'95% Wilson CI':>17} {'won..won+unk':>14} {'mean s':>7} {'max s':>7} {'nodes/s':>9}"
    print(header)
    for variant in variants:
        rows = results[variant]
        n = len(rows)
        won = sum(1 for r in rows if r[2] == "won")
        lost = sum(1 for r in rows if r[2] == "lost")
        unknown = n - won - lost
        low, high = wilson(won, n)
        seconds = [r[5] for r in rows]
        nodes = sum(r[4] for r in rows)
        rate = nodes / sum(seconds) if sum(seconds) else 0.0
        print(
            f"{variant:15} {won:5d} {lost:5d} {unknown:7d} {won / n:9.1%} {f'[{low:.1%}, {high:.1%}]':>17} "
            f"{f'{won / n:.0%}..{(won + unknown) / n:.0%}':>14} {sum(seconds) / n:7.2f} {max(seconds):7.2f} {rate:9.0f}"
        )
        if args.fewest_redeals and won:
            redeals = [r[6] for r in rows if r[6] is not None]
            proven = f"mean {sum(redeals) / len(redeals):.1f}, max {max(redeals)}" if redeals else "-"
            print(f"{'':15} fewest redeals proven for {len(redeals)} of {won} wins: {proven}")
    print("win rate and its interval count unknown deals as not won; won..won+unk brackets the true rate.")


if __name__ == "__main__":
    main()

"""Win rates of Baroness's presets and of Thirteens over PySolFC-numbered deals.

For each preset: win rate with a 95% Wilson confidence interval (over the deals decided, and
counting every unknown as lost and as won for bounds that hold whatever they are), lost and
unknown counts, mean and worst CPU seconds per deal, nodes per CPU second, and the seeds left
unknown. Every reported line is replayed through the rules (solver.replay.checked).

    python benchmarks/baroness.py --seeds 1-1000 --max-nodes 1000000 [--presets baroness,thirteens] [--jobs 2]
"""

from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from rulesets import find_game
from solver.cli.report import wilson
from solver.cli.survey import seed_list
from solver.replay import checked
from solver.result import Limits, Verdict
from solver.search import depth_first

PRESETS = ("baroness", "baroness-classic", "baroness-pysol", "thirteens")


@dataclass
class Outcome:
    seed: int
    verdict: str
    cards_left: int
    nodes: int
    seconds: float


def solve_one(task: tuple[str, int, int | None, float | None]) -> Outcome:
    preset, seed, max_nodes, max_seconds = task
    family, variant = find_game(preset)
    game = family.build(family.settings(variant))
    start = game.start(family.seeded_deal(seed))
    result = checked(game, start, depth_first(game, start, Limits(max_nodes=max_nodes, max_seconds=max_seconds)))
    return Outcome(seed, result.verdict.value, result.best_score, result.stats.nodes, result.stats.seconds)


def report(preset: str, outcomes: list[Outcome], wall: float, slowest: int) -> None:
    won = sum(o.verdict == Verdict.WON.value for o in outcomes)
    lost = sum(o.verdict == Verdict.LOST.value for o in outcomes)
    unknown = [o.seed for o in outcomes if o.verdict == Verdict.UNKNOWN.value]
    decided = won + lost
    low, high = wilson(won, decided)
    seconds = [o.seconds for o in outcomes]
    nodes = sum(o.nodes for o in outcomes)
    cpu = sum(seconds)
    rate = won / decided if decided else float("nan")
    print(f"{preset}: {len(outcomes)} deals, won {won}, lost {lost}, unknown {len(unknown)}")
    print(f"  win rate {rate:.1%} (95% Wilson CI {low:.1%} - {high:.1%}, over decided deals)")
    if unknown:
        worst_low, _ = wilson(won, len(outcomes))
        _, best_high = wilson(won + len(unknown), len(outcomes))
        print(f"  counting unknowns either way: {worst_low:.1%} - {best_high:.1%}; unknown seeds: {unknown[:20]}"
              + (" ..." if len(unknown) > 20 else ""))
    lost_left = [o.cards_left for o in outcomes if o.verdict == Verdict.LOST.value]
    if lost_left:
        print(f"  lost deals: mean {sum(lost_left) / len(lost_left):.1f} cards left at best (min {min(lost_left)})")
    print(f"  CPU s per deal: mean {cpu / len(outcomes):.4f}, max {max(seconds):.3f}; "
          f"nodes {nodes:,}, {nodes / cpu if cpu else 0:,.0f} nodes per CPU s; wall {wall:.1f} s")
    for o in sorted(outcomes, key=lambda o: o.seconds, reverse=True)[:slowest]:
        print(f"    seed {o.seed}: {o.verdict}, {o.nodes:,} nodes, {o.seconds:.2f} s")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="1-1000", help="e.g. 1-1000 or 1-10,20 (default 1-1000)")
    parser.add_argument("--max-nodes", type=int, default=1_000_000, help="node limit per deal (default 1000000)")
    parser.add_argument("--max-seconds", type=float, default=None, help="CPU limit per deal (default none)")
    parser.add_argument("--presets", default=",".join(PRESETS), help=f"comma-separated (default {','.join(PRESETS)})")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    parser.add_argument("--slowest", type=int, default=3, help="list the K slowest deals per preset")
    args = parser.parse_args()

    seeds = seed_list(args.seeds)
    print(f"seeds {args.seeds} ({len(seeds)} deals), node limit {args.max_nodes:,}"
          + (f", CPU limit {args.max_seconds} s" if args.max_seconds else ""))
    for preset in args.presets.split(","):
        tasks = [(preset, seed, args.max_nodes, args.max_seconds) for seed in seeds]
        began = time.perf_counter()
        if args.jobs > 1:
            with ProcessPoolExecutor(args.jobs) as pool:
                outcomes = list(pool.map(solve_one, tasks, chunksize=8))
        else:
            outcomes = [solve_one(task) for task in tasks]
        report(preset, outcomes, time.perf_counter() - began, args.slowest)
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())

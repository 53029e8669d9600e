"""Amazons' fewest redeals (``--fewest-redeals``): per preset, how many deals have their fewest
redeals proven, and the CPU seconds, states and peak memory per deal.

    python benchmarks/amazons_redeals.py --seeds 1-100 --preset amazons --jobs 2 --max-seconds 60

Every reported line is replayed through the rules (solver.replay.checked) before it counts.
"""

from __future__ import annotations

import argparse
import resource
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any, NamedTuple

from rulesets.amazons import FAMILIES, Amazons
from solver.replay import checked
from solver.result import Limits
from solver.search import iterative_deepening, line_cost
from solver.service.seeds import parse_seeds

FAMILY = FAMILIES[0]
PRESETS = tuple(variant.name for variant in FAMILY.variants)


class Outcome(NamedTuple):
    """One deal's answer: its redeals (proven fewest or not), states, CPU seconds."""

    preset: str
    seed: int
    redeals: int | None
    proven: bool
    at_least: int | None
    nodes: int
    seconds: float
    peak_rss_kib: int


def solve_one(task: tuple[str, int, int | None, float | None]) -> Outcome:
    preset, seed, max_nodes, max_seconds = task
    game = Amazons(**FAMILY.settings(preset))
    start = game.start(FAMILY.seeded_deal(seed))
    began = time.process_time()
    result = checked(
        game,
        start,
        iterative_deepening(game, start, Limits(max_nodes=max_nodes, max_seconds=max_seconds)),
    )
    seconds = time.process_time() - began
    redeals = None if result.solution is None else line_cost(game, start, result.solution)
    proven = redeals is not None and result.limit is None
    at_least = redeals if proven else result.least_cost_floor
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return Outcome(preset, seed, redeals, proven, at_least, result.stats.nodes, seconds, peak)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="1-100", help="game numbers, e.g. 1-100")
    parser.add_argument("--preset", default=",".join(PRESETS), help="comma-separated presets")
    parser.add_argument("--max-nodes", type=int, default=None, help="state limit per deal")
    parser.add_argument("--max-seconds", type=float, default=60.0, help="CPU-second limit per deal")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--verbose", action="store_true", help="one line per deal")
    args = parser.parse_args(argv)
    seeds = [seed for low, high in parse_seeds(args.seeds) for seed in range(low, high + 1)]
    presets = [p.strip() for p in args.preset.split(",") if p.strip()]
    for preset in presets:
        FAMILY.variant(preset)  # unknown names fail here
    tasks = [(p, s, args.max_nodes, args.max_seconds) for p in presets for s in seeds]
    outcomes: list[Outcome] = []
    # A fresh worker per deal (Python 3.11+), so that each deal's peak memory is its own.
    fresh: dict[str, Any] = {"max_tasks_per_child": 1} if sys.version_info >= (3, 11) else {}
    with ProcessPoolExecutor(max_workers=max(1, args.jobs), **fresh) as pool:
        for outcome in pool.map(solve_one, tasks):
            outcomes.append(outcome)
            if args.verbose:
                print(outcome, flush=True)
    print(f"Amazons --fewest-redeals, seeds {args.seeds}, max_nodes={args.max_nodes}, max_seconds={args.max_seconds}")
    print(f"{'preset':15} {'proven':>9} {'mean s':>7} {'max s':>7} {'states':>9} {'states/s':>9} {'peak MiB':>9}")
    for preset in presets:
        rows = [o for o in outcomes if o.preset == preset]
        proven = sum(o.proven for o in rows)
        seconds = [o.seconds for o in rows]
        nodes = sum(o.nodes for o in rows)
        print(
            f"{preset:15} {f'{proven}/{len(rows)}':>9} {sum(seconds) / len(rows):7.2f} {max(seconds):7.2f} "
            f"{nodes / len(rows):9.0f} {nodes / max(sum(seconds), 1e-9):9.0f} "
            f"{max(o.peak_rss_kib for o in rows) / 1024:9.1f}"
        )
        unproven = [f"{o.seed} ({o.at_least}..{o.redeals})" for o in rows if not o.proven]
        if unproven:
            print(f"{'':15} not proven (at least..found): {', '.join(unproven)}")


if __name__ == "__main__":
    main()

"""Accordion's historic variants over PySolFC-numbered deals: speed and minimal pile counts.

For each variant: deals solved per CPU second of search (and per CPU second including dealing
and replaying every line through the rules with solver.replay.checked), nodes per CPU second,
won / lost / unknown, Sheinwold wins (5 piles or fewer) with a 95% Wilson interval, and a text
histogram of the minimal pile counts.

The default variant (`accordion`) is left out unless named in --variants: it is a different,
much larger search (see benchmarks/accordion_reference.py). When included it runs under the same
--max-nodes limit, and deals stopped by the limit count as unknown (their best pile count found is
shown apart in the histogram). A best count found that is already 5 or fewer proves a Sheinwold
win even when the search was stopped.

    python benchmarks/accordion_variants.py --seeds 1-1000 [--variants idle-year,parlett,self-working] [--jobs 2]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from rulesets import find_game
from solver.cli.report import wilson
from solver.cli.survey import seed_list
from solver.replay import checked
from solver.result import Limits, Verdict
from solver.search import depth_first

VARIANTS = ("idle-year", "parlett", "self-working")
SHEINWOLD = 5


@dataclass
class Outcome:
    seed: int
    verdict: str
    piles: int
    nodes: int
    seconds: float
    total_seconds: float


def solve_one(task: tuple[str, int, int | None, float | None]) -> Outcome:
    variant, seed, max_nodes, max_seconds = task
    began = time.process_time()
    family, _ = find_game("accordion")
    game = family.build(family.settings(variant))
    start = game.start(family.seeded_deal(seed))
    result = checked(game, start, depth_first(game, start, Limits(max_nodes=max_nodes, max_seconds=max_seconds)))
    return Outcome(seed, result.verdict.value, result.best_score, result.stats.nodes, result.stats.seconds,
                   time.process_time() - began)


def histogram(counts: Counter, width: int = 50) -> list[str]:
    if not counts:
        return []
    most = max(counts.values())
    lines = []
    for piles in range(min(counts), max(counts) + 1):
        n = counts.get(piles, 0)
        bar = "#" * max(1 if n else 0, round(width * n / most))
        lines.append(f"    {piles:3d} piles {n:5d}  {bar}")
    return lines


def report(variant: str, outcomes: list[Outcome], wall: float) -> None:
    n = len(outcomes)
    won = sum(o.verdict == Verdict.WON.value for o in outcomes)
    lost = sum(o.verdict == Verdict.LOST.value for o in outcomes)
    unknown = [o for o in outcomes if o.verdict == Verdict.UNKNOWN.value]
    cpu = sum(o.seconds for o in outcomes)
    total = sum(o.total_seconds for o in outcomes)
    nodes = sum(o.nodes for o in outcomes)
    print(f"{variant}: {n} deals, won {won}, lost {lost}, unknown {len(unknown)}")
    low, high = wilson(won, n)
    print(f"  win (1 pile): {won}/{n} = {won / n:.1%} (95% Wilson CI {low:.1%} - {high:.1%})")
    sheinwold = sum(o.piles <= SHEINWOLD for o in outcomes)  # a line reaching <= 5 piles exists
    undecided = sum(o.piles > SHEINWOLD for o in unknown)
    low, high = wilson(sheinwold, n)
    line = f"  Sheinwold win (<= {SHEINWOLD} piles): {sheinwold}/{n} = {sheinwold / n:.1%} (95% Wilson CI {low:.1%} - {high:.1%})"
    if undecided:
        line += f"; {undecided} unknown deals may still reach it (upper CI {wilson(sheinwold + undecided, n)[1]:.1%})"
    print(line)
    proven = [o.piles for o in outcomes if o.verdict != Verdict.UNKNOWN.value]
    if proven:
        mean = sum(proven) / len(proven)
        ordered = sorted(proven)
        print(f"  minimal piles over {len(proven)} proven deals: mean {mean:.2f}, median {ordered[len(ordered) // 2]}, "
              f"min {ordered[0]}, max {ordered[-1]}")
    print("\n".join(histogram(Counter(proven))))
    if unknown:
        print(f"  unknown (node limit) best found: {dict(sorted(Counter(o.piles for o in unknown).items()))}; "
              f"seeds {[o.seed for o in unknown][:20]}" + (" ..." if len(unknown) > 20 else ""))
    slowest = max(outcomes, key=lambda o: o.seconds)
    print(f"  speed: {n / cpu if cpu else float('inf'):,.0f} deals per CPU s of search, "
          f"{n / total if total else float('inf'):,.0f} per CPU s with dealing and the replay check; wall {wall:.1f} s; "
          f"nodes {nodes:,}, {nodes / cpu if cpu else 0:,.0f} per CPU s; "
          f"CPU s per deal mean {cpu / n:.5f}, max {slowest.seconds:.3f} (seed {slowest.seed}, {slowest.nodes:,} nodes)")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="1-1000", help="e.g. 1-1000 or 1-10,20 (default 1-1000)")
    parser.add_argument("--variants", default=",".join(VARIANTS),
                        help=f"comma-separated (default {','.join(VARIANTS)}; add 'accordion' for the default variant)")
    parser.add_argument("--max-nodes", type=int, default=1_000_000, help="node limit per deal (default 1000000)")
    parser.add_argument("--max-seconds", type=float, default=None, help="CPU limit per deal (default none)")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes (default 1)")
    args = parser.parse_args()

    seeds = seed_list(args.seeds)
    print(f"seeds {args.seeds} ({len(seeds)} deals), node limit {args.max_nodes:,} per deal"
          + (f", CPU limit {args.max_seconds} s" if args.max_seconds else "") + f", jobs {args.jobs}")
    for variant in args.variants.split(","):
        tasks = [(variant, seed, args.max_nodes, args.max_seconds) for seed in seeds]
        began = time.perf_counter()
        if args.jobs > 1:
            with ProcessPoolExecutor(args.jobs) as pool:
                outcomes = list(pool.map(solve_one, tasks, chunksize=16))
        else:
            outcomes = [solve_one(task) for task in tasks]
        report(variant, outcomes, time.perf_counter() - began)
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The compiled Baroness and Thirteens kernels against the Python engine, side by side in one run.

Two parts, each optional:

``--seeds`` (the sample): for each preset, each deal is searched by the compiled engine and the
Python engine in turn (same process, one job, so a busy machine slows both alike), both held to
``--max-nodes`` states so that the Python side finishes; per engine: deals decided, states, CPU
seconds, states per CPU second; then the ratio of the two rates, and any deal both decided on
which their verdicts or minima differ. Every reported line is replayed through the rules.

``--all-pysol`` (the target): baroness-pysol deals searched by the compiled engine alone, with no
limit: won / lost / unknown, CPU seconds per deal (mean, slowest), the most states one deal took.

    python benchmarks/baroness_kernels.py --seeds 1-200 --max-nodes 20000
    python benchmarks/baroness_kernels.py --seeds 1-300 --max-nodes 100000 --presets baroness-pysol
    python benchmarks/baroness_kernels.py --seeds 1-100 --presets baroness:piles=7:beneath=yes
    python benchmarks/baroness_kernels.py --all-pysol 1-1000
"""

from __future__ import annotations

import argparse
import sys
from typing import Any, NamedTuple

from rulesets import families, find_game
from solver import engine, search
from solver.engine import engine_of
from solver.errors import UserError
from solver.replay import checked
from solver.result import Limits, Verdict
from solver.service.seeds import parse_seeds

PRESETS = ("baroness", "baroness-classic", "baroness-pysol", "thirteens")


class Solved(NamedTuple):
    """One search of one deal."""

    seed: int
    verdict: Verdict
    score: int
    nodes: int
    seconds: float


def ruleset(preset: str) -> tuple[Any, Any]:
    """The family and the searched ruleset of a preset: a variant name, with options after it
    if any (``baroness:piles=7:beneath=yes``)."""
    name, *options = preset.split(":")
    family, variant = find_game(name)
    return family, family.build(family.settings(variant, options))


def solve(preset: str, seed: int, limits: Limits, compiled: bool) -> Solved:
    """Deal ``seed`` of ``preset`` searched by one engine, its line replayed through the rules."""
    family, game = ruleset(preset)
    start = game.start(family.seeded_deal(seed))
    if compiled:
        result = engine_of(game).depth_first(start, limits=limits)
        if result.engine != engine.NATIVE:
            raise SystemExit(f"{preset} is not searched by the compiled engine here (is it built?)")
    else:
        result = search.depth_first(game, start, limits)
    result = checked(game, start, result)
    return Solved(seed, result.verdict, result.best_score, result.stats.nodes, result.stats.seconds)


def summary(runs: list[Solved]) -> str:
    count = {verdict: sum(run.verdict is verdict for run in runs) for verdict in Verdict}
    cpu = sum(run.seconds for run in runs)
    nodes = sum(run.nodes for run in runs)
    rate = nodes / cpu if cpu else 0.0
    return (
        f"won {count[Verdict.WON]}, lost {count[Verdict.LOST]}, unknown {count[Verdict.UNKNOWN]}; "
        f"{nodes:,} states in {cpu:.2f} CPU s: {rate:,.0f} states per CPU s"
    )


def rate(runs: list[Solved]) -> float:
    cpu = sum(run.seconds for run in runs)
    return sum(run.nodes for run in runs) / cpu if cpu else 0.0


def compare(preset: str, seeds: list[int], limits: Limits) -> bool:
    """One preset's sample on both engines; True if every deal both decided agrees."""
    native: list[Solved] = []
    python: list[Solved] = []
    for seed in seeds:
        native.append(solve(preset, seed, limits, compiled=True))
        python.append(solve(preset, seed, limits, compiled=False))
    both = [(a, b) for a, b in zip(native, python) if Verdict.UNKNOWN not in (a.verdict, b.verdict)]
    differ = [a.seed for a, b in both if (a.verdict, a.score) != (b.verdict, b.score)]
    print(f"{preset}:")
    print(f"  compiled: {summary(native)}")
    print(f"  python:   {summary(python)}")
    ratio = rate(native) / rate(python) if rate(python) else float("inf")
    print(f"  states per CPU s, compiled / python: {ratio:.1f}")
    agreed = "agree" if not differ else f"DIFFER on seeds {differ}"
    print(f"  verdicts and minima on the {len(both)} deals both decided: {agreed}")
    return not differ


def all_pysol(seeds: list[int]) -> None:
    """baroness-pysol deals on the compiled engine with no limit."""
    runs = []
    for seed in seeds:
        runs.append(solve("baroness-pysol", seed, Limits(), compiled=True))
    count = {verdict: sum(run.verdict is verdict for run in runs) for verdict in Verdict}
    cpu = sum(run.seconds for run in runs)
    slowest = max(runs, key=lambda run: run.seconds)
    largest = max(runs, key=lambda run: run.nodes)
    print(
        f"baroness-pysol, {len(runs)} deals, no limit, compiled: won {count[Verdict.WON]}, lost "
        f"{count[Verdict.LOST]}, unknown {count[Verdict.UNKNOWN]}; {cpu:.1f} CPU s in all, {cpu / len(runs):.3f} "
        f"a deal; slowest {slowest.seconds:.2f} s (seed {slowest.seed}, {slowest.nodes:,} states); most states "
        f"{largest.nodes:,} (seed {largest.seed}); {rate(runs):,.0f} states per CPU s"
    )
    tail = sorted(runs, key=lambda run: run.seconds, reverse=True)[:10]
    print("  slowest ten: " + ", ".join(f"{run.seed} ({run.seconds:.2f} s)" for run in tail))


def seed_list(text: str | None) -> list[int]:
    """The seeds of a range such as 1-200,300 (none for None)."""
    return [] if text is None else [seed for low, high in parse_seeds(text) for seed in range(low, high + 1)]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--seeds", help="the sample searched by both engines, e.g. 1-200")
    parser.add_argument("--max-nodes", type=int, default=20_000, help="states per search in the sample (20000)")
    parser.add_argument(
        "--presets",
        default=",".join(PRESETS),
        help=f"comma-separated variants, each with ':option=value' after it if wanted (default {','.join(PRESETS)})",
    )
    parser.add_argument("--all-pysol", help="baroness-pysol deals searched by the compiled engine with no limit")
    args = parser.parse_args(argv)
    try:
        sample = seed_list(args.seeds)
        target = seed_list(args.all_pysol)
        presets = [name.strip() for name in args.presets.split(",") if name.strip()]
        for name in presets:
            ruleset(name)
    except UserError as error:
        print(f"baroness_kernels: error: {error}", file=sys.stderr)
        return 2
    families()
    agree = True
    if sample:
        print(f"seeds {args.seeds} ({len(sample)} deals), at most {args.max_nodes:,} states a search, restarts on")
        for name in presets:
            agree = compare(name, sample, Limits(max_nodes=args.max_nodes)) and agree
    if target:
        all_pysol(target)
    return 0 if agree else 1


if __name__ == "__main__":
    sys.exit(main())

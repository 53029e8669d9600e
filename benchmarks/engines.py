"""The compiled engine beside the Python one, preset by preset, on the same PySolFC deals.

Each deal is solved on both engines in this process, which goes first alternating deal by deal
(the machines are shared: only figures taken side by side compare), each line replayed through
the rules; the verdicts and minimal scores must agree wherever both decided. Per preset it
prints the deals, each engine's CPU seconds, states per CPU second and their ratio, and deals
decided per CPU second (the throughput a survey can expect); then per family (a ruleset module,
as rulesets.DECLARED groups the presets) the states per CPU second of all its presets' deals
together.

    python benchmarks/engines.py [PRESET ...] [--seeds 1-100] [--max-nodes N] [--max-seconds S]
        [--fewest-redeals] [--native-only]

With no preset, every preset of every game. ``--max-nodes`` bounds each search (both engines
then expand about as many states, so their rates compare even where the Python one would take
minutes); ``--native-only`` skips the Python engine (for throughput alone).
"""

from __future__ import annotations

import argparse
import resource
import sys
from dataclasses import dataclass, field
from typing import Any

from rulesets import DECLARED
from solver import engine, search
from solver.replay import checked
from solver.result import Limits, SearchResult, Verdict
from solver.service import engines
from solver.service.seeds import parse_seeds
from solver.service.setup import Setup


@dataclass
class Side:
    """One engine's totals over a preset's deals."""

    seconds: float = 0.0
    nodes: int = 0
    decided: int = 0
    worst: float = 0.0
    worst_seed: int = 0

    def add(self, result: SearchResult[Any], seed: int) -> None:
        self.seconds += result.stats.seconds
        self.nodes += result.stats.nodes
        self.decided += result.verdict is not Verdict.UNKNOWN and result.limit is None
        if result.stats.seconds > self.worst:
            self.worst, self.worst_seed = result.stats.seconds, seed

    def rate(self) -> float:
        return self.nodes / self.seconds if self.seconds else 0.0


@dataclass
class Preset:
    """A preset's deals on both engines, and where they disagreed."""

    name: str
    deals: int = 0
    native: Side = field(default_factory=Side)
    python: Side = field(default_factory=Side)
    disagreements: list[str] = field(default_factory=list)


def searched(game: Any, start: Any, limits: Limits, python: bool, least_cost: bool) -> SearchResult[Any]:
    """One search on one engine, its line replayed through the rules."""
    if python:
        run = search.iterative_deepening if least_cost else search.depth_first
        return checked(game, start, run(game, start, limits))
    compiled = engine.engine_of(game)
    found = (
        compiled.iterative_deepening(start, limits=limits) if least_cost else compiled.depth_first(start, limits=limits)
    )
    return checked(game, start, found)


def answer(game: Any, start: Any, result: SearchResult[Any], least_cost: bool) -> tuple[str, int, int | None]:
    """What both engines must agree on: the verdict, the minimal score, and with
    ``least_cost`` the fewest redeals of a win."""
    cost = search.line_cost(game, start, result.solution) if least_cost and result.solution is not None else None
    return result.verdict.value, result.best_score, cost


def measure(name: str, seeds: list[int], limits: Limits, least_cost: bool, native_only: bool) -> Preset:
    setup = Setup.of(name)
    preset = Preset(name)
    if engine.kernel_of(setup.game) is None:
        preset.disagreements.append("no compiled kernel: both sides would be the Python engine")
        return preset
    for number, seed in enumerate(seeds):
        start = setup.game.start(setup.deal(seed=seed))
        order = [False] if native_only else ([False, True] if number % 2 else [True, False])
        results = {python: searched(setup.game, start, limits, python, least_cost) for python in order}
        preset.deals += 1
        preset.native.add(results[False], seed)
        if not native_only:
            preset.python.add(results[True], seed)
            both = [results[side] for side in (False, True)]
            if all(r.verdict is not Verdict.UNKNOWN and r.limit is None for r in both):
                answers = [answer(setup.game, start, r, least_cost) for r in both]
                if answers[0] != answers[1]:
                    preset.disagreements.append(f"seed {seed}: native {answers[0]}, python {answers[1]}")
    return preset


def print_families(measured: list[Preset]) -> None:
    """Each family's states per CPU second over every deal of its presets measured, both engines."""
    print(f"{'family':<18}{'presets':>8}{'native st/s':>13}{'python st/s':>13}{'ratio':>7}")
    for module, games in DECLARED.items():
        names = {variant for variants in games.values() for variant in variants}
        presets = [preset for preset in measured if preset.name in names and preset.deals]
        if not presets:
            continue
        native = Side(sum(p.native.seconds for p in presets), sum(p.native.nodes for p in presets))
        python = Side(sum(p.python.seconds for p in presets), sum(p.python.nodes for p in presets))
        ratio = native.rate() / python.rate() if python.rate() else float("nan")
        print(f"{module:<18}{len(presets):>8}{native.rate():>13,.0f}{python.rate():>13,.0f}{ratio:>7.1f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    presets = [variant for games in DECLARED.values() for variants in games.values() for variant in variants]
    parser.add_argument("presets", nargs="*", default=presets, help="presets (default: all)")
    parser.add_argument("--seeds", default="1-100", help="PySolFC deal numbers, e.g. 1-100")
    parser.add_argument("--max-nodes", type=int, default=None, help="bound each search to N states")
    parser.add_argument("--max-seconds", type=float, default=None, help="bound each search to S CPU seconds")
    parser.add_argument("--fewest-redeals", action="store_true", help="IDA* for the fewest redeals (Amazons)")
    parser.add_argument("--native-only", action="store_true", help="skip the Python engine")
    args = parser.parse_args()
    seeds = [seed for low, high in parse_seeds(args.seeds) for seed in range(low, high + 1)]
    limits = Limits(max_nodes=args.max_nodes, max_seconds=args.max_seconds)
    print(f"engine: {engines.status()}; seeds {args.seeds}; limits {limits}")
    header = f"{'preset':<18}{'deals':>6}{'native s':>10}{'python s':>10}{'native st/s':>13}{'python st/s':>13}"
    print(header + f"{'ratio':>7}{'native deals/s':>16}{'python deals/s':>16}{'native worst':>14}")
    failed = False
    measured: list[Preset] = []
    for name in args.presets:
        preset = measure(name, seeds, limits, args.fewest_redeals, args.native_only)
        measured.append(preset)
        native, python = preset.native, preset.python
        ratio = native.rate() / python.rate() if python.rate() else float("nan")
        native_deals = native.decided / native.seconds if native.seconds else float("nan")
        python_deals = python.decided / python.seconds if python.seconds else float("nan")
        print(
            f"{name:<18}{preset.deals:>6}{native.seconds:>10.2f}{python.seconds:>10.2f}{native.rate():>13,.0f}"
            f"{python.rate():>13,.0f}{ratio:>7.1f}{native_deals:>16,.1f}{python_deals:>16,.1f}"
            f"{native.worst:>9.3f} (#{native.worst_seed})",
            flush=True,
        )
        for line in preset.disagreements:
            print(f"  {name}: {line}")
        failed |= any(line.startswith("seed") for line in preset.disagreements)
    if not args.native_only:
        print_families(measured)
    print(f"peak memory of this process: {resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024:.0f} MiB")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

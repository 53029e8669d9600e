"""Amazons' fewest redeals (``--fewest-redeals``): per preset and engine, how many deals have
their fewest redeals proven, and the CPU seconds, states and peak memory per deal.

    python benchmarks/amazons_redeals.py --seeds 1-100 --preset amazons --jobs 2 --max-seconds 60
    python benchmarks/amazons_redeals.py --seeds 1-100 --engines native,python --python-seeds 1-10

Both engines run side by side in one run (the machine is noisy: compare their ratio, printed as
the states per CPU second of the compiled engine over the Python one's on the deals both ran).
The Python engine, far slower, may be given fewer deals (``--python-seeds``). Every reported
line is replayed through the rules (solver.replay.checked) before it counts.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from typing import Any, NamedTuple

from rulesets.amazons import FAMILIES, Amazons
from solver.engine import NATIVE, NO_EXTENSIONS, PYTHON, engine_of
from solver.replay import checked
from solver.result import Limits
from solver.search import line_cost
from solver.service.seeds import parse_seeds

FAMILY = FAMILIES[0]
PRESETS = tuple(variant.name for variant in FAMILY.variants)


class Outcome(NamedTuple):
    """One deal's answer: its redeals (proven fewest or not), states, CPU seconds."""

    engine: str
    preset: str
    seed: int
    redeals: int | None
    proven: bool
    at_least: int | None
    nodes: int
    seconds: float
    peak_rss_kib: int


def solve_one(task: tuple[str, str, int, int | None, float | None]) -> Outcome:
    engine, preset, seed, max_nodes, max_seconds = task
    if engine == PYTHON:  # read at every search (solver.engine); each worker runs one deal
        os.environ[NO_EXTENSIONS] = "1"
    else:
        os.environ.pop(NO_EXTENSIONS, None)
    game = Amazons(**FAMILY.settings(preset))
    start = game.start(FAMILY.seeded_deal(seed))
    began = time.process_time()
    result = checked(
        game,
        start,
        engine_of(game).iterative_deepening(start, limits=Limits(max_nodes=max_nodes, max_seconds=max_seconds)),
    )
    seconds = time.process_time() - began
    redeals = None if result.solution is None else line_cost(game, start, result.solution)
    proven = redeals is not None and result.limit is None
    at_least = redeals if proven else result.least_cost_floor
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if result.engine != engine:
        raise RuntimeError(f"asked for the {engine} engine, searched by the {result.engine} one (not built?)")
    return Outcome(engine, preset, seed, redeals, proven, at_least, result.stats.nodes, seconds, peak)


def seed_list(text: str) -> list[int]:
    return [seed for low, high in parse_seeds(text) for seed in range(low, high + 1)]


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", default="1-100", help="game numbers, e.g. 1-100")
    parser.add_argument("--preset", default=",".join(PRESETS), help="comma-separated presets")
    parser.add_argument("--engines", default=NATIVE, help="comma-separated: native, python")
    parser.add_argument("--python-seeds", default=None, help="the Python engine's game numbers (default: --seeds)")
    parser.add_argument("--max-nodes", type=int, default=None, help="state limit per deal")
    parser.add_argument("--max-seconds", type=float, default=60.0, help="CPU-second limit per deal")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--verbose", action="store_true", help="one line per deal")
    args = parser.parse_args(argv)
    seeds = {NATIVE: seed_list(args.seeds), PYTHON: seed_list(args.python_seeds or args.seeds)}
    presets = [p.strip() for p in args.preset.split(",") if p.strip()]
    engines = [e.strip() for e in args.engines.split(",") if e.strip()]
    for preset in presets:
        FAMILY.variant(preset)  # unknown names fail here
    if not set(engines) <= {NATIVE, PYTHON}:
        parser.error(f"--engines takes {NATIVE} and {PYTHON}")
    # The engines' deals interleaved, so that both meet the machine's load alike.
    tasks = [
        (e, p, s, args.max_nodes, args.max_seconds)
        for p in presets
        for s in sorted(set(seeds[NATIVE]) | set(seeds[PYTHON]))
        for e in engines
        if s in seeds[e]
    ]
    outcomes: list[Outcome] = []
    # A fresh worker per deal (Python 3.11+), so that each deal's peak memory is its own.
    fresh: dict[str, Any] = {"max_tasks_per_child": 1} if sys.version_info >= (3, 11) else {}
    with ProcessPoolExecutor(max_workers=max(1, args.jobs), **fresh) as pool:
        for outcome in pool.map(solve_one, tasks):
            outcomes.append(outcome)
            if args.verbose:
                print(outcome, flush=True)
    print(f"Amazons --fewest-redeals, max_nodes={args.max_nodes}, max_seconds={args.max_seconds}")
    print(
        f"{'preset':15} {'engine':7} {'seeds':>9} {'proven':>9} {'mean s':>7} {'max s':>7} {'states':>9} "
        f"{'states/s':>9} {'peak MiB':>9}"
    )
    for preset in presets:
        for engine in engines:
            rows = [o for o in outcomes if o.preset == preset and o.engine == engine]
            report(preset, engine, args.python_seeds if engine == PYTHON and args.python_seeds else args.seeds, rows)
        if len(engines) == 2:
            compare(preset, outcomes)


def report(preset: str, engine: str, seeds: str, rows: list[Outcome]) -> None:
    """One line of figures for the deals of a preset one engine ran."""
    proven = sum(o.proven for o in rows)
    seconds = [o.seconds for o in rows]
    nodes = sum(o.nodes for o in rows)
    print(
        f"{preset:15} {engine:7} {seeds:>9} {f'{proven}/{len(rows)}':>9} {sum(seconds) / len(rows):7.2f} "
        f"{max(seconds):7.2f} {nodes / len(rows):9.0f} {nodes / max(sum(seconds), 1e-9):9.0f} "
        f"{max(o.peak_rss_kib for o in rows) / 1024:9.1f}"
    )
    unproven = [f"{o.seed} ({o.at_least}..{o.redeals})" for o in rows if not o.proven]
    if unproven:
        print(f"{'':15} {engine:7} not proven (at least..found): {', '.join(unproven)}")


def compare(preset: str, outcomes: list[Outcome]) -> None:
    """The compiled engine's states per CPU second over the Python one's, and its CPU seconds
    over theirs, on the deals both ran and both proved (the same fewest redeals)."""
    by = {(o.engine, o.seed): o for o in outcomes if o.preset == preset}
    both = sorted(s for (e, s) in by if e == PYTHON and (NATIVE, s) in by)
    proven = [s for s in both if by[NATIVE, s].proven and by[PYTHON, s].proven]
    for seed in proven:
        if by[NATIVE, seed].redeals != by[PYTHON, seed].redeals:
            raise AssertionError(f"{preset} deal {seed}: the engines prove different fewest redeals")
    if not both:
        return
    rate = {
        e: sum(by[e, s].nodes for s in both) / max(sum(by[e, s].seconds for s in both), 1e-9) for e in (NATIVE, PYTHON)
    }
    print(
        f"{'':15} native/python on {len(both)} deals: {rate[NATIVE] / rate[PYTHON]:.1f}x the states per CPU "
        f"second; {len(proven)} proven by both, the same fewest redeals"
    )


if __name__ == "__main__":
    main()

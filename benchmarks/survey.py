"""Survey machinery benchmark: deals per second with --jobs 1 and --jobs 2 on the same seeds (the
scaling ratio), the survey's overhead per deal against a bare loop of solves, and a survey of a
file of the same deals (--file, --jobs 1) against the survey of the seeds.

    python benchmarks/survey.py --game accordion --variant parlett --seeds 1-2000 --max-nodes 2000

Each figure is wall-clock time (the survey is judged by how soon it is done). The --jobs 2 figure
includes starting the worker processes. On a machine shared with other work the ratio is noisy:
the load average is printed alongside.
"""

from __future__ import annotations

import argparse
import os
import resource
import tempfile
import time
from pathlib import Path

from rulesets.cards import format_cards
from solver.service.deal_file import read_deal_file
from solver.service.seeds import Span, count_seeds, parse_seeds
from solver.service.setup import Setup, parse_size
from solver.service.solving import solve
from solver.surveys.running import SurveySpec, run_survey


def cpu() -> float:
    """CPU seconds used so far by this process and its finished children (the pool's workers)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def bare_loop(spec: SurveySpec, spans: list[Span]) -> tuple[float, float]:
    """Wall and CPU seconds of solving every seed in a plain loop, storing nothing."""
    setup, limits = Setup.of(spec.game, spec.variant, list(spec.options)), spec.limits()
    started, used = time.perf_counter(), cpu()
    for low, high in spans:
        for seed in range(low, high + 1):
            solve(setup, setup.deal(seed=seed), limits, seed=seed)
    return time.perf_counter() - started, cpu() - used


def surveyed(spec: SurveySpec, spans: list[Span], jobs: int, folder: str) -> tuple[float, float, dict[str, int]]:
    out = Path(folder) / f"jobs{jobs}.sqlite"
    started, used = time.perf_counter(), cpu()
    tally = run_survey(spec, spans, out, jobs=jobs)
    return time.perf_counter() - started, cpu() - used, tally.results


def file_surveyed(spec: SurveySpec, spans: list[Span], folder: str) -> tuple[float, float, dict[str, int]]:
    """Wall and CPU seconds of surveying a file of the seeds' deals (--jobs 1), reading and
    checking the file included."""
    setup = spec.setup()
    deals = Path(folder) / "deals.txt"
    deals.write_text(
        "".join(format_cards(setup.deal(seed=s)) + "\n" for low, high in spans for s in range(low, high + 1))
    )
    started, used = time.perf_counter(), cpu()
    tally = run_survey(spec, read_deal_file(setup, str(deals)), Path(folder) / "file.sqlite")
    return time.perf_counter() - started, cpu() - used, tally.results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--game", default="accordion")
    parser.add_argument("--variant", default="parlett")
    parser.add_argument("--option", action="append", default=[])
    parser.add_argument("--seeds", default="1-2000")
    parser.add_argument("--max-nodes", type=int, default=2000)
    parser.add_argument("--max-memory", default="2G")
    args = parser.parse_args()

    spec = SurveySpec(args.game, args.variant, tuple(args.option), args.max_nodes, None, parse_size(args.max_memory))
    spans = parse_seeds(args.seeds)
    n = count_seeds(spans)
    print(
        f"{args.game} ({args.variant}), seeds {args.seeds} ({n} deals), --max-nodes {args.max_nodes}; "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f} at start"
    )
    bare, bare_cpu = bare_loop(spec, spans)
    with tempfile.TemporaryDirectory() as folder:
        one, one_cpu, results = surveyed(spec, spans, 1, folder)
        two, two_cpu, results_two = surveyed(spec, spans, 2, folder)
        by_file, by_file_cpu, results_file = file_surveyed(spec, spans, folder)
    assert results == results_two == results_file, "jobs=1, jobs=2 and the file's survey disagree"
    print(f"results: {', '.join(f'{v} {k}' for k, v in sorted(results.items()))}")
    print(f"{'':21}{'wall s':>8}  {'deals/s':>9}  {'ms/deal':>8}  {'CPU ms/deal':>11}")
    for name, wall, used in (
        ("bare loop of solves", bare, bare_cpu),
        ("survey --jobs 1", one, one_cpu),
        ("survey --jobs 2", two, two_cpu),
        ("survey --file", by_file, by_file_cpu),
    ):
        print(f"{name:21}{wall:8.2f}  {n / wall:9.1f}  {1000 * wall / n:8.3f}  {1000 * used / n:11.3f}")
    print(f"scaling ratio (jobs 2 / jobs 1 deals/s): {one / two:.2f}")
    print(
        f"  CPU per deal jobs 1 / jobs 2: {one_cpu / two_cpu:.2f} (1.00 = no parallel overhead; "
        f"the ratio on 2 idle cores is at most twice this)"
    )
    print(
        f"survey overhead per deal (jobs 1 - bare): {1000 * (one - bare) / n:+.3f} ms wall "
        f"({100 * (one - bare) / bare:+.1f}%), {1000 * (one_cpu - bare_cpu) / n:+.3f} ms CPU"
    )
    print(f"file survey / seeds survey, jobs 1: {by_file / one:.3f} wall, {by_file_cpu / one_cpu:.3f} CPU")
    print(f"load average at end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()

"""The published win-rate table (docs/results.md): every preset surveyed over PySolFC deals 1..N.

With --run, each preset's survey is run (or resumed: a survey file keeps what it has) by the very
command docs/results.md prints, one preset after another, and its process CPU time is measured.
Then, from the survey files alone, it prints the throughput (deals per CPU second of search, mean
and slowest deal, and the CPU hours the whole table took) and the table's Markdown rows.

    python benchmarks/results.py --dir results --run --jobs 2
    python benchmarks/results.py --dir results --markdown
"""

from __future__ import annotations

import argparse
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Any, NamedTuple

from solver.service.report import summarize


class Plan(NamedTuple):
    """One preset's survey: PySolFC deals 1..deals, and why that many."""

    preset: str
    deals: int
    why: str


_LONG = "10,000: 100,000 deals would take {hours} hours of the 2-core machine ({cpu} CPU hours), not about an hour"

PLANS = (
    Plan("accordion", 10_000, _LONG.format(hours="about 1.5", cpu="2.9")),
    Plan("idle-year", 100_000, "100,000: about 4 CPU minutes"),
    Plan("parlett", 10_000, _LONG.format(hours="about 2", cpu="4")),
    Plan("self-working", 100_000, "100,000: about 2 CPU minutes"),
    Plan("amazons", 100_000, "100,000: about 34 CPU minutes"),
    Plan("amazons-dick", 100_000, "100,000: about 21 CPU minutes"),
    Plan("amazons-mms", 100_000, "100,000: about 9 CPU minutes"),
    Plan("amazons-pysol", 100_000, "100,000: about 2 CPU minutes"),
    Plan("baroness", 100_000, "100,000: about 5 CPU minutes"),
    Plan("baroness-classic", 100_000, "100,000: about 5 CPU minutes"),
    Plan("baroness-pysol", 10_000, "10,000 at --max-nodes 20000: deciding every deal takes minutes for some"),
    Plan("thirteens", 100_000, "100,000: about 8 CPU minutes"),
    Plan("royal-marriage", 100_000, "100,000: about 16 CPU minutes"),
    Plan("queen-and-her-lad", 100_000, "100,000: about 14 CPU minutes"),
    Plan("nizhni-novgorod", 100_000, "100,000: about 1.5 CPU minutes"),
)
#: Limits beyond the default table bound, where a preset needs them to finish at all.
LIMITS = {"baroness-pysol": ["--max-nodes", "20000"]}


def command(plan: Plan, jobs: int) -> list[str]:
    """The survey command of one preset, as docs/results.md prints it."""
    return ["patience", "survey", plan.preset, "--seeds", f"1-{plan.deals}", "--out", f"{plan.preset}.sqlite",
            "--jobs", str(jobs), *LIMITS.get(plan.preset, [])]  # fmt: skip


def run(plan: Plan, directory: Path, jobs: int) -> float:
    """Run (or resume) one survey in ``directory``; its processes' CPU seconds."""
    script = Path(sys.executable).with_name("patience")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([str(script), *command(plan, jobs)[1:], "--no-progress"], cwd=directory, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def throughput(plan: Plan, summary: dict[str, Any], process_seconds: float | None) -> str:
    """One preset's line of the throughput table."""
    deals, cpu = summary["deals"], summary["cpu_seconds"]
    rate = deals / cpu if cpu else float("inf")
    process = "" if process_seconds is None else f"; processes {process_seconds:,.0f} CPU s"
    return (
        f"{plan.preset:18} {deals:>7,} deals  {rate:>9,.0f} deals per CPU s  "
        f"mean {summary['mean_seconds']:.4f} s  max {summary['max_seconds']:.3f} s  search {cpu:,.0f} CPU s{process}"
    )


def distribution(summary: dict[str, Any]) -> str:
    """The score distribution as 'score: deals' pairs, '*' marking counts not all proven minimal."""
    parts = []
    for bar in summary["histogram"]:
        score = "none" if bar["score"] is None else str(bar["score"])
        mark = "" if bar["proven"] == bar["deals"] else "*"
        parts.append(f"{score}: {bar['deals']:,}{mark}")
    return ", ".join(parts)


def markdown_row(plan: Plan, summary: dict[str, Any]) -> str:
    """One preset's row of docs/results.md's table."""
    low, high = summary["win_rate_low"], summary["win_rate_high"]
    rate = f"{summary['win_rate']:.2%} ({low:.2%} to {high:.2%})"
    if summary["unknown"]:  # the range from the Wilson low of won to the Wilson high of won or unknown
        rate = f"{low:.2%} to {high:.2%} (a range: deals unknown)"
    threshold = summary.get("threshold")
    sheinwold = "" if threshold is None else f"{threshold['rate']:.2%}"
    return (
        f"| {plan.preset} | {summary['deals']:,} | {summary['won']:,} | {summary['lost']:,} | {summary['unknown']:,} "
        f"| {rate} | {sheinwold} "
        f"| {summary['mean_seconds']:.4f} / {summary['max_seconds']:.2f} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, required=True, help="directory of the survey files (PRESET.sqlite)")
    parser.add_argument("--run", action="store_true", help="run or resume each survey first")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes per survey (default 2)")
    parser.add_argument("--only", nargs="*", default=None, metavar="PRESET", help="these presets only")
    parser.add_argument("--markdown", action="store_true", help="print the table's Markdown rows too")
    args = parser.parse_args(argv)
    plans = [plan for plan in PLANS if args.only is None or plan.preset in args.only]
    if args.run:
        args.dir.mkdir(parents=True, exist_ok=True)
    processes: dict[str, float] = {}
    started = time.perf_counter()
    for plan in plans:
        if args.run:
            processes[plan.preset] = run(plan, args.dir, args.jobs)
    summaries = {plan.preset: summarize(args.dir / f"{plan.preset}.sqlite", slowest=0) for plan in plans}
    search = sum(summary["cpu_seconds"] for summary in summaries.values())
    for plan in plans:
        print(throughput(plan, summaries[plan.preset], processes.get(plan.preset)))
        print(f"    {' '.join(command(plan, args.jobs))}   # {plan.why}")
    print(f"search CPU for the whole table: {search / 3600:.2f} hours", end="")
    if processes:
        wall = (time.perf_counter() - started) / 3600
        print(f"; processes {sum(processes.values()) / 3600:.2f} CPU hours, {wall:.2f} hours wall")
    else:
        print()
    if args.markdown:
        print("| preset | deals per CPU s | CPU s a deal: mean | max |")
        print("|---|---|---|---|")
        for plan in plans:
            summary = summaries[plan.preset]
            rate = summary["deals"] / summary["cpu_seconds"]
            print(f"| {plan.preset} | {rate:,.0f} | {summary['mean_seconds']:.4f} | {summary['max_seconds']:.2f} |")
        for plan in plans:
            print(markdown_row(plan, summaries[plan.preset]))
            print(f"    {plan.preset}: {distribution(summaries[plan.preset])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

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

from solver.surveys.report import summarize


class Plan(NamedTuple):
    """One preset's survey: PySolFC deals 1..deals, and why that many; ``options`` are the
    survey's flags beyond the default (``--fewest-redeals``), ``stem`` its file's name."""

    preset: str
    deals: int
    why: str
    options: tuple[str, ...] = ()
    stem: str = ""

    @property
    def file(self) -> str:
        return f"{self.stem or self.preset}.sqlite"


#: The deals a 95% Wilson interval needs to be at most 0.1 point either side at rate p: about
#: 1.96**2 * p * (1 - p) / 0.001**2 (960,400 at one half), taken at the rate an earlier survey of
#: the preset gave, with 8% to spare and rounded up; at a rate of 0 or 1, 3,838 deals.
def _enough(rate: float) -> str:
    return f"rate near {rate:.1%}: {1.96**2 * rate * (1 - rate) / 1e-6:,.0f} deals give 0.1 point either side"


_ALL_WON = "every deal won so far: 3,838 deals give 0.1 point (the interval is one-sided)"

PLANS = (
    Plan("accordion", 10_000, _ALL_WON + "; 10,000"),
    Plan("idle-year", 100_000, _enough(0.0047) + "; 100,000"),
    Plan("parlett", 450_000, _enough(0.1224)),
    Plan("self-working", 100_000, _enough(0.00046) + "; 100,000"),
    Plan("amazons", 100_000, _ALL_WON + "; 100,000"),
    Plan("amazons-dick", 100_000, _ALL_WON + "; 100,000"),
    Plan("amazons-mms", 100_000, _ALL_WON + "; 100,000"),
    Plan("amazons-pysol", 100_000, _ALL_WON + "; 100,000"),
    Plan("baroness", 320_000, _enough(0.0841)),
    Plan("baroness-classic", 430_000, _enough(0.1170)),
    Plan(
        "baroness-pysol",
        27_696,
        "rate near 60%: 922,000 deals would be needed, about 45 CPU hours at 0.18 s a deal; 27,696 for now",
    ),
    Plan("thirteens", 1_000_000, _enough(0.6256)),
    Plan("royal-marriage", 100_000, _enough(0.9866) + "; 100,000"),
    Plan("queen-and-her-lad", 160_000, _enough(0.9622)),
    Plan("nizhni-novgorod", 10_000_000, _enough(0.0497) + "; 10,000,000, the ten-million-deal survey"),
)
#: The fewest redeals of each Amazons preset's wins (IDA*, proven): a distribution, not a rate,
#: so fewer deals (a deal takes 0.03 to 0.7 CPU s).
REDEALS = tuple(
    Plan(preset, 1_000, "the distribution of the fewest redeals", ("--fewest-redeals",), f"{preset}-redeals")
    for preset in ("amazons", "amazons-dick", "amazons-mms", "amazons-pysol")
)
#: Rates published elsewhere, beside each row: the odds for play with hidden cards (see the
#: page's "Why they differ") and Solvitaire's, where it has the same game.
PUBLISHED = {
    "accordion": "1%",
    "self-working": "0.04%",
    "amazons": "10%",
    "amazons-dick": "10%",
    "amazons-mms": "10%",
    "amazons-pysol": "10%",
    "baroness": "20% (or 4%)",
    "baroness-classic": "20% (or 4%)",
    "baroness-pysol": "20% (or 4%)",
    "royal-marriage": "3%",
}
#: Solvitaire's verdicts on the 500 random deals of tests/data/accordion-reference.tsv: all won.
SOLVITAIRE = {"accordion": "100% (99.24% to 100%), 500 random deals"}


def command(plan: Plan, jobs: int) -> list[str]:
    """The survey command of one preset, as docs/results.md prints it."""
    return ["patience", "survey", plan.preset, "--seeds", f"1-{plan.deals}", "--out", plan.file,
            "--jobs", str(jobs), *plan.options]  # fmt: skip


def run(plan: Plan, directory: Path, jobs: int) -> float:
    """Run (or resume) one survey in ``directory``; its processes' CPU seconds."""
    script = Path(sys.executable).with_name("patience")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run([str(script), *command(plan, jobs)[1:], "--no-progress"], cwd=directory, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)


def throughput(plan: Plan, summary: dict[str, Any], process_seconds: float | None) -> str:
    """One survey's line of the throughput table."""
    deals, cpu = summary["deals"], summary["cpu_seconds"]
    rate = deals / cpu if cpu else float("inf")
    process = "" if process_seconds is None else f"; processes {process_seconds:,.0f} CPU s"
    return (
        f"{plan.stem or plan.preset:22} {deals:>10,} deals  {rate:>9,.0f} deals per CPU s  "
        f"mean {summary['mean_seconds']:.5f} s  max {summary['max_seconds']:.3f} s  search {cpu:,.0f} CPU s{process}"
    )


def distribution(summary: dict[str, Any]) -> str:
    """The score distribution as 'score: deals' pairs, '*' marking counts not all proven minimal."""
    parts = []
    for bar in summary["histogram"]:
        score = "none" if bar["score"] is None else str(bar["score"])
        mark = "" if bar["proven"] == bar["deals"] else "*"
        parts.append(f"{score}: {bar['deals']:,}{mark}")
    return ", ".join(parts)


def redeals(summary: dict[str, Any]) -> str:
    """A fewest-redeals survey's wins as 'redeals: deals' pairs, '*' marking counts not all proven."""
    return ", ".join(
        f"{bar['redeals']}: {bar['deals']:,}{'' if bar['proven'] == bar['deals'] else '*'}"
        for bar in summary["redeals"]["histogram"]
    )


def half_width(summary: dict[str, Any]) -> float:
    """The larger side of the 95% interval (or range) around the point rate, in points."""
    return 100 * max(summary["win_rate"] - summary["win_rate_low"], summary["win_rate_high"] - summary["win_rate"])


def markdown_row(plan: Plan, summary: dict[str, Any], process_seconds: float | None) -> str:
    """One preset's row of docs/results.md's table (the survey's processes' CPU hours where
    this run measured them, else "-")."""
    low, high = summary["win_rate_low"], summary["win_rate_high"]
    rate = f"{summary['win_rate']:.2%} ({low:.2%} to {high:.2%})"
    if summary["unknown"]:  # the range from the Wilson low of won to the Wilson high of won or unknown
        rate = f"{low:.2%} to {high:.2%} (a range: deals unknown)"
    threshold = summary.get("threshold")
    sheinwold = "" if threshold is None else f"{threshold['rate']:.2%}"
    survey = "-" if process_seconds is None else f"{process_seconds / 3600:.2f}"
    engines = "+".join(name for name, count in summary["engines"].items() if count)
    version = summary["survey"]["solver_version"]
    return (
        f"| {plan.preset} | {summary['deals']:,} | {summary['won']:,} | {summary['lost']:,} | {summary['unknown']:,} "
        f"| {rate} | ±{half_width(summary):.2f} | {sheinwold} "
        f"| {summary['mean_seconds'] * 1000:.2f} / {summary['max_seconds']:.2f} "
        f"| {summary['cpu_seconds'] / 3600:.2f} / {survey} "
        f"| {version}, {engines} | {PUBLISHED.get(plan.preset, '')} | {SOLVITAIRE.get(plan.preset, '')} |"
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--dir", type=Path, required=True, help="directory of the survey files (PRESET.sqlite)")
    parser.add_argument("--run", action="store_true", help="run or resume each survey first")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes per survey (default 2)")
    parser.add_argument("--only", nargs="*", default=None, metavar="PRESET", help="these presets only")
    parser.add_argument("--markdown", action="store_true", help="print the table's Markdown rows too")
    args = parser.parse_args(argv)
    plans = [plan for plan in (*PLANS, *REDEALS) if args.only is None or plan.preset in args.only]
    if args.run:
        args.dir.mkdir(parents=True, exist_ok=True)
    processes: dict[Plan, float] = {}
    started = time.perf_counter()
    for plan in plans:
        if args.run:
            processes[plan] = run(plan, args.dir, args.jobs)
    summaries = {plan: summarize(args.dir / plan.file, slowest=0) for plan in plans}
    search = sum(summary["cpu_seconds"] for summary in summaries.values())
    for plan in plans:
        print(throughput(plan, summaries[plan], processes.get(plan)))
        print(f"    {' '.join(command(plan, args.jobs))}   # {plan.why}")
    print(f"search CPU for the whole table: {search / 3600:.2f} hours", end="")
    if processes:
        wall = (time.perf_counter() - started) / 3600
        print(f"; processes {sum(processes.values()) / 3600:.2f} CPU hours, {wall:.2f} hours wall")
    else:
        print()
    if args.markdown:
        for plan in plans:
            if plan in REDEALS:
                print(f"    {plan.preset} fewest redeals: {redeals(summaries[plan])}")
            else:
                print(markdown_row(plan, summaries[plan], processes.get(plan)))
                print(f"    {plan.preset}: {distribution(summaries[plan])}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

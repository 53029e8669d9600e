"""The players' table of docs/results.md: each preset's deals 1..N played by the random and the
sampling player (neither sees the stock), beside the share of the same deals that can be won with
every card known.

With --run, each survey is run (or resumed: a survey file keeps what it has) by the command the
page prints, one after another, and its process CPU time is measured. Then, from the survey files
alone, it checks that every deal a player won is solvable (it stops, naming the deals, if not) and
prints the table's Markdown rows.

    python benchmarks/player_results.py --dir results --run --jobs 2
    python benchmarks/player_results.py --dir results --markdown --plot docs/results-players.png
"""

from __future__ import annotations

import argparse
import resource
import sqlite3
import subprocess
import sys
import time
from pathlib import Path
from typing import NamedTuple

from rulesets.concealed import presets_with_stock
from solver.service.stats import wilson
from solver.surveys.row_codec import VERDICTS


class Plan(NamedTuple):
    """One preset's surveys: its deals 1..deals played by the random player and solved, the
    first ``sampled`` of them played by the sampling player with ``samples`` orders a move."""

    preset: str
    deals: int
    sampled: int
    samples: int = 100

    def surveys(self) -> list[tuple[str, str, list[str]]]:
        """Each survey as (what it is, its file, its flags beyond the preset and seeds)."""
        return [
            ("solvable", f"{self.preset}-solvable.sqlite", []),
            ("random", f"{self.preset}-random.sqlite", ["--player", "random"]),
            (
                "sampling",
                f"{self.preset}-sampling.sqlite",
                ["--player", "sampling", *(["--samples", str(self.samples)] if self.samples != 100 else [])],
            ),
        ]

    def seeds(self, survey: str) -> int:
        return self.sampled if survey == "sampling" else self.deals


#: N a preset: 2,000 deals at least for each player (the sampling player's cost a deal, measured
#: by benchmarks/players.py, decides where fewer are affordable within a session's CPU hours).
PLANS = (
    Plan("accordion", 2_000, 2_000),
    Plan("idle-year", 10_000, 2_000),
    Plan("parlett", 10_000, 2_000),
    Plan("self-working", 10_000, 2_000),
    Plan("amazons", 2_000, 2_000),
    Plan("amazons-dick", 2_000, 2_000),
    Plan("amazons-mms", 2_000, 2_000),
    Plan("amazons-pysol", 2_000, 2_000),
    Plan("baroness", 10_000, 2_000),
    Plan("baroness-classic", 10_000, 2_000),
    Plan("baroness-pysol", 2_000, 200, 10),
    Plan("thirteens", 10_000, 2_000),
    Plan("royal-marriage", 10_000, 2_000),
    Plan("queen-and-her-lad", 10_000, 2_000),
    Plan("nizhni-novgorod", 10_000, 2_000),
)


def command(plan: Plan, survey: str, jobs: int) -> list[str]:
    """The survey command of one preset and player, as docs/results.md prints it."""
    for name, file, flags in plan.surveys():
        if name == survey:
            return ["patience", "survey", plan.preset, "--seeds", f"1-{plan.seeds(survey)}", "--out", file,
                    "--jobs", str(jobs), *flags]  # fmt: skip
    raise KeyError(survey)


def run(plan: Plan, survey: str, directory: Path, jobs: int) -> float:
    """Run (or resume) one survey in ``directory``; its processes' CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    began = time.monotonic()
    subprocess.run(command(plan, survey, jobs), cwd=directory, check=True)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    print(f"{plan.preset} {survey}: {cpu:.1f} CPU s, {time.monotonic() - began:.1f} s", file=sys.stderr)
    return cpu


def won_seeds(path: Path, up_to: int) -> tuple[set[int], int, float]:
    """The seeds 1..up_to a survey file holds as won, how many of them it holds, and their CPU
    seconds (read by column name)."""
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        won = {seed for (seed,) in db.execute(
            "SELECT seed FROM deals WHERE verdict = ? AND seed <= ?", (VERDICTS.index("won"), up_to))}  # fmt: skip
        totals = "SELECT COUNT(*), TOTAL(microseconds) FROM deals WHERE seed <= ?"
        count, micro = db.execute(totals, (up_to,)).fetchone()
    finally:
        db.close()
    return won, count, micro / 1e6


def rate(won: int, count: int) -> str:
    low, high = wilson(won, count)
    return f"{100 * won / count:.2f}% ({100 * low:.2f}% to {100 * high:.2f}%)"


class Rates(NamedTuple):
    """One preset's rates: (won, deals) solvable, by the random player, by the sampling player."""

    solvable: tuple[int, int]
    random: tuple[int, int]
    sampling: tuple[int, int]


def rates(plan: Plan, directory: Path) -> Rates:
    """The preset's three rates from its survey files."""
    found = []
    for survey, file, _ in plan.surveys():
        won, count, _ = won_seeds(directory / file, plan.seeds(survey))
        found.append((len(won), count))
    return Rates(*found)


def every_preset() -> list[str]:
    return [plan.preset for plan in PLANS]


def plot(plans: list[Plan], directory: Path, path: Path) -> None:
    """Each preset's solvable share beside the two players' win rates, with 95% Wilson intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    figure, axes = plt.subplots(figsize=(10, 0.45 * len(plans) + 1.5))
    height = 0.27
    colours = {"solvable": "#4c72b0", "sampling": "#dd8452", "random": "#55a868"}
    labels = {"solvable": "every card known (solvable)", "sampling": "sampling player", "random": "random player"}
    for row, plan in enumerate(plans):
        found = rates(plan, directory)
        for shift, name in ((-height, "solvable"), (0.0, "sampling"), (height, "random")):
            won, count = getattr(found, name)
            low, high = wilson(won, count)
            share = won / count
            y = len(plans) - 1 - row + shift
            axes.barh(y, 100 * share, height, color=colours[name], label=labels[name] if row == 0 else None)
            axes.errorbar(100 * share, y, xerr=[[100 * (share - low)], [100 * (high - share)]], fmt="none",
                          ecolor="black", capsize=2, linewidth=0.8)  # fmt: skip
            axes.text(100 * high + 0.8, y, f"{100 * share:.2f}%", va="center", fontsize=7)
    face_up = set(every_preset()) - set(presets_with_stock())
    names = [plan.preset + (" (no stock)" if plan.preset in face_up else "") for plan in reversed(plans)]
    axes.set_yticks(range(len(plans)), names)
    axes.set_xlabel("deals won, % (95% Wilson interval)")
    axes.set_xlim(0, 108)
    axes.set_title("Won by players who cannot see the stock, beside the deals that can be won")
    axes.legend(loc="upper center", bbox_to_anchor=(0.5, -0.06 - 1.0 / len(plans)), ncol=3, frameon=False)
    figure.tight_layout()
    figure.savefig(path, dpi=100)


def markdown_row(plan: Plan, directory: Path) -> str:
    """The table's row of one preset; stops naming the deals if a player won an unsolvable one."""
    solvable, counted, _ = won_seeds(directory / plan.surveys()[0][1], plan.deals)
    cells = [plan.preset]
    cells.append(f"{counted:,}: {rate(len(solvable), counted)}")
    seconds = 0.0
    for survey, file, _ in plan.surveys()[1:]:
        won, count, cpu = won_seeds(directory / file, plan.seeds(survey))
        seconds += cpu
        beyond = won - solvable
        if beyond:
            raise SystemExit(f"{plan.preset}: the {survey} player won deals no search can win: {sorted(beyond)[:10]}")
        solvable_here = len({seed for seed in solvable if seed <= plan.seeds(survey)})
        share = f"{100 * len(won) / solvable_here:.1f}%" if solvable_here else "-"
        cells.append(f"{count:,}: {rate(len(won), count)}; {share} of the solvable")
    cells.append(f"{plan.samples}")
    cells.append(f"{seconds / 3600:.2f}")
    return "| " + " | ".join(cells) + " |"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--dir", type=Path, required=True, help="where the survey files are (made if missing)")
    parser.add_argument("--run", action="store_true", help="run or resume every survey first")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--only", nargs="*", help="these presets only")
    parser.add_argument("--markdown", action="store_true", help="print the table's rows")
    parser.add_argument("--plot", type=Path, help="draw the rates to this PNG")
    args = parser.parse_args(argv)
    plans = [plan for plan in PLANS if args.only is None or plan.preset in args.only]
    args.dir.mkdir(parents=True, exist_ok=True)
    if args.run:
        for plan in plans:
            for survey, _, _ in plan.surveys():
                run(plan, survey, args.dir, args.jobs)
    if args.markdown:
        print("| preset | solvable: N, rate (95% Wilson) | random player: N, rate; share of the solvable won "
              "| sampling player: N, rate; share of the solvable won | samples | player CPU hours |")  # fmt: skip
        print("|---|---|---|---|---|---|")
        for plan in plans:
            print(markdown_row(plan, args.dir))
    if args.plot:
        plot(plans, args.dir, args.plot)
    return 0


if __name__ == "__main__":
    sys.exit(main())

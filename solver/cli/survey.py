"""The survey commands: survey (solve a range of seeds into a survey file) and report (what a
survey file says). Their services (process pools, SQLite, rich) are imported when they run (see
:mod:`solver.cli.solve`)."""

from pathlib import Path
from typing import TYPE_CHECKING

import typer

from solver.cli.options import (
    GameArgument,
    MaxMemoryOption,
    MaxNodesOption,
    MaxSecondsOption,
    OptionsOption,
    VariantOption,
)

if TYPE_CHECKING:
    from solver.service.survey import Tally

#: The exit code of a survey whose Dask scheduler went away: a temporary failure (rerunning carries on).
SCHEDULER_LOST = 75


def survey_command(
    game: str = GameArgument,
    seeds: str = typer.Option(..., "--seeds", help="Seed ranges, e.g. 1-100000 or 1-1000,2000-2100."),
    out: Path = typer.Option(..., "--out", help="The SQLite survey file (created, or resumed)."),
    jobs: int = typer.Option(1, "--jobs", "-j", help="Worker processes (0: one per CPU; at most four per CPU)."),
    variant: str | None = VariantOption,
    option: list[str] = OptionsOption,
    max_nodes: int | None = MaxNodesOption,
    max_seconds: float | None = MaxSecondsOption,
    max_memory: str = MaxMemoryOption,
    scheduler: str | None = typer.Option(
        None,
        "--scheduler",
        help="Run on the Dask distributed cluster at this address, e.g. tcp://HOST:8786 (extra 'dask').",
    ),
    progress: bool | None = typer.Option(
        None, "--progress/--no-progress", help="Show a progress bar (default: only on a terminal, not under CI)."
    ),
) -> None:
    """Solve every seed of a range under per-deal limits; store one row per deal in SQLite (resumable).

    Rerunning the same command after an interruption skips the deals already stored.
    A file of other rules, options or limits is refused.
    Results are the same whatever --jobs or --scheduler when --max-nodes is the limit that decides;
    --max-seconds counts CPU time, so which deals it cuts off varies with the machine and its load.
    """
    from solver.cli.progress import ProgressBar, show_progress
    from solver.service.errors import SchedulerLost
    from solver.service.seeds import parse_seeds
    from solver.service.setup import parse_size
    from solver.service.survey import SurveySpec, run_survey, worker_count

    worker_count(jobs)
    spans = parse_seeds(seeds)
    spec = SurveySpec(game, variant, tuple(option), max_nodes, max_seconds, parse_size(max_memory))
    setup = spec.setup()  # report a bad game, variant or option before touching the file
    bar = ProgressBar(f"{setup.family.name} ({setup.variant})")
    shown = show_progress() if progress is None else progress
    try:
        tally = run_survey(spec, spans, out, jobs, scheduler, on_progress=bar if shown else None)
    except SchedulerLost as lost:
        bar.close()  # before the line, so that the bar does not draw over it
        typer.echo(f"patience: error: {lost}", err=True)
        raise typer.Exit(SCHEDULER_LOST) from None
    finally:
        bar.close()
    _print_tally(out, tally)
    if tally.interrupted:
        typer.echo(
            f"patience: interrupted with {tally.skipped + tally.solved} of {tally.total} deals stored: "
            "rerun the same command to carry on where it stopped",
            err=True,
        )
        raise typer.Exit(130)


def _print_tally(out: Path, tally: "Tally") -> None:
    """One line: deals stored, of which already there, and what was solved now (and how fast)."""
    counts = ", ".join(f"{tally.results.get(k, 0)} {k}" for k in ("won", "lost", "unknown"))
    rate = f", {tally.solved / tally.wall_seconds:.1f} deals/s" if tally.solved and tally.wall_seconds > 0 else ""
    typer.echo(
        f"{out}: {tally.skipped + tally.solved} of {tally.total} deals stored "
        f"({tally.skipped} already there; solved now: {counts}{rate})"
    )


def report_command(
    file: Path = typer.Argument(..., help="A survey file written by 'patience survey'."),
    as_csv: str | None = typer.Option(
        None, "--csv", help="Write every deal as CSV to this file ('-': standard output)."
    ),
    as_json: str | None = typer.Option(
        None, "--json", help="Write the summary and every deal as JSON to this file ('-': standard output)."
    ),
    plot_file: str | None = typer.Option(
        None, "--plot", help="Draw the score histogram to this PNG file (extra 'plot')."
    ),
    slowest: int = typer.Option(10, "--slowest", help="How many of the slowest deals to list (0 or more)."),
) -> None:
    """Summarize a survey: win rate with a 95% Wilson interval, lost/unknown, scores, slowest deals.

    The survey file is only read (a read-only one will do); each export is written whole or not
    at all, and never over the survey.
    """
    from solver.service.report import check_targets, plot, render, summarize, write_csv, write_json

    check_targets(file, {"--csv": as_csv, "--json": as_json, "--plot": plot_file})
    summary = summarize(file, slowest)
    if as_csv is not None:
        write_csv(file, as_csv)
    if as_json is not None:
        write_json(file, summary, as_json)
    if plot_file is not None:
        plot(summary, plot_file)
    if "-" not in (as_csv, as_json, plot_file):
        typer.echo(render(summary))

"""The survey commands: survey (solve a range of seeds, or a file of deals, into a survey file) and
report (what a survey file says). Their services (process pools, SQLite, rich) are imported when
they run (see :mod:`solver.cli.solve`)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from solver.cli.errors import ExitCode, UsageError, print_whole, say
from solver.cli.options import (
    GAME,
    MAX_MEMORY,
    MAX_NODES,
    MAX_SECONDS,
    PLAYER,
    RNG_SEED,
    RULES,
    SAMPLES,
    Argument,
    Command,
    OnceEither,
    file_name,
    file_or_dash,
    path,
    switch,
    whole,
)
from solver.errors import RunLost

#: The memory bound of each deal's search unless --max-memory says otherwise.
DEFAULT_MEMORY = "2G"

if TYPE_CHECKING:
    from pathlib import Path

    from solver.service.deal_file import DealFile
    from solver.service.seeds import Span
    from solver.service.setup import Setup
    from solver.surveys import RunTally


def survey_command(
    *,
    game: str,
    out: str,
    seeds: str | None = None,
    file: str | None = None,
    jobs: int = 1,
    variant: str | None = None,
    option: Sequence[str] = (),
    max_nodes: int | None = None,
    max_seconds: float | None = None,
    max_memory: str | None = None,
    scheduler: str | None = None,
    progress: bool | None = None,
    fewest_redeals: bool = False,
    player: str | None = None,
    samples: int | None = None,
    rng_seed: int | None = None,
) -> int:
    """Solve every seed of a range (--seeds), or every deal of a file (--file), under per-deal
    limits; store one row per deal in SQLite (resumable).

    With --player, the player plays each deal to its end instead (as 'patience play' does): each
    row is its game, won or lost, its score at the end, the moves made and the CPU seconds.
    Rerunning the same command after an interruption skips the deals already stored.
    A file of other rules, options, limits or player is refused.
    With --file, rows are keyed by line number: every line is checked before the survey file is
    made (a bad line is refused, naming it), and a resumed run on a changed file is refused
    naming the first line that differs (give it another --out).
    Results are the same whatever --jobs or --scheduler when --max-nodes is the limit that decides;
    --max-seconds counts CPU time, so which deals it cuts off varies with the machine and its load.
    """
    from pathlib import Path

    from solver.cli.progress import ProgressBar, show_progress
    from solver.service.seeds import parse_seeds
    from solver.service.setup import parse_size
    from solver.surveys import SurveySpec, run_survey

    _check_survey_arguments(seeds, file, out, scheduler=scheduler, jobs=jobs)
    spans = None if seeds is None else parse_seeds(seeds)
    if max_memory is None and player is None:  # a search's memory bound; a player's survey has none
        max_memory = DEFAULT_MEMORY
    memory = None if max_memory is None else parse_size(max_memory)
    spec = SurveySpec(
        game, variant, tuple(option), max_nodes, max_seconds, memory, fewest_redeals, player, samples, rng_seed
    )
    setup = spec.setup()  # report a bad game, variant or option before touching the file
    deals = _deals(setup, spans, file)
    bar = ProgressBar(f"{setup.family.name} ({setup.variant})" + ("" if player is None else f", {player} player"))
    shown = show_progress() if progress is None else progress
    try:
        tally = run_survey(spec, deals, Path(out), jobs=jobs, scheduler=scheduler, on_progress=bar if shown else None)
    except RunLost as lost:
        bar.close()  # before the line, so that the bar does not draw over it
        say(f"patience: error: {lost}")
        return ExitCode.RUN_LOST
    finally:
        bar.close()
    return _ending(out, tally, player)


def _check_survey_arguments(seeds: str | None, file: str | None, out: str, *, scheduler: str | None, jobs: int) -> None:
    """Refuse arguments that cannot make a survey, before anything is read or made."""
    from solver.surveys import worker_count

    if (seeds is None) == (file is None):
        raise UsageError("give exactly one of --seeds or --file" + (" (got both)" if seeds is not None else ""))
    if out == "-":  # '-' is standard input or output everywhere else: never a file so named (./- is one)
        raise UsageError("--out -: a survey is a SQLite file, not standard output: name it, e.g. --out survey.sqlite")
    if scheduler == "":  # would silently mean the local pool
        raise UsageError("--scheduler '' is empty: give the scheduler's address, e.g. tcp://host:8786")
    worker_count(jobs)


def _deals(setup: Setup, spans: list[Span] | None, file: str | None) -> list[Span] | DealFile:
    """The deals to survey: the seed ranges ``spans``, or the deals of ``file``, read and checked."""
    from solver.service.deal_file import read_deal_file

    if spans is not None:
        return spans
    assert file is not None, "exactly one of --seeds and --file is given"
    return read_deal_file(setup, file)


def _ending(out: str, tally: RunTally, player: str | None) -> int:
    """What the run did, printed, and the exit code: interrupted, or done."""
    _print_tally(out, tally, player)
    if tally.tracker_restarted:
        say(
            "patience: note: multiprocessing's resource tracker, a helper process of this run, died "
            "(killed?) and was started again; no row was lost"
        )
    if tally.interrupted:
        say(
            f"patience: interrupted with {tally.skipped + tally.solved} of {tally.total} deals stored: "
            "rerun the same command to carry on where it stopped"
        )
        return ExitCode.INTERRUPTED
    return ExitCode.OK


def _print_tally(out: str, tally: RunTally, player: str | None) -> None:
    """Two lines within 80 columns (but a long file name): the deals stored, of which already
    there; then what was solved (or played by the ``player``) now, and how fast."""
    if player is None:
        counts = ", ".join(f"{tally.results.get(k, 0)} {k}" for k in ("won", "lost", "unknown"))
    else:
        counts = f"{tally.results.get('won', 0)} won, {tally.results.get('lost', 0)} not won by the {player} player"
    rate = f" ({tally.solved / tally.wall_seconds:.1f} deals/s)" if tally.solved and tally.wall_seconds > 0 else ""
    print(f"{out}: {tally.skipped + tally.solved} of {tally.total} deals stored ({tally.skipped} already there)")
    print(f"{'solved' if player is None else 'played'} now: {counts}{rate}")


def report_command(
    *,
    files: list[Path],
    as_csv: str | None = None,
    summary_csv: str | None = None,
    as_json: str | None = None,
    plot_file: str | None = None,
    plot_cpu: str | None = None,
    dpi: int | None = None,
    slowest: int | None = None,
) -> None:
    """Summarize a survey: win rate, lost/unknown, scores, CPU per deal, slowest deals; or compare several.

    The win rate is a 95% range: from the Wilson lower bound of the deals won to the Wilson upper
    bound of the deals won or unknown (the Wilson interval when no deal is unknown).
    Several files give one row per survey (text, --csv, --json, --plot).
    The survey files are only read (read-only ones will do); each export is written whole or
    not at all, and never over a survey.
    """
    from solver import surveys

    figures = {"--plot": plot_file, "--plot-cpu": plot_cpu}
    surveys.check_targets(files, {"--csv": as_csv, "--summary-csv": summary_csv, "--json": as_json, **figures})
    formats = {surveys.plot_format(option, target) for option, target in figures.items() if target is not None}
    if dpi is not None and "png" not in formats:  # else it would be silently ignored
        raise UsageError(f"--dpi {dpi} sets a PNG figure's resolution: give it with --plot or --plot-cpu FILE.png")
    dpi = surveys.DEFAULT_DPI if dpi is None else dpi
    surveys.check_dpi(dpi)
    if slowest is not None and len(files) > 1 and as_json is None:  # else it would be silently ignored
        raise UsageError(
            f"--slowest {slowest} lists one survey's slowest deals: give one survey file, or --json for each one's"
        )
    summaries = [surveys.summarize(file, 10 if slowest is None else slowest) for file in files]
    if plot_file is not None or plot_cpu is not None:
        surveys.check_drawable(summaries)
    if as_csv is not None:
        if len(files) == 1:
            surveys.write_csv(files[0], as_csv)
        else:  # like --json and --plot: of several surveys, the comparison
            surveys.write_summary_csv(summaries, as_csv)
    if summary_csv is not None:
        surveys.write_summary_csv(summaries, summary_csv)
    if as_json is not None:
        surveys.write_json(files, summaries, as_json)
    if plot_file is not None:
        if len(files) == 1:
            surveys.plot_scores(summaries[0], plot_file, dpi)
        else:
            surveys.plot_rates(summaries, plot_file, dpi)
    if plot_cpu is not None:
        surveys.plot_cpu(files, summaries, plot_cpu, dpi=dpi)
    if "-" not in (as_csv, summary_csv, as_json, plot_file, plot_cpu):
        print_whole(surveys.render(summaries[0]) if len(files) == 1 else surveys.render_table(summaries))


COMMANDS = (
    Command(
        "survey",
        survey_command,
        (
            GAME,
            Argument(
                ("--seeds",),
                "seeds",
                "Seed ranges, e.g. 1-100000 or 1-1000,2000-2100 (or give --file).",
                metavar="RANGES",
            ),
            Argument(
                ("-f", "--file"),
                "file",
                "A file of deals, one a line, # comments; each row is keyed by its line ('-': standard input).",
                file_or_dash,
                metavar="FILE",
            ),
            Argument(
                ("--out",),
                "out",
                "The SQLite survey file (created, or resumed).",
                file_name,
                required=True,
                metavar="FILE",
            ),
            Argument(
                ("-j", "--jobs"), "jobs", "Worker processes (0: one per CPU; at most four per CPU).", whole, metavar="N"
            ),
            *RULES,
            MAX_NODES,
            MAX_SECONDS,
            MAX_MEMORY._replace(help=f"{MAX_MEMORY.help} [default: {DEFAULT_MEMORY}; none with --player]"),
            switch(
                "--fewest-redeals",
                "fewest_redeals",
                "Find each win with the fewest passes through the stock (IDA*), stored as its redeals.",
            ),
            PLAYER._replace(
                help=f"{PLAYER.help} It plays each deal to its end instead of the solver searching it: "
                "each row is its game (no limits, no --fewest-redeals)."
            ),
            SAMPLES,
            RNG_SEED,
            Argument(
                ("--scheduler",),
                "scheduler",
                "Run on the Dask distributed cluster at this address, e.g. tcp://HOST:8786 (extra 'dask').",
                metavar="ADDRESS",
            ),
            Argument(
                ("--progress",),
                "progress",
                "Show a progress bar (default: only on a terminal, not under CI).",
                action=OnceEither,
            ),
        ),
    ),
    Command(
        "report",
        report_command,
        (
            Argument(
                (),
                "files",
                "A survey file written by 'patience survey', or several to compare.",
                path,
                nargs="+",
                metavar="survey",
            ),
            Argument(
                ("--csv",),
                "as_csv",
                "Write every deal as CSV to this file ('-': standard output); of several surveys, one row per survey.",
                metavar="FILE",
            ),
            Argument(
                ("--summary-csv",),
                "summary_csv",
                "Write one CSV row per survey (settings, counts, win_rate_low/high, CPU) to this file, "
                "for one survey too ('-': standard output).",
                metavar="FILE",
            ),
            Argument(
                ("--json",),
                "as_json",
                "Write the summary and every deal as JSON to this file ('-': standard output); "
                "of several surveys, an array of their summaries.",
                metavar="FILE",
            ),
            Argument(
                ("--plot",),
                "plot_file",
                "Draw the score distribution (of several surveys: their win rates side by side) to this "
                ".png, .pdf or .svg file (extra 'plot').",
                metavar="FILE",
            ),
            Argument(
                ("--plot-cpu",),
                "plot_cpu",
                "Draw the CPU seconds per deal, on a log axis, to this .png, .pdf or .svg file.",
                metavar="FILE",
            ),
            Argument(("--dpi",), "dpi", "Dots per inch of a PNG figure (200 if not given).", whole, metavar="N"),
            Argument(
                ("--slowest",),
                "slowest",
                "How many of the slowest deals to list (0 or more; 10 if not given).",
                whole,
                metavar="N",
            ),
        ),
    ),
)

"""The report's figures, as PNG, PDF or SVG by the file's extension (needs matplotlib, the 'plot'
extra): a survey's score distribution stacked by verdict, the CPU seconds per deal on a log axis,
and the win rates of several surveys side by side. Every rate is drawn as its 95% range."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from solver.errors import SurveyError
from solver.service.output import replacing
from solver.surveys.comparison import beyond_preset
from solver.surveys.report import VERDICTS, percent, player_of, verdict_words, win_rate_text
from solver.surveys.store import Store

#: The formats a figure is written in, by the file's extension; ``-`` (standard output) is PNG.
FORMATS = {".png": "png", ".pdf": "pdf", ".svg": "svg"}
#: The resolutions --dpi accepts (dots per inch of a PNG; PDF and SVG are drawn as vectors).
DPI_RANGE = (20, 1200)
#: The resolution of a PNG figure when --dpi is not given.
DEFAULT_DPI = 200
#: The colours of the verdicts, and how each is named in a legend (of a survey of a player: see
#: :func:`~solver.surveys.report.verdict_words`).
_COLOURS = {"won": "#3a7d44", "lost": "#4b6c9c", "unknown": "#e0a030"}
_LEGEND = {"won": "won", "lost": "lost (proven minimum)", "unknown": "unknown (best found, not proven)"}


def _legend(survey: dict[str, Any]) -> dict[str, str]:
    """How a legend names each verdict of the survey (its summary's ``survey``)."""
    return _LEGEND if survey["player"] is None else verdict_words(survey)


#: The fewest CPU seconds drawn on the log axis (a deal's seconds are stored to the microsecond).
_SHORTEST = 1e-6


def plot_format(option: str, target: str) -> str:
    """The format ``target`` is written in, refused in one line unless PNG, PDF or SVG, or when
    matplotlib is missing (checked before any work is done)."""
    suffix = "" if target == "-" else Path(target).suffix.lower()
    if target != "-" and suffix not in FORMATS:
        raise SurveyError(
            f"{option} {target}: a figure is written as PNG, PDF or SVG, by its extension; "
            f"{'it has none' if not suffix else f'not {suffix}'}: name it e.g. figure.pdf"
        )
    pyplot()
    return FORMATS.get(suffix, "png")


def check_dpi(dpi: int) -> None:
    """Refuse a resolution outside :data:`DPI_RANGE`."""
    low, high = DPI_RANGE
    if not low <= dpi <= high:
        raise SurveyError(f"--dpi must be from {low} to {high} dots per inch, not {dpi}")


def check_drawable(summaries: Sequence[dict[str, Any]]) -> None:
    """Refuse to draw surveys that hold no deal yet (what Ctrl-C before the first stored deal
    leaves), before anything is written: their figures would be empty axes. Of several surveys,
    an empty one beside others is drawn as an empty place."""
    if not any(summary["deals"] for summary in summaries):
        names = ", ".join(str(summary["survey"]["file"]) for summary in summaries)
        raise SurveyError(f"{names}: no deal stored yet: nothing to draw; run the survey first")


def pyplot() -> Any:
    """matplotlib's pyplot, drawing to files only (needs the 'plot' extra)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib import pyplot
    except ImportError:
        raise SurveyError("--plot and --plot-cpu need matplotlib: pip install 'patience-solver[plot]'") from None
    return pyplot


def _save(figure: Any, option: str, target: str, *, dpi: int) -> None:
    """Write ``figure`` whole or not at all, with no date and no random ids in it, so that the same
    survey gives the same bytes (a figure kept under version control changes only when it does)."""
    import matplotlib

    kind = plot_format(option, target)
    metadata = {"png": {}, "pdf": {"CreationDate": None}, "svg": {"Date": None}}[kind]
    with matplotlib.rc_context({"svg.hashsalt": "patience-solver"}), replacing(target, binary=True) as out:
        figure.savefig(out, format=kind, dpi=dpi, metadata=metadata)


def plot_scores(summary: dict[str, Any], target: str, dpi: int) -> None:
    """The deals by score, each bar stacked by verdict (won and lost deals' scores are proven
    minima, unknown deals' the best found), with the win rate's range and the threshold win."""
    plt = pyplot()
    from matplotlib.ticker import MaxNLocator

    survey, histogram = summary["survey"], summary["histogram"]
    threshold = summary.get("threshold")
    scored = [row["score"] for row in histogram if row["score"] is not None]
    if scored and threshold is not None:  # room for the threshold's mark, whatever the scores reached
        scored += [threshold["at_most"], threshold["at_most"] + 1]
    ticks = list(range(min(scored), max(scored) + 1)) if scored else []
    by_score = {row["score"]: row for row in histogram}
    # A bar for every score, a label only every `step` of them (past 20 scores they ran together).
    step = label_step(len(ticks))
    labels = [str(score) if score % step == 0 else "" for score in ticks] + (["none"] if None in by_score else [])
    keys = [*ticks, *([None] if None in by_score else [])]
    redeals = summary.get("redeals") or {}
    if redeals.get("won"):  # a fewest-redeals survey: its wins by their redeals, beneath
        figure, (axes, beneath) = plt.subplots(
            2, 1, figsize=(8, 7.5), layout="constrained", gridspec_kw={"height_ratios": [3, 2]}
        )
        _redeal_bars(beneath, redeals)
    else:
        figure, axes = plt.subplots(figsize=(8, 4.5), layout="constrained")
    try:
        _stacked_bars(axes, keys, by_score, legend=_legend(survey))
        axes.set_xticks(range(len(keys)), labels)
        axes.set_xlabel(survey["score_label"])
        axes.set_ylabel("deals")
        axes.yaxis.set_major_locator(MaxNLocator(integer=True))  # deals are counted whole
        notes = _notes(axes, summary, ticks)
        # Beside the axes, not on them: "best" still covered a bar when every place held one.
        beside = {"loc": "upper left", "bbox_to_anchor": (1.01, 1)}
        axes.legend(**beside, fontsize=8, title="\n".join(notes), title_fontsize=8, alignment="left")
        axes.set_title(f"{_name(survey)}: {summary['deals']} deals\n{win_rate_text(summary)}", fontsize=10)
        _save(figure, "--plot", target, dpi=dpi)
    finally:
        plt.close(figure)


def _stacked_bars(
    axes: Any, keys: list[int | None], by_score: dict[int | None, Any], *, legend: dict[str, str]
) -> None:
    """A bar for each score of ``keys``, its deals stacked by verdict (unknown hatched)."""
    bottom = [0] * len(keys)
    for verdict in VERDICTS:
        heights = [by_score[key][verdict] if key in by_score else 0 for key in keys]
        if any(heights):
            axes.bar(
                range(len(keys)),
                heights,
                bottom=bottom,
                color=_COLOURS[verdict],
                label=legend[verdict],
                hatch="//" if verdict == "unknown" else None,
                edgecolor="white",
                linewidth=0.5,
            )
            bottom = [b + h for b, h in zip(bottom, heights)]


def _notes(axes: Any, summary: dict[str, Any], ticks: list[int]) -> list[str]:
    """The lines of the score figure's legend title: the deals by verdict and the win rate's range;
    and, where the game names a threshold win, its mark on the axes (between the scores ``ticks``)
    and its rate."""
    survey, threshold = summary["survey"], summary.get("threshold")
    words = verdict_words(survey)
    shown = VERDICTS if survey["player"] is None else ("won", "lost")  # a player's game is never unknown
    notes = [
        ", ".join(f"{words[verdict]} {summary[verdict]}" for verdict in shown),
        f"win rate {percent(summary['win_rate_low'])} to {percent(summary['win_rate_high'])} (95%)",
    ]
    if threshold is not None and threshold["at_most"] in ticks:
        mark = ticks.index(threshold["at_most"]) + 0.5
        name = f"{threshold['name'].capitalize()} win: {threshold['at_most']} {survey['score_label']} or fewer"
        axes.axvline(mark, color="#a03030", linestyle="--", linewidth=1, label=name)
        notes.append(
            f"{threshold['name'].capitalize()} win rate {percent(threshold['rate_low'])} "
            f"to {percent(threshold['rate_high'])} (95%)"
        )
    return notes


def _redeal_bars(axes: Any, redeals: dict[str, Any]) -> None:
    """A fewest-redeals survey's wins by their redeals: the proven fewest solid, those a limit
    stopped the search for a cheaper win of hatched (the fewest may be lower)."""
    from matplotlib.ticker import MaxNLocator

    histogram = redeals["histogram"]
    places = [row["redeals"] for row in histogram]  # at their values: a count no win needs is a gap
    proven = [row["proven"] for row in histogram]
    found = [row["deals"] - row["proven"] for row in histogram]
    axes.bar(places, proven, color=_COLOURS["won"], label="fewest proven", edgecolor="white", linewidth=0.5)
    if any(found):
        axes.bar(places, found, bottom=proven, color=_COLOURS["unknown"], hatch="//", edgecolor="white",
                 linewidth=0.5, label="found, not proven fewest")  # fmt: skip
    axes.set_xticks(places, [str(row["redeals"]) for row in histogram])
    axes.set_xlabel("redeals of the win with the fewest")
    axes.set_ylabel("deals won")
    axes.yaxis.set_major_locator(MaxNLocator(integer=True))
    title = f"fewest redeals of {redeals['won']} wins: mean {redeals['mean']:.2f}, most {redeals['max']}"
    axes.legend(loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8, title=title, title_fontsize=8)


#: The most score labels under a figure's bars: more ran together at the figure's width.
MOST_LABELS = 20


def label_step(scores: int) -> int:
    """The labelling step for ``scores`` consecutive scores: the smallest of 1, 2, 5, 10, 20, 50,
    ... that labels at most :data:`MOST_LABELS` of them (labels at round numbers)."""
    step, factors = 1, (2, 2.5, 2)  # 1 -> 2 -> 5 -> 10 -> 20 -> 50 ...
    turn = 0
    while scores / step > MOST_LABELS:
        step = round(step * factors[turn % 3])
        turn += 1
    return step


def plot_cpu(paths: Sequence[Path], summaries: Sequence[dict[str, Any]], target: str, *, dpi: int) -> None:
    """The CPU seconds per deal on a log axis: one survey's deals stacked by verdict, or each of
    several surveys' as its own outline. The deals are counted by bin in SQL: none is held."""
    plt = pyplot()
    counts = [_cpu_bins(path) for path in paths]
    steps = [step for survey in counts for bins in survey.values() for step in bins]
    first, last = (min(steps), max(steps) + 1) if steps else (0, 1)
    edges = [_PER_MICROSECOND * 10 ** (step / _PER_DECADE) for step in range(first, last + 1)]
    middles = [(low * high) ** 0.5 for low, high in zip(edges, edges[1:])]

    def weights(bins: dict[int, int]) -> list[int]:
        return [bins.get(step, 0) for step in range(first, last)]

    figure, axes = plt.subplots(figsize=(8, 4.5), layout="constrained")
    try:
        if len(paths) == 1:
            _cpu_by_verdict(axes, counts[0], summaries[0], middles=middles, edges=edges, weights=weights)
        else:
            _cpu_outlines(axes, counts, summaries, middles=middles, edges=edges, weights=weights)
        axes.set_xscale("log")
        axes.set_xlabel("CPU seconds per deal (log scale)")
        axes.set_ylabel("deals")
        _save(figure, "--plot-cpu", target, dpi=dpi)
    finally:
        plt.close(figure)


#: How many deals fall in each bin of a survey's counts (a function of its bins).
_Weights = Callable[[dict[int, int]], list[int]]


def _cpu_by_verdict(
    axes: Any,
    counts: dict[str, dict[int, int]],
    summary: dict[str, Any],
    *,
    middles: list[float],
    edges: list[float],
    weights: _Weights,
) -> None:
    """One survey's CPU seconds per deal, its deals stacked by verdict, with its 99th percentile
    and its slowest deal marked."""
    present = [verdict for verdict in VERDICTS if counts.get(verdict)]
    words = verdict_words(summary["survey"])
    axes.hist(
        [middles] * len(present),
        bins=edges,
        weights=[weights(counts[verdict]) for verdict in present],
        stacked=True,
        color=[_COLOURS[verdict] for verdict in present],
        label=[words[verdict] for verdict in present],
    )
    if summary["deals"]:
        p99, most = summary["p99_seconds"], summary["max_seconds"]
        # Under 100 deals the 99th percentile is the slowest deal: one line, named for both.
        marks = [("p99 and max", most, "--")] if p99 == most else [("p99", p99, ":"), ("max", most, "--")]
        for name, value, style in marks:
            axes.axvline(max(value, _SHORTEST), color="#444444", linestyle=style, linewidth=1, label=name)
    axes.set_title(f"{_name(summary['survey'])}: CPU seconds per deal ({summary['deals']} deals)", fontsize=10)
    axes.legend(fontsize=8)


def _cpu_outlines(
    axes: Any,
    counts: Sequence[dict[str, dict[int, int]]],
    summaries: Sequence[dict[str, Any]],
    *,
    middles: list[float],
    edges: list[float],
    weights: _Weights,
) -> None:
    """Several surveys' CPU seconds per deal, each survey's deals as one outline of its own."""
    for place, (summary, survey) in enumerate(zip(summaries, counts)):
        total: dict[int, int] = {}
        for bins in survey.values():
            for step, count in bins.items():
                total[step] = total.get(step, 0) + count
        colour, style = _distinct(place, len(summaries))
        axes.hist(
            middles,
            bins=edges,
            weights=weights(total),
            histtype="step",
            color=colour,
            linestyle=style,
            linewidth=1.2,
            label=_label(summary, summaries),
        )
    axes.set_title(f"CPU seconds per deal, {len(summaries)} surveys", fontsize=10)
    # Beside the axes: fifteen surveys' names covered the outlines.
    axes.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1))


#: Bins of the CPU figure a factor of ten; the seconds are stored in microseconds.
_PER_DECADE, _PER_MICROSECOND = 10, 1e-6


def _cpu_bins(path: Path) -> dict[str, dict[int, int]]:
    """A survey's deals counted by verdict and by bin of CPU seconds (bin ``k`` from
    10**(k/10) microseconds): one pass over the rows, each a small integer counted as it goes
    by (SQLite's GROUP BY would sort them all first: twice the CPU, measured)."""
    from collections import Counter

    store = Store(path)
    try:
        counted = Counter(
            store.each(f"SELECT CAST(log10(MAX(microseconds, 1)) * {_PER_DECADE} AS INTEGER) * 3 + verdict FROM deals")
        )
    finally:
        store.close()
    found: dict[str, dict[int, int]] = {}
    for (code,), count in counted.items():
        found.setdefault(VERDICTS[code % 3], {})[code // 3] = count
    return found


def _distinct(place: int, count: int) -> tuple[Any, str]:
    """The colour and line style of the ``place``-th of ``count`` surveys drawn together: ten
    colours of matplotlib's tab10, then again dashed, then dotted (fifteen stay apart)."""
    from matplotlib import color_sequences

    colours = color_sequences["tab10"]
    return colours[place % len(colours)], ("-", "--", ":")[(place // len(colours)) % 3]


def plot_rates(summaries: Sequence[dict[str, Any]], target: str, dpi: int) -> None:
    """The surveys' win rates one under another, each as its 95% range (the Wilson interval when
    no deal is unknown) with the share of deals won marked, and the threshold win beside it; each
    survey's name on the left, its rates and ranges written on the right. Drawn across, so that
    fifteen surveys fit a page's width with their names whole."""
    plt = pyplot()
    from matplotlib.ticker import PercentFormatter

    count = len(summaries)
    thresholds = any(_rate("threshold", summary) for summary in summaries)
    per = 0.5 if thresholds else 0.36  # inches a survey: room for a second line of ranges
    figure, axes = plt.subplots(figsize=(8, 1.3 + per * count), layout="constrained")
    try:
        names, ranges = [], []
        for place, summary in enumerate(summaries):
            names.append(_label(summary, summaries))
            written = []
            for name, colour, shift in (("win", "#3a7d44", 0.0), ("threshold", "#a03030", 0.22)):
                rate = _rate(name, summary)
                if rate is None:
                    continue
                title, short, point, low, high = rate
                axes.errorbar(
                    point,
                    place + shift,
                    xerr=[[max(0.0, point - low)], [max(0.0, high - point)]],  # rounding: low may pass 0/n
                    fmt="o",
                    markersize=4,
                    color=colour,
                    capsize=3,
                    label=title if place == next(i for i, s in enumerate(summaries) if _rate(name, s)) else None,
                )
                written.append(f"{short} {percent(point)} ({percent(low)[:-1]}\u2013{percent(high)})")
            ranges.append("\n".join(written) or "no deal")
        axes.set_yticks(range(count), names, fontsize=8)
        axes.set_ylim(count - 0.5, -0.6)  # the first survey on top
        axes.set_xlim(-0.015, 1.015)  # room for a dot at 0% or 100%, whole
        axes.set_xticks([step / 10 for step in range(11)])
        axes.xaxis.set_major_formatter(PercentFormatter(1.0))
        axes.tick_params(axis="x", labelsize=8)
        axes.grid(axis="x", color="#dddddd", linewidth=0.6)
        axes.set_axisbelow(True)
        axes.set_xlabel("share of deals (dot: share found; bar: 95% range)", fontsize=9)
        right = axes.twinx()
        right.set_ylim(axes.get_ylim())
        right.set_yticks(range(count), ranges, fontsize=7)
        right.tick_params(axis="y", length=0)
        figure.legend(loc="outside upper center", ncols=2, fontsize=8)
        _save(figure, "--plot", target, dpi=dpi)
    finally:
        plt.close(figure)


def _rate(name: str, summary: dict[str, Any]) -> tuple[str, str, float, float, float] | None:
    """The legend title, short name, share proven, and 95% range of the win rate (``win``) or of the threshold
    win (``threshold``) of a survey; None if it has none (no deals, or no threshold win)."""
    if not summary["deals"]:
        return None
    if name == "win":
        return (
            "win rate (dot: deals won)",
            "won",
            summary["win_rate"],
            summary["win_rate_low"],
            summary["win_rate_high"],
        )
    threshold = summary.get("threshold")
    if threshold is None:
        return None
    title = f"{threshold['name'].capitalize()} win, {threshold['at_most']} or fewer (dot: deals reaching it)"
    return title, threshold["name"].capitalize(), threshold["rate"], threshold["rate_low"], threshold["rate_high"]


def _name(survey: dict[str, Any]) -> str:
    """A survey's rules as a figure's title names them: game, variant and the options set beyond
    the variant's preset (``accordion (accordion; compulsory=yes)``), as ``solve`` prints them;
    and the player of a survey of a player (``, player sampling (samples 100, rng_seed 1)``)."""
    changed = beyond_preset(survey)
    player = player_of(survey)
    return f"{survey['game']} ({survey['variant']}{'; ' + changed if changed else ''})" + (
        "" if player is None else f", player {player}"
    )


def _label(summary: dict[str, Any], summaries: Sequence[dict[str, Any]]) -> str:
    """A survey's name beside others: its variant and the options set beyond its preset, and its
    player (a survey of a player beside one of solvability); its file's name where two surveys
    share that, and the whole file name where two share even that."""

    def rules(s: dict[str, Any]) -> str:
        changed, player = beyond_preset(s["survey"]), player_of(s["survey"])
        return s["survey"]["variant"] + (f" ({changed})" if changed else "") + (f", player {player}" if player else "")

    def stem(s: dict[str, Any]) -> str:
        return Path(s["survey"]["file"]).stem

    for name in (rules, stem):
        if sum(name(s) == name(summary) for s in summaries) == 1:
            return name(summary)
    return str(summary["survey"]["file"])

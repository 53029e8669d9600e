"""``patience report``: what a survey file says -- win rate with its 95% Wilson interval, lost and
unknown counts, the score distribution, the slowest deals -- and CSV / JSON exports and a plot."""

from __future__ import annotations

import csv
import json
import math
import sys
from pathlib import Path
from typing import Any, Iterator, Optional, TextIO

import typer

from solver.cli.survey import COLUMNS, Store, SurveyError

#: The normal quantile of a two-sided 95% interval.
Z95 = 1.959963984540054


def wilson(successes: int, trials: int, z: float = Z95) -> tuple[float, float]:
    """The Wilson score interval of a binomial proportion (0, 1 when there are no trials)."""
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def summarize(path: Path, slowest: int = 10) -> dict[str, Any]:
    """The report of a survey file as a JSON-ready dict (aggregated in SQL: fine for millions of rows)."""
    store = Store(path)
    try:
        db, meta = store.db, store.meta
        deals, won, lost, unknown, proven, nodes, seconds, max_seconds = db.execute(
            "SELECT COUNT(*), COALESCE(SUM(result='won'),0), COALESCE(SUM(result='lost'),0), "
            "COALESCE(SUM(result='unknown'),0), COALESCE(SUM(score_proven),0), COALESCE(SUM(nodes),0), "
            "COALESCE(SUM(seconds),0), COALESCE(MAX(seconds),0) FROM deals"
        ).fetchone()
        histogram = [
            {"score": score, "deals": count, "proven": sure}
            for score, count, sure in db.execute(
                "SELECT score, COUNT(*), SUM(score_proven) FROM deals GROUP BY score ORDER BY score IS NULL, score"
            )
        ]
        slow = [
            dict(zip(("seed", "result", "score", "nodes", "seconds"), row))
            for row in db.execute(
                "SELECT seed, result, score, nodes, seconds FROM deals ORDER BY seconds DESC, seed LIMIT ?", (slowest,)
            )
        ]
        seeds = db.execute("SELECT MIN(seed), MAX(seed) FROM deals").fetchone()
    finally:
        store.close()
    low, high = wilson(won, deals)
    family = _family(meta.get("game", ""))
    summary: dict[str, Any] = {
        "survey": {
            "file": str(path),
            "game": meta.get("game"),
            "variant": meta.get("variant"),
            "options": json.loads(meta.get("options", "{}")),
            "limits": {k: json.loads(meta.get(k, "null")) for k in ("max_nodes", "max_seconds", "max_memory")},
            "solver_version": meta.get("solver_version"),
            "score_field": family.score_field if family else "score",
            "score_label": family.score_label if family else "score",
        },
        "deals": deals,
        "seeds": {"min": seeds[0], "max": seeds[1]},
        "won": won,
        "lost": lost,
        "unknown": unknown,
        "win_rate": won / deals if deals else None,
        "win_rate_95": [low, high],
        "win_rate_if_unknown_won": (won + unknown) / deals if deals else None,
        "scores_proven": proven,
        "nodes": nodes,
        "cpu_seconds": seconds,
        "mean_seconds": seconds / deals if deals else None,
        "max_seconds": max_seconds,
        "histogram": histogram,
        "slowest": slow,
    }
    if family is not None and family.threshold is not None:
        name, most = family.threshold
        count = sum(row["deals"] for row in histogram if row["score"] is not None and row["score"] <= most)
        summary["threshold"] = {"name": name, "at_most": most, "deals": count, "rate": count / deals if deals else None,
                                "rate_95": list(wilson(count, deals))}
    return summary


def _family(name: str) -> Any:
    """The game family, for its score's name; None if this installation does not know the game."""
    try:
        from rulesets import families

        return families().get(name)
    except Exception:  # a report must not depend on every rule module importing cleanly
        return None


def _size(value: int) -> str:
    for unit in "KMGT":
        value_in = value / 1024 ** ("KMGT".index(unit) + 1)
        if value_in < 1024 or unit == "T":
            return f"{value_in:g}{unit}" if value >= 1024 else f"{value}"
    return str(value)


def _percent(value: Optional[float]) -> str:
    return "-" if value is None else f"{100 * value:.2f}%"


def render(summary: dict[str, Any], width: int = 40) -> str:
    """The report as text."""
    survey = summary["survey"]
    deals = summary["deals"]
    options = ", ".join(f"{k}={v}" for k, v in survey["options"].items()) or "none"
    limits = ", ".join(f"{k}={_size(v) if k == 'max_memory' else v}" for k, v in survey["limits"].items() if v is not None) or "none"
    lines = [
        f"{survey['game']} ({survey['variant']}), solver {survey['solver_version']}",
        f"options: {options}",
        f"limits per deal: {limits}",
        f"deals: {deals}" + (f" (seeds {summary['seeds']['min']} to {summary['seeds']['max']})" if deals else ""),
    ]
    low, high = summary["win_rate_95"]
    lines.append(f"won: {summary['won']}  win rate {_percent(summary['win_rate'])} (95% Wilson interval {_percent(low)} to {_percent(high)})")
    lines.append(f"lost: {summary['lost']}  unknown: {summary['unknown']}" + (
        f"  (win rate at most {_percent(summary['win_rate_if_unknown_won'])} if every unknown deal were won)"
        if summary["unknown"] else ""))
    if "threshold" in summary:
        t = summary["threshold"]
        tl, th = t["rate_95"]
        lines.append(f"{t['name']} win ({t['at_most']} or fewer): {t['deals']}  rate {_percent(t['rate'])} "
                     f"(95% Wilson interval {_percent(tl)} to {_percent(th)})")
    if deals:
        lines.append(f"CPU: {summary['cpu_seconds']:.1f} s in all, mean {summary['mean_seconds']:.4f} s, "
                     f"max {summary['max_seconds']:.3f} s per deal; {summary['nodes']} nodes")
    histogram = summary["histogram"]
    if histogram:
        unproven = deals - summary["scores_proven"]
        lines.append("")
        lines.append(f"{survey['score_label']} (best reached; {unproven} not proven minimal):" if unproven
                     else f"{survey['score_label']} (proven minimum):")
        most = max(row["deals"] for row in histogram)
        for row in histogram:
            label = "none" if row["score"] is None else str(row["score"])
            bar = "#" * max(1 if row["deals"] else 0, round(width * row["deals"] / most))
            lines.append(f"  {label:>5} {row['deals']:>8} {100 * row['deals'] / deals:6.2f}%  {bar}")
    if summary["slowest"]:
        lines.append("")
        lines.append("slowest deals:")
        lines.append(f"  {'seed':>12} {'result':<8} {'score':>5} {'nodes':>10} {'seconds':>9}")
        for row in summary["slowest"]:
            score = "-" if row["score"] is None else row["score"]
            lines.append(f"  {row['seed']:>12} {row['result']:<8} {score:>5} {row['nodes']:>10} {row['seconds']:>9.3f}")
    return "\n".join(lines)


def rows(path: Path) -> Iterator[dict[str, Any]]:
    """Every stored deal, by seed."""
    store = Store(path)
    try:
        for row in store.db.execute(f"SELECT {', '.join(COLUMNS)} FROM deals ORDER BY seed"):
            record = dict(zip(COLUMNS, row))
            record["options"] = json.loads(record["options"])
            record["score_proven"] = bool(record["score_proven"])
            yield record
    finally:
        store.close()


def _open(target: str) -> tuple[TextIO, bool]:
    if target == "-":
        return sys.stdout, False
    return open(target, "w", newline="", encoding="utf-8"), True


def write_csv(path: Path, target: str) -> None:
    """One line per deal; options as JSON in one column."""
    out, close = _open(target)
    try:
        writer = csv.writer(out)
        writer.writerow(COLUMNS)
        for record in rows(path):
            record["options"] = json.dumps(record["options"], sort_keys=True)
            writer.writerow(["" if record[c] is None else record[c] for c in COLUMNS])
    finally:
        if close:
            out.close()


def write_json(path: Path, summary: dict[str, Any], target: str) -> None:
    """The summary plus every deal, as one JSON object."""
    out, close = _open(target)
    try:
        out.write(json.dumps({**summary, "rows": list(rows(path))}, indent=1))
        out.write("\n")
    finally:
        if close:
            out.close()


def plot(summary: dict[str, Any], target: Path) -> None:
    """The score histogram as a bar chart (needs matplotlib: the 'plot' extra)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib import pyplot
    except ImportError:
        raise SurveyError("--plot needs matplotlib: pip install 'patience-solver[plot]'") from None
    survey = summary["survey"]
    scored = [row for row in summary["histogram"] if row["score"] is not None]
    figure, axes = pyplot.subplots(figsize=(8, 4.5))
    try:
        axes.bar([row["score"] for row in scored], [row["deals"] for row in scored], color="#3b6ea8")
        axes.set_xlabel(survey["score_label"])
        axes.set_ylabel("deals")
        low, high = summary["win_rate_95"]
        axes.set_title(
            f"{survey['game']} ({survey['variant']}): {summary['deals']} deals, "
            f"won {_percent(summary['win_rate'])} [{_percent(low)}, {_percent(high)}]"
        )
        figure.tight_layout()
        figure.savefig(target, format="png")
    finally:
        pyplot.close(figure)


def report_command(
    file: Path = typer.Argument(..., help="A survey file written by 'patience survey'."),
    as_csv: Optional[str] = typer.Option(None, "--csv", help="Write every deal as CSV to this file ('-': standard output)."),
    as_json: Optional[str] = typer.Option(None, "--json", help="Write the summary and every deal as JSON to this file ('-': standard output)."),
    plot_file: Optional[Path] = typer.Option(None, "--plot", help="Draw the score histogram to this PNG file (extra 'plot')."),
    slowest: int = typer.Option(10, "--slowest", help="How many of the slowest deals to list."),
) -> None:
    """Summarize a survey: win rate with a 95% Wilson interval, lost/unknown, scores, slowest deals."""
    if not file.exists():
        raise SurveyError(f"{file}: no such survey file")
    summary = summarize(file, slowest)
    if as_csv is not None:
        write_csv(file, as_csv)
    if as_json is not None:
        write_json(file, summary, as_json)
    if plot_file is not None:
        plot(summary, plot_file)
    if "-" not in (as_csv, as_json):
        typer.echo(render(summary))

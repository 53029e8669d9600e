"""What a survey file says: the summary (win rate with its 95% Wilson interval, lost and unknown
counts, the score distribution, the slowest deals) as data and as text, and CSV / JSON exports and
a plot of it. A report only reads the survey file; an export is written to a temporary file and
renamed into place, and never over the survey it reports."""

from __future__ import annotations

import csv
import json
import math
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from solver.service.errors import SurveyError
from solver.service.output import replacing
from solver.service.seeds import MAX_SURVEY_SEED
from solver.service.stats import wilson
from solver.service.store import COLUMNS, KEYS, Store, side_files, status


def summarize(path: Path, slowest: int = 10) -> dict[str, Any]:
    """The report of a survey file as a JSON-ready dict (aggregated in SQL: fine for millions of rows).

    ``slowest`` deals are listed (0 or more; more than there are lists them all). The file is only
    read, so a read-only one serves as well.
    """
    if slowest < 0:
        raise SurveyError(f"--slowest must be 0 or more, not {slowest}")
    store = Store(path)
    try:
        deals, won, lost, unknown, proven, nodes, seconds, max_seconds = store.query(
            "SELECT COUNT(*), COALESCE(SUM(result='won'),0), COALESCE(SUM(result='lost'),0), "
            "COALESCE(SUM(result='unknown'),0), COALESCE(SUM(score_proven),0), COALESCE(SUM(nodes),0), "
            "COALESCE(SUM(seconds),0), COALESCE(MAX(seconds),0) FROM deals"
        )[0]
        histogram = [
            {"score": score, "deals": count, "proven": sure}
            for score, count, sure in store.query(
                "SELECT score, COUNT(*), SUM(score_proven) FROM deals GROUP BY score ORDER BY score IS NULL, score"
            )
        ]
        key = store.key  # seed, or line in a survey of a file of deals
        slow = [
            dict(zip((key, "result", "score", "nodes", "seconds"), row))
            for row in store.query(
                f"SELECT {key}, result, score, nodes, seconds FROM deals ORDER BY seconds DESC, {key} LIMIT ?",
                (min(slowest, MAX_SURVEY_SEED),),
            )
        ]
        first, last = store.query(f"SELECT MIN({key}), MAX({key}) FROM deals")[0]
        meta = store.meta
    finally:
        store.close()
    low, high = wilson(won, deals)
    family = _family(meta.get("game", ""))
    summary: dict[str, Any] = {
        "survey": _settings(path, meta, family) | {"key": key},
        "deals": deals,
        f"{key}s": {"min": first, "max": last},
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
        summary["threshold"] = _threshold(family.threshold, histogram, deals)
    return summary


def _threshold(threshold: tuple[str, int], histogram: list[dict[str, Any]], deals: int) -> dict[str, Any]:
    """The deals reaching the game's threshold win (Sheinwold's five piles), and their rate."""
    name, most = threshold
    count = sum(row["deals"] for row in histogram if row["score"] is not None and row["score"] <= most)
    return {
        "name": name,
        "at_most": most,
        "deals": count,
        "rate": count / deals if deals else None,
        "rate_95": list(wilson(count, deals)),
    }


def _settings(path: Path, meta: dict[str, str], family: Any) -> dict[str, Any]:
    """The survey's settings as the summary states them."""
    return {
        "file": str(path),
        "game": meta.get("game"),
        "variant": meta.get("variant"),
        "options": json.loads(meta.get("options", "{}")),
        "limits": {k: _limit(meta.get(k, "null")) for k in ("max_nodes", "max_seconds", "max_memory")},
        "solver_version": meta.get("solver_version"),
        "score_field": family.score_field if family else "score",
        "score_label": family.score_label if family else "score",
    }


def _limit(stored: str) -> float | None:
    """A limit as stored (JSON); None for no limit, as older versions stored NaN or infinity."""
    value = json.loads(stored)
    return None if isinstance(value, float) and not math.isfinite(value) else value


def _family(name: str) -> Any:
    """The game family, for its score's name; None if this installation does not know the game."""
    try:
        from rulesets import families

        return families().get(name)
    except Exception:  # a report must not depend on every rule module importing cleanly
        return None


def _size(value: int) -> str:
    """A byte count in the largest of the units K, M, G, T it reaches (2G, 1.5M), or bare."""
    for power, unit in ((4, "T"), (3, "G"), (2, "M"), (1, "K")):
        if value >= 1024**power:
            try:
                return f"{value / 1024**power:g}{unit}"
            except OverflowError:  # only in files written before sizes were bounded
                return str(value)
    return str(value)


def _percent(value: float | None) -> str:
    return "-" if value is None else f"{100 * value:.2f}%"


def render(summary: dict[str, Any], width: int = 40) -> str:
    """The report as text."""
    return "\n".join([*_head(summary), *_histogram(summary, width), *_slowest(summary)])


def _head(summary: dict[str, Any]) -> list[str]:
    """The settings, the counts with their rates, and the CPU time."""
    survey, deals, key = summary["survey"], summary["deals"], summary["survey"]["key"]
    options = ", ".join(f"{k}={v}" for k, v in survey["options"].items()) or "none"
    limits = (
        ", ".join(f"{k}={_size(v) if k == 'max_memory' else v}" for k, v in survey["limits"].items() if v is not None)
        or "none"
    )
    lines = [
        f"{survey['game']} ({survey['variant']}), solver {survey['solver_version']}",
        f"options: {options}",
        f"limits per deal: {limits}",
        f"deals: {deals}" + (f" ({key}s {summary[key + 's']['min']} to {summary[key + 's']['max']})" if deals else ""),
    ]
    low, high = summary["win_rate_95"]
    lines.append(
        f"won: {summary['won']}  win rate {_percent(summary['win_rate'])} "
        f"(95% Wilson interval {_percent(low)} to {_percent(high)})"
    )
    lines.append(
        f"lost: {summary['lost']}  unknown: {summary['unknown']}"
        + (
            f"  (win rate at most {_percent(summary['win_rate_if_unknown_won'])} if every unknown deal were won)"
            if summary["unknown"]
            else ""
        )
    )
    if "threshold" in summary:
        t = summary["threshold"]
        tl, th = t["rate_95"]
        lines.append(
            f"{t['name']} win ({t['at_most']} or fewer): {t['deals']}  rate {_percent(t['rate'])} "
            f"(95% Wilson interval {_percent(tl)} to {_percent(th)})"
        )
    if deals:
        lines.append(
            f"CPU: {summary['cpu_seconds']:.1f} s in all, mean {summary['mean_seconds']:.4f} s, "
            f"max {summary['max_seconds']:.3f} s per deal; {summary['nodes']} nodes"
        )
    return lines


def _histogram(summary: dict[str, Any], width: int) -> list[str]:
    """The scores reached, one bar each."""
    histogram, deals = summary["histogram"], summary["deals"]
    if not histogram:
        return []
    unproven = deals - summary["scores_proven"]
    label = summary["survey"]["score_label"]
    lines = [
        "",
        f"{label} (best reached; {unproven} not proven minimal):" if unproven else f"{label} (proven minimum):",
    ]
    most = max(row["deals"] for row in histogram)
    for row in histogram:
        score = "none" if row["score"] is None else str(row["score"])
        bar = "#" * max(1 if row["deals"] else 0, round(width * row["deals"] / most))
        lines.append(f"  {score:>5} {row['deals']:>8} {100 * row['deals'] / deals:6.2f}%  {bar}")
    return lines


def _slowest(summary: dict[str, Any]) -> list[str]:
    """The slowest deals, one line each."""
    if not summary["slowest"]:
        return []
    key = summary["survey"]["key"]
    lines = ["", "slowest deals:", f"  {key:>12} {'result':<8} {'score':>5} {'nodes':>10} {'seconds':>9}"]
    for row in summary["slowest"]:
        score = "-" if row["score"] is None else row["score"]
        lines.append(f"  {row[key]:>12} {row['result']:<8} {score:>5} {row['nodes']:>10} {row['seconds']:>9.3f}")
    return lines


def exported(path: Path) -> tuple[tuple[str, ...], list[dict[str, Any]]]:
    """The columns and every stored deal as an export record, by seed or line (options as an
    object, score_proven a bool). The first column is the key, ``seed`` or ``line`` (the other is
    not exported); ``redeals`` is exported only by fewest-redeals surveys, where it is filled."""
    with _records(path) as (columns, records):
        return columns, list(records)


@contextmanager
def _records(path: Path) -> Iterator[tuple[tuple[str, ...], Iterator[dict[str, Any]]]]:
    """:func:`exported`'s columns and records, read from the open file as they are consumed."""
    store = Store(path)
    try:
        others = (c for c in COLUMNS if c not in KEYS and (c != "redeals" or "fewest_redeals" in store.meta))
        columns = (store.key, *others)
        yield (
            columns,
            (
                {c: value for c, value in row._asdict().items() if c in columns}
                | {"options": json.loads(row.options), "score_proven": bool(row.score_proven)}
                for row in store.rows()
            ),
        )
    finally:
        store.close()


def check_targets(source: Path, targets: dict[str, str | None]) -> None:
    """Refuse export targets (by option name; None: not asked for, ``-``: standard output) that
    would overwrite the survey, each other, or cannot be written -- before anything is written.
    ``--plot`` also needs matplotlib."""
    inputs = [source, *side_files(source)]
    taken: dict[Path, str] = {}
    for option, target in targets.items():
        if target is None or target == "-":
            continue
        path = Path(target)
        found, parent = status(path), status(path.parent)
        if any(_same_file(path, given) for given in inputs):
            raise SurveyError(f"{option} {target} would overwrite the survey file it reports: give another file name")
        if found is not None and stat.S_ISDIR(found.st_mode):
            raise SurveyError(f"{option} {target} is a directory: give a file name")
        if parent is None or not stat.S_ISDIR(parent.st_mode):
            raise SurveyError(f"{option} {target}: there is no directory {path.parent}")
        for other, other_option in taken.items():
            if _same_file(path, other):
                raise SurveyError(f"{other_option} and {option} both write to {target}: give each its own file")
        taken[path] = option
    to_stdout = [option for option, target in targets.items() if target == "-"]
    if len(to_stdout) > 1:
        raise SurveyError(f"{' and '.join(to_stdout)} both write to standard output: send one of them to a file")
    if targets.get("--plot") is not None:
        _pyplot()


def _same_file(path: Path, other: Path) -> bool:
    """Whether two names are one file (the same path, or links to one file)."""
    if path.absolute() == other.absolute() or path.resolve() == other.resolve():
        return True
    return path.exists() and other.exists() and os.path.samefile(path, other)


def write_csv(path: Path, target: str) -> None:
    """One line per deal; options as JSON in one column."""
    with _records(path) as (columns, records), replacing(target) as out:
        writer = csv.writer(out)
        writer.writerow(columns)
        for record in records:
            record["options"] = json.dumps(record["options"], sort_keys=True)
            writer.writerow(["" if record[c] is None else record[c] for c in columns])


def write_json(path: Path, summary: dict[str, Any], target: str) -> None:
    """The summary plus every deal, as one JSON object (strict JSON: no NaN or infinity)."""
    document = json.dumps({**summary, "rows": exported(path)[1]}, indent=1, allow_nan=False)
    with replacing(target) as out:
        out.write(document + "\n")


def _pyplot() -> Any:
    """matplotlib's pyplot, drawing to files only (needs the 'plot' extra)."""
    try:
        import matplotlib

        matplotlib.use("Agg")
        from matplotlib import pyplot
    except ImportError:
        raise SurveyError("--plot needs matplotlib: pip install 'patience-solver[plot]'") from None
    return pyplot


def plot(summary: dict[str, Any], target: str) -> None:
    """The score histogram as a PNG bar chart (needs matplotlib: the 'plot' extra)."""
    pyplot = _pyplot()
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
        with replacing(target, binary=True) as out:
            figure.savefig(out, format="png")
    finally:
        pyplot.close(figure)

"""Surveys side by side: one row per survey (its settings, counts, win-rate range, threshold-win
range where the game has one, CPU per deal), as the fields of the summary CSV and as a text
table."""

from __future__ import annotations

import json
from typing import Any

from rulesets.family import OptionError, spell
from solver.service.report import family_of, percent

#: The summary CSV's columns, one row per survey.
COLUMNS = (
    "file",
    "game",
    "variant",
    "options",
    "max_nodes",
    "max_seconds",
    "max_memory",
    "solver_version",
    "deals",
    "won",
    "lost",
    "unknown",
    "win_rate_low",
    "win_rate_high",
    "threshold",
    "threshold_at_most",
    "threshold_deals",
    "threshold_rate_low",
    "threshold_rate_high",
    "cpu_mean_seconds",
    "cpu_p99_seconds",
    "cpu_max_seconds",
)


#: The summary's CPU seconds per deal, in the order the comparison gives them.
_CPU = ("mean_seconds", "p99_seconds", "max_seconds")


def table_row(summary: dict[str, Any]) -> dict[str, Any]:
    """A survey's row of the comparison (None where a field does not apply: no threshold, no deals)."""
    survey, threshold = summary["survey"], summary.get("threshold", {})
    return {
        "file": survey["file"],
        "game": survey["game"],
        "variant": survey["variant"],
        "options": json.dumps(survey["options"], sort_keys=True),
        **survey["limits"],
        "solver_version": survey["solver_version"],
        **{name: summary[name] for name in ("deals", "won", "lost", "unknown", "win_rate_low", "win_rate_high")},
        "threshold": threshold.get("name"),
        "threshold_at_most": threshold.get("at_most"),
        "threshold_deals": threshold.get("deals"),
        "threshold_rate_low": threshold.get("rate_low"),
        "threshold_rate_high": threshold.get("rate_high"),
        **{f"cpu_{name}": summary[name] if summary["deals"] else None for name in _CPU},
    }


def render_table(summaries: list[dict[str, Any]]) -> str:
    """The surveys as two text tables within 80 columns (but for long file names), a line per
    survey in each, numbered alike: what each survey is (its file, rules and deals; two surveys
    of one preset differ by file alone), then what it found (options are those set beyond the
    variant's preset; rates are 95% ranges, the Wilson interval when no deal is unknown)."""
    names = sorted({s["threshold"]["name"] for s in summaries if "threshold" in s})
    what: list[list[str]] = [["#", "survey", "rules", "deals"]]
    found: list[list[str]] = [["#", "won", "lost", "unknown", "win rate", *([" / ".join(names)] if names else [])]]
    found[0] += ["CPU s mean", "p99", "max"]
    for number, summary in enumerate(summaries, 1):
        survey = summary["survey"]
        changed = beyond_preset(survey)
        rules = f"{survey['game']} ({survey['variant']}{'; ' + changed if changed else ''})"
        what.append([str(number), str(survey["file"]), rules, str(summary["deals"])])
        cells = [str(number), *(str(summary[name]) for name in ("won", "lost", "unknown"))]
        cells.append(_range(summary["win_rate_low"], summary["win_rate_high"]))
        if names:
            threshold = summary.get("threshold")
            cells.append("-" if threshold is None else _range(threshold["rate_low"], threshold["rate_high"]))
        cells += [_seconds(summary[name] if summary["deals"] else None) for name in _CPU]
        found.append(cells)
    note = "rates: 95% ranges (the Wilson interval where no deal is unknown); CPU s a deal"
    return "\n".join([*_aligned(what, text={1, 2}), "", *_aligned(found, text=set()), note])


def _aligned(lines: list[list[str]], text: set[int]) -> list[str]:
    """Rows of cells in columns two spaces apart: the ``text`` columns to the left, the others
    (numbers) to the right."""
    widths = [max(len(line[i]) for line in lines) for i in range(len(lines[0]))]
    return [
        "  ".join(
            cell.ljust(w) if i in text else cell.rjust(w) for i, (cell, w) in enumerate(zip(line, widths))
        ).rstrip()
        for line in lines
    ]


def beyond_preset(survey: dict[str, Any]) -> str:
    """The options whose values differ from the variant's preset, ``name=value`` each, space
    separated ("" for none; all of them if this installation does not know the game or the
    variant)."""
    family = family_of(survey["game"] or "")
    options = survey["options"]
    try:
        changed = family.beyond(survey["variant"], options) if family is not None else None
    except OptionError:  # a variant this version does not have
        changed = None
    if changed is None:
        changed = [f"{name}={spell(value)}" for name, value in options.items()]
    return " ".join(changed)


def _range(low: float, high: float) -> str:
    return f"{percent(low)}-{percent(high)}"


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"

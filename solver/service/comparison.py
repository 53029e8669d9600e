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
    """The surveys as a text table, one line each, led by its file (two surveys of one preset
    differ there alone); options are those set beyond the variant's preset, rates are 95% ranges
    (the Wilson interval when no deal is unknown)."""
    names = sorted({s["threshold"]["name"] for s in summaries if "threshold" in s})
    header = [
        "file",
        "game",
        "variant",
        "options",
        "deals",
        "won",
        "lost",
        "unknown",
        "win rate (95%)",
        *([f"{' / '.join(names)} (95%)"] if names else []),
        "CPU s mean",
        "p99",
        "max",
    ]
    lines = [header]
    for summary in summaries:
        survey = summary["survey"]
        cells = [
            survey["file"],
            survey["game"],
            survey["variant"],
            beyond_preset(survey) or "-",
            *(str(summary[name]) for name in ("deals", "won", "lost", "unknown")),
            _range(summary["win_rate_low"], summary["win_rate_high"]),
        ]
        if names:
            threshold = summary.get("threshold")
            cells.append("-" if threshold is None else _range(threshold["rate_low"], threshold["rate_high"]))
        cells += [_seconds(summary[name] if summary["deals"] else None) for name in _CPU]
        lines.append(cells)
    widths = [max(len(line[i]) for line in lines) for i in range(len(header))]
    numeric = range(4, len(header))
    return "\n".join(
        "  ".join(
            cell.rjust(w) if i in numeric else cell.ljust(w) for i, (cell, w) in enumerate(zip(line, widths))
        ).rstrip()
        for line in lines
    )


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

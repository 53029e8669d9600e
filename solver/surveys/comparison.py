"""Surveys side by side: one row per survey (its settings, the player of a survey of a player,
counts, win-rate range, threshold-win range where the game has one, CPU per deal), as the fields
of the summary CSV and as a text table."""

from __future__ import annotations

import json
from typing import Any

from rulesets.family import OptionError, spell
from solver.surveys.report import family_of, percent, player_of

#: The summary CSV's columns, one row per survey.
COLUMNS = (
    "file",
    "game",
    "variant",
    "options",
    "max_nodes",
    "max_seconds",
    "max_memory",
    "player",
    "player_settings",
    "solver_version",
    "engines",
    "requested",
    "missing",
    "deals",
    "won",
    "lost",
    "unknown",
    "win_rate",
    "win_rate_low",
    "win_rate_high",
    "threshold",
    "threshold_at_most",
    "threshold_deals",
    "threshold_rate",
    "threshold_rate_low",
    "threshold_rate_high",
    "fewest_redeals",
    "redeals_won",
    "redeals_proven",
    "redeals_mean",
    "redeals_max",
    "cpu_mean_seconds",
    "cpu_p99_seconds",
    "cpu_max_seconds",
)


#: The summary's CPU seconds per deal, in the order the comparison gives them.
_CPU = ("mean_seconds", "p99_seconds", "max_seconds")


def table_row(summary: dict[str, Any]) -> dict[str, Any]:
    """A survey's row of the comparison (None where a field does not apply: no threshold, no
    deals, no fewest-redeals search, no player)."""
    survey, threshold = summary["survey"], summary.get("threshold", {})
    redeals = summary.get("redeals", {})
    player = survey["player"] or {}
    return {
        "file": survey["file"],
        "game": survey["game"],
        "variant": survey["variant"],
        "options": json.dumps(survey["options"], sort_keys=True),
        **survey["limits"],
        "player": player.get("name"),
        "player_settings": json.dumps(player["settings"]) if player else None,
        "solver_version": survey["solver_version"],
        "engines": " ".join(f"{name}={count}" for name, count in summary["engines"].items() if count) or None,
        "requested": summary["requested"]["deals"],
        "missing": summary["requested"]["missing"],
        **{name: summary[name] for name in ("deals", "won", "lost", "unknown")},
        **{name: summary[name] for name in ("win_rate", "win_rate_low", "win_rate_high")},
        "threshold": threshold.get("name"),
        "threshold_at_most": threshold.get("at_most"),
        "threshold_deals": threshold.get("deals"),
        "threshold_rate": threshold.get("rate"),
        "threshold_rate_low": threshold.get("rate_low"),
        "threshold_rate_high": threshold.get("rate_high"),
        "fewest_redeals": "redeals" in summary,
        "redeals_won": redeals.get("won"),
        "redeals_proven": redeals.get("proven"),
        "redeals_mean": redeals.get("mean"),
        "redeals_max": redeals.get("max"),
        **{f"cpu_{name}": summary[name] if summary["deals"] else None for name in _CPU},
    }


def render_table(summaries: list[dict[str, Any]]) -> str:
    """The surveys as three text tables within 80 columns (but for long file names), a line per
    survey in each, numbered alike: what each survey is (its file, rules, limits and deals, with
    those requested but not yet solved; two surveys of one preset differ by file alone, or by the
    player where one is a player's: its games, not which deals can be won), what it found
    (options are those set beyond the variant's preset; each rate is the share found with its 95%
    range beside it, the Wilson interval when no deal is unknown), and what a deal took (the wins'
    mean redeals in a fewest-redeals survey, CPU seconds, the engine)."""
    names = sorted({s["threshold"]["name"] for s in summaries if "threshold" in s})
    redeals = any("redeals" in s for s in summaries)
    players = any(s["survey"]["player"] is not None for s in summaries)
    what: list[list[str]] = [["#", "survey", "rules", "limits or player" if players else "limits", "deals"]]
    found: list[list[str]] = [["#", "won", "lost", "unknown", "win rate (95% range)"]]
    found[0] += [f"{' / '.join(names)} (95% range)"] if names else []
    took: list[list[str]] = [["#", *(["redeals mean"] if redeals else []), "CPU s mean", "p99", "max", "engine"]]
    for number, summary in enumerate(summaries, 1):
        survey = summary["survey"]
        changed = beyond_preset(survey)
        rules = f"{survey['game']} ({survey['variant']}{'; ' + changed if changed else ''})"
        missing = summary["requested"]["missing"]
        deals = str(summary["deals"]) + (f" ({missing} to do)" if missing else "")
        player = player_of(survey)
        searched = limits_text(survey["limits"]) if player is None else f"player {player}"
        what.append([str(number), str(survey["file"]), rules, searched, deals])
        cells = [str(number), *(str(summary[name]) for name in ("won", "lost", "unknown"))]
        cells.append(_rate(summary["win_rate"], summary["win_rate_low"], summary["win_rate_high"]))
        if names:
            threshold = summary.get("threshold")
            cells.append(
                "-" if threshold is None else _rate(threshold["rate"], threshold["rate_low"], threshold["rate_high"])
            )
        found.append(cells)
        mean = summary.get("redeals", {}).get("mean")
        engines = "+".join(name for name, count in summary["engines"].items() if count)
        engines = engines or ("none" if summary["deals"] else "-")  # none: a player that searches nothing
        took.append(
            [
                str(number),
                *(["-" if mean is None else f"{mean:.2f}"] if redeals else []),
                *(_seconds(summary[name] if summary["deals"] else None) for name in _CPU),
                engines,
            ]
        )
    note = "rates: share found (95% range: the Wilson interval if no deal is unknown)"
    if players:
        note += "\na player's won, lost: the games it won, and those it did not win"
    return "\n".join(
        [
            *_aligned(what, text={1, 2, 3}),
            "",
            *_aligned(found, text=set()),
            "",
            *_aligned(took, text={len(took[0]) - 1}),
            note,
        ]
    )


def limits_text(limits: dict[str, Any]) -> str:
    """A survey's limits per deal as the report names them (``max_nodes=1000000``), or ``none``."""
    from solver.surveys.report import size

    return " ".join(f"{k}={size(v) if k == 'max_memory' else v}" for k, v in limits.items() if v is not None) or "none"


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


def _rate(rate: float | None, low: float, high: float) -> str:
    """A rate with its 95% range beside it: ``5.10% (4.22-6.15%)``; ``-`` with no deal."""
    if rate is None:
        return "-"
    return f"{percent(rate)} ({percent(low)[:-1]}-{percent(high)})"


def _seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.4f}"

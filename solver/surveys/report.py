"""What a survey file says: the summary (the win rate as a 95% range that widens with the deals a
limit left unknown, lost and unknown counts, the score distribution split into proven minima and
best-found scores, CPU time per deal, the slowest deals) as data and as text; of a survey of a
player, the player, the share of deals it won, the scores its games ended at, the moves it made.
A report only reads the survey file."""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Any, NamedTuple

from rulesets.family import spell
from solver.errors import SurveyError
from solver.service.seeds import MAX_SURVEY_SEED
from solver.service.stats import nearest_rank, rate_range, wilson
from solver.surveys.row_codec import VERDICTS as STORED_VERDICTS
from solver.surveys.row_codec import is_played
from solver.surveys.store import Store

#: The verdicts, in the order reports list them (a stored row's code is the index).
VERDICTS = STORED_VERDICTS


def summarize(path: Path, slowest: int = 10) -> dict[str, Any]:
    """The report of a survey file as a JSON-ready dict, aggregated in SQL: a few passes over the
    rows, none held in memory (about 2 s a million deals).

    ``slowest`` deals are listed (0 or more; more than there are lists them all). The file is only
    read, so a read-only one serves as well.
    """
    if slowest < 0:
        raise SurveyError(f"--slowest must be 0 or more, not {slowest}")
    store = Store(path)
    try:
        found = _read(store, slowest)
    finally:
        store.close()
    return _summary(path, found)


class _Totals(NamedTuple):
    """The deals of a survey file counted and summed in one pass."""

    deals: int
    won: int
    lost: int
    unknown: int
    nodes: float  # summed as a float (TOTAL): a sum of integers past 2**63 is an SQLite error
    microseconds: float
    most: int  # the most microseconds of one deal
    native: int  # the deals the compiled core searched
    python: int  # the deals the Python engine searched (neither: a player that searches nothing)


class _Found(NamedTuple):
    """What a report reads of a survey file."""

    meta: dict[str, str]
    key: str  # seed, or line in a survey of a file of deals
    played: bool  # a survey of a player (else of solvability)
    totals: _Totals
    histogram: list[dict[str, Any]]
    p99: float | None
    slow: list[dict[str, Any]]
    first: int | None
    last: int | None
    requested: dict[str, Any]
    redeals: dict[str, Any] | None


def _read(store: Store, slowest: int) -> _Found:
    """The totals, the score histogram, the 99th percentile and the ``slowest`` deals, the range
    of keys, what was requested, and a fewest-redeals survey's redeals."""
    totals = _Totals(
        *store.query(
            "SELECT COUNT(*), COALESCE(SUM(verdict = 0), 0), COALESCE(SUM(verdict = 1), 0), "
            "COALESCE(SUM(verdict = 2), 0), TOTAL(nodes), TOTAL(microseconds), COALESCE(MAX(microseconds), 0), "
            "COALESCE(SUM(engine = 1), 0), COALESCE(SUM(engine = 0), 0) FROM deals"
        )[0]
    )
    key = store.key
    first, last = store.query(f"SELECT MIN({key}), MAX({key}) FROM deals")[0]
    return _Found(
        store.meta,
        key,
        store.played,
        totals,
        _scores(store),
        _p99(store, totals.deals),
        _slowest_deals(store, slowest),
        first,
        last,
        store.coverage(),
        _redeals(store) if "fewest_redeals" in store.meta else None,
    )


def _scores(store: Store) -> list[dict[str, Any]]:
    """The deals by score (no score last), each by verdict and, of a survey of solvability, with
    how many are proven (a player's score is where its game ended: none is a proven minimum)."""
    proven = () if store.played else ("proven",)
    return [
        dict(zip(("score", "deals", *proven, *VERDICTS), row))
        for row in store.query(
            f"SELECT score, COUNT(*), {'' if store.played else 'SUM(verdict != 2), '}SUM(verdict = 0), "
            "SUM(verdict = 1), SUM(verdict = 2) FROM deals GROUP BY score ORDER BY score IS NULL, score"
        )
    ]


def _p99(store: Store, deals: int) -> float | None:
    """The 99th percentile of the deals' CPU seconds (None with no deals)."""
    found = store.query(  # counted from the top: SQLite then sorts only the slowest 1%, not every deal
        "SELECT microseconds FROM deals ORDER BY microseconds DESC LIMIT 1 OFFSET ?",
        (max(0, deals - 1 - nearest_rank(deals, 0.99)),),
    )
    return found[0][0] / 1e6 if found else None


def _slowest_deals(store: Store, slowest: int) -> list[dict[str, Any]]:
    """The ``slowest`` deals, slowest first (ties by key), each with its search's nodes (of a
    player: the moves it made)."""
    key, count = store.key, "moves" if store.played else "nodes"
    return [
        dict(zip((key, "result", "score", count, "seconds"), (number, VERDICTS[verdict], score, n, t / 1e6)))
        for number, verdict, score, n, t in store.query(
            f"SELECT {key}, verdict, score, {count}, microseconds FROM deals ORDER BY microseconds DESC, {key} LIMIT ?",
            (min(slowest, MAX_SURVEY_SEED),),
        )
    ]


def _summary(path: Path, found: _Found) -> dict[str, Any]:
    """The report's dict of what was read of the survey file at ``path``."""
    deals, won, lost, unknown = found.totals.deals, found.totals.won, found.totals.lost, found.totals.unknown
    seconds = found.totals.microseconds / 1e6
    low, high = rate_range(won, unknown, deals)
    family = family_of(found.meta.get("game", ""))
    summary: dict[str, Any] = {
        "survey": _settings(path, found.meta, family) | {"key": found.key},
        "deals": deals,
        f"{found.key}s": {"min": found.first, "max": found.last},
        "requested": found.requested,
        "engines": {"native": found.totals.native, "python": found.totals.python},
        "won": won,
        "lost": lost,
        "unknown": unknown,
        "win_rate": won / deals if deals else None,
        "win_rate_95": list(wilson(won, deals)),
        "win_rate_low": low,
        "win_rate_high": high,
        "win_rate_if_unknown_won": (won + unknown) / deals if deals else None,
        # a score is the proven minimum unless a limit left the deal unknown; none of a player's is one
        "scores_proven": None if found.played else won + lost,
        "nodes": None if found.played else int(found.totals.nodes),
        "cpu_seconds": seconds,
        "mean_seconds": seconds / deals if deals else None,
        "p99_seconds": found.p99,
        "max_seconds": found.totals.most / 1e6,
        "histogram": found.histogram,
        "slowest": found.slow,
    }
    if found.redeals is not None:
        summary["redeals"] = found.redeals
    if family is not None and family.threshold is not None:
        summary["threshold"] = _threshold(family.threshold, found.histogram, deals)
    return summary


def _redeals(store: Store) -> dict[str, Any]:
    """A fewest-redeals survey's wins by their redeals: how many, how many proven fewest (no
    limit stopped the search for a cheaper win), their mean and most, and the distribution."""
    histogram = [
        {"redeals": redeals, "deals": deals, "proven": proven}
        for redeals, deals, proven in store.query(
            "SELECT redeals, COUNT(*), SUM(limit_hit IS NULL) FROM deals WHERE verdict = 0 "
            "GROUP BY redeals ORDER BY redeals"
        )
    ]
    won = sum(row["deals"] for row in histogram)
    return {
        "won": won,
        "proven": sum(row["proven"] for row in histogram),
        "mean": sum(row["redeals"] * row["deals"] for row in histogram) / won if won else None,
        "max": max((row["redeals"] for row in histogram), default=None),
        "histogram": histogram,
    }


def _threshold(threshold: tuple[str, int], histogram: list[dict[str, Any]], deals: int) -> dict[str, Any]:
    """The deals reaching the game's threshold win (Sheinwold's five piles), and their rate: a
    range, since an unknown deal whose best score is above the threshold may yet reach it."""
    name, most = threshold
    count = sum(row["deals"] for row in histogram if row["score"] is not None and row["score"] <= most)
    undecided = sum(row["unknown"] for row in histogram if row["score"] is None or row["score"] > most)
    low, high = rate_range(count, undecided, deals)
    return {
        "name": name,
        "at_most": most,
        "deals": count,
        "undecided": undecided,
        "rate": count / deals if deals else None,
        "rate_95": list(wilson(count, deals)),
        "rate_low": low,
        "rate_high": high,
    }


def _settings(path: Path, meta: dict[str, str], family: Any) -> dict[str, Any]:
    """The survey's settings as the summary states them (``player``: of a survey of a player, its
    name and settings; None of a survey of solvability)."""
    player = None
    if is_played(meta):
        player = {"name": meta["player"], "settings": json.loads(meta["player_settings"])}
    return {
        "file": str(path),
        "game": meta.get("game"),
        "variant": meta.get("variant"),
        "options": json.loads(meta.get("options", "{}")),
        "limits": {k: _limit(meta.get(k, "null")) for k in ("max_nodes", "max_seconds", "max_memory")},
        "player": player,
        "solver_version": meta.get("solver_version"),
        "score_field": family.score_field if family else "score",
        "score_label": family.score_label if family else "score",
    }


def _limit(stored: str) -> float | None:
    """A limit as stored (JSON); None for no limit, as older versions stored NaN or infinity."""
    value = json.loads(stored)
    return None if isinstance(value, float) and not math.isfinite(value) else value


def family_of(name: str) -> Any:
    """The game family, for its score's name; None if this installation does not know the game."""
    try:
        from rulesets import families

        return families().get(name)
    except Exception:  # a report must not depend on every rule module importing cleanly
        return None


def size(value: int) -> str:
    """A byte count in the largest of the units K, M, G, T it reaches (2G, 1.5M), or bare."""
    for power, unit in ((4, "T"), (3, "G"), (2, "M"), (1, "K")):
        if value >= 1024**power:
            try:
                return f"{value / 1024**power:g}{unit}"
            except OverflowError:  # only in files written before sizes were bounded
                return str(value)
    return str(value)


def seconds_text(value: float) -> str:
    """CPU seconds to three significant figures, in microseconds or milliseconds below a second
    (a compiled search of 20 us read "0.0000 s")."""
    for unit, scale in (("s", 1.0), ("ms", 1e-3)):
        if value >= scale:
            return f"{value / scale:.3g} {unit}"
    return f"{value * 1e6:.3g} us"


def percent(value: float | None) -> str:
    """A share as a percentage with two decimals ("-" for none)."""
    return "-" if value is None else f"{100 * value:.2f}%"


def player_of(survey: dict[str, Any]) -> str | None:
    """The player of a survey (its summary's ``survey``) as a report names it, ``sampling
    (samples 100, rng_seed 1)``; None of a survey of solvability."""
    from solver.service.playing import player_text

    player = survey["player"]
    return None if player is None else player_text(player["name"], player["settings"])


def verdict_words(survey: dict[str, Any]) -> dict[str, str]:
    """What each verdict says of a deal of the survey (its summary's ``survey``): of solvability,
    won, lost (it cannot be won) or unknown; of a player, won or not won by it (a deal it lost may
    well be won by another play)."""
    if survey["player"] is None:
        return {verdict: verdict for verdict in VERDICTS}
    return {"won": "won by the player", "lost": "not won by the player", "unknown": "unknown"}


def win_rate_text(summary: dict[str, Any]) -> str:
    """The win rate as a report states it (see :func:`rate_text`)."""
    return "win " + rate_text(
        summary["win_rate"], summary["win_rate_low"], summary["win_rate_high"], undecided=summary["unknown"]
    )


def rate_text(rate: float | None, low: float, high: float, *, undecided: int) -> str:
    """A rate as a report states it: the rate and its 95% Wilson interval, or, when ``undecided``
    deals could go either way, the 95% range it lies in."""
    if undecided:
        return f"rate {percent(low)} to {percent(high)} (95% range: {_deals(undecided)} unknown)"
    return f"rate {percent(rate)} (95% Wilson interval {percent(low)} to {percent(high)})"


def _deals(count: int) -> str:
    """``count`` deals in words: "1 deal", "2 deals"."""
    return f"{count} deal" if count == 1 else f"{count} deals"


def render(summary: dict[str, Any], width: int = 32) -> str:
    """The report as text, within 80 columns (but for the settings of a survey with many options)."""
    return "\n".join([*_head(summary), *_histogram(summary, width), *_redeal_lines(summary, width), *_slowest(summary)])


def engines_text(summary: dict[str, Any]) -> str:
    """Which engine searched the deals: ``engine native``, or each engine's count where both did
    (a survey resumed on another installation); ``engine -`` before any deal is stored, ``engine
    none`` where a player searched none."""
    used = {name: count for name, count in summary["engines"].items() if count}
    if not used and summary["deals"]:
        return "engine none"
    if len(used) <= 1:
        return f"engine {next(iter(used), '-')}"
    return "engines " + ", ".join(f"{name} {count:,}" for name, count in used.items())


def requested_lines(summary: dict[str, Any]) -> list[str]:
    """What of the deals requested is missing, if any: how many stored of how many asked for, and
    the first missing seeds (or lines); none when every requested deal is stored."""
    asked = summary["requested"]
    lines = []
    if asked["missing"]:
        key = summary["survey"]["key"]
        lines.append(
            f"{asked['stored']:,} of {asked['deals']:,} requested deals stored; {asked['missing']:,} not yet solved "
            "(rerun the command to carry on)"
        )
        gaps = ", ".join(str(low) if low == high else f"{low}-{high}" for low, high in asked["first_missing"])
        more = ", ..." if sum(high - low + 1 for low, high in asked["first_missing"]) < asked["missing"] else ""
        lines.append(f"  first missing: {key}s {gaps}{more}")
    if asked["open"]:
        lines.append("  (its stream of deals was cut short: more deals may follow on a rerun)")
    return lines


def _redeal_lines(summary: dict[str, Any], width: int) -> list[str]:
    """A fewest-redeals survey's wins by their redeals, one bar each: '#' for the proven fewest,
    '~' for wins a limit stopped the search for a cheaper one of."""
    redeals = summary.get("redeals")
    if redeals is None:
        return []
    if not redeals["won"]:
        return ["", "fewest redeals: no deal won"]
    found = redeals["won"] - redeals["proven"]
    lines = [
        "",
        f"fewest redeals of the {_deals(redeals['won'])} won (mean {redeals['mean']:.2f}, most {redeals['max']}):"
        + (f"\n  # proven fewest, ~ found ({found} not proven fewest: a limit stopped the search)" if found else ""),
        f"  {'redeals':>7} {'deals':>8} {'share':>7} {'proven':>8} {'found':>10}",
    ]
    most = max(row["deals"] for row in redeals["histogram"])
    for row in redeals["histogram"]:
        sure = row["proven"]
        proven_part = _length(sure, most, width)
        bar = "#" * proven_part + "~" * max(
            1 if row["deals"] > sure else 0, _length(row["deals"], most, width) - proven_part
        )
        share = 100 * row["deals"] / redeals["won"]
        lines.append(
            f"  {row['redeals']:>7} {row['deals']:>8} {share:6.2f}% {sure:>8} {row['deals'] - sure:>10}  {bar}"
        )
    return lines


def _head(summary: dict[str, Any]) -> list[str]:
    """The settings, the counts with their rates, and the CPU time."""
    survey, deals, key = summary["survey"], summary["deals"], summary["survey"]["key"]
    options = ", ".join(f"{k}={spell(v)}" for k, v in survey["options"].items()) or "none"  # as --option takes them
    limits = (
        ", ".join(f"{k}={size(v) if k == 'max_memory' else v}" for k, v in survey["limits"].items() if v is not None)
        or "none"
    )
    player, words = player_of(survey), verdict_words(survey)
    lines = [
        f"{survey['game']} ({survey['variant']}), solver {survey['solver_version']}, {engines_text(summary)}",
        f"options: {options}",
        f"limits per deal: {limits}" if player is None else f"player: {player}",
        f"deals: {deals}" + (f" ({key}s {summary[key + 's']['min']} to {summary[key + 's']['max']})" if deals else ""),
        *requested_lines(summary),
        f"{words['won']}: {summary['won']}  {win_rate_text(summary)}",
        f"lost: {summary['lost']}  unknown: {summary['unknown']}"
        if player is None
        else f"{words['lost']}: {summary['lost']}",
    ]
    if summary["unknown"]:
        won, unknown = summary["won"], summary["unknown"]
        lines.append(
            f"  a limit stopped {unknown} searches undecided: the range runs from the\n"
            f"  Wilson lower bound of {won}/{deals} won to the Wilson upper bound of {won + unknown}/{deals}\n"
            "  (every unknown deal won)"
        )
    if "threshold" in summary:
        t = summary["threshold"]
        rate = rate_text(t["rate"], t["rate_low"], t["rate_high"], undecided=t["undecided"])
        line = f"{t['name']} win ({t['at_most']} or fewer): {t['deals']}  {rate}"
        lines.append(line if len(line) <= 80 else line.replace("  rate ", "\n  rate ", 1))
    if deals:
        counted = "" if summary["nodes"] is None else f", {summary['nodes']} nodes"
        lines.append(f"CPU: {summary['cpu_seconds']:.1f} s in all{counted}")
        lines.append(
            f"  per deal: mean {seconds_text(summary['mean_seconds'])}, p99 {seconds_text(summary['p99_seconds'])}, "
            f"max {seconds_text(summary['max_seconds'])}"
        )
    return lines


def _histogram(summary: dict[str, Any], width: int) -> list[str]:
    """The scores reached, one bar each: '#' for deals whose score is the proven minimum, '~' for
    those whose search a limit stopped (the best found; the minimum may be lower)."""
    histogram, deals = summary["histogram"], summary["deals"]
    if not histogram:
        return []
    if summary["survey"]["player"] is not None:
        return _played_histogram(summary, width)
    unproven = deals - summary["scores_proven"]
    label = summary["survey"]["score_label"]
    lines = [
        "",
        f"{label}: # proven minimum, ~ best found ({_deals(unproven)} not proven minimal)\n"
        "  (the minimum of a deal drawn ~ may be lower)"
        if unproven
        else f"{label} (proven minimum):",
        f"  {'score':>5} {'deals':>8} {'share':>7} {'proven':>8} {'best found':>10}",
    ]
    most = max(row["deals"] for row in histogram)
    for row in histogram:
        score = "none" if row["score"] is None else str(row["score"])
        sure, found = row["proven"], row["deals"] - row["proven"]
        proven_part = _length(sure, most, width)
        bar = "#" * proven_part + "~" * max(1 if found else 0, _length(row["deals"], most, width) - proven_part)
        lines.append(f"  {score:>5} {row['deals']:>8} {100 * row['deals'] / deals:6.2f}% {sure:>8} {found:>10}  {bar}")
    return lines


def _played_histogram(summary: dict[str, Any], width: int) -> list[str]:
    """The scores a player's games ended at, one bar each (a score of none: a game that stopped
    where the rules count no end, every move left repeating a position)."""
    histogram, deals = summary["histogram"], summary["deals"]
    lines = ["", f"{summary['survey']['score_label']} at the end of the player's games:"]
    lines.append(f"  {'score':>5} {'deals':>8} {'share':>7}")
    most = max(row["deals"] for row in histogram)
    for row in histogram:
        score = "none" if row["score"] is None else str(row["score"])
        bar = "#" * _length(row["deals"], most, width)
        lines.append(f"  {score:>5} {row['deals']:>8} {100 * row['deals'] / deals:6.2f}%  {bar}")
    return lines


def _length(count: int, most: int, width: int) -> int:
    """A bar's length for ``count`` of a scale whose longest bar is ``most`` (at least 1 for any)."""
    return max(1 if count else 0, round(width * count / most))


def _slowest(summary: dict[str, Any]) -> list[str]:
    """The slowest deals, one line each."""
    if not summary["slowest"]:
        return []
    key = summary["survey"]["key"]
    played = summary["survey"]["player"] is not None
    count, words = "moves" if played else "nodes", {"lost": "not won"} if played else {}
    lines = ["", "slowest deals:", f"  {key:>12} {'result':<8} {'score':>5} {count:>10} {'seconds':>9}"]
    for row in summary["slowest"]:
        score = "-" if row["score"] is None else row["score"]
        result = words.get(row["result"], row["result"])
        lines.append(f"  {row[key]:>12} {result:<8} {score:>5} {row[count]:>10} {row['seconds']:>9.6f}")
    return lines

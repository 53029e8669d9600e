"""Whether a run may carry on a survey file: the same settings as the file's (rules, options,
limits or player, solver version), deals of the same kind (seeds, or a file's lines), results of
the same kind (which deals can be won, or a player's games), and of a file of deals the same deal
on each line the survey holds. A run that may not is refused, the file left as it was.
"""

from __future__ import annotations

import itertools
import json
import sqlite3
from pathlib import Path

from solver.errors import SurveyError
from solver.service.deal_file import DealFile
from solver.surveys.row_codec import BOOKKEEPING, is_played


def refuse_other_run(path: Path, identity: dict[str, str], meta: dict[str, str]) -> None:
    """Refuse a run whose settings differ from those of the survey file ``path`` (its ``meta``; a
    setting either lacks counts), whose deals are of the other kind (seeds, or a file's lines), or
    whose results are (which deals can be won, or a player's games)."""
    kinds = {"seed": "seeds", "line": "the deals of a file"}
    theirs, ours = meta.get("key", "seed"), identity.get("key", "seed")
    if theirs != ours:
        raise SurveyError(
            f"{path} holds a survey of {kinds.get(theirs, theirs)} and this run surveys {kinds[ours]}: "
            "the two are not mixed: give another --out"
        )
    if is_played(meta) != is_played(identity):
        raise SurveyError(
            f"{path} holds {_results(meta)} and this run surveys {_results(identity)}: "
            "the two are not mixed: give another --out"
        )
    if is_played(meta) and meta.get("player") == identity.get("player") and meta.get("draws") != identity.get("draws"):
        raise SurveyError(
            f"{path} holds the games of player {_player(meta)} drawn {_drawn(meta)}, and this version draws "
            f"{_drawn(identity)}: the same seed would play other games, which are not mixed in: give another --out "
            "(the file's games still open in 'patience report')"
        )
    keys = [*identity, *(k for k in meta if k not in identity and k not in BOOKKEEPING)]
    differ = [k for k in keys if meta.get(k) != identity.get(k)]
    if differ:
        raise SurveyError(
            f"{path} holds a survey with other settings ("
            + "; ".join(f"{k}: file has {meta.get(k)}, this run {identity.get(k)}" for k in differ)
            + "); results of different rules, options, limits, players or solver versions are not mixed: "
            "give another --out"
        )


def _results(settings: dict[str, str]) -> str:
    """What a survey of these settings holds, in words: a player's games, or which deals can be won."""
    return f"the games of player {_player(settings)}" if is_played(settings) else "which deals can be won"


def _player(settings: dict[str, str]) -> str:
    """The player of a survey of a player, in words: ``random (rng_seed 1)``."""
    from solver.service.playing import player_text

    # A file's settings are read once its damage checks passed: its player's settings a JSON object.
    return player_text(settings["player"], json.loads(settings["player_settings"]))


def _drawn(settings: dict[str, str]) -> str:
    """How a survey's player drew, in words: by the generator its settings name, or by the LCG
    of the versions that named none."""
    return f"by {settings['draws']}" if "draws" in settings else "by an earlier generator (an LCG, named nowhere)"


def refuse_other_deals(path: Path, db: sqlite3.Connection, deals: DealFile) -> None:
    """Refuse a file of deals that is not the one the survey ``path`` (open as ``db``) began on (the same deal on each
    line), naming its first line that differs. Of a stream only the deals read so far are
    compared (the rest are as they come: see :meth:`~solver.surveys.store.Store.surveyed_lines`); a survey whose stream
    was cut short (its lines ``open``) takes any more deals after the ones it holds."""
    cut_short = db.execute("SELECT 1 FROM survey WHERE key = 'lines' AND value = 'open'").fetchone() is not None
    surveyed = db.execute("SELECT line, deal FROM lines ORDER BY line")
    for was, now in itertools.zip_longest(surveyed, deals.deals):
        if was == now:
            continue
        if (now is None and deals.more is not None) or (was is None and cut_short):
            return
        raise changed_file(path, deals.name, was, now=now)


def changed_file(path: Path, name: str, was: tuple[int, str] | None, *, now: tuple[int, str] | None) -> SurveyError:
    """A file of deals that is not the one surveyed in ``path``: (line, deal) ``was`` surveyed,
    ``now`` the file's, the first two that differ (None: the one has no more deals)."""
    line = min(found[0] for found in (was, now) if found is not None)
    if was is not None and now is not None and was[0] == now[0]:
        what = "holds another deal than the one surveyed there"
    elif now is not None and now[0] == line:
        what = "holds a deal where the surveyed file had none"
    else:
        what = "holds no deal where the surveyed file had one"
    return SurveyError(
        f"{path} is a survey of another file of deals: {name} line {line} {what}; "
        "a changed file is not mixed in: give another --out (or restore the file)"
    )

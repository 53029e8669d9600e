"""Surveys: every deal of a range of seeds (or of a file of deals) solved, or played by a player,
into a SQLite survey file, and what such files say.

It holds running a survey (``running``: what is stored and still to solve, the run Ctrl-C ends
cleanly; ``work``: what decides a survey and what a worker does with a chunk; ``feed``: the deals
handed out; ``workers``: a process pool or a Dask cluster); the survey file (``store``; its format,
``row_codec``; the file on disk kept safe, ``file_safety``; its damage check, ``damage``; whether a
run may carry it on, ``resume``; the deals it still lacks, ``coverage``); and its reports
(``report``, ``comparison``, ``exports``, ``plots``). The errors it raises are
:mod:`solver.errors`, imported from there.

Its face, what the command line (:mod:`solver.cli.survey`) and the Python API (:mod:`solver.api`)
call, is named here and imported on first use: a spawned worker, which imports ``work``, loads
none of SQLite, the reports or matplotlib by importing this package.

What it may import: the engine (``solver/*.py``) and :mod:`solver.service`, which it shares with
solving, hints, playing and verification (setup, solving, playing, seed ranges, deal files,
statistics, writing files whole), and the rulesets through them. Never the command line
(:mod:`solver.cli`); and :mod:`solver.service` never imports this package.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

__all__ = [
    "run_survey",
    "worker_count",
    "SurveySpec",
    "RunTally",
    "Store",
    "Row",
    "summarize",
    "render",
    "render_table",
    "check_targets",
    "write_csv",
    "write_json",
    "write_summary_csv",
    "DEFAULT_DPI",
    "check_dpi",
    "check_drawable",
    "plot_format",
    "plot_rates",
    "plot_scores",
    "plot_cpu",
]

#: Each name of the face, and the module that defines it.
_FROM = {
    "run_survey": "running",
    "worker_count": "running",
    "SurveySpec": "work",
    "RunTally": "work",
    "Store": "store",
    "Row": "row_codec",
    "summarize": "report",
    "render": "report",
    "render_table": "comparison",
    "check_targets": "exports",
    "write_csv": "exports",
    "write_json": "exports",
    "write_summary_csv": "exports",
    "DEFAULT_DPI": "plots",
    "check_dpi": "plots",
    "check_drawable": "plots",
    "plot_format": "plots",
    "plot_rates": "plots",
    "plot_scores": "plots",
    "plot_cpu": "plots",
}

if TYPE_CHECKING:
    from solver.surveys.comparison import render_table
    from solver.surveys.exports import check_targets, write_csv, write_json, write_summary_csv
    from solver.surveys.plots import (
        DEFAULT_DPI,
        check_dpi,
        check_drawable,
        plot_cpu,
        plot_format,
        plot_rates,
        plot_scores,
    )
    from solver.surveys.report import render, summarize
    from solver.surveys.row_codec import Row
    from solver.surveys.running import run_survey, worker_count
    from solver.surveys.store import Store
    from solver.surveys.work import RunTally, SurveySpec


def __getattr__(name: str) -> Any:
    import importlib

    if name in _FROM:
        return getattr(importlib.import_module(f"{__name__}.{_FROM[name]}"), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted({*globals(), *__all__})

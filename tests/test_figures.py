"""The report's score figure stays readable however many scores a survey reaches: one bar a
score, a label at round numbers, no two labels overlapping. The figures are written to the folder
named by PATIENCE_FIGURES (kept, to be looked at), else to a temporary folder."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from helpers import run_cli

from solver.service.store import Row, Store, encode
from solver.service.survey import SurveySpec

pytest.importorskip("matplotlib", reason="the 'plot' extra is not installed")


def _survey(path: Path, scores: range) -> None:
    """A Baroness survey with one lost deal of each score and a few won ones."""
    identity = SurveySpec("baroness", None, (), 2000, None, 2 * 1024**3).identity()
    rows = []
    for seed, score in enumerate([0, 0, 0, *scores], 1):
        result = "won" if score == 0 else "lost"
        fields = (identity["game"], identity["variant"], identity["options"], "AS", result, score, 1, None)
        rows.append(Row(seed, *fields, 10 * seed, seed / 1000, 0, "0"))
    store = Store(path, identity, requested=[(1, len(rows))])
    store.add(encode(row) for row in rows)
    store.close()


@pytest.fixture
def figures(tmp_path: Path) -> Path:
    kept = os.environ.get("PATIENCE_FIGURES")
    folder = Path(kept) if kept else tmp_path
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.mark.parametrize("highest", [12, 30, 52])
def test_score_labels_never_run_together(tmp_path: Path, figures: Path, monkeypatch: pytest.MonkeyPatch, highest: int):
    from solver.service import plots

    drawn: list[Any] = []
    save = plots._save

    def keep(figure: Any, *args: Any) -> None:
        figure.canvas.draw()
        renderer = figure.canvas.get_renderer()
        axes = figure.axes[0]
        labels = [label for label in axes.get_xticklabels() if label.get_text()]
        drawn.append(([label.get_text() for label in labels], [label.get_window_extent(renderer) for label in labels]))
        drawn.append(len(axes.get_xticks()))
        save(figure, *args)

    monkeypatch.setattr(plots, "_save", keep)
    survey = tmp_path / "scores.sqlite"
    _survey(survey, range(1, highest + 1))
    target = figures / f"scores-0-to-{highest}.png"
    assert run_cli("report", str(survey), "--plot", str(target), "--dpi", "100").exit_code == 0
    (texts, boxes), bars = drawn
    assert bars == highest + 1  # a place for every score, 0 to the highest
    assert texts == [str(s) for s in range(0, highest + 1, plots.label_step(highest + 1))]
    assert len(texts) <= plots.MOST_LABELS + 1
    for left, right in zip(boxes, boxes[1:]):
        assert left.x1 + 2 <= right.x0, f"labels overlap: {texts}"
    assert target.stat().st_size > 0

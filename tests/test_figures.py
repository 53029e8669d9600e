"""The report's score figure stays readable however many scores a survey reaches: one bar a
score, a label at round numbers, no two labels overlapping. The figures are written to the folder
named by PATIENCE_FIGURES (kept, to be looked at), else to a temporary folder."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import pytest
from helpers import run_cli

from solver.surveys.row_codec import Row, encode
from solver.surveys.running import SurveySpec
from solver.surveys.store import Store

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


@pytest.mark.one_engine  # figures of stored rows: the engine only made them
@pytest.mark.parametrize("highest", [12, 30, 52])
def test_score_labels_never_run_together(tmp_path: Path, figures: Path, monkeypatch: pytest.MonkeyPatch, highest: int):
    from solver.surveys import plots

    drawn: list[Any] = []
    save = plots._save

    def keep(figure: Any, *args: Any, **keywords: Any) -> None:
        figure.canvas.draw()
        renderer = figure.canvas.get_renderer()
        axes = figure.axes[0]
        labels = [label for label in axes.get_xticklabels() if label.get_text()]
        drawn.append(([label.get_text() for label in labels], [label.get_window_extent(renderer) for label in labels]))
        drawn.append(len(axes.get_xticks()))
        save(figure, *args, **keywords)

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


#: The fifteen presets, as a table of every one compares them.
PRESETS = (
    "accordion", "idle-year", "parlett", "self-working", "amazons", "amazons-dick", "amazons-mms", "amazons-pysol",
    "baroness", "baroness-classic", "baroness-pysol", "thirteens", "royal-marriage", "queen-and-her-lad",
    "nizhni-novgorod",
)  # fmt: skip


def _preset_surveys(folder: Path) -> list[Path]:
    """A small survey of each preset, won at rates from 2% to 93% and some unknown."""
    paths = []
    for place, preset in enumerate(PRESETS):
        spec = SurveySpec(preset, None, (), 2000, None, 2 * 1024**3)
        path = folder / f"{preset}.sqlite"
        store = Store(path, spec.identity(), requested=[(1, 200)])
        won, win = 4 + place * 12, spec.setup().family.win_score  # a won deal scores its game's win
        rows = [
            (seed, 0 if seed <= won else 2 if seed % 17 == 0 else 1, win if seed <= won else 3, 1 if seed % 17 == 0 and
             seed > won else None, 100, 10 ** (1 + seed % 5) + place, 4096, None, 1)
            for seed in range(1, 201)
        ]  # fmt: skip
        store.add(rows)
        store.close()
        paths.append(path)
    return paths


@pytest.mark.one_engine  # figures of stored rows: the engine only made them
def test_fifteen_presets_side_by_side_fit_a_page_with_every_label_apart(tmp_path, figures, monkeypatch):
    """The rates of all fifteen presets in one figure a page wide (8 inches), each preset's name
    and its rates written whole, none overlapping another or the figure's edge; the CPU figure
    gives each its own colour and line style."""
    from solver.surveys import plots

    drawn: dict[str, Any] = {}
    save = plots._save

    def keep(figure: Any, option: str, *args: Any, **keywords: Any) -> None:
        figure.canvas.draw()
        renderer = figure.canvas.get_renderer()
        drawn[option] = (figure, renderer)
        if option == "--plot":
            left, right = figure.axes[0], figure.axes[1]
            drawn["size"] = tuple(figure.get_size_inches())
            drawn["box"] = figure.bbox
            drawn["names"] = [label.get_window_extent(renderer) for label in left.get_yticklabels()]
            drawn["rates"] = [label.get_window_extent(renderer) for label in right.get_yticklabels()]
            drawn["texts"] = [label.get_text() for label in left.get_yticklabels()]
        else:
            outlines = figure.axes[0].patches  # one step outline a survey
            drawn["styles"] = [(tuple(patch.get_edgecolor()), patch.get_linestyle()) for patch in outlines]
        save(figure, option, *args, **keywords)

    monkeypatch.setattr(plots, "_save", keep)
    paths = [str(path) for path in _preset_surveys(tmp_path)]
    rates, cpu = figures / "fifteen-presets.png", figures / "fifteen-presets-cpu.png"
    ran = run_cli("report", *paths, "--plot", str(rates), "--plot-cpu", str(cpu), "--dpi", "100")
    assert ran.exit_code == 0, ran.output
    assert drawn["size"][0] <= 8 and drawn["texts"] == list(PRESETS)
    for boxes in (drawn["names"], drawn["rates"]):
        assert len(boxes) == 15
        for upper, lower in zip(boxes, boxes[1:]):  # the first preset on top
            assert lower.y1 <= upper.y0 + 0.5, "labels overlap"
        for box in boxes:
            assert drawn["box"].x0 <= box.x0 and box.x1 <= drawn["box"].x1, "a label runs off the figure"
    assert len(set(drawn["styles"])) == 15


def test_a_fewest_redeals_survey_draws_its_wins_by_their_redeals(tmp_path, figures, monkeypatch):
    from solver.surveys import plots

    drawn: list[Any] = []
    save = plots._save
    monkeypatch.setattr(
        plots, "_save", lambda figure, *args, **keywords: (drawn.append(figure), save(figure, *args, **keywords))
    )
    identity = SurveySpec("amazons-pysol", None, (), 2000, None, 2 * 1024**3, fewest_redeals=True).identity()
    path = tmp_path / "fewest.sqlite"
    store = Store(path, identity, requested=[(1, 30)])
    redeals = [seed % 4 * 2 for seed in range(1, 31)]  # 0, 2, 4, 6: no win of an odd count
    store.add((seed, 0, 0, 1 if seed % 5 == 0 else None, 100, 1000, 4096, count, 0) for seed, count in
              zip(range(1, 31), redeals))  # fmt: skip
    store.close()
    assert run_cli("report", str(path), "--plot", str(figures / "fewest-redeals.png"), "--dpi", "100").exit_code == 0
    beneath = drawn[0].axes[1]
    heights: dict[float, float] = {}
    for bar in beneath.patches:
        middle = bar.get_x() + bar.get_width() / 2
        heights[middle] = heights.get(middle, 0) + bar.get_height()
    assert heights == {value: redeals.count(value) for value in set(redeals)}
    assert beneath.get_xlabel() == "redeals of the win with the fewest"

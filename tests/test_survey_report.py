"""What a report says of surveys with deals left unknown (a range, not a rate), the figures it
draws in the format their names ask for, and surveys compared side by side."""

from __future__ import annotations

import csv
import io
import json
import struct
import sys
from importlib.util import find_spec
from pathlib import Path

import pytest
from helpers import SURVEY_NODES, error_line, run_cli, survey_spec, wilson_by_bisection
from hypothesis import given
from hypothesis import strategies as st

from solver.service.stats import nearest_rank, rate_range, wilson
from solver.surveys.report import summarize
from solver.surveys.row_codec import Row, encode
from solver.surveys.running import Batch, RunTally, SurveySpec
from solver.surveys.store import Store

SPEC = survey_spec()


def synthetic(path: Path, counts: dict[str, int], spec: SurveySpec = SPEC) -> list[Row]:
    """A survey file with known rows: verdicts in the order given, scores and seconds by seed
    (won deals score the game's win, Accordion's 1 pile or no card left; every seventh other deal
    reached no end, the others 1 to 5 more; seed s took s ms, and 10 s states up to the node
    limit)."""
    identity = spec.identity()
    win = spec.setup().family.win_score
    rows, seed = [], 0
    for result, count in counts.items():
        for _ in range(count):
            seed += 1
            score = win if result == "won" else (None if seed % 7 == 0 else win + 1 + seed % 5)
            rows.append(
                Row(
                    seed,
                    identity["game"],
                    identity["variant"],
                    identity["options"],
                    "AS",
                    result,
                    score,
                    int(result != "unknown"),
                    "max_nodes" if result == "unknown" else None,
                    min(10 * seed, spec.max_nodes or 10 * seed),
                    seed / 1000,
                    0,
                    "0",
                )
            )
    store = Store(path, identity, requested=[(1, seed)] if seed else ())
    store.add(encode(row) for row in rows)
    store.close()
    return rows


@pytest.fixture
def mixed(tmp_path) -> tuple[Path, list[Row]]:
    """A survey of 37 won, 50 lost and 13 unknown deals."""
    path = tmp_path / "mixed.sqlite"
    return path, synthetic(path, {"won": 37, "lost": 50, "unknown": 13})


@pytest.fixture
def decided(tmp_path) -> tuple[Path, list[Row]]:
    """A survey where every deal is decided: 26 won, 274 lost (Baroness: no threshold win)."""
    path = tmp_path / "decided.sqlite"
    return path, synthetic(path, {"won": 26, "lost": 274}, SurveySpec("baroness", None, (), 2000, None, 2 * 1024**3))


# ----------------------------------------------------------------------------- the range


def test_the_issues_example_is_a_range_from_2_to_78_percent():
    low, high = rate_range(11, 209, 300)
    assert low == pytest.approx(wilson(11, 300)[0]) and f"{100 * low:.2f}%" == "2.06%"
    assert high == pytest.approx(wilson_by_bisection(220, 300)[1], abs=1e-9) and 0.77 < high < 0.79


@given(
    st.integers(1, 2000)
    .flatmap(lambda n: st.tuples(st.just(n), st.integers(0, n)))
    .flatmap(lambda pair: st.tuples(st.just(pair[0]), st.just(pair[1]), st.integers(0, pair[0] - pair[1])))
)
def test_the_range_holds_every_rate_the_unknown_deals_allow(case):
    n, won, unknown = case
    low, high = rate_range(won, unknown, n)
    assert (low, high) == (wilson(won, n)[0], wilson(won + unknown, n)[1])
    for settled in {0, unknown // 2, unknown}:  # however the unknown deals turn out, the interval lies inside
        inner_low, inner_high = wilson(won + settled, n)
        assert low <= inner_low + 1e-12 and inner_high <= high + 1e-12
    if unknown == 0:
        assert (low, high) == wilson(won, n)


@pytest.mark.parametrize("count, share, rank", [(100, 0.99, 98), (1, 0.99, 0), (0, 0.99, 0), (1000, 0.99, 989)])
def test_nearest_rank(count, share, rank):
    assert nearest_rank(count, share) == rank


def test_summary_of_a_survey_with_unknown_deals(mixed):
    path, rows = mixed
    summary = summarize(path, slowest=3)
    assert (summary["deals"], summary["won"], summary["lost"], summary["unknown"]) == (100, 37, 50, 13)
    assert summary["win_rate_95"] == pytest.approx(list(wilson_by_bisection(37, 100)), abs=1e-9)
    assert summary["win_rate_low"] == pytest.approx(wilson_by_bisection(37, 100)[0], abs=1e-9)
    assert summary["win_rate_high"] == pytest.approx(wilson_by_bisection(50, 100)[1], abs=1e-9)
    for entry in summary["histogram"]:
        mine = [row for row in rows if row.score == entry["score"]]
        assert entry["deals"] == len(mine) == entry["won"] + entry["lost"] + entry["unknown"]
        assert entry["proven"] == sum(row.score_proven for row in mine)
        assert entry["unknown"] == sum(row.result == "unknown" for row in mine)
    assert [entry["score"] for entry in summary["histogram"]][-1] is None  # no end reached, listed last
    reached = sum(row.score is not None and row.score <= 5 for row in rows)
    open_ = sum(row.result == "unknown" and (row.score is None or row.score > 5) for row in rows)
    threshold = summary["threshold"]
    assert (threshold["deals"], threshold["undecided"]) == (reached, open_) and open_ > 0
    assert (threshold["rate_low"], threshold["rate_high"]) == rate_range(reached, open_, 100)
    assert summary["p99_seconds"] == sorted(row.seconds for row in rows)[98]
    assert summary["max_seconds"] == 0.1 and summary["mean_seconds"] == pytest.approx(0.0505)


def test_with_every_deal_decided_the_range_is_the_wilson_interval(decided):
    summary = summarize(decided[0])
    assert [summary["win_rate_low"], summary["win_rate_high"]] == summary["win_rate_95"] == list(wilson(26, 300))
    assert "threshold" not in summary and summary["scores_proven"] == 300


def test_the_text_says_why_the_rate_is_a_range(mixed, decided):
    text = run_cli("report", str(mixed[0])).stdout
    low, high = wilson_by_bisection(37, 100)[0], wilson_by_bisection(50, 100)[1]
    assert f"won: 37  win rate {100 * low:.2f}% to {100 * high:.2f}% (95% range: 13 deals unknown)" in text
    assert "Wilson lower bound of 37/100" in text and "Wilson upper bound of 50/100" in text
    assert "lost: 50  unknown: 13" in text and "sheinwold win (5 or fewer): " in text and "95% range: " in text
    assert "# proven minimum, ~ best found (13 deals not proven minimal" in text
    line = next(line for line in text.splitlines() if line.split()[:1] == ["none"])
    none = [row for row in mixed[1] if row.score is None]
    expected = sum(row.result == "unknown" for row in none)
    assert line.split()[3:5] == [str(len(none) - expected), str(expected)]  # proven, best found
    plain = run_cli("report", str(decided[0])).stdout
    low, high = wilson_by_bisection(26, 300)
    assert f"won: 26  win rate 8.67% (95% Wilson interval {100 * low:.2f}% to {100 * high:.2f}%)" in plain
    assert "range" not in plain and "proven minimum):" in plain


def test_json_carries_the_range(mixed):
    document = json.loads(run_cli("report", str(mixed[0]), "--json", "-").stdout)
    assert (document["win_rate_low"], document["win_rate_high"]) == rate_range(37, 13, 100)
    assert len(document["rows"]) == 100 and document["histogram"][0]["won"] == 37


# ----------------------------------------------------------------------------- figures

needs_matplotlib = pytest.mark.skipif(find_spec("matplotlib") is None, reason="the 'plot' extra is not installed")
MAGIC = {"png": b"\x89PNG\r\n\x1a\n", "pdf": b"%PDF-", "svg": b"<?xml"}


def _png_size(data: bytes) -> tuple[int, int]:
    return struct.unpack(">II", data[16:24])


@pytest.mark.one_engine  # figures of stored rows: the engine only made them
@needs_matplotlib
@pytest.mark.parametrize("kind", ["png", "pdf", "svg"])
def test_each_figure_is_written_in_the_format_its_name_asks_for(mixed, decided, tmp_path, kind):
    scores, cpu, rates = (tmp_path / f"{name}.{kind.upper() if kind == 'pdf' else kind}" for name in "abc")
    assert run_cli("report", str(mixed[0]), "--plot", str(scores), "--plot-cpu", str(cpu)).exit_code == 0
    assert run_cli("report", str(mixed[0]), str(decided[0]), "--plot", str(rates)).exit_code == 0
    for figure in (scores, cpu, rates):
        data = figure.read_bytes()
        assert data.startswith(MAGIC[kind]) and len(data) > 5000, figure
    again = tmp_path / f"again.{kind}"
    assert run_cli("report", str(mixed[0]), "--plot", str(again)).exit_code == 0
    assert again.read_bytes() == scores.read_bytes()  # no date, no random ids: the same survey, the same bytes
    if kind == "svg":
        assert b"<svg" in scores.read_bytes()[:1000]
        assert b"sheinwold" in scores.read_bytes().lower() or b"Sheinwold" in scores.read_bytes()


@needs_matplotlib
def test_dpi_sets_a_pngs_size(mixed, tmp_path):
    small, large = tmp_path / "small.png", tmp_path / "large.png"
    for target, dpi in ((small, "50"), (large, "100")):
        assert run_cli("report", str(mixed[0]), "--plot", str(target), "--dpi", dpi).exit_code == 0
    assert _png_size(small.read_bytes()) == (400, 225) and _png_size(large.read_bytes()) == (800, 450)


@needs_matplotlib
@pytest.mark.parametrize(
    "args, words",
    [
        (["--plot", "scores.jpg"], ["--plot", ".jpg", "PNG, PDF or SVG"]),
        (["--plot-cpu", "cpu"], ["--plot-cpu", "has none"]),
        (["--plot", "scores.png", "--dpi", "0"], ["--dpi", "0"]),
        (["--plot", "scores.svg", "--dpi", "300"], ["--dpi 300", "PNG figure"]),
        (["--dpi", "300"], ["--dpi 300", "PNG figure"]),
    ],
)
def test_refused_figures_are_refused_before_anything_is_written(mixed, tmp_path, args, words):
    before = sorted(tmp_path.iterdir())
    line = error_line(
        run_cli(
            "report",
            str(mixed[0]),
            "--csv",
            str(tmp_path / "deals.csv"),
            *[str(tmp_path / a) if "." in a or a == "cpu" else a for a in args],
        )
    )
    assert all(word in line for word in words), line
    assert sorted(tmp_path.iterdir()) == before


@pytest.mark.parametrize("option", ["--plot", "--plot-cpu"])
def test_a_figure_of_a_survey_with_no_deal_is_refused_before_anything_is_written(tmp_path, option):
    pytest.importorskip("matplotlib")
    empty = tmp_path / "e0.sqlite"
    synthetic(empty, {})
    before = sorted(tmp_path.iterdir())
    line = error_line(run_cli("report", str(empty), option, str(tmp_path / "e0.png"), "--csv", str(tmp_path / "a.csv")))
    assert line == f"patience: error: {empty}: no deal stored yet: nothing to draw; run the survey first", line
    assert sorted(tmp_path.iterdir()) == before
    both = error_line(run_cli("report", str(empty), str(empty), option, str(tmp_path / "e2.png")))
    assert both == f"patience: error: {empty}, {empty}: no deal stored yet: nothing to draw; run the survey first"
    assert sorted(tmp_path.iterdir()) == before


def test_without_matplotlib_a_figure_is_refused_in_one_line(mixed, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib now raises ImportError
    line = error_line(run_cli("report", str(mixed[0]), "--plot", str(tmp_path / "a.png")))
    assert "matplotlib" in line and "[plot]" in line and list(tmp_path.iterdir()) == [mixed[0]]


# ----------------------------------------------------------------------------- comparisons


def test_surveys_compared_side_by_side(mixed, decided):
    """Two tables numbered alike, within 80 columns: what each survey is, then what it found."""
    result = run_cli("report", str(mixed[0]), str(decided[0]))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    what, found = lines[:3], lines[4:7]
    assert what[0].split() == ["#", "survey", "rules", "limits", "deals"] and lines[3] == ""
    assert what[1].split() == [
        "1",
        str(mixed[0]),
        "accordion",
        "(parlett)",
        f"max_nodes={SURVEY_NODES}",
        "max_memory=2G",
        "100",
    ]
    assert what[2].split() == ["2", str(decided[0]), "baroness", "(baroness)", "max_nodes=2000", "max_memory=2G", "300"]
    assert found[0].split() == [
        "#",
        "won",
        "lost",
        "unknown",
        "win",
        "rate",
        "(95%",
        "range)",
        "sheinwold",
        "(95%",
        "range)",
    ]
    low, high = rate_range(37, 13, 100)
    first, second = found[1].split(), found[2].split()
    assert first[:4] == ["1", "37", "50", "13"]
    assert first[4:6] == ["37.00%", f"({100 * low:.2f}-{100 * high:.2f}%)"]  # the point rate, its range beside
    assert second[:4] == ["2", "26", "274", "0"] and second[6] == "-"  # no Sheinwold win in Baroness
    took = lines[8:11]
    assert took[0].split() == ["#", "CPU", "s", "mean", "p99", "max", "engine"] and lines[7] == ""
    assert took[1].split() == ["1", "0.0505", "0.0990", "0.1000", "python"]
    assert lines[11].startswith("rates: share found (95% range:")
    assert all(len(line) <= 80 for line in lines[3:])  # the first table is as wide as its file names


def test_options_beyond_the_variants_preset_are_named(tmp_path):
    path = tmp_path / "nearest.sqlite"
    synthetic(path, {"won": 3}, SurveySpec("parlett", None, ("nearest=yes",), 2000, None, 2 * 1024**3))
    lines = run_cli("report", str(path), str(path)).stdout.splitlines()
    assert lines[1].split()[:4] == ["1", str(path), "accordion", "(parlett;"] and "nearest=yes)" in lines[1]


def test_one_surveys_report_fits_80_columns(mixed):
    text = run_cli("report", str(mixed[0])).stdout
    assert max(len(line) for line in text.splitlines()) <= 80, text


def test_summary_csv_and_json_have_one_entry_per_survey(mixed, decided, tmp_path):
    table, document = tmp_path / "table.csv", tmp_path / "all.json"
    args = ["report", str(mixed[0]), str(decided[0]), "--summary-csv", str(table), "--json", str(document)]
    assert run_cli(*args).exit_code == 0
    rows = list(csv.DictReader(io.StringIO(table.read_text())))
    assert [(r["game"], r["deals"], r["unknown"]) for r in rows] == [
        ("accordion", "100", "13"),
        ("baroness", "300", "0"),
    ]
    assert (float(rows[0]["win_rate_low"]), float(rows[0]["win_rate_high"])) == pytest.approx(rate_range(37, 13, 100))
    assert (float(rows[1]["win_rate_low"]), float(rows[1]["win_rate_high"])) == pytest.approx(wilson(26, 300))
    assert rows[0]["threshold"] == "sheinwold" and rows[1]["threshold"] == rows[1]["threshold_rate_low"] == ""
    assert float(rows[0]["cpu_p99_seconds"]) == 0.099 and rows[0]["max_nodes"] == str(SURVEY_NODES)
    assert json.loads(rows[1]["options"]) == summarize(decided[0])["survey"]["options"]
    summaries = json.loads(document.read_text())
    assert isinstance(summaries, list) and [s["deals"] for s in summaries] == [100, 300]
    assert summaries[0]["win_rate_high"] == pytest.approx(rate_range(37, 13, 100)[1]) and "rows" not in summaries[0]
    one = list(csv.DictReader(io.StringIO(run_cli("report", str(mixed[0]), "--summary-csv", "-").stdout)))
    assert len(one) == 1 and one[0]["file"] == str(mixed[0])


def test_csv_of_several_surveys_is_their_comparison_and_of_one_its_deals(mixed, decided, tmp_path):
    several = run_cli("report", str(mixed[0]), str(decided[0]), "--csv", "-")
    assert several.exit_code == 0
    summary = run_cli("report", str(mixed[0]), str(decided[0]), "--summary-csv", "-")
    assert several.stdout == summary.stdout and len(list(csv.DictReader(io.StringIO(several.stdout)))) == 2
    deals = list(csv.DictReader(io.StringIO(run_cli("report", str(decided[0]), "--csv", "-").stdout)))
    assert len(deals) == 300 and "seed" in deals[0]


# ----------------------------------------------------------------------------- progress


def test_the_tally_counts_stored_and_new_deals_by_verdict():
    tally = RunTally(total=10, skipped_results={"won": 1, "unknown": 2})
    tally.note(Batch("0", "{}", [encode(synthetic_row("won")), encode(synthetic_row("lost"))]))
    assert [tally.stored(verdict) for verdict in ("won", "lost", "unknown")] == [2, 1, 2]
    assert (tally.skipped, tally.solved) == (3, 2)


def synthetic_row(result: str) -> Row:
    return Row(1, "g", "v", "{}", "AS", result, None, 1, None, 0, 0.0, 0, "0")


def test_the_progress_bar_shows_won_lost_and_unknown(tmp_path):
    out = tmp_path / "p.sqlite"
    args = ["survey", "parlett", "--seeds", "20-29", "--max-nodes", "5000", "--out", str(out), "--progress"]
    shown = run_cli(*args)
    assert shown.exit_code == 0
    summary = summarize(out)
    assert f"won {summary['won']} lost {summary['lost']} unknown {summary['unknown']}" in shown.stderr
    assert summary["won"] and summary["lost"] and summary["unknown"]


def test_slowest_of_several_surveys_is_refused_unless_their_json_lists_it(mixed, tmp_path):
    """The comparison table lists no deals, so --slowest there was silently ignored; each
    survey's summary in --json does list them."""
    files, before = [str(mixed[0]), str(mixed[0])], sorted(tmp_path.iterdir())
    line = error_line(run_cli("report", *files, "--slowest", "3", "--csv", str(tmp_path / "a.csv")))
    assert line.startswith("patience: error: --slowest 3 lists one survey's slowest deals"), line
    assert sorted(tmp_path.iterdir()) == before
    ran = run_cli("report", *files, "--slowest", "1", "--json", "-")
    assert ran.exit_code == 0 and [len(s["slowest"]) for s in json.loads(ran.stdout)] == [1, 1]


def test_figures_name_the_options_and_tell_every_survey_apart():
    """A figure's labels and titles name the options set beyond a preset (a Baroness of seven
    piles is not the plain preset), and two surveys never share a label: by rules, then by file
    name, then by the whole path."""
    from solver.surveys.plots import _label, _name

    def summary(file: str, variant: str, **options: object) -> dict:
        preset = {"compulsory": True, "kings_first": False, "spaces": False, "beneath": False, "piles": 5}
        survey = {"file": file, "game": "baroness", "variant": variant, "options": {**preset, **options}}
        return {"survey": survey | {"player": None}}

    seven, plain = summary("b7.sqlite", "baroness", piles=7, spaces=True), summary("b.sqlite", "baroness")
    assert _name(seven["survey"]) == "baroness (baroness; spaces=yes piles=7)"
    assert _name(plain["survey"]) == "baroness (baroness)"
    assert [_label(s, [seven, plain]) for s in (seven, plain)] == ["baroness (spaces=yes piles=7)", "baroness"]
    twins = [summary("r1/b.sqlite", "baroness"), summary("r2/c.sqlite", "baroness")]
    assert [_label(s, twins) for s in twins] == ["b", "c"]
    same_stem = [summary("r1/b.sqlite", "baroness"), summary("r2/b.sqlite", "baroness")]
    assert [_label(s, same_stem) for s in same_stem] == ["r1/b.sqlite", "r2/b.sqlite"]


def test_the_text_spells_options_as_the_command_line_takes_them_and_counts_in_the_singular(tmp_path):
    path = tmp_path / "one.sqlite"
    synthetic(path, {"won": 5, "unknown": 1})
    text = run_cli("report", str(path)).stdout
    assert "options: compulsory=yes, leap_only_without_slide=no, nearest=no, order=choice" in text, text
    assert "(95% range: 1 deal unknown)" in text and "(1 deal not proven minimal" in text

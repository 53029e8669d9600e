"""Surveys of a player (``patience survey --player``): each row is the deal as ``patience play``
plays it (won or not, the score at the end, the moves made), whatever the jobs and however often
the run is interrupted; the file is keyed on the player and its settings; every form of the report
names the player, and none says a deal it did not win cannot be won."""

from __future__ import annotations

import csv
import io
import json
import sqlite3
from pathlib import Path

import pytest
from helpers import error_line, run_cli, snapshot

import solver
from rulesets.cards import format_cards
from solver.errors import ArgumentTypeError, OptionError
from solver.service.playing import dealt, make_player, play
from solver.service.seeds import parse_seeds
from solver.service.setup import Setup
from solver.surveys.report import summarize
from solver.surveys.row_codec import STORED
from solver.surveys.running import SurveySpec, run_survey

#: Cheap deals of both kinds: a random player wins some Royal Marriage and Amazons deals and
#: loses others; the sampling player (five orders a move) loses Baroness deals and wins Amazons ones.
CASES = [
    ("royal-marriage", "random", None),
    ("amazons-pysol", "random", None),
    ("baroness", "sampling", 5),
    ("amazons-pysol", "sampling", 5),
]
SAMPLING = SurveySpec("amazons-pysol", None, (), None, None, None, player="sampling", samples=5)


def games(path: Path) -> list[tuple[object, ...]]:
    """Each stored deal's game: its key, result, score, moves made and engine."""
    return [(row.seed or row.line, row.result, row.score, row.moves, row.engine) for row in solver.load_survey(path)]


def survey(out: Path, game: str, seeds: str, *arguments: str) -> None:
    """``patience survey`` of ``seeds`` into ``out``, which must succeed."""
    ran = run_cli("survey", game, "--seeds", seeds, "--out", str(out), "--no-progress", *arguments)
    assert ran.exit_code == 0, ran.output


def player_arguments(player: str, samples: int | None) -> tuple[str, ...]:
    return ("--player", player, *(() if samples is None else ("--samples", str(samples))))


@pytest.mark.parametrize(("game", "player", "samples"), CASES)
def test_each_row_is_the_game_play_plays(tmp_path, game, player, samples):
    out = tmp_path / "s.sqlite"
    survey(out, game, "1-4", *player_arguments(player, samples))
    setup = Setup.of(game, None, [])
    expected = []
    for seed in range(1, 5):
        played = play(setup, dealt(setup, setup.deal(seed=seed), seed), make_player(player, samples))
        expected.append((seed, "won" if played.won else "lost", played.score, len(played.moves), played.engine()))
    assert games(out) == expected
    ran = run_cli("play", game, "--seed", "1", *player_arguments(player, samples), "--json")
    record = json.loads(ran.output)
    first = next(iter(solver.load_survey(out)))
    assert (first.result == "won", first.score, first.moves, first.engine) == (
        record["won"],
        record["score"],
        len(record["moves"]),
        record["engine"],
    )
    assert json.loads(first.player_settings or "") == record["settings"]


def test_two_jobs_store_the_games_one_job_stores(tmp_path):
    one, two = tmp_path / "one.sqlite", tmp_path / "two.sqlite"
    assert run_survey(SAMPLING, parse_seeds("1-8"), one, jobs=1).solved == 8
    assert run_survey(SAMPLING, parse_seeds("1-8"), two, jobs=2).solved == 8
    assert games(two) == games(one)


def test_an_interrupted_survey_of_a_player_loses_nothing(tmp_path):
    whole, cut = tmp_path / "whole.sqlite", tmp_path / "cut.sqlite"
    run_survey(SAMPLING, parse_seeds("1-8"), whole)
    shown = []

    def interrupt(tally):
        shown.append(tally.solved)
        if len(shown) == 2:  # the first is the count before any deal; then the first batch
            raise KeyboardInterrupt

    tally = run_survey(SAMPLING, parse_seeds("1-8"), cut, on_progress=interrupt)
    kept = games(cut)
    assert tally.interrupted and 0 < len(kept) < 8 and kept == games(whole)[: len(kept)]
    again = run_survey(SAMPLING, parse_seeds("1-8"), cut)
    assert (again.skipped, again.solved) == (len(kept), 8 - len(kept))
    assert games(cut) == games(whole)


def test_a_file_of_deals_is_played_deal_by_deal(tmp_path):
    setup = Setup.of("royal-marriage", None, [])
    deals = [format_cards(setup.deal(seed=seed)) for seed in (3, 5)]
    (tmp_path / "deals.txt").write_text("# two deals\n" + "\n".join(deals) + "\n")
    out = tmp_path / "s.sqlite"
    ran = run_cli(
        "survey", "royal-marriage", "--file", str(tmp_path / "deals.txt"), "--out", str(out), "--player", "random"
    )
    assert ran.exit_code == 0, ran.output
    expected = []
    for line, deal in zip((2, 3), deals):
        played = play(setup, dealt(setup, setup.deal(text=deal)), make_player("random"))
        expected.append((line, "won" if played.won else "lost", played.score, len(played.moves), None))
    assert games(out) == expected


@pytest.mark.one_engine
@pytest.mark.parametrize(
    ("first", "then", "named"),
    [
        (
            ("--player", "sampling", "--samples", "5"),
            ("--player", "random"),
            "player: file has sampling, this run random",
        ),
        (
            ("--player", "sampling", "--samples", "5"),
            ("--player", "sampling", "--samples", "6"),
            'player_settings: file has {"samples": 5, "rng_seed": 1}, this run {"samples": 6, "rng_seed": 1}',
        ),
        (
            ("--player", "random"),
            ("--player", "random", "--rng-seed", "2"),
            'player_settings: file has {"rng_seed": 1}, this run {"rng_seed": 2}',
        ),
        (
            ("--player", "random"),
            (),
            "holds the games of player random (rng_seed 1) and this run surveys which deals can be won",
        ),
        (
            (),
            ("--player", "random"),
            "holds which deals can be won and this run surveys the games of player random (rng_seed 1)",
        ),
    ],
)
def test_a_run_of_another_player_or_settings_is_refused_the_file_untouched(tmp_path, first, then, named):
    out = tmp_path / "s.sqlite"
    survey(out, "amazons-pysol", "1-3", *first)
    before = snapshot(tmp_path)
    line = error_line(run_cli("survey", "amazons-pysol", "--seeds", "1-4", "--out", str(out), *then))
    assert named in line and line.endswith("give another --out")
    assert snapshot(tmp_path) == before


#: Surveys of Parlett's deals 1-3 by the random and the careful player (survey-0.7.0-PLAYER.sqlite),
#: made before the draws were named (their generator an LCG, the seeds' streams related).
DATA = Path(__file__).parent / "data"


@pytest.mark.one_engine
def test_a_player_that_drew_by_the_earlier_generator_is_not_resumed(tmp_path):
    """The random player's games of an older file came from the earlier generator: the same seed
    now plays others, so a run is refused, in one line saying why, the file untouched; it still
    opens in a report. A survey made now names its draws, and resumes."""
    older = tmp_path / "random.sqlite"
    older.write_bytes((DATA / "survey-0.7.0-random.sqlite").read_bytes())
    before = snapshot(tmp_path)
    line = error_line(run_cli("survey", "parlett", "--seeds", "1-6", "--out", str(older), "--player", "random"))
    assert "holds the games of player random (rng_seed 1) drawn by an earlier generator" in line
    assert "this version draws by splitmix64" in line and "give another --out" in line
    assert snapshot(tmp_path) == before
    assert [row.seed for row in solver.load_survey(older)] == [1, 2, 3]
    made = tmp_path / "made.sqlite"
    survey(made, "parlett", "1-3", "--player", "random")
    with sqlite3.connect(made) as db:
        assert db.execute("SELECT value FROM survey WHERE key = 'draws'").fetchall() == [("splitmix64",)]
    survey(made, "parlett", "1-6", "--player", "random")


@pytest.mark.one_engine
def test_a_player_that_draws_nothing_resumes_an_older_file(tmp_path):
    """The careful player draws nothing on a deal: an older file of its games carries on, its
    stored games kept and the new ones those ``play`` plays."""
    older = tmp_path / "careful.sqlite"
    older.write_bytes((DATA / "survey-0.7.0-careful.sqlite").read_bytes())
    stored = games(older)
    survey(older, "parlett", "1-6", "--player", "careful")
    setup = Setup.of("parlett")
    expected = []
    for seed in range(1, 7):
        played = play(setup, dealt(setup, setup.deal(seed=seed), seed), make_player("careful"))
        expected.append((seed, "won" if played.won else "lost", played.score, len(played.moves), None))
    assert games(older)[:3] == stored and games(older) == expected


@pytest.mark.one_engine
def test_a_survey_of_solvability_keeps_the_format_files_before_players_had(tmp_path):
    """No player's setting nor column: files written before players were surveyed are of the
    same format, read and resumed as they are."""
    out = tmp_path / "s.sqlite"
    survey(out, "amazons-pysol", "1-2")
    with sqlite3.connect(out) as db:
        settings = {key for (key,) in db.execute("SELECT key FROM survey")}
        columns = [name for (name,) in db.execute("SELECT name FROM pragma_table_info('deals')")]
    assert not settings & {"player", "player_settings"} and columns == ["seed", *STORED]
    survey(out, "amazons-pysol", "1-3")
    assert [row.moves for row in solver.load_survey(out)] == [None] * 3


@pytest.mark.one_engine
@pytest.mark.parametrize(
    ("arguments", "named"),
    [
        (("--player", "nobody"), "no player 'nobody'"),
        (("--player", "sampling", "--samples", "0"), "(--samples) must be from 1"),
        (("--samples", "5"), "--samples sets a player's draws, and no --player was given"),
        (("--player", "random", "--samples", "5"), "the random player draws none"),
        (("--rng-seed", "2"), "--rng-seed sets a player's draws, and no --player was given"),
        (("--player", "random", "--max-nodes", "1000"), "leave out --max-nodes"),
        (("--player", "random", "--max-seconds", "1"), "leave out --max-seconds"),
        (("--player", "careful", "--max-memory", "1G"), "leave out --max-memory"),
        (("--player", "sampling", "--fewest-redeals"), "leave out --fewest-redeals"),
    ],
)
def test_bad_player_settings_are_refused_before_a_file_is_made(tmp_path, arguments, named):
    line = error_line(
        run_cli("survey", "amazons-pysol", "--seeds", "1-3", "--out", str(tmp_path / "s.sqlite"), *arguments)
    )
    assert named in line
    assert not list(tmp_path.iterdir())


@pytest.fixture
def pair(tmp_path) -> tuple[Path, Path]:
    """A random player's survey of Royal Marriage seeds 1-6 (won and lost), and one of which of
    the same deals can be won."""
    played, solvable = tmp_path / "played.sqlite", tmp_path / "solvable.sqlite"
    survey(played, "royal-marriage", "1-6", "--player", "random")
    survey(solvable, "royal-marriage", "1-6")
    assert {row.result for row in solver.load_survey(played)} == {"won", "lost"}
    return played, solvable


def test_the_report_names_the_player_in_text_json_and_csv(pair):
    played, _ = pair
    rows = list(solver.load_survey(played))
    won = sum(row.result == "won" for row in rows)
    text = run_cli("report", str(played)).output
    assert "player: random (rng_seed 1)" in text.splitlines()
    assert f"won by the player: {won}  win rate" in text and f"not won by the player: {6 - won}" in text
    assert "cannot" not in text and "lost" not in text and "nodes" not in text and "limits" not in text
    summary = json.loads(run_cli("report", str(played), "--json", "-").output)
    assert summary["survey"]["player"] == {"name": "random", "settings": {"rng_seed": 1}}
    assert (summary["won"], summary["lost"], summary["unknown"], summary["nodes"]) == (won, 6 - won, 0, None)
    assert [row["moves"] for row in summary["rows"]] == [row.moves for row in rows]
    assert all("nodes" not in row and "score_proven" not in row for row in summary["rows"])
    deals = list(csv.DictReader(io.StringIO(run_cli("report", str(played), "--csv", "-").output)))
    assert list(deals[0]) == ["seed", "result", "score", "moves", "seconds", "engine"]
    assert [int(row["moves"]) for row in deals] == [row.moves for row in rows]
    (line,) = csv.DictReader(io.StringIO(run_cli("report", str(played), "--summary-csv", "-").output))
    assert (line["player"], line["player_settings"], line["max_nodes"]) == ("random", '{"rng_seed": 1}', "")


def test_the_comparison_keeps_a_players_survey_apart_from_solvability(pair):
    played, solvable = pair
    table = run_cli("report", str(solvable), str(played)).output.splitlines()
    assert "limits or player" in table[0]
    assert "max_memory=2G" in table[1] and "player random" not in table[1]
    assert "player random (rng_seed 1)" in table[2]
    several = json.loads(run_cli("report", str(solvable), str(played), "--json", "-").output)
    assert [summary["survey"]["player"] for summary in several] == [
        None,
        {"name": "random", "settings": {"rng_seed": 1}},
    ]
    lines = list(csv.DictReader(io.StringIO(run_cli("report", str(solvable), str(played), "--csv", "-").output)))
    assert [line["player"] for line in lines] == ["", "random"]


def test_the_figures_name_the_player(pair, tmp_path):
    """Drawn with their text kept as text, the figures' titles and legends name the player and
    say won or not won by it; beside a survey of solvability its label is its own."""
    matplotlib = pytest.importorskip("matplotlib")
    from solver.surveys.plots import _label, plot_cpu, plot_scores

    played, solvable = pair
    summaries = [summarize(solvable), summarize(played)]
    with matplotlib.rc_context({"svg.fonttype": "none"}):
        plot_scores(summaries[1], str(tmp_path / "scores.svg"), 100)
        plot_cpu([played], summaries[1:], str(tmp_path / "cpu.svg"), dpi=100)
    for figure in ("scores.svg", "cpu.svg"):
        drawn = (tmp_path / figure).read_text()
        assert "player random (rng_seed 1)" in drawn and "not won by the player" in drawn, figure
        assert "proven" not in drawn and "cannot" not in drawn, figure
    assert [_label(summary, summaries) for summary in summaries] == [
        "royal-marriage",
        "royal-marriage, player random (rng_seed 1)",
    ]


@pytest.mark.one_engine
@pytest.mark.parametrize(
    ("change", "named"),
    [
        ("UPDATE deals SET nodes = 5 WHERE seed = 1", "has nodes 5 where a player's game counts no search"),
        ("UPDATE deals SET peak_table_bytes = 4096 WHERE seed = 1", "has peak_table_bytes 4096 where"),
        ("UPDATE deals SET engine = 1 WHERE seed = 1", "has engine 1 where the random player searches nothing"),
        ("UPDATE deals SET score = 4 WHERE verdict = 0", "has score 4 where a won deal scores 2"),
        ("UPDATE deals SET verdict = 2 WHERE seed = 1", "has limit_hit None"),
    ],
)
def test_a_player_row_no_game_gives_is_refused_as_damaged(pair, change, named):
    played, _ = pair
    with sqlite3.connect(played) as db:
        db.execute(change)
    db.close()
    line = error_line(run_cli("report", str(played)))
    assert "the file is damaged" in line and named in line


def test_the_python_api_surveys_a_player_as_the_command_line_does(tmp_path):
    made = tmp_path / "api.sqlite"
    tally = solver.survey("amazons-pysol", "1-3", made, player="sampling", samples=5)
    assert tally.solved == 3
    rows = list(solver.load_survey(made))
    assert {(row.player, row.player_settings, row.nodes) for row in rows} == {
        ("sampling", '{"samples": 5, "rng_seed": 1}', None)
    }
    survey(made, "amazons-pysol", "1-4", "--player", "sampling", "--samples", "5")  # the command line resumes it
    by_cli = tmp_path / "cli.sqlite"
    survey(by_cli, "amazons-pysol", "1-4", "--player", "sampling", "--samples", "5")
    assert games(made) == games(by_cli)


@pytest.mark.one_engine
def test_the_python_api_refuses_a_players_bad_settings(tmp_path):
    out = tmp_path / "s.sqlite"
    with pytest.raises(OptionError, match="leave out --max-nodes"):
        solver.survey("amazons-pysol", "1-3", out, player="random", max_nodes=1000)
    with pytest.raises(OptionError, match="no --player was given"):
        solver.survey("amazons-pysol", "1-3", out, samples=5)
    with pytest.raises(ArgumentTypeError, match="player must be"):
        solver.survey("amazons-pysol", "1-3", out, player=3)  # type: ignore[arg-type]
    assert not out.exists()

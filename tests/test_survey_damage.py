"""A row no play can produce is damage (issue 35): a stored score outside what the game allows (53
cards left of 52, no Accordion pile at all), a verdict its score denies (a deal "won" with cards
left, one lost at a win's score), a table peak above the survey's own --max-memory bound, more
states than its --max-nodes, a limit it does not set named as hit. SQLite's checks and the checks
of what a row may hold at all pass these; `report` and a resumed `survey` refuse them as damaged,
in one line naming the deal and the value (exit code 2), the file left byte for byte as it was.

Each game's range comes from its family: from ``win_score`` (0 cards left, Accordion's 1 pile,
Royal Marriage's 2 end cards) to the deck's size (52; Amazons' 28), whatever the deals surveyed.
"""

from __future__ import annotations

import re
import shutil
import sqlite3
import tempfile
from pathlib import Path
from typing import Any, NamedTuple

import pytest
from helpers import SURVEY_GAME, SURVEY_NODES, SURVEY_VARIANT, error_line, run_cli, snapshot, survey_deal_file
from hypothesis import given
from hypothesis import strategies as st

import solver
from solver.errors import UserError
from solver.service.deal_file import read_deal_file
from solver.service.seeds import parse_seeds
from solver.surveys.running import SurveySpec, run_survey


class Survey(NamedTuple):
    """A small survey run on the test's engine: its file, and the arguments that resume it."""

    path: Path
    game: str
    win: int  # the family's win_score
    deck: int  # the cards of the family's deck
    max_memory: int
    max_nodes: int | None
    resume: list[str]


#: The surveys altered: Accordion (piles, the win 1), Amazons (cards left of 28, under the least
#: memory bound a run takes), Royal Marriage (cards left, the win 2, no node limit: its deals
#: 1-12 are decided within 2,000 states), and Accordion of a file of deals (keyed by line).
_SURVEYS: dict[str, tuple[str, str | None, int, int | None, str]] = {
    "accordion": (SURVEY_GAME, SURVEY_VARIANT, 2 * 1024**3, SURVEY_NODES, "1-30"),
    "amazons": ("amazons", None, 64 * 1024, SURVEY_NODES, "1-12"),
    "royal-marriage": ("royal-marriage", None, 2 * 1024**3, None, "1-12"),
    "file": (SURVEY_GAME, SURVEY_VARIANT, 2 * 1024**3, SURVEY_NODES, "deals.txt"),
}


@pytest.fixture(scope="module")
def surveys(tmp_path_factory, engine) -> dict[str, Survey]:
    """Each of :data:`_SURVEYS` run once on the test's engine, and found whole: what real runs
    store, a peak under the least bound among it, is never refused."""
    from rulesets import find_game

    directory = tmp_path_factory.mktemp("surveys")
    made = {}
    for name, (game, variant, memory, nodes, seeds) in _SURVEYS.items():
        out = directory / f"{name}.sqlite"
        spec = SurveySpec(game, variant, (), nodes, None, memory)
        given: list[str]
        if name == "file":
            deals = survey_deal_file(directory / seeds, range(1, 6))
            run_survey(spec, read_deal_file(spec.setup(), str(deals)), out)
            given = ["--file", str(deals)]
        else:
            run_survey(spec, parse_seeds(seeds), out)
            given = ["--seeds", seeds]
        family = find_game(game)[0]
        resume = ["survey", game, *(["--variant", variant] if variant else []), *given]
        resume += [*(["--max-nodes", str(nodes)] if nodes else []), "--max-memory", str(memory), "--out", str(out)]
        made[name] = Survey(out, game, family.win_score, len(family.deck()), memory, nodes, resume)
        assert len(solver.load_survey(out)) > 0
    return made


def _first(path: Path, where: str) -> int:
    """The key (seed or line) of the first stored deal ``where`` holds."""
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        key = "line" if db.execute("SELECT value FROM survey WHERE key = 'key'").fetchone() else "seed"
        found = db.execute(f"SELECT {key} FROM deals WHERE {where} ORDER BY {key} LIMIT 1").fetchone()
    db.close()
    assert found is not None, f"the survey holds no deal where {where}"
    return int(found[0])


WON, LOST, UNKNOWN, NOT_WON = "verdict = 0", "verdict = 1", "verdict = 2", "verdict != 0"


@pytest.mark.parametrize(
    "survey, where, change, what",
    [
        # 53 cards (or piles) left of 52
        ("accordion", LOST, "score = 53", "has score 53 where accordion's score runs from 1 to 52 piles"),
        ("file", NOT_WON, "score = 53", "has score 53 where accordion's score runs from 1 to 52 piles"),
        ("amazons", UNKNOWN, "score = 29", "has score 29 where amazons' score runs from 0 to 28 cards left"),
        ("royal-marriage", LOST, "score = 53", "has score 53"),
        # no pile at all in Accordion; fewer than Royal Marriage's two end cards
        ("accordion", LOST, "score = 0", "has score 0 where accordion's score runs from 1 to 52 piles"),
        ("royal-marriage", LOST, "score = 1", "has score 1 where royal-marriage's score runs from 2 to 52"),
        # won with cards left, or with more than one pile
        ("accordion", WON, "score = 3", "has score 3 where a won deal scores 1"),
        ("amazons", WON, "score = 1", "has score 1 where a won deal scores 0"),
        ("royal-marriage", WON, "score = 4", "has score 4 where a won deal scores 2"),
        ("accordion", WON, "score = NULL", "has score None where a won deal scores 1"),
        # lost or unknown at a win's score
        ("accordion", LOST, "score = 1", "has score 1 where a deal not won scores more than 1"),
        ("accordion", UNKNOWN, "score = 1", "has score 1 where a deal not won scores more than 1"),
        ("amazons", UNKNOWN, "score = 0", "has score 0 where a deal not won scores more than 0"),
        # a table above the survey's own memory bound
        (
            "accordion",
            LOST,
            f"peak_table_bytes = {2 * 1024**3 + 1}",
            f"has peak_table_bytes {2 * 1024**3 + 1} where the survey's max_memory is {2 * 1024**3}",
        ),
        ("amazons", UNKNOWN, "peak_table_bytes = 65537", "has peak_table_bytes 65537 where the survey's max_memory is"),
        # more states than the node limit; a limit the survey does not set named as hit
        ("accordion", UNKNOWN, "nodes = 2001", "has nodes 2001 where the survey's max_nodes is 2000"),
        ("accordion", UNKNOWN, "limit_hit = 2", "has limit_hit 2 where the survey sets no max_seconds"),
        ("royal-marriage", LOST, "verdict = 2, limit_hit = 1", "has limit_hit 1 where the survey sets no max_nodes"),
    ],
)
def test_a_row_no_play_can_produce_is_refused_as_damaged(surveys, tmp_path, survey, where, change, what):
    """By `report`, its JSON, a resumed `survey` and the Python API alike, in one line naming the
    deal and the value, the file left byte for byte (each exited 0, the row believed)."""
    made = surveys[survey]
    altered = tmp_path / made.path.name
    shutil.copy(made.path, altered)
    key = _first(altered, where)
    name = "line" if survey == "file" else "seed"
    with sqlite3.connect(altered, isolation_level=None) as db:
        db.execute(f"UPDATE deals SET {change} WHERE {name} = ?", (key,))
    db.close()
    before = snapshot(tmp_path)
    resume = [str(altered) if part == str(made.path) else part for part in made.resume]
    for args in (["report", str(altered)], ["report", str(altered), "--json", "-"], resume):
        message = error_line(run_cli(*args))
        assert message.startswith(f"patience: error: {altered}: the file is damaged (the deal of {name} {key} "), (
            message
        )
        assert what in message and "which no survey writes" in message, message
    with pytest.raises(UserError, match=f"damaged .the deal of {name} {key} "):
        solver.load_survey(altered).summary()
    assert snapshot(tmp_path) == before


def test_the_bounds_themselves_are_accepted(surveys, tmp_path):
    """The range is the deck's whatever the deal: 52 piles left and a peak of exactly the bound
    are what a run may store."""
    made = surveys["accordion"]
    altered = tmp_path / made.path.name
    shutil.copy(made.path, altered)
    with sqlite3.connect(altered, isolation_level=None) as db:
        db.execute(f"UPDATE deals SET score = 52 WHERE seed = {_first(altered, LOST)}")
        db.execute(f"UPDATE deals SET peak_table_bytes = {made.max_memory} WHERE seed = {_first(altered, WON)}")
    db.close()
    assert run_cli("report", str(altered)).exit_code == 0


class _Oracle(NamedTuple):
    """What the rules say of a row's verdict, score and peak: the values of it no play produces."""

    win: int
    deck: int
    max_memory: int
    max_nodes: int | None

    def impossible(self, verdict: int, score: int | None, peak: int, nodes: int) -> list[str]:
        found = []
        if score is not None and not self.win <= score <= self.deck:
            found.append(f"score {score}")
        elif verdict == 0 and score != self.win or verdict != 0 and score == self.win:
            found.append(f"score {score}")
        if peak > self.max_memory:
            found.append(f"peak_table_bytes {peak}")
        if self.max_nodes is not None and nodes > self.max_nodes:
            found.append(f"nodes {nodes}")
        return found


@pytest.mark.one_engine  # the store's check of rows against the rules: no search
@pytest.mark.parametrize("survey", ["accordion", "amazons", "royal-marriage"])
@given(data=st.data())
def test_a_row_is_refused_exactly_when_no_play_produces_it(surveys, survey, data):
    """Rows altered at random, within what a row may hold at all (won or lost, no limit named):
    refused as damaged exactly when the score lies outside the game's range, the verdict denies the
    score, or the peak or the states pass the survey's bound; else read as stored."""
    made = surveys[survey]
    oracle = _Oracle(made.win, made.deck, made.max_memory, made.max_nodes)
    with sqlite3.connect(f"file:{made.path}?mode=ro", uri=True) as db:
        seeds = [seed for (seed,) in db.execute("SELECT seed FROM deals WHERE limit_hit IS NULL ORDER BY seed")]
    db.close()
    seed = data.draw(st.sampled_from(seeds), label="seed")
    verdict = data.draw(st.sampled_from([0, 1]), label="verdict")
    near = st.integers(made.win - 2, made.deck + 2)
    score = data.draw(st.one_of(st.none(), near, st.integers(0, 65535)), label="score")
    bound = made.max_memory
    peak = data.draw(st.one_of(st.integers(0, 2 * bound), st.integers(bound - 2, bound + 2)), label="peak")
    nodes = data.draw(st.integers(1, 2 * (made.max_nodes or SURVEY_NODES)), label="nodes")
    with tempfile.TemporaryDirectory() as directory:
        altered = Path(directory) / "s.sqlite"
        shutil.copy(made.path, altered)
        with sqlite3.connect(altered, isolation_level=None) as db:
            db.execute(
                "UPDATE deals SET verdict = ?, score = ?, peak_table_bytes = ?, nodes = ? WHERE seed = ?",
                (verdict, score, peak, nodes, seed),
            )
        db.close()
        before = altered.read_bytes()
        expected = oracle.impossible(verdict, score, peak, nodes)
        refused: Any = None
        try:
            solver.load_survey(altered).summary()
        except UserError as error:
            refused = str(error)
        assert altered.read_bytes() == before
    if not expected:
        assert refused is None, (verdict, score, peak, nodes, refused)
    else:
        assert refused is not None and f"the deal of seed {seed} has " in refused, (expected, refused)
        assert any(re.search(rf"has {re.escape(value)}\b", refused) for value in expected), (expected, refused)

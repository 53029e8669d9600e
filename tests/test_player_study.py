"""The sampling player against the best possible one (benchmarks/player_study.py measures it on
larger positions): where few cards lie face down it plays by the exact chance, so its win rate
over every order of them is the best chance itself, and no lower than the random player's."""

import pytest
from helpers import load_benchmark

from solver import players
from solver.chance import orders, unseen
from solver.engine import engine_of
from solver.result import Limits
from solver.service.playing import make_player
from solver.service.setup import Setup

STUDY = load_benchmark("player_study")


def test_the_sampling_player_wins_the_best_chance_where_it_plays_by_it() -> None:
    """The study's first position (Parlett from a 12-card deck, four cards face down): every one
    of the 24 orders played, each by a fresh player with the same seed. It is a position where
    the switch matters: ten sampled orders a move alone win less."""
    entry = STUDY.POSITIONS[0]
    setup = Setup.of(entry.preset)
    position = setup.concealed(entry.text)
    assert position.hidden == 4 <= players.EXACT_HIDDEN
    drawn = orders(unseen(setup.legal, position), 24, 1)
    assert drawn.exact and drawn.total() == 24
    chance = engine_of(setup.legal, setup.game).best_chance(position, limits=Limits()).chance
    assert chance is not None and 0 < chance < 1
    sampling = STUDY.played_rate(setup, position, drawn, lambda: make_player("sampling", 10, 1))
    random = STUDY.played_rate(setup, position, drawn, lambda: make_player("random", None, 1))
    assert sampling.share == pytest.approx(chance, abs=1e-12)
    assert sampling.share >= random.share
    with STUDY.exact_switch_off():
        sampled = STUDY.played_rate(setup, position, drawn, lambda: make_player("sampling", 10, 1))
    assert sampled.share < chance


@pytest.mark.one_engine
def test_the_study_aborts_on_a_player_above_the_best_chance() -> None:
    """Its invariants are checked, not just printed: every order played, a rate above the chance
    stops the run with the position named."""
    entry = STUDY.POSITIONS[0]
    drawn = orders(range(4), 24, 1)
    above = STUDY.Rate(won=5, played=24, every=True)
    rates = {column.heading: above for column in STUDY.COLUMNS}
    row = STUDY.Row(
        position=entry,
        hidden=4,
        drawn=drawn,
        chance=4 / 24,
        clairvoyant=STUDY.Rate(won=7, played=24, every=True),
        rates=rates,
        engine="python",
        seconds=0.0,
    )
    with pytest.raises(SystemExit, match=entry.label):
        STUDY.check(row)

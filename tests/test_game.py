"""solver.Game, the board to play on from Python: its moves print in the notation and read back,
play and undo walk a line and back, and its answers are the batch calls' (the same services, so
the same engine) for the position reached."""

from __future__ import annotations

import copy
import doctest
import random

import pytest
from helpers import run_cli

import solver
import solver.board
from rulesets import families
from solver.errors import ArgumentTypeError, MoveError, UserError

PRESETS = [variant.name for family in families().values() for variant in family.variants]


def _walk(game: solver.Game, rng: random.Random, steps: int) -> None:
    """Play up to ``steps`` random legal moves, checking at each position that every legal move
    prints in the notation and is read back from it as itself."""
    for _ in range(steps):
        moves = game.legal_moves
        for move in moves:
            assert game.parse_move(str(move)) == move and str(move) == move.text
        if not moves:
            assert game.is_over()
            return
        assert not game.is_over()
        game.play(rng.choice(moves))


@pytest.mark.parametrize("preset", PRESETS)
def test_moves_print_in_the_notation_and_read_back_along_random_play(preset: str) -> None:
    rng = random.Random(preset)
    game = solver.Game(preset, seed=rng.randint(1, 10**6))
    _walk(game, rng, 40)
    setup = game._setup
    assert [m.value for m in game.legal_moves] == list(setup.legal.moves(game.state))  # every legal move
    assert game.variant == preset and game.name == setup.family.name


@pytest.mark.parametrize(
    "preset", ["accordion", "parlett", "baroness-pysol", "thirteens", "amazons", "nizhni-novgorod"]
)
def test_undo_takes_play_back_to_each_earlier_position(preset: str) -> None:
    rng = random.Random(7)
    game = solver.Game(preset, seed=11)
    positions = [game.position]
    played = []
    for _ in range(25):
        if game.is_over():
            break
        played.append(game.play(rng.choice(game.legal_moves)))
        positions.append(game.position)
    assert game.moves == played
    while game.moves:
        positions.pop()
        assert game.undo() == played.pop()
        assert game.position == positions[-1]
    with pytest.raises(IndexError, match="no move to undo"):
        game.undo()


COPIES = {"copy.copy": copy.copy, "copy.deepcopy": copy.deepcopy, "Game.copy": solver.Game.copy}


@pytest.mark.parametrize("how", COPIES)
@pytest.mark.parametrize("preset", [variant for info in solver.games() for variant in info.variants])
def test_a_copy_plays_and_undoes_apart_from_its_original(preset: str, how: str) -> None:
    """copy.copy and copy.deepcopy give an independent game, as copy() does: a move played or
    taken back on either side leaves the other where it was."""
    rng = random.Random(preset)
    game = solver.Game(preset, seed=rng.randint(1, 10**6))
    first = game.play(rng.choice(game.legal_moves))
    there = game.position
    twin = COPIES[how](game)
    assert type(twin) is solver.Game and (twin.moves, twin.position) == ([first], there)
    ahead = twin.play(rng.choice(twin.legal_moves))
    assert (game.moves, game.position) == ([first], there)  # the copy's move is not the original's
    assert game.undo() == first and twin.moves == [first, ahead]  # nor the original's undo the copy's
    other = game.play(rng.choice(game.legal_moves))
    assert twin.undo() == ahead and (twin.moves, twin.position) == ([first], there)
    assert game.moves == [other] and twin.undo() == first and game.moves == [other]


def test_an_illegal_move_is_refused_and_nothing_changes() -> None:
    game = solver.Game("baroness", seed=3)
    before = game.position
    with pytest.raises(MoveError, match="not legal in this position") as refused:
        game.play("discard KD")  # KD is in the stock
    assert isinstance(refused.value, UserError) and game.position == before and game.moves == []
    with pytest.raises(MoveError, match="cannot read move"):
        game.play("frobnicate")
    elsewhere = solver.Game("baroness", seed=4).legal_moves[0]
    if elsewhere not in game.legal_moves:
        with pytest.raises(MoveError):
            game.play(elsewhere)
    with pytest.raises(ArgumentTypeError, match="a move must be a Move or its text"):
        game.play(3)  # type: ignore[arg-type]
    assert game.position == before


def test_replay_plays_a_solution_and_leaves_the_game_as_it_was_if_a_move_fails() -> None:
    game = solver.Game("accordion", seed=7)
    solution = game.solve().solution
    assert solution is not None
    ahead = game.copy()
    ahead.replay(solution[:5])
    wrong = next(text for text in solution[6:] if text not in map(str, ahead.legal_moves))
    broken = [*solution[:5], wrong, *solution[5:]]
    with pytest.raises(MoveError, match="^move 6 of the line: "):
        game.replay(broken)
    assert game.moves == [] and game.position == solver.Game("accordion", seed=7).position
    played = game.replay(solution)
    assert [str(move) for move in played] == solution
    assert game.is_won() and game.is_over() and game.score == 1
    assert repr(game) == "<Game accordion (accordion), seed 7: 51 moves played, won, piles 1>"


@pytest.mark.parametrize("preset, seed", [("accordion", 7), ("parlett", 2), ("baroness", 3), ("amazons-pysol", 1)])
def test_solve_and_hint_from_where_play_stands_are_the_batch_calls(preset: str, seed: int, engine: str) -> None:
    game = solver.Game(preset, seed=seed)
    fresh = game.solve(max_nodes=20_000).record()
    batch = solver.solve(preset, seed=seed, max_nodes=20_000).record()
    assert {**fresh, "seconds": 0} == {**batch, "seconds": 0}  # the seed and deal are named, as solve's
    rng = random.Random(seed)
    for _ in range(4):
        if not game.is_over():
            game.play(rng.choice(game.legal_moves))
    later = game.solve(max_nodes=20_000).record()
    again = solver.solve(preset, position=game.position, max_nodes=20_000).record()
    assert {**later, "seconds": 0} == {**again, "seconds": 0} and later["seed"] is None
    assert game.hint(max_nodes=2_000) == solver.hint(preset, position=game.position, max_nodes=2_000)


def test_solve_and_hint_go_through_the_service_layer(monkeypatch: pytest.MonkeyPatch, engine: str) -> None:
    """The same services as the command line, so the same engine (compiled where it is built)."""
    import solver.service.hinting
    import solver.service.solving

    calls: list[str] = []
    real_solve, real_hints = solver.service.solving.solve_from, solver.service.hinting.hints

    def solve_from(*args, **kwargs):
        calls.append("solve_from")
        return real_solve(*args, **kwargs)

    def hints(*args, **kwargs):
        calls.append("hints")
        return real_hints(*args, **kwargs)

    monkeypatch.setattr(solver.service.solving, "solve_from", solve_from)
    monkeypatch.setattr(solver.service.hinting, "hints", hints)
    game = solver.Game("accordion", seed=7)
    solved = game.solve()
    game.hint(max_nodes=1000)
    assert calls == ["solve_from", "hints"]
    assert solved.engine == engine == solved.record()["engine"]  # Accordion has a compiled kernel


def test_the_picture_is_what_solve_show_draws() -> None:
    game = solver.Game("baroness", seed=3)
    shown = run_cli("solve", "baroness", "--seed", "3", "--show", "--max-nodes", "10").stdout.splitlines()
    first = shown.index(next(line for line in shown if line.startswith("       ")))
    block = [
        line[7:] for line in shown[first:] if line.startswith("       ") and not line.startswith("       position:")
    ]
    assert str(game).splitlines() == block[: len(str(game).splitlines())]
    game.play("discard KC")
    assert "*pile 1: -" in str(game)  # the place the last move changed is marked


def test_the_board_in_a_notebook_is_the_replay_pages_table() -> None:
    game = solver.Game("amazons", seed=1)
    board = game._repr_html_()
    assert board.count('class="place') == sum(len(row) for row in game._rules.picture(game.state).rows)
    assert 'data-label="stock" data-cards="" data-face-down="24"' in board
    assert "<script" not in board and "https://" not in board.replace("http://www.w3.org/2000/svg", "")
    assert game.position in board  # the position under it, to copy


def test_the_arguments_are_checked_as_solves_are() -> None:
    with pytest.raises(ArgumentTypeError, match="seed must be a whole number"):
        solver.Game("accordion", seed="7")  # type: ignore[arg-type]
    with pytest.raises(UserError, match="give exactly one of seed, deal or position"):
        solver.Game("accordion")
    with pytest.raises(UserError, match="did you mean 'baroness'"):
        solver.Game("baronness", seed=1)
    game = solver.Game("Parlett", position="row: 2C 5D 7C 6S 8H 9D AC 9S TC | stock: 2S 3S TS 9H")
    assert (game.name, game.variant, game.seed, game.options["compulsory"]) == ("accordion", "parlett", None, True)
    twin = game.copy()
    twin.play(twin.legal_moves[0])
    assert game.moves == [] and len(twin.moves) == 1


def test_the_module_example_runs() -> None:
    failures, tried = doctest.testmod(solver.board)
    assert tried > 0 and failures == 0

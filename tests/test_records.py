"""What a game's record says reads back (issue 39, items 7 and 8): every move ``play``, ``solver.Game``
and ``solve`` write is read by all three (a deal names every card it takes from the stock, next
first: one notation, read by :mod:`rulesets.dealt`), and ``verify`` holds a ``play --json``
record to all it says, the player's own moves included."""

from __future__ import annotations

import json
from typing import Any

import pytest
from helpers import run_cli

import solver
from rulesets.concealed import presets_with_stock, write_concealed
from rulesets.dealt import read_move
from rulesets.notation import is_deal
from solver.chance import conceal
from solver.service.playing import dealt, make_player, play
from solver.service.setup import Setup

#: Thirteens refills its places from the stock by a discard, which names none of the cards it
#: takes: from a position with cards face down, solver.Game takes them in ``drawn=[...]``.
NAMED_BY_DEALS = [preset for preset in presets_with_stock() if preset != "thirteens"]


def verified(preset: str, where: tuple[str, str], moves: list[str], tmp_path: Any) -> str:
    """What ``patience verify`` says of ``moves`` from ``where`` (``--seed N`` or ``--position P``)."""
    path = tmp_path / "moves.txt"
    path.write_text("\n".join(moves) + "\n")
    ran = run_cli("verify", preset, *where, "--solution", str(path))
    assert ran.exit_code == 0, ran.output
    return ran.stdout


def midway(setup: Setup, start: Any, moves: tuple[str, ...]) -> tuple[Any, int]:
    """The true state before the first of ``moves`` that finds three cards or more in the stock
    with a deal still to come, and how many moves led there."""
    rules: Any = setup.legal
    state = start
    for at, text in enumerate(moves):
        if len(rules.stock(state)) >= 3 and any(is_deal(later) for later in moves[at:]):
            return state, at
        state = rules.apply(state, read_move(rules, state, text))
    raise AssertionError("no deal left with three cards in the stock")


@pytest.mark.one_engine
@pytest.mark.parametrize("preset", presets_with_stock())
def test_a_played_game_reads_back_through_game_and_verify(preset: str, tmp_path: Any) -> None:
    """``play``'s moves of a deal replay in ``solver.Game`` from the same deal, and the moves the
    Game writes back replay there again and through ``verify``."""
    setup = Setup.of(preset)
    played = play(setup, dealt(setup, setup.deal(seed=1), 1), make_player("random"))
    game = solver.Game(preset, seed=1)
    game.replay(played.moves)
    again = solver.Game(preset, seed=1)
    again.replay([str(move) for move in game.moves])
    assert again.position == game.position and again.is_won() == played.won
    said = verified(preset, ("--seed", "1"), [str(move) for move in game.moves], tmp_path)
    assert said == verified(preset, ("--seed", "1"), list(played.moves), tmp_path)
    solved = solver.solve(preset, seed=1, max_nodes=2_000)  # solve's line, won or the best found
    line = solved.solution or solved.best_line
    assert line and len(solver.Game(preset, seed=1).replay(line)) == len(line)
    verified(preset, ("--seed", "1"), list(line), tmp_path)


@pytest.mark.one_engine
@pytest.mark.parametrize("preset", NAMED_BY_DEALS)
def test_a_game_from_a_face_down_position_writes_its_deals_as_play_does(preset: str, tmp_path: Any) -> None:
    """From a position whose stock's first two cards are known and the rest face down, the moves
    ``play`` wrote (a deal naming every card it took, known or turned up) replay in a Game; the
    moves that Game writes replay in another, and both lines verify from the position written
    with every card known, reaching the same end."""
    setup = Setup.of(preset)
    rules: Any = setup.legal
    start = setup.legal.start(setup.deal(seed=1))
    played = play(setup, dealt(setup, setup.deal(seed=1), 1), make_player("random"))
    state, at = midway(setup, start, played.moves)
    hidden = len(rules.stock(state)) - 2
    braced = write_concealed(rules, conceal(rules, state, hidden))
    rest = list(played.moves[at:])
    game = solver.Game(preset, position=braced)
    game.replay(rest)
    written = [str(move) for move in game.moves]
    again = solver.Game(preset, position=braced)
    again.replay(written)
    assert again.position == game.position
    plain = ("--position", rules.write_position(state))
    assert verified(preset, plain, written, tmp_path) == verified(preset, plain, rest, tmp_path)
    deals = [text for text in written if text.split()[0] == "deal" and len(text.split()) > 2]
    assert deals or preset in ("idle-year", "parlett", "self-working", "nizhni-novgorod")  # one card a deal


# --- verify holds a played game's record to its player ------------------------------------------------


def played_record(*args: str, **changes: Any) -> dict[str, Any]:
    """The record ``play ARGS --json`` prints, with ``changes``."""
    ran = run_cli("play", *args, "--json")
    assert ran.exit_code == 0, ran.output
    return {**json.loads(ran.stdout), **changes}


def verify_record(record: dict[str, Any], where: tuple[str, ...], tmp_path: Any) -> tuple[int, str]:
    """``patience verify GAME WHERE --solution FILE``, FILE holding ``record``: its exit code and
    its one line."""
    path = tmp_path / "record.json"
    path.write_text(json.dumps(record))
    ran = run_cli("verify", *where, "--solution", str(path))
    assert len(ran.output.splitlines()) == 1, ran.output
    return ran.exit_code, ran.output


#: Parlett's deal 2, which the careful and random players play apart.
PARLETT_2 = ("parlett", "--seed", "2")


def parted(one: dict[str, Any], other: dict[str, Any]) -> int:
    """The number of the first move two records of one deal play apart."""
    return next(n for n, (a, b) in enumerate(zip(one["moves"], other["moves"]), 1) if a != b)


@pytest.mark.one_engine
def test_a_record_whose_player_settings_or_moves_were_changed_is_refused(tmp_path: Any) -> None:
    """Each record a player did not write, though its moves are legal and reach what it claims:
    exit code 1, naming the first move the player named would not have played."""
    careful = played_record(*PARLETT_2, "--player", "careful")
    randomly = played_record(*PARLETT_2, "--player", "random")
    assert verify_record(careful, PARLETT_2, tmp_path)[0] == verify_record(randomly, PARLETT_2, tmp_path)[0] == 0
    reseeded = played_record(*PARLETT_2, "--player", "random", "--rng-seed", "2")
    outcome = {name: careful[name] for name in ("won", "score", "moves")}
    for tampered, says, number in [
        (
            careful | {"player": "random", "settings": {"rng_seed": 1}},
            "random (rng_seed 1) player plays",
            parted(careful, randomly),
        ),
        (randomly | {"settings": {"rng_seed": 2}}, "random (rng_seed 2) player plays", parted(randomly, reseeded)),
        (randomly | outcome, "random (rng_seed 1) player plays", parted(careful, randomly)),
    ]:
        code, line = verify_record(tampered, PARLETT_2, tmp_path)
        claimed = tampered["moves"][number - 1]
        assert code == 1 and line.startswith(f"invalid: the record's move {number} is {claimed}, but "), line
        assert says in line
    code, line = verify_record(careful | {"engine": "native"}, PARLETT_2, tmp_path)
    assert code == 2 and "the careful player searches nothing: it must be null" in line


@pytest.mark.one_engine
def test_a_record_with_a_move_bringing_back_a_position_is_refused(tmp_path: Any) -> None:
    """A played game ends where every move left brings back a position: a redeal appended to
    the random player's Amazons game is legal, and no played game's."""
    record = played_record("amazons", "--seed", "1", "--player", "random")
    count = len(record["moves"])
    assert not record["won"] and record["moves"][-1] != "redeal"
    assert verify_record(record, ("amazons", "--seed", "1"), tmp_path) == (
        0,
        f"valid: all {count} moves legal; not won (cards left: {record['score']})\n",
    )
    code, line = verify_record(record | {"moves": [*record["moves"], "redeal"]}, ("amazons", "--seed", "1"), tmp_path)
    assert code == 1 and line.startswith(f"invalid: the record's move {count + 1} (redeal) brings back a position")
    assert f"ends after move {count}" in line


def test_a_sampling_players_record_is_replayed_on_either_engine(engine: str, tmp_path: Any) -> None:
    """The sampling player (3 orders a move) replayed from its record of Baroness's deal 6, which
    it plays otherwise from rng_seed 2: the engine the record names may be either (both play the
    same game), and another rng_seed is refused."""
    where = ("baroness", "--seed", "6")
    record = played_record(*where, "--player", "sampling", "--samples", "3")
    assert record["engine"] == engine
    other = "python" if engine == "native" else "native"
    for honest in (record, record | {"engine": other}):
        assert verify_record(honest, where, tmp_path)[0] == 0
    seed = next(  # a seed whose player plays this deal otherwise
        seed
        for seed in range(2, 20)
        if played_record(*where, "--player", "sampling", "--samples", "3", "--rng-seed", str(seed))["moves"]
        != record["moves"]
    )
    code, line = verify_record(record | {"settings": {"samples": 3, "rng_seed": seed}}, where, tmp_path)
    assert code == 1 and f"the sampling (samples 3, rng_seed {seed}) player plays" in line, line
    code, line = verify_record(record | {"engine": None}, where, tmp_path)
    assert code == 2 and "the sampling player searches: it must be native or python" in line, line


#: A Baroness endgame: two known cards in the stock, then five face down.
BARONESS_END = "piles: - / 8S QD / JD TH / 2S / 9S 9C 4C 7S | grace: - | stock: AC 8D {5D 4S 3D 6S 5C}"


@pytest.mark.one_engine
def test_a_game_played_from_face_down_cards_is_verified_from_its_record(tmp_path: Any) -> None:
    """verify lays out a position with braces as play did, from the record's order_seed: the record
    verifies, one naming another seed does not; bare moves cannot say the order, and are refused."""
    where = ("baroness", "--position", BARONESS_END)
    record = played_record(*where, "--player", "random", "--rng-seed", "3")
    count, left = len(record["moves"]), record["score"]
    assert verify_record(record, where, tmp_path) == (
        0,
        f"valid: all {count} moves legal; not won (cards left: {left})\n",
    )
    code, line = verify_record(record | {"order_seed": 4}, where, tmp_path)
    assert code == 1 and "move 1 (deal AC 8D " in line and "the deal turns up AC 8D " in line, line
    moves = tmp_path / "moves.txt"
    moves.write_text("\n".join(record["moves"]) + "\n")
    ran = run_cli("verify", *where, "--solution", str(moves))
    assert ran.exit_code == 2 and "only with the 'play --json' record" in ran.stderr

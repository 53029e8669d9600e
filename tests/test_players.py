"""The players of issue 33: they play what a person at the table sees and nothing more (two deals
alike in what has been turned up get the same views and the same moves), every line they play
replays through verify to what their record claims, what they win is solvable, their seeds fix
their games on both engines, and ``patience play`` refuses bad input and shows no face-down card.
Every game here is cheap: the sampling player draws 5 orders a move, and the games that cost
seconds on the Python engine are left to the compiled core or played once."""

from __future__ import annotations

import json
import os
import re
from collections.abc import Hashable
from functools import cache
from random import Random
from typing import Any, ClassVar

import pytest
from helpers import PYSOL_DEAL_1, error_line, run_cli
from hypothesis import given, settings
from hypothesis import strategies as st

from rulesets import families
from rulesets.cards import NAME
from rulesets.concealed import is_concealable
from rulesets.dealt import read_move
from solver.chance import conceal, turned_up
from solver.compiled_engine import compiled_chance
from solver.engine import NO_EXTENSIONS, engine_of
from solver.players import PLAYERS, SEARCHING, Player, View, play_out
from solver.result import Limits, Verdict
from solver.service.playing import PlayedGame, dealt, make_player, placed, play
from solver.service.setup import Setup
from solver.service.solution_file import Solution
from solver.service.solving import solve
from solver.service.verification import check_record_is_for, verify

PRESETS = [variant.name for family in families().values() for variant in family.variants]
#: The presets whose deals keep a stock, face down at the start.
STOCKED = [preset for preset in PRESETS if is_concealable(Setup.of(preset).legal)]
#: The stocked presets whose sampled games cost a fraction of a second on the Python engine
#: (the sampling player's orders of amazons, amazons-dick and baroness-pysol take seconds).
SAMPLED_CHEAPLY = [
    "idle-year",
    "parlett",
    "self-working",
    "amazons-mms",
    "amazons-pysol",
    "baroness",
    "baroness-classic",
    "thirteens",
    "nizhni-novgorod",
]
#: The orders the sampling player draws for each move here.
SAMPLES = 5


def player(name: str, rng_seed: int = 1) -> Player:
    """A fresh player ``name`` (those that search drawing few orders; the careful one draws
    nothing, so it takes no seed)."""
    return make_player(name, SAMPLES if name in SEARCHING else None, None if name == "careful" else rng_seed)


def seeds_of(preset: str, name: str) -> tuple[int, ...]:
    """The deals each player plays of each preset in the tests that replay every line (the turns
    player, which searches as the sampling player does, its first deal only): a sampled
    baroness-pysol game costs 2 to 15 seconds on the Python engine (its orders stop at the node
    limit), so that one plays one cheap deal, lost (seed 10, won, takes 6 seconds). The Python
    engine, some 30 times slower, plays the first of them only (that both engines play each game
    alike is test_both_engines_play_the_same_searched_game's)."""
    if name in SEARCHING and preset == "baroness-pysol":
        return (27,)
    seeds = (1, 2, 3) if name not in SEARCHING else (1, 2) if name == "sampling" else (1,)
    return seeds[:1] if os.environ.get(NO_EXTENSIONS) else seeds


@cache
def _played(preset: str, name: str, seed: int, python: bool) -> PlayedGame:
    """:func:`played`, kept for each engine (``python``: whether the Python engine plays)."""
    setup = Setup.of(preset)
    return play(setup, dealt(setup, setup.deal(seed=seed), seed), player(name))


def played(preset: str, name: str, seed: int) -> PlayedGame:
    """The game ``name`` plays of ``preset``'s deal ``seed`` on the engine in use (played once a
    run: the tests of the command line and of solvability replay the same games)."""
    return _played(preset, name, seed, bool(os.environ.get(NO_EXTENSIONS)))


def same_game(record: dict[str, Any]) -> dict[str, Any]:
    """A record without what may differ between two runs of one game: the CPU seconds and the
    engine the player's searches ran on."""
    return {name: value for name, value in record.items() if name not in ("seconds", "engine")}


# --- no peeking ---------------------------------------------------------------------------------------


class Enough(Exception):
    """Ends a recorded game at the first view showing cards the other deal may not share."""


class Recorder:
    """A player passing each view to ``player`` and keeping it with the move chosen; once a view
    shows more than ``shared`` of the ``hidden`` cards turned up, it keeps it (with no move) and
    ends the game."""

    name: ClassVar[str] = "recorder"

    def __init__(self, player: Player, hidden: int, shared: int) -> None:
        self.player, self.hidden, self.shared = player, hidden, shared
        self.turns: list[tuple[View, Hashable | None]] = []

    def settings(self) -> dict[str, Any]:
        return self.player.settings()

    def choose(self, view: View) -> Hashable:
        if self.hidden - view.position.hidden > self.shared:
            self.turns.append((view, None))
            raise Enough
        move = self.player.choose(view)
        self.turns.append((view, move))
        return move


def turns(setup: Setup, start: Any, name: str, shared: int) -> list[tuple[View, Hashable | None]]:
    """The views player ``name`` is handed playing ``start`` (its whole stock face down), and its
    moves, until it has seen more than the stock's first ``shared`` cards; or, where the game
    ends first, then the last position (as a view offering no move), with no move."""
    rules: Any = setup.legal
    hidden = len(rules.stock(start))
    recorder = Recorder(player(name), hidden, shared)
    try:
        ended = play_out(engine_of(rules, setup.game), start, hidden, player=recorder)
    except Enough:
        return recorder.turns
    # A move that turns up cards the other deal does not share may leave no move in one deal and
    # some in the other (thirteens' deal 5, its stock shared up to 8 cards): its end is its last view.
    return [*recorder.turns, (View(engine_of(rules, setup.game), ended.seen[-1], ()), None)]


def assert_alike_until_turned_up(name: str, preset: str, seed: int, shared: int, rest: Any) -> None:
    """A player plays ``preset``'s deal ``seed``, and the deal with its stock after the first
    ``shared`` cards put in the order ``rest`` picks (``rest(cards)``: a permutation of them),
    alike until a move turns up a card the two stocks do not share."""
    setup = Setup.of(preset)
    rules: Any = setup.legal
    start = rules.start(setup.deal(seed=seed))
    stock = tuple(rules.stock(start))
    other = stock[:shared] + tuple(rest(stock[shared:]))
    one, two = turns(setup, start, name, shared), turns(setup, rules.with_stock(start, other), name, shared)
    assert len(one) == len(two)
    assert one[:-1] == two[:-1]
    (view, move), (other_view, other_move) = one[-1], two[-1]
    seen = len(stock) - view.position.hidden
    if stock[:seen] == other[:seen]:
        assert view == other_view
    if set(stock[:seen]) != set(other[:seen]):  # (the same cards in another order may lie alike)
        assert view != other_view
    assert move == other_move  # both None where the game was stopped there


@pytest.mark.one_engine  # what a player is shown: the engines' games alike are test_both_engines_play_the_same_searched_game's
@settings(max_examples=25)
@given(data=st.data())
def test_deals_sharing_their_first_cards_are_played_alike_until_one_is_turned_up(data: st.DataObject) -> None:
    """A seeded deal, and the deal with its stock's cards after the first ``shared`` put in
    another order: a player is handed equal views, and so plays the same moves, until a move
    turns up a card the two stocks do not share (and the view after it differs where other cards
    were turned up)."""
    name = data.draw(st.sampled_from(list(PLAYERS)), label="player")
    preset = data.draw(st.sampled_from(SAMPLED_CHEAPLY if name in SEARCHING else STOCKED), label="preset")
    seed = data.draw(st.integers(1, 10**6), label="seed")
    setup = Setup.of(preset)
    rules: Any = setup.legal
    stock = tuple(rules.stock(rules.start(setup.deal(seed=seed))))
    shared = data.draw(st.integers(0, len(stock)), label="shared")
    rest = data.draw(st.permutations(stock[shared:]), label="rest")
    assert_alike_until_turned_up(name, preset, seed, shared, lambda cards: rest)


def test_a_game_the_unshared_cards_end_is_told_apart_by_its_last_view() -> None:
    """Found by the test above: thirteens' deal 5 and the deal with its stock shared up to 8 cards,
    where the fifth move turns up unshared cards that leave one game no move and the other some."""
    order = [43, 12, 23, 22, 45, 5, 49, 31, 19, 28, 33, 18, 27, 36, 30, 20, 37, 0, 44, 24, 25, 7, 32, 11, 29, 35,
             21, 51, 9, 10, 47, 13, 6, 48]  # fmt: skip
    assert_alike_until_turned_up("sampling", "thirteens", 5, 8, lambda cards: sorted(cards, key=order.index))


@settings(max_examples=30)
@given(preset=st.sampled_from(STOCKED), seed=st.integers(1, 10**6), order=st.integers(0, 2**32))
def test_a_view_holds_no_order_of_the_face_down_cards(preset: str, seed: int, order: int) -> None:
    """At every turn of a game the view's position is the true state as :func:`conceal` writes
    it (its face-down cards in the order of their codes), so the true state with its face-down
    cards in any other order gives the same view; the rulesets beside it are the preset's, shared
    by every deal, and its moves are the position's."""
    assert View._fields == ("engine", "position", "moves")  # a new field: show it here
    setup = Setup.of(preset)
    rules: Any = setup.legal
    start = rules.start(setup.deal(seed=seed))
    hidden = len(rules.stock(start))
    recorder = Recorder(player("random"), hidden, hidden)
    played = play_out(engine_of(rules, setup.game), start, hidden, player=recorder)
    chooser = Random(order)
    assert [move for _, move in recorder.turns] == [move for _, move in played.moves]
    for (view, _), (state, _) in zip(recorder.turns, played.moves, strict=True):
        position = view.position
        assert view.rules is rules and view.engine.searched is setup.game
        assert set(view.moves) <= set(rules.moves(position.state))
        assert position == conceal(rules, state, position.hidden)
        stock = list(rules.stock(state))
        known, face_down = stock[: len(stock) - position.hidden], stock[len(stock) - position.hidden :]
        assert list(view.unseen()) == sorted(face_down)
        shuffled = rules.with_stock(state, known + chooser.sample(face_down, len(face_down)))
        assert conceal(rules, shuffled, position.hidden) == position


# --- every line played replays ------------------------------------------------------------------------


@pytest.mark.parametrize("preset", PRESETS)
def test_every_line_played_replays_through_verify_to_its_record(preset: str) -> None:
    """Each player's games of each preset: every move legal (deals naming the cards they turned
    up), won where the record says won, at the record's score, and ending the game; the record
    itself, given to verify, claims nothing its moves do not bear out."""
    setup = Setup.of(preset)
    for name in PLAYERS:
        for seed in seeds_of(preset, name):
            game = played(preset, name, seed)
            record = game.record()
            found = verify(setup, game.opening, Solution("moves", record["moves"], None, None))
            assert found.illegal is None, (name, seed, found)
            assert (found.won, found.reached, found.won or found.ended) == (record["won"], record["score"], True)
            assert check_record_is_for(record, setup, game.opening) is None
            assert verify(setup, game.opening, Solution("record", record["moves"], None, record)) == found


def verified(preset: str, seed: int, text: str, tmp_path: Any) -> tuple[int, str]:
    """``patience verify PRESET --seed SEED --solution FILE --verdict-code``, FILE holding ``text``:
    its exit code and output."""
    path = tmp_path / "solution"
    path.write_text(text)
    ran = run_cli("verify", preset, "--seed", str(seed), "--solution", str(path), "--verdict-code")
    return ran.exit_code, ran.output


@pytest.mark.one_engine
@pytest.mark.parametrize("preset", PRESETS)
def test_verify_on_the_command_line_takes_every_line_played(preset: str, tmp_path: Any) -> None:
    """The moves of each game, and its whole ``play --json`` record: exit code 0 for a game won,
    4 for one lost (the line ends it), and the score verify reports is the record's."""
    label = Setup.of(preset).family.score_label
    for name in PLAYERS:
        for seed in seeds_of(preset, name):
            record = played(preset, name, seed).record()
            count = len(record["moves"])
            legal = "its 1 move legal" if count == 1 else f"all {count} moves legal"
            reached = "the game is won" if record["won"] else f"not won ({label}: {record['score']})"
            expected = (0 if record["won"] else 4, f"valid: {legal}; {reached}\n")
            assert verified(preset, seed, "\n".join(record["moves"]) + "\n", tmp_path) == expected, (name, seed)
            assert verified(preset, seed, json.dumps(record), tmp_path) == expected, (name, seed)


# --- the subset rule ----------------------------------------------------------------------------------

#: Cheap presets and deals of them the players win. Baroness's wins are rare (of its first 300
#: deals the sampling player drawing 5 orders wins 5, the careful and random players one each):
#: these are four of them, each player winning one or more.
WON_DEALS = {
    "amazons-pysol": range(1, 11),
    "thirteens": range(1, 11),
    "royal-marriage": range(1, 11),
    "queen-and-her-lad": range(1, 11),
    "baroness": (59, 79, 122, 136),
}


@pytest.mark.parametrize("preset", WON_DEALS)
def test_every_deal_a_player_wins_is_solvable(preset: str) -> None:
    """What a player wins seeing only the cards turned up, the search wins seeing every card."""
    setup = Setup.of(preset)
    wins = 0
    # The turns player, some 30 times slower on the Python engine, on the compiled core only
    # (test_both_engines_play_the_same_searched_game holds the two engines to one game).
    names = [name for name in PLAYERS if name != "turns" or not os.environ.get(NO_EXTENSIONS)]
    for seed in WON_DEALS[preset]:
        winners = [name for name in names if played(preset, name, seed).won]
        if winners:
            wins += len(winners)
            outcome = solve(setup, setup.deal(seed=seed), Limits())
            assert outcome.result.verdict is Verdict.WON, (seed, winners)
    assert wins >= len(WON_DEALS[preset]) // 2  # the deals are ones the players win


# --- determinism --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", ["random", "sampling"])
def test_a_deal_a_player_and_its_rng_seed_fix_the_game(name: str) -> None:
    """Two games of one deal by two players made alike are one game (the CPU seconds aside)."""
    for preset, seed in (("parlett", 1), ("amazons-pysol", 2), ("baroness", 3)):
        setup = Setup.of(preset)
        once, again = (
            play(setup, dealt(setup, setup.deal(seed=seed), seed), player(name, rng_seed=7)).record() for _ in range(2)
        )
        assert same_game(once) == same_game(again)


def test_another_rng_seed_changes_the_random_players_game() -> None:
    """The rng seed is used: another one draws other moves on some deal."""
    setup = Setup.of("parlett")
    games = {
        rng_seed: [
            play(setup, dealt(setup, setup.deal(seed=seed), seed), player("random", rng_seed)).moves for seed in (1, 2)
        ]
        for rng_seed in (1, 2)
    }
    assert games[1] != games[2]


#: A position with six cards face down and a choice at its first move (docs/face-down.md's).
FACE_DOWN = "row: KC 9D 8S QD 7C KH 3S KD 9S 2C 3H 4C AH 2H | stock: {JC 5H 8C 4S 5S 5C}"


@pytest.mark.parametrize("name", ["random", "careful", "sampling"])
def test_a_record_names_every_seed_that_decided_its_game(name: str) -> None:
    """Played from a position with braces, the --rng-seed draws the face-down order for every
    player, the careful one too (which draws nothing itself): its games from seeds 1 and 3 are
    two games, and their records say so. Each record's position, order_seed, player and settings
    play its game again; a deal's record names no order_seed (no order was drawn)."""
    setup = Setup.of("parlett")
    records = {}
    for seed in (1, 3):
        made = make_player(name, SAMPLES if name in SEARCHING else None, seed, order_drawn=True)
        records[seed] = play(setup, placed(setup, setup.concealed(FACE_DOWN), seed), made).record()
    assert records[1]["moves"] != records[3]["moves"]
    for seed, record in records.items():
        assert record["order_seed"] == seed
        settings = record["settings"]
        again = make_player(name, settings.get("samples"), settings.get("rng_seed"))
        replayed = play(setup, placed(setup, setup.concealed(record["position"]), record["order_seed"]), again)
        assert same_game(replayed.record()) == same_game(record)
    assert play(setup, dealt(setup, setup.deal(seed=1), 1), player(name)).record()["order_seed"] is None


@pytest.mark.one_engine
@pytest.mark.parametrize(
    ("name", "preset", "seed"),
    [
        ("sampling", "parlett", 1),
        ("sampling", "parlett", 3),
        ("sampling", "amazons-pysol", 2),
        ("sampling", "amazons-pysol", 3),
        ("sampling", "baroness", 3),
        ("sampling", "thirteens", 1),
        ("sampling", "queen-and-her-lad", 1),
        ("sampling", "amazons", 1),
        ("sampling", "amazons", 3),
        ("sampling", "amazons-mms", 3),
        ("turns", "parlett", 1),
        ("turns", "baroness", 3),
        ("turns", "baroness-classic", 9),
    ],
)
def test_both_engines_play_the_same_searched_game(
    name: str, preset: str, seed: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each player that searches, on the compiled core and on the Python engine: the same orders
    drawn, the same exact chances and the same searched lines (and, for the turns player, the
    same turns' lines judged) make the same game (these deals take each way of choosing:
    orders, exact chances, the search's line). The players' searches do not restart: with
    restarts each engine's search takes its own order (solver/_search.pyx), so that Amazons deal
    1's planned lines parted at their third move, and on amazons-mms deal 3 the 20,000-state
    exact attempt finished on one engine (16,750 states) and not on the other."""
    if compiled_chance() is None:
        pytest.skip("the compiled core is not built here")
    setup = Setup.of(preset)
    opening = dealt(setup, setup.deal(seed=seed), seed)
    native = play(setup, opening, player(name)).record()
    monkeypatch.setenv(NO_EXTENSIONS, "1")
    python = play(Setup.of(preset), opening, player(name)).record()  # the engine is chosen when a setup is made
    assert (native["engine"], python["engine"]) == ("native", "python")
    assert same_game(native) == same_game(python)


# --- the command line ---------------------------------------------------------------------------------


@pytest.mark.one_engine
@pytest.mark.parametrize(
    ("args", "words"),
    [
        (("parlett", "--seed", "1", "--player", "nobody"), ("'nobody'", "random, careful, sampling")),
        (("parlett", "--seed", "1", "--player", "sampling", "--samples", "0"), ("--samples", "not 0")),
        (("parlett", "--seed", "1", "--player", "random", "--samples", "5"), ("--samples", "random player")),
        (("parlett", "--seed", "1", "--player", "random", "--rng-seed", "-1"), ("--rng-seed", "not -1")),
        (("parlett", "--seed", "1", "--deal", PYSOL_DEAL_1, "--player", "random"), ("exactly one of",)),
        (("parlett", "--player", "careful"), ("exactly one of",)),
        (("parlett", "--position", "row: 3D | stock: {51", "--player", "careful"), ("brace", "not closed")),
        (("royal-marriage", "--position", "row: QH 2D | stock: {3D}", "--player", "careful"), ("keeps no stock",)),
        (("accordion", "--position", "row: 3D | stock: {51}", "--player", "careful"), ("keeps no stock",)),
    ],
)
def test_play_refuses_bad_input_in_one_line(args: tuple[str, ...], words: tuple[str, ...]) -> None:
    """One stderr line naming what is wrong, exit code 2, nothing played."""
    ran = run_cli("play", *args)
    line = error_line(ran)
    assert ran.stdout == "" and "Traceback" not in ran.stderr
    for word in words:
        assert word in line, line


CARD = re.compile(r"\b[A2-9TJQK][CDHS]\b")


@pytest.mark.one_engine
@pytest.mark.parametrize("preset", ["parlett", "amazons", "baroness", "thirteens", "nizhni-novgorod"])
def test_the_table_shown_after_each_move_counts_the_face_down_cards(preset: str) -> None:
    """``play --show``: after each move the table as the player sees it, where no face-down card
    is drawn before it is dealt (the stock shows their count) and the position line holds them in
    the order of their codes."""
    setup = Setup.of(preset)
    rules: Any = setup.legal
    game = played(preset, "careful", 2)
    lines = run_cli("play", preset, "--seed", "2", "--player", "careful", "--show").stdout.splitlines()
    pictures: list[list[str]] = [[]]
    for line in lines[2:-2]:  # after the title and the player, before how it ended and its cost
        if line.startswith(" " * 7):
            pictures[-1].append(line)
        else:
            pictures.append([])
    assert len(pictures) == len(game.moves) + 1
    state, hidden, drawn = game.opening.start, game.opening.hidden, set()
    for number, picture in enumerate(pictures):
        at = next(index for index, line in enumerate(picture) if line.strip().startswith("position: "))
        table, position = picture[:at], picture[at]
        assert [line.strip().split(":")[0] for line in picture[at + 1 :]] == ["as seen"]
        stock = list(rules.stock(state))
        face_down = stock[len(stock) - hidden :]
        names = {NAME[code] for code in face_down}
        shown = set(CARD.findall("\n".join(table)))
        assert not shown & names, (number, shown & names)
        assert not hidden or f"[{hidden} face down]" in "\n".join(table)
        assert position.strip().startswith("position: ")
        braced = re.search(r"\{(.*)\}", position)
        assert (braced[1].split() if braced else []) == [NAME[code] for code in sorted(face_down)]
        drawn |= shown
        if number < len(game.moves):
            move = read_move(rules, state, game.moves[number])
            hidden -= turned_up(rules, conceal(rules, state, hidden), move) if hidden else 0
            state = rules.apply(state, move)
    assert len(drawn) > 10  # the pictures do draw the cards turned up


@pytest.mark.one_engine
@pytest.mark.parametrize("preset", ["baroness", "amazons-pysol"])
def test_verify_holds_a_deal_to_the_cards_it_names(preset: str, tmp_path: Any) -> None:
    """A game whose notation writes a deal as ``deal`` alone is recorded with the cards each deal
    turned up: verify takes the deal naming them, or none, and refuses one naming other cards,
    fewer of them, or them in another order, as an illegal move it names."""
    game = played(preset, "careful", 2)
    moves = game.record()["moves"]
    at = next(number for number, move in enumerate(moves) if move.startswith("deal "))
    deal, *cards = moves[at].split()

    def check(text: str) -> tuple[int, str]:
        return verified(preset, 2, "\n".join([*moves[:at], text, *moves[at + 1 :]]) + "\n", tmp_path)

    good = check(moves[at])
    assert check(deal) == good and good[0] in (0, 4) and good[1].startswith("valid: ")
    elsewhere = next(card for card in game.record()["deal"].split() if card not in cards)
    for wrong in (
        [*cards[1:], cards[0]],
        cards[:-1],
        [*cards[:-1], elsewhere],
    ):
        text = " ".join([deal, *wrong])
        code, output = check(text)
        assert code == 1 and output.startswith(f"invalid: move {at + 1} ({text}) is illegal: the deal turns up"), output

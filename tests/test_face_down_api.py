"""solver.Game, solver.solve and solver.hint on positions whose stock lies face down: the
player names each card as it turns up, undo lays it face down again, and the answers are the
chance fields of ``patience solve --json`` and ``patience hint --json``."""

from __future__ import annotations

import json
import re

import pytest
from helpers import run_cli
from hypothesis import given
from hypothesis import strategies as st

import solver
from rulesets.cards import CARDS, NAME, Card, parse_card
from rulesets.dealt import taken
from solver.chance import turned_up
from solver.errors import ArgumentTypeError, MoveError, UnreadableMove, UserError

#: A Parlett endgame with five cards face down after twelve known ones (the example of the docs).
PARLETT = "row: KC 9D 8S QD 7C KH AS TD 2S | stock: 3C 9H KD 7S 3S 9S 2C 3H 4C AH 2H JC {5H 8C 4S 5S 5C}"
#: A Baroness endgame: after the discard, one deal lays 2H (known) and five face-down cards on
#: the piles and makes the last two grace cards.
BARONESS = (
    "piles: AS 3C 9S / 2D TH JS TC 9H 2C / QC 4D QS QH 8D 3H / 7D 8S TS AC 4C / JH 9C 6D 3S AH"
    " | grace: - | stock: 2H {5C 8C JC 5H 4S 5S}"
)
#: Baroness earlier on: a deal turns up five face-down cards (one a pile) and leaves five.
BARONESS_FIVE = (
    "piles: 4C 3D QS 8D 5C / JC 7H 5D / AH QD 7C AS / 5S 8H TS 9S 3H / 2D 6H QH 7S 9D 2S"
    " | grace: - | stock: {AC 2C 6C 8C QC AD JD 4H TH KH 6S JS}"
)
CHANCE_FIELDS = ("chance", "clairvoyant", "clairvoyant_low", "clairvoyant_high", "orders", "exact")


def _braced(position: str) -> set[Card]:
    """The cards a position writes in braces."""
    found = re.search(r"\{([^}]*)\}", position)
    return set() if found is None else {parse_card(word) for word in found.group(1).split()}


def _outside(position: str) -> set[Card]:
    """The cards a position writes outside braces (on the table and known in the stock)."""
    shown = re.sub(r"\{[^}]*\}", " ", position)
    cards = set()
    for word in re.split(r"[\s/|:]+", shown):
        try:
            cards.add(parse_card(word))
        except ValueError:
            pass
    return cards


def _turns_up(game: solver.Game, move: solver.Move) -> int:
    return turned_up(game._rules, game._states[-1], move.value)


def _known_taken(game: solver.Game, move: solver.Move, count: int) -> list[str]:
    """The known cards ``move`` takes from the stock before the ``count`` it turns up."""
    takes = taken(game._rules, game.state, move.value)
    return [NAME[code] for code in takes[: len(takes) - count]]


@pytest.mark.one_engine  # the board's bookkeeping: no search
@pytest.mark.parametrize(
    "preset, position", [("parlett", PARLETT), ("baroness", BARONESS), ("baroness", BARONESS_FIVE)]
)
@given(data=st.data())
def test_unseen_follows_play_and_undo_restores_each_position(preset: str, position: str, data: st.DataObject) -> None:
    game = solver.Game(preset, position=position)
    face_down = frozenset(game.unseen)
    assert face_down == _braced(position) and game.position == solver.Game(preset, position=game.position).position
    positions, drawn = [game.position], [frozenset[Card]()]
    for _ in range(data.draw(st.integers(0, 30), label="steps")):
        if game.moves and data.draw(st.booleans(), label="undo"):
            game.undo()
            positions.pop(), drawn.pop()
            assert game.position == positions[-1]  # exactly as before the move
        else:
            moves = game.legal_moves
            if not moves:
                break
            move = data.draw(st.sampled_from(moves), label="move")
            count = _turns_up(game, move)
            if count and len(game.unseen) > 1:
                order = data.draw(st.permutations(sorted(game.unseen)), label="order")
                cards = order[:count]
                known = _known_taken(game, move, count)  # the stock's known next cards: named first
                played = game.play(" ".join(["deal", *known, *map(str, cards)]))
                assert str(played) == " ".join(["deal", *known, *map(str, cards)])
            else:
                before = set(game.unseen)
                game.play(move)
                cards = sorted(before - game.unseen)
            positions.append(game.position)
            drawn.append(drawn[-1] | set(cards))
        # The face-down cards are the game's cards not yet seen, and the position writes them in braces.
        assert game.unseen == face_down - drawn[-1]
        assert game.unseen == _braced(game.position) and not game.unseen & _outside(game.position)
        assert all(isinstance(card, Card) for card in game.unseen)
    while game.moves:
        game.undo()
    assert game.position == positions[0] and game.unseen == face_down


def test_a_deal_that_turns_up_a_card_is_written_deal_and_needs_the_card_named() -> None:
    game = solver.Game("parlett", position="row: KC 9D 8S QD 7C KH AS TD 2S | stock: 3C {5H 8C 4S}")
    assert game.legal_moves == [solver.Move("deal 3C", game.legal_moves[0].value)]  # a known card
    game.play("deal 3C")
    (deal,) = game.legal_moves
    assert str(deal) == "deal" and game.parse_move("deal") == deal == game.parse_move("deal 4s")
    before = game.position
    refused = [
        ("deal", "turns up 1 face-down card: name the card drawn, e.g. 'deal 8C'"),
        (deal, "name the card drawn"),
        ("deal 3C", "3C is not face down; the face-down cards are 8C 5H 4S"),  # seen: on the table
        ("deal KC", "KC is not face down"),
        ("deal 5H 8C", "names 2 cards, and it turns up 1 face-down card"),
    ]
    for move, message in refused:
        with pytest.raises(MoveError, match=re.escape(message)) as error:
            game.play(move)
        assert isinstance(error.value, ValueError)
        assert game.position == before and game.unseen == {parse_card(name) for name in ("5H", "8C", "4S")}
    with pytest.raises(UnreadableMove):
        game.play("deal 5X")
    with pytest.raises(MoveError, match="leave drawn out"):
        solver.Game("parlett", position="row: KC 9D | stock: 3C {5H 8C}").play("deal 3C", drawn=["5H"])
    played = game.play("deal 5h")
    assert str(played) == "deal 5H" and game.moves[-1] == played
    assert game.position == "row: KC 9D 8S QD 7C KH AS TD 2S 3C 5H | stock: {8C 4S}"
    assert game.unseen == {parse_card("8C"), parse_card("4S")}
    assert game.undo() == played and game.position == before


def test_a_baroness_deal_names_its_face_down_cards_in_the_order_dealt() -> None:
    game = solver.Game("baroness", position=BARONESS_FIVE)
    before = game.position
    assert [str(move) for move in game.legal_moves] == ["deal"]
    for text, message in [
        ("deal", "turns up 5 face-down cards: name the 5 cards drawn, in the order they leave the stock"),
        ("deal KH AC JD 6S", "names 4 cards, and it turns up 5 face-down cards"),
        ("deal KH AC JD 6S KH", "names KH twice"),
        ("deal KH AC JD 6S 9D", "9D is not face down"),
    ]:
        with pytest.raises(MoveError, match=message):
            game.play(text)
        assert game.position == before
    left = "| grace: - | stock: {2C 6C 8C AD 4H TH JS}"
    played = game.play("deal KH AC JD 6S QC")
    assert str(played) == "deal KH AC JD 6S QC"
    assert game.position == (
        "piles: 4C 3D QS 8D 5C KH / JC 7H 5D AC / AH QD 7C AS JD / 5S 8H TS 9S 3H 6S / 2D 6H QH 7S 9D 2S QC " + left
    )
    assert game.unseen == {parse_card(name) for name in "2C 6C 8C AD 4H TH JS".split()}
    game.undo()
    assert game.position == before
    game.play("deal", drawn=["KH", parse_card("AC"), "JD", "6S", "QC"])  # names, or Cards
    assert game.moves[-1].text == "deal KH AC JD 6S QC" and game.position.endswith(left)
    game.undo()
    with pytest.raises(MoveError, match="name them once"):
        game.play("deal KH AC JD 6S QC", drawn=["KH", "AC", "JD", "6S", "QC"])
    with pytest.raises(ArgumentTypeError, match="drawn must be a list of cards"):
        game.play("deal", drawn="KH AC JD 6S QC")  # type: ignore[arg-type]


def test_a_refill_from_a_face_down_stock_names_its_cards_in_drawn() -> None:
    game = solver.Game(
        "thirteens", position="places: 9H / 2D / JD / 6H / JH / 5S / 2H / 4C / 8S / QD | stock: {9C AD 7D 4S}"
    )
    with pytest.raises(MoveError, match=r"turns up 2 face-down cards: .* with drawn=\[\.\.\.\]"):
        game.play("discard 9H+4C")
    played = game.play("discard 9H+4C", drawn=["AD", "4S"])
    assert str(played) == "discard 9H+4C"
    assert game.position == "places: AD / 2D / JD / 6H / JH / 5S / 2H / 4S / 8S / QD | stock: {9C 7D}"


def test_the_last_face_down_card_is_still_unseen_and_deals_unnamed() -> None:
    game = solver.Game("parlett", position="row: KC 9D 8S QD 7C KH AS TD 2S | stock: 3C {5H}")
    assert game.unseen == {parse_card("5H")} and game.position.endswith("stock: 3C {5H}")
    game.play("deal 3C")
    assert game.unseen == {parse_card("5H")} and [str(move) for move in game.legal_moves] == ["deal"]
    assert str(game.play("deal")) == "deal 5H" and game.unseen == frozenset()
    assert game.position == "row: KC 9D 8S QD 7C KH AS TD 2S 3C 5H | stock: -"


@pytest.mark.parametrize(
    "position, chance",
    [
        ("row: 2C 5D 7C 6S 8H 9D AC 9S TC | stock: 2S 3S TS 9H 2H 3H AD 7H 3D 5H 8D KH 7D AS 5S TH {JH}", 1.0),
        ("row: KC 9D 8S QD 7C KH AS TD 2S | stock: 3C {5H}", 0.0),
        ("row: KC 9D 8S QD 7C KH AS TD 2S | stock: 3C 9H KD 7S 3S 9S 2C 3H 4C AH 2H JC 5H 8C 4S 5S {5C}", 1.0),
    ],
)
def test_one_face_down_card_is_won_or_lost_as_with_it_written_plainly(position: str, chance: float) -> None:
    found = solver.solve("parlett", position=position)
    plain = solver.solve("parlett", position=position.replace("{", "").replace("}", ""))
    assert isinstance(found, solver.api.Chances) and isinstance(plain, solver.api.Solved)
    assert found.chance == chance == (1.0 if plain.result == "won" else 0.0)
    assert (found.clairvoyant, found.orders, found.exact) == (chance, 1, True)


@pytest.mark.parametrize("preset, position", [("parlett", PARLETT), ("baroness", BARONESS)])
def test_solve_and_hint_give_the_chance_fields_of_the_command_line(preset: str, position: str, engine: str) -> None:
    solved = solver.solve(preset, position=position)
    assert isinstance(solved, solver.api.Chances)
    assert solved.chance is not None and 0.0 < solved.chance <= solved.clairvoyant + 1e-9  # type: ignore[operator]
    assert solved.clairvoyant_low <= solved.clairvoyant <= solved.clairvoyant_high  # type: ignore[operator]
    assert solved.exact and solved.orders > 1 and solved.engine == engine and solved.chance_limit is None
    assert solved.unseen == _braced(position) and solved.position == solver.Game(preset, position=position).position
    command = json.loads(run_cli("solve", preset, "--position", position, "--json").stdout)
    assert (
        {**solved.record(), "seconds": 0} == {**command, "seconds": 0} == {**json.loads(solved.to_json()), "seconds": 0}
    )
    assert all(getattr(solved, name) == command[name] for name in CHANCE_FIELDS)

    hints = solver.hint(preset, position=position)
    command = json.loads(run_cli("hint", preset, "--position", position, "--json").stdout)
    assert [h.record() for h in hints] == command["moves"]
    for found in hints:
        assert isinstance(found, solver.api.ChanceHint)
        assert all(getattr(found, name) == found.record()[name] for name in CHANCE_FIELDS)
        assert found.chance is not None and found.chance <= found.clairvoyant + 1e-9  # type: ignore[operator]
    assert max(h.chance for h in hints if h.chance is not None) == pytest.approx(solved.chance)

    game = solver.Game(preset, position=position)
    assert {**game.solve().record(), "seconds": 0} == {**solved.record(), "seconds": 0}
    assert game.hint() == hints and sorted(h.move for h in hints) == sorted(str(m) for m in game.legal_moves)


#: PARLETT with eleven cards face down: more orders (39,916,800) than the budget could count.
PARLETT_ELEVEN = "row: KC 9D 8S QD 7C KH AS TD 2S | stock: 3C 9H KD 7S 3S 9S {2C 3H 4C AH 2H JC 5H 8C 4S 5S 5C}"


def test_samples_and_rng_seed_draw_the_orders() -> None:
    few = solver.solve("parlett", position=PARLETT_ELEVEN, samples=10, rng_seed=3)
    assert isinstance(few, solver.api.Chances) and few.orders == 10 and not few.exact
    assert few.clairvoyant_low <= few.clairvoyant <= few.clairvoyant_high  # type: ignore[operator]
    again = solver.Game("parlett", position=PARLETT_ELEVEN).solve(samples=10, rng_seed=3)
    assert {**again.record(), "seconds": 0} == {**few.record(), "seconds": 0}
    hints = solver.hint("parlett", position=PARLETT_ELEVEN, samples=10, rng_seed=3)
    assert all(h.orders == 10 and not h.exact for h in hints)
    # Five cards: their 120 orders are all counted whatever --samples asks for.
    every = solver.solve("parlett", position=PARLETT, samples=10, rng_seed=3)
    assert isinstance(every, solver.api.Chances) and every.orders == 120 and every.exact
    with pytest.raises(UserError, match="samples draws orders of a face-down stock"):
        solver.solve("parlett", seed=1, samples=10)
    with pytest.raises(UserError, match="rng_seed draws orders"):
        solver.hint("parlett", position="row: KC 9D | stock: 3C 5H", rng_seed=1)
    with pytest.raises(UserError, match="samples must be at least 1"):
        solver.solve("parlett", position=PARLETT, samples=0)
    with pytest.raises(ArgumentTypeError, match="samples must be a whole number"):
        solver.solve("parlett", position=PARLETT, samples=1.5)  # type: ignore[arg-type]
    with pytest.raises(UserError, match="fewest_redeals needs every card known"):
        solver.solve("parlett", position=PARLETT, fewest_redeals=True)


def test_a_game_copy_keeps_its_own_face_down_cards() -> None:
    game = solver.Game("parlett", position="row: KC 9D 8S QD 7C KH AS TD 2S | stock: {5H 8C 4S}")
    twin = game.copy()
    twin.play("deal 8C")
    assert game.unseen == {parse_card(name) for name in ("5H", "8C", "4S")} and game.moves == []
    assert twin.unseen == {parse_card("5H"), parse_card("4S")} and twin.position.endswith("8C | stock: {5H 4S}")
    assert twin.copy().position == twin.position


def test_a_known_stock_has_nothing_unseen_and_braces_are_refused_where_no_stock_is() -> None:
    game = solver.Game("parlett", seed=2)
    assert game.unseen == frozenset() and "{" not in game.position
    with pytest.raises(MoveError, match="none lies face down"):
        game.play(game.legal_moves[0], drawn=["5H"])
    with pytest.raises(UserError, match="keeps no stock"):
        solver.Game("accordion", position="row: KC 9D | stock: {5H 8C}")


def test_the_moves_played_name_the_cards_drawn_and_replay_the_game() -> None:
    game = solver.Game("baroness", position=BARONESS_FIVE)
    game.replay(["deal KH AC JD 6S QC", "discard KH", "discard AC+QC", "discard 2S+JD"])
    game.play("deal TH AD 6C 8C 4H 2C JS")  # five on the piles, the last two grace cards
    assert game.unseen == frozenset() and game.position.endswith("| grace: 2C JS | stock: -")
    for line in (game.moves, [str(move) for move in game.moves]):
        again = solver.Game("baroness", position=BARONESS_FIVE)
        again.replay(line)
        assert again.position == game.position and again.moves == game.moves


def test_a_count_of_face_down_cards_is_read_and_written_as_the_cards() -> None:
    table = BARONESS_FIVE.split(" | stock:")[0]
    gone = sorted(set(CARDS) - _braced(BARONESS_FIVE) - _outside(BARONESS_FIVE))
    counted = solver.Game("baroness", position=f"{table} | stock: {{12}} | out: {' '.join(map(str, gone))}")
    assert counted.position == BARONESS_FIVE and counted.unseen == _braced(BARONESS_FIVE)

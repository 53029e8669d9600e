"""Accordion's historic variants (Idle Year, Parlett, self-working), every option combination, and
every variant's positions and pictures.

The brute force (tests/brute/accordion.py) is separate from rulesets.accordion: a layout is whole
piles of card names plus the undealt stock, cards are dealt one at a time, and the options are
applied as the rules word them. It enumerates every reachable state.
"""

from __future__ import annotations

import json

import pytest
from brute.accordion import (
    COMBINATIONS,
    Rules,
    choices,
    end_layouts,
    ended,
    open_row_layouts,
    opening,
    play,
    self_working,
)
from helpers import random_play, reachable_states, run_cli
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rulesets import families
from rulesets.accordion import DealtAccordion, DealtAccordionState, OpenAccordion
from rulesets.cards import CARDS, NAME, parse_cards
from rulesets.deals import seeded_deal
from rulesets.moves import DEAL
from rulesets.notation import PositionError
from solver.engine import engine_of
from solver.protocol import NO_SCORE
from solver.replay import replay
from solver.result import Limits, Verdict

FAMILY = families()["accordion"]
VARIANTS = ("idle-year", "parlett", "self-working")
DEFAULT = Rules(False, False, False, "choice")
COMPULSORY = [rules for rules in COMBINATIONS if rules.compulsory]


# --- helpers joining the engine to the brute force -------------------------------------------


def names(cards) -> list[str]:
    return [str(card) for card in cards]


def tops(piles) -> tuple[str, ...]:
    return tuple(pile[-1] for pile in piles)


def engine_row(row) -> tuple[str, ...]:
    return tuple(NAME[code] for code in row)


def as_choice(move):
    return "deal" if move is DEAL else (move.pile, move.distance)


def build(rules: Rules):
    """The ruleset a user gets for these option values (OpenAccordion when every option is off)."""
    return FAMILY.build(rules._asdict())


def preset(variant: str) -> Rules:
    return Rules(**FAMILY.settings(variant))


def row_and_stock(state) -> tuple[bytes, bytes]:
    """The top cards and the undealt stock of either ruleset's state (the open row has no stock)."""
    return (state.row, state.stock) if isinstance(state, DealtAccordionState) else (state[0], b"")


def engine_end_rows(game, start) -> set:
    """Top cards of every reachable engine state where the game has ended."""
    return {
        engine_row(state.row)
        for state in reachable_states(game, start)
        if not state.stock and game.score(state) != NO_SCORE
    }


def small_decks(max_size: int = 10):
    """Up to ``max_size`` distinct cards (sizes drawn evenly): from the whole deck, or from A-4
    only, where matches are more frequent."""
    low = [card for card in CARDS if card.rank <= 4]
    return st.tuples(st.integers(1, max_size), st.sampled_from([CARDS, low])).flatmap(
        lambda size_pool: st.lists(
            st.sampled_from(size_pool[1]), min_size=size_pool[0], max_size=size_pool[0], unique=True
        )
    )


# --- agreement with the brute force, every option combination ----------------------------------


@pytest.mark.one_engine  # the rules against the brute force: no search
@settings(max_examples=100)
@given(small_decks())
def test_every_combination_agrees_with_brute_force_state_by_state(cards):
    """Walks the brute force's whole state space beside the engine's: the same legal choices in
    every reachable state, the same layouts, NO_SCORE exactly where a dealt-out game cannot end,
    and the same set of end layouts."""
    for rules in COMBINATIONS:
        game = DealtAccordion(**rules._asdict())
        start = opening(names(cards))
        pairs, todo = {start: game.start(cards)}, [start]
        while todo:
            state = todo.pop()
            mine = pairs[state]
            assert engine_row(mine.row) == tops(state[0]) and engine_row(mine.stock) == state[1]
            moves = game.moves(mine)
            assert sorted(map(as_choice, moves), key=str) == sorted(choices(state, rules), key=str), (rules, state)
            if rules.order == "leftmost":
                assert sum(move is not DEAL for move in moves) <= 1
            if not state[1]:
                expected = len(state[0]) if ended(state, rules) else NO_SCORE
                assert game.score(mine) == expected, (rules, state)
            elif rules.compulsory:
                assert game.score(mine) == NO_SCORE
            for move in moves:
                after = play(state, as_choice(move))
                if after not in pairs:
                    pairs[after] = game.apply(mine, move)
                    todo.append(after)
        engine_ends = engine_end_rows(game, game.start(cards))
        assert engine_ends == {tops(piles) for piles in end_layouts(names(cards), rules)}, rules


@settings(max_examples=100)
@given(small_decks())
def test_every_combination_verdict_and_min_piles_equal_brute_force(cards):
    """Through the family's builder (what `patience solve --option ...` runs), for all 16 settings."""
    for rules in COMBINATIONS:
        ends = end_layouts(names(cards), rules)
        best = min(len(piles) for piles in ends)
        game = build(rules)
        start = game.start(cards)
        result = engine_of(game).depth_first(start)
        assert result.best_score == best, rules
        assert result.verdict is (Verdict.WON if best == 1 else Verdict.LOST)
        if isinstance(game, DealtAccordion):  # its line is legal under the brute force's rules too
            state = opening(names(cards))
            for move in result.best_line:
                assert as_choice(move) in choices(state, rules), (rules, state, move)
                state = play(state, as_choice(move))
            assert len(state[0]) + len(state[1]) == best
        else:
            assert replay(game, start, result.best_line).illegal_at is None


@settings(max_examples=60)
@given(small_decks(9))
def test_every_best_line_is_a_whole_game_ending_at_the_minimal_pile_count(cards):
    """A dealt game ends only with its deck dealt out: the best line deals the last card, and no
    state with cards still to deal has a score."""
    for rules in COMBINATIONS:
        game = build(rules)
        if isinstance(game, OpenAccordion):
            continue  # the open row has no stock: every layout is an end
        start = game.start(cards)
        result = engine_of(game).depth_first(start)
        state = opening(names(cards))
        for move in result.best_line:
            assert as_choice(move) in choices(state, rules), (rules, state, move)
            state = play(state, as_choice(move))
        assert ended(state, rules) and len(state[0]) == result.best_score, rules
        for current in reachable_states(game, start):
            if current.stock:
                assert game.score(current) == NO_SCORE, (rules, current)


# --- the variants' properties -------------------------------------------------------------------


@settings(max_examples=100)
@given(small_decks())
def test_compulsory_outcomes_are_a_subset_of_the_default_variants(cards):
    """Every layout a compulsory variant can end in is reachable in the default game, so its
    minimal pile count is never lower."""
    game = build(DEFAULT)
    default = {engine_row(state[0]) for state in reachable_states(game, game.start(cards))}
    default_best = min(len(row) for row in default)
    for rules in COMPULSORY:
        game = DealtAccordion(**rules._asdict())
        ends = engine_end_rows(game, game.start(cards))
        assert ends and ends <= default, rules
        assert min(len(row) for row in ends) >= default_best


@settings(max_examples=150)
@given(st.one_of(st.permutations(CARDS), small_decks(16)))
def test_self_working_is_the_plain_simulation(cards):
    """One line of play, move for move the loop's, ending in the loop's layout."""
    game = build(preset("self-working"))
    expected = self_working(names(cards))
    state = game.start(cards)
    result = engine_of(game).depth_first(state)
    assert result.best_score == len(expected)
    assert result.verdict is (Verdict.WON if len(expected) == 1 else Verdict.LOST)
    while game.moves(state):
        assert len(game.moves(state)) == 1
        state = game.apply(state, game.moves(state)[0])
    assert engine_row(state.row) == tops(expected) and not state.stock
    assert replay(game, game.start(cards), result.best_line).final == state


@settings(max_examples=60)
@given(small_decks(9))
def test_default_dealt_one_at_a_time_reaches_exactly_the_open_rows_layouts(cards):
    """Dealing at will is the same as dealing everything first: shown here on whole piles with the
    brute force (tests/test_accordion.py shows it for the engine's two classes)."""
    assert end_layouts(names(cards), DEFAULT) == open_row_layouts(names(cards))


# --- full deals: the variants against each other and the default -------------------------------


def solved(variant: str, deal):
    game = build(preset(variant))
    start = game.start(deal)
    return game, start, engine_of(game).depth_first(start, limits=Limits(max_nodes=2_000_000))


@pytest.mark.parametrize("seed", [1, 2, 3, 7, 11, 617, 31999, 32000])
def test_variants_on_seeded_deals_replay_in_the_open_row_and_nest(seed):
    """Each variant's best line, its deals dropped, is a legal default line to the same row (moves
    only look left); the stricter the rules, the higher the minimum: self-working >= idle-year
    >= parlett >= default."""
    deal = seeded_deal(seed)
    open_row = OpenAccordion()
    best = {}
    for variant in VARIANTS:
        game, start, result = solved(variant, deal)
        assert result.verdict is not Verdict.UNKNOWN
        final = replay(game, start, result.best_line)
        assert final.illegal_at is None and not final.final.stock and not game.moves(final.final)
        assert len(final.final.row) == result.best_score
        pile_moves_only = [move for move in result.best_line if move is not DEAL]
        open_replay = replay(open_row, open_row.start(deal), pile_moves_only)
        assert open_replay.illegal_at is None and open_replay.final[0] == final.final.row
        best[variant] = result.best_score
    assert best["self-working"] >= best["idle-year"] >= best["parlett"]
    open_result = engine_of(open_row).depth_first(open_row.start(deal), limits=Limits(max_nodes=300_000))
    if open_result.verdict is not Verdict.UNKNOWN:
        assert best["parlett"] >= open_result.best_score


def test_variant_minima_agree_with_brute_force_on_a_full_deal():
    """On 52 cards too, for the two variants with choices (seed 7)."""
    deal = seeded_deal(7)
    for variant in ("idle-year", "parlett"):
        ends = end_layouts(names(deal), preset(variant))
        _, _, result = solved(variant, deal)
        assert result.best_score == min(len(piles) for piles in ends), variant


# --- positions, pictures and move texts, every option combination ---------------------------


def check_picture(game, state) -> set[str]:
    """The picture holds exactly the state's cards: the piles' top cards face up, labelled 1, 2, ...
    13 to a line, and for a dealt game the stock face down. Returns the picture's labels."""
    row, stock = row_and_stock(state)
    places = [place for line in game.picture(state).rows for place in line]
    piles = [place for place in places if place.label != "stock"]
    assert [place.cards for place in piles] == [(code,) for code in row]
    assert [place.label for place in piles] == [str(pile) for pile in range(1, len(row) + 1)]
    assert all(place.face_down == 0 for place in piles)
    assert all(len(line) <= 13 for line in game.picture(state).rows)
    stocks = [place for place in places if place.label == "stock"]
    if isinstance(game, DealtAccordion):
        assert [(place.cards, place.face_down) for place in stocks] == [((), len(stock))]
    else:
        assert not stocks and not stock
    return {place.label for place in places}


@settings(max_examples=100)
@given(
    st.sampled_from(COMBINATIONS),
    st.one_of(st.permutations(CARDS), small_decks(16)),
    st.randoms(use_true_random=False),
)
def test_positions_pictures_and_move_texts_on_random_play(rules, cards, rng):
    """On every state of a random line: the position reads back to the same state, the picture
    holds exactly its cards, each move's text reads back to the move, and a move touches only
    places the picture after it shows."""
    game = build(rules)
    start = game.start(cards)
    assert game.read_position(game.write_position(start)) == start
    check_picture(game, start)
    for before, move in random_play(game, start, rng, 200):
        if move is None:
            break
        after = game.apply(before, move)
        assert game.read_position(game.write_position(after)) == after
        assert game.parse_move(before, game.describe_move(before, move)) == move
        assert game.touched(before, move) <= check_picture(game, after)


@settings(max_examples=60)
@given(st.sampled_from(COMBINATIONS), small_decks(10), st.integers(0, 20))
@example(DEFAULT, parse_cards("AS 2S 3S 4S 5S 6S 7S 8S"), 3)
@example(preset("idle-year"), parse_cards("AS 2S 3S 4S 5S 6S 7S 8S"), 3)
@example(preset("parlett"), parse_cards("AS 2S 3S 4S 5S 6S 7S 8S"), 3)
@example(preset("self-working"), parse_cards("AS 2S 3S 4S 5S 6S 7S 8S"), 3)
def test_the_position_after_k_moves_of_a_best_line_solves_to_the_same_answer(rules, cards, k):
    """Read back from its text, the position k moves into a best line is won when the line wins
    and otherwise has the same minimal pile count (the rest of the line reaches it)."""
    game = build(rules)
    start = game.start(cards)
    result = engine_of(game).depth_first(start)
    state = replay(game, start, result.best_line[:k]).final
    again = engine_of(game).depth_first(game.read_position(game.write_position(state)))
    assert again.verdict is result.verdict and again.best_score == result.best_score


@pytest.mark.parametrize(("variant", "seed"), [("accordion", 7), ("parlett", 2)])
def test_the_position_along_a_won_full_deal_stays_won(variant, seed):
    game, start, result = solved(variant, seeded_deal(seed))
    assert result.verdict is Verdict.WON
    for k in (0, 10, 30, len(result.solution) - 1):
        state = replay(game, start, result.solution[:k]).final
        assert engine_of(game).depth_first(game.read_position(game.write_position(state))).verdict is Verdict.WON


def test_a_deals_opening_is_a_position_like_any_other():
    deal = seeded_deal(1)
    dealt = build(preset("parlett"))
    assert OpenAccordion().write_position(OpenAccordion().start(deal)) == "row: " + " ".join(names(deal))
    assert dealt.write_position(dealt.start(deal)) == f"row: {deal[0]} | stock: " + " ".join(names(deal[1:]))
    assert dealt.write_position(DealtAccordionState(bytes([0]), b"")) == "row: AC | stock: -"


def test_the_open_row_reads_a_stock_as_dealt_onto_the_row():
    game = OpenAccordion()
    assert game.read_position("row: AS 2S | stock: 3S 4S") == game.start(parse_cards("AS 2S 3S 4S"))
    assert game.read_position("row: AS 2S | stock: -") == game.start(parse_cards("AS 2S"))


@pytest.mark.parametrize(
    ("dealt", "text", "message"),
    [
        (False, "row: AS 2S AS", "holds AS more than once"),
        (False, "row: AS 2S | stock: 2S", "holds 2S more than once"),
        (True, "row: AS | stock: 2S AS", "holds AS more than once"),
        (False, "row: -", "row is empty"),
        (True, "row: - | stock: AS", "row is empty"),
        (False, "row: AS ZZ", "unknown card 'ZZ'"),
        (True, "row: AS | stock: 1S", "unknown card '1S'"),
        (True, "row: AS 2S", "needs a 'stock' section"),
        (False, "row: AS | piles: 2S", "unknown section 'piles'"),
        (False, "row: AS | row: 2S", "appears twice"),
        (False, "AS 2S", "cannot read Accordion position section"),
    ],
)
def test_impossible_positions_are_refused_in_one_line(dealt, text, message):
    game = build(preset("parlett") if dealt else DEFAULT)
    with pytest.raises(PositionError, match=message) as refused:
        game.read_position(text)
    assert "\n" not in str(refused.value)


def test_the_picture_wraps_the_row_13_to_a_line_and_shows_the_stock_face_down():
    deal = seeded_deal(1)
    open_row = OpenAccordion()
    assert [len(line) for line in open_row.picture(open_row.start(deal)).rows] == [13, 13, 13, 13]
    dealt = build(preset("parlett"))
    picture = dealt.picture(dealt.start(deal))
    assert picture.rows[-1][0].label == "stock" and picture.rows[-1][0].face_down == 51
    assert "51 face down" in picture.text()


def test_touched_names_the_pile_moved_onto_and_a_deal_the_new_pile_and_the_stock():
    game = OpenAccordion()
    state = game.start(parse_cards("AS 2D 3C 4H 4C"))
    assert game.touched(state, game.parse_move(state, "4C -> 4H")) == {"4"}
    assert game.touched(state, game.parse_move(state, "4C -> 2D (leap)")) == {"2"}
    dealt = build(preset("parlett"))
    state = dealt.read_position("row: AS 2D | stock: 3C")
    assert dealt.touched(state, DEAL) == {"3", "stock"}
    assert dealt.describe_move(state, DEAL) == "deal 3C"


# --- the command line ---------------------------------------------------------------------------


def cli(*args):
    result = run_cli(*args)
    assert result.exit_code == 0, result.output
    return result.output


def test_cli_solves_parlett_seed_7_as_json_and_the_line_verifies(tmp_path):
    record = json.loads(cli("solve", "accordion", "--variant", "parlett", "--seed", "7", "--json"))
    assert record["variant"] == "parlett" and record["seed"] == 7
    assert record["options"] == {
        "compulsory": True,
        "nearest": False,
        "leap_only_without_slide": False,
        "order": "choice",
    }
    deal = seeded_deal(7)
    best = min(len(piles) for piles in end_layouts(names(deal), preset("parlett")))
    assert record["min_piles"] == best and record["score_proven"] is True
    assert record["result"] == ("won" if best == 1 else "lost")
    assert record["sheinwold"] is (best <= 5)
    line = record["solution"] or record["best_line"]
    assert sum(text.split()[0] == "deal" for text in line) == 51
    saved = tmp_path / "parlett7.json"
    saved.write_text(json.dumps(record) + "\n")
    verdict = cli("verify", "accordion", "--variant", "parlett", "--seed", "7", "--solution", str(saved))
    assert f"valid: all {len(line)} moves legal" in verdict
    assert ("the game is won" in verdict) if best == 1 else (f"piles: {best}" in verdict)


def test_cli_options_combine_freely_and_presets_are_options():
    idle = json.loads(cli("solve", "accordion", "--variant", "idle-year", "--seed", "3", "--json"))
    combined = json.loads(
        cli("solve", "accordion", "--variant", "parlett", "-o", "nearest=yes", "--seed", "3", "--json")
    )
    assert combined["options"] == idle["options"] and combined["min_piles"] == idle["min_piles"]
    mixed = json.loads(
        cli("solve", "accordion", "-o", "compulsory=yes", "-o", "order=leftmost", "--seed", "3", "--json")
    )
    rules = Rules(True, False, False, "leftmost")
    assert mixed["options"] == rules._asdict()
    assert mixed["min_piles"] == min(len(p) for p in end_layouts(names(seeded_deal(3)), rules))
    text = cli("describe", "accordion")
    for variant in VARIANTS:
        assert variant in text


def test_self_working_json_line_is_the_simulation_and_legal_under_the_looser_variants(tmp_path):
    """The self-working line is one of the choices Idle Year and Parlett leave open, so it verifies
    there too, ending with the same piles."""
    record = json.loads(cli("solve", "accordion", "--variant", "self-working", "--seed", "11", "--json"))
    expected = self_working(names(seeded_deal(11)))
    assert record["min_piles"] == len(expected) and record["sheinwold"] is (len(expected) <= 5)
    saved = tmp_path / "self-working11.json"
    saved.write_text(json.dumps(record) + "\n")
    for variant in VARIANTS:
        verdict = cli("verify", "accordion", "--variant", variant, "--seed", "11", "--solution", str(saved))
        assert "valid" in verdict and (f"piles: {len(expected)}" in verdict or "won" in verdict)

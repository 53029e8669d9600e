"""Accordion's historic variants (Idle Year, Parlett, self-working) and every option combination.

The brute force here is separate from rulesets.accordion and from tests/accordion_brute.py: a
layout is whole piles of card strings plus the undealt stock, cards are dealt one at a time, and
the options are applied as RULES.md words them. It enumerates every reachable state.
"""

from __future__ import annotations

import itertools
import json
from typing import NamedTuple

import pytest
from hypothesis import given, settings, strategies as st
from typer.testing import CliRunner

from rulesets import families
from rulesets.accordion import DealtRow, OpenRow
from rulesets.cards import CARDS, parse_cards
from rulesets.deals import seeded_deal
from solver.cli import app
from solver.protocol import NO_SCORE
from solver.replay import replay
from solver.result import Limits, Verdict
from solver.search import depth_first

FAMILY = families()["accordion"]
VARIANTS = ("idle-year", "parlett", "self-working")


class Rules(NamedTuple):
    compulsory: bool
    nearest: bool
    leap_only_without_slide: bool
    order: str


#: All 2*2*2*2 option settings.
COMBINATIONS = [Rules(*values) for values in itertools.product((False, True), (False, True), (False, True), ("choice", "leftmost"))]
COMPULSORY = [rules for rules in COMBINATIONS if rules.compulsory]


def combo_id(rules: Rules) -> str:
    on = [name for name, value in rules._asdict().items() if value is True] + [rules.order]
    return "+".join(on)


# --- the brute force: whole piles, rules as written -------------------------------------------

def same(a: str, b: str) -> bool:
    """Two cards match when they share rank or suit ('7H' and '7C', '7H' and 'KH')."""
    return a[0] == b[0] or a[1] == b[1]


def pile_moves(piles, rules: Rules) -> list:
    """(pile index, 1 for a slide or 3 for a leap) that the options allow."""
    slides = [i for i in range(1, len(piles)) if same(piles[i][-1], piles[i - 1][-1])]
    leaps = [i for i in range(3, len(piles)) if same(piles[i][-1], piles[i - 3][-1])]
    if rules.leap_only_without_slide and slides:
        leaps = []  # a leap is legal only when no slide is available anywhere in the row
    if rules.nearest:
        leaps = [i for i in leaps if i not in slides]  # a pile that can slide must slide
    found = [(i, 1) for i in slides] + [(i, 3) for i in leaps]
    if rules.order == "leftmost" and found:
        first = min(i for i, _ in found)  # the leftmost pile that can move: a slide if it can
        found = [(first, 1) if first in slides else (first, 3)]
    return found


def choices(state, rules: Rules) -> list:
    """The player's options: allowed pile moves, and 'deal' unless compulsion forbids it."""
    piles, stock = state
    found = pile_moves(piles, rules)
    if stock and not (rules.compulsory and found):
        found.append("deal")
    return found


def play(state, choice):
    piles, stock = state
    if choice == "deal":
        return piles + ((stock[0],),), stock[1:]
    i, distance = choice
    j = i - distance
    return piles[:j] + (piles[j] + piles[i],) + piles[j + 1 : i] + piles[i + 1 :], stock


def ended(state, rules: Rules) -> bool:
    """The game may end here: the whole deck dealt and, if moves are compulsory, none left."""
    piles, stock = state
    return not stock and not (rules.compulsory and pile_moves(piles, rules))


def opening(cards: list[str]):
    return ((cards[0],),), tuple(cards[1:])


def reachable(cards: list[str], rules: Rules) -> set:
    seen, todo = {opening(cards)}, [opening(cards)]
    while todo:
        state = todo.pop()
        for choice in choices(state, rules):
            after = play(state, choice)
            if after not in seen:
                seen.add(after)
                todo.append(after)
    return seen


def end_layouts(cards: list[str], rules: Rules) -> set:
    """Every layout (whole piles) in which the game ends."""
    return {state[0] for state in reachable(cards, rules) if ended(state, rules)}


def open_row_layouts(cards: list[str]) -> set:
    """Every layout reachable with the whole deck laid out first, moving at will."""
    start = tuple((card,) for card in cards)
    seen, todo = {start}, [start]
    while todo:
        piles = todo.pop()
        for i in range(1, len(piles)):
            for j in (i - 1, i - 3):
                if j >= 0 and same(piles[i][-1], piles[j][-1]):
                    after = piles[:j] + (piles[j] + piles[i],) + piles[j + 1 : i] + piles[i + 1 :]
                    if after not in seen:
                        seen.add(after)
                        todo.append(after)
    return seen


def self_working(cards: list[str]) -> list[list[str]]:
    """The self-working game as a plain loop: deal a card, then while anything can move, move the
    leftmost pile that can slide, or (no slide anywhere) the leftmost pile that can leap."""
    piles: list[list[str]] = []
    for card in cards:
        piles.append([card])
        while True:
            slides = [i for i in range(1, len(piles)) if same(piles[i][-1], piles[i - 1][-1])]
            leaps = [i for i in range(3, len(piles)) if same(piles[i][-1], piles[i - 3][-1])]
            if slides:
                i, j = slides[0], slides[0] - 1
            elif leaps:
                i, j = leaps[0], leaps[0] - 3
            else:
                break
            piles[j].extend(piles.pop(i))
    return piles


# --- helpers joining the engine to the brute force -------------------------------------------

def names(cards) -> list[str]:
    return [str(card) for card in cards]


def tops(piles) -> tuple[str, ...]:
    return tuple(pile[-1] for pile in piles)


def engine_row(row) -> tuple[str, ...]:
    return tuple(str(CARDS[code]) for code in row)


def names_of_stock(state) -> tuple[str, ...]:
    return engine_row(state.stock)


def as_choice(move):
    return "deal" if move.distance == 0 else (move.pile, move.distance)


def build(rules: Rules):
    """The ruleset a user gets for these option values (OpenRow when every option is off)."""
    return FAMILY.build(rules._asdict())


def preset(variant: str) -> Rules:
    return Rules(**FAMILY.settings(variant))


def shown(game, state) -> tuple[str, ...]:
    """The top cards left to right as the ruleset draws them (its state form is its own)."""
    return tuple(game.render(state).split("[", 1)[0].split())


def engine_end_rows(game, start) -> set:
    """Top cards of every reachable engine state where the game has ended."""
    seen, todo, ends = {start}, [start], set()
    while todo:
        state = todo.pop()
        if not state.stock and game.score(state) != NO_SCORE:
            ends.add(engine_row(state.row))
        for move in game.moves(state):
            after = game.apply(state, move)
            if after not in seen:
                seen.add(after)
                todo.append(after)
    return ends


def default_layouts(cards) -> set:
    """Top cards of every layout the default variant (as the family builds it) reaches."""
    game = build(Rules(False, False, False, "choice"))
    start = game.start(cards)
    seen, todo = {start}, [start]
    while todo:
        current = todo.pop()
        for move in game.moves(current):
            after = game.apply(current, move)
            if after not in seen:
                seen.add(after)
                todo.append(after)
    return {shown(game, state) for state in seen}


def small_decks(max_size: int = 10):
    """Up to ``max_size`` distinct cards (sizes drawn evenly): from the whole deck, or from A-4
    only, where matches are more frequent."""
    low = [card for card in CARDS if card.rank <= 4]
    return st.tuples(st.integers(1, max_size), st.sampled_from([CARDS, low])).flatmap(
        lambda size_pool: st.lists(st.sampled_from(size_pool[1]), min_size=size_pool[0], max_size=size_pool[0], unique=True)
    )


# --- agreement with the brute force, every option combination ----------------------------------

@settings(max_examples=100)
@given(small_decks())
def test_every_combination_agrees_with_brute_force_state_by_state(cards):
    """Walks the brute force's whole state space beside the engine's: the same legal choices in
    every reachable state, the same layouts, NO_SCORE exactly where a dealt-out game cannot end,
    and the same set of end layouts."""
    for rules in COMBINATIONS:
        game = DealtRow(**rules._asdict())
        start = opening(names(cards))
        pairs, todo = {start: game.start(cards)}, [start]
        while todo:
            state = todo.pop()
            mine = pairs[state]
            assert engine_row(mine.row) == tops(state[0]) and names_of_stock(mine) == state[1]
            moves = game.moves(mine)
            assert sorted(map(as_choice, moves), key=str) == sorted(choices(state, rules), key=str), (rules, state)
            if rules.order == "leftmost":
                assert sum(move.distance != 0 for move in moves) <= 1
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
        result = depth_first(game, start)
        assert result.best_score == best, rules
        assert result.verdict is (Verdict.WON if best == 1 else Verdict.LOST)
        if isinstance(game, DealtRow):  # its line is legal under the brute force's rules too
            state = opening(names(cards))
            for move in result.best_line:
                assert as_choice(move) in choices(state, rules), (rules, state, move)
                state = play(state, as_choice(move))
            assert len(state[0]) + len(state[1]) == best
        else:
            assert replay(game, start, result.best_line).illegal_at is None


# The next test depends on /tmp/dealtrow.patch (see the report of issue 3): without it, DealtRow
# with compulsory=no scores a state with cards still in the stock as if they were dealt with no
# further move, so the reported best line can stop before the last card is dealt — it reaches the
# minimal score but not an end of the game ("the game ends with the deck dealt"). Once the patch
# is applied the condition below is False and the test runs normally.
_UNDEALT = DealtRow(nearest=True)
NEEDS_DEALTROW_PATCH = _UNDEALT.score(_UNDEALT.start(parse_cards("AS 2H"))) != NO_SCORE


@pytest.mark.xfail(NEEDS_DEALTROW_PATCH, reason="DealtRow scores states with an undealt stock; see /tmp/dealtrow.patch", strict=True)
@settings(max_examples=60)
@given(small_decks(9))
def test_every_best_line_is_a_whole_game_ending_at_the_minimal_pile_count(cards):
    for rules in COMBINATIONS:
        game = build(rules)
        if isinstance(game, OpenRow):
            continue  # the open row has no stock: every layout is an end
        start = game.start(cards)
        result = depth_first(game, start)
        state = opening(names(cards))
        for move in result.best_line:
            assert as_choice(move) in choices(state, rules), (rules, state, move)
            state = play(state, as_choice(move))
        assert ended(state, rules) and len(state[0]) == result.best_score, rules
        seen, todo = {start}, [start]
        while todo:
            current = todo.pop()
            if current.stock:
                assert game.score(current) == NO_SCORE, (rules, current)  # cards still to deal: no end
            for move in game.moves(current):
                after = game.apply(current, move)
                if after not in seen:
                    seen.add(after)
                    todo.append(after)


# --- the properties of the issue ---------------------------------------------------------------

@settings(max_examples=100)
@given(small_decks())
def test_compulsory_outcomes_are_a_subset_of_the_default_variants(cards):
    """Every layout a compulsory variant can end in is reachable in the default game, so its
    minimal pile count is never lower."""
    default = default_layouts(cards)
    default_best = min(len(row) for row in default)
    for rules in COMPULSORY:
        game = DealtRow(**rules._asdict())
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
    result = depth_first(game, state)
    assert result.best_score == len(expected)
    assert result.verdict is (Verdict.WON if len(expected) == 1 else Verdict.LOST)
    while game.moves(state):
        assert len(game.moves(state)) == 1
        state = game.apply(state, game.moves(state)[0])
    assert engine_row(state.row) == tuple(pile[-1] for pile in expected) and not state.stock
    assert replay(game, game.start(cards), result.best_line).final == state


@settings(max_examples=60)
@given(small_decks(9))
def test_default_dealt_one_at_a_time_reaches_exactly_the_open_rows_layouts(cards):
    """RULES.md: dealing at will is the same as dealing everything first. Shown here on whole piles
    with the brute force (tests/test_accordion.py shows it for the engine's two classes)."""
    rules = Rules(False, False, False, "choice")
    assert end_layouts(names(cards), rules) == open_row_layouts(names(cards))


# --- full deals: the variants against each other and the default -------------------------------

def solved(variant: str, deal):
    game = build(preset(variant))
    start = game.start(deal)
    return game, start, depth_first(game, start, Limits(max_nodes=2_000_000))


@pytest.mark.parametrize("seed", [1, 2, 3, 7, 11, 617, 31999, 32000])
def test_variants_on_seeded_deals_replay_in_the_open_row_and_nest(seed):
    """Each variant's best line, its deals dropped, is a legal default line to the same row (moves
    only look left); the stricter the rules, the higher the minimum: self-working >= idle-year
    >= parlett >= default."""
    deal = seeded_deal(seed)
    best = {}
    for variant in VARIANTS:
        game, start, result = solved(variant, deal)
        assert result.verdict is not Verdict.UNKNOWN
        final = replay(game, start, result.best_line)
        assert final.illegal_at is None and not final.final.stock and not game.moves(final.final)
        assert len(final.final.row) == result.best_score
        pile_moves_only = [move for move in result.best_line if move.distance != 0]
        open_replay = replay(OpenRow(), OpenRow().start(deal), pile_moves_only)
        assert open_replay.illegal_at is None and shown(OpenRow(), open_replay.final) == engine_row(final.final.row)
        best[variant] = result.best_score
    assert best["self-working"] >= best["idle-year"] >= best["parlett"]
    open_result = depth_first(OpenRow(), OpenRow().start(deal), Limits(max_nodes=300_000))
    if open_result.verdict is not Verdict.UNKNOWN:
        assert best["parlett"] >= open_result.best_score


def test_variant_minima_agree_with_brute_force_on_a_full_deal():
    """On 52 cards too, for the two variants with choices (seed 7 as in the issue's example)."""
    deal = seeded_deal(7)
    for variant in ("idle-year", "parlett"):
        rules = preset(variant)
        ends = end_layouts(names(deal), rules)
        _, _, result = solved(variant, deal)
        assert result.best_score == min(len(piles) for piles in ends), variant


# --- the command line ---------------------------------------------------------------------------

runner = CliRunner()


def cli(*args):
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.output


def test_cli_solves_parlett_seed_7_as_json_and_the_line_verifies(tmp_path):
    record = json.loads(cli("solve", "accordion", "--variant", "parlett", "--seed", "7", "--json"))
    assert record["variant"] == "parlett" and record["seed"] == 7
    assert record["options"] == {"compulsory": True, "nearest": False, "leap_only_without_slide": False, "order": "choice"}
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
    combined = json.loads(cli("solve", "accordion", "--variant", "parlett", "-o", "nearest=yes", "--seed", "3", "--json"))
    assert combined["options"] == idle["options"] and combined["min_piles"] == idle["min_piles"]
    mixed = json.loads(cli("solve", "accordion", "-o", "compulsory=yes", "-o", "order=leftmost", "--seed", "3", "--json"))
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

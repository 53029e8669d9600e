"""Amazons: rules properties, notation, seeded deals, and agreement with a brute force on small decks.

The brute force below is written from RULES.md alone: its own card representation, its own move
rules, a breadth-first enumeration of every reachable layout, and a 0-1 BFS over redeal cost. It
shares no code with rulesets/amazons.py.
"""

from __future__ import annotations

import itertools
import random
from collections import deque

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulesets import families
from rulesets.amazons import FAMILIES, Amazons
from rulesets.cards import CARDS, Card, format_cards, parse_cards
from rulesets.deals import STRIPPED_RANKS
from rulesets.notation import MoveError
from solver.replay import checked, replay
from solver.result import Limits, Verdict
from solver.search import depth_first, iterative_deepening, line_cost

FAMILY = FAMILIES[0]
OPTION_NAMES = ("gather", "queen_any_depot", "compulsory", "any_suit", "ace_any_place", "skip_complete")
ALL_OPTIONS = [
    dict(zip(OPTION_NAMES, values))
    for values in itertools.product(("left-to-right", "right-to-left"), *[(False, True)] * 5)
]


def option_id(options: dict) -> str:
    return "-".join([options["gather"][:1]] + [name[:4] for name in OPTION_NAMES[1:] if options[name]])


# ----- the brute force, from the rules as written ----------------------------------------------


class Brute:
    """Amazons on any small deck, written plainly: cards are (rank, suit) pairs."""

    def __init__(self, ranks, piles, gather, queen_any_depot, compulsory, any_suit, ace_any_place, skip_complete):
        self.order = list(ranks)  # foundation order, Ace first
        self.piles = piles
        self.opts = dict(
            gather=gather,
            queen=queen_any_depot,
            compulsory=compulsory,
            any_suit=any_suit,
            ace_any=ace_any_place,
            skip=skip_complete,
        )

    def dealt_to(self, foundations):
        if self.opts["skip"]:
            return [i for i in range(self.piles) if len(foundations[i]) != len(self.order)]
        return list(range(self.piles))

    def deal(self, depots, stock, foundations):
        depots = [list(d) for d in depots]
        stock = list(stock)
        for i in self.dealt_to(foundations):
            if stock:
                depots[i].append(stock.pop(0))
        return tuple(tuple(d) for d in depots), tuple(stock)

    def start(self, cards):
        foundations = ((),) * self.piles
        depots, stock = self.deal(((),) * self.piles, tuple(cards), foundations)
        return (depots, stock, foundations)

    def takes(self, place, card):
        if not place:
            return False
        top = place[-1]
        if self.order.index(card[0]) != self.order.index(top[0]) + 1:
            return False
        return self.opts["any_suit"] or top[1] == card[1]

    def plays(self, state):
        depots, stock, foundations = state
        result = []
        for i, depot in enumerate(depots):
            if not depot:
                continue
            card = depot[-1]
            if card[0] == 1:
                empty = [j for j in range(self.piles) if not foundations[j]]
                targets = empty if self.opts["ace_any"] else empty[:1]
            elif self.opts["queen"] and card[0] == self.order[-1]:
                targets = [j for j in range(self.piles) if self.takes(foundations[j], card)]
            else:
                targets = [i] if self.takes(foundations[i], card) else []
            for j in targets:
                new_depots = tuple(d[:-1] if k == i else d for k, d in enumerate(depots))
                new_found = tuple(f + (card,) if k == j else f for k, f in enumerate(foundations))
                result.append(((i, j), (new_depots, stock, new_found)))
        return result

    def successors(self, state):
        """(label, next state, redeal cost) for every legal action."""
        depots, stock, foundations = state
        plays = self.plays(state)
        result = [(label, nxt, 0) for label, nxt in plays]
        if stock and not (self.opts["compulsory"] and plays) and self.dealt_to(foundations):
            new_depots, new_stock = self.deal(depots, stock, foundations)
            result.append(("deal", (new_depots, new_stock, foundations), 0))
        if not stock and any(depots):
            order = range(self.piles) if self.opts["gather"] == "left-to-right" else reversed(range(self.piles))
            gathered = tuple(card for i in order for card in depots[i])
            result.append(("redeal", (((),) * self.piles, gathered, foundations), 1))
        return result

    @staticmethod
    def left(state):
        depots, stock, _ = state
        return len(stock) + sum(len(d) for d in depots)

    def solve(self, cards):
        """(won?, fewest cards left over every reachable layout) by enumerating all of them."""
        return self.solve_from(self.start(cards))

    def solve_from(self, start):
        """(won?, fewest cards left) over every layout reachable from ``start``."""
        seen = {start}
        queue = deque([start])
        best = self.left(start)
        while queue:
            state = queue.popleft()
            best = min(best, self.left(state))
            if best == 0:
                return True, 0
            for _, nxt, _ in self.successors(state):
                if nxt not in seen:
                    seen.add(nxt)
                    queue.append(nxt)
        return best == 0, best

    def fewest_redeals(self, state):
        """The fewest redeals of any win from ``state`` (None if none), by 0-1 BFS."""
        dist = {state: 0}
        queue = deque([state])
        done = set()
        while queue:
            state = queue.popleft()
            if state in done:
                continue
            done.add(state)
            if self.left(state) == 0:
                return dist[state]
            for _, nxt, cost in self.successors(state):
                d = dist[state] + cost
                if nxt not in dist or d < dist[nxt]:
                    dist[nxt] = d
                    if cost:
                        queue.append(nxt)
                    else:
                        queue.appendleft(nxt)
        return None


def as_pairs(cards):
    return [(c.rank, c.suit) for c in cards]


# ----- small decks ------------------------------------------------------------------------------


@st.composite
def small_games(draw, max_cards=9):
    """(ranks, suits, piles, shuffled deck): at most ``max_cards`` cards, 1 to 4 piles (fewer
    piles than suits leaves some suit without a place: never won, but the fewest cards left
    still counts)."""
    n_ranks = draw(st.integers(2, 4))
    n_suits = draw(st.integers(1, 4))
    while n_ranks * n_suits > max_cards:
        n_suits -= 1
    ranks = (1,) + tuple(sorted(draw(st.sets(st.sampled_from(STRIPPED_RANKS[1:]), min_size=n_ranks - 1, max_size=n_ranks - 1))))
    suits = draw(st.permutations("CDHS"))[:n_suits]
    piles = draw(st.integers(1, 4))
    cards = [Card(rank, suit) for suit in suits for rank in ranks]
    deal = draw(st.permutations(cards))
    return ranks, suits, piles, list(deal)


def random_walk(game, state, choices):
    """States along a walk that takes move ``choice % len(moves)`` at each step."""
    states = [state]
    for choice in choices:
        moves = game.moves(state)
        if not moves:
            break
        state = game.apply(state, moves[choice % len(moves)])
        states.append(state)
    return states


def cards_of(state):
    depots, stock, foundations = state
    return sorted(list(stock) + [c for d in depots for c in d] + [c for f in foundations for c in f])


def agree(options, ranks, piles, deal):
    """The engine's verdict and fewest cards left equal the brute force's; its line replays."""
    ruleset = Amazons(**options, ranks=ranks, piles=piles)
    start = ruleset.start(deal)
    result = depth_first(ruleset, start)
    assert result.verdict is not Verdict.UNKNOWN
    won, fewest_left = Brute(ranks, piles, **options).solve(as_pairs(deal))
    assert (result.verdict is Verdict.WON) == won
    assert result.best_score == fewest_left
    checked(ruleset, start, result)
    return won


@pytest.mark.parametrize("options", ALL_OPTIONS, ids=option_id)
def test_every_option_combination_agrees_with_brute_force(options):
    """Every one of the 64 option combinations, on a few fixed small decks."""
    rng = random.Random(option_id(options))
    for ranks, suits, piles in (((1, 7, 8), "CD", 2), ((1, 9), "CDH", 3), ((1, 8, 12), "SH", 3), ((1, 7), "CD", 4)):
        cards = [Card(rank, suit) for suit in suits for rank in ranks]
        for _ in range(2):
            rng.shuffle(cards)
            agree(options, ranks, piles, cards)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=st.sampled_from(ALL_OPTIONS), game=small_games(max_cards=7))
def test_engine_agrees_with_brute_force(options, game):
    ranks, _, piles, deal = game
    agree(options, ranks, piles, deal)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=st.sampled_from(ALL_OPTIONS), game=small_games(max_cards=7))
def test_fewest_redeals_is_minimal(options, game):
    """IDA* (iterative_deepening) wins with exactly the fewest redeals a 0-1 BFS finds."""
    ranks, _, piles, deal = game
    ruleset = Amazons(**options, ranks=ranks, piles=piles)
    start = ruleset.start(deal)
    result = iterative_deepening(ruleset, start)
    brute = Brute(ranks, piles, **options)
    fewest = brute.fewest_redeals(brute.start(as_pairs(deal)))
    assert result.verdict is not Verdict.UNKNOWN
    assert (result.verdict is Verdict.WON) == (fewest is not None)
    if fewest is not None:
        assert replay(ruleset, start, result.solution).illegal_at is None
        line = result.solution
        assert sum(ruleset.move_cost(s, m) for s, m in zip(_states(ruleset, start, line), line)) == fewest


def _states(game, start, line):
    state = start
    for move in line:
        yield state
        state = game.apply(state, move)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(options=st.sampled_from(ALL_OPTIONS), game=small_games(max_cards=8), data=st.data())
def test_bounds_are_admissible(options, game, data):
    """At layouts along a random walk, the lower bound never exceeds the fewest cards left from
    there, nor the redeal bound the fewest redeals of a win."""
    ranks, _, piles, deal = game
    ruleset = Amazons(**options, ranks=ranks, piles=piles)
    brute = Brute(ranks, piles, **options)
    states = random_walk(ruleset, ruleset.start(deal), data.draw(st.lists(st.integers(0, 9), max_size=30)))
    for state in states[:: max(1, len(states) // 4)]:
        _, fewest_left = brute.solve_from(as_brute_state(state))
        assert ruleset.lower_bound(state) <= fewest_left
        fewest = brute.fewest_redeals(as_brute_state(state))
        if fewest is not None:
            assert ruleset.cost_to_win_bound(state) <= fewest


class Unbounded(Amazons):
    """Amazons searched with no lower bound."""

    def lower_bound(self, state):
        return 0


def test_the_bound_changes_no_answer_on_full_compulsory_deals():
    """Under ``compulsory`` most full deals are lost, so the search is exhaustive either way: the
    verdict and fewest cards left are the same with and without the bound, in fewer states."""
    settings = FAMILY.settings("amazons", ["compulsory=yes"])
    bounded, unbounded = Amazons(**settings), Unbounded(**settings)
    states = {True: 0, False: 0}
    verdicts = set()
    for seed in range(1, 31):
        deal = FAMILY.seeded_deal(seed)
        answers = []
        for game, pruned in ((bounded, True), (unbounded, False)):
            result = checked(game, game.start(deal), depth_first(game, game.start(deal)))
            answers.append((result.verdict, result.best_score))
            states[pruned] += result.stats.nodes
        assert answers[0] == answers[1], seed
        verdicts.add(answers[0][0])
    assert verdicts == {Verdict.WON, Verdict.LOST}
    assert states[True] < states[False] / 2


def as_brute_state(state):
    """The brute force's form of an engine layout: (rank, suit) pairs."""
    depots, stock, foundations = state
    pairs = lambda codes: tuple((CARDS[c].rank, CARDS[c].suit) for c in codes)  # noqa: E731
    return tuple(map(pairs, depots)), pairs(stock), tuple(map(pairs, foundations))


def test_a_card_pinned_to_d1_that_can_never_go_up_bounds_the_score():
    """7D at the bottom of D1 with clubs on F1 returns to D1 after every left-to-right redeal: it
    and 8D can never go up, so at least 2 cards stay; the brute force agrees it is exactly 2."""
    ranks, piles = (1, 7, 8), 2
    deal = parse_cards("7D AC AD 7C 8C 8D")
    ruleset = Amazons(ranks=ranks, piles=piles)
    state = ruleset.start(deal)
    for text in ("AC to F1", "deal", "AD to F2"):
        move = ruleset.parse_move(state, text)
        assert move in ruleset.moves(state)
        state = ruleset.apply(state, move)
    assert state.depots[0][0] == parse_cards("7D")[0].code
    assert ruleset.lower_bound(state) == 2
    assert Brute(ranks, piles, **dict(zip(OPTION_NAMES, ("left-to-right",) + (False,) * 5))).solve_from(
        as_brute_state(state)
    ) == (False, 2)
    assert Amazons(gather="right-to-left", ranks=ranks, piles=piles).lower_bound(state) == 0


def test_a_card_stuck_this_pass_and_dealt_to_the_wrong_column_next_pass_needs_two_redeals():
    """Diamonds on F1, clubs bound for F2. 7D lies in D2's column this pass, so 8D and it stay;
    8C and 7C fall to D1's column, so both stay too; only AC may go up. Next pass the stock is
    8D 8C 7C AC 7D or 8D 8C 7C 7D (left to right): 7C is third either way, dealt to D1 again, so
    it stays a second pass. The bound is 2; the brute force agrees it is exactly 2."""
    ranks, piles = (1, 7, 8), 2
    ruleset = Amazons(ranks=ranks, piles=piles)
    state = ruleset.start(parse_cards("8D AD 8C AC 7C 7D"))
    state = ruleset.apply(state, ruleset.parse_move(state, "AD to F1"))
    assert ruleset.cost_to_win_bound(state) == 2
    brute = Brute(ranks, piles, **dict(zip(OPTION_NAMES, ("left-to-right",) + (False,) * 5)))
    assert brute.fewest_redeals(as_brute_state(state)) == 2
    assert ruleset.cost_to_win_bound(ruleset.apply(state, ruleset.parse_move(state, "deal"))) == 2
    start = ruleset.start(parse_cards("8D AD 8C AC 7C 7D"))
    result = iterative_deepening(ruleset, start)
    assert line_cost(ruleset, start, result.solution) == brute.fewest_redeals(as_brute_state(start))


def test_no_choice_of_plays_this_pass_lets_the_next_two_passes_win():
    """Diamonds on F1, clubs bound for F2 (2 piles, A 7 8 9). This pass D1's column gets AC 8C
    7C and D2's 8D 7D 9D 9C: only AC can go up. Whether it does or not, some card lies in the
    wrong column next pass, and whatever goes up then, again the pass after. The bound is 3;
    the brute force agrees it is exactly 3."""
    ranks, piles = (1, 7, 8, 9), 2
    deal = parse_cards("AD 8D AC 7D 8C 9D 7C 9C")
    ruleset = Amazons(ranks=ranks, piles=piles)
    state = ruleset.start(deal)
    state = ruleset.apply(state, ruleset.parse_move(state, "AD to F1"))
    assert ruleset.cost_to_win_bound(state) == 3
    brute = Brute(ranks, piles, **dict(zip(OPTION_NAMES, ("left-to-right",) + (False,) * 5)))
    assert brute.fewest_redeals(as_brute_state(state)) == 3
    start = ruleset.start(deal)
    result = iterative_deepening(ruleset, start)
    assert line_cost(ruleset, start, result.solution) == brute.fewest_redeals(as_brute_state(start))


# ----- properties of every move -----------------------------------------------------------------


@pytest.mark.parametrize("options", ALL_OPTIONS[::7], ids=option_id)
@settings(max_examples=25, deadline=None)
@given(seed=st.integers(1, 10**6), choices=st.lists(st.integers(0, 20), max_size=150))
def test_every_move_keeps_the_rules(options, seed, choices):
    """Cards conserved; foundations ascend (in suit); Aces take the leftmost empty place; a card
    goes only from Di to Fi (Queens excepted under queen_any_depot); deals obey compulsion."""
    ruleset = Amazons(**options)
    deal = FAMILY.seeded_deal(seed)
    state = ruleset.start(deal)
    deck = sorted(c.code for c in deal)
    order = list(STRIPPED_RANKS)
    for choice in choices:
        moves = ruleset.moves(state)
        if not moves:
            break
        plays = [m for m in moves if m.kind == 0]
        if options["compulsory"] and plays:
            assert all(m.kind != 1 for m in moves)
        move = moves[choice % len(moves)]
        if move.kind == 0:
            card = CARDS[state.depots[move.source][-1]]
            if card.rank == 1:
                empty = [i for i, f in enumerate(state.foundations) if not f]
                assert move.target in (empty if options["ace_any_place"] else empty[:1])
            elif not (options["queen_any_depot"] and card.rank == 12):
                assert move.source == move.target
        state = ruleset.apply(state, move)
        assert cards_of(state) == deck
        for place in state.foundations:
            if place:
                assert CARDS[place[0]].rank == 1
                assert [order.index(CARDS[c].rank) for c in place] == list(range(len(place)))
                if not options["any_suit"]:
                    assert len({CARDS[c].suit for c in place}) == 1


def test_deal_and_redeal_follow_the_rules():
    ruleset = Amazons()
    deal = parse_cards("QS JD 8H AC 9H 7H TD 9D 8C TS 8D 9S 7C JS AS AD QD TH AH QH 8S JH QC 9C 7S 7D JC TC")
    state = ruleset.start(deal)
    assert [format_cards(CARDS[c] for c in d) for d in state.depots] == ["QS", "JD", "8H", "AC"]
    for _ in range(6):
        state = ruleset.apply(state, ruleset.parse_move(state, "deal"))
    # six more deals: 24 cards dealt in all, the last four in the seventh deal
    assert state.stock == ()
    assert [len(d) for d in state.depots] == [7, 7, 7, 7]
    assert format_cards(CARDS[c] for c in state.depots[0]) == "QS 9H 8C 7C QD 8S 7S"
    for gather, first in (("left-to-right", "QS 9H 8C 7C QD 8S 7S JD"), ("right-to-left", "AC 9D 9S AD QH 9C TC 8H")):
        game = Amazons(gather=gather)
        moves = game.moves(state)
        assert game.describe_move(state, moves[0]) == "redeal"
        gathered = game.apply(state, moves[0])
        assert gathered.depots == ((),) * 4
        assert format_cards(CARDS[c] for c in gathered.stock[:8]) == first
        assert [game.describe_move(gathered, m) for m in game.moves(gathered)] == ["deal"]


def test_a_short_last_deal_goes_left_to_right_and_skip_complete_skips():
    cards = parse_cards("AC AD 7C 7D 8C 8D")
    ruleset = Amazons(ranks=(1, 7, 8), piles=2)
    state = ruleset.start(cards)
    assert state.depots == ((0,), (13,))
    for skip, after in ((True, ["", "AD", "7D"]), (False, ["AD", "7D", ""])):
        game = Amazons(ranks=(1, 7), piles=3, skip_complete=skip)
        state = game.start(parse_cards("AC AD 7D 7C"))
        for text in ("AC to F1", "deal", "7C from D1 to F1", "redeal", "deal"):
            state = game.apply(state, game.parse_move(state, text))
        # F1 is complete: with skip_complete the deal passes D1 by
        assert [format_cards(CARDS[c] for c in d) for d in state.depots] == after


def test_queen_from_any_depot_and_any_suit():
    deal = parse_cards("AC AD 7C 7D")
    plain = Amazons(ranks=(1, 7), piles=2)
    mms = Amazons(ranks=(1, 7), piles=2, queen_any_depot=True)
    for game, wanted in ((plain, False), (mms, True)):
        state = game.start(deal)
        state = game.apply(state, game.parse_move(state, "AD to F1"))
        state = game.apply(state, game.parse_move(state, "AC to F2"))
        state = game.apply(state, game.parse_move(state, "deal"))
        # 7C is on D1 under F1 (diamonds); 7D is on D2 under F2 (clubs)
        texts = [game.describe_move(state, m) for m in game.moves(state)]
        assert ("7C from D1 to F2" in texts) == wanted
        assert ("7D from D2 to F1" in texts) == wanted
    anysuit = Amazons(ranks=(1, 7), piles=2, any_suit=True)
    state = anysuit.start(deal)
    state = anysuit.apply(state, anysuit.parse_move(state, "AC to F1"))
    state = anysuit.apply(state, anysuit.parse_move(state, "AD to F2"))
    state = anysuit.apply(state, anysuit.parse_move(state, "deal"))
    texts = [anysuit.describe_move(state, m) for m in anysuit.moves(state)]
    assert texts == ["7C from D1 to F1", "7D from D2 to F2", "redeal"]


def test_aces_fill_places_in_the_order_played():
    game = Amazons()
    state = game.start(parse_cards("7C AD 8C AS " + "QS JD 8H AC 9H 7H TD 9D TS 8D 9S 7S JS QC QD TH AH QH 8S JH 9C 7D JC TC"))
    assert [game.describe_move(state, m) for m in game.moves(state)] == ["AD to F1", "AS to F1", "deal"]
    state = game.apply(state, game.parse_move(state, "AS to F1"))
    assert [game.describe_move(state, m) for m in game.moves(state)] == ["AD to F2", "deal"]
    free = Amazons(ace_any_place=True)
    state = free.start(parse_cards("7C AD 8C AS " + "QS JD 8H AC 9H 7H TD 9D TS 8D 9S 7S JS QC QD TH AH QH 8S JH 9C 7D JC TC"))
    assert len([m for m in free.moves(state) if m.kind == 0]) == 8


# ----- seeded deals, notation, whole games --------------------------------------------------------


def test_seeded_deal_vectors():
    assert format_cards(FAMILY.seeded_deal(1)) == (
        "QS JD 8H AC 9H 7H TD 9D 8C TS 8D 9S 7C JS AS AD QD TH AH QH 8S JH QC 9C 7S 7D JC TC"
    )
    assert format_cards(FAMILY.seeded_deal(32000)) == (
        "9S 7D JS 8D JD AH JH 8H TC 7C AC AS 9D 9H 8C JC 8S TD QD TS 7S AD 9C 7H QH QC TH QS"
    )


def test_registered_with_presets():
    family = families()["amazons"]
    assert [v.name for v in family.variants] == ["amazons", "amazons-dick", "amazons-mms", "amazons-pysol"]
    assert family.settings("amazons-pysol") == {
        "gather": "right-to-left",
        "queen_any_depot": True,
        "compulsory": False,
        "any_suit": True,
        "ace_any_place": True,
        "skip_complete": True,
    }
    assert len(family.deck()) == 28
    assert family.score_field == "min_cards_left"
    assert "compulsory" in family.describe()


@pytest.mark.parametrize("variant", ["amazons", "amazons-dick", "amazons-mms", "amazons-pysol"])
@settings(max_examples=10, deadline=None)
@given(seed=st.integers(1, 10**6), choices=st.lists(st.integers(0, 20), max_size=120))
def test_notation_reads_back(variant, seed, choices):
    game = FAMILY.build(FAMILY.settings(variant))
    state = game.start(FAMILY.seeded_deal(seed))
    for choice in choices:
        moves = game.moves(state)
        for move in moves:
            text = game.describe_move(state, move)
            assert game.parse_move(state, text) == move
            if move.kind == 0 and CARDS[state.depots[move.source][-1]].rank == 1:
                assert " from " not in text
        if not moves:
            break
        state = game.apply(state, moves[choice % len(moves)])
    assert game.render(state)


def test_bad_moves_are_move_errors():
    game = Amazons()
    state = game.start(FAMILY.seeded_deal(1))
    for text in ("fly", "ZZ to F1", "QS from D2 to F1", "QS from D9 to F1", "AS to F7", "7H to F1"):
        with pytest.raises(MoveError):
            game.parse_move(state, text)


@pytest.mark.parametrize("variant", ["amazons", "amazons-dick", "amazons-mms", "amazons-pysol"])
@pytest.mark.parametrize("seed", [3, 18])
def test_solutions_replay(variant, seed):
    game = FAMILY.build(FAMILY.settings(variant))
    start = game.start(FAMILY.seeded_deal(seed))
    result = depth_first(game, start, Limits(max_nodes=300_000))
    checked(game, start, result)
    outcome = replay(game, start, result.best_line)
    assert outcome.illegal_at is None
    assert game.score(outcome.final) == result.best_score
    if result.verdict is Verdict.WON:
        assert game.is_won(outcome.final)


def test_key_ignores_suits_only_when_they_do_not_matter():
    deal = parse_cards("AC AD 7C 7D 8C 8D")
    swapped = parse_cards("AD AC 7D 7C 8D 8C")
    for any_suit in (False, True):
        game = Amazons(ranks=(1, 7, 8), piles=2, any_suit=any_suit)
        same = game.key(game.start(deal)) == game.key(game.start(swapped))
        assert same == any_suit

"""Hints (solver.analysis) on toy games given as explicit graphs, acyclic and cyclic: each move's
answer against its own search on a fresh table, and against plain reachability."""

from helpers import GraphGame, chain, graphs, reachable_states
from hypothesis import given
from hypothesis import strategies as st

from solver.analysis import MoveAnalysis, analyse
from solver.engine import engine_of
from solver.replay import replay
from solver.result import Limits, Verdict

acyclic_or_cyclic = st.one_of(graphs(acyclic=True), graphs())


def fresh(game, move):
    """The move's position searched on its own, on a fresh table."""
    return engine_of(game).depth_first(game.apply(0, move))


@given(acyclic_or_cyclic)
def test_every_move_gets_the_answer_its_own_search_gives(game):
    analyses = analyse(engine_of(game), 0)
    assert sorted(a.move for a in analyses) == sorted(game.moves(0))
    for analysis in analyses:
        alone = fresh(game, analysis.move)
        assert (analysis.verdict, analysis.score) == (alone.verdict, alone.best_score)
        child = game.apply(0, analysis.move)
        states = reachable_states(game, child)
        assert analysis.score == min(game.score(state) for state in states)
        assert (analysis.verdict is Verdict.WON) == any(game.is_won(state) for state in states)
        final = replay(game, child, analysis.line)
        assert final.illegal_at is None and game.score(final.final) == analysis.score


@given(acyclic_or_cyclic)
def test_sharing_one_table_never_expands_more_than_searching_each_move_alone(game):
    shared = sum(analysis.nodes for analysis in analyse(engine_of(game), 0))
    assert shared <= sum(fresh(game, move).stats.nodes for move in game.moves(0))


@given(acyclic_or_cyclic, st.integers(1, 6))
def test_a_move_cut_by_a_limit_says_unknown_and_the_others_are_still_right(game, max_nodes):
    for analysis in analyse(engine_of(game), 0, limits=Limits(max_nodes=max_nodes)):
        assert analysis.nodes <= max_nodes
        alone = fresh(game, analysis.move)
        if analysis.verdict is Verdict.UNKNOWN:
            assert analysis.limit == "max_nodes" and analysis.score >= alone.best_score
        else:
            assert analysis.limit is None
            assert (analysis.verdict, analysis.score) == (alone.verdict, alone.best_score)


@given(acyclic_or_cyclic, st.sampled_from([None, 2, 4]))
def test_the_best_move_comes_first(game, max_nodes):
    analyses = analyse(engine_of(game), 0, limits=Limits(max_nodes=max_nodes))
    assert [a.rank() for a in analyses] == sorted(a.rank() for a in analyses)


def test_order_is_wins_then_lower_scores_then_proven_before_unknown_then_the_games_order():
    def move(verdict, score, name):
        return MoveAnalysis(name, verdict, score, (), None, 0)

    unordered = [
        move(Verdict.LOST, 3, "a"),
        move(Verdict.UNKNOWN, 2, "b"),
        move(Verdict.LOST, 2, "c"),
        move(Verdict.WON, 0, "d"),
        move(Verdict.UNKNOWN, 1, "e"),
        move(Verdict.WON, 0, "f"),
    ]
    assert [a.move for a in sorted(unordered, key=MoveAnalysis.rank)] == ["d", "f", "e", "c", "b", "a"]


def test_a_later_move_that_joins_an_earlier_winning_line_stops_there():
    """Moves 1 and 2 both lead into the long chain 3 -> ... -> 502 won at its end."""
    game = chain(503, won_at=502)
    game.edges[0] = [(1, 0), (2, 0)]
    game.edges[1] = [(3, 0)]
    game.edges[2] = [(3, 0)]
    first, second = analyse(engine_of(game), 0)
    assert first.verdict is second.verdict is Verdict.WON
    assert first.nodes == 501 and second.nodes == 2
    assert len(second.line) == 500 and game.is_won(replay(game, 2, second.line).final)


def test_a_later_move_skips_what_an_earlier_loss_proved_cannot_improve():
    """Moves 1 and 2 both reach node 3 (score 1) at once, then the long lost chain 4 -> ... ."""
    game = chain(503)
    game.edges[0] = [(1, 0), (2, 0)]
    game.edges[1] = [(3, 0)]
    game.edges[2] = [(3, 0)]
    game.edges[3] = [(4, 0)]
    game.scores[3] = 1
    first, second = analyse(engine_of(game), 0)
    assert (first.verdict, first.score, second.verdict, second.score) == (Verdict.LOST, 1, Verdict.LOST, 1)
    assert first.nodes == 501 and second.nodes == 2


def test_moves_to_the_same_layout_share_one_search():
    game = GraphGame({0: [(1, 0), (1, 5)], 1: [(2, 0)]}, {0: 3, 1: 2, 2: 1})
    analyses = analyse(engine_of(game), 0)
    assert [a.move for a in analyses] == [(1, 0), (1, 5)]
    assert [(a.verdict, a.score, a.nodes) for a in analyses] == [(Verdict.LOST, 1, 2), (Verdict.LOST, 1, 0)]


def test_a_position_without_moves_has_no_hints():
    assert analyse(engine_of(chain(1)), 0) == []


def test_a_search_cut_by_a_limit_proves_no_floors():
    """Move 1 is cut after searching 1, 6 and 3; move 2 must still search on through 3 to 5."""
    edges = {0: [(1, 0), (2, 0)], 1: [(6, 0)], 6: [(3, 0)], 2: [(3, 0)], 3: [(4, 0)], 4: [(5, 0)]}
    game = GraphGame(edges, {0: 9, 1: 5, 2: 5, 3: 5, 4: 5, 5: 1, 6: 5})
    first, second = analyse(engine_of(game), 0, limits=Limits(max_nodes=4))
    assert (first.move, first.verdict, first.score) == ((2, 0), Verdict.LOST, 1)
    assert (second.move, second.verdict, second.limit) == ((1, 0), Verdict.UNKNOWN, "max_nodes")


def test_a_hints_floors_take_in_a_large_search_at_once():
    """A lost move's searched states all get its score as a floor (Proofs.learn), in time linear
    in their number. The compiled table once took them in the order of its slots, sorted by the
    very bits the floors' table places them by, so they piled up into one cluster: quadratic,
    31 CPU s for 800,000 states, hours on a hard baroness-pysol hint, deaf to Ctrl-C. A guard
    against a hang, not a measurement: now a few hundredths of a second (the Python engine's
    dict, a few tenths)."""
    import random
    import time

    from rulesets import families
    from rulesets.baroness import build_baroness

    family = families()["baroness"]
    game = build_baroness(family.settings("baroness-pysol"))
    proofs = engine_of(game).proofs(Limits())
    start = game.start(family.seeded_deal(1))
    result, searched = proofs.search(start, Limits(max_nodes=10), None)  # a searched table of the engine's kind
    draw = random.Random(7)
    digests = [draw.getrandbits(64) | 1 for _ in range(800_000)]  # digests: 64 bits, never 0
    if isinstance(searched, set):
        searched.update(digests)
    else:
        for digest in digests:
            searched.insert(digest)
    began = time.process_time()
    proofs.learn(start, result._replace(verdict=Verdict.LOST, best_score=20), searched)
    assert time.process_time() - began < 3.0

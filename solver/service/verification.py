"""Verifying a line of moves: replay a solution's moves (:mod:`solver.service.solution_file`
reads them) through the rules, and hold every claim it makes to the truth: its game, options,
seed and deal, its verdict (a played game: won or not, played to its end, and every move the one
its player, replayed from its settings, plays), its score and its redeals.

What only a search can show (that no line does better than a claimed minimum, or that a claimed
loss is one) is not searched again; ``solve`` proves it.
"""

from __future__ import annotations

import json
from typing import Any, NamedTuple

from rulesets.cards import format_cards
from rulesets.dealt import named_deal, read_move
from rulesets.notation import MoveError, UnreadableMove
from solver.protocol import NO_SCORE
from solver.replay import replay
from solver.result import Verdict
from solver.search import line_cost
from solver.service.playing import Opening
from solver.service.replaying import unplayed
from solver.service.setup import Setup
from solver.service.solution_file import Record, Solution, is_played


def check_record_is_for(record: Record, setup: Setup, opening: Opening, *, rules_given: bool = False) -> str | None:
    """A record names its game, options (or variant), seed, deal and the position it started
    from: they must be those of the ``opening`` being verified (a MoveError, bad input, names the
    first that is not; a position's opening has no deal). Other rules of the same game
    are a fair question when asked for (``rules_given``: a variant or option named): the line is
    then replayed under them, and the difference is returned as a note to print."""
    family, start, deal = setup.family, opening.start, opening.deal
    if record.get("game", family.name) != family.name:
        raise MoveError(f"the record's game is {record['game']!r}, but this verification is for {family.name!r}")
    if "variant" in record:
        family.variant(record["variant"])  # a variant of this game, or an OptionError naming them
    difference = _rules_difference(record, setup)
    if difference is not None and not rules_given:
        raise MoveError(f"{difference}: give --variant or --option to match (or to replay under other rules)")
    if deal is not None and record.get("deal") is not None and record["deal"] != format_cards(deal):
        raise MoveError(f"the record's deal is {record['deal']!r}, but this verification is for {format_cards(deal)!r}")
    if deal is not None and record.get("seed") is not None and family.seeded_deal(record["seed"]) != deal:
        raise MoveError(
            f"the record's seed is {record['seed']}, but the deal being verified is not PySolFC's deal {record['seed']}"
        )
    position = setup.game.write_position(start)
    if opening.position is not None and opening.hidden:  # braces: the position as play took it
        position = opening.position
    if deal is None:
        _check_claimed_start(record, setup, position)
    if record.get("position") not in (None, position):  # a played deal's record names no position
        raise MoveError(
            f"the record's position is {record['position']!r}, but this verification starts from {position!r}"
        )
    return None if difference is None else f"note: {difference}; replayed under the rules asked for"


def _check_claimed_start(record: Record, setup: Setup, position: str) -> None:
    """Verifying from a ``position``: a record that names its seed or deal claims the start of
    that deal, which must be this position (a record with its first moves cut off verified from
    the position after them claimed a deal it does not start from)."""
    seed, cards = record.get("seed"), record.get("deal")
    if seed is None and cards is None:
        return
    claimed = None if cards is None else setup.deal(text=cards)
    if seed is not None:
        seeded = setup.family.seeded_deal(seed)
        if claimed is not None and claimed != seeded:
            raise MoveError(f"the record's seed is {seed}, but its deal is not PySolFC's deal {seed}")
        claimed = seeded
    assert claimed is not None
    if setup.game.write_position(setup.game.start(claimed)) != position:
        what = f"seed {seed}'s deal" if seed is not None else f"the deal {cards!r}"
        raise MoveError(
            f"the record is of {what}, which does not start from the position being verified ({position}):"
            " verify it from its own start"
        )


def _rules_difference(record: Record, setup: Setup) -> str | None:
    """The first way the record's options (or, without them, its variant) differ from the rules
    being verified under, in words; None if they are the same."""
    if "options" not in record:
        variant = record.get("variant", setup.variant)
        return (
            None
            if variant == setup.variant
            else f"the record is for variant {variant}, this verification for {setup.variant}"
        )
    options = record["options"]
    for name in sorted(set(options) | set(setup.settings)):
        if name not in setup.settings:
            raise MoveError(f"the record's option {name!r} is not one of {setup.family.name}'s options")
        if options.get(name) != setup.settings[name]:
            spelled = setup.family.option(name).spell
            claimed = spelled(options[name]) if name in options else "missing"
            asked = spelled(setup.settings[name])
            return f"the record was solved with {name}={claimed}, this verification has {name}={asked}"
    variant = record.get("variant", setup.variant)  # the same options, but another preset named
    if variant != setup.variant:
        return f"the record is for variant {variant}, this verification for {setup.variant}"
    return None


class Verification(NamedTuple):
    """What replaying a line showed: the moves replayed, the first illegal move (why, in a line)
    if any, whether the game was won, the score reached (None before an end), and the first of
    the record's claims the moves do not bear out, if any; and whether the line ends the game
    (see :func:`is_over`)."""

    moves: int
    illegal: str | None
    won: bool
    reached: int | None
    broken_claim: str | None
    ended: bool = False


def is_over(rules: Any, state: Any, reached: set[bytes]) -> bool:
    """Whether a game is over in ``state``: no move is left, or every move left brings back a
    position already reached (``reached``: their keys), as a played game ends (solver.players:
    else unlimited redeals would never end)."""
    return all(rules.key(rules.apply(state, move)) in reached for move in rules.moves(state))


def verify(setup: Setup, opening: Opening, solution: Solution) -> Verification:
    """Replay the solution's moves from the ``opening`` (a deal's, or a position's); then hold its
    record, if any, to its claims (a played game's to the moves its player plays from there). A
    text that is no move of the game at all is bad input (a MoveError naming the file, the line
    and the forms of move), not an illegal move."""
    ruleset, record = setup.legal, solution.record  # held to every legal move, not the search's
    state = start = opening.start
    moves: list[Any] = []
    written: list[str] = []  # each move as play writes it
    seen = {ruleset.key(state)}  # the positions the line reached, for is_over
    for number, text in enumerate(solution.moves, 1):
        try:
            move = read_move(ruleset, state, text)
        except UnreadableMove as error:
            raise MoveError(f"{solution.where(number)}: {error}") from None
        except ValueError as error:
            return Verification(len(moves), f"move {number} ({text}) is illegal: {error}", False, None, None)
        outcome = replay(ruleset, state, [move])
        if outcome.illegal_at is not None:
            return Verification(
                len(moves),
                f"move {number} ({text}) is illegal in position: {ruleset.write_position(state)}",
                False,
                None,
                None,
            )
        moves.append(move)
        written.append(named_deal(ruleset, state, move))
        state = outcome.final
        seen.add(ruleset.key(state))
    won = ruleset.is_won(state)
    score = ruleset.score(state)
    reached = None if score == NO_SCORE else score
    ended = is_over(ruleset, state, seen)
    if record is None:
        broken = None
    elif is_played(record):
        broken = _broken_play_claim(record, setup, won, reached=reached, ended=ended) or unplayed(
            setup, opening, record, moves=written
        )
    else:
        broken = _broken_claim(record, setup, start, moves=moves, won=won, reached=reached)
    return Verification(len(moves), None, won, reached, broken, ended)


def _broken_play_claim(record: Record, setup: Setup, won: bool, *, reached: int | None, ended: bool) -> str | None:
    """The first claim of a played game's record the moves do not bear out: that it was won or
    not, its score, and that it was played to its end (won, or no move left that does not bring
    back a position the line reached: see :func:`is_over`)."""
    if record.get("won", won) != won:
        return (
            "the record claims no win, but its moves win"
            if won
            else "the record claims a win, but its moves do not win"
        )
    if not (won or ended):
        return "the record claims a game played to its end, but moves are left that do not repeat a position"
    claimed = record.get("score", reached)
    if claimed != reached:
        return f"the record claims {setup.family.score_label} {claimed}, but its moves reach {reached}"
    return None


def _broken_claim(
    record: Record, setup: Setup, start: Any, *, moves: list[Any], won: bool, reached: int | None
) -> str | None:
    """The first claim of the record about its play (verdict, score, limit, redeals) that the
    moves do not bear out, or that contradicts the record's other claims."""
    result = record.get("result")
    holds_solution = record.get("solution") is not None
    if "solution" in record and result is not None and holds_solution != (result == Verdict.WON.value):
        return f"the record claims {result}, but " + ("holds a solution" if holds_solution else "has no solution")
    if result == Verdict.WON.value and record.get("best_line") is not None:
        return "the record claims won, but holds a best_line (a win's line is its solution, and 'solve' writes none)"
    if result == Verdict.WON.value and not won:
        return "the record claims a win, but its moves do not win"
    if result is not None and result != Verdict.WON.value and won:
        return f"the record claims {result}, but its moves win"
    family = setup.family
    claimed = record.get(family.score_field, reached)
    if claimed != reached:
        return f"the record claims {family.score_label} {claimed}, but its moves reach {reached}"
    if result == Verdict.LOST.value and reached is None:
        return "the record claims a loss, but its moves reach no end of the game (a proven loss has its best score)"
    if family.threshold is not None and family.threshold[0] in record:
        name, most = family.threshold
        if record[name] != (reached is not None and reached <= most):
            claim = json.dumps(record[name])
            return f"the record claims {name} {claim}, but its moves reach {family.score_label} {reached}"
    return _broken_limit_claim(record) or _broken_redeals_claim(record, setup, start, moves=moves)


def _broken_limit_claim(record: Record) -> str | None:
    """A verdict that does not go with the record's limit and proof: only a limit leaves a deal
    unknown and its score unproven, and no limit stops a proven loss."""
    result, limit = record.get("result"), record.get("limit")
    if result == Verdict.UNKNOWN.value and "limit" in record and limit is None:
        return "the record claims unknown, but names no limit that stopped the search"
    if result == Verdict.LOST.value and limit is not None:
        return f"the record claims a loss, but the search was stopped by its limit {limit}"
    if result == Verdict.WON.value and limit is not None and "redeals" not in record:
        return f"the record claims a win found by the first search, yet names the limit {limit}"
    if result is not None and "score_proven" in record and record["score_proven"] != (result != Verdict.UNKNOWN.value):
        return f"the record claims score_proven {str(record['score_proven']).lower()} for a deal {result}"
    return None


def _broken_redeals_claim(record: Record, setup: Setup, start: Any, *, moves: list[Any]) -> str | None:
    """The redeals of a fewest-redeals record: its moves' count, proven exactly when no limit
    stopped the search, and never below the claimed lower bound."""
    redeal_fields = [name for name in ("redeals", "fewest_redeals_proven", "redeals_at_least") if name in record]
    if not redeal_fields:
        return None
    ruleset = setup.game
    if not hasattr(ruleset, "move_cost") or record.get("result") != Verdict.WON.value:
        return f"the record claims {redeal_fields[0]}, but only a won deal of a game with a stock has redeals"
    redeals = line_cost(ruleset, start, tuple(moves))  # type: ignore[arg-type]
    if record.get("redeals", redeals) != redeals:
        return f"the record claims {record['redeals']} redeals, but its moves hold {redeals}"
    proven = record.get("limit") is None
    if record.get("fewest_redeals_proven", proven) != proven:
        return (
            f"the record claims fewest_redeals_proven {str(not proven).lower()}, but its limit is {record.get('limit')}"
        )
    least = record.get("redeals_at_least", redeals if proven else 0)
    if least is None or least > redeals or (proven and least != redeals):
        how = "proven fewest" if proven else "not proven fewest"
        return f"the record claims redeals_at_least {least}, which does not go with {redeals} redeals ({how})"
    return None

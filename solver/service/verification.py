"""Verifying a line of moves: read a solution file, replay its moves through the rules, and hold a
``--json`` record to what it claims (its game and deal, a win, its score, its redeals)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from rulesets.cards import Card, format_cards
from rulesets.notation import MoveError
from solver.protocol import NO_SCORE
from solver.replay import replay
from solver.search import line_cost
from solver.service.setup import Setup


def read_solution(text: str) -> tuple[list[str], dict[str, Any] | None]:
    """Moves from a solution file, and the record if it is a ``--json`` record; otherwise one
    move per line (``12.`` numbering and ``#`` comments allowed)."""
    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            record = json.loads(stripped.splitlines()[0])
        except json.JSONDecodeError as error:
            raise MoveError(f"malformed solution file: not valid JSON ({error.msg})") from None
        moves = record.get("solution") or record.get("best_line") if isinstance(record, dict) else None
        if not isinstance(moves, list) or not all(isinstance(m, str) for m in moves):
            raise MoveError("malformed solution file: the JSON record has no 'solution' list of moves")
        return moves, record
    moves = []
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        head, dot, rest = line.partition(".")
        if dot and head.strip().isdigit():
            line = rest.strip()
        if line:
            moves.append(line)
    return moves, None


def check_record_is_for(record: dict[str, Any], setup: Setup, start: Any, deal: list[Card] | None = None) -> None:
    """A record names its game and where it started (its position, and its deal if it had one):
    they must be the ones being verified. (Its variant may differ: replaying a line under other
    rules of the same game is a fair question.)"""
    expected = {"game": setup.family.name}
    if deal is not None and record.get("deal") is not None:
        expected["deal"] = format_cards(deal)
    expected["position"] = setup.game.write_position(start)
    for field, value in expected.items():
        if field in record and record[field] != value:
            raise MoveError(f"the record's {field} is {record[field]!r}, but this verification is for {value!r}")


@dataclass(frozen=True)
class Verification:
    """What replaying a line showed: the moves replayed, the first illegal move (why, in a line)
    if any, whether the game was won, the score reached (None before an end), and the first of
    the record's claims the moves do not bear out, if any."""

    moves: int
    illegal: str | None
    won: bool
    reached: int | None
    broken_claim: str | None


def verify(setup: Setup, start: Any, texts: Sequence[str], record: dict[str, Any] | None = None) -> Verification:
    """Replay the moves written ``texts`` from ``start`` (a deal's opening state or a position);
    then hold the record, if any, to its claims."""
    ruleset = setup.game
    state = start
    moves: list[Any] = []
    for number, text in enumerate(texts, 1):
        try:
            move = ruleset.parse_move(state, text)
        except ValueError as error:
            return Verification(len(moves), f"move {number} ({text}) is illegal: {error}", False, None, None)
        outcome = replay(ruleset, state, [move])
        if outcome.illegal_at is not None:
            return Verification(len(moves), f"move {number} ({text}) is illegal in position: {ruleset.write_position(state)}", False, None, None)
        moves.append(move)
        state = outcome.final
    won = ruleset.is_won(state)
    score = ruleset.score(state)
    reached = None if score == NO_SCORE else score
    broken = None if record is None else _broken_claim(record, setup, start, moves, won, reached)
    return Verification(len(moves), None, won, reached, broken)


def _broken_claim(record: dict[str, Any], setup: Setup, start: Any, moves: list[Any], won: bool, reached: int | None) -> str | None:
    """The first claim of the record (a win, its score, its redeals) that the moves do not reach."""
    claimed = record.get(setup.family.score_field, reached)
    if record.get("result") == "won" and not won:
        return "the record claims a win, but its moves do not win"
    if claimed != reached:
        return f"the record claims {setup.family.score_label} {claimed}, but its moves reach {reached}"
    ruleset = setup.game
    if "redeals" in record and hasattr(ruleset, "move_cost"):
        redeals = line_cost(ruleset, start, tuple(moves))  # type: ignore[arg-type]
        if record["redeals"] != redeals:
            return f"the record claims {record['redeals']} redeals, but its moves hold {redeals}"
    return None

"""A ``play --json`` record's game played again: its player and its opening rebuilt from what the
record names, through the functions ``play`` builds them with (:mod:`solver.service.playing`),
so that ``verify`` can hold the record's moves to the moves that player plays. A game is fixed
by its rules, its opening and its player's settings; replaying a sampling player costs what
playing did."""

from __future__ import annotations

from typing import Any

from solver.chance import Concealed
from solver.service.playing import Opening, PlayedGame, make_player, placed, play, player_text
from solver.service.setup import Setup

Record = dict[str, Any]


def face_down_opening(setup: Setup, position: Concealed, record: Record) -> Opening:
    """The opening ``play --position`` laid out for the record's game: the cards in braces in the
    order its ``order_seed`` drew (a record written before that field: the player's seed, which
    then drew it)."""
    seed = record["order_seed"] if "order_seed" in record else _settings(record).get("rng_seed")
    return placed(setup, position, seed)


def replayed(setup: Setup, opening: Opening, record: Record) -> PlayedGame:
    """The game the record's player, made from its settings, plays from ``opening``."""
    settings = _settings(record)
    drawn = opening.position is not None and opening.hidden > 0
    player = make_player(record["player"], settings.get("samples"), settings.get("rng_seed"), order_drawn=drawn)
    return play(setup, opening, player)


def unplayed(setup: Setup, opening: Opening, record: Record, *, moves: list[str]) -> str | None:
    """The first way ``moves`` (the record's, written as ``play`` writes them) are not the moves
    its player plays from ``opening``, in words; None where they are those moves."""
    if "order_seed" in record and record["order_seed"] != opening.order_seed:
        drew = "no face-down order is drawn" if opening.order_seed is None else f"it is {opening.order_seed}"
        return f"the record's order_seed is {record['order_seed']}, but {drew} for its opening"
    game = replayed(setup, opening, record)
    played = game.moves
    who = f"the {player_text(record['player'], _settings(record))} player"
    for number, (claimed, chosen) in enumerate(zip(moves, played), 1):
        if claimed != chosen:
            return f"the record's move {number} is {claimed}, but {who} plays {chosen} there"
    if len(moves) > len(played):
        ended, extra = len(played), f"the record's move {len(played) + 1} ({moves[len(played)]})"
        if game.won:
            return f"{extra} comes after the game {who} plays is won, at move {ended}"
        return (
            f"{extra} brings back a position already reached, which a played game never does: "
            f"the game {who} plays ends after move {ended}, every move left bringing one back"
        )
    if len(moves) < len(played):
        return f"the record's moves stop after move {len(moves)}, where {who} plays on ({played[len(moves)]})"
    return None


def _settings(record: Record) -> dict[str, Any]:
    """The record's player settings (none given: those ``play`` takes by default)."""
    settings: dict[str, Any] = record.get("settings") or {}
    return settings

"""The commands about one game and its deals: games, describe, deal, solve and verify."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any, List, Optional

import typer

from rulesets import families, find_game
from rulesets.cards import Card, format_cards
from rulesets.deals import read_deal_file
from rulesets.notation import MoveError
from solver.cli.options import (
    DealOption,
    FileOption,
    GameArgument,
    MaxMemoryOption,
    MaxNodesOption,
    MaxSecondsOption,
    OptionsOption,
    PositionOption,
    SeedOption,
    VariantOption,
)
from solver.result import Verdict
from solver.service.setup import Setup, limits
from solver.service.solving import Outcome, solve_from
from solver.service.verification import check_record_is_for, read_solution, verify


def games() -> None:
    """List the games and their variants."""
    for family in families().values():
        variants = ", ".join(v.name for v in family.variants)
        typer.echo(f"{family.name}: {family.summary}\n    variants: {variants}")


def describe(game: str = GameArgument) -> None:
    """Explain a game's rules, options (with defaults) and variants."""
    family, _ = find_game(game)
    typer.echo(family.describe())


def deal(
    game: str = GameArgument,
    seed: int = typer.Option(..., "--seed", "-s", help="PySolFC game number (1 to 10**20)."),
    variant: Optional[str] = VariantOption,
    option: List[str] = OptionsOption,
) -> None:
    """Print the deal of a seeded game, first dealt first."""
    setup = Setup.of(game, variant, option)
    typer.echo(format_cards(setup.deal(seed=seed)))


def solve_command(
    game: str = GameArgument,
    seed: Optional[int] = SeedOption,
    deal: Optional[str] = DealOption,
    file: Optional[Path] = FileOption,
    position: Optional[str] = PositionOption,
    variant: Optional[str] = VariantOption,
    option: List[str] = OptionsOption,
    max_nodes: Optional[int] = MaxNodesOption,
    max_seconds: Optional[float] = MaxSecondsOption,
    max_memory: str = MaxMemoryOption,
    fewest_redeals: bool = typer.Option(False, "--fewest-redeals", help="Find the win with the fewest passes through the stock (IDA*)."),
    show: bool = typer.Option(False, "--show", help="Draw the layout after each move."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object per deal per line."),
) -> None:
    """Solve deals or positions: verdict, minimal score, and the winning (or best) line of moves."""
    setup = Setup.of(game, variant, option)
    bounds = limits(max_nodes, max_seconds, max_memory)
    for number, (deal_seed, cards, start) in enumerate(starts(setup, seed, deal, file, position)):
        outcome = solve_from(setup, start, bounds, deal_seed, cards, fewest_redeals)
        if as_json:
            typer.echo(json.dumps(outcome.record()))
        else:
            if number:
                typer.echo("")
            _print_outcome(outcome, show)


def verify_command(
    game: str = GameArgument,
    solution: Path = typer.Option(..., "--solution", help="File of moves, one per line, or a --json record."),
    seed: Optional[int] = SeedOption,
    deal: Optional[str] = DealOption,
    file: Optional[Path] = FileOption,
    position: Optional[str] = PositionOption,
    variant: Optional[str] = VariantOption,
    option: List[str] = OptionsOption,
) -> None:
    """Replay a solution through the rules; report the first illegal move, if any.

    A ``--json`` record is also held to what it claims: its game and deal, a win, its score,
    and its redeals.
    """
    setup = Setup.of(game, variant, option)
    given = list(starts(setup, seed, deal, file, position))
    if len(given) != 1:
        raise MoveError(f"verify takes one deal or position; the file holds {len(given)}")
    _, cards, start = given[0]
    texts, record = read_solution(read_text(solution, "solution file"))
    if record is not None:
        check_record_is_for(record, setup, start, cards)
    found = verify(setup, start, texts, record)
    if found.illegal is not None:
        typer.echo(found.illegal, err=True)
        raise typer.Exit(1)
    if found.won:
        typer.echo(f"valid: all {found.moves} moves legal; the game is won")
    else:
        ending = "the game has not ended" if found.reached is None else f"{setup.family.score_label}: {found.reached}"
        typer.echo(f"valid: all {found.moves} moves legal; not won ({ending})")
    if found.broken_claim is not None:
        typer.echo(found.broken_claim, err=True)
        raise typer.Exit(1)


def read_text(path: Path, what: str) -> str:
    """A text file's contents, or a one-line error naming the file."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise MoveError(f"malformed {what} {path}: not UTF-8 text") from None


Start = tuple[Optional[int], Optional[list[Card]], Any]


def starts(
    setup: Setup, seed: Optional[int], deal: Optional[str], file: Optional[Path], position: Optional[str]
) -> Iterator[Start]:
    """Where each search starts, from exactly one of ``--seed``, ``--deal``, ``--file`` or
    ``--position``: (the seed or None, the deal or None, the start state). A file holds deals, or
    positions (lines with ``name:`` sections), one a line."""
    given = [
        name
        for name, value in (("--seed", seed), ("--deal", deal), ("--file", file), ("--position", position))
        if value is not None
    ]
    if len(given) != 1:
        got = f" (got {', '.join(given)})" if given else ""
        raise MoveError(f"give exactly one of --seed, --deal, --file or --position{got}")
    if position is not None:
        yield None, None, setup.position(position)
    elif file is not None:
        text = read_text(file, "deal file")
        lines = [line.split("#", 1)[0].strip() for line in text.splitlines()]
        if any(":" in line for line in lines):
            for line in filter(None, lines):
                yield None, None, setup.position(line)
            return
        for cards in read_deal_file(text, setup.family.deck()):
            yield None, cards, setup.game.start(cards)
    else:
        cards = setup.deal(seed=seed, text=deal)
        yield seed, cards, setup.game.start(cards)


def _print_outcome(outcome: Outcome, show: bool) -> None:
    """A solved deal as text: the deal, verdict, score, redeals, work done, then the numbered line."""
    setup, result = outcome.setup, outcome.result
    family = setup.family
    header = f"{family.name} ({setup.variant})" + (f", seed {outcome.seed}" if outcome.seed is not None else "")
    typer.echo(header)
    if outcome.deal is not None:
        typer.echo(f"deal: {format_cards(outcome.deal)}")
    else:
        typer.echo(f"position: {setup.game.write_position(outcome.start)}")
    score = outcome.score()
    undecided = result.verdict is Verdict.UNKNOWN
    verdict = result.verdict.value + (f" (limit {result.limit} reached)" if undecided else "")
    typer.echo(f"result: {verdict}")
    if score is None:
        typer.echo(f"{family.score_label}: no end of the game reached")
    else:
        qualifier = "best found" if undecided else "minimum"
        line = f"{family.score_label} ({qualifier}): {score}"
        if family.threshold is not None:
            name, most = family.threshold
            line += f"; {name} win ({most} or fewer): {'yes' if score <= most else 'no'}"
        typer.echo(line)
    cost = outcome.cost()
    if cost is not None:
        proof = "fewest" if result.limit is None else (
            f"fewest not proven, at least {result.least_cost_floor}: limit {result.limit} reached"
        )
        typer.echo(f"redeals: {cost} ({proof})")
    stats = result.stats
    typer.echo(f"nodes: {stats.nodes}, table: {stats.table_entries} states, {stats.seconds:.3f} CPU seconds")
    _print_line(outcome, show)


def _print_line(outcome: Outcome, show: bool) -> None:
    """The numbered moves of the solution (or best line); with ``show``, after each move the
    layout as one indented block (the places the move changed marked ``*``) and its position."""
    game, result = outcome.setup.game, outcome.result
    texts = outcome.line_text()
    title = "solution" if result.solution is not None else "line to the best score"
    typer.echo(f"{title} ({len(texts)} moves):")
    state = outcome.start
    if show:
        _print_layout(game, state, frozenset())
    for number, (text, move) in enumerate(zip(texts, result.best_line), 1):
        typer.echo(f"{number:3d}. {text}")
        touched = game.touched(state, move)
        state = game.apply(state, move)
        if show:
            _print_layout(game, state, touched)


def _print_layout(game: Any, state: Any, touched: frozenset[str]) -> None:
    """The picture of ``state`` indented under its move, then the position to paste back in."""
    for line in game.picture(state).text(touched).splitlines():
        typer.echo(f"       {line}")
    typer.echo(f"       position: {game.write_position(state)}")

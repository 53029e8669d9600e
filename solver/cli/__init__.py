"""The ``patience`` command: list, describe, deal, solve and verify games, and run surveys.

This layer alone joins the game-agnostic engine to the rule modules.
"""

from __future__ import annotations

import functools
import json
import os
import sys
from pathlib import Path
from typing import Any, Callable, Iterator, List, Optional, TypeVar

import typer

from rulesets import families, find_game
from rulesets.cards import Card, format_cards
from rulesets.deals import read_deal_file
from rulesets.notation import MoveError
from solver.cli.run import Outcome, Setup, parse_size, solve
from solver.protocol import NO_SCORE
from solver.replay import replay
from solver.result import Limits, Verdict
from solver.search import line_cost

app = typer.Typer(
    help="Exhaustive solver and solvability checker for patience (solitaire) games.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)

F = TypeVar("F", bound=Callable[..., Any])


def friendly(command: F) -> F:
    """Turn a user's bad input (any ValueError or OSError) into one line on stderr and exit code 2."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except BrokenPipeError:
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
            raise typer.Exit(1) from None
        except KeyboardInterrupt:
            typer.echo("patience: interrupted (what was printed stands)", err=True)
            raise typer.Exit(130) from None
        except (ValueError, OSError) as error:
            typer.echo(f"patience: error: {error}", err=True)
            raise typer.Exit(2) from None

    return run  # type: ignore[return-value]


VariantOption = typer.Option(None, "--variant", "-v", help="A named preset of the game's options.")
OptionsOption = typer.Option([], "--option", "-o", help="Set one option: name=value (repeatable).")
SeedOption = typer.Option(None, "--seed", "-s", help="PySolFC game number (1 to 10**20).")
DealOption = typer.Option(None, "--deal", "-d", help="The cards in deal order, e.g. 'AS 7H ...'.")
FileOption = typer.Option(None, "--file", "-f", help="A file of deals: one per line, # comments.")


def _deals(setup: Setup, seed: Optional[int], deal: Optional[str], file: Optional[Path]) -> Iterator[tuple[int | None, list[Card]]]:
    given = [name for name, value in (("--seed", seed), ("--deal", deal), ("--file", file)) if value is not None]
    if len(given) != 1:
        raise MoveError("give exactly one of --seed, --deal or --file" + (f" (got {', '.join(given)})" if given else ""))
    if file is not None:
        for cards in read_deal_file(read_text(file, "deal file"), setup.family.deck()):
            yield None, cards
    else:
        yield seed, setup.deal(seed=seed, text=deal)


@app.command()
@friendly
def games() -> None:
    """List the games and their variants."""
    for family in families().values():
        variants = ", ".join(v.name for v in family.variants)
        typer.echo(f"{family.name}: {family.summary}\n    variants: {variants}")


@app.command()
@friendly
def describe(game: str = typer.Argument(..., help="A game or variant name.")) -> None:
    """Explain a game's rules, options (with defaults) and variants."""
    family, _ = find_game(game)
    typer.echo(family.describe())


@app.command()
@friendly
def deal(
    game: str = typer.Argument(..., help="A game or variant name."),
    seed: int = typer.Option(..., "--seed", "-s", help="PySolFC game number (1 to 10**20)."),
    variant: Optional[str] = VariantOption,
    option: List[str] = OptionsOption,
) -> None:
    """Print the deal of a seeded game, first dealt first."""
    setup = Setup.of(game, variant, option)
    typer.echo(format_cards(setup.deal(seed=seed)))


def _print_outcome(outcome: Outcome, show: bool) -> None:
    setup, result = outcome.setup, outcome.result
    family = setup.family
    header = f"{family.name} ({setup.variant})" + (f", seed {outcome.seed}" if outcome.seed is not None else "")
    typer.echo(header)
    typer.echo(f"deal: {format_cards(outcome.deal)}")
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
    texts = outcome.line_text()
    title = "solution" if result.solution is not None else "line to the best score"
    typer.echo(f"{title} ({len(texts)} moves):")
    state = outcome.start
    if show:
        typer.echo(f"       {setup.game.render(state)}")
    for number, (text, move) in enumerate(zip(texts, result.best_line), 1):
        typer.echo(f"{number:3d}. {text}")
        state = setup.game.apply(state, move)
        if show:
            typer.echo(f"       {setup.game.render(state)}")


def _limits(max_nodes: Optional[int], max_seconds: Optional[float], max_memory: str) -> Limits:
    return Limits(max_nodes=max_nodes, max_seconds=max_seconds, max_memory=parse_size(max_memory))


MaxNodesOption = typer.Option(None, "--max-nodes", help="Stop with 'unknown' after expanding this many states.")
MaxSecondsOption = typer.Option(None, "--max-seconds", help="Stop with 'unknown' after this many CPU seconds.")
MaxMemoryOption = typer.Option("2G", "--max-memory", help="Memory bound of the transposition table (e.g. 500M, 2G).")


@app.command("solve")
@friendly
def solve_command(
    game: str = typer.Argument(..., help="A game or variant name."),
    seed: Optional[int] = SeedOption,
    deal: Optional[str] = DealOption,
    file: Optional[Path] = FileOption,
    variant: Optional[str] = VariantOption,
    option: List[str] = OptionsOption,
    max_nodes: Optional[int] = MaxNodesOption,
    max_seconds: Optional[float] = MaxSecondsOption,
    max_memory: str = MaxMemoryOption,
    fewest_redeals: bool = typer.Option(False, "--fewest-redeals", help="Find the win with the fewest passes through the stock (IDA*)."),
    show: bool = typer.Option(False, "--show", help="Draw the layout after each move."),
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object per deal per line."),
) -> None:
    """Solve deals: verdict, minimal score, and the winning (or best) line of moves."""
    setup = Setup.of(game, variant, option)
    limits = _limits(max_nodes, max_seconds, max_memory)
    for number, (deal_seed, cards) in enumerate(_deals(setup, seed, deal, file)):
        outcome = solve(setup, cards, limits, deal_seed, fewest_redeals)
        if as_json:
            typer.echo(json.dumps(outcome.record()))
        else:
            if number:
                typer.echo("")
            _print_outcome(outcome, show)


def read_text(path: Path, what: str) -> str:
    """A text file's contents, or a one-line error naming the file."""
    try:
        return path.read_text(encoding="utf-8")
    except UnicodeDecodeError:
        raise MoveError(f"malformed {what} {path}: not UTF-8 text") from None


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


def _check_record_is_for(record: dict[str, Any], setup: Setup, cards: list[Card]) -> None:
    """A record names its game and deal: they must be the ones being verified. (Its variant may
    differ: replaying a line under other rules of the same game is a fair question.)"""
    expected = {"game": setup.family.name, "deal": format_cards(cards)}
    for field, value in expected.items():
        if field in record and record[field] != value:
            raise MoveError(f"the record's {field} is {record[field]!r}, but this verification is for {value!r}")


@app.command()
@friendly
def verify(
    game: str = typer.Argument(..., help="A game or variant name."),
    solution: Path = typer.Option(..., "--solution", help="File of moves, one per line, or a --json record."),
    seed: Optional[int] = SeedOption,
    deal: Optional[str] = DealOption,
    file: Optional[Path] = FileOption,
    variant: Optional[str] = VariantOption,
    option: List[str] = OptionsOption,
) -> None:
    """Replay a solution through the rules; report the first illegal move, if any.

    A ``--json`` record is also held to what it claims: its game and deal, a win, its score,
    and its redeals.
    """
    setup = Setup.of(game, variant, option)
    deals = list(_deals(setup, seed, deal, file))
    if len(deals) != 1:
        raise MoveError(f"verify takes one deal; the file holds {len(deals)}")
    texts, record = read_solution(read_text(solution, "solution file"))
    if record is not None:
        _check_record_is_for(record, setup, deals[0][1])
    ruleset = setup.game
    state = ruleset.start(deals[0][1])
    moves = []
    for number, text in enumerate(texts, 1):
        try:
            move = ruleset.parse_move(state, text)
        except ValueError as error:
            typer.echo(f"move {number} ({text}) is illegal: {error}", err=True)
            raise typer.Exit(1) from None
        outcome = replay(ruleset, state, [move])
        if outcome.illegal_at is not None:
            typer.echo(f"move {number} ({text}) is illegal here: {ruleset.render(state)}", err=True)
            raise typer.Exit(1)
        moves.append(move)
        state = outcome.final
    won = ruleset.is_won(state)
    score = ruleset.score(state)
    reached = None if score == NO_SCORE else score
    if won:
        typer.echo(f"valid: all {len(moves)} moves legal; the game is won")
    else:
        ending = "the game has not ended" if reached is None else f"{setup.family.score_label}: {reached}"
        typer.echo(f"valid: all {len(moves)} moves legal; not won ({ending})")
    if record is not None:
        claimed = record.get(setup.family.score_field, reached)
        if record.get("result") == "won" and not won:
            typer.echo("the record claims a win, but its moves do not win", err=True)
            raise typer.Exit(1)
        if claimed != reached:
            typer.echo(f"the record claims {setup.family.score_label} {claimed}, but its moves reach {reached}", err=True)
            raise typer.Exit(1)
        if "redeals" in record and hasattr(ruleset, "move_cost"):
            redeals = line_cost(ruleset, ruleset.start(deals[0][1]), tuple(moves))  # type: ignore[arg-type]
            if record["redeals"] != redeals:
                typer.echo(f"the record claims {record['redeals']} redeals, but its moves hold {redeals}", err=True)
                raise typer.Exit(1)


def main() -> None:
    """Console-script entry point."""
    app()


# Surveys (issue 7). Kept last: these modules import the option objects defined above.
from solver.cli.report import report_command  # noqa: E402
from solver.cli.survey import survey_command  # noqa: E402

app.command("survey")(friendly(survey_command))
app.command("report")(friendly(report_command))

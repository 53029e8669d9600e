"""The ``hint`` command: every legal move of a deal or position with what it leaves, best first.
Its services are imported when it runs (see :mod:`solver.cli.solve`)."""

from typing import TYPE_CHECKING

import typer

from solver.cli.errors import UsageError
from solver.cli.options import (
    DealOption,
    GameArgument,
    MaxMemoryOption,
    MaxNodesOption,
    MaxSecondsOption,
    OptionsOption,
    PositionOption,
    SeedOption,
    VariantOption,
)

if TYPE_CHECKING:
    from solver.service.hinting import Hint


def hint_command(
    game: str = GameArgument,
    seed: int | None = SeedOption,
    deal: str | None = DealOption,
    position: str | None = PositionOption,
    variant: str | None = VariantOption,
    option: list[str] = OptionsOption,
    max_nodes: int | None = MaxNodesOption,
    max_seconds: float | None = MaxSecondsOption,
    max_memory: str = MaxMemoryOption,
    as_json: bool = typer.Option(False, "--json", help="Print one JSON object with the moves in order."),
) -> None:
    """Every legal move with what it leaves (won, lost or unknown, and the best score after it),
    best first. The limits apply to each move's search; a move cut by one says unknown."""
    import json

    from solver.cli.solve import Deals
    from solver.service.hinting import hints
    from solver.service.setup import Setup, limits

    setup = Setup.of(game, variant, option)
    bounds = limits(max_nodes, max_seconds, max_memory)
    if sum(value is not None for value in (seed, deal, position)) != 1:
        raise UsageError("give exactly one of --seed, --deal or --position")
    ((_, _, start),) = Deals(setup, seed, deal, None, position=position)
    found = hints(setup, start, bounds)
    text = setup.game.write_position(start)
    if as_json:
        record = {"game": setup.family.name, "variant": setup.variant, "position": text}
        typer.echo(json.dumps({**record, "moves": [h.record() for h in found]}))
        return
    typer.echo(f"{setup.family.name} ({setup.variant})")
    typer.echo(f"position: {text}")
    if not found:
        typer.echo("no legal move: the game is over here")
    width = max((len(h.move) for h in found), default=0)
    for number, found_hint in enumerate(found, 1):
        typer.echo(f"{number:3d}. {found_hint.move:<{width}}  {_verdict(found_hint, setup.family.score_label)}")


def _verdict(hint: "Hint", label: str) -> str:
    """What a move leaves, in words: the verdict, then the best score after it."""
    if hint.score is None:
        score = "no end of the game reached"
    else:
        score = f"{label} {hint.score}" + ("" if hint.score_proven else " (best found)")
    cut = f", limit {hint.limit} reached" if hint.limit else ""
    return f"{hint.result:<7} {score}{cut}"

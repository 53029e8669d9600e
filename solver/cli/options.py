"""The command-line options several commands share: the game's variant and options, where the
deals come from, and the search limits."""

from __future__ import annotations

import typer

GameArgument = typer.Argument(..., help="A game or variant name.")
VariantOption = typer.Option(None, "--variant", "-v", help="A named preset of the game's options.")
OptionsOption = typer.Option([], "--option", "-o", help="Set one option: name=value (repeatable).")
SeedOption = typer.Option(None, "--seed", "-s", help="PySolFC game number (1 to 10**20).")
DealOption = typer.Option(
    None, "--deal", "-d", help="The cards in deal order, e.g. 'AS 7H ...'; '-': read them from standard input."
)
FileOption = typer.Option(
    None, "--file", "-f", help="A file of deals or positions: one per line, # comments; '-': standard input."
)
PositionOption = typer.Option(
    None, "--position", "-p", help="A game in progress, e.g. 'row: AS 7H ...' (see docs/positions.md)."
)
MaxNodesOption = typer.Option(None, "--max-nodes", help="Stop with 'unknown' after expanding this many states.")
MaxSecondsOption = typer.Option(None, "--max-seconds", help="Stop with 'unknown' after this many CPU seconds.")
MaxMemoryOption = typer.Option("2G", "--max-memory", help="Memory bound of the transposition table (e.g. 500M, 2G).")

"""The ``patience`` command: list, describe, deal, solve and verify games, and run surveys.

A thin layer over :mod:`solver.service`: each command reads its options, calls the service and
prints what it returns.
"""

from __future__ import annotations

import typer

from solver.cli.errors import friendly
from solver.cli.hint import hint_command
from solver.cli.solve import deal, describe, games, solve_command, verify_command
from solver.cli.survey import report_command, survey_command

app = typer.Typer(
    help="Exhaustive solver and solvability checker for patience (solitaire) games.",
    add_completion=False,
    no_args_is_help=True,
    pretty_exceptions_enable=False,
)

COMMANDS = {
    "games": games,
    "describe": describe,
    "deal": deal,
    "solve": solve_command,
    "verify": verify_command,
    "hint": hint_command,
    "survey": survey_command,
    "report": report_command,
}
for name, command in COMMANDS.items():
    app.command(name)(friendly(command))


def main() -> None:
    """Console-script entry point."""
    app()


__all__ = ["app", "friendly", "main"]

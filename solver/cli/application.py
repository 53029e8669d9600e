"""The ``patience`` command: its commands, its global flags (``--version``, ``--debug``) and the one
place where whatever a command ends with becomes an exit code and, for trouble, one stderr line."""

import functools
from collections.abc import Callable, MutableMapping, Sequence
from typing import Any, TypeVar

import typer
from typer.core import TyperGroup

from solver.cli.errors import ExitCode, UsageError, report
from solver.cli.hint import hint_command
from solver.cli.solve import deal, describe, games, solve_command, verify_command
from solver.cli.survey import report_command, survey_command

F = TypeVar("F", bound=Callable[..., Any])


class PatienceGroup(TyperGroup):
    """The command group, run so that every ending is one of the documented exit codes: what the
    argument parser rejects is reported like any other bad input, in one line (no box, no usage
    block), and anything that is not the user's error is an internal error."""

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> int:
        """Run the command line ``args``; exit with its code (or return it, if not standalone).
        The program is always called ``patience`` in messages, whatever ``prog_name`` says."""
        code = self.run(list(args) if args is not None else [], "patience", complete_var, extra)
        if standalone_mode:
            raise SystemExit(code)
        return code

    def run(self, args: list[str], prog_name: str, complete_var: str | None, extra: MutableMapping[str, Any]) -> int:
        """The exit code of running ``args``, having said what went wrong, if anything."""
        self._main_shell_completion(extra, prog_name, complete_var)  # exits if the shell asks
        context = None
        try:
            context = self.make_context(prog_name, args, **extra)
            with context:
                self.invoke(context)
            return ExitCode.OK
        except typer.Exit as end:
            return end.exit_code
        except typer.Abort:
            return report(KeyboardInterrupt())
        except typer.TyperException as error:  # what the argument parser rejects
            return report(UsageError(_usage_message(error)))
        except Exception as error:  # noqa: BLE001 - anything else is a bug, reported as one
            return report(error, debug=bool(context is not None and context.params.get("debug")))
        except KeyboardInterrupt as error:
            return report(error)


def _usage_message(error: typer.TyperException) -> str:
    """The parser's complaint as one of our lines, pointing to the command's ``--help``."""
    context = getattr(error, "ctx", None)
    where = context.command_path if context is not None else "patience"
    message = error.format_message().strip().rstrip(".")
    return f"{message[:1].lower()}{message[1:]} (see '{where} --help')"


def friendly(command: F) -> F:
    """The command, ending as :class:`PatienceGroup` ends commands even when run by another typer
    app (say, a test's): bad input as one line and exit code 2, Ctrl-C 130, a bug 70."""

    @functools.wraps(command)
    def run(*args: Any, **kwargs: Any) -> Any:
        try:
            return command(*args, **kwargs)
        except (Exception, KeyboardInterrupt) as error:
            if isinstance(error, typer.Exit):
                raise
            raise typer.Exit(report(error)) from None

    return run  # type: ignore[return-value]


def _show_version(value: bool) -> None:
    if value:
        from importlib.metadata import version

        typer.echo(f"patience {version('patience-solver')}")
        raise typer.Exit()


app = typer.Typer(
    cls=PatienceGroup,
    help="Exhaustive solver and solvability checker for patience (solitaire) games.",
    context_settings={"help_option_names": ["-h", "--help"]},
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)


@app.callback(invoke_without_command=True)
def _global_options(
    context: typer.Context,
    version: bool | None = typer.Option(
        None, "--version", callback=_show_version, is_eager=True, help="Print the version and exit."
    ),
    debug: bool = typer.Option(
        False, "--debug", help="Show the traceback of an internal error (also PATIENCE_DEBUG=1)."
    ),
) -> None:
    """Exhaustive solver and solvability checker for patience (solitaire) games."""
    if context.invoked_subcommand is None:
        typer.echo(context.get_help())


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
    app.command(name)(command)


def run(args: Sequence[str]) -> int:
    """The exit code of the command line ``args`` (the console script's whole work)."""
    return int(typer.main.get_command(app).main(args, "patience", standalone_mode=False))

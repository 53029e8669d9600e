"""The ``patience`` command: its parser (argparse), its global flags (``--version``, ``--debug``) and
the one place where whatever a command ends with becomes an exit code and, for trouble, one stderr
line. Built on the standard library's argparse, which imports in about 2 ms, where typer's import
alone took most of the 0.1 s start-up budget (benchmarks/startup.py)."""

from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Sequence
from typing import Any, NoReturn

from solver.cli import catalogue, hint, play, solve, survey
from solver.cli.errors import ExitCode, UsageError, report
from solver.cli.options import Command

#: Every command, in the order ``patience --help`` lists them.
COMMANDS: tuple[Command, ...] = (*catalogue.COMMANDS, *solve.COMMANDS, hint.COMMAND, play.COMMAND, *survey.COMMANDS)
#: Where the parsed arguments keep the command chosen (no command function has a parameter so named).
CHOSEN = "command"
DESCRIPTION = "Exhaustive solver and solvability checker for patience (solitaire) games."


class Finished(Exception):
    """The parser is done before any command ran (it printed the help or the version)."""

    def __init__(self, code: int) -> None:
        super().__init__(code)
        self.code = code


class HelpFormatter(argparse.HelpFormatter):
    """argparse's help, with a description's paragraphs (a docstring's) each filled on their own."""

    def __init__(self, prog: str) -> None:
        # argparse makes a formatter for every argument declared (to check its value's name), and
        # each asked shutil for the terminal's width: importing shutil (and the compression
        # modules it loads) took about 4 ms of every start. The width as shutil finds it, less 2.
        super().__init__(prog, width=terminal_columns() - 2)

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        paragraphs = [" ".join(part.split()) for part in text.split("\n\n") if part.strip()]
        fill = super()._fill_text  # (super() without arguments fails inside a generator)
        return "\n\n".join(fill(part, width, indent) for part in paragraphs)


def terminal_columns() -> int:
    """The terminal's width as ``shutil.get_terminal_size`` finds it: COLUMNS, else standard
    output's terminal, else 80."""
    try:
        columns = int(os.environ.get("COLUMNS", "0"))
    except ValueError:
        columns = 0
    if columns > 0:
        return columns
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns or 80  # type: ignore[union-attr]
    except (AttributeError, ValueError, OSError):
        return 80


class Parser(argparse.ArgumentParser):
    """argparse's parser, ending as every command ends: what it refuses is a :class:`UsageError`
    (one line, exit code 2, pointing to this command's ``--help``, no usage block), and printing the
    help or the version finishes the run, not the process. Options must be spelt out in full, and
    one not given is left out, so that the command's function supplies its own default."""

    def __init__(self, **settings: Any) -> None:
        super().__init__(
            allow_abbrev=False, argument_default=argparse.SUPPRESS, formatter_class=HelpFormatter, **settings
        )

    def error(self, message: str) -> NoReturn:
        refused = re.match(r"argument (?:\S+/)?(--[\w-]+): expected one argument$", message)
        if refused:  # so argparse reads a value like '-x' or '-5x'
            message += f"; if its value begins with '-', write it with '=', e.g. {refused[1]}=-x"
        unknown = re.match(r"argument COMMAND: invalid choice: '(.*?)' \(", message)
        if unknown:
            from rulesets.names import did_you_mean

            names = [command.name for command in COMMANDS]
            message = f"unknown command {unknown[1]!r}{did_you_mean(unknown[1], names)}; commands: {', '.join(names)}"
        raise UsageError(f"{message} (see '{self.prog} --help')")

    def _print_message(self, message: str, file: Any = None) -> None:
        """Write the help as the commands write (argparse's own drops a write that fails): a
        closed pipe or a full disk then ends it as it ends them."""
        if message:
            (file or sys.stderr).write(message)

    def exit(self, status: int = 0, message: str | None = None) -> NoReturn:
        raise Finished(status)  # argparse passes a message only from error, which is ours


class Version(argparse.Action):
    """``--version``: print the version and finish (read from the installation only when asked)."""

    def __call__(self, parser: argparse.ArgumentParser, *_: Any) -> None:
        from importlib.metadata import version

        from solver.service.engines import status

        print(f"patience {version('patience-solver')}, engine: {status()}")
        parser.exit()


def first(args: Sequence[str]) -> str | None:
    """The first word of ``args`` but ``--debug`` (the command's name, if all is well)."""
    return next((word for word in args if word != "--debug"), None)


def named(args: Sequence[str]) -> Command | None:
    """The command ``args`` run, when nothing but ``--debug`` comes before its name; None when
    something else does (``--help``, ``--version``, an unknown word), or nothing."""
    word = first(args)
    return next((command for command in COMMANDS if command.name == word), None)


def refuse_misplaced(args: Sequence[str]) -> None:
    """Refuse a command's option written before the command's name, saying where it goes
    (argparse would take the ``7`` of ``--seed 7 solve`` for the command's name)."""
    flag = (first(args) or "").split("=", 1)[0]
    later = [command for command in COMMANDS if command.name in args]  # the command meant, first
    for command in (*later, *COMMANDS) if flag.startswith("-") else ():
        if any(flag in argument.flags for argument in command.arguments):
            raise UsageError(
                f"{flag} is an option of a command: write it after the command, "
                f"e.g. 'patience {command.name} GAME {flag} ...' (see 'patience {command.name} --help')"
            )


def parser(only: Command | None = None) -> Parser:
    """The parser of the whole command line: global flags, then a sub-parser for ``only``, or for
    every command (to list them in the help, or to name them when the command is unknown). The
    other commands' sub-parsers took about 2.7 ms of each start (of 3.5: argparse looks up the
    translations of its own texts for each, and makes a formatter for each argument declared)."""
    main = Parser(prog="patience", description=DESCRIPTION)
    main.add_argument("--version", action=Version, nargs=0, help="Print the version and exit.")
    main.add_argument(
        "--debug", action="store_true", help="Show the traceback of an internal error (also PATIENCE_DEBUG=1)."
    )
    commands = main.add_subparsers(title="commands", metavar="COMMAND", prog="patience")
    for command in COMMANDS if only is None else (only,):
        doc = command.function.__doc__ or ""
        summary = " ".join(doc.split("\n\n", 1)[0].split()).replace("%", "%%")
        sub = commands.add_parser(command.name, help=summary, description=doc)
        sub.set_defaults(**{CHOSEN: command})
        defaults = getattr(command.function, "__kwdefaults__", None) or {}
        for argument in command.arguments:
            argument.add_to(sub, defaults.get(argument.dest))
    return main


def _nearest(extra: Sequence[str], chosen: Command | None) -> str:
    """`` (did you mean --seeds?)`` for the first unknown flag that is a near miss of one the
    command takes (``survey --seed``), or nothing."""
    from rulesets.names import did_you_mean

    flags = [flag for argument in chosen.arguments for flag in argument.flags] if chosen else ["--version", "--debug"]
    for word in extra:
        if word.startswith("--"):
            near = did_you_mean(word.split("=", 1)[0], [flag for flag in flags if flag.startswith("--")])
            if near:
                return near.replace("'", "")
    return ""


def complete() -> None:
    """Answer the shell's request for completions (argcomplete's protocol: ``_ARGCOMPLETE`` set) and
    exit; otherwise nothing. argcomplete is imported only then: it takes longer than argparse."""
    if "_ARGCOMPLETE" in os.environ:
        import argcomplete

        try:
            argcomplete.autocomplete(parser())
        except Exception:  # noqa: BLE001 - argcomplete's own failure (its file completer cannot read a
            # name that is not UTF-8): offer no words rather than an error line in the line being typed.
            os._exit(1)


def run(args: Sequence[str]) -> int:
    """The exit code of the command line ``args`` (the console script's whole work), having said
    what went wrong, if anything, in one line."""
    complete()
    main = parser(named(args))
    debug = False
    try:
        refuse_misplaced(args)
        known, extra = main.parse_known_args(list(args))
        chosen: Command | None = getattr(known, CHOSEN, None)
        where = "patience" if chosen is None else f"patience {chosen.name}"
        if "--debug" in extra:
            raise UsageError(f"--debug goes before the command: '{where.replace(' ', ' --debug ', 1)} ...'")
        if extra:
            raise UsageError(
                f"unrecognized arguments: {' '.join(extra)}{_nearest(extra, chosen)} (see '{where} --help')"
            )
        given = {name: value for name, value in vars(known).items() if name not in (CHOSEN, "debug")}
        debug = getattr(known, "debug", False)
        if chosen is None:  # as argparse ends a missing argument: the commands, then one error line
            main.print_help(sys.stderr)
            raise UsageError("give a command, e.g. 'patience solve accordion --seed 7' (see 'patience --help')")
        code = chosen.function(**given)
        return ExitCode.OK if code is None else code
    except Finished as finished:
        return finished.code
    except (Exception, KeyboardInterrupt) as error:  # noqa: BLE001 - each ending told as report says
        return report(error, debug=debug, named=args)

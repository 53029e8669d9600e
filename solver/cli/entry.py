# PYTHON_ARGCOMPLETE_OK (the mark argcomplete's global completion looks for in a console script's module)
"""The ``patience`` console script, kept tiny: Ctrl-C is one line and exit code 130 from its first
moment, before the command line's heavier modules (argparse, the rulesets) are imported."""

# _signal, not signal (which imports enum): until the handler is set, Ctrl-C would print Python's
# traceback, so nothing that takes time to load comes first.
import _signal  # type: ignore[import-not-found]  # a builtin module without stubs
import sys

_running = False


def _on_interrupt(signum: int, frame: object) -> None:
    """While a command runs, raise KeyboardInterrupt, so that it can stop cleanly (a survey
    commits its rows). Before and after, there is nothing to tidy: say so and stop."""
    if not _running:
        _stop()
    raise KeyboardInterrupt


def _stop() -> None:
    sys.stderr.write("patience: interrupted (what was printed stands)\n")
    sys.stderr.flush()
    raise SystemExit(130)


if _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:  # not if started ignoring it
    _signal.signal(_signal.SIGINT, _on_interrupt)


def main() -> None:
    """Run the command named on the command line and exit with its code."""
    global _running
    _running = True
    try:
        from solver.cli.application import run

        code = run(sys.argv[1:])
    except KeyboardInterrupt:  # while importing: nothing was printed
        _stop()
    except SystemExit:
        raise
    except BaseException as error:  # noqa: BLE001 - a bug in starting up
        from solver.cli.errors import report

        code = report(error)
    _running = False
    sys.exit(code)

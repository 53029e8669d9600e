# PYTHON_ARGCOMPLETE_OK (the mark argcomplete's global completion looks for in a console script's module)
"""The ``patience`` console script, kept tiny: Ctrl-C is one line and exit code 130 from its first
moment, before the command line's heavier modules (argparse, the rulesets) are imported."""

# _signal, not signal (which imports enum): until the handler is set, Ctrl-C would print Python's
# traceback, so nothing that takes time to load comes first.
import _signal  # type: ignore[import-not-found]  # a builtin module without stubs
import os  # already loaded by Python's own start-up: free
import sys

_running = False


def _on_interrupt(signum: int, frame: object) -> None:
    """While a command runs, raise KeyboardInterrupt, so that it can stop cleanly (a survey
    commits its rows). Before, there is nothing to tidy: say so and stop. (Once the command is
    done, Ctrl-C is ignored: see :func:`main`.) SIGTERM, what ``kill`` and service managers
    send, is taken as Ctrl-C."""
    if not _running:
        _stop()
    raise KeyboardInterrupt


def _stop() -> None:
    _say("patience: interrupted (what was printed stands)")
    raise SystemExit(130)


def _say(line: str) -> None:
    """Write ``line`` to stderr, if it can be written (a full or closed stderr leaves the exit code
    to tell)."""
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _unraisable(unraisable: object) -> None:
    """Python prints and drops an exception it cannot raise where it happened (in a weakref
    callback of the import machinery, a ``__del__``): a Ctrl-C landing there was lost, the command
    running on with "Exception ignored ... KeyboardInterrupt" on stderr (seen under load). Deliver
    it again, to land in ordinary code; anything else goes to Python's own hook."""
    if isinstance(getattr(unraisable, "exc_value", None), KeyboardInterrupt):
        # A millisecond later, by a timer: raised here (raise_signal, interrupt_main run the
        # handler at once) it would be dropped again.
        _signal.signal(_signal.SIGALRM, _on_interrupt)
        _signal.setitimer(_signal.ITIMER_REAL, 0.001)
    else:
        sys.__unraisablehook__(unraisable)  # type: ignore[arg-type]


if _signal.getsignal(_signal.SIGTERM) == _signal.SIG_DFL:  # else it ended the run with no line (exit 143)
    _signal.signal(_signal.SIGTERM, _on_interrupt)
if _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:  # not if started ignoring it
    _signal.signal(_signal.SIGINT, _on_interrupt)
    sys.unraisablehook = _unraisable


def _closed(descriptor: int) -> bool:
    """Whether ``descriptor`` was closed when the command started (``>&-``, ``2>&-``); it is then
    pointed at the null device, so that no file the command opens takes its number (and with it
    what the command, or a worker it starts, writes there)."""
    try:
        os.fstat(descriptor)
    except OSError:
        null = os.open(os.devnull, os.O_WRONLY)
        if null != descriptor:
            os.dup2(null, descriptor)
            os.close(null)
        return True
    return False


def main() -> None:
    """Run the command named on the command line and exit with its code."""
    global _running
    _running = True
    if _closed(2):  # nowhere to say what goes wrong; the exit code still tells
        sys.stderr = open(2, "w", closefd=False)  # noqa: SIM115 - the process's own stream
    if _closed(1):  # what the command prints would be lost: refuse, as a full disk is refused
        _say("patience: error: standard output is closed: send it somewhere, e.g. '> FILE' or '> /dev/null'")
        sys.exit(2)
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
    # Done: the answer stands. A Ctrl-C from here on would land in Python's shutdown, which prints
    # "Exception ignored ... KeyboardInterrupt" (seen under load by the start-up Ctrl-C test).
    _signal.signal(_signal.SIGINT, _signal.SIG_IGN)
    if _signal.getsignal(_signal.SIGTERM) is _on_interrupt:
        _signal.signal(_signal.SIGTERM, _signal.SIG_IGN)
    sys.exit(code)

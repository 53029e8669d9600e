"""The ``patience`` console script, kept tiny: Ctrl-C is one line and exit code 130 from its first
moment, before the command line's heavier modules (typer, the rulesets) are imported."""

from __future__ import annotations

import os
import signal
import sys
from types import FrameType

_started = False


def _on_interrupt(signum: int, frame: FrameType | None) -> None:
    """Before :func:`main` runs there is nothing to tidy: say so and stop. After, raise
    KeyboardInterrupt, so that what is running can stop cleanly (a survey commits its rows)."""
    if not _started:
        os.write(2, b"patience: interrupted (what was printed stands)\n")
        os._exit(130)
    raise KeyboardInterrupt


if signal.getsignal(signal.SIGINT) is signal.default_int_handler:  # not when started ignoring it
    signal.signal(signal.SIGINT, _on_interrupt)


def main() -> None:
    """Run the command named on the command line and exit with its code."""
    global _started
    _started = True
    from solver.cli.errors import report

    try:
        from solver.cli.application import run

        code = run(sys.argv[1:])
    except SystemExit:
        raise
    except BaseException as error:  # only what escapes run itself: Ctrl-C while importing, say
        code = report(error)
    sys.exit(code)

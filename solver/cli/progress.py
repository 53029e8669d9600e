"""The survey's progress bar on stderr (deals done, deals per second, time left, and the deals
won, lost and left unknown so far), shown to people only; it fits an 80-column terminal."""

from __future__ import annotations

import os
import sys
import time
from typing import Any

from solver.service.survey import Tally


def show_progress() -> bool:
    """Progress bars are for people: only when stderr is a terminal and not under CI."""
    return sys.stderr.isatty() and not os.environ.get("CI")


class ProgressBar:
    """A rich progress bar, started by the first tally it is shown (the deals already stored)."""

    def __init__(self, title: str) -> None:
        self.title = title
        self.bar: Any = None

    def __call__(self, tally: Tally) -> None:
        done = tally.skipped + tally.solved
        if self.bar is None:
            self._start(tally.total, done, _verdicts(tally))
            return
        elapsed = time.monotonic() - self.started
        rate = (done - self.start_done) / elapsed if elapsed > 0 else 0.0
        self.bar.update(self.task, completed=done, rate=f"{rate:.1f}", **_verdicts(tally))

    def _start(self, total: int, done: int, verdicts: dict[str, int]) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            Progress,
            TextColumn,
            TimeRemainingColumn,
        )

        self.bar = Progress(
            TextColumn("{task.description}"),
            BarColumn(bar_width=12),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]}/s"),
            TimeRemainingColumn(),
            TextColumn(
                "[green]won {task.fields[won]}[/] [blue]lost {task.fields[lost]}[/] "
                "[yellow]unknown {task.fields[unknown]}[/]"
            ),
            console=Console(file=_Forgiving(sys.stderr)),  # type: ignore[arg-type]  # the calls rich makes
            transient=False,
        )
        self.started, self.start_done = time.monotonic(), done
        self.task = self.bar.add_task(self.title, total=total, completed=done, rate="-", **verdicts)
        self.bar.start()

    def close(self) -> None:
        """Stop drawing (again: nothing)."""
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


def _verdicts(tally: Tally) -> dict[str, int]:
    """The deals won, lost and unknown so far (stored before this run or by it)."""
    return {verdict: tally.stored(verdict) for verdict in ("won", "lost", "unknown")}


class _Forgiving:
    """Standard error as the bar writes it: a write that fails (stderr full, or a closed pipe) is
    dropped, as the bar is a courtesy: on a full stderr it made a survey that stored every deal
    exit with 2. Written straight to the descriptor, so nothing is left in a buffer for Python to
    fail to flush at exit."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        try:
            data = text.encode(getattr(self.stream, "encoding", None) or "utf-8", "replace")
            descriptor = self.stream.fileno()
        except (AttributeError, OSError, ValueError):  # not a real file (a test's capture)
            try:
                return int(self.stream.write(text))
            except (OSError, ValueError):
                return len(text)
        try:
            while data:
                data = data[os.write(descriptor, data) :]
        except OSError:
            pass
        return len(text)

    def flush(self) -> None:
        pass

    def isatty(self) -> bool:
        try:
            return bool(self.stream.isatty())
        except (AttributeError, OSError, ValueError):
            return False

    def fileno(self) -> int:
        return int(self.stream.fileno())

    @property
    def encoding(self) -> str:
        return getattr(self.stream, "encoding", None) or "utf-8"

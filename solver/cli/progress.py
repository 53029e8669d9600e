"""The survey's progress bar on stderr (deals done, rate, ETA, wins), shown to people only."""

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
        done, won = tally.skipped + tally.solved, tally.skipped_won + tally.won
        if self.bar is None:
            self._start(tally.total, done, won)
            return
        elapsed = time.monotonic() - self.started
        rate = (done - self.start_done) / elapsed if elapsed > 0 else 0.0
        self.bar.update(self.task, completed=done, won=won, rate=f"{rate:.1f}", share=_share(won, done))

    def _start(self, total: int, done: int, won: int) -> None:
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
            BarColumn(),
            MofNCompleteColumn(),
            TextColumn("{task.fields[rate]} deals/s"),
            TextColumn("ETA"),
            TimeRemainingColumn(),
            TextColumn("won {task.fields[won]} ({task.fields[share]})"),
            console=Console(stderr=True),
            transient=False,
        )
        self.started, self.start_done = time.monotonic(), done
        self.task = self.bar.add_task(
            self.title, total=total, completed=done, won=won, rate="-", share=_share(won, done)
        )
        self.bar.start()

    def close(self) -> None:
        """Stop drawing (again: nothing)."""
        if self.bar is not None:
            self.bar.stop()
            self.bar = None


def _share(won: int, done: int) -> str:
    return f"{100 * won / done:.1f}%" if done else "-"

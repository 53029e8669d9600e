"""What a long command shows on stderr while it runs, to people only (a terminal, not CI): the
survey's progress bar, and the searching line of a long solve or hint.

The survey's bar is two lines within 80 columns (narrower terminals crop it):

    accordion (accordion): won 1208 lost 0 unknown 0
     61% ━━━━━━━━━━━━━━━━━━━━━━━━━━━╸━━━━━━━━━━━━━━━━  1208/2000  73.8 deals/s  left 0:00:10

Its rate counts the deals solved by this run since its first batch arrived, so neither the deals
a resumed run found stored nor the workers' start make it jump; the time left is the deals still
to solve at that rate.
"""

from __future__ import annotations

import os
import sys
import time
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # a solve's searching line must not load the survey machinery
    from solver.surveys import RunTally

#: The widest the bar's lines grow (a wider terminal leaves the rest blank).
WIDTH = 80


def show_progress() -> bool:
    """Progress is for people: only when stderr is a terminal and not under CI."""
    return sys.stderr.isatty() and not os.environ.get("CI")


def clock(seconds: float | None) -> str:
    """A duration as ``H:MM:SS`` (``-:--:--`` when not known yet)."""
    if seconds is None:
        return "-:--:--"
    whole = int(seconds + 0.5)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


class Rate:
    """Deals per second solved by this run, from its first batch to its latest, once they are
    :data:`SETTLED` seconds apart (a batch's deals count only once the next arrives, so that
    neither the workers' start nor the deals a resumed run found stored make it jump)."""

    SETTLED = 2.0

    def __init__(self) -> None:
        self.first: tuple[float, int] | None = None
        self.latest: tuple[float, int] | None = None

    def note(self, solved: int, now: float) -> None:
        """``solved``: the deals this run has solved by ``now`` (monotonic seconds)."""
        if self.first is None:
            if solved:
                self.first = (now, solved)
            return
        self.latest = (now, solved)

    def per_second(self) -> float | None:
        if self.first is None or self.latest is None or self.latest[0] - self.first[0] < self.SETTLED:
            return None
        return (self.latest[1] - self.first[1]) / (self.latest[0] - self.first[0])

    def left(self, remaining: int, now: float) -> float | None:
        """The seconds the ``remaining`` deals (as of the latest batch) should take at this rate,
        counted down from the latest batch's arrival to ``now``."""
        rate = self.per_second()
        if rate is None or rate <= 0 or self.latest is None:
            return None
        return max(0.0, remaining / rate - (now - self.latest[0]))


class ProgressBar:
    """The survey's bar (rich, drawn a few times a second), started by the first tally it is
    shown (the deals already stored)."""

    def __init__(self, title: str) -> None:
        from solver.surveys import RunTally

        self.title = title
        self.live: Any = None
        self.tally = RunTally()
        self.rate = Rate()

    def __call__(self, tally: RunTally) -> None:
        self.tally = tally
        self.rate.note(tally.solved, time.monotonic())
        if self.live is None:
            self._start()
        else:
            self.live.refresh()

    def _start(self) -> None:
        from rich.console import Console
        from rich.live import Live

        # the bar is a courtesy: a write that fails (stderr full, a closed pipe) is dropped
        console = Console(file=_Forgiving(sys.stderr), width=min(WIDTH, Console(stderr=True).width))  # type: ignore[arg-type]
        self.live = Live(self, console=console, refresh_per_second=4, transient=False)
        self.live.start()

    def lines(self, width: int = WIDTH) -> tuple[str, str, float]:
        """The bar's two lines as text, the bar itself left out of the second (a marker ``|``
        where it goes), and the share of deals done: what :meth:`__rich__` draws."""
        tally = self.tally
        done, total = tally.skipped + tally.solved, tally.total
        verdicts = " ".join(f"{verdict} {tally.stored(verdict)}" for verdict in ("won", "lost", "unknown"))
        rate = self.rate.per_second()
        left = self.rate.left(total - done, time.monotonic())
        speed = "-" if rate is None else f"{rate:.1f}"
        share = done / total if total else 1.0
        status = f"{100 * share:3.0f}% | {done}/{total}  {speed} deals/s  left {clock(left)}"
        return f"{self.title}: {verdicts}", status, share

    def __rich__(self) -> Any:
        from rich.console import Group
        from rich.progress_bar import ProgressBar as Bar
        from rich.table import Table
        from rich.text import Text

        _, status, share = self.lines()
        before, after = status.split(" | ")
        room = WIDTH - 1 - len(before) - len(after) - 2
        line = Table.grid(padding=(0, 1))
        line.add_row(Text(before), Bar(total=1.0, completed=share, width=max(10, min(40, room))), Text(after))
        won, lost, unknown = (f"{v} {self.tally.stored(v)}" for v in ("won", "lost", "unknown"))
        title = Text.assemble(f"{self.title}: ", (won, "green"), " ", (lost, "blue"), " ", (unknown, "yellow"))
        return Group(title, line)

    def close(self) -> None:
        """Stop drawing, leaving the last picture (again: nothing)."""
        if self.live is not None:
            self.live.refresh()
            self.live.stop()
            self.live = None


class Searching:
    """``searching: 12.3 s, 1,234,567 states`` on stderr, redrawn in place every half second while
    a long solve or hint runs (the first after a second, so a quick answer shows nothing), and
    wiped before the answer is printed. Driven by a timer signal, whose handler runs between the
    steps of either engine (the compiled one checks for signals every 1,024 states, as it must
    for Ctrl-C, and brings its count of states up to date just before)."""

    DELAY, EVERY = 1.0, 0.5

    def __init__(self, stream: Any = None) -> None:
        self.stream = stream or sys.stderr
        self.shown = False
        self.previous: Any = None

    def __enter__(self) -> Searching:
        import signal

        from solver.engine import expanded

        self.started, self.before = time.monotonic(), expanded()
        self.previous = signal.signal(signal.SIGALRM, self._tick)
        signal.setitimer(signal.ITIMER_REAL, self.DELAY, self.EVERY)
        return self

    def __exit__(self, *exc: object) -> None:
        import signal

        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, self.previous if self.previous is not None else signal.SIG_DFL)
        if self.shown:
            self._write("\r\033[K")

    def text(self) -> str:
        """The line as it reads now (within 80 columns)."""
        from solver.engine import expanded

        seconds = f"searching: {clock(time.monotonic() - self.started)}"
        return f"{seconds}, {expanded() - self.before:,} states so far (Ctrl-C stops)"

    def _tick(self, signum: int, frame: object) -> None:
        self.shown = True
        self._write("\r\033[K" + self.text()[:79])

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError, RuntimeError):  # stderr closed, full or being written: skip a tick
            pass


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

"""What a long command shows while it runs, read off a real terminal: tmux runs the command, and
capture-pane reads its screen. The survey's bar (within 80 columns, a percentage, a labelled time
left, a rate counting this run's deals only), and the searching line of a long solve or hint (on
a terminal only, never for --json or a pipe, wiped before the answer)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
from helpers import reference_deal, run_cli

from solver.cli.progress import ProgressBar, Rate, Searching, clock
from solver.engine import NO_EXTENSIONS
from solver.surveys.running import RunTally

PATIENCE = str(Path(sys.executable).with_name("patience"))
#: A Baroness deal (PySolFC's 2, deal at will) that no search decides within seconds.
#: A search that stays long on either engine: the reference file's hardest loss proof, its table
#: held to 256 KiB (evictions make it search the same states again and again).
HARD = reference_deal("cons-hard2-2")
LONG = ["solve", "accordion", "--deal", HARD, "--max-memory", "256K", "--max-seconds", "2.5"]


# --- the survey's bar, drawn off screen --------------------------------------------------------


def test_the_rate_counts_this_runs_deals_once_settled() -> None:
    """A resumed run found 500 deals stored: they are no part of its rate, nor is the wait for the
    first batch; the rate shows only once two batches are two seconds apart."""
    rate = Rate()
    rate.note(0, 0.0)  # the stored deals counted: this run has solved none
    rate.note(8, 5.0)  # the first batch, after the workers' start
    assert rate.per_second() is None
    rate.note(18, 6.0)
    assert rate.per_second() is None  # not settled yet: one second of batches
    rate.note(28, 7.0)
    assert rate.per_second() == pytest.approx(10.0)
    rate.note(48, 9.0)
    assert rate.per_second() == pytest.approx(10.0)  # steady work, a steady rate
    assert rate.left(100, 9.0) == pytest.approx(10.0) and rate.left(100, 12.0) == pytest.approx(7.0)
    assert clock(None) == "-:--:--" and clock(3725.4) == "1:02:05"


@pytest.mark.parametrize("total", [40, 2_000, 1_000_000])
def test_the_bar_is_two_lines_within_80_columns(total: int) -> None:
    from rich.console import Console

    bar = ProgressBar("queen-and-her-lad (queen-and-her-lad)")
    bar.tally = RunTally(
        total=total, skipped_results={"won": total // 4}, solved=total // 4, results={"lost": total // 4}
    )
    for moment, solved in ((0.0, 1), (3.0, total // 4)):
        bar.rate.note(solved, moment)
    console = Console(width=120, record=True, color_system=None)
    console.print(bar)
    lines = console.export_text().rstrip("\n").splitlines()
    assert len(lines) == 2 and all(len(line) <= 80 for line in lines), lines
    assert lines[0] == f"queen-and-her-lad (queen-and-her-lad): won {total // 4} lost {total // 4} unknown 0"
    assert lines[1].lstrip().startswith("50% ") and f"{total // 2}/{total}" in lines[1]
    assert " deals/s  left " in lines[1] and "━" in lines[1]


# --- on a terminal: tmux ------------------------------------------------------------------------

#: The tmux socket of this test run.
SOCKET = f"patience-tests-{os.getpid()}"

needs_tmux = pytest.mark.skipif(shutil.which("tmux") is None, reason="needs tmux: apt-get install tmux")


class Pane:
    """A tmux session of its own running one command in a terminal ``width`` columns wide."""

    def __init__(self, name: str, command: list[str], cwd: Path, width: int = 100) -> None:
        self.name = name
        line = " ".join(f"'{word}'" for word in command)
        # The command's environment said in the command itself: a tmux server already running
        # hands new sessions its own (CI=true under .ci/run would hide the very progress looked
        # for, and the engine the test runs on would not reach the command).
        engine = os.environ.get(NO_EXTENSIONS)
        chosen = f"{NO_EXTENSIONS}={engine}" if engine else f"-u {NO_EXTENSIONS}"
        shell = f"cd '{cwd}' && env -u CI {chosen} {line}; echo EXIT=$?; sleep 600"
        self.tmux("kill-session", "-t", name, check=False)
        self.tmux("new-session", "-d", "-s", name, "-x", str(width), "-y", "30", shell)

    @staticmethod
    def tmux(*args: str, check: bool = True) -> str:
        """tmux on a server of this test run's own (its own socket), so that no other session
        matters, another suite's on the same machine included (a shared name let one run's
        sessions be closed under another's)."""
        done = subprocess.run(["tmux", "-L", SOCKET, *args], capture_output=True, text=True, check=check)
        return done.stdout

    def screen(self) -> list[str]:
        """What the terminal shows, from the first line it wrote (its scrolled-off lines too)."""
        return self.tmux("capture-pane", "-p", "-S", "-", "-t", self.name).rstrip("\n").splitlines()

    def wait_for(self, text: str | re.Pattern[str], seconds: float = 60) -> list[str]:
        """The screen once a line of it holds ``text`` (or matches it, a ``re.Pattern``)."""
        end = time.monotonic() + seconds
        while time.monotonic() < end:
            screen = self.screen()
            if any(text.search(line) if isinstance(text, re.Pattern) else text in line for line in screen):
                return screen
            time.sleep(0.2)
        raise AssertionError(f"{text!r} never shown; the screen:\n" + "\n".join(self.screen()))

    def keys(self, *keys: str) -> None:
        self.tmux("send-keys", "-t", self.name, *keys)

    def close(self) -> None:
        self.tmux("kill-session", "-t", self.name, check=False)


@pytest.fixture
def panes():
    opened: list[Pane] = []

    def open_pane(*args, **kwargs) -> Pane:
        pane = Pane(*args, **kwargs)
        opened.append(pane)
        return pane

    yield open_pane
    for pane in opened:
        pane.close()


@needs_tmux
def test_a_long_solve_shows_it_is_alive_then_only_its_answer(panes, tmp_path: Path, engine: str) -> None:
    pane = panes(f"patience-solve-{engine}", [PATIENCE, *LONG], tmp_path)
    screen = pane.wait_for("searching: 0:00:0")
    (line,) = [line for line in screen if line.startswith("searching: ")]
    print("\n".join(screen))
    states = int(line.split(", ")[1].split()[0].replace(",", ""))
    assert states > 0 and line.endswith("states so far (Ctrl-C stops)")  # both engines count as they go
    assert len(line) < 80
    screen = pane.wait_for("EXIT=0")
    print("\n".join(screen))
    assert screen[0] == "accordion (accordion)" and not any("searching" in line for line in screen)


@pytest.mark.one_engine  # whether progress is shown is the command line's choice, whatever searches
@needs_tmux
def test_json_and_pipes_get_no_progress(panes, tmp_path: Path) -> None:
    pane = panes("patience-json", [PATIENCE, *LONG, "--json"], tmp_path)
    end = time.monotonic() + 60
    screen = pane.screen()
    while not any("EXIT=" in line for line in screen):  # watched all through the search
        assert not any("searching" in line for line in screen) and time.monotonic() < end, screen
        time.sleep(0.1)
        screen = pane.screen()
    screen = pane.wait_for("EXIT=0")
    assert not any("searching" in line for line in screen)
    assert screen[0].startswith('{"game": "accordion"')
    shorter = [*LONG[:-1], "1.5"]  # (still past the second after which the line shows)
    piped = subprocess.run([PATIENCE, *shorter], capture_output=True, text=True, check=True)
    assert piped.stderr == "" and piped.stdout.startswith("accordion (accordion)")
    asked = subprocess.run([PATIENCE, *shorter, "--json", "--progress"], capture_output=True, text=True, check=True)
    assert "searching: 0:00:0" in asked.stderr  # asked for: shown wherever stderr goes


@pytest.mark.one_engine  # the bar is drawn from the tally alone: the engine only makes the deals come slower
@needs_tmux
def test_the_survey_bar_on_a_terminal_and_after_a_resume(panes, tmp_path: Path) -> None:
    out = tmp_path / "s.sqlite"
    survey = [PATIENCE, "survey", "parlett", "--seeds", "1-4000", "--max-nodes", "30000", "--out", str(out)]
    pane = panes("patience-survey", survey, tmp_path)
    screen = pane.wait_for(" deals/s  left ")
    bar = [line for line in screen if "deals/s" in line]
    print("\n".join(screen))
    assert screen[0].startswith("accordion (parlett): won ") and "%" in bar[0] and len(bar[0]) <= 80
    # A rate settled, and the time left it gives (of whatever length the machine's load makes it).
    pane.wait_for(re.compile(r"[\d.]+ deals/s  left \d+:\d\d:\d\d"))
    pane.keys("C-c")
    screen = pane.wait_for("EXIT=130")
    print("\n".join(screen))
    # Within 80 columns: the bar and the closing tally (but the file's name, and the one line
    # that says how to resume, which is no part of the bar).
    assert all(len(line) <= 80 for line in screen if str(out) not in line and "interrupted" not in line)
    assert any(line.startswith("solved now: ") for line in screen)
    stored = len(__import__("solver").load_survey(out))
    again = panes("patience-survey-again", survey, tmp_path)
    screen = again.wait_for("/4000")
    print("\n".join(screen))
    first = next(line for line in screen if "/4000" in line)
    shown = int(first.split("/4000")[0].split()[-1])
    assert shown >= stored and " - deals/s" in first  # the stored deals make no rate: none until settled
    again.keys("C-c")
    again.wait_for("EXIT=130")


def test_searching_is_quiet_for_a_quick_answer(capsys: pytest.CaptureFixture[str]) -> None:
    """The first line comes after a second: a quick solve shows nothing at all."""
    import io

    stream = io.StringIO()
    with Searching(stream=stream):
        run_cli("solve", "accordion", "--seed", "7")
    assert stream.getvalue() == ""


@pytest.mark.one_engine  # whether the line shows is the command line's choice (both engines count as they go: the solve above)
def test_a_long_hint_shows_it_is_alive_when_asked(tmp_path: Path) -> None:
    """hint searches each move in turn; asked for (--progress) the line shows on a pipe too, and
    the answer on standard output is what it is without it."""
    args = ["hint", "accordion", "--deal", HARD, "--max-memory", "256K", "--max-seconds", "0.6", "--json"]
    shown = subprocess.run([PATIENCE, *args, "--progress"], capture_output=True, text=True, check=True)
    assert "searching: 0:00:0" in shown.stderr and shown.stderr.endswith("\x1b[K")  # wiped at the end
    quiet = subprocess.run([PATIENCE, *args], capture_output=True, text=True, check=True)
    assert quiet.stderr == ""
    moves = [move["move"] for move in __import__("json").loads(shown.stdout)["moves"]]
    assert moves == [move["move"] for move in __import__("json").loads(quiet.stdout)["moves"]]

"""Random arguments, bytes and files thrown at every command: never a traceback, always an exit code
from the documented set, and every error told in lines of its own (``patience: error: ...``)."""

from __future__ import annotations

import tempfile
from pathlib import Path

from helpers import run_cli
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from rulesets.cards import format_cards
from rulesets.deals import seeded_deal

COMMANDS = ("games", "describe", "deal", "solve", "verify", "survey", "report")
GAMES = (
    "accordion",
    "parlett",
    "baroness",
    "thirteens",
    "royal-marriage",
    "nizhni-novgorod",
    "amazons",
    "amazons-pysol",
    "klondike",
)
FLAGS = (
    "--seed",
    "-s",
    "--deal",
    "--file",
    "--solution",
    "--variant",
    "--option",
    "--max-nodes",
    "--max-seconds",
    "--max-memory",
    "--json",
    "--show",
    "--fewest-redeals",
    "--verdict-code",
    "--seeds",
    "--out",
    "--jobs",
    "--csv",
    "--slowest",
    "--debug",
    "--progress",
    "--no-progress",
    "--frob",
    "-h",
)
#: The files an argument may name, by what they hold (written afresh in each example's folder).
FILES = (
    "deals.txt",
    "one.txt",
    "binary.bin",
    "empty.txt",
    "record.json",
    "moves.txt",
    "missing.txt",
    "survey.sqlite",
    ".",
    "-",
)
#: The documented exit codes a run of these can end with (no interruption, no scheduler, no bug).
EXPECTED = {0, 1, 2, 3, 4, 5}

words = st.text(st.characters(blacklist_characters="\0", blacklist_categories=("Cs",)), max_size=30)
numbers = st.one_of(
    st.integers(-3, 40),
    st.integers(-(10**30), 10**30),
    st.sampled_from(["nan", "inf", "-0", "1e3", "2G", "1K", "0x10", "1.5"]),
).map(str)
files = st.sampled_from(FILES)
#: Each flag with the values it is likely to meet: right ones, wrong ones and noise.
VALUES = {
    "--seed": numbers,
    "--deal": st.one_of(st.just(format_cards(seeded_deal(1))), st.just("-"), words),
    "--file": files,
    "--solution": files,
    "--variant": st.sampled_from(GAMES),
    "--out": files,
    "--csv": files,
    "--option": st.sampled_from(["compulsory=yes", "order=leftmost", "piles=7", "nope=1", "spaces", "gather=x"]),
    "--max-nodes": numbers,
    "--max-seconds": numbers,
    "--max-memory": numbers,
    "--seeds": st.sampled_from(["1-3", "2-1", "5", "x", "0-2"]),
    "--jobs": numbers,
    "--slowest": numbers,
}
RULES = ("--variant", "--option")
LIMITS = ("--max-nodes", "--max-seconds", "--max-memory")
#: Each command's own flags with values, and its switches.
OWN: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "games": ((), ()),
    "describe": ((), ()),
    "deal": (("--seed", *RULES), ()),
    "solve": ((*RULES, *LIMITS), ("--json", "--show", "--fewest-redeals", "--verdict-code")),
    "verify": (RULES, ()),
    "survey": (("--seeds", "--out", "--jobs", *RULES, *LIMITS), ("--no-progress",)),
    "report": (("--csv", "--slowest"), ()),
}
#: Where the deals come from, mostly right (so that the commands get past their first checks).
sources = st.one_of(
    st.integers(1, 60).map(lambda seed: ["--seed", str(seed)]),
    files.map(lambda name: ["--file", name]),
    st.just(["--deal", "-"]),
    st.just([]),
)


def own_words(command: str) -> st.SearchStrategy[list[str]]:
    """Flags of the command with values, and its switches, a few of them in any order."""
    flags, switches = OWN[command]
    choices = (
        [st.sampled_from(flags).flatmap(lambda flag: VALUES[flag].map(lambda value: [flag, value]))] if flags else []
    )
    choices += [st.sampled_from(switches).map(lambda flag: [flag])] if switches else []
    if not choices:
        return st.just([])
    return st.lists(st.one_of(choices), max_size=4).map(lambda groups: [word for group in groups for word in group])


def structured(command: str) -> st.SearchStrategy[list[str]]:
    """A command line that is mostly right: the command, its argument, a source of deals and a
    solution where it takes them, and some of its own flags."""
    subject = (
        st.just([])
        if command == "games"
        else st.sampled_from(FILES if command == "report" else GAMES).map(lambda w: [w])
    )
    source = sources if command in ("solve", "verify") else st.just([])
    solution = files.map(lambda name: ["--solution", name]) if command == "verify" else st.just([])
    parts = st.tuples(subject, source, solution, own_words(command))
    return parts.map(lambda groups: [command, *[word for group in groups for word in group]])


tokens = st.one_of(st.sampled_from(FLAGS), st.sampled_from(GAMES), files, numbers, words)
mostly_right = st.sampled_from(COMMANDS).flatmap(structured)
command_lines = st.one_of(mostly_right, mostly_right, mostly_right, st.lists(tokens, max_size=8))  # 3 to 1


def write_files(folder: Path, noise: bytes) -> None:
    """The files the arguments may name: good deals, random bytes, an empty file, a record, moves."""
    (folder / "deals.txt").write_text(f"{format_cards(seeded_deal(1))}\nAS 2S\n{format_cards(seeded_deal(2))}\n")
    (folder / "one.txt").write_text(format_cards(seeded_deal(1)))
    (folder / "binary.bin").write_bytes(noise)
    (folder / "empty.txt").write_bytes(b"")
    (folder / "record.json").write_text('{"game": "accordion", "result": "won", "solution": ["4D -> 4S (leap)"]}')
    (folder / "moves.txt").write_bytes(b"\xef\xbb\xbf  1. 4D -> 4S (leap)\r\n" + noise[:20])
    (folder / "survey.sqlite").write_bytes(noise)


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    line=command_lines,
    noise=st.binary(max_size=300),
    stdin=st.binary(max_size=300),
)
def test_any_command_line_ends_in_a_documented_way(line, noise, stdin):
    command, args = (line or [""])[0], line[1:]
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        write_files(folder, noise)
        argv = [command, *[str(folder / arg) if arg in FILES[:-1] else arg for arg in args]]
        if command in ("solve", "survey"):
            argv += ["--max-nodes", "300"]  # last, so it wins: keep each search short
        if command == "survey":
            argv += ["--jobs", "1"]
        result = run_cli(*argv, stdin=stdin)  # an exception escaping the application fails the test here
    event(f"{command if command in COMMANDS else '?'} exit {result.exit_code}")
    assert result.exit_code in EXPECTED, (argv, result.exit_code, result.stderr)
    assert "Traceback" not in result.output, argv
    errors = result.stderr.splitlines()
    if result.exit_code in (2, 3):
        if not [word for word in argv if word != "--debug"]:  # no command: the commands are listed first
            assert errors[0].startswith("usage: patience")
            errors = errors[-1:]
        assert errors and all(line.startswith("patience: error: ") for line in errors), (argv, result.stderr)
    if result.exit_code == 1:
        assert len(errors) == 1, (argv, result.stderr)

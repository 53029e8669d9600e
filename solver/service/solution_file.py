"""A solution file read, as ``verify`` takes it: moves one per line, what ``solve`` prints (its
header lines and ``--show`` pictures included), or a ``--json`` record of ``solve`` or ``play``;
its moves, where the file writes each, and the claims it makes, as a record whose every field is
one ``solve`` or ``play`` writes, holding a value of its kind. Whether the moves bear the claims
out is :mod:`solver.service.verification`'s to say.
"""

from __future__ import annotations

import json
import math
import re
import sys
from typing import Any, NamedTuple

from rulesets.family import OptionError
from rulesets.notation import MoveError
from solver.players import PLAYERS, SEARCHING
from solver.result import Verdict
from solver.service.playing import make_player
from solver.service.setup import Setup

Record = dict[str, Any]

_WHOLE, _NUMBER, _TEXT, _FLAG, _NULL, _MOVES, _OBJECT = (
    "a whole number",
    "a number",
    "a string",
    "true or false",
    "null",
    "a list of moves",
    "an object",
)
#: The fields of a --json record (beside the game's score field and its threshold's name), and
#: the kinds of value each may hold.
_FIELDS: dict[str, tuple[str, ...]] = {
    "line": (_WHOLE,),  # the deal file's line (solve --file --json): where it came from, no claim
    "game": (_TEXT,),
    "variant": (_TEXT,),
    "options": (_OBJECT,),
    "seed": (_WHOLE, _NULL),
    "deal": (_TEXT, _NULL),
    "position": (_TEXT,),
    "result": (_TEXT,),
    "score_proven": (_FLAG,),
    "solution": (_MOVES, _NULL),
    "best_line": (_MOVES, _NULL),
    "nodes": (_WHOLE,),
    "seconds": (_NUMBER, _WHOLE),
    "peak_table_bytes": (_WHOLE,),
    "limit": (_TEXT, _NULL),
    "engine": (_TEXT,),  # which engine searched: no claim about the game
    "redeals": (_WHOLE,),
    "fewest_redeals_proven": (_FLAG,),
    "redeals_at_least": (_WHOLE, _NULL),
}
#: The fields of the record of a game ``play --json`` writes (solver.service.playing), told
#: from solve's by its ``player``, and the kinds of value each may hold.
_PLAY_FIELDS: dict[str, tuple[str, ...]] = {
    "game": (_TEXT,),
    "variant": (_TEXT,),
    "options": (_OBJECT,),
    "seed": (_WHOLE, _NULL),
    "deal": (_TEXT, _NULL),
    "position": (_TEXT, _NULL),
    "order_seed": (_WHOLE, _NULL),  # the --rng-seed a position's face-down order was drawn from
    "player": (_TEXT,),
    "settings": (_OBJECT,),  # what fixed the player's choices: the player is replayed with them
    "engine": (_TEXT, _NULL),  # the engine the player's searches ran on (null: it searched nothing)
    "won": (_FLAG,),
    "score": (_WHOLE, _NULL),
    "moves": (_MOVES,),
    "seconds": (_NUMBER, _WHOLE),
}
_LIMITS = ("max_nodes", "max_seconds")
_ENGINES = ("native", "python")


class Solution(NamedTuple):
    """A solution file read: how messages name it, its moves as written, the file's line of each
    move (None for a --json record's list), and its claims as a record (None for bare moves)."""

    name: str
    moves: list[str]
    lines: list[int] | None
    record: Record | None

    def where(self, number: int) -> str:
        """Where the file writes its move ``number`` (counted from 1), for a message."""
        if self.lines is None:
            return f"solution file {self.name}, the record's move {number}"
        return f"solution file {self.name} line {self.lines[number - 1]}"


def read_solution(text: str, setup: Setup, name: str) -> Solution:
    """The moves of a solution, and its claims as a record (None for a bare list of moves): a
    ``--json`` record (one line or pretty-printed), what ``solve`` prints (header lines and
    ``--show`` pictures included), or one move per line (``12.`` numbers and ``#`` comments
    allowed). A file of several deals' records, or of no moves at all, is refused; ``name`` is how
    a message names the file."""
    stripped = text.strip()
    if stripped.startswith(("{", "[")):
        return Solution(name, *_read_record(stripped, setup, name))
    titles = [line for line in text.splitlines() if _TITLE.match(line)]
    if len(titles) > 1:
        raise MoveError(
            f"the solution file holds the lines of {len(titles)} deals; verify takes one: keep one deal's part"
        )
    if titles:
        return Solution(name, *_read_printout(text.splitlines(), setup))
    moves, lines = [], []
    for number, line in enumerate(text.splitlines(), 1):
        line = line.split("#", 1)[0].strip()
        head, dot, rest = line.partition(".")
        if dot and head.strip().isdigit():
            line = rest.strip()
        if line:
            moves.append(line)
            lines.append(number)
    if not moves:
        raise MoveError("the solution file holds no moves: write one move per line, as 'solve' prints them")
    return Solution(name, moves, lines, None)


class _Unwritten(Exception):
    """What no record 'solve --json' writes holds, found while the JSON is decoded (not a
    ValueError: the decoder's own errors are those)."""


def _object(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object, refused if it gives a key twice (Python's decoder keeps the last)."""
    found: dict[str, Any] = {}
    for key, value in pairs:
        if key in found:
            raise _Unwritten(f"it gives {key!r} twice; keep one")
        found[key] = value
    return found


def _constant(name: str) -> Any:
    """NaN, Infinity and -Infinity, which Python's decoder takes and JSON does not have."""
    raise _Unwritten(f"it holds {name}, which is not a JSON number")


def _finite(text: str) -> float:
    """A JSON number with a fraction or an exponent, refused beyond any float (1e999)."""
    value = float(text)
    if not math.isfinite(value):
        raise _Unwritten(f"its number {text} is beyond any float")
    return value


#: What is not blank (``\S``, as ``str.strip`` sees it), where the next record starts.
_NOT_BLANK = re.compile(r"\S")


def _read_record(text: str, setup: Setup, name: str) -> tuple[list[str], None, Record]:
    """A --json record: exactly one JSON object, whose fields hold values of the right kinds."""
    decoder = json.JSONDecoder(object_pairs_hook=_object, parse_constant=_constant, parse_float=_finite)
    values, at = [], 0
    while at < len(text):
        value, at = _decoded(decoder, text, at, name=name)
        values.append(value)
        # Searched from ``at``, not stripped off a copy of the rest: a file of many records is read
        # in linear time (a copy for each made 2 MB of records take 10 seconds to refuse).
        following = _NOT_BLANK.search(text, at)
        at = len(text) if following is None else following.start()
    if len(values) != 1:
        raise MoveError(
            f"the solution file holds {len(values)} JSON records; verify checks one: keep the record of this deal"
        )
    record = values[0]
    if not isinstance(record, dict):
        raise MoveError(
            "malformed solution file: a --json record is a JSON object ({...}),"
            " as 'solve --json' and 'play --json' write"
        )
    _check_kinds(record, setup)
    if is_played(record):
        moves = record.get("moves")
        if not moves:
            raise MoveError("the record's moves are missing or none: verify checks a line of one move or more")
        return moves, None, record
    if record.get("solution") is not None and record.get("best_line") is not None and "result" not in record:
        raise MoveError(
            "malformed solution file: the record holds both a solution and a best_line, and 'solve' writes one"
        )
    field = "solution" if record.get("solution") is not None else "best_line"
    moves = record.get(field)
    if moves is None:
        raise MoveError("malformed solution file: the record has no 'solution' or 'best_line' list of moves")
    if not moves:
        raise MoveError(f"the record's {field} holds no moves: verify checks a line of one move or more")
    return moves, None, record


def _decoded(decoder: json.JSONDecoder, text: str, at: int, *, name: str) -> tuple[Any, int]:
    """The JSON value starting at ``at`` and where it ends, or a MoveError naming the file and
    what no record 'solve --json' writes holds: bad syntax, nesting deeper than Python's stack,
    a number longer than Python converts."""
    try:
        return decoder.raw_decode(text, at)
    except _Unwritten as unwritten:
        why = str(unwritten)
    except json.JSONDecodeError as error:
        why = f"not valid JSON ({error.msg}, line {error.lineno})"
    except RecursionError:
        why = "its values nest too deeply"
    except ValueError:  # Python's limit on the digits of an integer
        why = f"a number in it has more than {sys.get_int_max_str_digits()} digits"
    raise MoveError(
        f"cannot read {name} as a JSON record: {why}; give the record 'solve --json' or 'play --json' printed"
    )


def is_played(record: Record) -> bool:
    """Whether the record is of a game ``play`` played (the only record naming a player)."""
    return "player" in record


def _check_kinds(record: Record, setup: Setup) -> None:
    """Each field is one solve (or, for a played game, play) writes for this game, holding a value
    of its kind."""
    family = setup.family
    played = is_played(record)
    if "moves" in record and "end" in record and not played:  # the two fields only hint's record holds
        raise MoveError(
            "the record is one 'hint --json' prints (moves to choose from, not a line);"
            " give the record 'solve --json' or 'play --json' printed"
        )
    score_field = "score" if played else family.score_field
    fields = dict(_PLAY_FIELDS if played else _FIELDS, **{score_field: (_WHOLE, _NULL)})
    if family.threshold is not None and not played:
        fields[family.threshold[0]] = (_FLAG,)
    writer = "play --json" if played else "solve --json"
    for name, value in record.items():
        if name not in fields:
            raise MoveError(f"the record's field {name!r} is not one '{writer}' writes for {family.name}; remove it")
        kind = _kind(value)
        if kind not in fields[name]:
            raise MoveError(
                f"the record's {name} is {json.dumps(value)} ({kind}); it must be {' or '.join(fields[name])}"
            )
    if "result" in record and record["result"] not in [verdict.value for verdict in Verdict]:
        raise MoveError(f"the record's result is {record['result']!r}; it must be won, lost or unknown")
    if record.get("engine") not in (None, *_ENGINES):
        raise MoveError(f"the record's engine is {record['engine']!r}; it must be {' or '.join(_ENGINES)}")
    if record.get("limit") not in (None, *_LIMITS):
        raise MoveError(f"the record's limit is {record['limit']!r}; it must be {', '.join(_LIMITS)} or null")
    for name, least in {**_LEAST, score_field: 0}.items():
        value = record.get(name)
        if isinstance(value, (int, float)) and not isinstance(value, bool) and value < least:
            raise MoveError(f"the record's {name} is {json.dumps(value)}; it must be {least} or more")
    for name, value in record.get("options", {}).items():
        _check_option(family, name, value)
    if played:
        _check_player(record)


def _check_player(record: Record) -> None:
    """A played game's player: one ``play`` has, with its own settings (whole numbers in range),
    and an engine named where it searches (both engines play the same game: either will do) and
    none where it searches nothing."""
    name, settings = record["player"], record.get("settings")
    if name not in PLAYERS:
        raise MoveError(f"the record's player is {name!r}; it must be one of {', '.join(PLAYERS)}")
    if settings is not None:
        takes = make_player(name).settings()
        if set(settings) != set(takes) or any(_kind(value) != _WHOLE for value in settings.values()):
            kinds = f"{' and '.join(takes)}, each a whole number" if takes else "none"
            raise MoveError(f"the record's settings are {json.dumps(settings)}; the {name} player takes {kinds}")
        try:
            make_player(name, settings.get("samples"), settings.get("rng_seed"))
        except OptionError as error:
            raise MoveError(f"the record's settings: {error}") from None
    if "engine" in record and (record["engine"] is None) == (name in SEARCHING):
        needs = f"{' or '.join(_ENGINES)}, the engine its searches ran on" if name in SEARCHING else "null"
        searches = "searches" if name in SEARCHING else "searches nothing"
        raise MoveError(
            f"the record's engine is {json.dumps(record['engine'])}; the {name} player {searches}: it must be {needs}"
        )


#: The least value of each number of a record ('solve' never writes a count below it).
_LEAST = {"line": 1, "nodes": 0, "seconds": 0, "peak_table_bytes": 0, "redeals": 0, "redeals_at_least": 0}


def _check_option(family: Any, name: str, value: Any) -> None:
    """A record's option: one of the game's, holding one of the values it takes, of its kind (an
    option written ``0`` for ``false`` compared equal to it)."""
    if name not in {option.name for option in family.options}:
        raise MoveError(f"the record's option {name!r} is not one of {family.name}'s options")
    option = family.option(name)
    if not any(type(value) is type(choice) and value == choice for choice in option.choices):
        takes = "true or false" if isinstance(option.default, bool) else ", ".join(map(json.dumps, option.choices))
        raise MoveError(f"the record's option {name} is {json.dumps(value)}; it must be {takes}")


def _kind(value: Any) -> str:
    """What kind of JSON value ``value`` is, in words."""
    if value is None:
        return _NULL
    if isinstance(value, bool):
        return _FLAG
    if isinstance(value, int):
        return _WHOLE
    if isinstance(value, float):
        return _NUMBER
    if isinstance(value, str):
        return _TEXT
    if isinstance(value, list):
        return _MOVES if all(isinstance(move, str) for move in value) else "a list"
    return _OBJECT


# Numbers in the digits 0-9 only (\d takes other scripts' digits too), and no longer than solve
# writes them (int() of thousands of digits fails).
_TITLE = re.compile(r"^(solution|line to the best score) \(([0-9]{1,9}) moves?\):$")  # "(1 move)" since 0.6.2
# ", line N" names a deal's line of a --file (solve prints it since 0.7); it claims nothing to check.
_HEADER = re.compile(
    r"^(?P<game>[a-z-]+) \((?P<variant>[a-z-]+)(; (?P<options>[^()]+))?\)(, seed (?P<seed>[0-9]{1,30}))?"
    r"(, line [0-9]{1,30})?$"
)
_RESULT = re.compile(r"^result: (?P<result>won|lost|unknown)( \(limit (?P<limit>[a-z_]+) reached\))?$")
_REDEALS = re.compile(
    r"^redeals: (?P<redeals>[0-9]{1,9}) \((fewest|fewest not proven, at least (?P<least>[0-9]{1,9}): "
    r"limit (?P<limit>[a-z_]+) reached)\)$"
)
_NUMBERED = re.compile(r"^ *(?P<number>[0-9]{1,9})\. +(?P<move>\S.*?)\s*$")
_STATISTICS = re.compile(r"^nodes: [0-9]{1,20}, table: [0-9]{1,20} states, [0-9]{1,12}\.[0-9]{3} CPU seconds$")
#: How --show indents its pictures (and their position lines) under a move.
_PICTURE = " " * 7


def _read_printout(lines: list[str], setup: Setup) -> tuple[list[str], list[int], Record]:
    """What ``solve`` prints for one deal, read back as its numbered moves, the line of each, and
    its claims."""
    record: Record = {}
    said: set[str] = set()
    at = 0
    while not _TITLE.match(lines[at]):
        _read_header_line(lines[at].strip(), record, setup, said=said)
        at += 1
    title = _TITLE.match(lines[at])
    assert title is not None
    moves: list[str] = []
    found: list[int] = []
    for number, line in enumerate(lines[at + 1 :], at + 2):
        numbered = None if line.startswith(_PICTURE) else _NUMBERED.match(line)
        if numbered and int(numbered["number"]) == len(moves) + 1:
            moves.append(numbered["move"])
            found.append(number)
        elif numbered:
            raise MoveError(
                f"the solution file's line {number} ({line.strip()!r}) is a move out of sequence: "
                f"move {len(moves) + 1} comes next; remove it"
            )
        elif line.strip() and not line.startswith(_PICTURE):  # indented so: --show's pictures
            raise MoveError(
                f"the solution file's line {number} ({line.strip()!r}) is neither a move in sequence nor part of "
                "a --show picture; remove it"
            )
    if len(moves) != int(title[2]):
        raise MoveError(f"the solution file announces {title[2]} moves but numbers {len(moves)} in order")
    if not moves:
        raise MoveError("the solution file holds no moves: verify checks a line of one move or more")
    won = title[1] == "solution"
    record.update(solution=moves if won else None, best_line=None if won else moves)
    return moves, found, record


def _read_header_line(line: str, record: Record, setup: Setup, *, said: set[str]) -> None:
    """One line of the head of ``solve``'s printout, added to the record of its claims (``said``:
    what the lines before said, which no line may say again)."""
    label = setup.family.score_label
    score = re.match(
        rf"^{re.escape(label)} \((?P<how>minimum|best found)\): (?P<score>[0-9]{{1,9}})(?P<rest>.*)$", line
    )
    if not line:
        return
    kind = next((k for k in _HEAD_LINES if line.startswith(k)), None)
    if kind is None and (score or line == f"{label}: no end of the game reached"):
        kind = "score"
    elif kind is None and _HEADER.match(line):
        kind = "game"
    if kind in said:
        raise MoveError(f"the solution file gives its {kind.rstrip(': ')} twice (again in {line!r}); keep one")
    if kind is not None:
        said.add(kind)
    if line.startswith("nodes: "):  # the search's own statistics: no claim about the game
        if not _STATISTICS.match(line):
            raise MoveError(f"the solution file's line {line!r} is not one 'solve' prints; remove it")
        return
    if header := _HEADER.match(line):
        record.update(game=header["game"], variant=header["variant"])
        record["seed"] = None if header["seed"] is None else int(header["seed"])
        if header["game"] == setup.family.name:  # else check_record_is_for names the other game
            record["options"] = _header_options(header["variant"], header["options"], setup)
    elif line.startswith("deal: "):
        record["deal"] = line.removeprefix("deal: ")
    elif line.startswith("position: "):
        record["position"] = line.removeprefix("position: ")
    elif result := _RESULT.match(line):
        record.update(result=result["result"], limit=result["limit"])
    elif score:
        record.update({setup.family.score_field: int(score["score"]), "score_proven": score["how"] == "minimum"})
        _read_threshold_claim(line, score["rest"], record, setup=setup)
    elif line == f"{label}: no end of the game reached":
        record[setup.family.score_field] = None
    elif redeals := _REDEALS.match(line):
        least = redeals["least"]
        record.update(redeals=int(redeals["redeals"]), fewest_redeals_proven=least is None, limit=redeals["limit"])
        record["redeals_at_least"] = record["redeals"] if least is None else int(least)
    else:
        raise MoveError(f"the solution file's line {line!r} is not one 'solve' prints; remove it")


#: How the lines of a printout's head begin (the first names the game, the score's its label).
_HEAD_LINES = ("deal: ", "position: ", "result: ", "redeals: ", "nodes: ")


def _read_threshold_claim(line: str, claim: str, record: Record, *, setup: Setup) -> None:
    """What the score line claims after the score: for a game with a named threshold (Accordion's
    Sheinwold win), ``; sheinwold win (5 or fewer): yes`` or ``no``, held to the moves as a --json
    record's field is; nothing else."""
    if not claim:
        return
    threshold = setup.family.threshold
    if threshold is None:
        raise MoveError(f"the solution file's line {line!r} is not one 'solve' prints; remove what follows the score")
    name, most = threshold
    form = f"; {name} win ({most} or fewer): "
    if not claim.startswith(form) or claim.removeprefix(form) not in ("yes", "no"):
        raise MoveError(f"the solution file's line {line!r} is not one 'solve' prints: end it with '{form}yes' or no")
    record[name] = claim.removeprefix(form) == "yes"


def _header_options(variant: str, options: str | None, setup: Setup) -> dict[str, Any]:
    """The option values the printout's header names: its variant's, then the options it names
    as ``--option`` takes them (``parlett; compulsory=no``), so that a printout is held to the
    rules it was solved under as a --json record's ``options`` are."""
    try:
        return setup.family.settings(variant, [] if options is None else options.split(", "))
    except OptionError as error:
        raise MoveError(f"the solution file's header names rules {setup.family.name} does not have: {error}") from None

"""Reading and writing what players type: moves and positions, in every game's shared style.

Moves: each game writes its own moves (``4D -> 4S (leap)``, ``discard 6C+7D``, ``AS to F1``);
dealing is ``deal`` everywhere, ``deal 7H`` where one known card is dealt. Positions: one line
of sections ``name: content`` separated by ``|``; cards are written as in deals (``7H``), piles
are separated by ``/`` and an empty pile or section is ``-``. For example
``row: AS 7H 7D | stock: 8C 9D``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from rulesets.cards import NAME, CardError, parse_card
from solver.errors import MoveError, PositionError, UnreadableMove

__all__ = ["MoveError", "PositionError", "UnreadableMove"]  # defined in solver.errors, raised here


# ----------------------------------------------------------------------------- moves


def cannot_read(text: str, examples: str) -> UnreadableMove:
    """The error for a move in no form the game knows; ``examples`` shows the forms it does."""
    return UnreadableMove(f"cannot read move {quoted_move(text)}: write e.g. {examples}")


def quoted_move(text: str) -> str:
    """A move as an error quotes it: cut after 60 characters (a line of 20,000 words pasted as
    one move made one error line of 60 KB)."""
    text = text.strip()
    return repr(text) if len(text) <= _QUOTED else f"{text[:_QUOTED]!r}... ({len(text)} characters)"


#: The characters of a move an error quotes.
_QUOTED = 60


def read_card(word: str, move_text: str) -> int:
    """The code of the card ``word`` written in the move ``move_text``."""
    try:
        return parse_card(word).code
    except CardError as error:
        raise UnreadableMove(f"move {quoted_move(move_text)}: {error}") from None


def is_deal(text: str) -> bool:
    """Whether ``text`` is a deal: ``deal``, or ``deal`` and a card."""
    words = text.split()
    return bool(words) and words[0].lower() == "deal"


def check_deal(text: str, next_card: int | None) -> None:
    """Check a deal written as ``text`` against the stock's next card (None: the stock is empty,
    or several cards are dealt at once and the move names none)."""
    words = text.split()
    if len(words) > 2:
        raise cannot_read(text, "'deal' or 'deal 7H'")
    if len(words) == 2 and read_card(words[1], text) != next_card:
        shown = "empty" if next_card is None else f"topped by {NAME[next_card]}"
        raise MoveError(
            f"move {quoted_move(text)}: the next card of the stock is not {words[1]} (the stock is {shown})"
        )


def describe_deal(next_card: int | None = None) -> str:
    """A deal as written: ``deal 7H`` when one known card is dealt, else ``deal``."""
    return "deal" if next_card is None else f"deal {NAME[next_card]}"


# ----------------------------------------------------------------------------- positions

EMPTY = "-"


def read_sections(text: str, game: str, required: Sequence[str], optional: Sequence[str] = ()) -> dict[str, str]:
    """The sections of a position line, by name; every ``required`` one must be there."""
    known = (*required, *optional)
    found: dict[str, str] = {}
    for part in text.strip().split("|"):
        name, colon, content = part.partition(":")
        name = name.strip().lower()
        if not colon or not name:
            raise PositionError(
                f"cannot read {game} position section {part.strip()!r}: write sections as "
                f"'name: cards' separated by '|' ({', '.join(known)})"
            )
        if name not in known:
            raise PositionError(f"unknown section {name!r} in the {game} position; sections: {', '.join(known)}")
        if name in found:
            raise PositionError(f"section {name!r} appears twice in the {game} position")
        found[name] = content.strip()
    missing = [name for name in required if name not in found]
    for name in missing:  # written, but inside another section: its '|' forgotten
        inside = [other for other, content in found.items() if re.search(rf"(^|\s){name}\s*:", content, re.I)]
        if inside:
            raise PositionError(
                f"the {game} position's {inside[0]!r} section holds '{name}:': put a '|' before it "
                f"('{inside[0]}: ... | {name}: ...')"
            )
    if missing:
        names = " and ".join(repr(name) for name in missing)
        raise PositionError(
            f"the {game} position needs a {names} section too: sections are {', '.join(known)}, separated by '|'"
        )
    return found


def read_card_list(content: str, section: str) -> list[int]:
    """The card codes of one section (``-`` or nothing: no cards)."""
    words = content.split()
    if words == [EMPTY]:
        return []
    codes = []
    for word in words:
        try:
            codes.append(parse_card(word).code)
        except CardError as error:
            raise PositionError(f"section {section!r}: {error}") from None
    return codes


def read_piles(content: str, section: str) -> list[list[int]]:
    """Piles separated by ``/``, each bottom card first (``-``: an empty pile)."""
    return [read_card_list(part, section) for part in content.split("/")]


def write_card_list(codes: Iterable[int]) -> str:
    """Cards of one section, space-separated (``-`` for none)."""
    return " ".join(NAME[code] for code in codes) or EMPTY


def write_piles(piles: Iterable[Iterable[int]]) -> str:
    """Piles separated by `` / ``, each bottom card first."""
    return " / ".join(write_card_list(pile) for pile in piles)


def write_sections(sections: Iterable[tuple[str, str]]) -> str:
    """A position line from its (name, content) sections."""
    return " | ".join(f"{name}: {content}" for name, content in sections)


def check_distinct(codes: Iterable[int], game: str) -> None:
    """Refuse a position holding a card more than once."""
    seen: set[int] = set()
    twice = []
    for code in codes:
        if code in seen:
            twice.append(NAME[code])
        seen.add(code)
    if twice:
        raise PositionError(f"the {game} position holds {' '.join(sorted(set(twice)))} more than once")

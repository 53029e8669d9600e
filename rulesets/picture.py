"""A layout as players see it: rows of places (piles, foundations, the stock), each with its cards.

Every ruleset draws its states as a :class:`Picture`; the text the command line prints
(``--show``) and the replay page are both drawn from it, so each game describes its table once.
"""

from __future__ import annotations

import re
from collections.abc import Collection
from typing import NamedTuple

from rulesets.cards import NAME


class Place(NamedTuple):
    """One place on the table: its label as players name it (``3``, ``pile 2``, ``F1``,
    ``stock``), its face-up cards bottom first (the last is the top), and how many face-down
    cards it holds (an undealt stock shows only its size). A stock whose cards a player partly
    knows (:func:`rulesets.concealed.concealed_picture`) lists them as they will be dealt: the
    known next cards in ``cards``, next first, then the face-down ones counted, then ``last``,
    the cards the rules fix at its end."""

    label: str
    cards: tuple[int, ...] = ()
    face_down: int = 0
    last: tuple[int, ...] = ()


class Picture(NamedTuple):
    """The table: rows of places, top row first, each row left to right. ``fanned`` rows show
    every card of each place (Baroness's piles, Amazons' depots); others show only the top."""

    rows: tuple[tuple[Place, ...], ...]
    fanned: tuple[bool, ...] = ()

    def text(self, marked: Collection[str] = (), width: int | None = None) -> str:
        """The picture as lines of text; the places whose labels are in ``marked`` (the ones the
        last move changed) are flagged with ``*``. Within ``width`` columns where given: a row of
        top cards too wide is split into even lines (13 piles: 7 and 6), and a fanned place's
        cards wrap under its first card."""
        lines = []
        # Rows of several top cards line up in columns: their labels padded to the widest.
        column = max((len(place.label) for row in self.rows if len(row) > 1 for place in row), default=0)
        for index, row in enumerate(self.rows):
            fanned = index < len(self.fanned) and self.fanned[index]
            if fanned:
                widest = max(len(place.label) for place in row)
                for place in row:
                    lines += _wrapped(_place_text(place, marked, fanned=True, width=widest), widest + 3, width)
            else:
                pad = column if len(row) > 1 else 0
                texts = [_place_text(place, marked, fanned=False, width=pad) for place in row]
                lines += [" ".join(part) for part in _even_lines(texts, width)]
        return "\n".join(lines)


def _even_lines(texts: list[str], width: int | None) -> list[list[str]]:
    """``texts`` joined by spaces in as few lines of at most ``width`` columns as will do, the
    lines as even as can be (all in one line where no width is given or it fits)."""
    if width is None or not texts:
        return [texts]
    lines = 1
    while lines < len(texts):
        size = -(-len(texts) // lines)
        if all(len(" ".join(texts[at : at + size])) <= width for at in range(0, len(texts), size)):
            break
        lines += 1
    size = -(-len(texts) // lines)
    return [texts[at : at + size] for at in range(0, len(texts), size)]


def _wrapped(text: str, indent: int, width: int | None) -> list[str]:
    """A fanned place's line, wrapped at its cards to ``width`` columns, the lines after the
    first indented by ``indent`` (under its first card)."""
    if width is None or len(text) <= width:
        return [text]
    first, *words = _UNBROKEN.split(text)  # '' before an unmarked place's blank, kept
    lines, line = [], first
    for word in words:
        if line.strip() and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = " " * indent + word
        else:
            line = f"{line} {word}"
    return [*lines, line]


#: The spaces a fanned place's line may be broken at: not those of a face-down count ("[45 face down]").
_UNBROKEN = re.compile(r" (?![^\[]*\])")


def _place_text(place: Place, marked: Collection[str], fanned: bool, width: int = 0) -> str:
    flag = "*" if place.label in marked else " "
    shown = place.cards if fanned else place.cards[-1:]
    down = [f"[{place.face_down} face down]"] if place.face_down else []
    cards = " ".join([*(NAME[code] for code in shown), *down, *(NAME[code] for code in place.last)])
    return f"{flag}{place.label:>{width}}: {cards or '-'}"


def changed_places(before: Picture, after: Picture) -> frozenset[str]:
    """The labels of the places in ``after`` that differ from the place of the same label in
    ``before`` (or that ``before`` lacks): what a move between the two pictures touched."""
    old = {place.label: place for row in before.rows for place in row}
    return frozenset(place.label for row in after.rows for place in row if old.get(place.label) != place)

"""Positions whose stock lies face down, as a player types them: braces hold the unseen cards.

``stock: {2S 3S TS 9H}`` lists face-down cards in an order nobody knows; ``stock: 2S 3S {TS 9H}``
says the next two are known; ``stock: {30}`` counts them instead, namely the game's cards that
are neither on the table, nor in the known stock, nor in the ``out:`` section (the cards that
have left the table). The text is checked here, turned into a plain position (the face-down cards
in order of their codes) for the game's own checks, and read as a
:class:`~solver.chance.Concealed`. Written back, the face-down cards are listed in braces.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Sequence
from typing import Any

from rulesets.cards import NAME, CardError, parse_card
from rulesets.family import Family, Ruleset
from rulesets.notation import read_card_list, write_card_list
from rulesets.picture import Picture, Place
from solver.chance import Concealed, conceal
from solver.errors import PositionError

STOCK, OUT = "stock", "out"
_COUNT = re.compile(r"^-?[0-9]+$", re.ASCII)


def is_face_down(text: str) -> bool:
    """Whether a position's text marks face-down cards (braces) or lists cards gone out."""
    return "{" in text or "}" in text or any(name == OUT for name, _, _ in _sections(text))


def is_concealable(game: Any) -> bool:
    """Whether ``game``'s states keep a stock that may lie face down."""
    return hasattr(game, "with_stock")


def _sections(text: str) -> list[tuple[str, str, str]]:
    """The sections of a position line: (name in lower case, content, the part as written, for
    the game's own reader to name what it cannot read)."""
    found = []
    for part in text.strip().split("|"):
        name, _, content = part.partition(":")
        found.append((name.strip().lower(), content.strip(), part.strip()))
    return found


def _cards(content: str, section: str | None = None) -> list[int]:
    """Every card written in a section (piles apart, ``-`` passed over); a word that is no card
    is refused naming ``section``, or passed over (None: the game's opening, read back)."""
    codes = []
    for word in re.split(r"[\s/]+", content):
        if word in ("", "-"):
            continue
        try:
            codes.append(parse_card(word).code)
        except CardError as error:
            if section is not None:
                raise PositionError(f"section {section!r}: {error}") from None
    return codes


def _names(codes: Iterable[int]) -> str:
    return " ".join(NAME[code] for code in sorted(set(codes)))


def _twice(codes: Sequence[int]) -> set[int]:
    """The codes written more than once (counted in one pass: a count of each code in turn made
    a 128 KB position of 43,000 cards take 24 seconds to refuse)."""
    return {code for code, count in Counter(codes).items() if count > 1}


def _read_stock(content: str, end: int) -> tuple[list[int], list[int] | int, list[int]]:
    """The known next cards, in braces the face-down cards or their count, and the ``end``
    cards the rules fix at the stock's end (known to the player, written after the braces)."""
    opened, closed = content.count("{"), content.count("}")
    if opened == 0:
        raise PositionError("section 'stock': a '}' without its '{': write e.g. 'stock: 2S {TS 9H}'")
    if opened > 1 or closed > 1:
        raise PositionError(
            "section 'stock': one pair of braces holds every face-down card: write e.g. 'stock: {TS 9H}'"
        )
    if closed == 0:
        raise PositionError("section 'stock': the brace '{' is not closed: write e.g. 'stock: 2S {TS 9H}'")
    before, _, rest = content.partition("{")
    inside, _, after = rest.partition("}")
    if "-" in (before + " " + after).split():
        raise PositionError(
            "section 'stock': '-' stands for an empty stock; beside braces write the known cards only "
            "(before them), e.g. 'stock: 2S {TS 9H}' or 'stock: {TS 9H}'"
        )
    tail = read_card_list(after, STOCK) if after.strip() else []
    if len(tail) != end and (tail or end):
        if end:
            raise PositionError(
                f"section 'stock': the rules fix the stock's last card, which the player knows: write that "
                f"one card after the braces, e.g. 'stock: {{TS 9H}} 6H' ({len(tail)} written there)"
            )
        raise PositionError(
            f"section 'stock': {after.strip()!r} follows the braces, but the face-down cards are the "
            "last to be dealt: write the known next cards before the braces"
        )
    known = read_card_list(before, STOCK) if before.strip() else []
    words = inside.split()
    if not words:
        raise PositionError(
            "section 'stock': the braces are empty: list the face-down cards in them, or give their count ({30})"
        )
    if len(words) == 1 and _COUNT.match(words[0]):
        if len(words[0]) > 6:  # no game has that many cards (and int() of 5,000 digits fails)
            raise PositionError(
                f"section 'stock': {{{words[0][:12]}...}} is no number of face-down cards: count the cards "
                "face down, or leave the braces out"
            )
        return known, int(words[0]), tail
    if "-" in words:
        raise PositionError("section 'stock': '-' inside braces: list the face-down cards, or leave the braces out")
    return known, read_card_list(inside, STOCK), tail


def read_concealed(family: Family, game: Ruleset[Any, Any], title: str, text: str) -> Concealed:
    """The position written as ``text``, its face-down cards in braces (a position without
    braces has none face down); PositionError naming what is wrong otherwise."""
    sections = _sections(text)
    stock = [content for name, content, _ in sections if name == STOCK]
    out = [content for name, content, _ in sections if name == OUT]
    braces = any("{" in content or "}" in content for content in stock)
    if not braces:
        if out:
            raise PositionError(
                "the 'out' section says which cards left the table, for a face-down stock written "
                "by its count ('stock: {30}'); leave it out here"
            )
        return Concealed(game.read_position(text), 0)
    if not is_concealable(game):
        raise PositionError(
            f"braces mark a face-down stock, and {title} keeps no stock: every card is face up before "
            "a move is chosen; write the position without braces"
        )
    if len(stock) > 1 or len(out) > 1:
        twice = STOCK if len(stock) > 1 else OUT
        raise PositionError(f"section {twice!r} appears twice in the {family.name} position")
    end = getattr(game, "fixed_stock_end", 0)
    known, written, tail = _read_stock(stock[0], end)
    gone = read_card_list(out[0], OUT) if out else []
    table = [code for name, content, _ in sections if name not in (STOCK, OUT) for code in _cards(content, name)]
    listed = [] if isinstance(written, int) else written
    known_cards = known + tail
    for codes, where in ((known_cards + listed, "the stock"), (gone, "'out'")):
        if _twice(codes):
            raise PositionError(f"{_names(_twice(codes))} written twice in {where}: write each card once")
    for codes, where in (
        (listed, "face down in the stock"),
        (known_cards, "in the stock's known cards"),
        (gone, "out"),
    ):
        both = set(codes) & set(table)
        if both:
            raise PositionError(f"{_names(both)} both on the table and {where}: write each card in one place")
    both = set(gone) & set(known_cards + listed)
    if both:
        raise PositionError(f"{_names(both)} both out and in the stock: write each card in one place")
    cards = _game_cards(family, game)
    strangers = set(gone) - cards
    if strangers:
        raise PositionError(f"'out' lists {_names(strangers)}, which {title} does not play with: leave them out")
    if isinstance(written, int):
        listed = _face_down(cards, written, set(table) | set(known_cards) | set(gone))
    plain = [
        f"{STOCK}: {write_card_list(known + sorted(listed) + tail)}" if name == STOCK else part
        for name, _, part in sections
    ]
    state = game.read_position(" | ".join(part for (name, _, _), part in zip(sections, plain) if name != OUT))
    return conceal(game, state, len(listed))  # type: ignore[arg-type]  # a game with with_stock


def _face_down(cards: set[int], count: int, seen: set[int]) -> list[int]:
    """The game's ``cards`` not in ``seen``, which must number ``count`` (from 1 to how many
    cards the game plays with)."""
    if not 1 <= count <= len(cards):
        raise PositionError(
            f"section 'stock': {{{count}}} is no number of face-down cards "
            f"here: give from 1 to {len(cards)}, or no braces"
        )
    left = sorted(cards - seen)
    if len(left) > count:
        extra = len(left) - count
        raise PositionError(
            f"the stock's {{{count}}} leaves {extra} card(s) unaccounted for: the table, the known stock "
            f"and 'out' leave {len(left)} of the game's cards unseen; list the {extra} that have left "
            "the table in an 'out:' section (e.g. '| out: 7H 8C')"
        )
    if len(left) < count:
        raise PositionError(
            f"the stock's {{{count}}} counts {count - len(left)} card(s) too many: the table, the known "
            f"stock and 'out' leave only {len(left)} of the game's cards unseen; correct the count or "
            "the cards listed"
        )
    return left


def _game_cards(family: Family, game: Ruleset[Any, Any]) -> set[int]:
    """The cards a game of these rules plays with (read from the opening of a deal, so that a
    rule that lays cards aside before the deal, as Baroness's kings_first, is counted)."""
    opening = game.write_position(game.start(family.seeded_deal(1)))
    return {code for _, content, _ in _sections(opening) for code in _cards(content)}


def _stock_parts(game: Ruleset[Any, Any], position: Concealed) -> tuple[list[int], list[int], list[int]]:
    """The stock as the player knows it, as it will be dealt: the known next cards, the face-down
    ones (sorted by code), and the cards the rules fix at its end (known)."""
    stock = list(game.stock(position.state))  # type: ignore[attr-defined]
    cut = len(stock) - position.hidden
    return stock[:cut], stock[cut:], list(position.state.stock[len(stock) :])


def write_concealed(game: Ruleset[Any, Any], position: Concealed) -> str:
    """The position as one line, its face-down cards listed in braces (sorted)."""
    text = game.write_position(position.state)
    if position.hidden == 0:
        return text
    known, hidden, tail = _stock_parts(game, position)
    written = (write_card_list(known) + " " if known else "") + "{" + write_card_list(hidden) + "}"
    written += " " + write_card_list(tail) if tail else ""
    return " | ".join(f"{STOCK}: {written}" if name == STOCK else part for name, _, part in _sections(text))


def face_down_at_start(game: Ruleset[Any, Any], state: Any) -> int:
    """How many cards lie face down where a game is taken up from ``state`` with nothing seen of
    its stock: all of it (none in a game without a stock)."""
    return len(game.stock(state)) if is_concealable(game) else 0  # type: ignore[attr-defined]


def write_seen(family: Family, game: Ruleset[Any, Any], state: Any, hidden: int | None = None) -> str:
    """The position as a player at the table writes it: the stock's cards not yet dealt face
    down and counted (``stock: {38}``; ``hidden`` of them where fewer are face down, the known
    next cards written before the braces), and ``out:`` listing the game's cards that have left
    the table (discarded, or covered under Accordion's piles). ``solve --position`` and ``hint
    --position`` read it back as the same position. A game without a stock is written as it is."""
    if not is_concealable(game):
        return str(game.write_position(state))
    stock = game.stock(state)  # type: ignore[attr-defined]
    position = conceal(game, state, len(stock) if hidden is None else hidden)  # type: ignore[arg-type]
    if position.hidden == 0:
        return str(game.write_position(position.state))
    known, down, tail = _stock_parts(game, position)
    written = (write_card_list(known) + " " if known else "") + "{" + str(len(down)) + "}"
    written += " " + write_card_list(tail) if tail else ""
    sections = _sections(game.write_position(position.state))
    table = {code for name, content, _ in sections if name != STOCK for code in _cards(content, name)}
    gone = sorted(_game_cards(family, game) - table - set(known + down + tail))
    parts = [f"{STOCK}: {written}" if name == STOCK else part for name, _, part in sections]
    return " | ".join(parts + ([f"{OUT}: {write_card_list(gone)}"] if gone else []))


def concealed_picture(game: Ruleset[Any, Any], position: Concealed) -> Picture:
    """The table as a player sees it (``--show``): the stock drawn as it will be dealt, its known
    next cards in order, then its face-down cards counted, then the cards the rules fix at its
    end (``stock: 7C 8C [45 face down] JC``); the game's own picture counts every stock card face
    down. Its row is fanned, so that every card of the stock is drawn, not the last alone."""
    picture = game.picture(position.state)
    if not is_concealable(game):
        return picture
    known, hidden, tail = _stock_parts(game, position)
    stock = Place(STOCK, tuple(known), len(hidden), tuple(tail))
    rows = tuple(tuple(stock if place.label == STOCK else place for place in row) for row in picture.rows)
    fanned = tuple(
        (index < len(picture.fanned) and picture.fanned[index]) or any(place.label == STOCK for place in row)
        for index, row in enumerate(picture.rows)
    )
    return Picture(rows, fanned)


def presets_with_stock() -> list[str]:
    """Every preset (variant) whose stock may lie face down, in the registry's order."""
    from rulesets import families

    return [
        variant.name
        for family in families().values()
        for variant in family.variants
        if is_concealable(family.build(family.settings(variant.name)))
    ]

"""Names as users type them: a game, variant or option name made the declared one, and "did you
mean" for a near miss. Shared by the registry (``rulesets/__init__.py``), the families and the
command line."""

from __future__ import annotations


def normal_name(name: str) -> str:
    """A game, variant or option name as declared: lower case, ``-`` between words (``Royal_Marriage``
    is ``royal-marriage``), as PySolFC's and fc-solve's users type them either way."""
    return name.strip().lower().replace("_", "-")


def did_you_mean(word: str, known: list[str]) -> str:
    """``" (did you mean 'x'?)"`` for the known name closest to a near miss, or nothing."""
    import difflib  # only for a name not found: it takes about 1 ms to import

    close = difflib.get_close_matches(word, list(dict.fromkeys(known)), n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""

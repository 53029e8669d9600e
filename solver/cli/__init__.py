"""The ``patience`` command: list, describe, deal, solve and verify games, and run surveys.

A thin layer over :mod:`solver.service`: each command reads its options, calls the service and
prints what it returns. The console script is :mod:`solver.cli.entry`; this package imports
nothing at first, so that it starts quickly: ``app`` and ``friendly`` (from
:mod:`solver.cli.application`) are loaded when first asked for.
"""

_LAZY = ("app", "friendly")


def __getattr__(name: str) -> object:  # no typing import: this package must load in no time
    if name in _LAZY:
        from solver.cli import application

        return getattr(application, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = ["app", "friendly"]

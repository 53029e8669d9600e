"""The engine in use, in words (``patience --version``): the compiled core, the Python engine, or,
where an installation put together by hand lacks part of the core, which modules are missing and
which games the Python engine searches for want of them (each game falls back on its own:
solver.engine.kernel_of)."""

from __future__ import annotations

import importlib
import os

from solver.engine import NATIVE, NO_EXTENSIONS, PYTHON

#: The compiled modules, as setup.py builds them: the engine's, then the rulesets' kernels.
COMPILED = (
    "solver._protocol",
    "solver._table",
    "solver._search",
    "solver._chance",
    "solver._graph",
    "rulesets._accordion",
    "rulesets._royal_marriage",
    "rulesets._amazons",
    "rulesets._baroness",
    "rulesets._thirteens",
)


def status() -> str:
    """``native``, ``python`` or ``mixed``, and why in brackets: where the compiled core is only
    partly installed, what is missing and the presets searched on the Python engine for want of
    it."""
    if os.environ.get(NO_EXTENSIONS):
        return f"{PYTHON} ({NO_EXTENSIONS} is set)"
    missing = [name for name in COMPILED if not _imports(name)]
    if not missing:
        return f"{NATIVE} (the compiled core)"
    if len(missing) == len(COMPILED):
        return f"{PYTHON} (the compiled core was not built: see the README's installation notes)"
    partly = f"the compiled core is partly installed: {', '.join(missing)} missing"
    from rulesets import families
    from solver.service.setup import Setup

    presets = [variant.name for family in families().values() for variant in family.variants]
    on_python = [preset for preset in presets if Setup.of(preset).engine.name == PYTHON]
    if len(on_python) == len(presets):
        return f"{PYTHON} ({partly}; every game searches on the Python engine)"
    face_down = "; a face-down stock is judged on the Python engine" if "solver._chance" in missing else ""
    if not on_python and face_down:
        return f"mixed ({partly}{face_down})"
    if not on_python:
        return f"{NATIVE} ({partly}; no game needs {'it' if len(missing) == 1 else 'them'})"
    return f"mixed ({partly}; {', '.join(on_python)} search on the Python engine{face_down})"


def _imports(module: str) -> bool:
    try:
        importlib.import_module(module)
    except ImportError:
        return False
    return True

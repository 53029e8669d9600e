"""The house rules of the code (docs/code-map.md), read from the sources with ``ast``: which layer
may import which (every import counts, in a function or under TYPE_CHECKING as at the top), and
no room too long (a module of at most 600 lines, a function of at most 60)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOLVER = ROOT / "solver"

#: The most lines of a module, and of a function (its def line through the last of its body,
#: docstring included), in solver/, rulesets/ and benchmarks/ (the compiled twins, .pyx, aside).
MOST_MODULE_LINES, MOST_FUNCTION_LINES = 600, 60
#: The Python engine's two hot loops (solver/search.py), each kept whole and commented: a call per
#: state costs more than its readability buys.
LONG_BY_DESIGN = {"_dive", "_bounded_pass"}

#: The modules of solver/ itself that join the engine to the games (the Python API, its face-down
#: answers and its game played move by move, and the package's lazy face); every other module
#: there is the engine.
JOINING = {"__init__.py", "api.py", "api_face_down.py", "board.py"}


def imported(path: Path, root: Path = ROOT) -> set[str]:
    """Every module ``path`` (a file under ``root``) imports, by its full name (``from solver
    import cli`` names ``solver`` and ``solver.cli``), wherever the import stands."""
    package = ".".join(path.relative_to(root).with_suffix("").parts[:-1])
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = package.split(".")[: len(package.split(".")) - node.level + 1] if node.level else []
            module = ".".join([*base, *([node.module] if node.module else [])])
            names.add(module)
            names.update(f"{module}.{alias.name}" for alias in node.names)
    return names


def breaches(paths: list[Path], forbidden: tuple[str, ...]) -> list[str]:
    """Each ``path`` that imports one of the ``forbidden`` packages or modules, with what it imports."""
    found = []
    for path in paths:
        bad = sorted(name for name in imported(path) if any(name == f or name.startswith(f + ".") for f in forbidden))
        if bad:
            found.append(f"{path.relative_to(ROOT)} imports {', '.join(bad)}")
    return found


def test_the_engine_imports_neither_the_games_nor_the_layers_above_it() -> None:
    engine = [path for path in sorted(SOLVER.glob("*.py")) if path.name not in JOINING]
    assert len(engine) >= 10
    above = ("rulesets", "solver.service", "solver.surveys", "solver.cli", "solver.api", "solver.board")
    assert breaches(engine, above) == []
    compiled = sorted([*SOLVER.glob("*.pyx"), *SOLVER.glob("*.pxd")])
    cimports = re.compile(r"^\s*(from\s+rulesets\b|c?import\s+rulesets\b)", re.MULTILINE)
    assert [path.name for path in compiled if cimports.search(path.read_text(encoding="utf-8"))] == []


def test_the_service_imports_neither_the_surveys_nor_the_command_line() -> None:
    service = sorted((SOLVER / "service").rglob("*.py"))
    assert breaches(service, ("solver.surveys", "solver.cli", "solver.api", "solver.board")) == []


def test_the_surveys_never_import_the_command_line() -> None:
    surveys = sorted((SOLVER / "surveys").rglob("*.py"))
    assert len(surveys) > 10
    assert breaches(surveys, ("solver.cli", "solver.api", "solver.board")) == []


def test_the_command_line_and_the_api_call_the_surveys_through_their_face() -> None:
    """solver.cli and solver.api import the survey package's face (solver/surveys/__init__.py),
    never one of its modules."""
    callers = [*sorted((SOLVER / "cli").rglob("*.py")), *(SOLVER / name for name in sorted(JOINING))]
    inside = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in callers
        for name in sorted(imported(path))
        if name.startswith("solver.surveys.") and name.removeprefix("solver.surveys.") not in _face()
    ]
    assert inside == []


def _face() -> set[str]:
    """The names solver/surveys/__init__.py gives (its ``__all__``)."""
    tree = ast.parse((SOLVER / "surveys" / "__init__.py").read_text(encoding="utf-8"))
    for node in tree.body:
        if isinstance(node, ast.Assign) and getattr(node.targets[0], "id", None) == "__all__":
            return set(ast.literal_eval(node.value))
    raise AssertionError("solver/surveys/__init__.py has no __all__")


def test_every_import_is_seen_wherever_it_stands(tmp_path: Path) -> None:
    """The reading of imports the rules rest on: inside functions, under TYPE_CHECKING, relative."""
    probe = tmp_path / "solver" / "service" / "probe.py"
    probe.parent.mkdir(parents=True)
    probe.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from solver.surveys.store import Store\n"
        "def later():\n    import rulesets.cards\n    from . import setup\n    from ..cli import errors\n",
        encoding="utf-8",
    )
    names = imported(probe, tmp_path)
    assert {"solver.surveys.store", "rulesets.cards", "solver.service.setup", "solver.cli.errors"} <= names


def _sources() -> list[Path]:
    """The Python modules the size rules hold (the tests are not among them)."""
    return sorted(path for part in ("solver", "rulesets", "benchmarks") for path in (ROOT / part).rglob("*.py"))


def long_rooms(path: Path, root: Path = ROOT) -> list[str]:
    """The module ``path`` (a file under ``root``) if it is over :data:`MOST_MODULE_LINES` lines,
    and each function in it (methods and nested functions too) over :data:`MOST_FUNCTION_LINES`,
    but the search's hot loops."""
    text = path.read_text(encoding="utf-8")
    name = path.relative_to(root)
    found = []
    if len(text.splitlines()) > MOST_MODULE_LINES:
        found.append(f"{name}: {len(text.splitlines())} lines")
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name not in LONG_BY_DESIGN:
            assert node.end_lineno is not None
            size = node.end_lineno - node.lineno + 1
            if size > MOST_FUNCTION_LINES:
                found.append(f"{name}:{node.lineno} {node.name}: {size} lines")
    return found


def test_no_module_and_no_function_is_too_long() -> None:
    sources = _sources()
    assert len(sources) > 80
    assert [room for path in sources for room in long_rooms(path)] == []


def test_only_the_two_hot_loops_are_long_by_design() -> None:
    """The exception names functions that exist, and are long (else it should be dropped)."""
    search = ast.parse((SOLVER / "search.py").read_text(encoding="utf-8"))
    sizes = {
        node.name: node.end_lineno - node.lineno + 1
        for node in ast.walk(search)
        if isinstance(node, ast.FunctionDef) and node.name in LONG_BY_DESIGN and node.end_lineno is not None
    }
    assert set(sizes) == LONG_BY_DESIGN
    assert all(size > MOST_FUNCTION_LINES for size in sizes.values())


def test_a_long_room_is_named(tmp_path: Path) -> None:
    """The size rule's reading: a long module, a long method, a long nested function and the one
    around it are each named with their first line and size; a function of exactly the most
    lines is not."""
    most = MOST_FUNCTION_LINES

    def lines(indent: int, count: int) -> list[str]:
        return [" " * indent + f"x{n} = {n}" for n in range(count)]

    text = [
        "def fits():",  # line 1, and most - 1 lines of body
        *lines(4, most - 1),
        "class C:",  # line most + 1
        "    def method(self):",  # line most + 2, and most lines of body
        *lines(8, most),
        "def outer():",  # line 2 * most + 3
        "    def inner():",
        *lines(8, most),
    ]
    text += [""] * (MOST_MODULE_LINES + 1 - len(text))
    module = tmp_path / "solver" / "probe.py"
    module.parent.mkdir()
    module.write_text("\n".join(text) + "\n", encoding="utf-8")
    assert sorted(long_rooms(module, tmp_path)) == sorted(
        [
            f"solver/probe.py: {MOST_MODULE_LINES + 1} lines",
            f"solver/probe.py:{most + 2} method: {most + 1} lines",
            f"solver/probe.py:{2 * most + 3} outer: {most + 2} lines",
            f"solver/probe.py:{2 * most + 4} inner: {most + 1} lines",
        ]
    )


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def test_no_two_modules_import_each_other() -> None:
    """No circle of two in solver/ and rulesets/ (an import in a function counts: cli/solve.py
    and cli/chances.py once imported each other, one at the top, one inside a function). A
    package's face re-exporting its rooms is not a circle with them."""
    paths = [*SOLVER.rglob("*.py"), *(ROOT / "rulesets").rglob("*.py")]
    modules = {_module_name(path): imported(path) for path in paths}
    circles = sorted(
        f"{one} <-> {other}"
        for one, names in modules.items()
        for other in names
        if other in modules
        and one < other
        and one in modules[other]
        and not (one.startswith(other + ".") or other.startswith(one + "."))
    )
    assert circles == []


def test_no_two_classes_share_a_name() -> None:
    """One name, one idea: no class of solver/ or rulesets/ is named as another is (``Game`` was
    both the engine's protocol and the API's game; ``Played`` and ``Tally`` were two each)."""
    where: dict[str, list[str]] = {}
    for path in [*SOLVER.rglob("*.py"), *(ROOT / "rulesets").rglob("*.py")]:
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef):
                where.setdefault(node.name, []).append(str(path.relative_to(ROOT)))
    assert {name: paths for name, paths in where.items() if len(paths) > 1} == {}


#: The most positional parameters of a function of solver/ (``self`` aside), but the Python
#: engine's two hot loops (LONG_BY_DESIGN), where a keyword per call of each state costs, and an
#: exception's ``__init__`` (pickle rebuilds an exception from its arguments, given by position).
MOST_POSITIONAL = 3
POSITIONAL_BY_DESIGN = {"solver/errors.py:StoreFault.__init__"}


def test_no_function_takes_more_than_three_positional_parameters() -> None:
    """Beyond the first three (``self`` aside), a parameter of a function of solver/ is
    keyword-only: a call reads what each value is (``budget=``, ``floor=``), and no call slips a
    seed where a seed of another stream was meant (``play_orders`` once took ten in a row)."""
    found = []
    for path in sorted(SOLVER.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        owners = {
            id(item): node.name for node in ast.walk(tree) if isinstance(node, ast.ClassDef) for item in node.body
        }
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and node.name not in LONG_BY_DESIGN:
                names = [arg.arg for arg in [*node.args.posonlyargs, *node.args.args]]
                lead = 1 if names[:1] in (["self"], ["cls"]) else 0
                named = f"{path.relative_to(ROOT)}:{owners.get(id(node), '')}.{node.name}".replace(":.", ":")
                if len(names) - lead > MOST_POSITIONAL and named not in POSITIONAL_BY_DESIGN:
                    found.append(f"{named} (line {node.lineno})")
    assert found == []

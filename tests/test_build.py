"""The compiled core is an optional part of the build: where it cannot be built, or is not
wanted, the package still builds, on its Python engine, and says why in one line. It is
installed whole or not at all, and the engine named is the one that searches each game."""

from __future__ import annotations

import ast
import importlib
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import zipfile
from collections.abc import Callable
from importlib.machinery import EXTENSION_SUFFIXES
from pathlib import Path

import pytest
from helpers import run_cli

from solver.engine import NO_EXTENSIONS, compiled_core
from solver.service.engines import COMPILED, status

ROOT = Path(__file__).resolve().parent.parent


def source_copy(folder: Path) -> Path:
    """The project's sources as a fresh clone has them (no build products), in ``folder``."""
    folder.mkdir()
    for name in ("setup.py", "pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, folder / name)
    for package in ("solver", "rulesets"):
        shutil.copytree(ROOT / package, folder / package, ignore=shutil.ignore_patterns("*.so", "*.c", "__pycache__"))
    return folder


def built_wheel(tmp_path: Path, **environment: str) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    """Build a wheel of the sources with this environment, as a user's install does (build
    requirements from the package index; pip's verbose output shows the build's own lines), and
    the names of the files in it. The sources are copied into ``tmp_path/src`` by the first
    build; a second build of them finds what the first left in their build/."""
    sources = tmp_path / "src"
    if not sources.exists():
        source_copy(sources)
    out = Path(tempfile.mkdtemp(prefix="wheel", dir=tmp_path))
    run = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-v", "-w", str(out), str(sources)],
        capture_output=True,
        text=True,
        env={**os.environ, **environment},
    )
    wheels = list(out.glob("*.whl"))
    names = zipfile.ZipFile(wheels[0]).namelist() if wheels else []
    return run, names


def compiled(names: list[str]) -> list[str]:
    """The compiled modules among these file names."""
    return [name for name in names if name.endswith((".so", ".pyd"))]


def plant(folder: Path) -> None:
    """Every compiled module's file in ``folder``, as a whole earlier build would have left them,
    dated after the sources (which a build in a fresh environment writes again: Cython there is
    new), so that setuptools takes them for up to date and compiles none."""
    later = time.time() + 86_400
    for module in COMPILED:
        path = folder / (module.replace(".", "/") + EXTENSION_SUFFIXES[0])
        path.write_bytes(b"an earlier build's")
        os.utime(path, (later, later))


@pytest.mark.one_engine
def test_without_a_working_c_compiler_the_package_still_builds_on_the_python_engine(tmp_path):
    run, names = built_wheel(tmp_path, CC="false")
    assert run.returncode == 0, run.stderr
    said = [line for line in (run.stdout + run.stderr).splitlines() if "the compiled core was not built" in line]
    assert said and "installed on the Python engine" in said[0], run.stdout[-2000:]
    assert "solver/search.py" in names and compiled(names) == []


# Slow (two real pip builds, ~14 s) and kept so: only a real build shows what a wheel ships.
@pytest.mark.one_engine
def test_where_one_module_fails_to_compile_none_is_installed_nor_left_for_the_next_build(tmp_path):
    """A compiler that fails on one module (Baroness's kernel): the modules compiled before it are
    not installed either, and the one line says so. A later build of the same tree that compiles
    nothing ships nothing an earlier build left in build/."""
    if shutil.which("gcc") is None:
        pytest.skip("no gcc on this machine")
    cc = tmp_path / "cc"
    cc.write_text(
        "#!/bin/sh\n"
        "# refuses rulesets/_baroness.c; for the rest writes the object asked for (-o) from an empty\n"
        "# source, in no time: what is tested is which modules the build installs, not their code\n"
        'out=; next=; for arg; do [ -n "$next" ] && out=$arg; next=; [ "$arg" = -o ] && next=1\n'
        '  case "$arg" in *_baroness.c) echo "cc: refusing $arg" >&2; exit 1;; esac; done\n'
        'exec gcc -c -x c /dev/null -o "$out"\n'
    )
    cc.chmod(0o755)
    run, names = built_wheel(tmp_path, CC=str(cc))
    assert run.returncode == 0, run.stderr
    said = [line for line in (run.stdout + run.stderr).splitlines() if "the compiled core was not built" in line]
    assert len(said) == 1 and "_baroness" in said[0] and "installed on the Python engine" in said[0], said
    assert "solver/search.py" in names and compiled(names) == []
    (lib,) = (tmp_path / "src" / "build").glob("lib.*")
    plant(lib)
    run, names = built_wheel(tmp_path, CC="false")  # which compiles nothing
    assert run.returncode == 0, run.stderr
    assert "the compiled core was not built" in run.stdout + run.stderr and compiled(names) == []


@pytest.mark.one_engine
@pytest.mark.parametrize("environment", [{"CC": "false"}, {NO_EXTENSIONS: "1"}])
def test_an_editable_install_that_compiles_nothing_leaves_no_earlier_build_beside_the_sources(tmp_path, environment):
    """An editable install imports the compiled modules beside the sources: one that builds none
    must not leave an earlier build's there."""
    sources = source_copy(tmp_path / "src")
    plant(sources)
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)
    install = [sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"), "install", "--no-deps", "-v"]
    run = subprocess.run(
        [*install, "-e", str(sources)], capture_output=True, text=True, env={**os.environ, **environment}
    )
    assert run.returncode == 0, run.stderr
    assert "the compiled core was not built" in run.stdout + run.stderr
    assert compiled([str(path) for path in sources.glob("*/_*")]) == []


@pytest.mark.one_engine
def test_patience_no_extensions_builds_no_extension(tmp_path):
    run, names = built_wheel(tmp_path, PATIENCE_NO_EXTENSIONS="1")
    assert run.returncode == 0, run.stderr
    assert "PATIENCE_NO_EXTENSIONS is set" in run.stdout + run.stderr
    assert "rulesets/accordion.py" in names and compiled(names) == []


def test_the_engine_in_use_is_named(engine):
    if engine == "python":
        assert status() == f"python ({NO_EXTENSIONS} is set)"
    else:
        assert compiled_core() is not None and status() == "native (the compiled core)"


@pytest.fixture
def without(monkeypatch: pytest.MonkeyPatch) -> Callable[[str], None]:
    """Makes a compiled module fail to import, as where an installation put together by hand
    lacks its file."""

    def drop(module: str) -> None:
        package, name = module.split(".")
        monkeypatch.setitem(sys.modules, module, None)
        monkeypatch.delattr(importlib.import_module(package), name, raising=False)

    return drop


def engine_named(*args: str) -> str:
    """The engine the --json record of ``patience ARGS`` names."""
    ran = run_cli(*args, "--json")
    assert ran.exit_code == 0, ran.stderr
    return str(json.loads(ran.stdout.splitlines()[0])["engine"])


@pytest.mark.parametrize(
    "module, version, baroness, accordion",
    [
        (
            "rulesets._baroness",
            "mixed (the compiled core is partly installed: rulesets._baroness missing;"
            " baroness, baroness-classic, baroness-pysol search on the Python engine)",
            "python",
            "native",
        ),
        (
            "solver._search",
            "python (the compiled core is partly installed: solver._search missing;"
            " every game searches on the Python engine)",
            "python",
            "python",
        ),
        (
            "solver._chance",  # a face-down stock's sampling and expectimax
            "mixed (the compiled core is partly installed: solver._chance missing;"
            " a face-down stock is judged on the Python engine)",
            "native",
            "native",
        ),
        (
            "solver._graph",  # the tests' kernel over explicit graphs
            "native (the compiled core is partly installed: solver._graph missing; no game needs it)",
            "native",
            "native",
        ),
    ],
)
@pytest.mark.one_engine
def test_a_compiled_module_missing_at_run_time_is_named_and_each_record_names_its_engine(
    without, module, version, baroness, accordion
):
    """An installation put together by hand without one compiled module: --version names it and
    what it leaves to the Python engine, and each search's record the engine that searched."""
    without(module)
    assert run_cli("--version").stdout.endswith(f", engine: {version}\n")
    searches = [("solve", "baroness"), ("hint", "baroness-pysol"), ("solve", "accordion"), ("hint", "thirteens")]
    searched = [engine_named(command, game, "--seed", "3") for command, game in searches]
    assert searched == [baroness, baroness, accordion, accordion]  # Thirteens has its kernel as Accordion has


def test_the_engine_knows_every_module_the_build_compiles():
    """solver.service.engines.COMPILED, which --version looks for, is setup.py's MODULES."""
    tree = ast.parse((ROOT / "setup.py").read_text(encoding="utf-8"))
    built = next(node.value for node in tree.body if isinstance(node, ast.Assign) and node.targets[0].id == "MODULES")
    assert ast.literal_eval(built) == COMPILED


def test_where_a_c_compiler_works_the_installation_has_the_compiled_core(engine):
    """This installation was built where gcc works (CI's too), so its compiled core must be
    there: a build that silently fell back would pass every other test on the Python engine (and
    the native run would be skipped whole)."""
    if shutil.which("gcc") is None and shutil.which("cc") is None:
        pytest.skip("no C compiler on this machine")
    assert importlib.util.find_spec("solver._search") is not None, "the compiled core was not built: see setup.py"

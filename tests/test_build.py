"""The compiled core is an optional part of the build: where it cannot be built, or is not
wanted, the package still builds, on its Python engine, and says why in one line."""

from __future__ import annotations

import importlib.util
import os
import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from solver.engine import NO_EXTENSIONS, compiled_core, status

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
    the names of the files in it."""
    sources = source_copy(tmp_path / "src")
    out = tmp_path / "wheel"
    run = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-v", "-w", str(out), str(sources)],
        capture_output=True,
        text=True,
        env={**os.environ, **environment},
    )
    wheels = list(out.glob("*.whl"))
    names = zipfile.ZipFile(wheels[0]).namelist() if wheels else []
    return run, names


@pytest.mark.one_engine
def test_without_a_working_c_compiler_the_package_still_builds_on_the_python_engine(tmp_path):
    run, names = built_wheel(tmp_path, CC="false")
    assert run.returncode == 0, run.stderr
    said = [line for line in (run.stdout + run.stderr).splitlines() if "the compiled core was not built" in line]
    assert said and "installed on the Python engine" in said[0], run.stdout[-2000:]
    assert "solver/search.py" in names and not [name for name in names if name.endswith((".so", ".pyd"))]


@pytest.mark.one_engine
def test_patience_no_extensions_builds_no_extension(tmp_path):
    run, names = built_wheel(tmp_path, PATIENCE_NO_EXTENSIONS="1")
    assert run.returncode == 0, run.stderr
    assert "PATIENCE_NO_EXTENSIONS is set" in run.stdout + run.stderr
    assert "rulesets/accordion.py" in names and not [name for name in names if name.endswith((".so", ".pyd"))]


def test_the_engine_in_use_is_named(engine):
    if engine == "python":
        assert status() == f"python ({NO_EXTENSIONS} is set)"
    else:
        assert compiled_core() is not None and status() == "native (the compiled core)"


@pytest.mark.one_engine
def test_where_a_c_compiler_works_the_installation_has_the_compiled_core():
    """This installation was built where gcc works (CI's too), so its compiled core must be
    there: a build that silently fell back would pass every other test on the Python engine (and
    the native run would be skipped whole)."""
    if shutil.which("gcc") is None and shutil.which("cc") is None:
        pytest.skip("no C compiler on this machine")
    assert importlib.util.find_spec("solver._search") is not None, "the compiled core was not built: see setup.py"

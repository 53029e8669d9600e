"""Command lines a careless or hostile user types: each ends in one line and a documented exit
code, never an internal error (found by trying every command by hand; see the h-hostile branch)."""

from __future__ import annotations

import os
from pathlib import Path

from helpers import run_cli


def test_a_survey_file_name_that_is_not_utf8_is_used_as_given(tmp_path: Path) -> None:
    out = tmp_path / os.fsdecode(b"\xff.sqlite")
    ran = run_cli("survey", "accordion", "--seeds", "1-2", "--max-nodes", "10", "--out", str(out))
    assert ran.exit_code == 0, ran.output
    assert out.exists()
    assert run_cli("report", str(out)).exit_code == 0

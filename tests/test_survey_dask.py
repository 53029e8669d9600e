"""A survey on a Dask cluster whose scheduler and workers are processes of their own, started as
`dask scheduler` and `dask worker`, one worker killed mid-run: the cluster carries on, and the
survey stores the same rows as `--jobs 1` (benchmarks/survey_dask.py measures its deals per second
against the number of workers)."""

from __future__ import annotations

import subprocess
import time

import pytest
from helpers import SURVEY_GAME, SURVEY_VARIANT, DaskCluster, patience_command, stored_deals, survey_spec, survey_table

from solver.service.seeds import parse_seeds
from solver.surveys.running import run_survey

pytest.importorskip("distributed", reason="the 'dask' extra is not installed")

#: Deals whose searches take some milliseconds each under this node limit (some stopped by it):
#: a run of a second or more, in chunks of up to two seconds' work after the first two deals,
#: so that a worker killed at the first row stored is killed mid-run.
SEEDS, TOTAL, NODES = "1-200", 200, 20000
SPEC = survey_spec(NODES)


@pytest.mark.one_engine  # the cluster's machinery is the same on either engine (the Python engine's run is long)
def test_a_cluster_of_separate_processes_survives_a_killed_worker_with_the_same_rows(tmp_path):
    reference = tmp_path / "jobs1.sqlite"
    run_survey(SPEC, parse_seeds(SEEDS), reference, jobs=1)
    out = tmp_path / "dask.sqlite"
    with DaskCluster(tmp_path, workers=2) as cluster:  # one killed, one carries on
        command = [*patience_command(), "survey", SURVEY_GAME, "--variant", SURVEY_VARIANT, "--seeds", SEEDS,
                   "--max-nodes", str(NODES), "--out", str(out), "--scheduler", cluster.address, "--no-progress"]  # fmt: skip
        survey = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + 120
        while stored_deals(out) == 0 and survey.poll() is None and time.monotonic() < deadline:
            time.sleep(0.05)
        killed_at = stored_deals(out)
        cluster.kill_worker()
        output, errors = survey.communicate(timeout=300)
    assert survey.returncode == 0, errors
    assert 0 < killed_at < TOTAL, "the worker was killed mid-run"
    assert f"{TOTAL} of {TOTAL} deals stored" in output
    assert survey_table(out) == survey_table(reference)

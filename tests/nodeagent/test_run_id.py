"""A run started by `trainstack run` (`nodeagent start-run`): its rendezvous id is kept beside the
rendezvous file and every launch uses it while it belongs to the node's job; a run of another
job (an edited one) or a damaged file falls back to the job's own id."""

from __future__ import annotations

import json

import pytest

from nodeagent.__main__ import main
from nodeagent.job import NodeJob, current_run_id, run_file, start_run


def _job(tmp_path, **changes) -> NodeJob:
    values = {"command": ("train.py",), "rdzv_host": "10.0.0.5", "job_id": "c-1a2b3c4d"}
    return NodeJob(**{"rdzv_file": str(tmp_path / "rdzv" / "c"), **values, **changes})


@pytest.mark.parametrize(
    ("text", "used"),
    [
        pytest.param(None, "c-1a2b3c4d", id="no-run-yet"),
        pytest.param("c-1a2b3c4d-20261207-043900\n", "c-1a2b3c4d-20261207-043900", id="this-jobs-run"),
        pytest.param("c-9f9f9f9f-20261207-043900\n", "c-1a2b3c4d", id="another-jobs-run"),
        pytest.param("c-1a2b3c4d\n", "c-1a2b3c4d", id="the-id-itself"),
        pytest.param("c-1a2b3c4d-x; rm -rf /\n", "c-1a2b3c4d", id="not-an-id"),
    ],
)
def test_launch_uses_the_run_of_this_job_only(tmp_path, text, used):
    job = _job(tmp_path)
    if text is not None:
        (tmp_path / "rdzv").mkdir()
        (tmp_path / "rdzv" / "c.run").write_text(text)
    assert current_run_id(job) == used


def test_start_run_records_the_run_for_later_launches(tmp_path):
    job = _job(tmp_path)
    assert start_run(job, "c-1a2b3c4d-s2") == str(tmp_path / "rdzv" / "c.run") == run_file(job)
    assert current_run_id(job) == "c-1a2b3c4d-s2"
    with pytest.raises(ValueError, match="this node runs job c-1a2b3c4d, not c-9f9f9f9f: deploy the stack first"):
        start_run(job, "c-9f9f9f9f-s3")
    assert current_run_id(job) == "c-1a2b3c4d-s2"  # the refused run changed nothing
    with pytest.raises(ValueError, match="no rendezvous file"):
        start_run(_job(tmp_path, rdzv_file=""), "c-1a2b3c4d-s4")


def test_start_run_command_exit_status_and_line(tmp_path, capsys):
    path = tmp_path / "job.json"
    path.write_text(
        json.dumps(
            {"command": ["train.py"], "rdzv_host": "h", "job_id": "c-1a2b3c4d", "rdzv_file": str(tmp_path / "c")}
        )
    )
    assert main(["start-run", "c-1a2b3c4d-s1", str(path)]) == 0
    assert capsys.readouterr().out == f"TRAINSTACK-RUN c-1a2b3c4d-s1 {tmp_path / 'c.run'}\n"
    assert main(["start-run", "c-00000000-s1", str(path)]) == 3
    assert "nodeagent: start-run: this node runs job c-1a2b3c4d" in capsys.readouterr().err

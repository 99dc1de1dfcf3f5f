"""The tools that would run what we generate, on every bootstrap of every committed stack (as
committed and with a job, `tests.clouds.rendered`): `shellcheck` on each script, cloud-init's
own reading of the user data (`cloud-init schema` for a cloud-config part; for a script, the
part type cloud-init gives it), and `systemd-analyze verify` on every unit the script writes.
The tools are Debian's (`cloud-init`, `shellcheck`, `systemd`; `.ci/run` installs them); a
check skips, saying which package to install, only where its tool is missing.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest

from clouds import mlflow_head
from clouds.job_runtime import runtime_for
from tests.clouds.rendered import Bootstrap, every_bootstrap

# SC1091: a sourced system file (/etc/os-release, /etc/lsb-release) exists only on the node.
SHELLCHECK = ["shellcheck", "--shell=bash", "--severity=style", "--exclude=SC1091"]
CLOUD_INIT_PYTHON = "/usr/bin/python3"  # the interpreter Debian's cloud-init runs on
SYSTEM_UNITS = Path("/usr/lib/systemd/system")


def _tool(name: str, package: str) -> str:
    path = shutil.which(name)
    if path is None:
        pytest.skip(f"{name} is not installed: apt-get install -y {package} (.ci/run does)")
    return path


@pytest.fixture(scope="module")
def bootstraps() -> list[Bootstrap]:
    found = every_bootstrap()
    # the committed stacks' node groups, heads (with a job) and the TPU controller
    assert {b.resource_type.split(":")[0] for b in found} == {"aws", "azure-native", "gcp"} and len(found) >= 10
    return found


def _shellcheck(texts: dict[str, str], tmp_path: Path) -> subprocess.CompletedProcess:
    """One shellcheck run over `texts` (file name -> script)."""
    for name, text in texts.items():
        (tmp_path / name).write_text(text)
    return subprocess.run([*SHELLCHECK, *texts], cwd=tmp_path, capture_output=True, text=True, check=False)


def test_every_bootstrap_passes_shellcheck(bootstraps, tmp_path):
    _tool("shellcheck", "shellcheck")
    assert all(b.text.startswith("#!/bin/bash\n") for b in bootstraps)
    result = _shellcheck({b.label.replace(":", "_") + ".sh": b.text for b in bootstraps}, tmp_path)
    assert result.returncode == 0, result.stdout


def test_shellcheck_fails_a_broken_script(tmp_path):
    """The check can fail: an unquoted expansion and a missing `fi`."""
    _tool("shellcheck", "shellcheck")
    result = _shellcheck(
        {"a.sh": "#!/bin/bash\nrm -rf $DIR/x\n", "b.sh": "#!/bin/bash\nif true; then\n  echo x\n"}, tmp_path
    )
    assert result.returncode != 0 and "a.sh line 2" in result.stdout and "b.sh line 2" in result.stdout


# two texts whose part types are known: the check can tell cloud-config from anything else
KNOWN_PARTS = {"#cloud-config\nruncmd: [ls]\n": "text/cloud-config", "hello\n": None}
# Run by cloud-init's own interpreter, in a temporary folder: reads [texts, indexes] as JSON and
# prints, per text, [its part type, [exit status, output] of `cloud-init schema -c` on it or
# null]; the schema check runs for every cloud-config part and for the texts at `indexes`,
# through the command's own entry point (`cloudinit.cmd.main.main`, what /usr/bin/cloud-init
# calls), so that one interpreter start serves every check.
CLOUD_INIT_READS = """
import contextlib, io, json, sys
from cloudinit.cmd.main import main
from cloudinit.handlers import type_from_starts_with
texts, indexes = json.load(sys.stdin)
answers = []
for i, text in enumerate(texts):
    kind, schema = type_from_starts_with(text), None
    if kind == "text/cloud-config" or i in indexes:
        path = f"user-data-{i}"
        with open(path, "w") as f:
            f.write(text)
        said = io.StringIO()
        with contextlib.redirect_stdout(said), contextlib.redirect_stderr(said):
            try:
                status = main(["cloud-init", "schema", "-c", path]) or 0
            except SystemExit as exit:
                status = exit.code
        schema = [status, said.getvalue()]
    answers.append([kind, schema])
print(json.dumps(answers))
"""


@pytest.fixture(scope="module")
def cloud_init_reads(bootstraps, tmp_path_factory) -> dict[str, tuple[str | None, tuple[int, str] | None]]:
    """text -> (the part type cloud-init's own code gives it, `cloud-init schema -c`'s exit
    status and output or None), for each user data cloud-init reads and each of `KNOWN_PARTS`;
    the schema check for every cloud-config part, the first bootstrap (a script) and the known
    cloud-config (one run of cloud-init's interpreter for the module: `CLOUD_INIT_READS`)."""
    _tool("cloud-init", "cloud-init")
    texts = list(dict.fromkeys([bootstraps[0].text, *(b.text for b in bootstraps if b.cloud_init), *KNOWN_PARTS]))
    checked = [0, texts.index(next(iter(KNOWN_PARTS)))]
    run = subprocess.run(
        [CLOUD_INIT_PYTHON, "-c", CLOUD_INIT_READS],
        input=json.dumps([texts, checked]),
        capture_output=True,
        text=True,
        check=True,
        cwd=tmp_path_factory.mktemp("cloud-init"),
    )
    answers = json.loads(run.stdout)
    return {
        text: (kind, tuple(schema) if schema else None) for text, (kind, schema) in zip(texts, answers, strict=True)
    }


def test_cloud_init_reads_every_user_data_as_what_it_is(bootstraps, cloud_init_reads):
    read = [b for b in bootstraps if b.cloud_init]
    assert {b.stack.split("+")[0] for b in read} == {"training-a100", "training-h100-azure", "tracked"}
    for bootstrap in read:
        kind, schema = cloud_init_reads[bootstrap.text]
        if kind == "text/cloud-config":
            assert schema is not None and schema[0] == 0, f"{bootstrap.label}: {schema}"
        else:  # cloud-init runs it once, as a script, on the first boot (and shellcheck checked it)
            assert kind == "text/x-shellscript", bootstrap.label


def test_cloud_init_schema_refuses_a_script_as_cloud_config(bootstraps, cloud_init_reads):
    """`cloud-init schema` checks cloud-config only: our scripts are not (the part type says
    so); a known cloud-config passes it."""
    status, said = cloud_init_reads[bootstraps[0].text][1] or (0, "not checked")
    assert status != 0 and 'needs to begin with "#cloud-config"' in said
    assert {text: cloud_init_reads[text][0] for text in KNOWN_PARTS} == KNOWN_PARTS
    status, said = cloud_init_reads[next(iter(KNOWN_PARTS))][1] or (1, "not checked")
    assert status == 0 and said.startswith("Valid cloud-config: user-data-"), said


def _provided_programs(bootstrap: Bootstrap) -> set[str]:
    """Programs a unit may start: the image's python3, the cloud's job runtime (shipped by the
    image, or created by this very bootstrap: tests/clouds/test_job_runtime.py) and the MLflow
    server's venv where this bootstrap creates it (`clouds.mlflow_head.server_lines`)."""
    provider = bootstrap.resource_type.split(":")[0].split("-")[0]
    runtime = runtime_for(provider)
    mlflow = [f"{mlflow_head.VENV}/bin/mlflow"] if f"{mlflow_head.VENV}/bin/pip install" in bootstrap.text else []
    return {"/usr/bin/python3", *([runtime.python] if runtime else []), *mlflow}


def _link_or_copy(source: str, target: str) -> None:
    """A hard link of `source` at `target` (a copy where the two are on different file systems)."""
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)


def _verify(units: dict[str, str], programs: set[str], root: Path) -> subprocess.CompletedProcess:
    """`systemd-analyze verify` of `units` in a root holding the system's units and the programs.
    A unit systemd only warns about (a value it cannot parse is ignored) still exits 0, so the
    checks also require that it says nothing. The system's units are put into `root` once, as
    hard links (copying their 300 files took about 0.3 s of CPU per root); a file written for a
    call is unlinked first, so no write ever goes through a link, and the units and programs
    written for this call are removed again, so the root serves the next."""
    if not (root / SYSTEM_UNITS.relative_to("/")).is_dir():
        shutil.copytree(SYSTEM_UNITS, root / SYSTEM_UNITS.relative_to("/"), symlinks=True, copy_function=_link_or_copy)
    written = [root / p.lstrip("/") for p in programs] + [root / p.lstrip("/") for p in units]
    try:
        for program in programs:
            stub = root / program.lstrip("/")
            stub.parent.mkdir(parents=True, exist_ok=True)
            stub.unlink(missing_ok=True)
            stub.write_text("#!/bin/sh\n")
            stub.chmod(0o755)
        for path, text in units.items():
            unit = root / path.lstrip("/")
            unit.parent.mkdir(parents=True, exist_ok=True)
            unit.unlink(missing_ok=True)
            unit.write_text(text)
        names = [Path(p).name for p in units]
        command = ["systemd-analyze", "verify", f"--root={root}", *names]
        return subprocess.run(command, capture_output=True, text=True, check=False)
    finally:
        for path in written:
            path.unlink(missing_ok=True)


def test_every_unit_passes_systemd_analyze_verify(bootstraps, tmp_path):
    """Each bootstrap's units, verified together; a set of units (and the programs they start)
    that several bootstraps write alike (a head's and a worker's scratch unit, say) is verified once."""
    _tool("systemd-analyze", "systemd")
    if not SYSTEM_UNITS.is_dir():
        pytest.skip(f"no {SYSTEM_UNITS} to verify against: apt-get install -y systemd")
    verified, answers = 0, {}
    for bootstrap in bootstraps:
        units = {**bootstrap.units(), **_fstab_units(bootstrap.fstab(), tmp_path / "fstab")}
        programs = {unit.split("ExecStart=", 1)[1].split()[0] for unit in units.values() if "ExecStart=" in unit}
        assert programs <= _provided_programs(bootstrap), f"{bootstrap.label} starts {programs}"
        alike = (tuple(sorted(units.items())), tuple(sorted(programs)))
        if alike not in answers:
            result = _verify(units, programs, tmp_path)  # one root, emptied of the last bootstrap's files
            answers[alike] = (result.returncode, result.stdout + result.stderr)
        assert answers[alike] == (0, ""), bootstrap.label
        verified += len(units)
    assert verified >= 10  # scratch, job, rendezvous and queued units


def _fstab_units(lines: list[str], folder: Path) -> dict[str, str]:
    """The mount and automount units systemd's own fstab generator makes of `lines` at boot
    (path under /etc/systemd/system -> text), so they are verified with the units that need the
    mount: a dependency they name that the image lacks fails the job's start (an AWS line once
    required `network.service`, which Ubuntu has not)."""
    if not lines:
        return {}
    generator = Path("/usr/lib/systemd/system-generators/systemd-fstab-generator")
    if not generator.is_file():
        pytest.skip(f"no {generator}: apt-get install -y systemd")
    out = folder / "out"
    shutil.rmtree(folder, ignore_errors=True)
    out.mkdir(parents=True)
    (folder / "fstab").write_text("".join(f"{line}\n" for line in lines))
    env = {"SYSTEMD_FSTAB": str(folder / "fstab"), "SYSTEMD_PROC_CMDLINE": "", "PATH": "/usr/bin:/bin"}
    subprocess.run([str(generator), str(out), str(out), str(out)], env=env, check=True, capture_output=True)
    found = {f"/etc/systemd/system/{unit.name}": unit.read_text() for unit in sorted(out.iterdir()) if unit.is_file()}
    assert found, f"the generator made no unit of {lines}"
    return found


def test_an_fstab_line_needing_a_unit_the_image_lacks_fails_the_check(tmp_path):
    """The fstab check can fail: `x-systemd.requires=` a unit the root does not hold."""
    _tool("systemd-analyze", "systemd")
    line = "fs-1.fsx.us-east-1.amazonaws.com@tcp:/abc /fsx lustre defaults,_netdev,x-systemd.requires={} 0 0"
    job = "[Unit]\nDescription=x\nRequiresMountsFor=/fsx\n[Service]\nExecStart=/usr/bin/python3 -V\n"
    for needed, fails in (("network.service", True), ("network-online.target", False)):
        units = {"/etc/systemd/system/x.service": job, **_fstab_units([line.format(needed)], tmp_path / "fstab")}
        result = _verify(units, {"/usr/bin/python3"}, tmp_path)
        assert (result.returncode != 0 and "network.service not found" in result.stderr) is fails, result.stderr


def test_systemd_analyze_fails_a_bad_unit(tmp_path):
    """The check can fail: a time systemd cannot parse, and a program the root does not hold."""
    _tool("systemd-analyze", "systemd")
    unit = "[Unit]\nDescription=x\n[Service]\nExecStart=/usr/bin/python3 -V\nRestartSec=ten\n"
    bad = _verify({"/etc/systemd/system/x.service": unit}, {"/usr/bin/python3"}, tmp_path)
    assert "Failed to parse sec value" in bad.stderr
    good = unit.replace("ten", "10")
    ok = _verify({"/etc/systemd/system/x.service": good}, {"/usr/bin/python3"}, tmp_path)
    assert (ok.returncode, ok.stdout + ok.stderr) == (0, "")
    # the same root: the program the last call wrote is gone again
    missing = _verify({"/etc/systemd/system/x.service": good}, set(), tmp_path)
    assert missing.returncode != 0 and "is not executable" in missing.stderr

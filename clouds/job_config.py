"""The training job a cluster's nodes run (`JobConfig`, a stack's `job:`; the workload spec's
`job:` is the same model), checked field by field (`clouds.job_fields`)."""

from __future__ import annotations

import shlex
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError, field_validator

from clouds.field_errors import describe, refuse_bool
from clouds.job_fields import job_field_problem
from clouds.job_secrets import SecretRef
from clouds.tracking import TrackingConfig

_TEXT = TypeAdapter(str)


class JobConfig(BaseModel):
    """The training job every node runs under torchrun (the node agent, `nodeagent/`).

    Attributes:
        command: the training script and its arguments as torchrun takes them
            (`/fsx/code/train.py --lr 3e-4`); with `module`, the first word is a module.
        script: instead of `command`, a script on the shared file system to run as is.
        workdir: working directory (on the shared file system); None = its mount point.
        checkpoint_dir: the job's checkpoints, exported as `TRAINSTACK_CHECKPOINT_DIR`;
            None = `<workdir>/checkpoints/<cluster>`.
        nproc_per_node: processes per node; None = the node's accelerator count.
        min_nodes: the job keeps running with this many nodes (torchrun `--nnodes=MIN:MAX`,
            MAX = the cluster's nodes); None = all nodes (a lost node is waited for).
        max_restarts: worker-group failures torchrun restarts from (`--max-restarts`); a
            replaced node joining is a membership change and does not count.
        env: extra environment of the training processes: a value written as is, or a secret
            reference (`{secret: KEY}` from the Pulumi secret config `trainstack:secrets`, or
            `{store: ID}` in the cloud's secret store: `clouds.job_secrets`), which the nodes
            read with their own identity at start; a plain value named like a credential is refused.
        python: the interpreter with torch the job runs on (e.g. a venv on the shared file
            system); None = the cloud's job runtime (`clouds.job_runtime`: the PyTorch DLAMI's
            /opt/pytorch/bin/python on AWS, a pinned torch in /opt/trainstack/torch elsewhere).
        module: run `command`'s first word as a Python module (`python -m`).
        tracking: MLflow tracking (`{mlflow: URI}` or `{mlflow: managed}`): the training
            environment gets `MLFLOW_TRACKING_URI` (`clouds.tracking`); None: no tracking.
        launcher: what starts the processes on each node: `torchrun` (PyTorch's elastic
            launcher) or `paddle` (`python -m paddle.distributed.launch`); None = torchrun.
        code: on a platform that runs code from its cloud's object store (ModelArts `obs://`,
            PAI-DLC `oss://`, TI-ONE `cos://`), the folder holding the job's code
            (`trainstack.run.object_store`); VM stacks run code from the shared file system.
        image: the platform's training image or engine where it needs one named (ModelArts
            `ENGINE:VERSION`, a PAI-DLC image address, a TI-ONE PyTorch environment).
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    command: str | None = Field(
        default=None, min_length=1, description="Script and arguments.", examples=["/fsx/code/train.py --lr 3e-4"]
    )
    script: str | None = Field(
        default=None, min_length=1, description="Script on the shared file system.", examples=["/fsx/code/run.sh"]
    )
    workdir: str | None = Field(default=None, description="Working directory; None = the mount point.")
    checkpoint_dir: str | None = Field(default=None, description="Checkpoint directory.")
    nproc_per_node: int | None = Field(
        default=None,
        ge=1,
        le=64,
        description="Processes per node.",
        examples=[8],  # one per GPU of 8-GPU nodes
    )
    min_nodes: int | None = Field(default=None, ge=1, description="Fewest nodes the job runs on.", examples=[1])
    max_restarts: int = Field(default=3, ge=0, le=1000, description="Worker-group restarts.")
    env: dict[str, str | SecretRef] = Field(
        default_factory=dict,
        description="Extra environment: a value, or {secret: KEY} / {store: ID}.",
        examples=[{"NCCL_DEBUG": "WARN", "WANDB_API_KEY": {"secret": "wandbKey"}}],
    )
    python: str | None = Field(
        default=None,
        min_length=1,
        description="Interpreter with torch.",
        examples=["/fsx/venv/bin/python"],
    )
    module: bool = Field(default=False, description="Run the command as a module.")
    tracking: TrackingConfig | None = Field(default=None, description="MLflow tracking.")
    launcher: Literal["torchrun", "paddle"] | None = Field(default=None, description="Launcher; None = torchrun.")
    code: str | None = Field(default=None, min_length=1, description="Object-store code folder (platforms).")
    image: str | None = Field(default=None, min_length=1, description="Platform training image or engine.")

    @field_validator("nproc_per_node", "min_nodes", "max_restarts", mode="before")
    @classmethod
    def _numbers(cls, value: object) -> object:
        """`nproc_per_node: true` is a YAML yes/no, not 1: refused with a value the field takes."""
        return refuse_bool(value)

    @field_validator("env", mode="before")
    @classmethod
    def _env_values(cls, env: object) -> object:
        """Each mapping value as a `SecretRef`, anything else as text, or one line naming
        `job.env.NAME` and the fix."""
        if not isinstance(env, dict):
            return env
        values: dict[object, object] = {}
        for name, value in env.items():
            if isinstance(value, dict):
                try:
                    value = SecretRef.model_validate(value)
                except ValidationError as exc:
                    error = exc.errors()[0]
                    where = ".".join(str(part) for part in error["loc"])
                    why = error.get("ctx", {}).get("error", error["msg"])
                    raise ValueError(f"job.env.{name}{'.' + where if where else ''}: {why}") from None
            elif not isinstance(value, (str, SecretRef)):  # worded as for any text field
                try:
                    _TEXT.validate_python(value)
                except ValidationError as exc:
                    raise ValueError(f"job.env.{name}: {describe(exc.errors()[0], None, str(name))}") from None
            values[name] = value
        return values

    def model_post_init(self, __context: object) -> None:
        if (self.command is None) == (self.script is None):
            raise ValueError(
                "job: give exactly one of command (script and arguments) or script (a script on the shared file system)"
            )
        if problem := job_field_problem(self):
            raise ValueError(problem)
        if self.launcher == "paddle" and (problem := _paddle_problem(self)):
            raise ValueError(problem)
        for path in (self.workdir, self.checkpoint_dir, self.script):
            if path is not None and not path.startswith("/"):
                raise ValueError(f"job: {path!r} is not an absolute path on the node; write e.g. /fsx/{path}")

    @property
    def argv(self) -> tuple[str, ...]:
        """The command as argv (shell words of `command`, or the script alone)."""
        return (self.script,) if self.script else tuple(shlex.split(self.command or ""))


def _paddle_problem(job: JobConfig) -> str | None:
    """What `paddle.distributed.launch` cannot run of `job` (one line naming the field), or None."""
    if job.module:
        return "job.module: paddle.distributed.launch runs a training script, not a module; remove module"
    if job.script is not None:
        return "job.script: paddle.distributed.launch runs a Python training script; give it as job.command"
    if job.min_nodes is not None:
        return (
            "job.min_nodes: paddle.distributed.launch with an HTTP master runs a fixed number of nodes (elastic "
            "membership needs etcd); remove min_nodes or use launcher: torchrun"
        )
    return None

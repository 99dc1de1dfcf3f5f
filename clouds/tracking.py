"""MLflow tracking of a job (`job.tracking`), pure: which URI the training environment gets.

`{mlflow: URI}` gives the training processes `MLFLOW_TRACKING_URI=URI` on every platform and
on VM stacks (the node agent's environment). `{mlflow: managed}` asks for the platform's own
tracking server: an Azure ML job already runs with its workspace's MLflow tracking URI set
(Azure ML docs, "Configure MLflow for Azure Machine Learning": jobs get the workspace's
tracking URI automatically), so nothing is added there; on SageMaker the pool creates a
SageMaker managed MLflow tracking server and the job gets its ARN (`clouds.aws.sagemaker`);
on a VM stack the head node runs one, with its artifacts in the dataset's bucket
(`clouds.mlflow_head`), where the cloud supports it; elsewhere `managed` is refused in one line
naming the field.
"""

from __future__ import annotations

import re

from pydantic import BaseModel, ConfigDict, Field, field_validator

from clouds.platform_lookup import named

MANAGED = "managed"
# What an MLflow tracking URI may be (MLflow docs, "Where runs are recorded"): an HTTP(S)
# server, a Databricks workspace, a local or mounted path, or a platform's own scheme
# (`azureml://`, a SageMaker tracking server's ARN).
# A URI with user information (`https://USER:PASSWORD@HOST`, or a token as the user), which
# MLflow would send as basic auth: credentials belong in MLflow's own variables
# (MLFLOW_TRACKING_USERNAME / MLFLOW_TRACKING_PASSWORD or MLFLOW_TRACKING_TOKEN, MLflow docs,
# "Authentication") given as secrets (`clouds.job_secrets`), never in the stack file.
_CREDENTIALS = re.compile(r"^[a-z][a-z0-9+.-]*://[^/?#@\s]*@", re.I)
_URI = re.compile(r"^(https?://\S+|databricks(://\S*)?|file:/\S*|azureml://\S+|arn:[\w-]+:sagemaker:\S+)$")


class TrackingConfig(BaseModel):
    """The job's MLflow tracking.

    Attributes:
        mlflow: the tracking URI (`https://mlflow.example.com`, `databricks`, a SageMaker
            tracking server's ARN), or `managed` for the platform's own server.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    mlflow: str = Field(min_length=1, description="MLflow tracking URI, or managed.")

    @field_validator("mlflow")
    @classmethod
    def _uri(cls, value: str) -> str:
        value = value.strip()
        if _CREDENTIALS.match(value):  # never echoed: the error line would carry the password
            raise ValueError(
                "job.tracking.mlflow: the URI carries credentials (user:password@), which would be written in plain "
                "text into the stack file and the nodes' environment; give the URI without them and the credentials "
                "as job.env: {MLFLOW_TRACKING_USERNAME: NAME, MLFLOW_TRACKING_PASSWORD: {secret: KEY}}"
            )
        if value != MANAGED and not _URI.match(value):
            raise ValueError(
                f"job.tracking.mlflow: '{value}' is not an MLflow tracking URI; write https://HOST[:PORT], "
                "databricks, file:/PATH, or managed (the platform's own server)"
            )
        return value


def tracking_problem(
    tracking: TrackingConfig | None, platform: str | None, provider: str | None = None, data_source: str | None = None
) -> str | None:
    """Why `tracking` cannot be honoured on `platform` (None: the cloud's VMs), or None.

    Args:
        provider, data_source: on a VM stack, the cloud and the dataset's URI: `managed` runs a
            server on the head node (`clouds.mlflow_head`) with its artifacts in that bucket.
    """
    found = named(platform)
    if (
        tracking is None
        or tracking.mlflow != MANAGED
        or (found is not None and (found.own_mlflow or found.managed_mlflow))
    ):
        return None
    if platform is None and provider is not None:
        return head_server_problem(provider, data_source)
    where = f"on {platform}" if platform else "on a VM stack (a server on the head node)"
    return (
        f"job.tracking.mlflow: managed: trainstack creates no MLflow tracking server {where} yet; "
        "give the server's URI instead (job.tracking: {mlflow: https://...})"
    )


def head_server_problem(provider: str, data_source: str | None) -> str | None:
    """Why the head node of `provider`'s VM stack cannot run the MLflow server for `managed`
    (its cloud keeps no artifacts for it yet, or no dataset names the team's bucket), or None."""
    from clouds.data import link_for
    from clouds.registry import CLOUDS

    link = link_for(provider)
    if link is None or not hasattr(link, "mlflow_artifacts"):
        served = sorted(name for name in CLOUDS if hasattr(link_for(name), "mlflow_artifacts"))
        return (
            f"job.tracking.mlflow: managed: trainstack runs an MLflow server on the head node of "
            f"{', '.join(served)} VM stacks only, not {provider} yet; give the server's URI instead "
            "(job.tracking: {mlflow: https://...})"
        )
    if data_source is None or not link.owns(data_source):
        return (
            "job.tracking.mlflow: managed: the head's MLflow server keeps its artifacts in the team's bucket, "
            f"the dataset's; add data: {{source: {link.SCHEME}://BUCKET/PREFIX}} or give the server's URI"
        )
    return None


def tracking_env(tracking: TrackingConfig | None, platform: str | None) -> dict[str, str]:
    """The training environment's `MLFLOW_TRACKING_URI`, or {} (no tracking, or a platform that
    sets its own)."""
    if tracking is None or tracking.mlflow == MANAGED:
        return {}
    return {"MLFLOW_TRACKING_URI": tracking.mlflow}

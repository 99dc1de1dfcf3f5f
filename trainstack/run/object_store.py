"""Where a platform that runs code from its cloud's object store finds the job's code and keeps
its checkpoints and logs: `job.code`, a folder on that store (`obs://` on ModelArts, `oss://` on
PAI-DLC, `cos://` on TI-ONE). Checkpoints and logs go beside it in the same bucket, under
`trainstack/<cluster>/`, as SageMaker's go under the pool bucket's `checkpoints/<cluster>/`.
"""

from __future__ import annotations

from dataclasses import dataclass

from clouds.platform_job import code_problem, image_problem
from trainstack.run import RunError


@dataclass(frozen=True)
class StorePlace:
    """A folder on an object store: `scheme://bucket/prefix` (prefix "" or ending in `/`)."""

    scheme: str
    bucket: str
    prefix: str

    def uri(self, path: str = "") -> str:
        """`scheme://bucket/prefix<path>`."""
        return f"{self.scheme}://{self.bucket}/{self.prefix}{path}"

    def path(self, path: str = "") -> str:
        """`/bucket/prefix<path>`: the form ModelArts' OBS fields take."""
        return f"/{self.bucket}/{self.prefix}{path}"

    def beside(self, name: str, what: str) -> StorePlace:
        """The folder `trainstack/<name>/<what>/` in the same bucket."""
        return StorePlace(self.scheme, self.bucket, f"trainstack/{name}/{what}/")


def parse(uri: str, scheme: str, field: str, platform: str) -> StorePlace:
    """`uri` as a folder of `scheme`'s store.

    Raises:
        RunError: not a `scheme://BUCKET/...` URI (one line naming `field`).
    """
    head = f"{scheme}://"
    bucket, _, prefix = uri.removeprefix(head).partition("/")
    if not uri.startswith(head) or not bucket:
        raise RunError(f"{field}: {uri} is not a {head}BUCKET/PATH/ folder; {platform} reads it from its own store")
    prefix = prefix.strip("/")
    return StorePlace(scheme, bucket, f"{prefix}/" if prefix else "")


def code_place(job, scheme: str, platform: str) -> StorePlace:
    """The job's code folder (`job.code`).

    Raises:
        RunError: no `job.code`, or one on another store.
    """
    if problem := code_problem(job.code, scheme, platform):  # the rule resolve and plan check too
        raise RunError(problem)
    return parse(job.code, scheme, "job.code", platform)


def image_of(job, platform: str, what: str) -> str:
    """The job's `job.image` (what the platform calls it: `what`).

    Raises:
        RunError: none given (trainstack does not guess a platform's image versions).
    """
    if not job.image:
        raise RunError(image_problem(platform, what))
    return str(job.image)

"""API keys from environment variables, for the signed price APIs of the China clouds.

Shared by the Alibaba, Tencent, Baidu, Huawei and Volcengine fetchers. Each names its own
variables (the ones its official SDK reads) and the fix; a missing key becomes a one-line
`FetchError` that names those variables. Secrets are never printed.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import ClassVar, TypeVar

from profiles.catalog.fetchers import FetchError

Pair = TypeVar("Pair", bound="KeyPair")


@dataclass(frozen=True)
class KeyPair:
    """An access key ID and its secret (the secret is never printed).

    Attributes:
        key_id: the public half (AccessKey ID, SecretId, AK).
        secret: the private half (AccessKey secret, SecretKey, SK).
    """

    key_id: str
    secret: str
    # What a cloud's subclass declares for `read_env` (see `from_env` for each one's meaning).
    ENV: ClassVar[tuple[str, str]] = ("", "")
    NEED: ClassVar[str] = ""
    WHO: ClassVar[str] = ""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(key_id={self.key_id!r}, secret=***)"

    @classmethod
    def from_env(
        cls: type[Pair], id_env: str, secret_env: str, *, need: str, who: str, environ: Mapping[str, str] = os.environ
    ) -> Pair:
        """The pair from the variables `id_env` and `secret_env` (surrounding blanks dropped).

        Args:
            id_env: variable holding the key ID (`ALIBABA_CLOUD_ACCESS_KEY_ID`).
            secret_env: variable holding the secret (`ALIBABA_CLOUD_ACCESS_KEY_SECRET`).
            need: start of the message, e.g. "Alibaba Cloud prices need an AccessKey".
            who: what the key must be allowed, e.g. "a RAM user allowed ecs:DescribePrice".
            environ: the environment to read (default: `os.environ`).

        Returns:
            The pair, as an instance of the class it is called on.

        Raises:
            FetchError: either variable is missing, empty or blank; the message names both
                (`<need>: set <id_env> and <secret_env> (<who>)`).
        """
        values, missing = _read((id_env, secret_env), environ, strip=True)
        if missing:
            raise FetchError(f"{need}: set {id_env} and {secret_env} ({who})")
        return cls(*values)

    @classmethod
    def read_env(cls: type[Pair], environ: Mapping[str, str] = os.environ) -> Pair:
        """`from_env` with the class's own `ENV` (key ID and secret variables), `NEED` and `WHO`.

        Raises:
            FetchError: either variable is missing, empty or blank (the message names both).
        """
        return cls.from_env(*cls.ENV, need=cls.NEED, who=cls.WHO, environ=environ)


def env_values(
    names: Sequence[str], what: str, hint: str = "", environ: Mapping[str, str] = os.environ
) -> tuple[str, ...]:
    """The values of the variables `names`, in order, as set (not stripped).

    Args:
        names: the variables, e.g. ("VOLCENGINE_ACCESS_KEY", "VOLCENGINE_SECRET_KEY").
        what: what they hold, for the message ("Volcengine credentials").
        hint: what the values are, appended in brackets when given.
        environ: the environment to read (default: `os.environ`).

    Returns:
        One value per name.

    Raises:
        FetchError: one or more is unset or empty; the message names only those
            (`<what> missing: set <names> (<hint>)`).
    """
    values, missing = _read(names, environ, strip=False)
    if missing:
        raise FetchError(f"{what} missing: set {', '.join(missing)}" + (f" ({hint})" if hint else ""))
    return values


def _read(names: Sequence[str], environ: Mapping[str, str], *, strip: bool) -> tuple[tuple[str, ...], list[str]]:
    """(values, names of the unset or empty ones); blank counts as empty when `strip`."""
    values = tuple(environ.get(name, "").strip() if strip else environ.get(name, "") for name in names)
    return values, [name for name, value in zip(names, values, strict=False) if not value]

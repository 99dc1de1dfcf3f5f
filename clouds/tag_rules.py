"""Each cloud's documented limits on the stack's own tags (labels on GCP), checked in one line.

A tag the cloud refuses fails `pulumi up` halfway through, after other resources were made;
`plan` and `resolve` refuse it first. Each cloud declares its `TagRules` in its own validator module (`TAG_RULES`), from the cloud's
own documentation:
- AWS ("Tag restrictions", e.g. docs.aws.amazon.com/batch/latest/userguide/tag-restrictions.html):
  50 tags per resource, key 1-128 and value 0-256 Unicode characters, letters, digits, spaces
  and `+ - = . _ : / @`, no `aws:` prefix (any case) on a key or a value.
- Azure (learn.microsoft.com/azure/azure-resource-manager/management/tag-resources#limitations):
  50 tags per resource, name 1-512 characters (128 on storage accounts, which trainstack's
  Azure clusters use for Managed Lustre's blob link: so 128), value 0-256, no `< > % & \\ ? /`
  in a name, no `microsoft`, `azure` or `windows` prefix on a name.
- GCP ("Requirements for labels", cloud.google.com/compute/docs/labeling-resources):
  64 labels per resource, key 1-63 and value 0-63 characters, lowercase letters (of any
  script: "international characters are allowed"), digits, `_` and `-`, key starting with a
  lowercase letter (`clouds.gcp.labels.LabelText`).
The Chinese clouds' older checks sit beside their components (`clouds/<cloud>/validate.py`,
`tags.py`: Alibaba, Tencent, Huawei, Volcengine); Baidu's are not in the docs trainstack has.
trainstack adds two tags of its own (`clouds.common.cluster_tags`), counted against the limit.
A stack on a managed platform is held to its cloud's rules wherever the pool's resources carry
the tags (each platform's `validate_pool`): SageMaker and HyperPod AWS's, Azure ML Azure's, PAI
Lingjun Alibaba's, TI-ONE Tencent's, ModelArts the TMS rules its SDK states
(`clouds.huaweicloud.modelarts.TMS_TAG_RULES`). PAI-DLC's workspace takes no tags, so a PAI
stack with `tags:` is refused rather than its tags dropped.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

OWN_TAGS = 2  # trainstack:cluster and trainstack:provider


class Matcher(Protocol):
    """What a whole key or value may be: a compiled regular expression, or an object with the
    same `fullmatch` where `re` cannot say it (GCP's Unicode letter classes)."""

    def fullmatch(self, text: str, /) -> object: ...


@dataclass(frozen=True)
class TagRules:
    """One cloud's limits on a resource's tags.

    Attributes:
        cloud: display name for messages.
        max_tags: tags per resource, trainstack's own included.
        key_chars, value_chars: longest key and value, characters.
        key, value: what a whole key or value may be (regular expressions).
        allowed: the allowed characters, in words, for the message.
        reserved: prefixes (lowercase) the cloud keeps for itself, on keys.
        reserved_values: whether `reserved` applies to values too (AWS).
    """

    cloud: str
    max_tags: int
    key_chars: int
    value_chars: int
    key: Matcher
    value: Matcher
    allowed: str
    reserved: tuple[str, ...] = ()
    reserved_values: bool = False


# trainstack's own tags (`clouds.common.cluster_tags`), in every spelling a cloud turns them into
# (`trainstack-cluster` on GCP, Huawei and Baidu): the stack's tags come last and would replace
# them, and `run` and `status` find the nodes by `trainstack:cluster` (AWS Run Command targets,
# EC2 and Azure tag filters).
OWN_TAG_KEYS = ("trainstack:cluster", "trainstack:provider")


def own_tag_problem(tags: Mapping[str, str]) -> str | None:
    """Why the stack's `tags` may not hold one of trainstack's own keys, or None."""
    own = {re.sub(r"[^a-z0-9]", "-", key): key for key in OWN_TAG_KEYS}
    for key in tags:
        if (mine := own.get(re.sub(r"[^a-z0-9]", "-", key.strip().lower()))) is not None:
            return (
                f"tags: {key!r} is trainstack's own tag {mine} (the cluster's name and cloud; `run` and `status` "
                "find the nodes by it), which a stack tag would replace; remove it or use another key"
            )
    return None


def tag_problem(rules: TagRules, tags: Mapping[str, str]) -> str | None:
    """Why `tags` (the stack's own) break `rules` (one line naming the tag and the fix), or None."""
    if len(tags) + OWN_TAGS > rules.max_tags:
        return (
            f"tags: {len(tags)} tags; {rules.cloud} allows {rules.max_tags} per resource and trainstack "
            f"adds {OWN_TAGS}, so give at most {rules.max_tags - OWN_TAGS}"
        )
    for key, value in tags.items():
        if not 1 <= len(key) <= rules.key_chars:
            return f"tags: key {key[:40]!r} must be 1-{rules.key_chars} characters on {rules.cloud}; shorten it"
        if len(value) > rules.value_chars:
            return f"tags: {key}: the value is {len(value)} characters, {rules.cloud} allows {rules.value_chars}; shorten it"
        for text, what, pattern in ((key, "key", rules.key), (value, "value", rules.value)):
            if not pattern.fullmatch(text):
                return f"tags: {what} {text!r} has a character {rules.cloud} refuses; use {rules.allowed}"
            checked = what == "key" or rules.reserved_values
            if checked and (prefix := next((p for p in rules.reserved if text.lower().startswith(p)), None)):
                return f"tags: {what} {text!r} starts with {prefix}, which {rules.cloud} reserves for itself; rename it"
    return None

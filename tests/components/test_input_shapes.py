"""Every resource input of every committed stack's plan, held against the provider SDK's own
generated input types (`*Args` classes of pulumi_aws, pulumi_azure_native, pulumi_gcp,
pulumi_tls and the Chinese clouds' packages; our own dynamic providers for Baidu): an
unknown key, a wrong nesting (an object where the SDK wants a list, or the reverse) or a
missing required key fails, naming the resource and the input path."""

from __future__ import annotations

import functools
import importlib
import inspect
import os
import re
from pathlib import Path
from typing import Any

import pytest

from trainstack.plan.runner import run_plan

ROOT = Path(__file__).resolve().parents[2]
STACKS = sorted(p.name.removeprefix("Pulumi.").removesuffix(".yaml") for p in (ROOT / "stacks").glob("Pulumi.*.yaml"))
# type-token package -> the Python SDK module that generates it.
SDKS = {
    "aws": "pulumi_aws",
    "azure-native": "pulumi_azure_native",
    "gcp": "pulumi_gcp",
    "tls": "pulumi_tls",
    "alicloud": "pulumi_alicloud",
    "tencentcloud": "tencentcloud_iac_pulumi",
    "huaweicloud": "pulumi_huaweicloud",
    "volcengine": "pulumi_volcengine",
}
DYNAMIC = "pulumi-python:dynamic/"
_FORWARD = re.compile(r"ForwardRef\('(\w+Args)'\)")


@functools.cache
def _sdk_files(package: str) -> dict[str, list[Path]]:
    """File stem without underscores -> the SDK's files of that name (one walk per SDK)."""
    root = Path(importlib.import_module(SDKS[package]).__file__).parent
    found: dict[str, list[Path]] = {}
    for folder, _, names in os.walk(root):
        for name in names:
            if name.endswith(".py"):
                found.setdefault(name[:-3].replace("_", ""), []).append(Path(folder, name))
    return found


@functools.cache
def args_class(token: str) -> type:
    """The `*Args` class of a resource type token, found in the file that registers the token
    (`FooInitArgs` where the SDK renames it to avoid a clash with a nested type, else `FooArgs`)."""
    package, _, name = token.split(":")
    root = Path(importlib.import_module(SDKS[package]).__file__).parent
    for path in sorted(_sdk_files(package).get(name.lower(), [])):
        if f"'{token}'" in path.read_text():
            module = importlib.import_module(".".join(path.relative_to(root.parent).with_suffix("").parts))
            return next(getattr(module, n) for n in (f"{name}InitArgs", f"{name}Args") if hasattr(module, n))
    raise AssertionError(f"{token}: no SDK file registers this type")


@functools.cache
def fields(cls: type) -> dict[str, tuple[bool, str, type | None]]:
    """wire name -> (required, shape `one`/`list`/`map`, nested Args class or None; None too
    where the SDK also takes a plain string, e.g. an IAM policy as JSON text)."""
    params = inspect.signature(cls.__init__).parameters
    module = importlib.import_module(cls.__module__)
    found = {}
    for attr, prop in vars(cls).items():
        if not isinstance(prop, property) or not hasattr(prop.fget, "_pulumi_name"):
            continue
        text = str(prop.fget.__annotations__.get("return", ""))
        match = _FORWARD.search(text)
        members = tuple(dict.fromkeys(_FORWARD.findall(text)))
        nested = getattr(module, match.group(1)) if match else None
        if len(members) > 1:  # a union of input types (AmlCompute | AKS | ...): any member may fit
            nested = _Union(tuple(getattr(module, name) for name in members))
        head = text[: match.start()] if match else text
        if nested is not None and re.search(r"Union\[str, ", text):
            nested = None  # a string or an object: either is a valid value
        shape = "list" if "Sequence[" in head else "map" if "Mapping[" in head else "one"
        required = attr in params and params[attr].default is inspect.Parameter.empty
        found[prop.fget._pulumi_name] = (required, shape, nested)
    return found


class _Union(tuple):
    """The member input types of a union-typed input (the SDK's discriminated unions)."""

    @property
    def __name__(self) -> str:  # noqa: D401 (a name, for messages)
        return " | ".join(member.__name__ for member in self)


def problems(cls: Any, value: Any, path: str) -> list[str]:
    """Where `value` (wire-format inputs) disagrees with the input type `cls` (for a union,
    with every member: none when one member fits, else the first member's problems)."""
    if isinstance(cls, _Union):
        found = [problems(member, value, path) for member in cls]
        return [] if any(not p for p in found) else found[0]
    if not isinstance(value, dict):
        return [f"{path}: an object ({cls.__name__}) expected, got {type(value).__name__}"]
    spec = fields(cls)
    found = [
        f"{path}.{key}: unknown key for {cls.__name__}" for key in value if key not in spec and not key.startswith("__")
    ]
    found += [
        f"{path}.{key}: required by {cls.__name__}, missing"
        for key, (required, _, _) in spec.items()
        if required and key not in value
    ]
    for key, item in value.items():
        if key not in spec or spec[key][2] is None or item is None:
            continue
        _, shape, nested = spec[key]
        if shape == "list":
            if not isinstance(item, list):
                found.append(f"{path}.{key}: a list of {nested.__name__} expected, got {type(item).__name__}")
                continue
            found += [p for i, element in enumerate(item) for p in problems(nested, element, f"{path}.{key}[{i}]")]
        elif shape == "map":
            found += [p for k, element in item.items() for p in problems(nested, element, f"{path}.{key}.{k}")]
        else:
            found += problems(nested, item, f"{path}.{key}")
    return found


def dynamic_problems(record: dict[str, Any]) -> list[str]:
    """A dynamic resource (Baidu's, the ModelArts pool's) against its own provider's declared
    inputs (`INPUTS`, `REQUIRED`); the provider is `<Kind>Provider` in `components.<cloud>`."""
    cloud, kind = record["type"].removeprefix(DYNAMIC).split(":")
    provider = next(p for p in _dynamic_providers(cloud) if p.__name__ == f"{kind}Provider")
    inputs = {k: v for k, v in record["inputs"].items() if not k.startswith("__")}
    found = [f"{key}: unknown key for {provider.__name__}" for key in inputs if key not in provider.INPUTS]
    found += [
        f"{key}: required by {provider.__name__}, missing" for key in provider.REQUIRED if inputs.get(key) is None
    ]
    return found


def _dynamic_providers(cloud: str) -> list[type]:
    from pulumi.dynamic import ResourceProvider

    package = importlib.import_module(f"components.{cloud}")
    root = Path(package.__file__).parent
    for path in root.glob("*.py"):
        importlib.import_module(f"components.{cloud}.{path.stem}")
    return _subclasses(ResourceProvider)


def _subclasses(cls: type) -> list[type]:
    return [sub for direct in cls.__subclasses__() for sub in (direct, *_subclasses(direct))]


@pytest.mark.parametrize("stack", STACKS)
def test_every_input_matches_the_sdk_input_types(stack):
    resources = run_plan(stack, ROOT, priced=False).resources
    found = []
    for record in resources:
        token = record["type"]
        if token.startswith("trainstack:"):
            continue
        if token.startswith(DYNAMIC):
            found += [f"{record['name']}: {p}" for p in dynamic_problems(record)]
            continue
        found += [f"{record['name']}: {p}" for p in problems(args_class(token), record["inputs"], token)]
    assert found == []


def test_the_checker_catches_an_unknown_key_a_wrong_nesting_and_a_missing_key():
    cls = args_class("aws:ec2/launchTemplate:LaunchTemplate")
    bad = {
        "networkInterfaces": {"deviceIndex": 0},
        "metadataOptions": {"httpTokenz": "required"},
        "tagSpecifications": [{"tags": {}}],
        "imageIdd": "ami-1",
    }
    found = problems(cls, bad, "lt")
    assert "lt.imageIdd: unknown key for LaunchTemplateArgs" in found
    assert "lt.metadataOptions.httpTokenz: unknown key for LaunchTemplateMetadataOptionsArgs" in found
    assert any(
        p.startswith("lt.networkInterfaces: a list of LaunchTemplateNetworkInterfaceArgs expected") for p in found
    )
    instance = args_class("aws:ec2/subnet:Subnet")
    assert "s.vpcId: required by SubnetArgs, missing" in problems(instance, {}, "s")

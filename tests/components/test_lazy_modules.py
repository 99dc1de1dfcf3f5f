"""The Pulumi SDKs' lazy submodules are safe to touch from two threads at once
(`components.lazy_modules`, CPython gh-114763): a second thread waits for the module's code
instead of finding it half-built (`module 'pulumi_aws.ec2' has no attribute 'LaunchTemplate'`)."""

from __future__ import annotations

import importlib.util
import sys
import threading

import pytest

import components.lazy_modules as lazy_modules


def _lazy(tmp_path, name: str):
    """A lazily loaded module whose code takes 0.3 s before it defines `LAST`."""
    (tmp_path / f"{name}.py").write_text("import time\nFIRST = 1\ntime.sleep(0.3)\nLAST = 2\n")
    spec = importlib.util.spec_from_file_location(name, tmp_path / f"{name}.py")
    assert spec is not None and spec.loader is not None
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def test_a_second_thread_waits_for_the_module_code_to_finish(tmp_path):
    lazy_modules.install((3, 11, 7))  # what this project supports from: 3.10 on
    module = _lazy(tmp_path, "trainstack_lazy_probe")
    try:
        seen: dict[str, object] = {}
        first = threading.Thread(target=lambda: seen.setdefault("first", module.FIRST))
        first.start()
        while "time" not in object.__getattribute__(module, "__dict__"):  # the first thread runs its code
            pass
        try:
            seen["second"] = module.LAST
        except AttributeError as exc:  # the half-built module Python < 3.12.3 showed
            seen["second"] = exc
        first.join(5)
        assert seen == {"first": 1, "second": 2}
        assert type(module) is type(sys)  # loaded: a plain module again, no lock on later reads
    finally:
        sys.modules.pop("trainstack_lazy_probe", None)


@pytest.mark.parametrize(("version", "installed"), [((3, 11, 7), True), ((3, 12, 2), True), ((3, 12, 3), False)])
def test_installed_only_before_python_3_12_3(version, installed):
    assert lazy_modules.install(version) is installed

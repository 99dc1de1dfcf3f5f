"""Thread-safe lazy modules on Python before 3.12.3 (CPython gh-114763), for the Pulumi SDKs.

Every Pulumi provider SDK (`pulumi_aws`, `pulumi_gcp`, ...) makes its submodules lazy
(`importlib.util.LazyLoader`): `pulumi_aws.ec2` is loaded on its first attribute access. Up to
Python 3.12.2 that first access switches the module to a plain module *before* running its
code, so another thread touching it meanwhile finds it half-built: `module 'pulumi_aws.ec2'
has no attribute 'LaunchTemplate'`. A Pulumi program has such threads: the SDK registers
resources from a thread pool while the program goes on (a plan under mocks and a real
`pulumi up` alike). Python 3.12.3 fixed it with a lock per module, holding other threads until
the module's code has run; `install()` puts the same fix in place on older interpreters.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
from typing import Any

_FIXED_IN = (3, 12, 3)
_LAZY_MODULE: Any = importlib.util._LazyModule  # type: ignore[attr-defined]  # what `LazyLoader` makes
_LOCKS = threading.Lock()  # guards the creation of each module's own lock


def _module_lock(state: dict[str, Any]) -> threading.RLock:
    with _LOCKS:
        if "lock" not in state:
            state["lock"] = threading.RLock()
            state["is_loading"] = False
        return state["lock"]  # type: ignore[no-any-return]


def _getattribute(self: Any, attr: str) -> Any:
    """Python 3.12.3's `_LazyModule.__getattribute__`: load once, under the module's lock, and
    show the module as loaded only when its code has run."""
    spec = object.__getattribute__(self, "__spec__")
    state = spec.loader_state
    with _module_lock(state):
        if object.__getattribute__(self, "__class__") is _LAZY_MODULE:
            loaded_class = state["__class__"]
            if state["is_loading"]:  # the loading thread itself, from the module's own code
                return loaded_class.__getattribute__(self, attr)
            state["is_loading"] = True
            attrs_now = loaded_class.__getattribute__(self, "__dict__")
            attrs_then = state["__dict__"]
            updated = {k: v for k, v in attrs_now.items() if k not in attrs_then or v is not attrs_then[k]}
            spec.loader.exec_module(self)
            name = spec.name
            if name in sys.modules and sys.modules[name] is not self:
                raise ValueError(f"module object for {name!r} substituted in sys.modules during a lazy load")
            attrs_now.update(updated)
            self.__class__ = loaded_class
    return getattr(self, attr)


def install(version: tuple[int, ...] = tuple(sys.version_info[:3])) -> bool:
    """Put the fix in place when `version` (this interpreter's) predates it; True when installed.
    Idempotent."""
    if version >= _FIXED_IN:
        return False
    _LAZY_MODULE.__getattribute__ = _getattribute
    return True


install()

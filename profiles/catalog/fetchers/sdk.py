"""The China clouds' official SDKs, imported only when a price refresh calls them.

They come with the `[china]` extra (`pip install 'trainstack[china]'`); resolving never
imports them. A missing one is a one-line `FetchError` naming the API and the fix.
"""

from __future__ import annotations

import importlib
from types import ModuleType

from profiles.catalog.fetchers import FetchError

EXTRA = "pip install 'trainstack[china]'"


def load(module: str, package: str, api: str) -> ModuleType:
    """The SDK module `module` (`tencentcloud.cvm.v20170312.cvm_client`), imported now.

    Args:
        module: dotted module name.
        package: the PyPI package that ships it, for the message.
        api: the API that needs it, for the message ("Tencent Cloud CVM API").

    Raises:
        FetchError: the SDK is not installed (`<api> needs the official SDK <package>: pip install ...`).
    """
    try:
        return importlib.import_module(module)
    except ImportError:
        raise FetchError(f"{api} needs the official SDK {package}, which is not installed: {EXTRA}") from None

"""The Pulumi side: one ComponentResource per cloud and platform (`components.registry`)."""

# Before any cloud's SDK is loaded: its lazy submodules made safe to touch from the Pulumi SDK's
# threads (CPython gh-114763; a no-op from Python 3.12.3).
from components import lazy_modules as _lazy_modules  # noqa: F401

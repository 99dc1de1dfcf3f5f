"""Huawei Cloud GPU cluster component and its pure helpers.

The component lives in `components.huaweicloud.cluster` (imported lazily by the registry);
this package imports nothing, so the pure helpers load without pulumi_huaweicloud.
"""

import warnings

# pulumi_huaweicloud (0.x) imports the deprecated `pkg_resources`, whose UserWarning would print
# on every `trainstack plan` / `pulumi preview` of a Huawei stack and says nothing a user can act
# on (setuptools stays pinned below 81 so the module still exists).
warnings.filterwarnings("ignore", message="pkg_resources is deprecated as an API", category=UserWarning)

"""The fuzz properties live in a helper module (`contract.py`); its assertions are rewritten
as a test module's are, so a failure shows the values."""

import pytest

pytest.register_assert_rewrite("tests.fuzz.contract")

"""The combat resolver tests need no database and no Django: run them with ``-p no:django``.

The project conftest has an autouse fixture that needs pytest-django's ``settings``; this no-op of
the same name replaces it here, so these tests run with or without the plugin.
"""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _fast_hashing():
    return None

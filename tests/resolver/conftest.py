from __future__ import annotations

import pytest

from tests.resolver.factories import make_chart


@pytest.fixture
def charts(db):
    """The 2nd and 3rd edition weapons charts the calculators read (a few weapons each)."""
    return {"v2": make_chart("v2"), "v3": make_chart("v3")}

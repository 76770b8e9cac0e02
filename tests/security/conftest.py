from __future__ import annotations

import pytest

from tests.lists.factories import make_builder_list
from tests.resolver.factories import make_chart


@pytest.fixture(autouse=True)
def _rate_limits_on(settings):
    settings.RATELIMIT_ENABLE = True  # tests/conftest.py turns them off for every other test


@pytest.fixture
def charts(db):
    return {"v2": make_chart("v2"), "v3": make_chart("v3")}


@pytest.fixture
def army_list(alice):
    return make_builder_list(alice, entries=2)

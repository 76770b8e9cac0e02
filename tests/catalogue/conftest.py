"""Fixtures of the catalogue tests."""

from __future__ import annotations

import pytest

from tests.builtin_data import module_data
from tests.catalogue.own_units import V3_GENERIC

v3_generic = module_data(*V3_GENERIC)


@pytest.fixture
def v3(v3_generic, db):
    """The v3 reference and its Generic army, loaded once for the module: the army."""
    from armybuilder.catalogue.models import Army

    return Army.objects.get(edition__slug="v3", slug="generic")

"""Fixtures of the catalogue tests."""

from __future__ import annotations

import pytest

from tests.catalogue.own_units import load_v3_generic


@pytest.fixture
def v3(db):
    """The v3 reference and its Generic army, loaded from the fixtures: the army."""
    return load_v3_generic()

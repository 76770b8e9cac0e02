"""Fixtures for the importer tests, which run without Django (``-p no:django``).

The project-wide ``tests/conftest.py`` has an autouse fixture that asks for pytest-django's
``settings``. The parsing layer never touches Django, so here a plain namespace stands in for
it: the autouse fixture can set its attributes and nothing else notices.
"""

from __future__ import annotations

import types

import pytest


@pytest.fixture
def settings():
    return types.SimpleNamespace()

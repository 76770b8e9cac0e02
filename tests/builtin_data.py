"""The built-in fixtures loaded once for a test module, as a module-scoped pytest fixture.

Loading the 2nd-edition catalogue takes seconds (Django's ``loaddata`` saves row by row), and a
module's tests only read it: each test still runs in its own transaction on top of the loaded
rows, so what a test writes is rolled back, and the rows are removed when the module ends, so the
next module starts from an empty database as every other test expects.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

FIXTURES = Path(settings.BASE_DIR) / "fixtures"

# The German list, French names and language tests read the 2nd-edition reference and Barracks'
# nations.
V2_NATIONS = ("00_editions.json", "20_v2_reference.json", "55_catalogue_v2_barracks.json")


def module_data(*names: str, reference: bool = False):
    """A module-scoped fixture loading ``names`` from fixtures/, or everything ``load_reference_data``
    loads when ``reference`` is set (its own checks and aliases included)."""

    @pytest.fixture(scope="module")
    def loaded(django_db_setup, django_db_blocker):
        from armybuilder.catalogue.models import Army
        from armybuilder.reference.models import Edition

        with django_db_blocker.unblock():
            if reference:
                call_command("load_reference_data", verbosity=0)
            else:
                call_command("loaddata", *(str(FIXTURES / name) for name in names), verbosity=0)
            yield
            Army.objects.all().delete()  # armies protect their edition, so they go first
            Edition.objects.all().delete()  # cascades to the rules tables, weapons and special rules

    return loaded

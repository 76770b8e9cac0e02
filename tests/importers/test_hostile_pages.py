"""Property: whatever weapons an imported catalogue holds, every page that shows them answers, never a 5xx.

Hypothesis writes 3rd-edition catalogues with odd dice strings, empty profiles, huge numbers,
weapons whose profile is missing, names with mount words and duplicate names (drawn both from
the shapes community files really use and from arbitrary text), imports each, builds a list of
every unit of the army and opens every page that shows the army, its units or the edition's
weapons: the builder, the shared list, print preview, the exports, the roster and cards PDFs,
the odds pages and "What are my odds?" of each unit, the weapons chart and the compare view,
the catalogue API and /about/data/. An import may refuse a file as a whole (a message, no
rows); what it accepts must not be able to break a page. Each example runs in a transaction
that is rolled back, so every example starts from the rulebook data alone.
"""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armybuilder.catalogue.models import Army, Unit
from armybuilder.importers.writer import MAX_UNIT_POINTS, import_files
from armybuilder.reference.models import Weapon
from armydata.safety import CatalogueImportError
from tests.importers.helpers import BATTLESCRIBE
from tests.importers.hostile import SYSTEM, Entry, Profile, UnitSpec, catalogue
from tests.importers.pages import get, list_of_every_unit, load_reference, urls_showing
from tests.lists.factories import make_user

# Text XML 1.0 can carry (no control characters, no surrogates); a file that is not XML at all is
# the parser's business (tests/importers/test_safety.py), not the pages'.
_TEXT = st.text(st.characters(blacklist_categories=("Cs", "Cc")), max_size=24)


def _odd(*examples: str) -> st.SearchStrategy[str]:
    return st.one_of(st.sampled_from(examples), _TEXT)


NAMES = _odd(
    "Rifle",
    "LMG",
    "Front Pintle-mounted LMG",
    "Left Pintle-mounted LMG",
    "Co-axial MMG",
    "Co-axial Flamethrower",
    "Flamethrower",
    "Pintle-mounted",
    "Testgewehr 99",
    "",
    "   ",
    "x" * 300,
)
RANGES = _odd('36"', '12"-60"', '72" (or 36-84)', '6-18"', "", "-", '999999999999"', '60"-12"', '0"', "(or 84-36)")
SHOTS = _odd("1", "4", "D6", "1(D6+1)", "1 (D6 hits)", "2D6", "7D6", "D7+1", "1/2", "", "-", "9" * 60, "3D6+9", "D0")
PENS = _odd("+5", "n/a", "HE", "-", "", "+99999", "+0", "+ 3", "-2")
RULES = _odd('Team, Fixed, HE (2")', 'HE (99")', "Flamethrower", "Assault", "HE(D2)", "", "Team, , ,")

PROFILES = st.builds(Profile, name=NAMES, range=RANGES, shots=SHOTS, pen=PENS, rules=RULES)
ENTRIES = st.builds(
    Entry,
    name=NAMES,
    profiles=st.lists(PROFILES, max_size=3).map(tuple),
    links=st.lists(st.sampled_from(["p-missing", ""]), max_size=1).map(tuple),
)
UNITS = st.builds(
    UnitSpec,
    name=st.sampled_from(["Grenadiers", "Grenadiers", "Testwagen", "Team"]),
    entries=st.lists(ENTRIES, max_size=3).map(tuple),
    damage=st.one_of(st.none(), st.sampled_from(["9+ (Medium tank)", "6+", "", "99999999999+"])),
    cost=st.sampled_from([0, 1, 60, 250, 10**7, 10**15]),
)


@pytest.fixture
def reference(db):
    load_reference()
    return Weapon.objects.filter(edition__slug="v3").rulebook().count()


@settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(units=st.lists(UNITS, min_size=1, max_size=4), pdfs=st.booleans())
def test_no_imported_catalogue_can_make_a_page_fail(client, reference, units, pdfs):
    files = {SYSTEM: (BATTLESCRIBE / SYSTEM).read_bytes(), "hostile.cat": catalogue(units)}
    with transaction.atomic():
        cache.clear()  # kept reference pages belong to the example that rendered them
        try:
            import_files(files)
        except CatalogueImportError:
            transaction.set_rollback(True)
            return
        # The rulebook chart is the rulebook's, whatever the import held, and no unit costs a fortune.
        assert Weapon.objects.filter(edition__slug="v3").rulebook().count() == reference
        assert not Unit.objects.filter(cost_regular__gt=MAX_UNIT_POINTS).exists()
        owner = make_user()
        client.force_login(owner)
        for army in Army.objects.filter(origin="battlescribe"):
            army_list = list_of_every_unit(army, owner)
            for url in urls_showing(army_list, pdfs=pdfs):
                status = get(client, url).status_code
                assert status < 500, (url, status)
        transaction.set_rollback(True)

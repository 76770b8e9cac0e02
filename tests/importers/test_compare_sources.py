"""Two authors, one army: ``compare_sources`` and its staff page list where two sources' numbers differ.

The two sources are test files of Muster's own: the NewRecruit-shaped ``nr3`` data (Testland,
3rd edition) and a small Barracks data set (``data/compare``) imported into the 3rd edition,
which gives the Rifle Squad a different Regular cost and the Medium Mortar Team a different
Veteran cost, and agrees on the Machine Gun Team.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client

from armybuilder.catalogue.models import Unit
from armybuilder.importers.compare import nation_of, unit_key
from armybuilder.importers.writer import import_files
from armybuilder.reference.models import Edition
from tests.importers.test_nr3 import NR3
from tests.importers.test_writer import make_chart

pytestmark = pytest.mark.django_db

COMPARE = Path(__file__).parent / "data" / "compare"
BARRACKS_SOURCE = "Barracks: Bolt Action 2nd Edition (Barracks)"
NR3_SOURCE = "BattleScribe: Bolt Action: Third Edition (Muster test)"


def import_nr3() -> None:
    import_files({path.name: path.read_bytes() for path in NR3.iterdir() if path.suffix in (".gst", ".cat")})


def import_second_source() -> None:
    files = {path.relative_to(COMPARE).as_posix(): path.read_bytes() for path in COMPARE.rglob("*.json")}
    import_files(files, edition="v3")


def compare(*args: str) -> list[str]:
    out = io.StringIO()
    call_command("compare_sources", *args, stdout=out)
    return out.getvalue().splitlines()


@pytest.fixture
def two_sources():
    make_chart("v3")
    import_nr3()
    import_second_source()


def test_the_command_lists_the_two_units_the_sources_disagree_on(two_sources):
    assert compare() == [
        f"Testland, edition v3: Armies of Testland ({BARRACKS_SOURCE}) / Testland (3rd edition) ({NR3_SOURCE})",
        "  3 units in both; 2 disagree",
        "  Rifle Squad: Regular cost 55 / 50",
        "  Medium Mortar Team: Veteran cost 70 / 65",
        "2 units disagree between sources.",
    ]
    assert compare("--edition", "v3") == compare()


def test_sizes_and_the_cost_of_extra_men_are_compared_too(two_sources):
    Unit.objects.filter(army__name="Armies of Testland", name="Rifle Squad").update(max_models=12, per_model_veteran=14)
    assert compare()[2] == "  Rifle Squad: Regular cost 55 / 50; Veteran cost per extra man 14 / 13; most men 12 / 10"


def test_agreeing_sources_say_so(two_sources):
    Unit.objects.filter(army__name="Armies of Testland", name="Rifle Squad").update(cost_regular=50)
    Unit.objects.filter(army__name="Armies of Testland", name="Medium Mortar Team").update(cost_veteran=65)
    assert compare()[1:] == ["  3 units in both; 0 disagree", "The sources agree on every unit they share."]


def test_with_one_source_there_is_nothing_to_compare():
    make_chart("v3")
    make_chart("v2")
    import_nr3()
    nothing = ["Nothing to compare: no army has been imported from two sources (same edition and nation)."]
    assert compare() == nothing
    import_second_source()
    assert compare("--edition", "v2") == nothing


def test_an_unknown_edition_is_refused():
    make_chart("v3")
    with pytest.raises(CommandError, match="no edition 'v9'; the editions are: v3"):
        compare("--edition", "v9")


def test_removed_and_players_own_units_are_not_the_sources_numbers(two_sources):
    Unit.objects.filter(army__name="Armies of Testland", name="Rifle Squad").update(removed=True)
    assert "Rifle Squad" not in "\n".join(compare())


@pytest.mark.parametrize(
    ("name", "nation"),
    [
        ("BA2 - Armies of the  Soviet Union", "Soviet Union"),
        ("Armies of the soviet union", "Soviet Union"),
        ("Germany - Deutsches Afrika Korps - Minimal", "Germany"),
        ("Imperial Japan", "Japan"),
        ("BA2 - Armies of New Zeland", "New Zealand"),
        ("BA2 - Armies of the United States", "United States"),
        ("US", "United States"),
        ("Armies of Testland", "Testland"),
        ("Testland (3rd edition)", "Testland"),
    ],
)
def test_the_nation_is_read_from_the_armys_name(name, nation):
    assert nation_of(name) == nation


def test_units_match_by_name_whatever_the_spelling():
    assert unit_key("LMG Team") == unit_key("Light machine-gun team") == unit_key("LMG Team (late war)")
    assert unit_key("Aufklärer") == unit_key("aufklarer")


def staff_client() -> Client:
    client = Client()
    client.force_login(get_user_model().objects.create_user(username="quartermaster", password=None, is_staff=True))
    return client


def test_the_page_lists_the_disagreements_unit_by_unit(two_sources):
    page = " ".join(staff_client().get("/catalogue/import/compare/").content.decode().split())
    assert "2 units disagree between sources." in page and "3 units in both; 2 disagree." in page
    assert f'<th scope="col">{BARRACKS_SOURCE}</th><th scope="col">{NR3_SOURCE}</th>' in page
    rows = [
        '<th scope="row" rowspan="1">Rifle Squad</th> <td>Regular cost</td><td>55</td><td>50</td>',
        '<th scope="row" rowspan="1">Medium Mortar Team</th> <td>Veteran cost</td><td>70</td><td>65</td>',
    ]
    assert all(row in page for row in rows)
    assert "Machine Gun Team" not in page
    assert "<h2>Testland · Edition v3</h2>" in page


def test_the_page_has_an_empty_state_and_speaks_french():
    make_chart("v3")
    client = staff_client()
    page = client.get("/catalogue/import/compare/?edition=v3").content.decode()
    assert "Nothing to compare: no army has been imported from two sources" in page
    french = client.get("/catalogue/import/compare/", headers={"Accept-Language": "fr"}).content.decode()
    assert "Rien à comparer" in french


def test_the_page_speaks_french_in_its_table(two_sources):
    Edition.objects.filter(slug="v3").update(name_fr="Troisième édition")
    french = staff_client().get("/catalogue/import/compare/", headers={"Accept-Language": "fr"}).content.decode()
    assert "<td>Coût (Régulier)</td><td>55</td><td>50</td>" in french
    assert "<h2>Testland · Troisième édition</h2>" in french
    assert '<option value="v3">Troisième édition</option>' in french

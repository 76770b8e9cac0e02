"""A 3rd-edition German list built from an imported army-builder module: points, dice, hidden units, periods."""

from __future__ import annotations

import pytest

from armybuilder.catalogue.models import Army, Unit
from armybuilder.importers.writer import import_files
from armybuilder.lists.models import ArmyList
from armybuilder.lists.summary import list_summary
from tests.importers.test_module import read_module
from tests.importers.test_module_writer import make_v3_chart
from tests.lists.factories import make_entry, make_list, make_platoon, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def germany():
    make_v3_chart()
    import_files(read_module())
    return Army.objects.get(name="Germany", origin="module")


@pytest.fixture
def player(client):
    user = make_user()
    client.force_login(user)
    return user


def unit(name: str) -> Unit:
    return Unit.objects.get(army__name="Germany", name=name)


def test_a_list_from_the_module_counts_its_points_and_order_dice(germany, player):
    army_list = make_list(owner=player, army=germany, points_limit=1000)
    platoon = make_platoon(army_list, kind="rifle_platoon")
    make_entry(army_list, unit("Platoon Commander"), platoon=platoon, quality="regular", models_count=2)
    # 7 men: 2 extra at 10 each; 2 SMGs (3 each), the NCO's SMG (3), the LMG team (20, 2 more men)
    make_entry(
        army_list,
        unit("Heer Rifle Squad"),
        platoon=platoon,
        quality="regular",
        models_count=7,
        options={"smgs": 2, "nco-smg": 1, "lmg-team": 1},
    )
    make_entry(army_list, unit("Panzer IV Ausf H Medium Tank"), quality="veteran")
    make_entry(army_list, unit("Attached Observer"), quality="regular")  # the module gives it no die
    summary = list_summary(ArmyList.objects.for_builder().get(pk=army_list.pk))
    assert summary.points == (50 + 10) + (60 + 2 * 10 + 2 * 3 + 3 + 20) + 270 + 20
    assert summary.order_dice == 3


def test_a_per_man_swap_beyond_the_men_or_its_own_cap_is_refused(germany, player):
    army_list = make_list(owner=player, army=germany, points_limit=1000)
    make_entry(army_list, unit("Heer Rifle Squad"), quality="regular", models_count=5, options={"smgs": 3})
    summary = list_summary(ArmyList.objects.for_builder().get(pk=army_list.pk))
    assert any("SMGs can be taken at most 2 times" in problem.message for problem in summary.problems)


def test_an_option_not_offered_at_the_units_quality_is_refused(germany, player):
    army_list = make_list(owner=player, army=germany, points_limit=1000)
    make_entry(army_list, unit("Heer Rifle Squad"), quality="inexperienced", models_count=5, options={"panzerfaust": 1})
    summary = list_summary(ArmyList.objects.for_builder().get(pk=army_list.pk))
    assert any("Panzerfaust has no cost at Inexperienced" in problem.message for problem in summary.problems)


def test_the_builder_hides_campaign_units_until_the_player_asks_for_them(germany, player, client):
    army_list = make_list(owner=player, army=germany, points_limit=1000)
    url = f"/lists/{army_list.pk}/"
    page = client.get(url).content.decode()
    assert "Heer Rifle Squad" in page
    assert "Captain Wolf" not in page
    assert "Show campaign, community and experimental units" in page
    shown = client.get(url, {"extra": "on"}).content.decode()
    assert "Captain Wolf" in shown
    assert "campaign</span>" in shown


def test_the_live_filter_keeps_the_choice_and_filters_by_war_period(germany, player, client):
    army_list = make_list(owner=player, army=germany, points_limit=1000)
    fragment = client.get(f"/lists/{army_list.pk}/catalogue/", {"period": "E"}, HTTP_HX_REQUEST="true")
    body = fragment.content.decode()
    assert "Heer Rifle Squad" in body  # any period
    assert "Panzer IV Ausf H" not in body  # mid and late war only
    assert "Attached Observer" in body  # no period in the data: offered in every one
    assert fragment["HX-Replace-Url"].endswith("?period=E")
    late = client.get(f"/lists/{army_list.pk}/catalogue/", {"period": "L", "extra": "on"}, HTTP_HX_REQUEST="true")
    assert "Captain Wolf" in late.content.decode()


def test_the_filter_and_the_marks_speak_french(germany, player, client):
    army_list = make_list(owner=player, army=germany, points_limit=1000)
    client.cookies["django_language"] = "fr"
    page = client.get(f"/lists/{army_list.pk}/", {"extra": "on"}).content.decode()
    assert "Afficher les unités de campagne, de la communauté et expérimentales" in page
    assert "Période de la guerre" in page
    assert ">campagne</span>" in page

"""An organiser sees which units of a sealed list are the player's own entries, not checked data."""

from __future__ import annotations

import pytest
from django.test import Client

from armybuilder.events import services
from armybuilder.events.models import Entrant
from tests.events.factories import make_event
from tests.lists.factories import make_army, make_entry, make_list, make_unit, make_user

pytestmark = pytest.mark.django_db


def _sealed_with(own: bool):
    organiser = make_user("orga")
    event = make_event(organiser)
    player = make_user("panzer")
    army = make_army(edition=event.edition)
    army_list = make_list(owner=player, army=army, force_org="none")
    make_entry(army_list, make_unit(army=army, name="Rifle Squad"))
    if own:
        make_entry(army_list, make_unit(army=army, owner=player, name="Panzer IV Ausf. H", slug="own-panzer"))
    entrant = Entrant.objects.create(event=event, user=player)
    services.seal(entrant, army_list.pk)
    client = Client()
    client.force_login(organiser)
    return event, entrant, client


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_dashboard_and_the_sealed_list_mark_the_players_own_units(language):
    event, entrant, client = _sealed_with(own=True)
    mark = "player's entry" if language == "en" else "saisie d'un joueur"
    # The data's unit reads in the page's language (the glossary); the player's own keeps its typed name.
    rifles = "Rifle Squad" if language == "en" else "Escouade de fusiliers"
    client.cookies["django_language"] = language
    dashboard = client.get(f"/events/{event.slug}/manage/", HTTP_ACCEPT_LANGUAGE=language).content.decode()
    row = dashboard.split(f'id="entrant-{entrant.pk}"')[1].split("</tr>")[0]
    assert mark in row.replace("&#x27;", "'") and "Panzer IV Ausf. H" in row
    assert rifles not in row  # only the own unit is named beside the mark
    sealed = client.get(f"/events/{event.slug}/entrants/{entrant.pk}/list/").content.decode().replace("&#x27;", "'")
    line = next(tr for tr in sealed.split("<tr>") if "Panzer IV Ausf. H" in tr)
    assert mark in line
    assert mark not in next(tr for tr in sealed.split("<tr>") if rifles in tr)


def test_a_list_of_checked_data_carries_no_mark():
    event, entrant, client = _sealed_with(own=False)
    dashboard = client.get(f"/events/{event.slug}/manage/").content.decode().replace("&#x27;", "'")
    assert "player's entry" not in dashboard

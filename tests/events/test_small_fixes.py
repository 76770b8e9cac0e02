"""The list picker offers the event's edition only; the result form and the result say the players'
names; "Table 1: A v B" is French in French."""

from __future__ import annotations

import pytest

from armybuilder.events import services
from armybuilder.events.models import Entrant, Result
from tests.events.factories import make_entrant, make_event, make_player_list
from tests.lists.factories import client_for as _client
from tests.lists.factories import make_army, make_edition, make_user

pytestmark = pytest.mark.django_db


def test_the_list_picker_offers_only_lists_of_the_events_edition():
    event = make_event()
    player = make_user("anna")
    Entrant.objects.create(event=event, user=player)
    mine = make_player_list(player, make_army(edition=event.edition), name="Third edition list")
    other = make_player_list(player, make_army(edition=make_edition("v2")), name="Second edition list")
    client = _client(player)
    page = client.get(f"/events/{event.slug}/submit/").content.decode()
    assert "Third edition list" in page and "Second edition list" not in page
    # Posted by hand, the other edition's list is refused next to the field, and nothing is sealed.
    response = client.post(f"/events/{event.slug}/submit/", {"army_list": other.pk})
    # Refused at the field, as every seal refusal is (400: the form comes back with its error).
    assert response.status_code == 400 and "Select a valid choice" in response.content.decode()
    assert not hasattr(Entrant.objects.get(user=player), "submission")
    assert client.post(f"/events/{event.slug}/submit/", {"army_list": mine.pk}).status_code == 302


def test_a_player_without_a_list_of_the_edition_is_told_so():
    event = make_event()
    player = make_user("anna")
    Entrant.objects.create(event=event, user=player)
    make_player_list(player, make_army(edition=make_edition("v2")))
    page = _client(player).get(f"/events/{event.slug}/submit/").content.decode()
    assert f"You have no list of {event.edition.display_name} yet." in page
    assert 'href="/' in page.split("You have no list")[1]


@pytest.fixture
def round_one():
    organiser = make_user("orga")
    event = make_event(organiser, published=True)
    for name in ("anna", "boris"):
        make_entrant(event, make_user(name))
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    return event, organiser, round_.pairings.select_related("player_a__user", "player_b__user").get()


def test_the_result_form_and_the_result_name_the_players(round_one):
    event, organiser, pairing = round_one
    a, b = pairing.player_a.name, pairing.player_b.name
    page = _client(pairing.player_a.user).get(f"/events/{event.slug}/rounds/1/").content.decode()
    assert f"{a} won" in page and f"{b} won" in page and "Player A won" not in page
    assert f"Order dice destroyed by {a}" in page
    Result.objects.create(pairing=pairing, outcome="b", confirmed=True)
    page = _client(organiser).get(f"/events/{event.slug}/rounds/1/").content.decode()
    assert f"<p>{b} won" in page


def test_table_lines_read_in_french(round_one):
    event, organiser, pairing = round_one
    a, b = pairing.player_a.name, pairing.player_b.name
    client = _client(organiser)
    client.cookies["django_language"] = "fr"
    page = client.get(f"/events/{event.slug}/rounds/1/", HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert f"A {a} contre B {b}" in page and f"Victoire de {a}" in page
    english = _client(organiser).get(f"/events/{event.slug}/rounds/1/").content.decode()
    assert f"A {a} v B {b}" in english

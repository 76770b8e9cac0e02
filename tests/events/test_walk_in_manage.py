"""The organiser manages a walk-in after entering them: removes one entered by mistake or gone
before playing (never one who has played: their opponents' results stand), and gives a walk-in a
new claim link when the last one went to the wrong person (the old link stops working)."""

from __future__ import annotations

import pytest
from django.test import Client

from armybuilder.events import services
from armybuilder.events.models import Adjustment, Entrant, Pairing, Result, Round, Submission
from armybuilder.lists.exchange import export_json
from armybuilder.lists.models import ArmyList
from tests.events.factories import make_entrant, make_event, make_player_list
from tests.lists.factories import client_for as _client
from tests.lists.factories import make_army, make_edition, make_user

pytestmark = pytest.mark.django_db


def _list_json(units: int = 2) -> str:
    army_list = make_player_list(make_user(), units=units, name="Walter's platoon")
    return export_json(ArmyList.objects.for_builder().get(pk=army_list.pk))


def _add_walk_in(event, name: str = "Walter", *, approve: bool = True) -> Entrant:
    walk_in = services.add_walk_in(event, name, services.pasted_list_values(_list_json()))
    if approve:
        services.judge(event, walk_in.pk, approve=True)
    return Entrant.objects.select_related("submission").get(pk=walk_in.pk)


def _remove_url(event, entrant) -> str:
    return f"/events/{event.slug}/manage/entrants/{entrant.pk}/remove/"


def _renew_url(event, entrant) -> str:
    return f"/events/{event.slug}/manage/entrants/{entrant.pk}/claim-link/"


def _claim_url(event, token: str) -> str:
    return f"/events/{event.slug}/claim/{token}/"


@pytest.fixture
def event():
    return make_event(make_user("orga"), rounds=3, published=True)


@pytest.fixture
def players(event):
    """Anna, Boris and Carla, approved, of one army (Swiss pairing reads their sides)."""
    army = make_army(edition=make_edition("v3"))
    return [make_entrant(event, make_user(name), army=army) for name in ("anna", "boris", "carla")]


def _pair_and_publish(event) -> Round:
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    return round_


def _finish(round_) -> None:
    for pairing in round_.pairings.all():
        if not pairing.is_bye:
            services.override_result(pairing, "a", 4, 2, 6)


# -- Removing a walk-in -------------------------------------------------------------------------


def test_the_organiser_removes_a_walk_in_who_has_not_played_after_a_confirmation(event, players):
    walk_in = _add_walk_in(event)
    services.add_adjustment(event, walk_in.pk, category="painting", amount=2, round_number=None, reason="Best army")
    token = walk_in.claim_token
    org = _client(event.organiser)
    dashboard = org.get(f"/events/{event.slug}/manage/").content.decode()
    claim_row = dashboard.split(f'id="claim-row-{walk_in.pk}"')[1].split("</tr>")[0]
    assert f'href="{_remove_url(event, walk_in)}"' in claim_row and "Remove this walk-in…" in claim_row

    page = org.get(_remove_url(event, walk_in))
    text = page.content.decode()
    assert page.status_code == 200
    assert "<h1>Remove Walter</h1>" in text and "has not played yet" in text
    assert "their list, Walter&#x27;s platoon" in text and "1 bonus or penalty given to them;" in text
    assert "draft of round" not in text
    assert Entrant.objects.filter(pk=walk_in.pk).exists()  # the page asks; nothing is removed yet

    response = org.post(_remove_url(event, walk_in))
    assert response.status_code == 302 and response["Location"] == f"/events/{event.slug}/manage/"
    assert not Entrant.objects.filter(pk=walk_in.pk).exists()
    assert not Submission.objects.filter(entrant_id=walk_in.pk).exists()
    assert not Adjustment.objects.filter(entrant_id=walk_in.pk).exists()
    assert Entrant.objects.filter(event=event).count() == 3  # the others stay
    after = org.get(response["Location"]).content.decode()
    assert "Walter is removed, with their list." in after
    assert f'id="entrant-{walk_in.pk}"' not in after
    # Their claim link is dead with them.
    gone = _client(make_user("walter")).get(_claim_url(event, token))
    assert gone.status_code == 404 and "This claim link is not valid" in gone.content.decode()


@pytest.mark.parametrize("who", ["anonymous", "player", "other-organiser"])
def test_only_the_organiser_removes_a_walk_in(event, players, who):
    walk_in = _add_walk_in(event)
    other = make_user("otto")
    make_event(other)
    client = {"anonymous": _client(), "player": _client(players[0].user), "other-organiser": _client(other)}[who]
    for response in (client.get(_remove_url(event, walk_in)), client.post(_remove_url(event, walk_in))):
        assert response.status_code == (302 if who == "anonymous" else 404)
        if who == "anonymous":
            assert response["Location"].startswith("/accounts/login/")
    assert Entrant.objects.filter(pk=walk_in.pk, submission__isnull=False).exists()


def test_a_player_with_an_account_is_no_walk_in_to_remove(event, players):
    org = _client(event.organiser)
    anna = players[0]
    assert org.get(_remove_url(event, anna)).status_code == 404
    assert org.post(_remove_url(event, anna)).status_code == 404
    walk_in = _add_walk_in(event)
    services.claim_walk_in(walk_in.claim_token, make_user("walter"))  # claimed: a player's place now
    assert org.post(_remove_url(event, walk_in)).status_code == 404
    assert Entrant.objects.filter(pk__in=[anna.pk, walk_in.pk]).count() == 2


def test_removal_needs_a_post_with_the_csrf_token(event, players):
    walk_in = _add_walk_in(event)
    org = Client(enforce_csrf_checks=True)
    org.force_login(event.organiser)
    assert org.post(_remove_url(event, walk_in)).status_code == 403
    assert Entrant.objects.filter(pk=walk_in.pk).exists()


def test_a_walk_in_who_has_played_is_not_removed_and_the_organiser_is_told_to_drop_them(event, players):
    walk_in = _add_walk_in(event)
    round_ = _pair_and_publish(event)
    _finish(round_)
    results = list(Result.objects.filter(pairing__round=round_).values_list("pk", "outcome"))
    org = _client(event.organiser)

    page = org.get(_remove_url(event, walk_in))
    text = page.content.decode()
    assert page.status_code == 409
    assert "This walk-in has played in a published round: removing them would take results away" in text
    assert "Drop them from the next round instead; their games so far still count." in text
    assert f'href="/events/{event.slug}/manage/#entrant-{walk_in.pk}"' in text
    assert '<form method="post"' not in text.split("<h1>")[1].split("</main>")[0]

    response = org.post(_remove_url(event, walk_in), follow=True)
    assert response.redirect_chain[0][0] == f"/events/{event.slug}/manage/#entrant-{walk_in.pk}"
    assert "Drop them from the next round instead" in response.content.decode()
    assert Entrant.objects.filter(pk=walk_in.pk, submission__isnull=False).exists()
    assert list(Result.objects.filter(pairing__round=round_).values_list("pk", "outcome")) == results
    # Dropping them is what works.
    org.post(f"/events/{event.slug}/manage/entrants/{walk_in.pk}/drop/", {"from_round": 2})
    assert Entrant.objects.get(pk=walk_in.pk).dropped_from == 2


def test_a_bye_in_a_published_round_is_a_game_too(event, players):
    walk_in = _add_walk_in(event)
    round_ = Round.objects.create(event=event, number=1, published=True)
    Pairing.objects.create(round=round_, player_a=walk_in, player_b=None)
    with pytest.raises(services.EventError) as refused:
        services.remove_walk_in(event, walk_in.pk)
    assert refused.value.code == "walk-in-played"
    assert Entrant.objects.filter(pk=walk_in.pk).exists()


def test_a_walk_in_in_a_draft_round_is_removed_and_the_round_paired_again_without_them(event, players):
    walk_in = _add_walk_in(event)
    services.pair_next_round(event)  # round 1, a draft: four players, two games
    org = _client(event.organiser)
    page = org.get(_remove_url(event, walk_in)).content.decode()
    assert "They are paired in the draft of round 1: that draft is thrown away" in page

    response = org.post(_remove_url(event, walk_in))
    assert response["Location"] == f"/events/{event.slug}/manage/#round-draft"
    round_ = Round.objects.get(event=event)
    assert round_.number == 1 and not round_.published
    seated = {p for pair in round_.pairings.values_list("player_a_id", "player_b_id") for p in pair if p}
    assert seated == {player.pk for player in players}  # three players: two play, one has the bye
    assert round_.pairings.filter(player_b__isnull=True).count() == 1
    after = org.get(response["Location"]).content.decode()
    assert "Walter is removed, with their list. Round 1 is paired again without them: check it" in after


def test_a_draft_that_cannot_be_paired_again_without_the_walk_in_is_thrown_away_and_said(event):
    anna = make_entrant(event, make_user("anna"))
    walk_in = _add_walk_in(event)
    services.pair_next_round(event)  # anna against Walter
    response = _client(event.organiser).post(_remove_url(event, walk_in), follow=True)
    text = response.content.decode()
    assert "Walter is removed, with their list." in text
    assert "Round 1 was paired with them: its draft is thrown away, and it cannot be paired again now." in text
    assert "At least two approved entrants are needed to pair a round." in text
    assert not Round.objects.filter(event=event).exists()
    assert list(Entrant.objects.filter(event=event)) == [anna]


def test_standings_and_api_are_as_before_a_late_walk_in_who_is_removed(event, players):
    walter = _add_walk_in(event, "Walter")
    _finish(_pair_and_publish(event))
    public = _client()
    standings_before = public.get(f"/api/events/{event.slug}/standings/").json()
    detail_before = public.get(f"/api/events/{event.slug}/").json()
    round_before = public.get(f"/api/events/{event.slug}/rounds/1/").json()
    page_before = public.get(f"/events/{event.slug}/standings/").content.decode()

    wanda = _add_walk_in(event, "Wanda")  # a late arrival, approved, then gone before round 2
    polled = public.get(f"/api/events/{event.slug}/standings/")
    assert any(row["entrant"]["name"] == "Wanda" for row in polled.json()["standings"])
    assert _client(event.organiser).post(_remove_url(event, wanda)).status_code == 302

    # A phone polling with the version it had while Wanda was in gets the new answer, not a 304.
    again = public.get(f"/api/events/{event.slug}/standings/", headers={"if-none-match": polled["ETag"]})
    assert again.status_code == 200
    assert again.json() == standings_before
    assert public.get(f"/api/events/{event.slug}/").json() == detail_before
    assert public.get(f"/api/events/{event.slug}/rounds/1/").json() == round_before
    page_after = public.get(f"/events/{event.slug}/standings/").content.decode()
    assert "Wanda" not in page_after and page_after.count("<tr") == page_before.count("<tr")
    assert Entrant.objects.filter(pk=walter.pk).exists()
    # The next round pairs without her.
    round_ = services.pair_next_round(event)
    seated = {p for pair in round_.pairings.values_list("player_a_id", "player_b_id") for p in pair if p}
    assert seated == {walter.pk, *(player.pk for player in players)}


# -- A new claim link -----------------------------------------------------------------------------


def test_a_new_claim_link_kills_the_old_one_and_the_new_one_claims_the_place(event, players):
    walk_in = _add_walk_in(event)
    old = walk_in.claim_token
    org = _client(event.organiser)
    dashboard = org.get(f"/events/{event.slug}/manage/").content.decode()
    claim_row = dashboard.split(f'id="claim-row-{walk_in.pk}"')[1].split("</tr>")[0]
    assert f'action="{_renew_url(event, walk_in)}"' in claim_row and "New claim link" in claim_row

    response = org.post(_renew_url(event, walk_in))
    assert response.status_code == 302
    assert response["Location"] == f"/events/{event.slug}/manage/#claim-row-{walk_in.pk}"
    new = Entrant.objects.get(pk=walk_in.pk).claim_token
    assert new and new != old and len(new) >= 32
    page = org.get(response["Location"]).content.decode()
    assert "Walter has a new claim link: the old one no longer works." in page
    assert f'value="http://testserver{_claim_url(event, new)}"' in page and old not in page

    wrong = _client(make_user("wrong"))
    stale = wrong.get(_claim_url(event, old))
    assert stale.status_code == 404
    assert "This claim link is not valid" in stale.content.decode()
    assert "the organiser has replaced it with a new one" in stale.content.decode()
    assert wrong.post(_claim_url(event, old)).status_code == 404
    assert Entrant.objects.get(pk=walk_in.pk).user is None

    walter = make_user("walter")
    right = _client(walter)
    assert "Claim the place of Walter" in right.get(_claim_url(event, new)).content.decode()
    assert right.post(_claim_url(event, new)).status_code == 302
    assert Entrant.objects.get(pk=walk_in.pk).user == walter


def test_a_claim_page_left_open_when_the_link_is_replaced_says_so_on_claiming(event, players):
    walk_in = _add_walk_in(event)
    walter = _client(make_user("walter"))
    assert walter.get(_claim_url(event, walk_in.claim_token)).status_code == 200
    services.renew_claim_link(event, walk_in.pk)
    response = walter.post(_claim_url(event, walk_in.claim_token))
    assert response.status_code == 404 and "This claim link is not valid" in response.content.decode()
    assert Entrant.objects.get(pk=walk_in.pk).user is None


def test_a_claimed_place_gets_no_new_claim_link(event, players):
    walk_in = _add_walk_in(event)
    services.claim_walk_in(walk_in.claim_token, make_user("walter"))
    assert _client(event.organiser).post(_renew_url(event, walk_in)).status_code == 404
    assert Entrant.objects.get(pk=walk_in.pk).claim_token is None
    dashboard = _client(event.organiser).get(f"/events/{event.slug}/manage/").content.decode()
    assert _renew_url(event, walk_in) not in dashboard and _remove_url(event, walk_in) not in dashboard
    # Claimed between the organiser's page and their click: refused in words, nothing changed.
    with pytest.raises(services.EventError) as refused:
        services.renew_claim_link(event, walk_in.pk)
    assert refused.value.code == "walk-in-claimed"
    with pytest.raises(services.EventError) as refused:
        services.remove_walk_in(event, walk_in.pk)
    assert refused.value.code == "walk-in-claimed"
    assert Entrant.objects.get(pk=walk_in.pk).claim_token is None


@pytest.mark.parametrize("who", ["anonymous", "player", "other-organiser"])
def test_only_the_organiser_gives_a_new_claim_link(event, players, who):
    walk_in = _add_walk_in(event)
    other = make_user("otto")
    make_event(other)
    client = {"anonymous": _client(), "player": _client(players[0].user), "other-organiser": _client(other)}[who]
    response = client.post(_renew_url(event, walk_in))
    assert response.status_code == (302 if who == "anonymous" else 404)
    if who == "anonymous":
        assert response["Location"].startswith("/accounts/login/")
    assert Entrant.objects.get(pk=walk_in.pk).claim_token == walk_in.claim_token


def test_a_new_claim_link_is_a_post(event, players):
    walk_in = _add_walk_in(event)
    assert _client(event.organiser).get(_renew_url(event, walk_in)).status_code == 405
    assert Entrant.objects.get(pk=walk_in.pk).claim_token == walk_in.claim_token


# -- In French --------------------------------------------------------------------------------------


def test_removing_and_renewing_in_french(event, players, fr_client):
    walk_in = _add_walk_in(event)
    fr_client.force_login(event.organiser)
    dashboard = fr_client.get(f"/events/{event.slug}/manage/").content.decode()
    assert "Nouveau lien de revendication" in dashboard and "Supprimer ce joueur sans compte…" in dashboard
    response = fr_client.post(_renew_url(event, walk_in), follow=True)
    assert "Walter a un nouveau lien de revendication : l&#x27;ancien ne fonctionne plus." in (
        response.content.decode()
    )
    page = fr_client.get(_remove_url(event, walk_in)).content.decode()
    assert "<h1>Supprimer Walter</h1>" in page
    response = fr_client.post(_remove_url(event, walk_in), follow=True)
    assert "Walter est supprimé, avec sa liste." in response.content.decode()

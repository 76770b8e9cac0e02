"""Walk-ins: a player without an account, entered by the organiser with their pasted list (sealed,
judged, paired, resulted and ranked like anyone), who can later claim the place with an account."""

from __future__ import annotations

import csv
import io
import json

import pytest
from django.test import Client
from django.utils.html import escape

from armybuilder.events import services
from armybuilder.events.models import Entrant, Pairing, Result, Submission
from armybuilder.games.models import Game
from armybuilder.leagues import services as league_services
from armybuilder.leagues.models import Season
from armybuilder.lists.exchange import export_json
from armybuilder.lists.models import ArmyList
from tests.events.factories import make_entrant, make_event, make_player_list
from tests.lists.factories import client_for as _client
from tests.lists.factories import make_army, make_edition, make_user

pytestmark = pytest.mark.django_db


def _list_json(units: int = 2, **kwargs) -> str:
    """A list as a player exports it from Muster (then pasted by the organiser)."""
    army_list = make_player_list(make_user(), units=units, **kwargs)
    return export_json(ArmyList.objects.for_builder().get(pk=army_list.pk))


@pytest.fixture
def event():
    return make_event(make_user("orga"), rounds=3)


def _add(client: Client, event, name: str = "Walter", text: str | None = None):
    return client.post(
        f"/events/{event.slug}/manage/walk-ins/", {"name": name, "list": _list_json() if text is None else text}
    )


def _walk_in(event, name: str = "Walter") -> Entrant:
    return Entrant.objects.select_related("submission").get(event=event, walk_in_name=name)


# -- Adding a walk-in ---------------------------------------------------------------------------


def test_the_organiser_adds_a_walk_in_whose_pasted_list_is_sealed_without_writing_a_list(event):
    org = _client(event.organiser)
    text = _list_json(units=3, name="Kampfgruppe Walter")
    lists_before = ArmyList.objects.count()
    response = _add(org, event, "Walter", text)
    walk_in = _walk_in(event)
    assert response.status_code == 302
    assert response["Location"].endswith(f"/manage/#entrant-{walk_in.pk}")
    assert ArmyList.objects.count() == lists_before  # read in memory, never saved as a list
    assert walk_in.user is None and walk_in.is_walk_in and walk_in.name == "Walter"
    assert len(walk_in.claim_token) >= 32
    submission = walk_in.submission
    assert submission.status == Submission.Status.PENDING and submission.army_list is None
    assert submission.list_name == "Kampfgruppe Walter" and submission.points == 150
    assert submission.snapshot["format"] == "muster-list/3" and len(submission.snapshot["entries"]) == 3
    assert len(submission.hash) == 64 and submission.facts["order_dice"] == 3
    page = org.get(response["Location"]).content.decode()
    assert "Walter is entered with their list, waiting for your approval." in page
    row = page.split(f'id="entrant-{walk_in.pk}"')[1].split("</tr>")[0]
    assert "walk-in" in row and "Kampfgruppe Walter" in row and "Legal" in row
    claim_row = page.split(f'id="claim-row-{walk_in.pk}"')[1].split("</tr>")[0]
    assert f"/events/{event.slug}/claim/{walk_in.claim_token}/" in claim_row


def test_a_walk_in_list_is_judged_against_the_event_and_approved_as_usual(event):
    event.points_limit = 100
    event.save()
    org = _client(event.organiser)
    _add(org, event, "Walter", _list_json(units=3))
    walk_in = _walk_in(event)
    page = org.get(f"/events/{event.slug}/manage/").content.decode()
    row = page.split(f'id="entrant-{walk_in.pk}"')[1].split("</tr>")[0]
    assert "Not legal" in row and "150" in row
    org.post(f"/events/{event.slug}/manage/entrants/{walk_in.pk}/judge/", {"decision": "approve"})
    assert _walk_in(event).submission.status == Submission.Status.APPROVED


@pytest.mark.parametrize(
    ("name", "text", "field", "words"),
    [
        ("", None, "name", "Type the player&#x27;s name."),
        ("W" * 101, None, "name", "A name is at most 100 characters."),
        ("Walter", "", "list", "Paste the player&#x27;s list."),
        ("Walter", "{not json", "list", "This is not valid JSON: line 1"),
        ("Walter", '{"format": "muster-list/3", "name": "X"}', "list", "edition: missing"),
        ("Walter", "[1, 2]", "list", "The file must hold one JSON object"),
        ("Walter", '{"a": 1e999999}', "list", "This list cannot be read:"),
        ("Walter", "x" * (1024 * 1024 + 1), "list", "The pasted text is larger than 1 MB."),
    ],
)
def test_a_refused_walk_in_is_said_next_to_its_field_as_typed_and_nothing_is_written(event, name, text, field, words):
    org = _client(event.organiser)
    response = _add(org, event, name, text)
    page = response.content.decode()
    assert response.status_code == 400
    error = page.split(f'id="walk-in-{field}-error"')[1].split("</span>" if field == "name" else "</ul>")[0]
    assert words in error
    if name and len(name) <= 100:
        assert f'value="{name}"' in page  # the name as typed
    if text and len(text) < 100:
        assert escape(text) + "</textarea>" in page  # the pasted text kept
    assert not Entrant.objects.filter(event=event).exists()


def test_a_list_naming_units_the_data_lacks_names_each_problem(event):
    data = json.loads(_list_json(units=2))
    data["entries"][0]["unit"] = "no-such-unit"
    data["entries"][1]["quality"] = "legendary"
    response = _add(_client(event.organiser), event, "Walter", json.dumps(data))
    page = response.content.decode()
    assert response.status_code == 400
    errors = page.split('id="walk-in-list-error"')[1].split("</ul>")[0]
    assert "This list cannot be read:" in errors
    assert "entries[0] (no-such-unit): unit &#x27;no-such-unit&#x27; is not in" in errors
    assert "entries[1]" in errors and "quality &quot;legendary&quot; is not offered" in errors
    assert not Entrant.objects.filter(event=event).exists()


def test_a_walk_ins_name_is_data_in_the_organisers_spreadsheet(event):
    org = _client(event.organiser)
    _add(org, event, '=HYPERLINK("http://evil.example","x")')
    rows = _rows(org.get(f"/events/{event.slug}/manage/entrants.csv"))
    assert rows[1][0] == '\'=HYPERLINK("http://evil.example","x")'


def test_two_walk_ins_of_an_event_cannot_share_a_name(event):
    org = _client(event.organiser)
    _add(org, event, "Walter")
    response = _add(org, event, "walter ")
    assert response.status_code == 400
    assert "A walk-in of this event is already called walter: add something to tell them apart." in (
        response.content.decode()
    )
    assert Entrant.objects.filter(event=event).count() == 1
    assert _add(org, event, "Walter B").status_code == 302


def test_a_day_of_walk_ins_is_bounded(event, monkeypatch):
    from armybuilder.events import views

    monkeypatch.setattr(views, "WALK_INS_PER_DAY", 2)
    org = _client(event.organiser)
    _add(org, event, "One")
    _add(org, event, "Two")
    response = _add(org, event, "Three")
    assert response.status_code == 429
    assert "You have entered 2 walk-ins in the last 24 hours" in response.content.decode()
    assert Entrant.objects.filter(event=event).count() == 2


@pytest.mark.parametrize("who", ["anonymous", "player", "other-organiser"])
def test_only_the_organiser_adds_a_walk_in(event, who):
    player = make_entrant(event, make_user("anna")).user
    other = make_user("otto")
    make_event(other)
    client = {"anonymous": _client(), "player": _client(player), "other-organiser": _client(other)}[who]
    response = _add(client, event)
    assert response.status_code == (302 if who == "anonymous" else 404)
    if who == "anonymous":
        assert response["Location"].startswith("/accounts/login/")
    assert not Entrant.objects.filter(event=event, user__isnull=True).exists()


def test_a_walk_in_is_checked_in_only_when_the_organiser_is_checking_players_in(event):
    org = _client(event.organiser)
    anna = make_entrant(event, make_user("anna"))
    _add(org, event, "Walter")
    assert not _walk_in(event, "Walter").checked_in  # checking in one would leave anna out
    services.check_in(event, anna.pk, True)
    _add(org, event, "Wanda")
    assert _walk_in(event, "Wanda").checked_in


# -- A new list for a walk-in ----------------------------------------------------------------------


def test_a_walk_ins_list_sent_back_is_pasted_again(event):
    org = _client(event.organiser)
    _add(org, event, "Walter", _list_json(units=1))
    walk_in = _walk_in(event)
    services.judge(event, walk_in.pk, approve=False, note="Too small")
    url = f"/events/{event.slug}/manage/entrants/{walk_in.pk}/walk-in-list/"
    response = org.post(url, {"list": "{broken"})
    page = response.content.decode()
    assert response.status_code == 400
    assert f'id="walk-in-{walk_in.pk}-list-error"' in page and "This is not valid JSON" in page
    assert "{broken</textarea>" in page
    assert _walk_in(event).submission.points == 50
    response = org.post(url, {"list": _list_json(units=4)})
    assert response.status_code == 302
    submission = _walk_in(event).submission
    assert submission.points == 200 and submission.status == Submission.Status.PENDING and not submission.note


def test_only_a_walk_ins_list_is_pasted_by_the_organiser(event):
    anna = make_entrant(event, make_user("anna"))
    org = _client(event.organiser)
    url = f"/events/{event.slug}/manage/entrants/{anna.pk}/walk-in-list/"
    assert org.post(url, {"list": _list_json()}).status_code == 404
    _add(org, event, "Walter")
    url = f"/events/{event.slug}/manage/entrants/{_walk_in(event).pk}/walk-in-list/"
    assert _client(anna.user).post(url, {"list": _list_json()}).status_code == 404
    assert _client().post(url, {"list": _list_json()}).status_code == 302
    other = make_user("otto")
    make_event(other)
    assert _client(other).post(url, {"list": _list_json()}).status_code == 404


# -- Playing: paired, resulted, ranked and exported ------------------------------------------------


@pytest.fixture
def played(event):
    """Anna, Boris, Carla and the walk-in Walter, approved; round 1 paired and published (no bye)."""
    event.published = True
    event.save()
    army = make_army(edition=make_edition("v3"))
    for name in ("anna", "boris", "carla"):
        make_entrant(event, make_user(name), army=army)
    _add(_client(event.organiser), event, "Walter")
    Submission.objects.filter(entrant__event=event).update(status=Submission.Status.APPROVED)
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    return event, round_


def _walk_in_pairing(round_) -> Pairing:
    for pairing in round_.pairings.select_related("player_a__user", "player_b__user"):
        if any(p is not None and p.is_walk_in for p in (pairing.player_a, pairing.player_b)):
            return pairing
    raise AssertionError("the walk-in is not paired")


def _rows(response) -> list[list[str]]:
    return list(csv.reader(io.StringIO(response.content.decode())))


def _finish(round_) -> Pairing:
    """Every game set by the organiser: the walk-in wins theirs 6 dice to 0, the other game goes 4 to 2."""
    walk_in_pairing = _walk_in_pairing(round_)
    for pairing in round_.pairings.select_related("player_a__user"):
        if pairing.pk == walk_in_pairing.pk:
            walk_in_is_a = pairing.player_a.is_walk_in
            services.override_result(pairing, "a" if walk_in_is_a else "b", *((6, 0) if walk_in_is_a else (0, 6)), 6)
        else:
            services.override_result(pairing, "a", 4, 2, 6)
    return walk_in_pairing


def test_a_walk_in_is_paired_resulted_and_in_the_standings_api_and_csvs(played):
    event, round_ = played
    _finish(round_)
    walk_in = _walk_in(event)
    page = _client().get(f"/events/{event.slug}/rounds/1/").content.decode()
    assert "Walter" in page
    standings = _client().get(f"/events/{event.slug}/standings/").content.decode()
    assert "Walter" in standings
    data = _client().get(f"/api/events/{event.slug}/standings/").json()
    top = data["standings"][0]
    assert top["entrant"] == {"id": walk_in.pk, "name": "Walter"} and top["score"] == 3
    api = _client().get(f"/api/events/{event.slug}/").json()
    listed = next(e for e in api["entrants"] if e["id"] == walk_in.pk)
    assert listed["name"] == "Walter" and listed["status"] == "approved" and listed["legal"] is True
    rounds = _client().get(f"/api/events/{event.slug}/rounds/1/").json()
    assert any({"id": walk_in.pk, "name": "Walter"} in p["players"] for p in rounds["pairings"])
    org = _client(event.organiser)
    entrants = _rows(org.get(f"/events/{event.slug}/manage/entrants.csv"))
    walter = next(row for row in entrants if row[0] == "Walter")
    assert walter[1] == walk_in.submission.list_name and walter[5:7] == ["approved", "yes"]
    results = _rows(org.get(f"/events/{event.slug}/manage/results.csv"))
    assert any("Walter" in (row[2], row[3]) for row in results[1:])
    table = _rows(org.get(f"/events/{event.slug}/manage/standings.csv"))
    assert table[1][:3] == ["1", "Walter", "3"]
    public = _rows(_client().get(f"/events/{event.slug}/results.csv"))
    assert public[1][:2] == ["1", "Walter"]


def test_a_walk_in_placing_counts_in_a_season_without_a_player_page_and_is_not_rated(played):
    event, round_ = played
    _finish(round_)
    season = Season.objects.create(organiser=event.organiser, name="League", edition=event.edition, published=True)
    season.events.add(event)
    rows = league_services.season_table(season)
    walter = next(row for row in rows if row.name == "Walter")
    assert walter.username == "" and walter.row.place == 1 and walter.row.total == 100
    page = _client().get(f"/seasons/{season.slug}/").content.decode()
    assert "Walter" in page and "/players/Walter" not in page
    games = league_services.rated_games()
    walk_in = _walk_in(event)
    assert all(None not in (g.player_a, g.player_b) for g in games)
    assert len(games) == 1  # two games, one against the walk-in
    # Claimed: the game is rated under the account at the next recomputation.
    claimer = make_user("walter")
    services.claim_walk_in(walk_in.claim_token, claimer)
    assert any(claimer.pk in (g.player_a, g.player_b) for g in league_services.rated_games())


def test_a_game_against_a_walk_in_is_played_on_the_account_holders_phone(played):
    event, round_ = played
    pairing = _walk_in_pairing(round_)
    opponent = pairing.player_b if pairing.player_a.is_walk_in else pairing.player_a
    player = _client(opponent.user)
    page = player.get(f"/events/{event.slug}/rounds/1/").content.decode()
    assert "Your opponent entered without an account: the organiser confirms the result" in page
    response = player.post(f"/events/{event.slug}/pairings/{pairing.pk}/play/")
    game = Game.objects.get()
    assert response["Location"] == f"/games/{game.pk}/"
    assert game.owner_id == opponent.user_id and not game.two_phones
    assert sorted(side["name"] for side in game.setup["sides"]) == sorted([opponent.name, "Walter"])


def test_a_result_against_a_walk_in_waits_for_the_organiser(played):
    event, round_ = played
    pairing = _walk_in_pairing(round_)
    opponent = pairing.player_b if pairing.player_a.is_walk_in else pairing.player_a
    player = _client(opponent.user)
    url = f"/events/{event.slug}/pairings/{pairing.pk}/result/"
    response = player.post(url, {"outcome": "draw", "dice_a": 1, "dice_b": 1}, follow=True)
    assert "Result entered. Your opponent has no account: the organiser confirms it." in response.content.decode()
    assert not Result.objects.get(pairing=pairing).counts
    _client(event.organiser).post(
        f"/events/{event.slug}/manage/pairings/{pairing.pk}/override/", {"outcome": "draw", "dice_a": 1, "dice_b": 1}
    )
    assert Result.objects.get(pairing=pairing).counts


# -- Claiming ------------------------------------------------------------------------------------


def _claim_url(event, walk_in) -> str:
    return f"/events/{event.slug}/claim/{walk_in.claim_token}/"


def test_a_player_claims_a_walk_in_and_keeps_its_list_results_and_placing(played):
    event, round_ = played
    _finish(round_)
    walk_in = _walk_in(event)
    url = _claim_url(event, walk_in)
    walter = make_user("walter", first_name="Walter", last_name="Klein")
    player = _client(walter)
    page = player.get(url).content.decode()
    assert "Claim the place of Walter" in page and "1 game paired so far" in page
    assert walk_in.submission.list_name in page and "This is me: claim this place" in page
    response = player.post(url)
    assert response.status_code == 302 and response["Location"] == f"/events/{event.slug}/"
    claimed = Entrant.objects.get(pk=walk_in.pk)
    assert claimed.user == walter and claimed.claim_token is None and not claimed.is_walk_in
    assert claimed.submission.hash == walk_in.submission.hash
    assert "This place is yours now" in player.get(response["Location"]).content.decode()
    data = _client().get(f"/api/events/{event.slug}/standings/").json()
    assert data["standings"][0]["entrant"] == {"id": walk_in.pk, "name": "Walter Klein"}
    assert f"/events/{event.slug}/" in player.get("/players/walter/").content.decode()
    dashboard = _client(event.organiser).get(f"/events/{event.slug}/manage/").content.decode()
    assert "entered as Walter, claimed" in dashboard
    # The link is spent.
    assert player.get(url).status_code == 404
    assert _client(make_user()).post(url).status_code == 404
    # The place is theirs: listed among their events, and they may seal a list of their own in it.
    entered = player.get("/events/").content.decode().split("Events you entered")[1].split("</ul>")[0]
    assert f'href="/events/{event.slug}/"' in entered
    own = make_player_list(walter, units=3)
    assert player.post(f"/events/{event.slug}/submit/", {"army_list": own.pk}).status_code == 302
    assert Submission.objects.get(entrant=claimed).army_list_id == own.pk


def test_a_claim_link_needs_an_account_and_a_real_token(played):
    event, _round = played
    walk_in = _walk_in(event)
    url = _claim_url(event, walk_in)
    response = _client().get(url)
    assert response.status_code == 302 and response["Location"].startswith("/accounts/login/?next=")
    assert _client().post(url).status_code == 302
    someone = _client(make_user())
    assert someone.get(f"/events/{event.slug}/claim/not-the-token/").status_code == 404
    assert someone.post(f"/events/{event.slug}/claim/not-the-token/").status_code == 404
    other_event = make_event()
    assert someone.get(f"/events/{other_event.slug}/claim/{walk_in.claim_token}/").status_code == 404
    assert _walk_in(event).user is None


def test_an_entrant_of_the_event_cannot_claim_a_walk_in_too(played):
    event, _round = played
    walk_in = _walk_in(event)
    anna = Entrant.objects.get(event=event, user__username="anna").user
    url = _claim_url(event, walk_in)
    page = _client(anna).get(url)
    assert page.status_code == 409
    assert "You are already an entrant of this event: one account plays one place." in page.content.decode()
    assert "This is me" not in page.content.decode()
    response = _client(anna).post(url)
    assert response.status_code == 409
    assert Entrant.objects.get(pk=walk_in.pk).user is None and Entrant.objects.get(pk=walk_in.pk).claim_token


def test_a_pasted_list_with_a_players_own_unit_is_sealed_without_writing_the_unit(event):
    from armybuilder.catalogue.models import Unit
    from tests.events.test_sealed_own_units import OWN
    from tests.reference.factories import make_weapon

    army = make_army(edition=event.edition, name="Germany")
    make_weapon(event.edition, name="Kessler rifle", slug="kessler-rifle")
    make_weapon(event.edition, name="Kessler LMG", slug="kessler-lmg", category="heavy", shots="4")
    data = {
        "format": "muster-list/3",
        "name": "Kessler's Raiders",
        "edition": "v3",
        "army": ["v3", army.slug],
        "points_limit": 1000,
        "force_org": "none",
        "platoons": [],
        "own_units": [{"key": "kessler", **OWN}],
        "entries": [{"own_unit": "kessler", "quality": "veteran", "models": 6, "options": {"kessler-lmg": 1}}],
    }
    units, lists = Unit.objects.count(), ArmyList.objects.count()
    org = _client(event.organiser)
    assert _add(org, event, "Kessler", json.dumps(data)).status_code == 302
    assert (Unit.objects.count(), ArmyList.objects.count()) == (units, lists)
    walk_in = _walk_in(event, "Kessler")
    assert walk_in.submission.points == 75 + 15 + 20
    assert walk_in.submission.own_unit_names == ["Sturmtrupp Kessler"]
    page = org.get(f"/events/{event.slug}/entrants/{walk_in.pk}/list/").content.decode()
    assert "Sturmtrupp Kessler" in page and "Kessler LMG" in page


def test_the_walk_in_form_and_its_refusals_in_french(event, fr_client):
    fr_client.force_login(event.organiser)
    page = fr_client.get(f"/events/{event.slug}/manage/").content.decode()
    assert "Ajouter un joueur sans compte" in page and "Sa liste (le JSON de Muster ou son export texte)" in page
    response = _add(fr_client, event, "", "{oops")
    page = response.content.decode()
    assert response.status_code == 400
    assert "Saisissez le nom du joueur." in page and "Cette liste ne peut pas être lue :" in page


# -- The organiser links a walk-in to the player's account ----------------------------------------


def _link_url(event, walk_in) -> str:
    return f"/events/{event.slug}/manage/entrants/{walk_in.pk}/link/"


def test_the_organiser_links_a_walk_in_to_the_players_account(played):
    event, round_ = played
    _finish(round_)  # Walter wins his game
    walk_in = _walk_in(event)
    walter = make_user("Walter.K", first_name="Walter", last_name="Klein")
    org = _client(event.organiser)
    dashboard = org.get(f"/events/{event.slug}/manage/").content.decode()
    claim_row = dashboard.split(f'id="claim-row-{walk_in.pk}"')[1].split("</tr>")[0]
    assert _link_url(event, walk_in) in claim_row and "link this place to the player's account" in claim_row
    response = org.post(_link_url(event, walk_in), {"username": " walter.k "})  # any case, spaces aside
    assert response.status_code == 302 and response["Location"].endswith(f"/manage/#entrant-{walk_in.pk}")
    linked = Entrant.objects.get(pk=walk_in.pk)
    assert linked.user == walter and linked.claim_token is None and linked.name == "Walter Klein"
    assert linked.submission.hash == walk_in.submission.hash
    page = org.get(response["Location"]).content.decode()
    assert "Walter&#x27;s place is now under the account Walter.K, with its list, results and placings." in page
    assert "entered as Walter, claimed" in page
    # The claim link is spent; the player's page lists the event with its placing; the game is rated.
    assert _client(make_user()).get(_claim_url(event, walk_in)).status_code == 404
    player_page = _client().get("/players/Walter.K/").content.decode()
    assert f"/events/{event.slug}/" in player_page and "1/0/0" in player_page
    assert any(walter.pk in (g.player_a, g.player_b) for g in league_services.rated_games())


@pytest.mark.parametrize(
    ("username", "words"),
    [
        ("nobody", "No account has this username: check its spelling with the player."),
        ("", "No account has this username: check its spelling with the player."),
        ("anna", "This account is already an entrant of this event: one account plays one place."),
    ],
)
def test_a_link_to_an_unknown_or_already_entered_account_is_refused_in_words(played, username, words):
    event, _round = played
    walk_in = _walk_in(event)
    org = _client(event.organiser)
    response = org.post(_link_url(event, walk_in), {"username": username}, follow=True)
    assert words in response.content.decode()
    after = _walk_in(event)
    assert after.user is None and after.claim_token == walk_in.claim_token


def test_an_inactive_account_is_not_linked(played):
    event, _round = played
    make_user("gone", is_active=False)
    _client(event.organiser).post(_link_url(event, _walk_in(event)), {"username": "gone"})
    assert _walk_in(event).user is None


@pytest.mark.parametrize("role", ["player", "other", "anonymous"])
def test_nobody_but_the_organiser_links_a_walk_in(played, role):
    event, _round = played
    walk_in = _walk_in(event)
    someone = make_user("someone")
    user = {"player": Entrant.objects.get(event=event, user__username="anna").user, "other": someone, "anonymous": None}
    response = _client(user[role]).post(_link_url(event, walk_in), {"username": "someone"})
    assert response.status_code in (302, 404)
    if role == "anonymous":
        assert response["Location"].startswith("/accounts/login/")
    else:
        assert response.status_code == 404
    assert _walk_in(event).user is None


def test_a_claimed_place_is_not_linked_again(played):
    event, _round = played
    walk_in = _walk_in(event)
    services.claim_walk_in(walk_in.claim_token, make_user("walter"))
    response = _client(event.organiser).post(_link_url(event, walk_in), {"username": "someone"})
    assert response.status_code == 404
    assert Entrant.objects.get(pk=walk_in.pk).user.username == "walter"

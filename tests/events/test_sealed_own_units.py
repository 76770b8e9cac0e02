"""A sealed list that takes a player's own unit is printed and played as sealed, and neither writes a
list: the sealed export is read into memory (``lists.snapshot``), own unit definitions included."""

from __future__ import annotations

import io

import pytest
from django.test import Client
from pypdf import PdfReader

from armybuilder.catalogue import own_units
from armybuilder.catalogue.models import Unit
from armybuilder.events import services
from armybuilder.events.models import Entrant, ListsPdfJob, Submission
from armybuilder.games.models import Game
from armybuilder.lists.models import ArmyList
from armybuilder.lists.snapshot import read_sealed
from tests.events.factories import make_entrant, make_event
from tests.lists.factories import make_army, make_entry, make_list, make_user
from tests.reference.factories import make_weapon

pytestmark = pytest.mark.django_db

OWN = {
    "name": "Sturmtrupp Kessler",
    "unit_type": "infantry",
    "slot": "infantry",
    "officer_rank": "",
    "damage_value": None,
    "transport_capacity": None,
    "base_models": 5,
    "max_models": 8,
    "cost": {"regular": 60, "veteran": 75},
    "per_model": {"regular": 12, "veteran": 15},
    "composition": "An NCO and 4 men",
    "weapons_text": "",
    "weapons": [{"weapon": "kessler-rifle", "count": 1, "mount": "", "arc": ""}],
    "options": [
        {
            "key": "kessler-lmg",
            "name": "Kessler LMG",
            "cost": 20,
            "per_model": False,
            "all_models": False,
            "max_count": 1,
            "group": "",
            "adds_models": 0,
            "grants": "kessler-lmg",
            "replaces": "",
        }
    ],
    "special_rules": [],
}


@pytest.fixture
def event_with_own_unit():
    organiser = make_user("orga")
    event = make_event(organiser)
    army = make_army(edition=event.edition, name="Germany")
    make_weapon(event.edition, name="Kessler rifle", slug="kessler-rifle")
    make_weapon(event.edition, name="Kessler LMG", slug="kessler-lmg", category="heavy", shots="4")
    player = make_user("kessler")
    own = own_units.write_unit(player, army, OWN)
    army_list = make_list(owner=player, army=army, force_org="none", name="Kessler's Raiders")
    make_entry(army_list, own, quality="veteran", models_count=6, options={"kessler-lmg": 1})
    entrant = Entrant.objects.create(event=event, user=player)
    services.seal(entrant, army_list.pk)
    Submission.objects.filter(entrant=entrant).update(status=Submission.Status.APPROVED)
    other = make_entrant(event, make_user("boris"), army=army)
    # The player deletes the unit and the list after sealing: the sealed list stands on its own.
    army_list.delete()
    own.delete()
    return event, organiser, Entrant.objects.get(pk=entrant.pk), other


def test_the_snapshot_reads_the_own_unit_with_its_men_options_weapons_points_and_dice(event_with_own_unit):
    _event, _organiser, entrant, _other = event_with_own_unit
    sealed = read_sealed(entrant.submission.snapshot)
    (line,) = sealed.lines()
    assert line.name == "Sturmtrupp Kessler" and line.own
    assert (line.quality, line.men, line.options, line.dice) == ("veteran", 6, (("Kessler LMG", 1),), 1)
    assert line.weapons == ("Kessler rifle",)
    assert line.points == 75 + 15 + 20 == entrant.submission.points


def test_the_all_lists_pdf_prints_the_own_unit_and_writes_no_list(event_with_own_unit):
    event, organiser, _entrant, _other = event_with_own_unit
    lists, units = ArmyList.objects.count(), Unit.objects.count()
    client = Client()
    client.force_login(organiser)
    client.post(f"/events/{event.slug}/manage/lists.pdf", {"paper": "a4"})
    job = ListsPdfJob.objects.get()
    assert job.is_done and job.skipped == 0 and job.rendered == 2
    data = client.get(f"/events/{event.slug}/manage/pdf/{job.pk}/file.pdf").content
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)
    assert "Sturmtrupp Kessler" in text and "Kessler LMG" in text and "kessler" in text
    assert (ArmyList.objects.count(), Unit.objects.count()) == (lists, units)


def test_the_pairing_is_played_with_the_own_unit_on_the_board_and_writes_no_list(event_with_own_unit):
    event, _organiser, entrant, _other = event_with_own_unit
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    pairing = round_.pairings.get()
    lists, units = ArmyList.objects.count(), Unit.objects.count()
    client = Client()
    client.force_login(entrant.user)
    response = client.post(f"/events/{event.slug}/pairings/{pairing.pk}/play/")
    game = Game.objects.get()
    assert response["Location"] == f"/games/{game.pk}/"
    mine = next(side for side in game.setup["sides"] if side["name"] == entrant.name)
    (unit,) = mine["units"]
    assert (unit["name"], unit["quality"], unit["models"], unit["points"]) == ("Sturmtrupp Kessler", "veteran", 6, 110)
    assert game.setup["odds"][unit["key"]]["groups"][0][0] in ("kessler-rifle", "kessler-lmg")
    assert (ArmyList.objects.count(), Unit.objects.count()) == (lists, units)
    board = client.get(response["Location"])
    assert board.status_code == 200 and "Sturmtrupp Kessler" in board.content.decode()


def test_the_organisers_sealed_list_page_shows_the_own_unit_figures(event_with_own_unit):
    event, organiser, entrant, _other = event_with_own_unit
    client = Client()
    client.force_login(organiser)
    page = client.get(f"/events/{event.slug}/entrants/{entrant.pk}/list/").content.decode().replace("&#x27;", "'")
    row = next(tr for tr in page.split("<tr>") if "Sturmtrupp Kessler" in tr)
    assert "player's entry" in row and "Kessler LMG" in row and "110" in row

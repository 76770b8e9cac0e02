"""A walk-in's list pasted as Muster's plain-text export: read back into the list, sealed and judged like
any submission; a line that does not read is refused next to the field with its number, the text kept."""

from __future__ import annotations

import json

import pytest
from django.test import Client
from django.utils import translation
from django.utils.html import escape

from armybuilder.events.models import Entrant, Submission
from armybuilder.lists.exchange import ListImportError, export_data, export_text, parse_list
from armybuilder.lists.models import ArmyList
from armybuilder.lists.summary import list_summary
from armybuilder.lists.text_import import export_from_text
from tests.events.factories import make_entrant, make_event
from tests.lists.factories import (
    make_army,
    make_edition,
    make_entry,
    make_list,
    make_option,
    make_platoon,
    make_unit,
    make_user,
)

pytestmark = pytest.mark.django_db


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _rich_list(**kwargs) -> ArmyList:
    """Two squads of one unit in a rifle platoon (a per-man option, a team that adds two men, a
    shared name numbered on the page) and a veteran squad in no platoon."""
    army = make_army(edition=make_edition("v3"), name="Testland")
    owner = make_user()
    army_list = make_list(owner=owner, army=army, name="Kampfgruppe Walter", **kwargs)
    platoon = make_platoon(army_list)
    squad = make_unit(army=army, name="Rifle Squad", max_models=10)
    smg = make_option(squad, name="Submachine gun", per_model=True)
    lmg = make_option(squad, name="LMG team", adds_models=2, max_count=1)
    make_entry(army_list, squad, platoon=platoon, models_count=6, options={smg.slug: 2, lmg.slug: 1})
    make_entry(army_list, squad, platoon=platoon)
    make_entry(army_list, make_unit(army=army, name="Assault Squad"), quality="veteran")
    return ArmyList.objects.for_builder().get(pk=army_list.pk)


def _text(army_list: ArmyList, language: str = "en") -> str:
    with translation.override(language):
        return export_text(army_list, list_summary(army_list))


def _shape(data: dict) -> list:
    return [(e["unit"], e["quality"], e["models"], e["options"], e["platoon"]) for e in data["entries"]]


def test_the_text_export_reads_back_into_the_same_list():
    army_list = _rich_list()
    data = export_from_text(_text(army_list))
    original = export_data(army_list)
    assert (data["name"], data["edition"], data["army"]) == (original["name"], original["edition"], original["army"])
    assert data["points_limit"] == original["points_limit"]
    assert [p["kind"] for p in data["platoons"]] == ["rifle_platoon"]
    assert _shape(data) == _shape(original)
    parse_list(json.dumps(data), saving=False)  # the JSON reader takes it as it is


def test_a_french_text_export_reads_too():
    army_list = _rich_list()
    with translation.override("fr"):
        data = export_from_text(_text(army_list, "fr"))
    assert _shape(data) == _shape(export_data(army_list))


def test_lines_that_do_not_read_are_named_by_their_number():
    text = _text(_rich_list()).replace("* Assault Squad (Veteran", "* Assault Squad (Legendary")
    text = text.replace("-------------\n", "-------------\nhello there\n", 1)
    with pytest.raises(ListImportError) as refused:
        export_from_text(text)
    lines = text.splitlines()
    hello = lines.index("hello there") + 1
    assault = next(n for n, line in enumerate(lines, start=1) if "Legendary" in line)
    assert refused.value.errors == [
        f"Line {hello}: “hello there” is not a line of Muster's text export.",
        f"Line {assault}: “Legendary” is not a quality (Inexperienced, Regular, Veteran).",
    ]


def test_what_the_text_cannot_carry_is_refused_in_words():
    army_list = _rich_list()
    text = _text(army_list).replace(
        "* Assault Squad (Veteran, 5 models)", "* Assault Squad (Veteran, 5 models) [player's own entry]"
    )
    text = text.replace("Rifle Platoon\n-------------", "First Platoon\n-------------")
    text = text.replace("Testland", "Nowhere")
    with pytest.raises(ListImportError) as refused:
        export_from_text(text)
    said = " ".join(refused.value.errors)
    assert "no army “Nowhere”" in said
    assert "platoon “First Platoon”: the text does not say which kind of platoon" in said


def test_own_units_and_unknown_units_are_refused():
    army_list = _rich_list()
    own = _text(army_list).replace(
        "* Assault Squad (Veteran, 5 models)", "* Assault Squad (Veteran, 5 models) [player's own entry]"
    )
    with pytest.raises(ListImportError) as refused:
        export_from_text(own)
    assert "Assault Squad is the player's own unit" in refused.value.errors[0]
    unknown = _text(army_list).replace("* Assault Squad", "* Panzer Blitz")
    with pytest.raises(ListImportError) as refused:
        export_from_text(unknown)
    assert "no unit “Panzer Blitz” in Testland" in refused.value.errors[0]


def test_text_that_is_not_a_list_is_refused():
    for text in ("hello", "a\nb"):
        with pytest.raises(ListImportError) as refused:
            export_from_text(text)
        assert "too short" in refused.value.errors[0]


# -- Through the dashboard ----------------------------------------------------------------------


def test_the_organiser_adds_a_walk_in_with_a_pasted_text_list():
    event = make_event(make_user("orga"), rounds=3)
    text = _text(_rich_list())
    response = _client(event.organiser).post(f"/events/{event.slug}/manage/walk-ins/", {"name": "Walter", "list": text})
    assert response.status_code == 302
    walk_in = Entrant.objects.get(event=event, walk_in_name="Walter")
    submission = Submission.objects.get(entrant=walk_in)
    assert submission.list_name == "Kampfgruppe Walter" and submission.army_list is None
    assert len(submission.snapshot["entries"]) == 3 and submission.status == "pending"


def test_a_text_with_a_bad_line_is_refused_next_to_the_field_and_kept():
    event = make_event(make_user("orga"), rounds=3)
    text = _text(_rich_list()).replace("* Assault Squad", "* Panzer Blitz")
    response = _client(event.organiser).post(f"/events/{event.slug}/manage/walk-ins/", {"name": "Walter", "list": text})
    assert response.status_code == 400
    page = response.content.decode()
    error = page.split('id="walk-in-list-error"')[1].split("</ul>")[0]
    assert "This list cannot be read:" in error and escape("no unit “Panzer Blitz” in Testland") in error
    assert escape(text).strip() in page  # the pasted text kept in the field
    assert 'value="Walter"' in page
    assert not Entrant.objects.filter(event=event).exists()


def test_a_sent_back_walk_in_list_is_pasted_again_as_text():
    event = make_event(make_user("orga"), rounds=3)
    org = _client(event.organiser)
    org.post(f"/events/{event.slug}/manage/walk-ins/", {"name": "Walter", "list": _text(_rich_list())})
    walk_in = Entrant.objects.get(event=event, walk_in_name="Walter")
    again = _rich_list()
    response = org.post(f"/events/{event.slug}/manage/entrants/{walk_in.pk}/walk-in-list/", {"list": _text(again)})
    assert response.status_code == 302
    assert Submission.objects.get(entrant=walk_in).army_name == again.army.name


def test_only_the_organiser_pastes_a_walk_in_text_list():
    event = make_event(make_user("orga"), rounds=3)
    text = _text(_rich_list())
    url = f"/events/{event.slug}/manage/walk-ins/"
    player = make_entrant(event)
    refused = _client(player.user).post(url, {"name": "Walter", "list": text})
    assert refused.status_code == 404
    assert _client(make_event(make_user()).organiser).post(url, {"name": "Walter", "list": text}).status_code == 404
    assert _client().post(url, {"name": "Walter", "list": text}).status_code == 302  # to log in
    assert not Entrant.objects.filter(event=event, walk_in_name="Walter").exists()

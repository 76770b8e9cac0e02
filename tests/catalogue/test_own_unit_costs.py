"""No points below zero: an own unit's costs are bounded at 0 wherever they are typed, a list's
points never read below 0, and sealing a list refuses what cannot be stored, with words.

The red team's own unit had an option at −2000: its list read "Points: −1800 / 200" (a way to
hide points under an event's limit) and submitting it to an event answered 500.
"""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

from armybuilder.catalogue.models import Option, Unit
from armybuilder.events import services
from armybuilder.events.models import Entrant, Submission
from armybuilder.lists.models import ArmyList
from armybuilder.lists.summary import list_summary
from tests.catalogue.own_units import grenadiers, make_own_list, post_data, three_unit_list
from tests.events.factories import make_event
from tests.lists.factories import make_entry


def _own_unit_with_an_option_at(owner, army, cost: int) -> tuple[Unit, Option]:
    """An own unit saved as the form let it be saved before the bound (straight to the database)."""
    unit = Unit.objects.create(
        army=army,
        owner=owner,
        slug=f"own-{owner.pk}-cheat",
        name="Cheat squad",
        unit_type="infantry",
        slot="infantry",
        source="t",
        cost_regular=200,
    )
    option = Option.objects.create(
        unit=unit, slug="discount", name="Discount", cost_inexperienced=cost, cost_regular=cost, cost_veteran=cost
    )
    return unit, option


@pytest.mark.parametrize("field", ["o-0-cost", "cost_regular", "per_model_regular"])
def test_the_unit_form_refuses_a_cost_below_zero_next_to_its_field(alice_client, alice, v3, field):
    data = grenadiers(v3)
    data[field] = -2000
    response = alice_client.post("/units/new/v3/", data)
    assert response.status_code == 400
    page = response.content.decode()
    # The field's own message, alone, next to it (not the form's).
    assert (
        f'<ul class="errorlist" id="id_{field}_error"><li>A cost cannot be below 0: type the cheaper price itself '
        "instead.</li></ul>" in page
    )
    assert not Unit.objects.filter(owner=alice).exists()


def test_an_option_at_zero_is_still_accepted(alice_client, alice, v3):
    data = post_data(v3, options=[{"name": "Free flag", "cost": 0}])
    assert alice_client.post("/units/new/v3/", data).status_code == 302
    assert Unit.objects.get(owner=alice).options.get().cost() == {"inexperienced": 0, "regular": 0, "veteran": 0}


def test_a_file_with_an_option_below_zero_is_refused_at_its_place(alice_client, alice, v3):
    army_list = three_unit_list(alice_client, alice, v3)
    data = json.loads(alice_client.get(f"/lists/{army_list.pk}/export.json").content)
    squad = next(i for i, unit in enumerate(data["own_units"]) if unit["name"] == "Grenadier Squad")
    data["own_units"][squad]["options"][0]["cost"] = -2000
    response = alice_client.post("/lists/import/", {"text": json.dumps(data)})
    page = response.content.decode()
    assert (
        f"own_units[{squad}].options[0].cost: A cost cannot be below 0: type the cheaper price itself instead." in page
    )
    assert ArmyList.objects.filter(owner=alice).count() == 1


def test_a_list_never_reads_below_zero_points_and_says_which_entry(alice_client, alice, v3):
    unit, option = _own_unit_with_an_option_at(alice, v3, -2000)
    army_list = make_own_list(alice_client, v3)
    make_entry(army_list, unit, models_count=1, options={option.slug: 1})
    summary = list_summary(ArmyList.objects.for_builder().get(pk=army_list.pk))
    assert summary.points == 0
    assert [problem.params.get("reason") for problem in summary.problems] == ["negative-points"]
    page = alice_client.get(f"/lists/{army_list.pk}/").content.decode()
    assert "−1800" not in page and "-1800 / " not in page
    assert "Cheat squad would cost -1800 points with its options; an entry never costs less than 0." in page


def test_a_copy_of_an_option_below_zero_is_kept_at_zero(alice, v3):
    from armybuilder.catalogue import own_units

    unit, _option = _own_unit_with_an_option_at(alice, v3, -150)
    copy = own_units.copy_unit(alice, unit)
    assert copy.options.get().cost() == {"inexperienced": 0, "regular": 0, "veteran": 0}


def _entered(client, owner, army):
    event = make_event(edition=army.edition, points_limit=200)
    Entrant.objects.create(event=event, user=owner)
    army_list = make_own_list(client, army)
    return event, army_list


def test_submitting_the_red_teams_list_seals_it_at_zero_with_its_problem(alice_client, alice, v3):
    unit, option = _own_unit_with_an_option_at(alice, v3, -2000)
    event, army_list = _entered(alice_client, alice, v3)
    make_entry(army_list, unit, models_count=1, options={option.slug: 1})
    response = alice_client.post(f"/events/{event.slug}/submit/", {"army_list": army_list.pk})
    assert response.status_code == 302
    submission = Submission.objects.get(entrant__event=event)
    assert submission.points == 0
    assert [p["params"].get("reason") for p in submission.facts["problems"]] == ["negative-points"]


def test_sealing_refuses_points_it_cannot_store_with_words(alice_client, alice, v3, monkeypatch):
    # A summary as one made before points were floored at 0 would read.
    event, army_list = _entered(alice_client, alice, v3)
    make_entry(army_list, Unit.objects.get(army=v3, slug="rifle-squad"), models_count=5)
    monkeypatch.setattr(services, "list_summary", lambda found: replace(list_summary(found), points=-1800))
    response = alice_client.post(f"/events/{event.slug}/submit/", {"army_list": army_list.pk})
    assert response.status_code == 400
    page = response.content.decode()
    assert "This list&#x27;s points cannot be sealed (below 0 or beyond any limit)" in page
    assert 'class="errorlist' in page
    assert not Submission.objects.exists()


def test_sealing_a_row_the_database_refuses_answers_with_words_not_500(alice_client, alice, v3, monkeypatch):
    from django.db import IntegrityError

    event, army_list = _entered(alice_client, alice, v3)
    make_entry(army_list, Unit.objects.get(army=v3, slug="rifle-squad"), models_count=5)

    def refused(*args, **kwargs):
        raise IntegrityError('new row for relation "events_submission" violates check constraint')

    monkeypatch.setattr(Submission.objects, "update_or_create", refused)
    response = alice_client.post(f"/events/{event.slug}/submit/", {"army_list": army_list.pk})
    assert response.status_code == 400
    assert "This list could not be sealed as it is: nothing was submitted." in response.content.decode()


def test_the_deadline_refusal_is_shown_at_the_form_too(alice_client, alice, v3):
    import datetime

    from django.utils import timezone

    event, army_list = _entered(alice_client, alice, v3)
    event.list_deadline = timezone.now() - datetime.timedelta(minutes=1)
    event.save()
    response = alice_client.post(f"/events/{event.slug}/submit/", {"army_list": army_list.pk})
    assert response.status_code == 400
    assert "The list deadline has passed." in response.content.decode()

"""In a real browser on phones: an escalation event. The organiser sets two stages (an overlap refused
next to its field first, everything typed kept), a player seals a list for each stage (one for the
wrong stage refused in words), a round of stage 2 is paired, and "Play this game in Muster" opens game
day with the stage-2 lists."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from armybuilder.events import escalation, services
from armybuilder.events.models import Entrant, StageSubmission, Submission
from armybuilder.games.models import Game
from tests.conftest import log_in
from tests.events.factories import make_event, make_player_list
from tests.lists.factories import make_army, make_edition, make_entry, make_unit, make_user

PHONE = {"width": 390, "height": 844}


def _fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_escalation_event_on_phones(django_db_setup, live_server, new_browser_context):
    event = make_event(make_user("orga"), published=True, rounds=2)
    army = make_army(edition=make_edition("v3"))
    anna = make_user("anna")
    anna_entrant = Entrant.objects.create(event=event, user=anna)
    small = make_player_list(anna, army, units=2, name="Recon patrol")
    big = make_player_list(anna, army, units=2, name="Reinforced company")
    make_entry(big, make_unit(army=army, name="Stage Two Squad"))  # three units: 150 points

    # The organiser sets the stages on a phone: an overlap first, refused next to its field.
    organiser = new_browser_context(viewport=PHONE)
    log_in(organiser, live_server, event.organiser)
    org = organiser.new_page()
    org.goto(f"/events/{event.slug}/manage/#stages")
    _fits(org)
    org.get_by_text("Set the stages").click()  # folded away on an event without stages
    for field, value in {"points_1": "100", "first_1": "1", "last_1": "2", "points_2": "150"}.items():
        org.locator(f"#stages-{field}").fill(value)
    org.locator("#stages-first_2").fill("2")
    org.locator("#stages-last_2").fill("2")
    org.get_by_role("button", name="Save the stages").click()
    expect(org.locator("#stages-first_2-error")).to_contain_text("Round 2 already belongs to another stage")
    expect(org.locator("#stages-points_2")).to_have_value("150")
    expect(org.locator("#stages-last_1")).to_have_value("2")
    _fits(org)
    org.locator("#stages-last_1").fill("1")
    org.get_by_role("button", name="Save the stages").click()
    expect(org.locator("body")).to_contain_text("The stages are set")
    expect(org.locator("#stage-2")).to_contain_text("Stage 2: 150 points, round 2")
    _fits(org)

    # Anna seals a list per stage on her phone; the big list for stage 1 is refused in words.
    player = new_browser_context(viewport=PHONE)
    log_in(player, live_server, anna)
    me = player.new_page()
    me.goto(f"/events/{event.slug}/")
    expect(me.locator("dl.event-rules")).to_contain_text("Stage 1: 100 points, round 1")
    _fits(me)
    me.locator("#my-stage-1").get_by_role("link", name="Submit a list").click()
    expect(me.locator("#id_stage")).to_have_value("1")
    me.locator("#id_army_list").select_option(label="Reinforced company")
    me.get_by_role("button", name="Seal and submit").click()
    expect(me.locator("body")).to_contain_text("This list has 150 points: stage 1 allows 100.")
    expect(me.locator("#id_army_list")).to_have_value(str(big.pk))
    _fits(me)
    me.locator("#id_army_list").select_option(label="Recon patrol")
    me.get_by_role("button", name="Seal and submit").click()
    expect(me.locator("#my-stage-1")).to_contain_text("Sealed: Recon patrol")
    me.locator("#my-stage-2").get_by_role("link", name="Submit a list").click()
    expect(me.locator("#id_stage")).to_have_value("2")
    me.locator("#id_army_list").select_option(label="Reinforced company")
    me.get_by_role("button", name="Seal and submit").click()
    expect(me.locator("#my-stage-2")).to_contain_text("Sealed: Reinforced company")
    _fits(me)
    sealed = dict(StageSubmission.objects.filter(entrant=anna_entrant).values_list("stage__number", "army_list"))
    assert sealed == {1: small.pk, 2: big.pk}

    # The organiser approves Anna's stage-2 list on the phone; the rest of the field is made here.
    org.goto(f"/events/{event.slug}/manage/")  # the whole page again (a new anchor alone would not reload it)
    org.locator(f"#stage-2-entrant-{anna_entrant.pk}").get_by_role("button", name="Approve").click()
    expect(org.locator(f"#stage-2-entrant-{anna_entrant.pk}")).to_contain_text("Approved")
    _fits(org)
    StageSubmission.objects.filter(entrant=anna_entrant).update(status=Submission.Status.APPROVED)
    for name in ("boris", "carl", "dora"):
        user = make_user(name)
        entrant = Entrant.objects.create(event=event, user=user)
        for number, units in ((1, 2), (2, 3)):
            escalation.seal_stage(entrant, number, make_player_list(user, army, units=units).pk)
        StageSubmission.objects.filter(entrant=entrant).update(status=Submission.Status.APPROVED)
    first = services.pair_next_round(event)
    services.publish_round(first)
    for pairing in first.pairings.all():
        services.override_result(pairing, "a", 2, 1)
    second = services.pair_next_round(event)
    services.publish_round(second)
    mine = second.pairings.filter(player_a=anna_entrant).first() or second.pairings.get(player_b=anna_entrant)

    # Round 2 plays stage 2: Anna plays it in game day with her stage-2 list.
    me.goto(f"/events/{event.slug}/rounds/2/")
    expect(me.locator(".round-stage")).to_contain_text("Stage 2: 150 points, round 2")
    _fits(me)
    me.locator(f"#pairing-{mine.pk}").get_by_role("button", name="Play this game in Muster").click()
    expect(me.locator("body")).to_contain_text("Stage Two Squad", timeout=30_000)
    game = Game.objects.get()
    assert me.url.endswith(f"/games/{game.pk}/")
    mine_side = next(side for side in game.setup["sides"] if side["name"] == anna_entrant.name)
    assert len(mine_side["units"]) == 3
    _fits(me)

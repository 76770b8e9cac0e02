"""A whole tournament day in a real browser: a 12-player, 4-round escalation event, on phones and a
desktop, in English and French.

The organiser drives the day in one browser and Anna plays it on another: in one case the organiser
is on a desktop in English and Anna on a phone in French, in the other the other way round. Eleven
players are entered here with approved lists for both stages (stage 1: 100 points, rounds 1–2;
stage 2: 150 points, rounds 3–4), ten of them checked in.

Through the browser: the organiser checks Anna in and adds Walter as a walk-in (his stage-1 list
pasted as text with him, his stage-2 list pasted in the stages table) and approves the new stage
lists; Anna seals her stage-2 list on her device; the organiser types the missions, rolls round 1's
and chooses round 3's; pairs and publishes every round, swapping Walter in as Anna's round-1
opponent; starts round 1's timer, which Anna's page counts down; gives Boris a penalty, seen in the
standings' breakdown; publishes round 2 by mistake, takes it back (its result set aside) and pairs
it again; drops Carl from round 3 on. Anna enters her results of rounds 1 and 3: the organiser sets
the first (Walter has no account to confirm it), her opponent confirms the second on their own
device; she reads her stage-2 list from her round-3 pairing. The organiser sets Walter's game of
every round. The other games are resulted through the services the pages call (entered and
confirmed, or set by the organiser).
"""

from __future__ import annotations

import re

import pytest
from django.db.models import Q
from playwright.sync_api import expect

from armybuilder.events import escalation, services
from armybuilder.events.models import (
    Adjustment,
    Entrant,
    Pairing,
    Result,
    Round,
    SetAsideResults,
    StageSubmission,
    Submission,
)
from armybuilder.lists.exchange import export_text
from armybuilder.lists.models import ArmyList
from armybuilder.lists.summary import list_summary
from rules.events.stages import StagePlan
from tests.conftest import log_in
from tests.events.factories import make_event, make_player_list
from tests.lists.factories import make_army, make_edition, make_entry, make_unit, make_user

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}

# Each test unit costs 50 points: a stage-1 list holds two, a stage-2 list three.
STAGES = [StagePlan(100, 1, 2), StagePlan(150, 3, 4)]
OTHERS = ("boris", "carl", "dora", "emil", "fritz", "greta", "hugo", "ines", "jonas", "kurt")
MISSIONS = (
    "Key Positions / Long edges / Meeting engagement",
    "Envelopment / Short edges / Prepared positions",
    "Top Secret / Diagonal / Meeting engagement",
)

# What the test reads and clicks, in French (from locale/fr); English is the text itself.
FRENCH = {
    "Check in": "Pointer présent",
    "anna is checked in.": "anna est pointé présent.",
    "Checked in": "Présent",
    "Add the walk-in": "Ajouter le joueur",
    "Walter is entered with their list": "Walter est inscrit avec sa liste",
    "Seal this list": "Sceller cette liste",
    "Walter's list for stage 2 is sealed": "La liste de Walter pour le palier 2 est scellée",
    "You have not submitted a list yet.": "Vous n'avez pas encore soumis de liste.",
    "Submit a list": "Soumettre une liste",
    "Seal and submit": "Sceller et soumettre",
    "Approved": "Approuvée",
    "Save the missions": "Enregistrer les missions",
    "3 missions saved.": "3 missions enregistrées.",
    "Pair the next round": "Apparier la ronde suivante",
    "Roll a mission": "Tirer une mission au sort",
    "Set": "Appliquer",
    "Round {n} plays {m}.": "La ronde {n} se joue en {m}.",
    "Publish this round": "Publier cette ronde",
    "Set by the organiser": "Fixé par l'organisateur",
    "Send": "Envoyer",
    "Waiting for confirmation": "En attente de confirmation",
    "Round length (minutes)": "Durée de la ronde (minutes)",
    "Start the timer": "Lancer le chronomètre",
    "The round ends at": "La ronde se termine à",
    "The last turn should start by": "Le dernier tour doit commencer avant",
    "Stage 1: 100 points, rounds 1–2": "Palier 1 : 100 points, rondes 1 à 2",
    "Stage 2: 150 points, rounds 3–4": "Palier 2 : 150 points, rondes 3 à 4",
    "Give the points": "Attribuer les points",
    "Bonus / penalty": "Bonus / pénalité",
    "Take back this round…": "Annuler cette ronde…",
    "Its 1 result will be set aside": "Son 1 résultat sera mis de côté",
    "Take back round 2": "Annuler la ronde 2",
    "Round 2 is a draft again: 1 result was set aside.": (
        "La ronde 2 est de nouveau un brouillon : 1 résultat a été mis de côté."
    ),
    "Round 2, taken back: 1 result": "Ronde 2, annulée : 1 résultat",
    "Pair this round again": "Apparier cette ronde de nouveau",
    "Confirm this result": "Confirmer ce résultat",
    "Confirmed": "Confirmé",
    "Swap": "Échanger",
    "Your opponent entered without an account: the organiser confirms the result": (
        "Votre adversaire s'est inscrit sans compte : l'organisateur confirme le résultat"
    ),
    "Dropped from round 3": "Retiré à partir de la ronde 3",
    "list A": "liste A",
    "list B": "liste B",
    "dropped": "retiré",
    "Standings": "Classement",
}


def _say(lang: str):
    return (lambda text: FRENCH[text]) if lang == "fr" else (lambda text: text)


def _fits(page, viewport) -> None:
    if viewport is PHONE:
        assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def _browser(new_browser_context, live_server, user, viewport, lang):
    context = new_browser_context(viewport=viewport)
    context.add_cookies([{"name": "django_language", "value": lang, "url": live_server.url}])
    log_in(context, live_server, user)
    return context.new_page()


def _pairing_of(event, number: int, entrant) -> Pairing:
    return Pairing.objects.select_related("player_a__user", "player_b__user").get(
        Q(player_a=entrant) | Q(player_b=entrant), round__event=event, round__number=number
    )


def _game_score(event, entrant) -> int:
    """The entrant's score from the published rounds' games, counted here from the results (3 for a
    win or a bye, 1 for a draw), to hold the standings' figure against."""
    score = 0
    games = Pairing.objects.filter(Q(player_a=entrant) | Q(player_b=entrant), round__event=event, round__published=True)
    for pairing in games.select_related("result"):
        if pairing.player_b_id is None:
            score += 3
        elif pairing.result.outcome == "draw":
            score += 1
        elif (pairing.result.outcome == "a") == (pairing.player_a_id == entrant.pk):
            score += 3
    return score


def _standing_score(page, name: str) -> int:
    row = page.locator("table.standings tbody tr", has=page.locator("td:nth-child(2)", has_text=name))
    return int(row.locator("td").nth(2).inner_text())


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(
    ("org_viewport", "org_lang", "player_viewport", "player_lang"),
    [(DESKTOP, "en", PHONE, "fr"), (PHONE, "fr", DESKTOP, "en")],
    ids=["organiser-desktop-en-player-phone-fr", "organiser-phone-fr-player-desktop-en"],
)
def test_a_tournament_day(
    django_db_setup, live_server, new_browser_context, org_viewport, org_lang, player_viewport, player_lang
):
    o, p = _say(org_lang), _say(player_lang)
    army = make_army(edition=make_edition("v3"), slug="germany", name="Germany")
    event = make_event(make_user("orga"), name="Spring Escalation", rounds=4, published=True)
    escalation.set_stages(event, STAGES)
    slug = event.slug

    # Eleven players with approved lists for both stages; Anna has sealed only her stage-1 list.
    entrants = {}
    for name in ("anna", *OTHERS):
        user = make_user(name)
        entrant = entrants[name] = Entrant.objects.create(event=event, user=user)
        for number, units in ((1, 2), (2, 3)):
            if name == "anna" and number == 2:
                continue
            escalation.seal_stage(
                entrant, number, make_player_list(user, army, units=units, name=f"{name} {number}").pk
            )
        StageSubmission.objects.filter(entrant=entrant).update(status=Submission.Status.APPROVED)
    anna, boris, carl = entrants["anna"], entrants["boris"], entrants["carl"]
    reinforced = make_player_list(anna.user, army, units=2, name="Reinforced company")
    make_entry(reinforced, make_unit(army=army, name="Sturmtrupp Nord"))  # three units: 150 points
    # Walter's lists, as the text he brings on the day (Muster's text export).
    walter_lists = []
    for units in (2, 3):
        source = ArmyList.objects.for_builder().get(pk=make_player_list(make_user(), army, units=units).pk)
        walter_lists.append(export_text(source, list_summary(source)))

    org = _browser(new_browser_context, live_server, event.organiser, org_viewport, org_lang)
    me = _browser(new_browser_context, live_server, anna.user, player_viewport, player_lang)
    manage = f"/events/{slug}/manage/"

    # -- Sign-up on the day ---------------------------------------------------------------------
    # Players are checked in as they arrive (ten here); the organiser checks Anna in on the dashboard.
    for name in OTHERS:
        services.check_in(event, entrants[name].pk, True)
    org.goto(manage)
    _fits(org, org_viewport)
    org.get_by_role("button", name=f"{o('Check in')} anna").click()
    expect(org.locator("body")).to_contain_text(o("anna is checked in."))
    expect(org.locator(f"#entrant-{anna.pk}")).to_contain_text(o("Checked in"))
    # The organiser adds Walter, a walk-in, with his stage-1 list pasted as text.
    org.locator("#walk-in-name").fill("Walter")
    org.locator("#walk-in-list").fill(walter_lists[0])
    org.get_by_role("button", name=o("Add the walk-in")).click()
    expect(org.locator("body")).to_contain_text(o("Walter is entered with their list"))
    walter = Entrant.objects.get(event=event, walk_in_name="Walter")
    assert walter.checked_in  # he is there: checking players in leaves nobody present out of round 1
    expect(org.locator(f"#stage-1-entrant-{walter.pk}")).to_contain_text("100")
    # ... and his stage-2 list in his row of the stages table.
    stage_2_row = org.locator(f"#stage-2-entrant-{walter.pk}")
    stage_2_row.locator("summary").click()
    stage_2_row.locator(f"#walk-in-{walter.pk}-stage-2-list").fill(walter_lists[1])
    stage_2_row.get_by_role("button", name=o("Seal this list")).click()
    expect(org.locator("body")).to_contain_text(o("Walter's list for stage 2 is sealed"))
    assert dict(StageSubmission.objects.filter(entrant=walter).values_list("stage__number", "points")) == {
        1: 100,
        2: 150,
    }

    # Anna seals her stage-2 list on her device.
    me.goto(f"/events/{slug}/")
    expect(me.locator("#my-stage-2")).to_contain_text(p("You have not submitted a list yet."))
    me.locator("#my-stage-2").get_by_role("link", name=p("Submit a list")).click()
    expect(me.locator("#id_stage")).to_have_value("2")
    me.locator("#id_army_list").select_option(label="Reinforced company")
    me.get_by_role("button", name=p("Seal and submit")).click()
    expect(me.locator("#my-stage-2")).to_contain_text("Reinforced company")
    _fits(me, player_viewport)

    # The organiser approves the three new stage lists.
    org.goto(manage)
    for number, entrant in ((1, walter), (2, walter), (2, anna)):
        row = f"#stage-{number}-entrant-{entrant.pk}"
        org.locator(f"{row} button[value=approve]").click()
        expect(org.locator(row)).to_contain_text(o("Approved"))
    assert StageSubmission.objects.filter(stage__event=event, status=Submission.Status.APPROVED).count() == 24

    # The missions, typed as the rules pack names them.
    org.locator("#missions-missions").fill("\n".join(MISSIONS))
    org.get_by_role("button", name=o("Save the missions")).click()
    expect(org.locator("body")).to_contain_text(o("3 missions saved."))
    _fits(org, org_viewport)

    def pair_and_publish(number: int, games: int, *, mission: str | None = None, seat_walter: bool = False) -> Round:
        """Pair the next round on the dashboard, give it its mission (rolled, or chosen), publish it;
        ``seat_walter``: first swap Walter in as Anna's opponent in the draft."""
        org.goto(manage)
        org.get_by_role("button", name=o("Pair the next round")).click()
        expect(org.locator("ol.pairings li")).to_have_count(games)
        draft = _pairing_of(event, number, anna)
        opponent_id = draft.player_b_id if draft.player_a_id == anna.pk else draft.player_a_id
        if seat_walter and opponent_id != walter.pk:  # the draw may have seated them together already
            swap = org.locator("form[action$='/swap/']")
            swap.locator("select[name=first]").select_option(str(opponent_id))
            swap.locator("select[name=second]").select_option(str(walter.pk))
            swap.get_by_role("button", name=o("Swap"), exact=True).click()
            expect(org.locator("ol.pairings li", has_text="anna")).to_contain_text("Walter")
        round_row = org.locator(f"#round-{number}")
        if mission is None:
            round_row.get_by_role("button", name=o("Roll a mission")).click()
        else:
            round_row.locator(f"#mission-{number}-mission").fill(mission)
            round_row.get_by_role("button", name=o("Set"), exact=True).click()
        # The message first (the page after the answer), then the database.
        said = re.escape(o("Round {n} plays {m}.")).replace(re.escape("{n}"), str(number))
        expect(org.locator("body")).to_contain_text(re.compile(said.replace(re.escape("{m}"), ".+")))
        round_ = Round.objects.get(event=event, number=number)
        expect(org.locator("body")).to_contain_text(o("Round {n} plays {m}.").format(n=number, m=round_.mission))
        assert mission is None or round_.mission == mission
        assert round_.mission in MISSIONS
        org.get_by_role("button", name=o("Publish this round")).click()
        org.wait_for_url(f"**/events/{slug}/rounds/{number}/")
        return round_

    def organiser_sets(pairing: Pairing, outcome_index: int, dice_a: int, dice_b: int) -> None:
        """The organiser sets a game's result on the round page (``outcome_index``: 0 A won, 1 B won, 2 draw)."""
        org.goto(f"/events/{slug}/rounds/{pairing.round.number}/")
        card = org.locator(f"#pairing-{pairing.pk}")
        card.locator("details summary").click()
        card.locator(f"#p{pairing.pk}-outcome_{outcome_index}").check()
        card.locator(f"#p{pairing.pk}-dice_a").fill(str(dice_a))
        card.locator(f"#p{pairing.pk}-dice_b").fill(str(dice_b))
        card.locator("form[action$='/override/'] button[type=submit]").click()
        expect(org.locator(f"#pairing-{pairing.pk}")).to_contain_text(o("Set by the organiser"))

    def anna_enters_a_win(pairing: Pairing) -> None:
        """Anna enters her win on her device; it waits for the other side."""
        me.goto(f"/events/{slug}/rounds/{pairing.round.number}/")
        card = me.locator(f"#pairing-{pairing.pk}")
        card.locator(f"#p{pairing.pk}-outcome_{0 if pairing.player_a_id == anna.pk else 1}").check()
        card.locator(f"#p{pairing.pk}-dice_a").fill("5" if pairing.player_a_id == anna.pk else "1")
        card.locator(f"#p{pairing.pk}-dice_b").fill("1" if pairing.player_a_id == anna.pk else "5")
        card.get_by_role("button", name=p("Send")).click()
        expect(me.locator(f"#pairing-{pairing.pk}")).to_contain_text(p("Waiting for confirmation"))
        _fits(me, player_viewport)

    def rest_of_the_round(number: int) -> None:
        """Walter's game set by the organiser in the browser (unless done), every other game entered
        and confirmed through the services, Anna's a win for her."""
        walter_game = _pairing_of(event, number, walter)
        if not Result.objects.filter(pairing=walter_game).exists() and not walter_game.is_bye:
            organiser_sets(walter_game, 0, 3, 2)
        for pairing in Pairing.objects.filter(round__event=event, round__number=number, result__isnull=True):
            if pairing.is_bye:
                continue
            if anna.pk in (pairing.player_a_id, pairing.player_b_id):
                services.override_result(pairing, "a" if pairing.player_a_id == anna.pk else "b", 4, 2)
                continue
            services.enter_result(pairing, pairing.player_a, "a" if pairing.pk % 3 else "draw", 3, 2)
            services.confirm_result(pairing, pairing.player_b)

    # -- Round 1: stage 1, a rolled mission, the timer ------------------------------------------
    first = pair_and_publish(1, games=6, seat_walter=True)
    assert Pairing.objects.filter(round=first).count() == 6
    org.get_by_label(o("Round length (minutes)")).fill("90")
    org.get_by_role("button", name=o("Start the timer")).click()
    expect(org.locator("#timer")).to_contain_text(o("The round ends at"))
    _fits(org, org_viewport)

    me.goto(f"/events/{slug}/rounds/1/")
    expect(me.locator(".round-stage")).to_contain_text(p("Stage 1: 100 points, rounds 1–2"))
    expect(me.locator(".round-mission")).to_contain_text(first.mission)
    countdown = me.locator("[data-countdown]")
    # About 90 minutes left (a busy machine may take a while to load the page).
    expect(countdown).to_have_text(re.compile(r"^1:[23]\d:\d\d$"))
    expect(countdown).not_to_have_text(countdown.inner_text())  # it ticks
    expect(me.locator("#timer")).to_contain_text(p("The last turn should start by"))
    _fits(me, player_viewport)
    # Anna plays Walter: she enters her win, her page says the organiser confirms it, who sets it.
    against_walter = _pairing_of(event, 1, anna)
    assert walter.pk in (against_walter.player_a_id, against_walter.player_b_id)
    anna_enters_a_win(against_walter)
    expect(me.locator(f"#pairing-{against_walter.pk}")).to_contain_text(
        p("Your opponent entered without an account: the organiser confirms the result")
    )
    organiser_sets(against_walter, 0 if against_walter.player_a_id == anna.pk else 1, 5, 1)
    rest_of_the_round(1)
    # Each result records the round's mission.
    assert set(Result.objects.filter(pairing__round=first).values_list("mission", flat=True)) == {first.mission}

    # -- A penalty, seen in the standings' breakdown -------------------------------------------
    org.goto(f"/events/{slug}/standings/")
    before = _standing_score(org, "boris")
    assert before == _game_score(event, boris)
    org.goto(manage)
    org.locator("#adjust-entrant").select_option(label="boris")
    org.locator("#adjust-category").select_option("late-list")
    org.locator("#adjust-amount").fill("-2")
    org.locator("#adjust-round_number").fill("1")
    org.locator("#adjust-reason").fill("List sent on the day")
    org.get_by_role("button", name=o("Give the points")).click()
    expect(org.locator("#adjustments table")).to_contain_text("List sent on the day")
    assert list(Adjustment.objects.values_list("entrant", "amount")) == [(boris.pk, -2)]
    org.goto(f"/events/{slug}/standings/")
    boris_row = org.locator("table.standings tbody tr", has=org.locator("td:nth-child(2)", has_text="boris"))
    expect(boris_row.locator(".adjust-breakdown")).to_contain_text("List sent on the day")
    expect(org.locator("table.standings thead")).to_contain_text(o("Bonus / penalty"))
    assert _standing_score(org, "boris") == before - 2
    _fits(org, org_viewport)

    # -- Round 2: published by mistake, taken back, paired again ----------------------------------
    mistaken = pair_and_publish(2, games=6)
    services.override_result(mistaken.pairings.first(), "a", 2, 1)  # a result entered before anyone noticed
    org.goto(manage)
    org.locator("#round-2").get_by_role("link", name=o("Take back this round…")).click()
    expect(org.locator("body")).to_contain_text(o("Its 1 result will be set aside"))
    org.get_by_role("button", name=o("Take back round 2")).click()
    expect(org.locator("body")).to_contain_text(o("Round 2 is a draft again: 1 result was set aside."))
    assert not Round.objects.get(pk=mistaken.pk).published
    assert not Result.objects.filter(pairing__round__number=2, pairing__round__event=event).exists()
    assert [len(aside.results) for aside in SetAsideResults.objects.filter(event=event)] == [1]
    aside = org.locator("details.set-aside")
    aside.locator("summary").click()
    set_aside = SetAsideResults.objects.get(event=event).results[0]
    expect(aside).to_contain_text(o("Round 2, taken back: 1 result"))
    expect(aside.locator("li")).to_contain_text(set_aside["player_a"]["name"])
    expect(aside.locator("li")).to_contain_text(set_aside["player_b"]["name"])
    org.get_by_role("button", name=o("Pair this round again")).click()
    expect(org.locator("ol.pairings li")).to_have_count(6)
    org.get_by_role("button", name=o("Publish this round")).click()
    org.wait_for_url(f"**/events/{slug}/rounds/2/")
    again = Round.objects.get(event=event, number=2)
    assert again.pk != mistaken.pk and again.mission == mistaken.mission  # the room was told the mission
    me.goto(f"/events/{slug}/rounds/2/")
    expect(me.locator(".round-mission")).to_contain_text(mistaken.mission)
    rest_of_the_round(2)

    # -- Carl drops from round 3 on --------------------------------------------------------------
    org.goto(manage)
    carl_row = org.locator(f"#entrant-{carl.pk}")
    carl_row.locator(f"#drop-{carl.pk}-from_round").fill("3")
    carl_row.locator("form.drop-form button[type=submit]").click()
    expect(org.locator(f"#entrant-{carl.pk}")).to_contain_text(o("Dropped from round 3"))
    carl.refresh_from_db()
    assert carl.dropped and carl.dropped_from == 3

    # -- Round 3: stage 2, a chosen mission, eleven players (a bye) ------------------------------
    third = pair_and_publish(3, games=6, mission=MISSIONS[2])
    assert not Pairing.objects.filter(Q(player_a=carl) | Q(player_b=carl), round=third).exists()
    assert Pairing.objects.filter(round=third, player_b__isnull=True).count() == 1
    me.goto(f"/events/{slug}/rounds/3/")
    expect(me.locator("ol.pairings")).not_to_contain_text("carl")
    expect(me.locator(".round-stage")).to_contain_text(p("Stage 2: 150 points, rounds 3–4"))
    expect(me.locator(".round-mission")).to_contain_text(MISSIONS[2])
    mine = _pairing_of(event, 3, anna)
    assert not mine.is_bye  # two wins ahead of the field: the bye goes lower down
    side = "A" if mine.player_a_id == anna.pk else "B"
    my_list = me.locator(f"#pairing-{mine.pk}").get_by_role("link", name=p(f"list {side}"))
    expect(my_list).to_have_attribute("href", f"/events/{slug}/entrants/{anna.pk}/stages/2/list/")
    my_list.click()
    expect(me.locator("h1")).to_have_text("Reinforced company")
    expect(me.locator(".stage-of-list")).to_contain_text(p("Stage 2: 150 points, rounds 3–4"))
    expect(me.locator("table.sealed-units")).to_contain_text("Sturmtrupp Nord")
    _fits(me, player_viewport)
    # Anna enters her win; her opponent (not Walter: no rematch) confirms it on their own device.
    anna_enters_a_win(mine)
    opponent = mine.player_b if mine.player_a_id == anna.pk else mine.player_a
    them = _browser(new_browser_context, live_server, opponent.user, player_viewport, player_lang)
    them.goto(f"/events/{slug}/rounds/3/")
    them.locator(f"#pairing-{mine.pk}").get_by_role("button", name=p("Confirm this result")).click()
    expect(them.locator(f"#pairing-{mine.pk}")).to_contain_text(p("Confirmed"))
    assert Result.objects.get(pairing=mine).confirmed
    them.context.close()
    rest_of_the_round(3)

    # -- Round 4 ----------------------------------------------------------------------------------
    pair_and_publish(4, games=6)
    rest_of_the_round(4)
    org.goto(manage)
    expect(org.get_by_role("button", name=o("Pair the next round"))).to_have_count(0)  # the last round is played

    # -- The final standings, on Anna's device ------------------------------------------------------
    me.goto(f"/events/{slug}/standings/")
    rows = me.locator("table.standings tbody tr")
    expect(rows).to_have_count(12)
    carl_standing = me.locator("table.standings tbody tr", has=me.locator("td:nth-child(2)", has_text="carl"))
    expect(carl_standing).to_contain_text(p("dropped"))
    boris_standing = me.locator("table.standings tbody tr", has=me.locator("td:nth-child(2)", has_text="boris"))
    expect(boris_standing.locator(".adjust-breakdown")).to_contain_text("List sent on the day")
    assert _standing_score(me, "boris") == _game_score(event, boris) - 2
    assert _standing_score(me, "carl") == _game_score(event, carl)
    assert _standing_score(me, "anna") == _game_score(event, anna)
    scores = [int(rows.nth(i).locator("td").nth(2).inner_text()) for i in range(12)]
    assert scores == sorted(scores, reverse=True)
    expect(me.locator("h1")).to_contain_text(p("Standings"))
    _fits(me, player_viewport)
    # The same standings in the API: the penalty given and the drop.
    api = me.request.get(f"/api/events/{slug}/standings/").json()["standings"]
    assert len(api) == 12
    by_name = {row["entrant"]["name"]: row for row in api}
    assert by_name["boris"]["adjustments"] == [
        {"category": "late-list", "points": -2, "round": 1, "reason": "List sent on the day"}
    ]
    assert by_name["boris"]["score"] == _standing_score(me, "boris")
    assert [name for name, row in by_name.items() if row["dropped"]] == ["carl"]
    # Carl played rounds 1 and 2 only; Anna, Walter and every other player all four.
    played = {
        name: Pairing.objects.filter(Q(player_a=e) | Q(player_b=e), round__event=event).count()
        for name, e in entrants.items()
    }
    assert played["carl"] == 2 and played["anna"] == 4
    assert Pairing.objects.filter(Q(player_a=walter) | Q(player_b=walter), round__event=event).count() == 4

"""Escalation events: stages set by the organiser, a list sealed per stage, paired and played per stage."""

from __future__ import annotations

import csv
import html
import io

import pytest
from django.test import Client
from django.utils.html import escape

from armybuilder.events import escalation, jobs, services
from armybuilder.events.models import Entrant, Stage, StageSubmission, Submission
from armybuilder.games.models import Game
from rules.events import stages as stage_rules
from rules.events.stages import StagePlan
from tests.events.factories import make_event, make_player_list
from tests.lists.factories import make_army, make_edition, make_user

pytestmark = pytest.mark.django_db

# Each test unit costs 50 points: stage 1 takes two, stage 2 three.
PLANS = [StagePlan(100, 1, 2), StagePlan(150, 3, 4)]


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _escalation(rounds: int = 4, plans=PLANS, **kwargs):
    organiser = make_user()
    event = make_event(organiser, rounds=rounds, **kwargs)
    escalation.set_stages(event, plans)
    return event, organiser


def _player(event, name: str | None = None, *, army=None, approve: bool = True):
    """An entrant with a list sealed for each stage (2 and 3 units), approved as asked."""
    user = make_user(name)
    entrant = Entrant.objects.create(event=event, user=user)
    army = army or make_army(edition=make_edition("v3"))
    for number, units in ((1, 2), (2, 3)):
        army_list = make_player_list(user, army, units=units, name=f"{user.username} stage {number}")
        escalation.seal_stage(entrant, number, army_list.pk)
    if approve:
        StageSubmission.objects.filter(entrant=entrant).update(status=Submission.Status.APPROVED)
    return entrant


def _play_round(event, number: int):
    round_ = services.pair_next_round(event)
    assert round_.number == number
    services.publish_round(round_)
    return round_


def _finish(round_) -> None:
    for pairing in round_.pairings.all():
        if not pairing.is_bye:
            services.override_result(pairing, "a", 2, 1)


# -- The stages' rules (plain Python) -----------------------------------------------------------


@pytest.mark.parametrize(
    ("plans", "code", "index", "field"),
    [
        ([StagePlan(0, 1, 2), StagePlan(750, 3, 4)], "stage-points", 0, "points"),
        ([StagePlan(500, 1, 2), StagePlan(-5, 3, 4)], "stage-points", 1, "points"),
        ([StagePlan(500, 1, 3), StagePlan(750, 3, 4)], "stage-overlap", 1, "first_round"),
        ([StagePlan(500, 1, 1), StagePlan(750, 3, 4)], "stage-gap", 1, "first_round"),
        ([StagePlan(500, 1, 2), StagePlan(750, 3, 3)], "stage-gap", 1, "last_round"),
        ([StagePlan(500, 1, 2), StagePlan(750, 3, 5)], "stage-round-range", 1, "last_round"),
        ([StagePlan(500, 2, 1), StagePlan(750, 3, 4)], "stage-round-order", 0, "last_round"),
        ([StagePlan(500, 1, 4)], "stage-one", -1, ""),
    ],
)
def test_stages_that_cannot_be_played_are_refused_with_the_stage_and_field(plans, code, index, field):
    with pytest.raises(stage_rules.StageError) as refused:
        stage_rules.check(plans, rounds=4, points_max=100_000)
    assert (refused.value.code, refused.value.index, refused.value.field) == (code, index, field)


def test_stages_come_back_in_round_order_and_a_round_finds_its_stage():
    plans = [StagePlan(750, 3, 4), StagePlan(500, 1, 2)]
    ordered = stage_rules.check(plans, rounds=4, points_max=100_000)
    assert [plan.points for plan in ordered] == [500, 750]
    assert [stage_rules.stage_of(ordered, n) for n in (1, 2, 3, 4, 5)] == [0, 0, 1, 1, None]


# -- Services -------------------------------------------------------------------------------------


def test_set_stages_numbers_them_and_changes_them_until_a_round_is_paired():
    event, _organiser = _escalation()
    assert [(s.number, s.points_limit, s.first_round, s.last_round) for s in Stage.objects.filter(event=event)] == [
        (1, 100, 1, 2),
        (2, 150, 3, 4),
    ]
    escalation.set_stages(event, [StagePlan(120, 1, 2), StagePlan(150, 3, 4)])
    assert Stage.objects.get(event=event, number=1).points_limit == 120
    for name in ("a", "b"):
        _player(event, f"esc-{name}")
    services.pair_next_round(event)
    with pytest.raises(services.EventError) as refused:
        escalation.set_stages(event, [StagePlan(100, 1, 3), StagePlan(150, 4, 4)])
    assert refused.value.code == "stages-paired"
    escalation.set_stages(event, [StagePlan(120, 1, 2), StagePlan(150, 3, 4)])  # the same: nothing changes


def test_a_stage_holding_lists_is_not_removed():
    event, _organiser = _escalation(rounds=6, plans=[StagePlan(100, 1, 2), StagePlan(150, 3, 4), StagePlan(200, 5, 6)])
    entrant = Entrant.objects.create(event=event, user=make_user())
    escalation.seal_stage(entrant, 3, make_player_list(entrant.user, units=4).pk)
    with pytest.raises(services.EventError) as refused:
        escalation.set_stages(event, [StagePlan(100, 1, 3), StagePlan(150, 4, 6)])
    assert refused.value.code == "stage-has-lists"
    assert Stage.objects.filter(event=event).count() == 3 and StageSubmission.objects.count() == 1


def test_a_list_is_sealed_per_stage_and_refused_over_its_stage_points():
    event, _organiser = _escalation()
    entrant = Entrant.objects.create(event=event, user=make_user())
    small = make_player_list(entrant.user, units=2)
    big = make_player_list(entrant.user, units=3)
    with pytest.raises(escalation.OverStagePoints) as refused:
        escalation.seal_stage(entrant, 1, big.pk)
    assert (refused.value.points, refused.value.stage.number) == (150, 1)
    escalation.seal_stage(entrant, 1, small.pk)
    escalation.seal_stage(entrant, 2, big.pk)
    sealed = {s.stage.number: (s.list_name, s.points, s.status) for s in StageSubmission.objects.all()}
    assert sealed == {1: (small.name, 100, "pending"), 2: (big.name, 150, "pending")}
    assert not Submission.objects.exists()  # no event-wide list in an escalation event
    with pytest.raises(services.EventError) as unknown:
        escalation.seal_stage(entrant, 3, small.pk)
    assert unknown.value.code == "no-stage"


def test_each_stage_list_is_judged_against_the_event_rules_with_its_stage_points():
    event, _organiser = _escalation(max_order_dice=2)
    entrant = _player(event)
    views = escalation.stage_views(event)
    # Stage 1's list (2 units) is legal; stage 2's (3 units) breaks the event's order-dice cap.
    assert [view.lists[0].legal for view in views] == [True, False]
    assert "order" in views[1].lists[0].problems[0].rule
    escalation.judge_stage(event, entrant.pk, 2, approve=False, note="Too many dice")
    stage_list = StageSubmission.objects.get(entrant=entrant, stage__number=2)
    assert (stage_list.status, stage_list.note) == ("returned", "Too many dice")


def test_rounds_pair_the_players_approved_for_their_stage():
    event, _organiser = _escalation()
    players = [_player(event, f"pair-{n}") for n in range(4)]
    # The last player's stage-2 list is sent back: they play stage 1's rounds, not stage 2's.
    escalation.judge_stage(event, players[3].pk, 2, approve=False)
    for number in (1, 2):
        round_ = _play_round(event, number)
        assert len([p for p in round_.pairings.all() if not p.is_bye]) == 2
        _finish(round_)
    round_ = _play_round(event, 3)
    paired = {e for p in round_.pairings.all() for e in (p.player_a_id, p.player_b_id) if e}
    assert players[3].pk not in paired and len(paired) == 3


SHORT = [StagePlan(100, 1, 1), StagePlan(150, 2, 2)]


def test_play_this_game_freezes_the_rounds_stage_lists():
    event, _organiser = _escalation(rounds=2, plans=SHORT)
    players = [_player(event, f"play-{n}") for n in range(4)]
    _finish(_play_round(event, 1))
    pairing = _play_round(event, 2).pairings.filter(player_a__in=players).exclude(player_b=None).first()
    starter = pairing.player_a
    response = _client(starter.user).post(f"/events/{event.slug}/pairings/{pairing.pk}/play/")
    game = Game.objects.get()
    assert response.status_code == 302
    units = {side["name"]: len(side["units"]) for side in game.setup["sides"]}
    assert units == {starter.name: 3, pairing.player_b.name: 3}  # stage 2's lists of three units each


def test_a_round_of_stage_one_plays_stage_one_lists():
    event, _organiser = _escalation()
    anna, _boris = _player(event, "anna-one"), _player(event, "boris-one")
    pairing = _play_round(event, 1).pairings.get()
    game = services.start_game(pairing, anna)
    assert [len(side["units"]) for side in game.setup["sides"]] == [2, 2]


def test_the_lists_pdf_prints_each_stage_list():
    event, _organiser = _escalation()
    _player(event, "pdf-a")
    _player(event, "pdf-b", approve=False)
    printed = jobs._printed(event)
    assert [(s.stage.number, s.entrant.user.username) for s in printed] == [(1, "pdf-a"), (2, "pdf-a")]


# -- Views: the organiser sets the stages ---------------------------------------------------------


def _stages_post(**rows) -> dict:
    data = {}
    for row, (points, first, last) in rows.items():
        n = row.removeprefix("s")
        data |= {f"points_{n}": points, f"first_{n}": first, f"last_{n}": last}
    return data


def test_the_organiser_sets_stages_and_sees_them_on_the_dashboard_and_event_page():
    organiser = make_user()
    event = make_event(organiser, rounds=4)
    url = f"/events/{event.slug}/manage/stages/"
    response = _client(organiser).post(url, _stages_post(s1=(500, 1, 2), s2=(750, 3, 4)))
    assert response.status_code == 302 and response["Location"].endswith("#stages")
    assert [s.points_limit for s in Stage.objects.filter(event=event)] == [500, 750]
    dashboard = _client(organiser).get(f"/events/{event.slug}/manage/").content.decode()
    assert "Stage 2: 750 points, rounds 3–4" in dashboard and 'value="750"' in dashboard
    page = _client().get(f"/events/{event.slug}/").content.decode()
    assert "Stage 1: 500 points, rounds 1–2" in page


@pytest.mark.parametrize(
    ("rows", "field", "words"),
    [
        ({"s1": (500, 1, 3), "s2": (750, 3, 4)}, "first_2", "Round 3 already belongs to another stage"),
        ({"s1": (500, 1, 1), "s2": (750, 3, 4)}, "first_2", "No stage plays round 2"),
        ({"s1": (0, 1, 2), "s2": (750, 3, 4)}, "points_1", "A stage's points are a whole number from 1"),
        ({"s1": (500, 1, 2), "s2": (-10, 3, 4)}, "points_2", "A stage's points are a whole number from 1"),
        ({"s1": (500, 1, 2), "s2": (750, 3, "")}, "last_2", "Fill in the stage's points and both rounds"),
        ({"s1": (500, 1, 2), "s2": ("lots", 3, 4)}, "points_2", "Enter a whole number."),
    ],
)
def test_bad_stages_are_refused_next_to_the_field_as_typed(rows, field, words):
    organiser = make_user()
    event = make_event(organiser, rounds=4)
    response = _client(organiser).post(f"/events/{event.slug}/manage/stages/", _stages_post(**rows))
    assert response.status_code == 400
    page = response.content.decode()
    error = page.split(f'id="stages-{field}-error"')[1].split("</span>")[0]
    assert words in html.unescape(error)
    for row in rows.values():
        for value in row:
            if value != "":
                assert f'value="{value}"' in page  # nothing typed is lost
    assert not Stage.objects.filter(event=event).exists()


def test_stages_are_refused_in_words_once_a_round_is_paired():
    event, organiser = _escalation()
    for name in ("x", "y"):
        _player(event, f"paired-{name}")
    services.pair_next_round(event)
    response = _client(organiser).post(
        f"/events/{event.slug}/manage/stages/", _stages_post(s1=(100, 1, 3), s2=(150, 4, 4))
    )
    assert response.status_code == 400
    assert "A round is already paired: the stages can no longer change" in response.content.decode()
    assert Stage.objects.get(event=event, number=1).last_round == 2


def test_only_the_organiser_sets_stages():
    event, _organiser = _escalation()
    url = f"/events/{event.slug}/manage/stages/"
    data = _stages_post(s1=(500, 1, 2), s2=(750, 3, 4))
    player = _player(event)
    assert _client(player.user).post(url, data).status_code == 404
    other = make_event(make_user())
    assert _client(other.organiser).post(url, data).status_code == 404
    anonymous = _client().post(url, data)
    assert anonymous.status_code == 302 and "/login" in anonymous["Location"]
    assert [s.points_limit for s in Stage.objects.filter(event=event)] == [100, 150]


def test_clearing_every_row_makes_an_event_without_stages():
    organiser = make_user()
    event = make_event(organiser, rounds=4)
    escalation.set_stages(event, PLANS)
    response = _client(organiser).post(f"/events/{event.slug}/manage/stages/", {})
    assert response.status_code == 302 and not Stage.objects.filter(event=event).exists()


# -- Views: judging a stage's list ----------------------------------------------------------------


def test_the_organiser_approves_or_sends_back_each_stage_list():
    event, organiser = _escalation()
    entrant = _player(event, approve=False)
    url = f"/events/{event.slug}/manage/entrants/{entrant.pk}/stages/2/judge/"
    response = _client(organiser).post(url, {"decision": "return", "note": "Over the dice cap"})
    assert response.status_code == 302 and response["Location"].endswith("#stage-2")
    statuses = dict(StageSubmission.objects.filter(entrant=entrant).values_list("stage__number", "status"))
    assert statuses == {1: "pending", 2: "returned"}
    page = _client(entrant.user).get(f"/events/{event.slug}/").content.decode()
    assert "Over the dice cap" in page and "Sent back" in page


def test_judging_a_stage_list_that_does_not_exist_is_said_in_words():
    event, organiser = _escalation()
    entrant = Entrant.objects.create(event=event, user=make_user())
    url = f"/events/{event.slug}/manage/entrants/{entrant.pk}/stages/1/judge/"
    response = _client(organiser).post(url, {"decision": "approve"}, follow=True)
    assert "This entrant has not submitted a list." in response.content.decode()


def test_only_the_organiser_judges_a_stage_list():
    event, _organiser = _escalation()
    entrant = _player(event, approve=False)
    url = f"/events/{event.slug}/manage/entrants/{entrant.pk}/stages/1/judge/"
    assert _client(entrant.user).post(url, {"decision": "approve"}).status_code == 404
    assert _client(make_event(make_user()).organiser).post(url, {"decision": "approve"}).status_code == 404
    assert _client().post(url, {"decision": "approve"}).status_code == 302
    assert set(StageSubmission.objects.values_list("status", flat=True)) == {"pending"}


# -- Views: a player submits a list for a stage ---------------------------------------------------


def test_the_submit_page_offers_the_stages_and_defaults_to_the_first_without_a_list():
    event, _organiser = _escalation()
    entrant = Entrant.objects.create(event=event, user=make_user())
    make_player_list(entrant.user, units=2)
    client = _client(entrant.user)
    page = client.get(f"/events/{event.slug}/submit/")
    assert page.context["form"]["stage"].value() == 1
    assert "Stage 2: 150 points, rounds 3–4" in page.content.decode()
    escalation.seal_stage(entrant, 1, make_player_list(entrant.user, units=1).pk)
    assert client.get(f"/events/{event.slug}/submit/").context["form"]["stage"].value() == 2
    assert client.get(f"/events/{event.slug}/submit/?stage=1").context["form"]["stage"].value() == 1


def test_a_player_seals_a_list_for_the_stage_they_pick():
    event, _organiser = _escalation()
    entrant = Entrant.objects.create(event=event, user=make_user())
    army_list = make_player_list(entrant.user, units=3)
    response = _client(entrant.user).post(f"/events/{event.slug}/submit/", {"stage": 2, "army_list": army_list.pk})
    assert response.status_code == 302
    assert StageSubmission.objects.get().stage.number == 2
    page = _client(entrant.user).get(f"/events/{event.slug}/").content.decode()
    assert "Your lists" in page and army_list.name in page


def test_a_list_for_the_wrong_stage_is_refused_next_to_the_list_with_the_choice_kept():
    event, _organiser = _escalation()
    entrant = Entrant.objects.create(event=event, user=make_user())
    army_list = make_player_list(entrant.user, units=3)
    response = _client(entrant.user).post(f"/events/{event.slug}/submit/", {"stage": 1, "army_list": army_list.pk})
    assert response.status_code == 400
    page = response.content.decode()
    assert "This list has 150 points: stage 1 allows 100." in page
    assert response.context["form"]["stage"].value() == "1"
    assert response.context["form"]["army_list"].value() == str(army_list.pk)
    assert not StageSubmission.objects.exists()


def test_a_stage_that_does_not_exist_is_refused_next_to_its_choice():
    event, _organiser = _escalation()
    entrant = Entrant.objects.create(event=event, user=make_user())
    army_list = make_player_list(entrant.user, units=1)
    response = _client(entrant.user).post(f"/events/{event.slug}/submit/", {"stage": 7, "army_list": army_list.pk})
    assert response.status_code == 400 and response.context["form"].errors["stage"]


def test_someone_else_cannot_submit_for_a_stage():
    event, _organiser = _escalation()
    stranger = make_user()
    army_list = make_player_list(stranger, units=1)
    response = _client(stranger).post(f"/events/{event.slug}/submit/", {"stage": 1, "army_list": army_list.pk})
    assert response.status_code == 302 and response["Location"] == f"/events/{event.slug}/"  # join first
    assert _client().post(f"/events/{event.slug}/submit/", {"stage": 1}).status_code == 302
    assert not StageSubmission.objects.exists()


# -- Views: a stage's sealed list -----------------------------------------------------------------


def test_a_stage_list_is_seen_by_its_player_and_the_organiser_and_by_everyone_once_revealed():
    event, organiser = _escalation()
    entrant = _player(event)
    url = f"/events/{event.slug}/entrants/{entrant.pk}/stages/2/list/"
    mine = _client(entrant.user).get(url)
    assert mine.status_code == 200 and "Stage 2: 150 points" in mine.content.decode()
    assert _client(organiser).get(url).status_code == 200
    assert _client(make_user()).get(url).status_code == 404
    assert _client(make_event(make_user()).organiser).get(url).status_code == 404
    assert _client().get(url).status_code == 404
    event.lists_revealed = True
    event.save()
    assert _client().get(url).status_code == 200
    assert _client().get(f"/events/{event.slug}/entrants/{entrant.pk}/stages/3/list/").status_code == 404


def test_the_round_page_names_its_stage_and_links_the_stage_lists():
    event, _organiser = _escalation(rounds=2, plans=SHORT, published=True, lists_revealed=True)
    players = [_player(event, f"round-{n}") for n in range(4)]
    _finish(_play_round(event, 1))
    _play_round(event, 2)
    page = _client().get(f"/events/{event.slug}/rounds/2/").content.decode()
    assert "Stage 2: 150 points, round 2" in page
    assert f"/events/{event.slug}/entrants/{players[0].pk}/stages/2/list/" in page


def test_the_api_gives_the_stages_and_each_stage_list_hidden_until_revealed():
    event, _organiser = _escalation(published=True)
    entrant = _player(event, "api-player")
    data = _client().get(f"/api/events/{event.slug}/").json()
    assert data["rules"]["stages"] == [
        {"stage": 1, "points_limit": 100, "rounds": [1, 2]},
        {"stage": 2, "points_limit": 150, "rounds": [3, 4]},
    ]
    (row,) = data["entrants"]
    assert row["id"] == entrant.pk
    assert [(s["stage"], s["points"], s["status"], s["legal"]) for s in row["stage_lists"]] == [
        (1, 100, "approved", True),
        (2, 150, "approved", True),
    ]
    assert "list" not in row["stage_lists"][0]
    event.lists_revealed = True
    event.save()
    revealed = _client().get(f"/api/events/{event.slug}/").json()["entrants"][0]["stage_lists"]
    assert revealed[1]["list"]["name"] == "api-player stage 2" and revealed[1]["problems"] == []


def test_an_event_without_stages_answers_its_api_as_before():
    event = make_event(make_user(), published=True)
    data = _client().get(f"/api/events/{event.slug}/").json()
    assert "stages" not in data["rules"]


# -- Walk-ins in an escalation event --------------------------------------------------------------


def _pasted(units: int) -> str:
    from armybuilder.lists.exchange import export_json
    from armybuilder.lists.models import ArmyList

    army_list = make_player_list(make_user(), units=units, name=f"Pasted {units}")
    return export_json(ArmyList.objects.for_builder().get(pk=army_list.pk))


def test_a_walk_in_of_an_escalation_event_has_its_first_list_sealed_for_stage_one():
    event, organiser = _escalation()
    response = _client(organiser).post(f"/events/{event.slug}/manage/walk-ins/", {"name": "Walter", "list": _pasted(2)})
    assert response.status_code == 302
    walk_in = Entrant.objects.get(event=event, walk_in_name="Walter")
    assert list(StageSubmission.objects.filter(entrant=walk_in).values_list("stage__number", "points")) == [(1, 100)]
    assert not Submission.objects.filter(entrant=walk_in).exists()


def test_a_walk_in_list_over_stage_one_is_refused_next_to_the_field_and_nothing_is_entered():
    event, organiser = _escalation()
    text = _pasted(3)
    response = _client(organiser).post(f"/events/{event.slug}/manage/walk-ins/", {"name": "Walter", "list": text})
    assert response.status_code == 400
    page = response.content.decode()
    error = html.unescape(page.split('id="walk-in-list-error"')[1].split("</ul>")[0])
    assert "This list has 150 points: stage 1 allows 100." in error
    assert 'value="Walter"' in page
    assert not Entrant.objects.filter(event=event, walk_in_name="Walter").exists()


def test_the_organiser_pastes_a_walk_ins_list_for_each_stage():
    event, organiser = _escalation()
    client = _client(organiser)
    client.post(f"/events/{event.slug}/manage/walk-ins/", {"name": "Walter", "list": _pasted(2)})
    walk_in = Entrant.objects.get(event=event, walk_in_name="Walter")
    url = f"/events/{event.slug}/manage/entrants/{walk_in.pk}/stages/2/walk-in-list/"
    too_big = _pasted(4)
    refused = client.post(url, {"list": too_big})
    assert refused.status_code == 400
    page = refused.content.decode()
    error = html.unescape(page.split(f'id="walk-in-{walk_in.pk}-stage-2-list-error"')[1].split("</ul>")[0])
    assert "This list has 200 points: stage 2 allows 150." in error
    assert escape(too_big)[:200] in page  # the paste kept as typed
    assert client.post(url, {"list": _pasted(3)}).status_code == 302
    sealed = dict(StageSubmission.objects.filter(entrant=walk_in).values_list("stage__number", "points"))
    assert sealed == {1: 100, 2: 150}
    views = escalation.stage_views(event)
    assert [view.lists[0].submission.status for view in views] == ["pending", "pending"]


def test_only_the_organiser_pastes_a_walk_ins_stage_list():
    event, organiser = _escalation()
    _client(organiser).post(f"/events/{event.slug}/manage/walk-ins/", {"name": "Walter", "list": _pasted(2)})
    walk_in = Entrant.objects.get(event=event, walk_in_name="Walter")
    url = f"/events/{event.slug}/manage/entrants/{walk_in.pk}/stages/2/walk-in-list/"
    data = {"list": _pasted(3)}
    assert _client(_player(event).user).post(url, data).status_code == 404
    assert _client(make_event(make_user()).organiser).post(url, data).status_code == 404
    assert _client().post(url, data).status_code == 302
    player = _player(event, "has-account")
    url_player = f"/events/{event.slug}/manage/entrants/{player.pk}/stages/2/walk-in-list/"
    assert _client(organiser).post(url_player, data).status_code == 404  # not a walk-in: they submit their own
    assert not StageSubmission.objects.filter(entrant=walk_in, stage__number=2).exists()


def test_a_round_no_stage_plays_is_refused_in_words():
    event, organiser = _escalation(rounds=2, plans=SHORT)
    for name in "wxyz":
        _player(event, f"late-{name}")
    event.rounds = 3  # the organiser adds a round after setting the stages
    event.save()
    for number in (1, 2):
        _finish(_play_round(event, number))
    response = _client(organiser).post(f"/events/{event.slug}/manage/pair/", follow=True)
    assert "No escalation stage plays this round" in response.content.decode()
    assert event.round_set.count() == 2


def test_the_entrants_csv_has_a_row_per_entrant_and_stage():
    event, organiser = _escalation()
    _player(event, "csv-anna")
    Entrant.objects.create(event=event, walk_in_name="=HYPERLINK(1)")
    response = _client(organiser).get(f"/events/{event.slug}/manage/entrants.csv")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert rows[0][:3] == ["player", "stage", "list"]
    assert sorted((r[0], r[1], r[2], r[6]) for r in rows[1:]) == [
        ("'=HYPERLINK(1)", "1", "", ""),
        ("'=HYPERLINK(1)", "2", "", ""),
        ("csv-anna", "1", "csv-anna stage 1", "approved"),
        ("csv-anna", "2", "csv-anna stage 2", "approved"),
    ]
    assert _client(make_user()).get(f"/events/{event.slug}/manage/entrants.csv").status_code == 404


def test_stages_and_their_refusals_in_french(fr_client):
    event, organiser = _escalation()
    entrant = Entrant.objects.create(event=event, user=make_user())
    fr_client.force_login(organiser)
    page = fr_client.get(f"/events/{event.slug}/manage/").content.decode()
    assert "Paliers d'escalade" in page and "Palier 2 : 150 points, rondes 3 à 4" in page
    response = fr_client.post(f"/events/{event.slug}/manage/stages/", _stages_post(s1=(100, 1, 3), s2=(150, 3, 4)))
    assert response.status_code == 400
    assert "La ronde 3 appartient déjà à un autre palier" in html.unescape(response.content.decode())
    fr_client.force_login(entrant.user)
    army_list = make_player_list(entrant.user, units=3)
    response = fr_client.post(f"/events/{event.slug}/submit/", {"stage": 1, "army_list": army_list.pk})
    assert "Cette liste fait 150 points : le palier 1 en permet 100." in html.unescape(response.content.decode())


def test_the_standings_list_approved_stage_lists_before_any_game():
    event, _organiser = _escalation()
    event.published = True
    event.save()
    alice, bob = _player(event, "alice"), _player(event, "bob")
    _player(event, "carol", approve=False)
    rows = services.event_standings(event)
    assert sorted(item.entrant.pk for item in rows) == sorted([alice.pk, bob.pk])
    page = _client().get(f"/events/{event.slug}/standings/").content.decode()
    assert "alice" in page and "bob" in page and "carol" not in page


def test_the_builder_says_whether_a_stage_list_is_legal_for_its_stage():
    event, _organiser = _escalation()
    alice = _player(event, "alice")
    stage_list = StageSubmission.objects.get(entrant=alice, stage__number=1).army_list
    client = _client(alice.user)
    builder = client.get(f"/lists/{stage_list.pk}/").content.decode()
    assert f'hx-get="/events/for-list/{stage_list.pk}/"' in builder
    fragment = html.unescape(client.get(f"/events/for-list/{stage_list.pk}/").content.decode())
    assert f"Legal for {event.name}, stage 1 (100 pts)." in fragment
    # A third squad: 150 points, over stage 1's 100 (the event's own limit is higher).
    entry = stage_list.entries.first()
    client.post(f"/lists/{stage_list.pk}/entries/{entry.pk}/duplicate/", headers={"HX-Request": "true"})
    fragment = html.unescape(client.get(f"/events/for-list/{stage_list.pk}/").content.decode())
    assert f"Not legal for {event.name}, stage 1 (100 pts)" in fragment and "the limit is 100" in fragment
    # In French, the stage is said in French.
    fragment = html.unescape(
        client.get(f"/events/for-list/{stage_list.pk}/", headers={"accept-language": "fr"}).content.decode()
    )
    assert "palier 1 (100 pts)" in fragment
    # The stage-2 list is judged against stage 2's 150 points, not stage 1's.
    stage_2 = StageSubmission.objects.get(entrant=alice, stage__number=2).army_list
    fragment = html.unescape(client.get(f"/events/for-list/{stage_2.pk}/").content.decode())
    assert f"Legal for {event.name}, stage 2 (150 pts)." in fragment
    # Someone else's stage list: a 404.
    bob = _player(event, "bob")
    assert _client(bob.user).get(f"/events/for-list/{stage_list.pk}/").status_code == 404

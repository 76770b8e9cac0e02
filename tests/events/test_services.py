from __future__ import annotations

import datetime

import pytest
from django.utils import timezone

from armybuilder.events import services
from armybuilder.events.models import Entrant, Outcome, Pairing, Submission
from tests.events.factories import make_entrant, make_event, make_player_list
from tests.lists.factories import make_army, make_edition, make_entry, make_unit, make_user

pytestmark = pytest.mark.django_db


def test_sealing_keeps_the_list_as_it_was():
    event = make_event()
    entrant = make_entrant(event, approve=False)
    submission = entrant.submission
    army_list = submission.army_list
    before = (submission.hash, submission.points, submission.snapshot)
    make_entry(army_list, make_unit(army=army_list.army))  # an edit after sealing
    submission.refresh_from_db()
    assert (submission.hash, submission.points, submission.snapshot) == before
    assert submission.points == 50
    assert len(submission.snapshot["entries"]) == 1
    resealed = services.seal(entrant, army_list.pk)
    assert resealed.pk == submission.pk
    assert resealed.points == 100 and resealed.hash != before[0]


def test_resealing_after_approval_needs_approval_again():
    event = make_event()
    entrant = make_entrant(event)
    services.seal(entrant, entrant.submission.army_list_id)
    entrant.submission.refresh_from_db()
    assert entrant.submission.status == Submission.Status.PENDING


def test_no_sealing_after_the_deadline_or_of_someone_elses_list():
    event = make_event(list_deadline=timezone.now() - datetime.timedelta(minutes=1))
    user = make_user()
    entrant = Entrant.objects.create(event=event, user=user)
    with pytest.raises(services.EventError, match="deadline"):
        services.seal(entrant, make_player_list(user).pk)
    event.list_deadline = None
    event.save()
    entrant.event.refresh_from_db()
    other = make_player_list(make_user())
    with pytest.raises(services.EventError, match="no-list"):
        services.seal(entrant, other.pk)


def test_legality_against_this_event():
    edition = make_edition("v3")
    allowed = make_army(edition=edition, slug="germany", name="Germany")
    event = make_event(points_limit=100, max_order_dice=2)
    event.allowed_armies.set([allowed])
    legal = make_entrant(event, army=allowed, units=2)
    other_army = make_entrant(event, units=1)
    too_big = make_entrant(event, army=allowed, units=3)
    banned_list = make_player_list(make_user(), allowed, units=1)
    banned_unit = banned_list.entries.first().unit
    event.banned_units.set([banned_unit])
    banned = Entrant.objects.create(event=event, user=banned_list.owner)
    services.seal(banned, banned_list.pk)
    event = services.event_for_rules().get(pk=event.pk)
    rows = {row.entrant.pk: row for row in services.entrant_rows(event)}
    assert rows[legal.pk].legal
    assert [p.rule for p in rows[other_army.pk].problems] == ["event-army"]
    assert [p.rule for p in rows[too_big.pk].problems] == ["points-limit", "max-order-dice"]
    assert [p.rule for p in rows[banned.pk].problems] == ["event-banned-unit"]


def test_force_organisation_problems_of_the_list_count():
    event = make_event()
    user = make_user()
    army_list = make_player_list(user, force_org="platoons")  # a unit outside any platoon
    entrant = Entrant.objects.create(event=event, user=user)
    services.seal(entrant, army_list.pk)
    row = services.entrant_rows(services.event_for_rules().get(pk=event.pk))[0]
    assert not row.legal
    assert "unit-outside-platoon" in [p.rule for p in row.problems]


def _play_round(event, round_):
    services.publish_round(round_)
    for pairing in round_.pairings.all():
        if pairing.is_bye:
            continue
        services.override_result(pairing, Outcome.A_WINS, 3, 1)


def test_rounds_paired_published_and_resulted_give_standings():
    event = make_event(rounds=3)
    entrants = [make_entrant(event) for _ in range(5)]
    make_entrant(event, approve=False)  # not approved: does not play
    seen = set()
    for number in (1, 2, 3):
        round_ = services.pair_next_round(event)
        assert round_.number == number
        with pytest.raises(services.EventError, match="unpublished-round"):
            services.pair_next_round(event)
        pairings = list(round_.pairings.all())
        assert sum(p.is_bye for p in pairings) == 1
        for p in pairings:
            pair = frozenset({p.player_a_id, p.player_b_id})
            assert pair not in seen
            seen.add(pair)
        _play_round(event, round_)
    with pytest.raises(services.EventError, match="all-rounds"):
        services.pair_next_round(event)
    rows = services.event_standings(event)
    assert sum(r.row.played for r in rows) == 3 * 5
    keys = {e.pk for e in entrants}
    assert {r.row.key for r in rows} == keys  # the entrant never approved is not in the standings
    assert all(r.row.played == 3 for r in rows)


def test_a_round_waits_for_every_result():
    event = make_event()
    for _ in range(4):
        make_entrant(event)
    round_ = services.pair_next_round(event)
    services.publish_round(round_)
    with pytest.raises(services.EventError, match="results-missing"):
        services.pair_next_round(event)


def test_result_entered_by_one_player_and_confirmed_by_the_other():
    event = make_event()
    a, b = make_entrant(event), make_entrant(event)
    round_ = services.pair_next_round(event)
    pairing = round_.pairings.get()
    with pytest.raises(services.EventError, match="not-your-game"):
        services.enter_result(pairing, a, Outcome.DRAW, 1, 1)  # not published yet
    services.publish_round(round_)
    pairing = Pairing.objects.select_related("round").get(pk=pairing.pk)
    first = a if pairing.player_a_id == a.pk else b
    second = b if first is a else a
    result = services.enter_result(pairing, first, Outcome.A_WINS, 4, 2)
    assert not result.counts
    assert services.event_standings(event)[0].row.score == 0
    with pytest.raises(services.EventError, match="own-entry"):
        services.confirm_result(pairing, first)
    services.confirm_result(pairing, second)
    top = services.event_standings(event)[0]
    assert (top.entrant.pk, top.row.score, top.row.dice) == (first.pk, 3, 4)
    with pytest.raises(services.EventError, match="already-confirmed"):
        services.enter_result(pairing, second, Outcome.B_WINS, 0, 9)
    services.override_result(pairing, Outcome.DRAW, 1, 1)
    assert services.event_standings(event)[0].row.score == 1


def test_swap_before_publishing_and_never_into_a_rematch():
    event = make_event()
    entrants = [make_entrant(event) for _ in range(4)]
    round_ = services.pair_next_round(event)
    p1, p2 = round_.pairings.all()
    services.swap_players(round_, p1.player_b_id, p2.player_a_id)
    p1n, p2n = round_.pairings.all()
    assert {p1n.player_a_id, p1n.player_b_id} == {p1.player_a_id, p2.player_a_id}
    assert p1n.table == 1
    with pytest.raises(services.EventError, match="swap"):
        services.swap_players(round_, p1n.player_a_id, p1n.player_b_id)
    services.publish_round(round_)
    with pytest.raises(services.EventError, match="published"):
        services.swap_players(round_, entrants[0].pk, entrants[1].pk)


def test_nobody_sits_at_the_same_table_twice_when_it_can_be_avoided():
    import itertools

    from armybuilder.events.models import Result

    event = make_event(rounds=3)
    for _ in range(8):
        make_entrant(event)
    seen: dict[int, set[int]] = {}
    for _number in (1, 2, 3):
        round_ = services.pair_next_round(event)
        services.publish_round(round_)
        pairings = list(round_.pairings.all())
        games = [(p.player_a_id, p.player_b_id) for p in pairings]
        best = min(
            sum(1 for game, t in zip(games, order, strict=True) for key in game if t in seen.get(key, ()))
            for order in itertools.permutations(range(1, len(games) + 1))
        )
        found = sum(1 for p in pairings for key in (p.player_a_id, p.player_b_id) if p.table in seen.get(key, ()))
        assert sorted(p.table for p in pairings) == [1, 2, 3, 4]
        assert found == 0 or best > 0
        for p in pairings:
            for key in (p.player_a_id, p.player_b_id):
                seen.setdefault(key, set()).add(p.table)
            Result.objects.create(pairing=p, outcome="a", by_organiser=True, confirmed=True)

"""No request the resolver API accepts holds a worker: each answers within 1 s of CPU.

A 50-flamethrower volley at 50 men held a worker for 30 s. The strategies below reach every
documented maximum (docs/resolver-api.md: 50 firing models in up to 8 groups, 50 target models,
30 pins, 50 anti-tank shots, 50 a side in close quarters (20 after up to 100 reaction shots), 200
dice a side in the bag, 20 ranging turns) as well as what lies between, with the heaviest weapons of the real
charts (D6 and six-shot weapons, the largest HE template, vehicle flamethrowers). Only accepted
requests (200) are timed; a refused one (an impossible range band...) costs nothing.
"""

from __future__ import annotations

import json
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armybuilder.resolver.api import MAX_BAG_DICE, MAX_GROUPS
from rules.combat import api as combat_api
from rules.combat import vehicles
from rules.combat.context import BANDS, COVERS, FACINGS, MAX_MODELS, MAX_PINS, QUALITIES
from rules.combat.cq import MAX_REACTION_MODELS, MAX_REACTION_SHOTS
from tests.resolver.factories import PROFILES, make_chart, make_weapon

CPU_SECONDS = 1.0
EXAMPLES = settings(
    max_examples=40,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)
EDITIONS = ("v1", "v2", "v3")
# Heavier profiles than the test chart's, as the real charts carry them.
HEAVY = {
    "heavy-howitzer": {"name": "Heavy howitzer", "range_max": 72, "shots": "1", "he_size": 4, "category": "heavy"},
    "quad-autocannon": {"name": "Quad autocannon", "range_max": 48, "shots": "6", "pen": 1, "category": "heavy"},
    "mmg": {"name": "MMG", "range_max": 36, "shots": "5"},
    "d6-flamer": {"name": "Flamethrower (D6)", "range_max": 6, "shots": "D6+1", "pen": 3},
}
WEAPONS = sorted(PROFILES) + sorted(HEAVY)


@pytest.fixture
def charts(db):
    charts = {slug: make_chart(slug) for slug in EDITIONS}
    for chart in charts.values():
        edition = next(iter(chart.values())).edition
        for weapon, fields in HEAVY.items():
            chart[weapon] = make_weapon(edition, weapon, **fields)
    return charts


def most_or(lo: int, hi: int) -> st.SearchStrategy[int]:
    """A number in [lo, hi], the maximum half the time: the costliest requests are at the limits."""
    return st.one_of(st.just(hi), st.integers(lo, hi))


@st.composite
def shooting_bodies(draw) -> dict:
    count = draw(st.integers(1, MAX_GROUPS))
    budget = MAX_MODELS
    groups = []
    for i in range(count):
        left = budget - (count - i - 1)
        models = draw(most_or(1, left)) if i == count - 1 else draw(st.integers(1, max(1, left // 2)))
        budget -= models
        group = {"weapon": draw(st.sampled_from(WEAPONS)), "models": models}
        # Mostly what a weapon can do (its default band, "auto" ammo), so most requests are accepted.
        if draw(st.integers(0, 3)) == 0:
            group["range"] = draw(st.sampled_from(BANDS))
        if draw(st.booleans()):
            group["models_under_template"] = draw(most_or(0, MAX_MODELS))
        group["ammo"] = draw(st.sampled_from(["auto", "auto", "auto", "ap", "he"]))
        if draw(st.integers(0, 3)) == 0:
            group["indirect"] = draw(st.booleans())
            group["ranging_attempt"] = draw(st.integers(1, 5))
            group["zeroed"] = draw(st.booleans())
        groups.append(group)
    kind = draw(st.sampled_from(["infantry", "infantry", "artillery", "soft_skin", "armoured"]))
    models = draw(most_or(1, MAX_MODELS))
    target = {
        "kind": kind,
        "quality": draw(st.sampled_from(QUALITIES)),
        "models": models,
        "starting_models": draw(most_or(models, MAX_MODELS)),
        "cover": draw(st.sampled_from(COVERS)),
        "down": draw(st.booleans()),
        "facing": draw(st.sampled_from(FACINGS)),
        "gun_shield": draw(st.booleans()),
    }
    if kind in ("armoured", "soft_skin"):
        target["damage_value"] = draw(st.integers(7, 12))
    return {
        "edition": draw(st.sampled_from(EDITIONS)),
        "order": draw(st.sampled_from(["fire", "advance"])),
        "firer": {"quality": draw(st.sampled_from(QUALITIES)), "pins": draw(most_or(0, MAX_PINS))},
        "groups": groups,
        "target": target,
    }


anti_tank_bodies = st.fixed_dictionaries(
    {
        "edition": st.sampled_from(EDITIONS),
        "weapon": st.sampled_from(WEAPONS),
        "shots": most_or(1, MAX_MODELS),
        "target": st.fixed_dictionaries(
            {
                "damage_value": st.integers(6, 12),
                "facing": st.sampled_from(FACINGS),
                "quality": st.sampled_from(QUALITIES),
                "pins": most_or(0, MAX_PINS),
                "open_topped": st.booleans(),
                "has_turret": st.booleans(),
                "slow": st.booleans(),
                "carries_flamer": st.booleans(),
            }
        ),
    }
)
cq_side = st.fixed_dictionaries(
    {"models": most_or(1, MAX_MODELS), "quality": st.sampled_from(QUALITIES), "tough_fighters": st.booleans()}
)
# Reaction fire before the assault, half the time (up to 20 men a side): every strength the fire may leave
# is a fight of its own.
reaction_side = st.fixed_dictionaries(
    {"models": most_or(1, MAX_REACTION_MODELS), "quality": st.sampled_from(QUALITIES), "tough_fighters": st.booleans()}
)
close_quarters_bodies = st.one_of(
    st.fixed_dictionaries(
        {
            "edition": st.sampled_from(EDITIONS),
            "attacker": cq_side,
            "defender": cq_side.map(lambda side: {**side, "defensive_position": True}),
        }
    ),
    st.fixed_dictionaries(
        {
            "edition": st.sampled_from(EDITIONS),
            "attacker": reaction_side,
            "defender": reaction_side.map(lambda side: {**side, "defensive_position": True}),
            "reaction": st.fixed_dictionaries(
                {
                    "shots": most_or(1, MAX_REACTION_SHOTS),
                    "to_hit": st.integers(2, 7),
                    "attacker_pins": st.integers(0, 3),
                }
            ),
        }
    ),
)
order_dice_bodies = st.tuples(most_or(1, MAX_BAG_DICE), most_or(0, MAX_BAG_DICE)).flatmap(
    lambda bag: st.fixed_dictionaries(
        {"own": st.just(bag[0]), "enemy": st.just(bag[1]), "draws": most_or(1, bag[0] + bag[1])}
    )
)
small_bodies = st.one_of(
    st.fixed_dictionaries({"edition": st.sampled_from(EDITIONS), "turns": most_or(1, 20)}).map(
        lambda body: ("ranging-in", body)
    ),
    st.fixed_dictionaries(
        {
            "edition": st.sampled_from(EDITIONS),
            "quality": st.sampled_from(QUALITIES),
            "pins": most_or(0, MAX_PINS),
            "officer_bonus": st.integers(0, 4),
            "modifier": st.integers(-10, 10),
        }
    ).map(lambda body: ("order-test", body)),
)


ATTEMPTS = 3


def _cpu(client, calculator: str, body: dict, *, bound: float = CPU_SECONDS, prepare=None) -> tuple[int, float]:
    """The request's status and its CPU seconds: the least of up to ``ATTEMPTS`` tries when one goes over
    ``bound``. A machine that other jobs share (CI) inflates the CPU time of one try now and then (cold
    caches, a busy core); a request that really holds a worker is over the bound every time.
    ``prepare`` runs before every try (emptying caches), so a try after the first pays as much as it."""
    best = None
    for _attempt in range(ATTEMPTS):
        if prepare is not None:
            prepare()
        start = time.process_time()
        response = client.post(f"/api/resolve/{calculator}/", data=json.dumps(body), content_type="application/json")
        seconds = time.process_time() - start
        best = seconds if best is None else min(best, seconds)
        if response.status_code != 200 or best < bound:
            break
    return response.status_code, best


def _check(client, calculator: str, body: dict) -> None:
    status, seconds = _cpu(client, calculator, body)
    assert status in (200, 400), body
    if status == 200:
        assert seconds < CPU_SECONDS, (seconds, body)


@pytest.mark.django_db
@EXAMPLES
@given(body=shooting_bodies())
def test_no_accepted_shooting_request_takes_a_second(client, charts, body):
    _check(client, "shooting", body)


@pytest.mark.django_db
@EXAMPLES
@given(body=anti_tank_bodies)
def test_no_accepted_anti_tank_request_takes_a_second(client, charts, body):
    _check(client, "anti-tank", body)


@pytest.mark.django_db
@EXAMPLES
@given(body=close_quarters_bodies)
def test_no_accepted_close_quarters_request_takes_a_second(client, charts, body):
    _check(client, "close-quarters", body)


@pytest.mark.django_db
@EXAMPLES
@given(body=order_dice_bodies, small=small_bodies)
def test_no_accepted_small_calculator_request_takes_a_second(client, charts, body, small):
    _check(client, "order-dice", body)
    _check(client, *small)


@pytest.mark.django_db
@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("weapon", ["flamethrower", "vehicle-flamethrower", "d6-flamer"])
@pytest.mark.parametrize("kind", ["infantry", "soft_skin", "armoured"])
def test_fifty_flamethrowers_at_the_largest_target_answer_within_a_second(client, charts, edition, weapon, kind):
    # The red team's request: under 300 bytes, 30 s of a worker before the fix.
    target = {"kind": kind, "models": MAX_MODELS, "damage_value": 9} if kind != "infantry" else {"kind": kind}
    target.setdefault("models", MAX_MODELS)
    body = {"edition": edition, "groups": [{"weapon": weapon, "models": MAX_MODELS, "range": "point_blank"}]}
    status, seconds = _cpu(client, "shooting", {**body, "target": target})
    assert status == 200
    assert seconds < CPU_SECONDS


# The heaviest request the property test has found: several heavy weapon groups at a vehicle,
# where each unverified switch used to re-run the whole volley (1.1 s of CPU with cold caches).
VEHICLE_VOLLEY = {
    "edition": "v3",
    "order": "advance",
    "firer": {"quality": "inexperienced", "pins": 30},
    "groups": [
        {"weapon": "vehicle-flamethrower", "models": 2, "range": "point_blank", "models_under_template": 50},
        {"weapon": "d6-flamer", "models": 19},
        {"weapon": "medium-at-gun", "models": 12, "models_under_template": 11},
        {"weapon": "flamethrower", "models": 4, "models_under_template": 50},
        {"weapon": "flamethrower", "models": 13, "models_under_template": 6, "ammo": "ap"},
    ],
    "target": {"kind": "armoured", "quality": "inexperienced", "models": 30, "damage_value": 9},
}


def _cold() -> None:
    """Forget what earlier requests worked out, so the request pays for all of its own work."""
    for function in (vehicles._shot_row, vehicles._rolls_from, vehicles._category):
        function.cache_clear()


@pytest.mark.django_db
def test_a_vehicle_volley_of_several_groups_names_its_unverified_switches_without_rerunning(
    client, charts, monkeypatch
):
    status, seconds = _cpu(client, "shooting", VEHICLE_VOLLEY, bound=CPU_SECONDS / 2, prepare=_cold)
    assert status == 200 and seconds < CPU_SECONDS / 2, seconds
    runs = []
    real = combat_api._shooting
    monkeypatch.setattr(combat_api, "_shooting", lambda *args: runs.append(args) or real(*args))
    body = client.post("/api/resolve/shooting/", data=json.dumps(VEHICLE_VOLLEY), content_type="application/json")
    assert body.status_code == 200 and body.json()["unverified"], body.content  # named...
    assert len(runs) == 1  # ...not measured by running the volley again


@pytest.mark.django_db
def test_one_heavy_group_at_a_vehicle_is_still_measured_within_a_second(client, charts):
    volley = {**VEHICLE_VOLLEY, "groups": [VEHICLE_VOLLEY["groups"][0] | {"models": 50}]}
    status, seconds = _cpu(client, "shooting", volley, prepare=_cold)
    assert status == 200 and seconds < CPU_SECONDS, seconds


@pytest.mark.django_db
@pytest.mark.parametrize("edition", EDITIONS)
@pytest.mark.parametrize("defensive_position", [False, True])
def test_fifty_tough_fighters_against_fifty_answer_within_a_second(client, charts, edition, defensive_position):
    # The red team's request: 1st edition, 50 against 50, took 1.23 s of CPU (three rule readings,
    # each chained over Fractions); the chain is walked in integers now.
    from rules.combat import cq

    side = {"models": MAX_MODELS, "quality": "veteran", "tough_fighters": True}
    body = {"edition": edition, "attacker": side, "defender": {**side, "defensive_position": defensive_position}}
    status, seconds = _cpu(client, "close-quarters", body, bound=CPU_SECONDS / 2, prepare=cq.clear_caches)
    assert status == 200
    assert seconds < CPU_SECONDS / 2, seconds

"""The inputs the calculator pages gained: HE templates, shells and indirect fire on the shooting page,
vehicle traits on the anti-tank page, and the order-dice and ranging-in page."""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true", "HX-Target": "result"}
MORTAR = (
    "/calc/shooting/?edition=v3&order=fire&firer_quality=regular&firer_pins=0"
    "&g0-weapon=light-mortar&g0-models=1&g0-range=normal"
    "&target_kind=infantry&target_quality=regular&target_models=10&cover=none&facing=front"
)
AT_GUN = MORTAR.replace("g0-weapon=light-mortar", "g0-weapon=medium-at-gun")
ORDER_DICE = "/calc/order-dice/?edition=v2&own_dice=12&enemy_dice=16&draws=3&turns=5"


def stat(content: str, label: str) -> str:
    """The exact fraction behind the headline figure called ``label``."""
    match = re.search(re.escape(label) + r'</dt>\s*<dd><abbr class="stat-value" title="([^"]+)"', content)
    assert match, f"no stat {label!r}"
    return match.group(1)


# --- shooting: HE, shells and indirect fire -------------------------------------------------------


def test_it_marks_the_weapons_that_fire_he(client, charts):
    content = client.get("/calc/shooting/?edition=v3").content.decode()
    assert '<option value="medium-at-gun" data-he="1" data-ap-he="1">' in content
    assert '<option value="light-mortar" data-he="1">' in content
    assert '<option value="rifle" selected>' in content
    assert 'id="id_g0-template"' in content
    assert 'id="id_g0-ammo"' in content
    assert 'id="id_g0-fire"' in content


def test_it_explains_the_he_fields_for_visitors_without_javascript(client, charts):
    content = client.get("/calc/shooting/").content.decode()
    assert 'class="field-hint no-js-only"' in content
    assert "only count for weapons that fire HE" in content


def test_it_counts_the_models_under_the_template(client, charts):
    # A 3rd-edition light mortar zeroed in (2+): HE 1" (Pen +1) against Regulars needs 3+, no save.
    one = client.get(MORTAR + "&g0-fire=zeroed&g0-template=1").content.decode()
    three = client.get(MORTAR + "&g0-fire=zeroed&g0-template=3").content.decode()
    assert stat(one, "Casualties (average)") == "5/9"  # 5/6 x 1 x 2/3
    assert stat(three, "Casualties (average)") == "5/3"  # 5/6 x 3 x 2/3
    assert "3 models under each template" in three


def test_it_uses_the_usual_template_count_when_left_empty(client, charts):
    content = client.get(MORTAR + "&g0-fire=zeroed&g0-template=").content.decode()
    assert "1 model under each template" in content


def test_it_ranges_in_turn_by_turn(client, charts):
    first = client.get(MORTAR).content.decode()
    assert "Indirect fire, ranging attempt 1" in first
    assert stat(first, "Pinned") == "1/6"
    second = client.get(MORTAR + "&g0-fire=2", headers=HTMX).content.decode()
    assert "Indirect fire, ranging attempt 2" in second
    assert stat(second, "Pinned") == "1/3"
    zeroed = client.get(MORTAR + "&g0-fire=zeroed", headers=HTMX).content.decode()
    assert "Indirect fire (zeroed)" in zeroed
    assert stat(zeroed, "Pinned") == "5/6"


def test_it_fires_a_howitzer_directly_when_asked(client, charts):
    content = client.get(MORTAR + "&g0-fire=direct").content.decode()
    assert "Indirect fire" not in content
    assert "base 4+" in content


def test_it_loads_the_shell_the_firer_picks(client, charts):
    he = client.get(AT_GUN + "&g0-template=3").content.decode()
    ap = client.get(AT_GUN + "&g0-ammo=ap&g0-template=3").content.decode()
    assert stat(he, "Casualties (average)") == "1"  # 1/2 to hit x 3 models x 2/3
    assert stat(ap, "Casualties (average)") == "5/12"  # one AP shot: 1/2 x 5/6, the template ignored
    assert "under each template" not in ap


def test_it_ignores_the_he_fields_of_a_weapon_without_he(client, charts):
    content = client.get(MORTAR.replace("light-mortar", "rifle") + "&g0-ammo=he&g0-fire=3&g0-template=9").content
    content = content.decode()
    assert 'class="errorlist"' not in content
    assert stat(content, "Casualties (average)") == "1/4"  # 4+ to hit, 4+ to damage


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ("g0-template=-1", "g0-template", "At least 0."),
        ("g0-template=51", "g0-template", "At most 50."),
        ("g0-template=lots", "g0-template", "A whole number."),
        ("g0-ammo=sabot", "g0-ammo", "Select a valid choice"),
        ("g0-fire=6", "g0-fire", "Select a valid choice"),
    ],
)
def test_it_reports_a_bad_he_field_next_to_it(client, charts, query, field, message):
    response = client.get(f"{MORTAR}&{query}")
    assert response.status_code == 200
    content = response.content.decode()
    errors = content.split(f'id="id_{field}-errors"')[1].split("</div>")[0]
    assert message in errors
    fragment = client.get(f"{MORTAR}&{query}", headers=HTMX).content.decode()
    assert f'<div id="id_{field}-errors" class="field-errors" hx-swap-oob="true">' in fragment
    assert message in fragment


# --- anti-tank: cover and vehicle traits --------------------------------------------------------

ANTI_TANK = "/calc/anti-tank/?edition=v2&weapon=panzerfaust&shots=1&range=long&damage_value=9&facing=front"


def test_it_offers_the_vehicle_traits(client, charts):
    content = client.get("/calc/anti-tank/").content.decode()
    for name in ("cover", "open_topped", "no_turret", "slow", "carries_flamer"):
        assert f'name="{name}"' in content


def test_it_worsens_the_damage_of_a_tank_carrying_a_flamethrower(client, charts):
    plain = client.get(ANTI_TANK).content.decode()
    flamer = client.get(ANTI_TANK + "&carries_flamer=on", headers=HTMX).content.decode()
    assert stat(plain, "Knocked out") == "10693/62208"
    # +1 on every damage result: superficial 2/6 (on fire, then 4+) and full/massive shift up a row.
    assert stat(flamer, "Knocked out") != "10693/62208"
    assert "Superficial results above 6" not in flamer  # a 2nd-edition table has no such switch


def test_it_counts_cover_against_the_shot_in_2nd_edition(client, charts):
    content = client.get(ANTI_TANK + "&cover=soft").content.decode()
    assert "Soft cover −1" in content
    assert stat(content, "Hit (each shot)") == "1/3"


def test_it_uses_turret_and_slow_in_the_3rd_edition_superficial_table(client, charts):
    url = "/calc/anti-tank/?edition=v3&weapon=panzerfaust&shots=3&range=long&damage_value=9&facing=front"
    turret = stat(client.get(url).content.decode(), "Knocked out")
    casemate = stat(client.get(url + "&no_turret=on&slow=on").content.decode(), "Knocked out")
    assert turret != casemate


def test_it_takes_up_to_fifty_anti_tank_shots(client, charts):
    content = client.get(ANTI_TANK.replace("shots=1", "shots=50")).content.decode()
    assert "shot 50" in content
    assert 'class="errorlist"' not in content
    too_many = client.get(ANTI_TANK.replace("shots=1", "shots=51"), headers=HTMX).content.decode()
    assert "At most 50." in too_many


def test_it_takes_fifty_panzerfausts_on_the_shooting_page(client, charts):
    url = (
        "/calc/shooting/?edition=v3&g0-weapon=panzerfaust&g0-models=50&g0-range=long"
        "&target_kind=armoured&damage_value=9&facing=front&cover=none"
    )
    content = client.get(url).content.decode()
    assert 'class="errorlist"' not in content
    assert "Knocked out" in content
    assert "Crew flees (pins reach morale)" in content  # a routed tank is not knocked out later


# --- order dice and ranging in ------------------------------------------------------------------


def test_it_links_the_order_dice_page(client, charts):
    assert b'href="/calc/order-dice/"' in client.get("/calc/").content
    assert b'href="/calc/order-dice/"' in client.get("/calc/shooting/").content


def test_it_gives_the_v32_bag_odds(client, charts):
    content = client.get(ORDER_DICE).content.decode()
    assert stat(content, "Next die is yours") == "3/7"
    assert stat(content, "At least one of yours in the next 3 draws") == "97/117"
    assert '<svg class="bar-chart" role="img"' in content
    assert "Your dice in the next 3 draws as a table" in content


def test_it_gives_the_v34_ranging_odds(client, charts):
    content = client.get(ORDER_DICE).content.decode()
    assert stat(content, "Hit on the first turn") == "1/6"
    assert stat(content, "Hit within 5 turns") == "319/324"
    assert "<title>turn 3: 72.2% (13/18)</title>" in content


def test_it_updates_the_order_dice_odds_in_place(client, charts):
    response = client.get(ORDER_DICE.replace("own_dice=12", "own_dice=4"), headers=HTMX)
    content = response.content.decode()
    assert content.lstrip().startswith('<section id="result"')
    assert stat(content, "Next die is yours") == "1/5"
    assert 'hx-push-url="true"' in client.get(ORDER_DICE).content.decode()


def test_it_reshows_the_form_for_a_new_edition(client, charts):
    response = client.get(
        ORDER_DICE.replace("edition=v2", "edition=v3"), headers={"HX-Request": "true", "HX-Target": "resolver"}
    )
    assert response.content.lstrip().startswith(b'<div id="resolver"')
    assert "edition=v3" in response["HX-Push-Url"]


@pytest.mark.parametrize(
    ("query", "field", "message"),
    [
        ("own_dice=0&enemy_dice=0", "own_dice", "The bag is empty"),
        ("draws=40", "draws", "Only 28 dice are in the bag."),
        ("own_dice=-1", "own_dice", "At least 0."),
        ("enemy_dice=61", "enemy_dice", "At most 60."),
        ("draws=0", "draws", "At least 1."),
        ("turns=11", "turns", "At most 10."),
        ("turns=soon", "turns", "A whole number."),
        ("edition=v9", "edition", "Select a valid choice"),
    ],
)
def test_it_reports_bad_order_dice_input_next_to_the_field(client, charts, query, field, message):
    url = f"{ORDER_DICE}&{query}"
    response = client.get(url)
    assert response.status_code == 200
    errors = response.content.decode().split(f'id="id_{field}-errors"')[1].split("</div>")[0]
    assert message in errors
    fragment = client.get(url, headers=HTMX).content.decode()
    assert f'<div id="id_{field}-errors" class="field-errors" hx-swap-oob="true">' in fragment
    assert "Fix the fields marked in red" in fragment

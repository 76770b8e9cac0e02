from __future__ import annotations

import json
import time
from fractions import Fraction as F

import pytest

from rules.combat import api
from rules.combat.api import ShotGroupInput, TargetInput, anti_tank, close_quarters, order_test, serialise, shooting
from rules.combat.config import PRESETS, RulesConfig, config_for
from rules.combat.dice import total_mass
from rules.combat.he import DEFAULT_MODELS_UNDER_TEMPLATE
from rules.errors import RulesError

from .builders import LIGHT_HOWITZER, LMG, MEDIUM_AT_GUN, MMG, PANZERFAUST, RIFLE, SMG


def _shoot(edition: str = "2e", **overrides):
    kwargs = {
        "order": "fire",
        "firer_quality": "regular",
        "firer_pins": 0,
        "groups": [ShotGroupInput(RIFLE, 5)],
        "target": TargetInput("infantry", "regular", 10),
    }
    kwargs.update(overrides)
    return shooting(edition, **kwargs)


def test_it_accepts_edition_aliases() -> None:
    for alias, name in (("v1", "1e"), ("V2", "2e"), ("3e", "3e"), (" 2e ", "2e"), ("v3", "3e")):
        assert config_for(alias).edition == name


def test_it_rejects_an_unknown_edition() -> None:
    with pytest.raises(RulesError, match="^edition"):
        config_for("4e")
    with pytest.raises(RulesError, match="^edition"):
        _shoot("v9")


def test_it_lists_only_real_switches_as_unverified() -> None:
    fields = set(RulesConfig.__dataclass_fields__)
    for cfg in PRESETS.values():
        assert cfg.unverified <= fields
        assert "unverified" not in cfg.unverified
    assert "exceptional_damage" in config_for("3e").unverified
    assert "morale_cap" in config_for("2e").unverified
    assert "he_pins" in config_for("1e").unverified


@pytest.mark.parametrize(
    ("overrides", "field"),
    [
        ({"firer_quality": "elite"}, "firer_quality"),
        ({"firer_pins": -1}, "firer_pins"),
        ({"order": "run"}, "order"),
        ({"groups": []}, "groups"),
        ({"groups": [ShotGroupInput(RIFLE, 0)]}, r"groups\[0\].models"),
        ({"groups": [ShotGroupInput(RIFLE, 51)]}, r"groups\[0\].models"),
        ({"groups": [ShotGroupInput(RIFLE, 30), ShotGroupInput(RIFLE, 30)]}, "groups"),
        ({"groups": [ShotGroupInput(RIFLE, 5, "extreme")]}, r"groups\[0\].band"),
        ({"groups": [ShotGroupInput(RIFLE, 5, ammo="he")]}, r"groups\[0\].ammo"),
        ({"groups": ["rifle"]}, r"groups\[0\]"),
        ({"target": "infantry"}, "target"),
    ],
)
def test_it_names_the_field_of_bad_shooting_input(overrides: dict, field: str) -> None:
    with pytest.raises(RulesError, match=f"^{field}"):
        _shoot(**overrides)


@pytest.mark.parametrize(
    ("kwargs", "field"),
    [
        ({"kind": "infantry", "quality": "heroic"}, "target.quality"),
        ({"kind": "infantry", "models": -2}, "target.models"),
        ({"kind": "infantry", "models": 60}, "target.models"),
        ({"kind": "tank"}, "target.kind"),
        ({"kind": "infantry", "cover": "dense"}, "target.cover"),
        ({"kind": "armoured"}, "target.damage_value"),
        ({"kind": "armoured", "damage_value": 9, "facing": "under"}, "target.facing"),
    ],
)
def test_it_names_the_field_of_a_bad_target(kwargs: dict, field: str) -> None:
    with pytest.raises(RulesError, match=f"^{field}"):
        TargetInput(**kwargs)


def test_it_refuses_a_fixed_weapon_on_advance_in_2e_but_not_3e() -> None:
    with pytest.raises(RulesError, match=r"^groups\[0\]\.order"):
        _shoot(order="advance", groups=[ShotGroupInput(MMG, 1)])
    res = _shoot("3e", order="advance", groups=[ShotGroupInput(MMG, 1)])
    assert ("Fire on the move", -1) in res.need_to_hit[0].modifiers


def test_it_returns_the_documented_keys() -> None:
    res = _shoot(groups=[ShotGroupInput(RIFLE, 8), ShotGroupInput(LMG, 1)])
    for key in (
        "need_to_hit",
        "need_to_damage",
        "save",
        "p_pin",
        "hits",
        "casualties",
        "p_exceptional",
        "morale",
        "vehicle",
        "p_destroyed",
        "unverified",
    ):
        assert key in serialise(res)
    assert len(res.need_to_hit) == 2
    assert {"p_check", "p_destroyed_by_check"} <= set(serialise(res.morale))
    assert isinstance(res.p_pin, F)
    assert isinstance(res.unverified, tuple)


def test_it_serialises_fractions_and_keys_to_strings() -> None:
    res = _shoot()
    text = json.dumps(serialise(res))
    data = json.loads(text)
    assert data["casualties"]["pmf"]["0"] == str(res.casualties.pmf[0])
    assert serialise({1: F(7, 12), "x": [F(0), F(2, 2)], "t": (F(1, 3),), "n": None}) == {
        "1": "7/12",
        "x": ["0", "1"],
        "t": ["1/3"],
        "n": None,
    }


def test_it_uses_the_default_template_count_for_he() -> None:
    res = _shoot(groups=[ShotGroupInput(LIGHT_HOWITZER, 1)], target=TargetInput("infantry", "regular", 10))
    assert max(res.hits.pmf) == DEFAULT_MODELS_UNDER_TEMPLATE[2]
    given = _shoot(
        groups=[ShotGroupInput(LIGHT_HOWITZER, 1, models_under_template=5)],
        target=TargetInput("infantry", "regular", 10),
    )
    assert max(given.hits.pmf) == 5
    assert given.need_to_damage[0].need == 2
    with pytest.raises(RulesError, match=r"^groups\[0\]\.models_under_template"):
        _shoot(groups=[ShotGroupInput(LIGHT_HOWITZER, 1, models_under_template=-1)])


def test_it_fires_he_from_an_at_gun_at_men_and_ap_at_tanks() -> None:
    men = _shoot(groups=[ShotGroupInput(MEDIUM_AT_GUN, 1)])
    assert men.need_to_damage[0].modifiers == (("HE Pen", 1),)
    tank = _shoot(
        groups=[ShotGroupInput(MEDIUM_AT_GUN, 1)], target=TargetInput("armoured", "regular", 1, damage_value=8)
    )
    assert tank.need_to_damage[0].modifiers == (("Pen", 5),)
    assert {"p_knocked_out", "p_immobilised", "categories", "pins"} <= set(serialise(tank.vehicle))
    assert total_mass(tank.vehicle.categories) == 1
    assert tank.p_destroyed == tank.vehicle.p_knocked_out


def test_it_validates_anti_tank_input() -> None:
    with pytest.raises(RulesError, match="^shots"):
        anti_tank("2e", weapon=PANZERFAUST, damage_value=9, shots=0)
    with pytest.raises(RulesError, match="^damage_value"):
        anti_tank("2e", weapon=PANZERFAUST, damage_value="9")  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="^facing"):
        anti_tank("2e", weapon=PANZERFAUST, damage_value=9, facing="below")
    with pytest.raises(RulesError, match="^pins"):
        anti_tank("2e", weapon=PANZERFAUST, damage_value=9, pins=-1)
    with pytest.raises(RulesError, match="^vehicle_quality"):
        anti_tank("2e", weapon=PANZERFAUST, damage_value=9, vehicle_quality="elite")
    with pytest.raises(RulesError, match="^weapon"):
        anti_tank("2e", weapon="panzerfaust", damage_value=9)  # type: ignore[arg-type]


def test_it_accepts_a_given_need_to_hit_for_anti_tank() -> None:
    res = anti_tank("2e", weapon=PANZERFAUST, damage_value=9, need_to_hit=4, facing="rear", band="long")
    assert res.p_hit == F(1, 2)
    assert res.need_to_damage.pen_total == 8
    assert "rear_pen" not in res.unverified
    assert total_mass(res.categories) == 1
    seven = anti_tank("3e", weapon=PANZERFAUST, damage_value=9, need_to_hit=7, band="long")
    assert seven.p_hit == F(1, 36) and "seven_plus" in seven.unverified


def test_it_validates_order_test_input() -> None:
    with pytest.raises(RulesError, match="^quality"):
        order_test("2e", quality="green", pins=0)
    with pytest.raises(RulesError, match="^pins"):
        order_test("2e", quality="regular", pins=-1)
    with pytest.raises(RulesError, match="^officer_bonus"):
        order_test("3e", quality="regular", pins=1, officer_bonus="major")
    with pytest.raises(RulesError, match="^officer_bonus"):
        order_test("2e", quality="regular", pins=1, officer_bonus=7)


def test_it_validates_close_quarters_input() -> None:
    with pytest.raises(RulesError, match="^attacker.models"):
        close_quarters("2e", attacker={}, defender={"models": 5})
    with pytest.raises(RulesError, match="^defender.models"):
        close_quarters("2e", attacker={"models": 5}, defender={"models": 51})
    with pytest.raises(RulesError, match="^attacker.quality"):
        close_quarters("2e", attacker={"models": 5, "quality": "elite"}, defender={"models": 5})
    with pytest.raises(RulesError, match="^attacker.defensive_position"):
        close_quarters("2e", attacker={"models": 5, "defensive_position": True}, defender={"models": 5})
    with pytest.raises(RulesError, match="^defender.assault_weapons"):
        close_quarters("2e", attacker={"models": 5}, defender={"models": 5, "assault_weapons": 9})
    with pytest.raises(RulesError, match="^first_round"):
        close_quarters("2e", attacker={"models": 5}, defender={"models": 5}, first_round="both")


def test_it_counts_assault_weapons_given_as_true() -> None:
    res = close_quarters("2e", attacker={"models": 4, "assault_weapons": True}, defender={"models": 4})
    assert res.attacker_dice == {"plain": 0, "tough": 4}
    assert "tough_fighters" not in res.unverified  # corroborated for 2e
    one = close_quarters("1e", attacker={"models": 4, "tough_fighters": True}, defender={"models": 4})
    assert "tough_fighters" in one.unverified


def test_it_resolves_a_sixty_dice_mixed_volley_quickly() -> None:
    groups = [ShotGroupInput(RIFLE, 40), ShotGroupInput(SMG, 6, "point_blank"), ShotGroupInput(LMG, 2)]
    start = time.perf_counter()
    res = _shoot(groups=groups, target=TargetInput("infantry", "regular", 20, "soft"))
    elapsed = time.perf_counter() - start
    assert total_mass(res.casualties.pmf) == 1
    assert elapsed < 0.5  # generous bound for a loaded 2-core machine; the bench measures the real figure


def test_it_exposes_the_public_names() -> None:
    for name in ("shooting", "order_test", "close_quarters", "anti_tank", "serialise", "order_dice", "ranging_in"):
        assert callable(getattr(api, name))

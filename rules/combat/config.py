"""Edition switches for the combat resolver.

Every rule that differs between Bolt Action editions is a field here, so the algorithms never test the
edition name. Source tags refer to docs/rules-notes.md. A field whose value for an edition
is an inference (marked [R] there) is listed by name in that preset's ``unverified`` set; the web layer
shows a "rule unverified" badge when a result depended on one of them.
"""

from __future__ import annotations

import dataclasses
import functools
import typing
from dataclasses import dataclass
from typing import Any, Literal

from rules.errors import RulesError

Edition = Literal["1e", "2e", "3e"]


@dataclass(frozen=True)
class RulesConfig:
    """All edition differences used by the combat resolver (hashable, so it can key caches)."""

    edition: Edition
    # --- to hit (rules-notes §1, §2) ---
    base_to_hit: int
    point_blank_to_hit: int
    long_range_to_hit: int
    pinned_firer: Literal["per_pin", "flat"]
    cover_mode: Literal["to_hit", "save"]
    soft_cover_to_hit: int
    hard_cover_to_hit: int
    down_to_hit: int
    small_team_to_hit: int
    shaped_charge_to_hit: int
    at_gun_vs_vehicle_to_hit: int
    fixed_fires_on_advance: bool
    seven_plus: Literal["six_then_six", "graded", "impossible"]
    nat1_always_fails: bool
    inexperienced_firer_to_hit: int = -1
    moving_to_hit: int = -1
    short_crew_to_hit: int = -1
    small_team_max_models: int = 2
    # --- damage, saves and Pen (§3, §4, §6, §10) ---
    soft_save: int = 5
    hard_save: int = 4
    down_open_save: int = 5
    down_save_bonus: int = 2
    down_ignored_at_point_blank: bool = False
    he_saves_direct: bool = False
    pb_pen_bonus: int = 0
    long_range_pen: int = -1
    side_pen: int = 1
    rear_pen: int = 2
    top_pen: int = 1
    gun_shield_dv: int = 1
    building_extra_protection: int = 0
    exceptional_damage: bool = True
    # --- HE (§8) ---
    he_hits_mode: Literal["template", "random"] = "template"
    he_class_hits: tuple[tuple[int, str], ...] = ((1, "D3"), (2, "D6"), (3, "2D6"), (4, "3D6"))
    he_pins: tuple[tuple[int, str], ...] = ((1, "D2"), (2, "D3"), (3, "D3"), (4, "D6"))
    he_multi_hit_pins: Literal["one_batch", "per_hit"] = "one_batch"
    he_down_rounding: Literal["down", "up"] = "down"
    mixed_fire_pins: Literal["max", "sum"] = "max"
    # --- flamethrowers (§17) ---
    flamer_hits: str = "D6"
    flamer_hits_vehicle_mounted: str = "D6+1"
    flamer_pins: str = "D3+1"
    flamer_firer_pin: int = 0
    flamer_ignores_to_hit_mods: bool = True
    flamer_forced_morale: bool = True
    flamer_vs_vehicle: Literal["one_roll", "per_hit"] = "one_roll"
    # --- morale (§12, §13) ---
    morale_cap: int = 10
    morale_min: int = 2
    fubar_friendly_fire_faces: int = 2
    double_one_courage: bool = False
    morale_check_trigger: Literal["half_of_starting", "half_of_current"] = "half_of_starting"
    pin_rout: bool = True
    officer_bonuses: tuple[tuple[str, int], ...] = ()
    # --- vehicles (§4, §11) ---
    vehicle_tables: Literal["2e", "3e"] = "2e"
    superficial_mode: Literal["d6_minus_3", "3e_table"] = "d6_minus_3"
    superficial_above_six: Literal["on_fire", "knocked_out"] = "on_fire"
    massive_rolls: int = 2
    pin_on_no_effect: bool = True
    soft_skin_destroyed_when_damaged: bool = True
    # --- close quarters (§14) ---
    cq_first_round_open: Literal["attacker_first", "simultaneous", "defender_first"] = "attacker_first"
    cq_first_round_defensive: Literal["attacker_first", "simultaneous", "defender_first"] = "simultaneous"
    cq_later_rounds: Literal["simultaneous", "same_as_first"] = "simultaneous"
    assault_weapon_cq: Literal["two_attacks", "tough_fighters"] = "tough_fighters"
    tough_fighters: Literal["extra_attack", "bonus_roll_on_success", "reroll_failed"] = "bonus_roll_on_success"
    unverified: frozenset[str] = frozenset()

    def he_pins_for(self, size: int) -> str:
        """The pin dice for an HE template of ``size`` inches; sizes above 4 use the 4" entry."""
        table = dict(self.he_pins)
        return table[min(max(size, 1), max(table))]

    def __hash__(self) -> int:
        # The vehicle engine's caches are keyed by the config and hash it hundreds of thousands of
        # times in one volley; the frozen fields never change, so the hash is worked out once.
        return self._hash

    @functools.cached_property
    def _hash(self) -> int:
        return hash(tuple(getattr(self, f.name) for f in dataclasses.fields(self)))

    def alternatives(self, name: str) -> tuple[Any, ...]:
        """The other values an unverified switch could plausibly take, to see whether it can change an
        answer and by how much: another edition's value, the other side of a yes/no or either-or rule,
        or one step either way for a number. Empty when nothing better than a guess is known (a dice
        expression, a stand-in table): such a switch is always reported, with no amount."""
        current = getattr(self, name)
        if name in _NO_ALTERNATIVE:
            return ()
        found: list[Any] = []
        if isinstance(current, bool):
            found.append(not current)
        else:
            hint = _HINTS.get(name)
            if typing.get_origin(hint) is Literal:
                found.extend(v for v in typing.get_args(hint) if v not in _NOT_BOLT_ACTION.get(name, ()))
            for preset in PRESETS.values():
                found.append(getattr(preset, name))
            if isinstance(current, int) and all(v == current for v in found):
                found.extend(v for v in (current - 1, current + 1) if v >= 0)
        out: list[Any] = []
        for value in found:
            if value != current and value not in out:
                out.append(value)
        return tuple(out)

    def he_class_hits_for(self, size: int) -> str:
        """Random hit dice for an HE class (1e hits, and any edition against a building)."""
        table = dict(self.he_class_hits)
        return table[min(max(size, 1), max(table))]


# 1st edition: S004 (French quick rules v2.1) is the main source; HE, vehicles and several
# close-quarters details were not recovered, so they reuse the 2nd-edition procedure behind flags.
FIRST = RulesConfig(
    edition="1e",
    base_to_hit=3,
    point_blank_to_hit=1,
    long_range_to_hit=-1,
    pinned_firer="per_pin",
    cover_mode="to_hit",
    soft_cover_to_hit=-1,
    hard_cover_to_hit=-2,
    down_to_hit=-1,  # [S004, REF1, TR1]
    small_team_to_hit=-1,
    shaped_charge_to_hit=-1,  # 1e quick-start only [S004]
    at_gun_vs_vehicle_to_hit=0,
    fixed_fires_on_advance=False,
    seven_plus="six_then_six",  # [S004] explicit
    nat1_always_fails=True,
    he_hits_mode="random",
    he_down_rounding="down",
    morale_cap=10,  # [S004] explicit
    officer_bonuses=(("second_lieutenant", 1), ("first_lieutenant", 2), ("captain", 3), ("major", 4)),
    cq_first_round_open="attacker_first",
    cq_first_round_defensive="simultaneous",  # fighting across an obstacle [S004]
    assault_weapon_cq="two_attacks",  # [S004]
    tough_fighters="extra_attack",  # "extra attack" [DOL]
    unverified=frozenset(
        {
            "nat1_always_fails",  # a 1 failing to damage is assumed for 1e
            "fixed_fires_on_advance",
            "side_pen",
            "rear_pen",
            "top_pen",
            "gun_shield_dv",
            "building_extra_protection",
            "he_hits_mode",
            "he_pins",  # not recovered for 1e: the 2e table is a stand-in
            "he_multi_hit_pins",
            "he_down_rounding",
            "mixed_fire_pins",
            "flamer_hits",
            "flamer_pins",
            "flamer_ignores_to_hit_mods",
            "flamer_forced_morale",
            "flamer_vs_vehicle",
            "morale_check_trigger",
            "officer_bonuses",  # DOL gives only the +1..+4 range
            "vehicle_tables",
            "superficial_mode",
            "pin_on_no_effect",
            "soft_skin_destroyed_when_damaged",
            "tough_fighters",
        }
    ),
)

# 2nd edition: S002 (Barracks core rules), PS2, BS2, MK.
SECOND = RulesConfig(
    edition="2e",
    base_to_hit=3,
    point_blank_to_hit=1,
    long_range_to_hit=-1,
    pinned_firer="per_pin",
    cover_mode="to_hit",
    soft_cover_to_hit=-1,
    hard_cover_to_hit=-2,
    down_to_hit=-2,  # [S002, TR2, PS2, ARB]
    small_team_to_hit=-1,
    shaped_charge_to_hit=0,
    at_gun_vs_vehicle_to_hit=0,
    fixed_fires_on_advance=False,
    seven_plus="six_then_six",  # [S/R] BAA; consistent with 1e
    nat1_always_fails=True,
    building_extra_protection=1,  # [S002 buildings table]
    he_pins=((1, "D2"), (2, "D3"), (3, "D3"), (4, "D6")),  # [S002, BS2]
    he_down_rounding="down",  # [BS2]
    flamer_pins="D3+1",  # [BS2, MK]
    morale_cap=10,
    double_one_courage=True,  # "Incredible Courage" [PS2 p.42]
    officer_bonuses=(("second_lieutenant", 1), ("first_lieutenant", 2), ("captain", 3), ("major", 4)),
    cq_first_round_open="attacker_first",  # [S002 sequence 5a-5d]
    cq_first_round_defensive="simultaneous",
    assault_weapon_cq="tough_fighters",  # [BS2]
    tough_fighters="bonus_roll_on_success",  # "but not a third" [MK]
    unverified=frozenset(
        {
            "seven_plus",
            "fixed_fires_on_advance",
            "he_multi_hit_pins",
            "he_down_rounding",
            "mixed_fire_pins",
            "flamer_vs_vehicle",
            "morale_cap",  # 10 assumed unchanged from 1e
            "morale_check_trigger",
            "pin_on_no_effect",
            "soft_skin_destroyed_when_damaged",
            "cq_first_round_defensive",
            "cq_later_rounds",
        }
    ),
)

# 3rd edition: S000, S001, CD3, JK3, BTB, WLF, WLV.
THIRD = RulesConfig(
    edition="3e",
    base_to_hit=4,  # [S001, CD3]; S000's 3+ is a holdover
    point_blank_to_hit=2,
    long_range_to_hit=0,  # removed [CD3]
    pinned_firer="flat",
    cover_mode="save",  # cover and Down became saves [S000, S001, CD3, BTB]
    soft_cover_to_hit=0,
    hard_cover_to_hit=0,
    down_to_hit=0,
    small_team_to_hit=0,
    shaped_charge_to_hit=0,
    at_gun_vs_vehicle_to_hit=1,  # [JK3 Anti-tank Gun, BTB]
    fixed_fires_on_advance=True,  # pivot in place and fire at -1 [JK3, BTB]
    seven_plus="six_then_six",
    nat1_always_fails=True,
    down_ignored_at_point_blank=True,  # [CD3; JK3 HE text]
    he_saves_direct=True,  # [JK3]
    pb_pen_bonus=1,  # kinetic only [S000, S001, JK3]
    he_pins=((1, "D2"), (2, "D2"), (3, "D3"), (4, "D3")),  # [S000, JK3]
    he_down_rounding="up",  # [JK3]
    flamer_firer_pin=1,  # [JK3, BTB]
    flamer_ignores_to_hit_mods=False,  # normal modifiers [JK3]
    exceptional_damage=False,
    morale_cap=11,  # [WLF, book p71/p73]
    # [S000, S001, NRData 3e catalogue]; confirmed in notes §13 (Nov 2026), so not unverified.
    officer_bonuses=(("platoon_commander", 2), ("company_commander", 4)),
    vehicle_tables="3e",
    superficial_mode="3e_table",
    cq_first_round_open="simultaneous",  # [BoW, BTB]
    cq_first_round_defensive="defender_first",  # [BoW, BTB]
    assault_weapon_cq="tough_fighters",  # [JK3]
    tough_fighters="reroll_failed",  # [JK3]
    unverified=frozenset(
        {
            "seven_plus",
            "building_extra_protection",
            "mixed_fire_pins",
            "flamer_vs_vehicle",
            "exceptional_damage",  # judged removed in 3e
            "morale_check_trigger",
            "superficial_above_six",
            "pin_on_no_effect",
            "cq_later_rounds",
        }
    ),
)

PRESETS: dict[str, RulesConfig] = {"1e": FIRST, "2e": SECOND, "3e": THIRD}

_HINTS = typing.get_type_hints(RulesConfig)
# Switches whose code path is a whole procedure (the 1st-edition stand-ins): no single other value says
# how far off the answer could be.
_NO_ALTERNATIVE = frozenset({"vehicle_tables", "flamer_hits", "flamer_pins", "he_pins", "officer_bonuses"})
# Values kept for comparison only: the graded 7+ table is Warhammer Fantasy's, not Bolt Action's (notes §2).
_NOT_BOLT_ACTION = {"seven_plus": ("graded",)}

_ALIASES = {"1e": "1e", "v1": "1e", "1": "1e", "2e": "2e", "v2": "2e", "2": "2e", "3e": "3e", "v3": "3e", "3": "3e"}


def config_for(edition: str) -> RulesConfig:
    """Return the preset for ``edition`` ("1e"/"2e"/"3e" or "v1"/"v2"/"v3", any case).

    Raises RulesError naming the field for anything else.
    """
    key = _ALIASES.get(str(edition).strip().lower())
    if key is None:
        raise RulesError(
            f"edition: unknown edition {edition!r} (expected 1e, 2e, 3e or v1, v2, v3)",
            code="unknown-edition",
            params={"field": "edition", "edition": edition},
        )
    return PRESETS[key]

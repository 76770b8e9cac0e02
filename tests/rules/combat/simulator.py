"""An independent dice simulator of Bolt Action combat, written from ``rules-notes.md`` and the spec.

It rolls every die one by one, the way players would at the table, and imports nothing from
``rules.combat``: the edition tables below are copied from the notes (§1-§17), not from the engine's
``RulesConfig``. The differential test (``test_differential.py``) and ``make bench`` compare it with
the exact engine on seeded random scenarios, so a rules bug in either one shows up as a disagreement.

Scenarios are plain dicts; ``random_scenarios`` draws them and ``simulate`` estimates, for one
scenario, the mean of each statistic the engine reports (probabilities as means of 0/1 outcomes).
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

# --- the rules, edition by edition (rules-notes section in brackets) --------------------------------


@dataclass(frozen=True)
class Ed:
    base: int  # §1
    pb: int
    long: int
    pinned_flat: bool
    saves: bool  # §6: cover and Down are saves in 3e
    down_hit: int
    small_team: int
    shaped_hit: int
    at_gun: int
    pb_pen: int  # §10
    he_down_up: bool  # §8: 3e rounds the halved hits up
    he_random: bool  # §8: 1e rolls the hits by class
    he_pins: dict[int, str]  # §7
    flamer_exempt: bool  # §17: 2e flamers ignore cover, Down and long range
    flamer_firer_pin: int
    cap: int  # §12 morale clamp
    sup_table: bool  # §11: the 3e superficial column
    cq_open: str  # §14
    cq_defensive: str
    aw_two_attacks: bool
    tough: str


ED = {
    "1e": Ed(3, 1, -1, False, False, -1, -1, -1, 0, 0, False, True, {1: "D2", 2: "D3", 3: "D3", 4: "D6"}, True, 0,
             10, False, "attacker_first", "simultaneous", True, "extra_attack"),
    "2e": Ed(3, 1, -1, False, False, -2, -1, 0, 0, 0, False, False, {1: "D2", 2: "D3", 3: "D3", 4: "D6"}, True, 0,
             10, False, "attacker_first", "simultaneous", False, "bonus_roll"),
    "3e": Ed(4, 2, 0, True, True, 0, 0, 0, 1, 1, True, False, {1: "D2", 2: "D2", 3: "D3", 4: "D3"}, False, 1,
             11, True, "simultaneous", "defender_first", False, "reroll"),
}  # fmt: skip
DV_MEN = {"inexperienced": 3, "regular": 4, "veteran": 5}  # §4
MORALE = {"inexperienced": 8, "regular": 9, "veteran": 10}  # §12
HE_CLASS = {1: "D3", 2: "D6", 3: "2D6", 4: "3D6"}  # §8, 1e hits by class
RANGING = (6, 5, 4, 3, 2)  # §9


def roll(rng: random.Random, dice: str) -> int:
    """A dice expression: "D2" (1-3 -> 1), "D3" (half a D6, up), "D6", "2D6", "D3+1", "D6+1", "4"."""
    plus = 0
    if "+" in dice:
        dice, extra = dice.split("+")
        plus = int(extra)
    if "D" not in dice:
        return int(dice) + plus
    count, sides = dice.split("D")
    total = 0
    for _ in range(int(count or 1)):
        d = rng.randint(1, 6)
        total += {"2": (d + 2) // 3, "3": (d + 1) // 2, "6": d}[sides]
    return total + plus


def passes(rng: random.Random, ed: Ed, morale: int) -> bool:
    """A morale test: 2D6 at or under the clamped value [§12]."""
    return rng.randint(1, 6) + rng.randint(1, 6) <= min(max(morale, 2), ed.cap)


def succeeds(rng: random.Random, need: int) -> bool:
    """A damage roll or save: a natural 1 fails, and more than 6 is impossible [§3]."""
    d = rng.randint(1, 6)
    return d != 1 and d >= need


def hits(rng: random.Random, need: int) -> bool:
    """A to-hit roll: a 1 misses; needing 7+ takes a 6 and then another 6 [§2]."""
    d = rng.randint(1, 6)
    if need > 6:
        return d == 6 and rng.randint(1, 6) == 6
    return d != 1 and d >= need


# --- shooting ---------------------------------------------------------------------------------------


# National rules, from the army books in the simulator's own words (``s["army"]``, ``s["gyro"]``).
def extra_shots(s: dict[str, Any], w: dict[str, Any]) -> int:
    """Hitler's Buzzsaw (2e and 3e): each German LMG or MMG fires one more shot."""
    return int(s.get("army") == "germany" and s["edition"] != "1e" and w["slug"] in ("lmg", "mmg"))


def steady_on_move(s: dict[str, Any], w: dict[str, Any]) -> bool:
    """US Fire and Manoeuvre (2e: rifles, carbines and BARs) and Gyro-stabilisers (2e and 3e: a Veteran
    crew's gyro-stabilised gun, never a machine gun) fire on the move without the -1."""
    if s.get("army") != "us" or s["edition"] == "1e":
        return False
    if s["edition"] == "2e" and w["slug"] in ("rifle", "automatic-rifle"):
        return True
    gun = bool(w.get("pen") or w.get("he")) and not w.get("flamer") and w["slug"] not in ("lmg", "mmg", "hmg")
    return bool(s.get("gyro")) and s["firer_quality"] == "veteran" and gun


def large_squads(s: dict[str, Any]) -> bool:
    """2e: an Italian unit shooting with 14 or more men."""
    return s.get("army") == "italy" and s["edition"] == "2e" and sum(g["models"] for g in s["groups"]) >= 14


def rifle_bonus(s: dict[str, Any], g: dict[str, Any]) -> int:
    """British Rapid Fire (2e, chosen by the list; Regular or Veteran) and US Fire & Manoeuvre (3e): a
    bonus die for every three men shooting rifles, rolled with the first group of rifles."""
    gb = s.get("army") == "great-britain" and s["edition"] == "2e" and s["firer_quality"] != "inexperienced"
    us = s.get("army") == "us" and s["edition"] == "3e"
    rifles = [x for x in s["groups"] if x["weapon"]["slug"] == "rifle"]
    if not (gb or us) or not rifles or rifles[0] is not g:
        return 0
    return sum(x["models"] for x in rifles) // 3


def improvised_at(s: dict[str, Any], w: dict[str, Any]) -> bool:
    """2e: an Italian weapon of Pen +1 or +2 may roll its damage die at a tank once more if it failed."""
    return s.get("army") == "italy" and s["edition"] == "2e" and w.get("pen", 0) in (1, 2)


def death_before_dishonour(s: dict[str, Any]) -> bool:
    """2e and 3e: a Japanese infantry or artillery target is Fanatic."""
    japanese = s.get("target_army") == "imperial-japan"
    return japanese and s["edition"] in ("2e", "3e") and s["target"]["kind"] != "soft_skin"


def great_patriotic_war(s: dict[str, Any]) -> bool:
    """2e: Soviet infantry and artillery re-take a failed morale check that would destroy them."""
    return s.get("target_army") == "soviet-union" and s["edition"] == "2e" and s["target"]["kind"] != "soft_skin"


def bersaglieri_rifle(s: dict[str, Any], w: dict[str, Any]) -> bool:
    """2e, an Italian list that chose Combattere: its Bersaglieri (``s["firer_bonus"]``) move and shoot
    their rifles with no -1; the squad's other weapons (its LMG) take it as usual."""
    return s.get("firer_bonus") == "combattere" and s["edition"] == "2e" and w["slug"] == "rifle"


def italian_target_bonus(s: dict[str, Any]) -> str:
    """2e: the bonus an Italian target's list chose, if it makes this unit of men Fanatic ("cedere":
    Blackshirts and Regular HQ) or Stubborn ("obbedire": Alpini); "" otherwise."""
    if s["edition"] != "2e" or s["target"]["kind"] not in ("infantry", "artillery"):
        return ""
    return s.get("target_bonus", "")


def to_hit_need(ed: Ed, s: dict[str, Any], g: dict[str, Any]) -> int:
    if g.get("indirect"):
        return RANGING[g["attempt"] - 1]
    w, t = g["weapon"], s["target"]
    exempt = w.get("flamer") and ed.flamer_exempt
    men = t["kind"] in ("infantry", "artillery")
    mod = 0
    if g["band"] == "point_blank":
        mod += ed.pb
    if g["band"] == "long" and not exempt:
        mod += ed.long
    if s["order"] == "advance" and w.get("fixed") and not s.get("vehicle") and s["edition"] != "3e":
        # A towed gun is Fixed (§15): it cannot fire on the move before 3rd edition. A vehicle's gun turns
        # with the vehicle, so it fires like any other weapon on the move.
        raise ValueError("a towed gun cannot fire on an Advance order before 3rd edition")
    if s["order"] == "advance" and not w.get("assault") and not steady_on_move(s, w) and not bersaglieri_rifle(s, w):
        mod -= 1
    if s["firer_pins"]:
        mod -= 1 if ed.pinned_flat else s["firer_pins"]
    if s["firer_quality"] == "inexperienced":
        mod -= 1
    if not ed.saves and not exempt:
        mod += {"hard": -2, "soft": -1}.get(t["cover"], 0)
        if t.get("down") and men:
            mod += ed.down_hit
    if men and t["models"] <= 2:
        mod += ed.small_team
    if w.get("shaped"):
        mod += ed.shaped_hit
    if w.get("at_gun") and t["kind"] in ("soft_skin", "armoured") and s["order"] == "fire":
        mod += ed.at_gun
    return ed.base - mod


def target_dv(t: dict[str, Any]) -> int:
    if t["kind"] == "armoured":
        return t["dv"]
    if t["kind"] == "soft_skin":
        return 6
    return DV_MEN[t["quality"]]


def pen_total(ed: Ed, g: dict[str, Any], t: dict[str, Any], he: bool) -> int:
    """The Pen added to the damage roll, with the armour modifiers of §10."""
    w = g["weapon"]
    pen = w.get("he", 0) if he else w.get("pen", 0)
    if t["kind"] != "armoured":
        return pen
    if g.get("indirect") or w.get("flamer"):
        pen += 1  # top armour
    else:
        pen += {"side": 1, "top": 1, "rear": 2}.get(t["facing"], 0)
    kinetic = not he and not w.get("flamer") and not w.get("shaped")
    if kinetic and g["band"] == "long":
        pen -= 1
    if kinetic and g["band"] == "point_blank":
        pen += ed.pb_pen
    return pen


def save_need(ed: Ed, g: dict[str, Any], t: dict[str, Any], he: bool) -> int | None:
    if not ed.saves or t["kind"] not in ("infantry", "artillery") or g["weapon"].get("flamer") or g.get("indirect"):
        return None
    need = {"soft": 5, "hard": 4}.get(t["cover"])
    if t.get("down") and g["band"] != "point_blank":
        need = 5 if need is None else need - 2
    return need


def fires_he(g: dict[str, Any], t: dict[str, Any]) -> bool:
    w = g["weapon"]
    return bool(w.get("he")) and not w.get("flamer") and (not w.get("pen") or t["kind"] in ("infantry", "artillery"))


def shoot_men(rng: random.Random, ed: Ed, s: dict[str, Any]) -> dict[str, float]:
    """One attack at infantry, artillery or a soft-skin (one model, destroyed if damaged [§4])."""
    t = s["target"]
    vehicle = t["kind"] == "soft_skin"
    models = 1 if vehicle else t["models"]
    dv = target_dv(t)
    casualties = n_hits = pins = 0
    forced = small_arms_hit = False
    for g in s["groups"]:
        w = g["weapon"]
        he = fires_he(g, t)
        need = to_hit_need(ed, s, g)
        pen = pen_total(ed, g, t, he)
        save = save_need(ed, g, t, he)
        if w.get("flamer"):
            for _ in range(g["models"]):
                if not hits(rng, need):
                    continue
                forced = True
                pins = max(pins, roll(rng, "D3+1"))
                # One hit at a vehicle; D6 (D6+1 from a vehicle) at men [§17].
                n = 1 if vehicle else roll(rng, "D6+1" if w.get("vehicle") else "D6")
                n_hits += n
                casualties += sum(succeeds(rng, dv - pen) for _ in range(n))
        elif he:
            templates = 0
            landed = 0
            for _ in range(g["models"] * (roll(rng, w.get("shots", "1")) + extra_shots(s, w))):
                if hits(rng, need):
                    landed += 1
                    if vehicle:
                        templates += 1  # one damage roll per HE hit on a vehicle [§8]
                    else:
                        templates += roll(rng, HE_CLASS[min(w["he"], 4)]) if ed.he_random else g["template"]
            if landed:
                pins = max(pins, roll(rng, ed.he_pins[min(w["he"], 4)]))
            hit_models = min(templates, models)  # each model is hit once at most [§8, JK3]
            if t.get("down") and not vehicle:
                hit_models = (hit_models + 1) // 2 if ed.he_down_up else hit_models // 2
            n_hits += hit_models
            for _ in range(hit_models):
                if succeeds(rng, dv - pen) and not (save is not None and succeeds(rng, save)):
                    casualties += 1
        else:
            any_hit = False
            dice = g["models"] * (roll(rng, w.get("shots", "1")) + extra_shots(s, w)) + rifle_bonus(s, g)
            for _ in range(dice):
                if hits(rng, need):
                    any_hit = True
                    n_hits += 1
                    if succeeds(rng, dv - pen) and not (save is not None and succeeds(rng, save)):
                        casualties += 1
            if any_hit:
                small_arms_hit = True  # one pin per firing unit [§7], counted once below
    if small_arms_hit:
        # Large Squads: 14 or more Italians firing pin D2 rather than one.
        pins = max(pins, roll(rng, "D2") if large_squads(s) else 1)
    casualties = min(casualties, models)
    base = MORALE[t["quality"]]
    destroyed = casualties >= models
    check = False
    if not destroyed:
        pins_now = t.get("pins", 0) + pins
        # Death Before Dishonour (and Cedere's units): Fanatics with two or more men left ignore their
        # pins here. Obbedire's Stubborn units ignore them on the check only: too many pins still rout.
        bonus = italian_target_bonus(s)
        fanatic = (death_before_dishonour(s) or bonus == "cedere") and models - casualties >= 2
        if pins_now >= base and not fanatic:
            destroyed = True  # pin rout [§7]
        else:
            start = t.get("starting") or models
            check = forced or (casualties >= 1 and 2 * (models - casualties) <= start)
            morale = base if fanatic or bonus == "obbedire" else base - pins_now
            if check and not passes(rng, ed, morale):
                # The Great Patriotic War: a Soviet unit takes the check that would destroy it again.
                destroyed = not (great_patriotic_war(s) and passes(rng, ed, morale))
    return {
        "casualties": casualties,
        "any_casualty": float(casualties > 0),
        "hits": n_hits,
        "pins": pins,
        "pinned": float(pins > 0),
        "check": float(check),
        "destroyed": float(destroyed),
    }


@dataclass
class Tank:
    ko: bool = False
    imm: bool = False
    pins: int = 0
    steering: int = 0
    slow: bool = False
    crippled: bool = False
    pinned_by_unit: bool = False


def _immobilise(v: Tank) -> None:
    v.pins += 1
    if v.imm:
        v.ko = True  # a second Immobilised result [§11]
    v.imm = True


def _on_fire(rng: random.Random, ed: Ed, v: Tank, morale: int) -> None:
    v.pins += 1  # the pin first, then the test [§11]
    if not passes(rng, ed, morale - v.pins):
        v.ko = True


def _result(rng: random.Random, ed: Ed, v: Tank, morale: int, r: int, superficial: bool, t: dict[str, Any]) -> None:
    if superficial and ed.sup_table:  # the 3e superficial column [§11]
        r = min(r, 6)
        if r == 3 and not t.get("turret", True):
            r = 2
        if r == 1 or r == 3:
            v.pins += 1
        elif r == 2:
            v.pins += 1
            v.steering += 1
            v.ko = v.ko or v.steering >= 3
        elif r == 4 and not v.slow:
            v.pins += 1
            v.slow = True
        elif r == 4 and not v.crippled:
            v.pins += 1
            v.crippled = True
        elif r in (4, 5):
            _immobilise(v)
        elif r == 6:
            _on_fire(rng, ed, v, morale)
        return
    if superficial:
        r -= 3  # 2e: D6-3 on the one table
    if r == 1:
        v.pins += 1
    elif r == 2:
        _immobilise(v)
    elif r == 3:
        _on_fire(rng, ed, v, morale)
    elif r >= 4:
        v.ko = True


def shoot_armour(rng: random.Random, ed: Ed, s: dict[str, Any]) -> dict[str, float]:
    """Dice one after the other at an armoured vehicle [§7, §10, §11]. ``s["each_shot_fires"]``: the
    anti-tank calculator, where every shot is its own firing (so every hit pins)."""
    t = s["target"]
    dv = t["dv"]
    morale = MORALE[t["quality"]]
    v = Tank(pins=t.get("pins", 0), slow=t.get("slow", False))
    n_hits = 0
    for g in s["groups"]:
        w = g["weapon"]
        he = fires_he(g, t)
        need = g.get("need") or to_hit_need(ed, s, g)
        pen = pen_total(ed, g, t, he)
        mod = (1 if t.get("flamer") else 0) + (1 if t.get("open_topped") and g.get("indirect") else 0)
        # A flamethrower rolls one die; the anti-tank calculator one die a shot, whatever the profile.
        shots = 1 if w.get("flamer") or s.get("each_shot_fires") else roll(rng, w.get("shots", "1")) + extra_shots(s, w)
        for _ in range(g["models"] * shots + (0 if s.get("each_shot_fires") else rifle_bonus(s, g))):
            if not hits(rng, need):
                continue
            n_hits += 1
            if v.ko or v.pins >= morale:
                continue  # knocked out, or destroyed by its pins already
            if s.get("each_shot_fires"):
                v.pinned_by_unit = False
            if w.get("flamer"):
                v.pins += roll(rng, "D3+1")
            elif (6 + pen >= dv or t.get("open_topped")) and not v.pinned_by_unit:
                v.pins += 1  # one pin per firing unit that hits with a weapon that could damage it [§7]
                v.pinned_by_unit = True
            d = rng.randint(1, 6)
            if (d == 1 or d + pen < dv) and improvised_at(s, w):
                d = rng.randint(1, 6)  # Improvised AT: one more go at a failed damage roll
            total = d + pen
            if d != 1 and total >= dv:
                rolls = 2 if total >= dv + 3 else 1
                for _ in range(rolls):
                    if not v.ko:
                        _result(rng, ed, v, morale, rng.randint(1, 6) + mod, total == dv, t)
            if w.get("flamer") and not v.ko and not passes(rng, ed, morale - v.pins):
                v.ko = True  # the forced check abandons the vehicle [§17]
    return {
        "ko": float(v.ko),
        "immobilised": float(v.imm and not v.ko),
        "rout": float(not v.ko and v.pins >= morale),
        "pins": v.pins - t.get("pins", 0),
        "hits": n_hits,
    }


# --- order tests and close quarters -----------------------------------------------------------------


def order_test(rng: random.Random, ed: Ed, s: dict[str, Any]) -> dict[str, float]:
    # The order test page has a box for each army's rule, and a player may tick several: ``boxes`` names
    # the armies whose rules are ticked besides the unit's own.
    armies = {s.get("army"), *s.get("boxes", ())}
    if s.get("banzai") and "imperial-japan" in armies and s["edition"] == "2e":
        return {"pass": 1.0, "fubar": 0.0, "man_removed": 0.0}  # Banzai Charge: given without a roll
    second = s["edition"] == "2e"
    # Tiger Fear (2e): near a Tiger the unit tests with a pin more. Avanti Savoia! (2e): Italians 3
    # units behind on losses test at -2, 3 ahead at +2.
    pins = s["pins"] + (1 if s.get("tiger") and second else 0)
    # Vengeance (2e, a British list's choice): a pinned Regular or Veteran unit rolls a die first, and a
    # 4, 5 or 6 takes a pin away; the test is taken all the same.
    if s.get("vengeance") and second and s["quality"] != "inexperienced" and s["pins"] and rng.randint(1, 6) >= 4:
        pins -= 1
    savoia = {"behind": -2, "ahead": 2}.get(s.get("avanti", ""), 0) if "italy" in armies and second else 0
    # A squad that lost its NCO: -1, unless German Initiative Training lets another man take over
    # (2e: on a 2+; 3e: Regulars and Veterans ignore the -1).
    nco = 0
    if s.get("nco"):
        german = "germany" in armies
        if not german or (second and rng.randint(1, 6) == 1) or (not second and s["quality"] == "inexperienced"):
            nco = -1
    m = min(max(MORALE[s["quality"]] + s["officer"] + s["modifier"] + savoia + nco - pins, 2), ed.cap)
    a, b = rng.randint(1, 6), rng.randint(1, 6)
    lost = 0.0
    # Not One Step Back! (2e): a Soviet unit failing near a commissar shoots a man and tries once more.
    if s.get("commissar") and "soviet-union" in armies and s["edition"] == "2e" and (a + b > m or a == b == 6):
        lost = 1.0
        a, b = rng.randint(1, 6), rng.randint(1, 6)
    return {"pass": float(a + b <= m), "fubar": float(a == b == 6), "man_removed": lost}


def _strikes(
    rng: random.Random, ed: Ed, side: dict[str, Any], alive: int, enemy_quality: str, cap: int, boots: bool = False
) -> int:
    dv = DV_MEN[enemy_quality]
    aw = min(side.get("aw", 0), alive)  # casualties come off the men without assault weapons first
    total = 0
    # Tough as Boots: for every three men still fighting, one more man's worth of attack, struck as a
    # man without an assault weapon would.
    extra = alive // 3 if boots else 0
    for has_aw in [True] * aw + [False] * (alive - aw) + [False] * extra:
        tough = side.get("tough") or (has_aw and not ed.aw_two_attacks)
        attacks = 2 if has_aw and ed.aw_two_attacks else 1
        if tough and ed.tough == "extra_attack":
            attacks += 1
            tough = False
        for _ in range(attacks):
            if succeeds(rng, dv):
                total += 1
                if tough and ed.tough == "bonus_roll" and succeeds(rng, dv):
                    total += 1  # one more roll, which does not chain [§14]
            elif tough and ed.tough == "reroll" and succeeds(rng, dv):
                total += 1
    return min(total, cap)


def reaction_fire(rng: random.Random, ed: Ed, s: dict[str, Any]) -> int | None:
    """The defenders shoot at the assaulting unit before it arrives: the men it has left, or None when
    the fire stops the assault (all dead, pins up to its morale, or a failed morale check after losing
    half the men who charged). Blood Curdling Charge (2e, a British list's choice) forbids it, except
    for green attackers."""
    att, fire = s["attacker"], s.get("reaction")
    men = att["models"]
    if not fire or (att.get("blood") and s["edition"] == "2e" and att["quality"] != "inexperienced"):
        return men
    lost, hit = 0, False
    for _ in range(fire["shots"]):
        if hits(rng, fire["to_hit"]):
            hit = True
            if succeeds(rng, DV_MEN[att["quality"]]):
                lost += 1
    lost = min(lost, men)
    if lost == men:
        return None
    pins = fire.get("pins", 0) + (1 if hit else 0)  # one pin for being hit [§7]
    morale = MORALE[att["quality"]]
    if pins >= morale:
        return None  # pins up to its morale: the unit is gone [§12]
    if lost and 2 * (men - lost) <= men and not passes(rng, ed, morale - pins):
        return None
    return men - lost


def close_quarters(rng: random.Random, ed: Ed, s: dict[str, Any]) -> dict[str, float]:
    att, dfd = s["attacker"], s["defender"]
    left = reaction_fire(rng, ed, s)
    if left is None:
        return {"att": 0.0, "dfd": 1.0, "both": 0.0}
    a, d = left, dfd["models"]
    kind = ed.cq_defensive if dfd.get("defensive") else ed.cq_open
    # Tough as Boots (2e, a British list's choice): Regular and Veteran men only.
    ab, db = (bool(x.get("boots")) and s["edition"] == "2e" and x["quality"] != "inexperienced" for x in (att, dfd))
    while True:
        if kind == "simultaneous":
            x = _strikes(rng, ed, att, a, dfd["quality"], d, ab)
            y = _strikes(rng, ed, dfd, d, att["quality"], a, db)
        elif kind == "attacker_first":
            x = _strikes(rng, ed, att, a, dfd["quality"], d, ab)
            y = _strikes(rng, ed, dfd, d - x, att["quality"], a, db) if x < d else 0
        else:
            y = _strikes(rng, ed, dfd, d, att["quality"], a, db)
            x = _strikes(rng, ed, att, a - y, dfd["quality"], d, ab) if y < a else 0
        a, d = a - y, d - x
        if a == 0 and d == 0:
            return {"att": 0.0, "dfd": 0.0, "both": 1.0}
        if d == 0 or (a > 0 and x > y):
            return {"att": 1.0, "dfd": 0.0, "both": 0.0}
        if a == 0 or y > x:
            return {"att": 0.0, "dfd": 1.0, "both": 0.0}
        kind = "simultaneous"  # a draw: fight on, simultaneously [§14]


# --- infantry assaulting a vehicle (notes §11, "Close quarters against vehicles") ---------------------


def improvised_at_grenades(s: dict[str, Any]) -> bool:
    """2e: Italian infantry carrying AT grenades may roll a failed damage die at a vehicle once more."""
    return s.get("army") == "italy" and s["edition"] == "2e" and s["at"]


def tank_assault(rng: random.Random, ed: Ed, s: dict[str, Any]) -> dict[str, float]:
    """Every man strikes once: a 6 to hit a vehicle that Advanced, 4+ otherwise; a damaging hit destroys
    a soft-skin or open-topped vehicle, and rolls on the damage table against an enclosed one, always as
    superficial damage unless the men carry AT weapons. Without them, an enclosed vehicle is only
    assaulted after an order test at -3, taken whatever the pins (Tank Fear)."""
    t = s["target"]
    dv, pen = t["dv"], s["pen"]
    morale = MORALE[t["quality"]]
    goes_in = True
    if t["kind"] == "enclosed" and not s["at"]:
        goes_in = passes(rng, ed, MORALE[s["quality"]] + s["officer"] - s["pins"] - 3)
    v = Tank(pins=t["pins"], slow=t["slow"])
    mod = 1 if t["flamer"] else 0
    need = 6 if t["order"] == "advance" else 4
    for _ in range(s["men"]):
        if v.ko or v.pins >= morale:
            break  # wrecked, or its crew already fled
        if rng.randint(1, 6) < need:
            continue
        d = rng.randint(1, 6)
        if (d == 1 or d + pen < dv) and improvised_at_grenades(s):
            d = rng.randint(1, 6)
        if d == 1 or d + pen < dv:
            continue
        if t["kind"] != "enclosed":
            v.ko = True
            continue
        superficial = not s["at"] or d + pen == dv
        for _ in range(2 if s["at"] and d + pen >= dv + 3 else 1):
            if not v.ko:
                _result(rng, ed, v, morale, rng.randint(1, 6) + mod, superficial, t)
    return {
        "goes_in": float(goes_in),
        "ko": float(v.ko),
        "ko_overall": float(goes_in and v.ko),
        "immobilised": float(v.imm and not v.ko),
        "rout": float(not v.ko and v.pins >= morale),
        "pins": v.pins - t["pins"],
    }


def simulate(s: dict[str, Any], trials: int, seed: int) -> dict[str, float]:
    """Mean of each statistic over ``trials`` simulated plays of scenario ``s``."""
    rng = random.Random(seed)
    ed = ED[s["edition"]]
    play = {
        "shooting": None,
        "order_test": order_test,
        "close_quarters": close_quarters,
        "tank_assault": tank_assault,
    }[s["calc"]]
    if play is None:
        play = shoot_armour if s["target"]["kind"] == "armoured" else shoot_men
    sums: dict[str, float] = {}
    for _ in range(trials):
        for k, v in play(rng, ed, s).items():
            sums[k] = sums.get(k, 0.0) + v
    return {k: v / trials for k, v in sums.items()}


# --- scenarios --------------------------------------------------------------------------------------

# Weapon profiles (notes §18): the simulator's own copies.
RIFLE = {"slug": "rifle", "range": 24}
SMG = {"slug": "smg", "range": 12, "shots": "2", "assault": True}
LMG = {"slug": "lmg", "range": 36, "shots": "4", "team": True}
HMG = {"slug": "hmg", "range": 36, "shots": "3", "pen": 1, "team": True}
ATR = {"slug": "atr", "range": 36, "pen": 2, "team": True}
PANZERFAUST = {"slug": "panzerfaust", "range": 12, "pen": 6, "shaped": True}
BAZOOKA = {"slug": "bazooka", "range": 24, "pen": 5, "shaped": True, "team": True}
LIGHT_AT = {"slug": "light-at-gun", "range": 48, "pen": 4, "he": 1, "team": True, "at_gun": True}
MEDIUM_AT = {"slug": "medium-at-gun", "range": 60, "pen": 5, "he": 1, "team": True, "at_gun": True}
AUTOCANNON = {"slug": "light-autocannon", "range": 48, "shots": "2", "pen": 2, "he": 1}
HOWITZER = {"slug": "light-howitzer", "range": 48, "he": 2, "team": True}
MORTAR = {"slug": "medium-mortar", "range": 60, "range_min": 12, "he": 2, "team": True, "indirect": True}
FLAMER = {"slug": "flamethrower", "range": 6, "pen": 3, "flamer": True, "team": True}
VEHICLE_FLAMER = {"slug": "vehicle-flamethrower", "range": 12, "pen": 3, "flamer": True, "vehicle": True}

MMG = {"slug": "mmg", "range": 36, "shots": "5", "team": True}
BAR = {"slug": "automatic-rifle", "range": 30, "shots": "2"}

SMALL_ARMS = (RIFLE, SMG, LMG, HMG, ATR)
AT_WEAPONS = (ATR, PANZERFAUST, BAZOOKA, LIGHT_AT, MEDIUM_AT, AUTOCANNON, HMG)
HE_WEAPONS = (AUTOCANNON, HOWITZER, LIGHT_AT, MORTAR)


def bands(w: dict[str, Any]) -> list[str]:
    """Point blank within 6", long beyond half range, nothing inside the minimum [§1, §18]."""
    lo, hi = w.get("range_min", 0), w["range"]
    out = []
    if lo <= 6:
        out.append("point_blank")
    if max(lo, 6) < hi / 2:
        out.append("normal")
    if hi > max(hi / 2, 6):
        out.append("long")
    return out


def _pen(edition: str, w: dict[str, Any]) -> dict[str, Any]:
    # 3rd-edition flamethrowers are Pen +2 [§17]; everything else keeps its profile.
    return {**w, "pen": 2} if w.get("flamer") and edition == "3e" else w


def _group(rng: random.Random, edition: str, w: dict[str, Any], models: int) -> dict[str, Any]:
    w = _pen(edition, w)
    g: dict[str, Any] = {"weapon": w, "models": models, "band": rng.choice(bands(w))}
    if w.get("indirect"):
        g["indirect"] = True
        g["attempt"] = rng.randint(1, 5)
    if w.get("he"):
        g["template"] = rng.randint(1, 4)
    return g


def _shooter(rng: random.Random, edition: str, fixed: bool) -> dict[str, Any]:
    # Fixed weapons cannot fire on the move in 1e/2e [§15]: keep those scenarios valid.
    order = "fire" if fixed and edition != "3e" else rng.choice(("fire", "fire", "advance"))
    return {
        "order": order,
        "firer_quality": rng.choice(("inexperienced", "regular", "veteran")),
        "firer_pins": rng.choice((0, 0, 0, 1, 2)),
    }


def _men(rng: random.Random, small: bool = False) -> dict[str, Any]:
    models = rng.randint(1, 3) if small else rng.randint(1, 10)
    t = {
        "kind": rng.choice(("infantry", "infantry", "artillery")),
        "quality": rng.choice(("inexperienced", "regular", "veteran")),
        "models": models,
        "cover": rng.choice(("none", "soft", "hard")),
        "down": rng.random() < 0.4,
        "pins": rng.choice((0, 0, 1, 3)),
    }
    if rng.random() < 0.4:
        t["starting"] = models + rng.randint(1, 5)
    return t


def _armour(rng: random.Random) -> dict[str, Any]:
    return {
        "kind": "armoured",
        "quality": rng.choice(("inexperienced", "regular", "veteran")),
        "dv": rng.randint(7, 10),
        "facing": rng.choice(("front", "front", "side", "rear")),
        "cover": rng.choice(("none", "soft")),
        "pins": rng.choice((0, 0, 1, 2)),
        "open_topped": rng.random() < 0.3,
        "turret": rng.random() < 0.7,
        "slow": rng.random() < 0.2,
        "flamer": rng.random() < 0.15,
    }


def random_scenarios(count: int, seed: int) -> list[dict[str, Any]]:
    """``count`` valid scenarios over the three editions and every calculator, in a fixed mix."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    kinds = (
        "small_arms",
        "he",
        "he_down_small",
        "flamer",
        "vehicle_flamer",
        "armour",
        "armour",
        "anti_tank",
        "soft_skin",
        "order_test",
        "close_quarters",
    )
    for i in range(count):
        edition = ("1e", "2e", "3e")[i % 3]
        kind = kinds[i % len(kinds)]
        s: dict[str, Any] = {"edition": edition, "calc": "shooting", "kind": kind}
        if kind == "order_test":
            s.update(
                calc="order_test",
                quality=rng.choice(("inexperienced", "regular", "veteran")),
                pins=rng.randint(0, 5),
                officer=rng.choice((0, 0, 1, 2, 3, 4)),
                modifier=rng.randint(-2, 2),
            )
        elif kind == "close_quarters":
            s.update(
                calc="close_quarters",
                attacker={
                    "models": rng.randint(1, 8),
                    "quality": rng.choice(("inexperienced", "regular", "veteran")),
                    "tough": rng.random() < 0.3,
                },
                defender={
                    "models": rng.randint(1, 8),
                    "quality": rng.choice(("inexperienced", "regular", "veteran")),
                    "tough": rng.random() < 0.3,
                    "defensive": rng.random() < 0.3,
                },
            )
            s["attacker"]["aw"] = rng.randint(0, s["attacker"]["models"]) if rng.random() < 0.4 else 0
        elif kind == "small_arms":
            weapons = rng.sample(SMALL_ARMS, rng.randint(1, 3))
            s["groups"] = [_group(rng, edition, w, rng.randint(1, 6)) for w in weapons]
            s.update(_shooter(rng, edition, False), target=_men(rng))
        elif kind in ("he", "he_down_small"):
            w = rng.choice((AUTOCANNON, AUTOCANNON) if kind == "he_down_small" else HE_WEAPONS)
            s["groups"] = [_group(rng, edition, w, rng.randint(1, 2))]
            if rng.random() < 0.5 and kind == "he":
                s["groups"].append(_group(rng, edition, RIFLE, rng.randint(1, 5)))
            s.update(_shooter(rng, edition, bool(w.get("fixed"))), target=_men(rng, small=kind == "he_down_small"))
            if kind == "he_down_small":
                s["target"]["down"] = True
                s["groups"][0]["template"] = rng.randint(2, 3)
        elif kind == "flamer":
            s["groups"] = [_group(rng, edition, FLAMER, rng.randint(1, 2))]
            if rng.random() < 0.5:
                s["groups"].append(_group(rng, edition, RIFLE, rng.randint(1, 5)))
            s.update(_shooter(rng, edition, False), target=_men(rng))
        elif kind == "vehicle_flamer":
            s["groups"] = [_group(rng, edition, VEHICLE_FLAMER, 1)]
            target = _men(rng) if rng.random() < 0.6 else _armour(rng)
            s.update(_shooter(rng, edition, False), target=target)
        elif kind in ("armour", "anti_tank"):
            weapons = rng.sample(AT_WEAPONS, 1 if kind == "anti_tank" else rng.randint(1, 2))
            if kind == "armour" and rng.random() < 0.3:
                weapons.append(RIFLE)
            n = rng.randint(1, 4) if kind == "anti_tank" else None
            s["groups"] = [_group(rng, edition, w, 1 if kind == "anti_tank" else rng.randint(1, 3)) for w in weapons]
            for g in s["groups"]:
                g.pop("indirect", None)
                g["ammo"] = "ap" if g["weapon"].get("pen") else "auto"
            s.update(_shooter(rng, edition, any(w.get("fixed") for w in weapons)), target=_armour(rng))
            if kind == "anti_tank":
                s.update(calc="anti_tank", shots=n, each_shot_fires=True)
                s["groups"][0]["models"] = n
        else:  # soft-skins: destroyed if damaged
            weapons = rng.sample((*SMALL_ARMS, PANZERFAUST, FLAMER), rng.randint(1, 2))
            s["groups"] = [_group(rng, edition, w, rng.randint(1, 3)) for w in weapons]
            target = {"kind": "soft_skin", "quality": rng.choice(("regular", "veteran")), "models": 1}
            target.update(cover=rng.choice(("none", "soft")), pins=rng.choice((0, 1)))
            s.update(_shooter(rng, edition, False), target=target)
        out.append(s)
    return out


def simulate_any(s: dict[str, Any], trials: int, seed: int) -> dict[str, float]:
    """``simulate`` for every calculator (the anti-tank calculator is armour fire, one firing a shot)."""
    if s["calc"] == "anti_tank":
        return simulate({**s, "calc": "shooting"}, trials, seed)
    return simulate(s, trials, seed)


def vengeance_scenarios(count: int, seed: int) -> list[dict[str, Any]]:
    """British order tests with Vengeance, in 2nd and 3rd edition (where it does not act), at every
    quality, with 0 to 4 pins, some after losing their NCO."""
    rng = random.Random(seed)
    return [
        {
            "edition": ("2e", "2e", "3e")[i % 3],
            "calc": "order_test",
            "kind": "national_great-britain",
            "army": "great-britain",
            "quality": rng.choice(("inexperienced", "regular", "veteran", "veteran")),
            "pins": rng.choice((0, 1, 1, 2, 3, 4)),
            "officer": rng.choice((0, 0, 1, 2)),
            "modifier": rng.randint(-2, 1),
            "nco": rng.random() < 0.3,
            "vengeance": True,
        }
        for i in range(count)
    ]


def tough_as_boots_scenarios(count: int, seed: int) -> list[dict[str, Any]]:
    """Close quarters where a British side chose Tough as Boots (the attacker always, the defender half the
    time), in 2nd and 3rd edition (where it does not act), at every quality (Inexperienced men get none)."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for i in range(count):
        side = {"quality": rng.choice(("inexperienced", "regular", "veteran", "veteran"))}
        out.append(
            {
                "edition": ("2e", "2e", "3e")[i % 3],
                "calc": "close_quarters",
                "kind": "national_great-britain",
                "attacker": {**side, "models": rng.randint(3, 10), "tough": rng.random() < 0.3, "boots": True},
                "defender": {
                    "models": rng.randint(2, 10),
                    "quality": rng.choice(("inexperienced", "regular", "veteran")),
                    "tough": rng.random() < 0.3,
                    "defensive": rng.random() < 0.3,
                    "boots": i % 2 == 0,
                },
            }
        )
        if rng.random() < 0.3:
            out[-1]["attacker"]["aw"] = rng.randint(0, out[-1]["attacker"]["models"])
    return out


def reaction_scenarios(count: int, seed: int) -> list[dict[str, Any]]:
    """Assaults met by reaction fire in the three editions: a few to a dozen shots on 2+ to 7+, at
    attackers who sometimes carry pins (now and then nearly their morale), and in 2nd and 3rd edition
    British attackers whose list chose Blood Curdling Charge a third of the time (green ones too)."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for i in range(count):
        models = rng.randint(2, 10)
        att = {
            "models": models,
            "quality": rng.choice(("inexperienced", "regular", "veteran", "veteran")),
            "tough": rng.random() < 0.3,
            "aw": rng.randint(0, models) if rng.random() < 0.3 else 0,
            "blood": i % 3 == 0,
        }
        out.append(
            {
                "edition": ("1e", "2e", "2e", "3e")[i % 4],
                "calc": "close_quarters",
                "kind": "reaction",
                "attacker": att,
                "defender": {
                    "models": rng.randint(1, 8),
                    "quality": rng.choice(("inexperienced", "regular", "veteran")),
                    "tough": rng.random() < 0.3,
                    "defensive": rng.random() < 0.3,
                },
                "reaction": {
                    "shots": rng.randint(2, 12),
                    "to_hit": rng.choice((2, 3, 3, 4, 4, 5, 6, 7)),
                    "pins": rng.choice((0, 0, 1, 2, 7)),
                },
            }
        )
    return out


def national_scenarios(count: int, seed: int) -> list[dict[str, Any]]:
    """Where national rules act (2nd and 3rd edition): German and US units shooting (machine guns, rifles
    and BARs at men, guns on the move at armour, often by Veteran gyro-stabilised crews), Germans shooting
    small Soviet units (their morale checks), Japanese order tests, half of them Banzai Charges, Soviet
    order tests near a commissar (Not One Step Back!), Italian ones near a Tiger (Tiger Fear) and ahead
    or behind on losses (Avanti Savoia!), British riflemen with Rapid Fire (in the German slot), and
    Italian squads of 12 to 17 men (Large Squads) and Italian light AT weapons at light armour
    (Improvised AT)."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for i in range(count):
        edition = ("2e", "3e")[i % 2]
        army = ("germany", "us", "soviet-union", "imperial-japan", "italy")[(i // 2) % 5]
        at_armour = i % 5 == 4 and army in ("germany", "us")
        s: dict[str, Any] = {"edition": edition, "calc": "shooting", "kind": f"national_{army}", "army": army}
        if army == "imperial-japan":  # order tests: Japanese, half of them a Banzai Charge, or Soviet
            s.update(
                calc="order_test",
                quality=rng.choice(("inexperienced", "regular", "veteran")),
                pins=rng.randint(1, 5),
                officer=rng.choice((0, 0, 1, 2)),
                modifier=rng.randint(-2, 1),
                banzai=rng.random() < 0.5,
            )
            if (i // 10) % 2:  # Soviet units, most of them within 6" of a commissar
                s.update(army="soviet-union", banzai=False, commissar=rng.random() < 0.7)
            elif i >= 40 and (i // 10) % 4 == 0:  # German squads that lost their NCO (Initiative Training)
                s.update(army="germany", banzai=False, nco=True)
            elif (i // 10) % 4 == 2:  # Italian units, often near a German Tiger, often ahead or behind
                s.update(
                    army="italy",
                    banzai=False,
                    tiger=rng.random() < 0.7,
                    avanti=rng.choice(("", "behind", "ahead", "ahead")),
                )
            out.append(s)
            continue
        if army == "soviet-union":  # shot at: small Soviet or Japanese units, so morale checks come often
            s.update(army="germany", target_army=("soviet-union", "imperial-japan")[(i // 10) % 2])
            weapons = rng.sample((RIFLE, LMG, SMG), rng.randint(1, 2))
            s["groups"] = [_group(rng, edition, w, rng.randint(1, 4)) for w in weapons]
            target = _men(rng, small=True)
            target["pins"] = rng.choice((0, 1, 2, 8))  # 8: a hit routs a Regular unless it is Fanatic
            s.update(_shooter(rng, edition, False), target=target)
            out.append(s)
            continue
        if army == "germany" and (i // 10) % 2:  # British riflemen whose list chose Rapid Fire
            s.update(army="great-britain")
            s["groups"] = [_group(rng, edition, RIFLE, rng.randint(3, 10)), _group(rng, edition, LMG, 1)]
            s.update(_shooter(rng, edition, False), target=_men(rng))
            out.append(s)
            continue
        if army == "italy" and (i // 10) % 2:  # light AT weapons at light armour (Improvised AT)
            weapons = rng.sample((ATR, HMG, AUTOCANNON), rng.randint(1, 2))
            s["groups"] = [_group(rng, edition, w, rng.randint(1, 3)) for w in weapons]
            for g in s["groups"]:
                g.pop("indirect", None)
                g["ammo"] = "ap" if g["weapon"].get("pen") else "auto"
            target = _armour(rng)
            target.update(dv=7, pins=0, flamer=False)
            s.update(_shooter(rng, edition, False), target=target)
            out.append(s)
            continue
        if army == "italy":  # squads around the 14 men of Large Squads
            s["groups"] = [_group(rng, edition, RIFLE, rng.randint(11, 16)), _group(rng, edition, LMG, 1)]
            s.update(_shooter(rng, edition, False), target=_men(rng))
            out.append(s)
            continue
        if at_armour:
            s["groups"] = [_group(rng, edition, w, 1) for w in weapons]
            for g in s["groups"]:
                g.pop("indirect", None)
                g["ammo"] = "ap" if g["weapon"].get("pen") else "auto"
            s.update(_shooter(rng, edition, False), target=_armour(rng), gyro=rng.random() < 0.7)
        else:
            weapons = rng.sample((RIFLE, BAR, LMG, MMG, SMG), rng.randint(1, 3))
            s["groups"] = [_group(rng, edition, w, rng.randint(1, 6)) for w in weapons]
            s.update(_shooter(rng, edition, False), target=_men(rng))
        if rng.random() < 0.6:
            s["order"] = "advance"  # where the moving rules act
        out.append(s)
    return out


def italian_bonus_scenarios(count: int, seed: int) -> list[dict[str, Any]]:
    """The Italian bonus per unit, in 2nd and 3rd edition (where it does not act): Bersaglieri rifles and
    their LMG advancing (Combattere), and small units of men shot at with a few pins, some at the edge of
    a rout, that are Fanatics (Cedere) or Stubborn (Obbedire)."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for i in range(count):
        edition = ("2e", "2e", "3e")[i % 3]
        s: dict[str, Any] = {"edition": edition, "calc": "shooting", "kind": "italian_bonus"}
        if i % 2 == 0:  # Bersaglieri firing
            s["groups"] = [_group(rng, edition, RIFLE, rng.randint(4, 10)), _group(rng, edition, LMG, 1)]
            s.update(_shooter(rng, edition, False), target=_men(rng), firer_bonus="combattere")
            s["order"] = "advance" if rng.random() < 0.8 else s["order"]
        else:  # Blackshirts, Regular HQ or Alpini shot at
            weapons = rng.sample((RIFLE, LMG, SMG), rng.randint(1, 2))
            s["groups"] = [_group(rng, edition, w, rng.randint(1, 4)) for w in weapons]
            target = _men(rng, small=True)
            # Two to four men (a Fanatic needs two left); 8 pins: a hit routs a Regular unless it is Fanatic.
            target.update(models=rng.randint(2, 4), pins=rng.choice((1, 2, 8, 8)))
            target["starting"] = target["models"] + rng.randint(1, 4)  # one man down can force the check
            bonus = ("cedere", "obbedire")[(i // 2) % 2]
            s.update(_shooter(rng, edition, False), target=target, target_bonus=bonus)
        out.append(s)
    return out


def tank_assault_scenarios(count: int, seed: int) -> list[dict[str, Any]]:
    """Infantry assaulting soft-skins, open-topped and enclosed vehicles in 2nd and 3rd edition, with and
    without AT grenades, half of them Italian (Improvised AT acts with grenades in 2nd edition)."""
    rng = random.Random(seed)
    out: list[dict[str, Any]] = []
    for i in range(count):
        kind = ("soft_skin", "open_topped", "enclosed", "enclosed")[i % 4]
        out.append(
            {
                "edition": ("2e", "3e")[(i // 4) % 2],
                "calc": "tank_assault",
                "kind": f"tank_assault_{kind}",
                "army": "italy" if (i // 8) % 2 == 0 else "",
                "at": rng.random() < 0.6,
                "men": rng.randint(1, 10),
                "pen": rng.randint(0, 5),
                "quality": rng.choice(("inexperienced", "regular", "veteran")),
                "pins": rng.choice((0, 0, 1, 2)),
                "officer": rng.choice((0, 0, 1, 2)),
                "target": {
                    "kind": kind,
                    "dv": 6 if kind == "soft_skin" else rng.randint(7, 9),
                    "order": rng.choice(("other", "other", "advance")),
                    "quality": rng.choice(("inexperienced", "regular", "veteran")),
                    "pins": rng.choice((0, 0, 1, 2, 6)),
                    "flamer": rng.random() < 0.2,
                    "turret": rng.random() < 0.8,
                    "slow": rng.random() < 0.2,
                },
            }
        )
    return out


def order_test_box_scenarios(count: int, seed: int) -> list[dict[str, Any]]:
    """Order tests with Not One Step Back! ticked together with the page's other boxes: Vengeance, a lost
    NCO (German Initiative Training or not), the Banzai Charge, Tiger Fear and Avanti Savoia!, in 2nd
    edition (where they act) and 3rd; ``boxes`` names the armies of the other rules ticked."""
    rng = random.Random(seed)
    others = ("great-britain", "germany", "imperial-japan", "italy")
    out = []
    for i in range(count):
        boxes = rng.sample(others, rng.randint(1, 2))
        out.append(
            {
                "edition": ("2e", "2e", "2e", "3e")[i % 4],
                "calc": "order_test",
                "kind": "order_test_boxes",
                "army": "soviet-union",
                "boxes": boxes,
                "quality": rng.choice(("inexperienced", "regular", "veteran")),
                "pins": rng.randint(1, 4),
                "officer": rng.choice((0, 0, 1, 2)),
                "modifier": rng.randint(-1, 1),
                "commissar": True,
                "vengeance": "great-britain" in boxes,
                "nco": "germany" in boxes or rng.random() < 0.3,
                "banzai": "imperial-japan" in boxes and rng.random() < 0.5,
                "tiger": "germany" in boxes and rng.random() < 0.5,
                "avanti": rng.choice(("behind", "ahead")) if "italy" in boxes else "",
            }
        )
    return out


# The towed guns of the charts: "Team, Fixed" (notes §18, §15). A tank's gun of the same class shares the
# profile; mounted on a vehicle it fires on the move.
FIXED_GUNS = tuple({**w, "fixed": True} for w in (LIGHT_AT, MEDIUM_AT, AUTOCANNON, HOWITZER))


def vehicle_gun_scenarios(count: int, seed: int) -> list[dict[str, Any]]:
    """Guns the charts mark Fixed, on an Advance order: mounted on vehicles (often US Veteran crews with
    gyro-stabilisers) in every edition, and towed in 3rd edition (where they pivot and fire); at armour
    and at men."""
    rng = random.Random(seed)
    out = []
    for i in range(count):
        edition = ("1e", "2e", "2e", "3e")[i % 4]
        towed = edition == "3e" and rng.random() < 0.4
        w = rng.choice(FIXED_GUNS)
        s: dict[str, Any] = {"edition": edition, "calc": "shooting", "kind": "vehicle_gun", "order": "advance"}
        s.update(
            firer_quality=rng.choice(("regular", "veteran", "veteran")),
            firer_pins=rng.choice((0, 0, 1)),
            vehicle=not towed,
        )
        if not towed and edition != "1e" and rng.random() < 0.6:
            s.update(army="us", gyro=True)
        g = _group(rng, edition, w, 1)
        g.pop("indirect", None)
        g.pop("attempt", None)
        if w["slug"] == "light-howitzer" or i % 2:
            s["target"] = _men(rng)
        else:
            g["ammo"] = "ap"
            g.pop("template", None)
            s["target"] = _armour(rng)
        s["groups"] = [g]
        out.append(s)
    return out

"""The built-in 2nd-edition national armies generated from the Barracks data.

The committed fixture must be what the generator makes of the Barracks facts kept in the
repository (fixtures/src/barracks_data, written by barracks_snapshot.py from ../shared/data/barracks,
which a fresh clone does not have; the app itself never reads either). The points are checked
against those Barracks files read here directly, not through the generator or the parser: every
profile of every nation, at each quality it is offered at, at base and full size, with each option
and with every combination of its options, those that cannot go together refused. What the points
do not show is checked on the data: "Free Unit" marks the unit free with its limit per list, a
further soldier adds a model, and the armament leaves out what only an option adds. The meaning
downstream (a free unit costs 0, added soldiers count as models) is in test_barracks_meaning.py.
Rule sentences are kept only as digests (``sentences.json``), enough to show that
Muster's summaries are not Barracks' sentences.
"""

from __future__ import annotations

import json
import re
import sys
from itertools import combinations
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from armybuilder.catalogue.models import Army, Unit
from armybuilder.reference.models import Edition, SpecialRule, Weapon
from rules.army.model import EntrySpec
from rules.army.points import entry_points
from rules.errors import RulesError

ROOT = Path(settings.BASE_DIR)
BARRACKS = ROOT / "fixtures" / "src" / "barracks_data"
FIXTURE = ROOT / "fixtures" / "55_catalogue_v2_barracks.json"
NATIONS = ["us", "germany", "great-britain", "soviet-union", "france", "italy", "imperial-japan"]
QUALITIES = ("inexperienced", "regular", "veteran")


def _generator():
    sys.path.insert(0, str(ROOT / "fixtures" / "src"))
    try:
        import catalogue_barracks
    finally:
        sys.path.pop(0)
    return catalogue_barracks


def test_the_committed_fixture_is_what_the_generator_makes_of_the_barracks_data():
    text, _ = _generator().generate(BARRACKS.resolve())
    assert FIXTURE.read_text(encoding="utf-8") == text, "run fixtures/src/catalogue_barracks.py"


def test_check_mode_reports_a_stale_fixture(tmp_path, monkeypatch):
    generator = _generator()
    stale = tmp_path / "55.json"
    stale.write_text("[]\n", encoding="utf-8")
    monkeypatch.setattr(generator, "OUTPUT", stale)
    assert generator.main(["--check", "--source", str(BARRACKS)]) == 1
    assert stale.read_text(encoding="utf-8") == "[]\n"


def test_a_weapon_key_the_chart_lacks_stops_the_generator(tmp_path):
    source = tmp_path / "barracks"
    (source / "units").mkdir(parents=True)
    for name in ("armies.json", "core.json"):
        (source / name).write_bytes((BARRACKS / name).read_bytes())
    germany = json.loads((BARRACKS / "units" / "germany.json").read_text(encoding="utf-8"))
    germany["infantry"]["Headquarters"][0]["weapons"]["keys"].append("ray-gun")
    (source / "units" / "germany.json").write_text(json.dumps(germany), encoding="utf-8")
    with pytest.raises(_generator().DataError, match="ray-gun"):
        _generator().generate(source)


def test_the_snapshot_keeps_the_facts_of_an_armament_text_not_its_sentence():
    """Every infantry and gun armament is the phrase ``armament_facts`` makes, not Barracks' sentence.

    The phrase reads back as itself, so the parser finds in it what it finds in the sentence:
    ``catalogue_barracks.py --check`` shows that the upstream sentences make the same fixture,
    test_barracks_snapshot.py that a sentence is replaced by its phrase.
    """
    from armydata.barracks import armament_facts
    from armydata.model import ImportedWeapon

    core = json.loads((BARRACKS / "core.json").read_text(encoding="utf-8"))
    chart = [ImportedWeapon(key, item["type"], "", "", "") for key, item in core["weapons"].items()]
    phrases = []
    for path in sorted((BARRACKS / "units").glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        for section, categories in data.items():
            if section in ("lastUpdated", "vehicles"):
                continue  # a vehicle's armament is its mounts, read by weapon_lines
            for unit in (u for units in categories.values() for u in units):
                text = (unit.get("weapons") or {}).get("description")
                if text:
                    assert armament_facts(text, chart) == text, (path.stem, unit["name"])
                    phrases.append(text)
    assert len(phrases) > 100
    assert "Sniper rifle" in phrases and any(p.endswith(" or none") for p in phrases)


# --- the figures, read straight from the Barracks JSON ----------------------------------------------


def _is_extra_models(option: dict) -> bool:
    return re.match(r"\s*(additional soldier|attendant)", option["name"], re.IGNORECASE) is not None


def _whole_unit(option, raw: dict, full: int) -> bool:
    # Bought by the whole squad: listed up to the squad's size (or anti-tank grenades, which
    # some squads list a man or three short of their largest size).
    return option.grants_weapon is None and (
        (raw.get("max") is not None and raw["max"] >= full > 1) or raw["name"] == "Anti-tank grenades"
    )


def _is_free_unit(option: dict) -> bool:
    return option["name"].strip().lower() == "free unit"


def barracks_entries(nation: str):
    """(section, Barracks unit, profile, extra-model option or None, other options), in file order."""
    data = json.loads((BARRACKS / "units" / f"{nation}.json").read_text(encoding="utf-8"))
    for section, categories in data.items():
        if section == "lastUpdated":
            continue
        for units in categories.values():
            for unit in units:
                options = unit.get("options", [])
                extra = next((o for o in options if _is_extra_models(o)), None)
                others = [o for o in options if o is not extra]
                for profile in unit["profiles"]:
                    yield section, unit, profile, extra, others


def barracks_profiles(nation: str):
    """(profile name, profile costs, extra-model option or None, other options), in file order."""
    for _section, _unit, profile, extra, others in barracks_entries(nation):
        yield " ".join(profile["name"].split()), profile["cost"], extra, others


@pytest.fixture(scope="module")
def national(django_db_setup, django_db_blocker):
    fixtures = [ROOT / "fixtures" / name for name in ("00_editions.json", "20_v2_reference.json")] + [FIXTURE]
    with django_db_blocker.unblock():
        call_command("loaddata", *map(str, fixtures), verbosity=0)
        yield
        Army.objects.all().delete()
        Edition.objects.all().delete()


def _entry(unit, quality, models, options=None):
    return EntrySpec(
        key=unit.slug, name=unit.name, unit=unit.to_rules(), quality=quality, models=models, options=options or {}
    )


@pytest.mark.django_db
@pytest.mark.parametrize("nation", NATIONS)
def test_every_profile_costs_what_barracks_says_at_each_quality_size_and_option(national, nation):
    units = list(Unit.objects.filter(army__edition__slug="v2", army__slug=nation).prefetch_related("options"))
    profiles = list(barracks_profiles(nation))
    assert [u.name for u in units] == [name for name, *_ in profiles]
    checked = 0
    for unit, (name, costs, extra, others) in zip(units, profiles, strict=True):
        assert unit.base_cost() == costs, name
        extra_max = extra["max"] if extra else 0
        assert unit.max_models - unit.base_models == extra_max, name
        full = unit.max_models
        options = list(unit.options.all())
        assert [o.name for o in options] == [" ".join(o["name"].split()) for o in others], name
        for quality, cost in costs.items():
            assert entry_points(_entry(unit, quality, unit.base_models)) == cost, (name, quality)
            if extra:
                expected = cost + extra_max * extra["cost"][quality]
                assert entry_points(_entry(unit, quality, full)) == expected, (name, quality)
            for option, raw in zip(options, others, strict=True):
                if quality not in raw["cost"]:
                    continue  # Barracks does not offer it at this quality
                if _is_free_unit(raw):
                    continue  # not a price: the whole unit is free (test_barracks_meaning.py)
                price = raw["cost"][quality]
                whole_unit = _whole_unit(option, raw, full)
                for models in {unit.base_models, full}:
                    base = entry_points(_entry(unit, quality, models))
                    if whole_unit:
                        # Bought for the whole squad: one choice, the price once per man.
                        assert option.all_models, (name, option.name)
                        taken = entry_points(_entry(unit, quality, models, {option.slug: 1}))
                        assert taken - base == price * models, (name, option.name, quality, models)
                    else:
                        most = raw.get("max") or 1
                        taken = entry_points(_entry(unit, quality, models, {option.slug: most}))
                        assert taken - base == price * most, (name, option.name, quality, models)
                    checked += 1
    assert checked > 0


@pytest.mark.django_db
def test_each_nation_lists_its_national_rules_with_muster_s_own_summary(national):
    armies = {army.slug: army for army in Army.objects.filter(edition__slug="v2").prefetch_related("national_rules")}
    barracks = json.loads((BARRACKS / "armies.json").read_text(encoding="utf-8"))
    sentences = _barracks_sentence_digests()
    for nation in NATIONS:
        rules = list(armies[nation].national_rules.all())
        assert sorted(r.name for r in rules) == sorted(r["name"] for r in barracks[nation]["rules"]), nation
        for rule in rules:
            assert rule.summary and rule.summary_fr, rule.name
            assert _snapshot().copied(rule.summary, sentences) == [], rule.name  # ours, not Barracks' sentence


@pytest.mark.django_db
def test_vehicle_weapons_are_one_line_per_mount_with_their_arc(national):
    panzer = Unit.objects.get_by_natural_key("v2", "germany", "panzer-iv-ausf-h")
    assert panzer.weapon_lines == [
        {"weapon": "heavy-at-gun", "mount": "turret", "count": 1, "arc": "360"},
        {"weapon": "mmg", "mount": "coaxial", "count": 1, "arc": "360"},
        {"weapon": "mmg", "mount": "hull", "count": 1, "arc": "front"},
    ]
    chart = set(Weapon.objects.filter(edition__slug="v2").values_list("slug", flat=True))
    vehicles = Unit.objects.filter(army__edition__slug="v2").exclude(weapon_lines=[])
    lines = vehicles.values_list("weapon_lines", flat=True)
    assert lines and all(line["weapon"] in chart for unit_lines in lines for line in unit_lines)


def _snapshot():
    sys.path.insert(0, str(ROOT / "fixtures" / "src"))
    try:
        import barracks_snapshot
    finally:
        sys.path.pop(0)
    return barracks_snapshot


def _barracks_sentence_digests() -> set[str]:
    """Digests of Barracks' rule texts, their sentences and their runs of words (never the text)."""
    return set(json.loads((BARRACKS / "sentences.json").read_text(encoding="utf-8"))["digests"])


@pytest.mark.django_db
def test_every_rule_from_barracks_has_a_summary_in_muster_s_words(national):
    barracks = _barracks_sentence_digests()
    rules = list(SpecialRule.objects.filter(edition__slug="v2", source__startswith="Barracks"))
    assert len(rules) > 50
    for rule in rules:
        assert rule.name_fr and rule.summary and rule.summary_fr, rule.name
        assert _snapshot().copied(rule.summary, barracks) == [], rule.name


@pytest.mark.django_db
def test_no_panzer_iv_carries_tiger_fear(national):
    # Barracks gives the Panzer IV Ausf G/H/J the Tigers' rule (RULE_CORRECTIONS in barracks_notes).
    panzers = Unit.objects.filter(army__edition__slug="v2", army__slug="germany", name__startswith="Panzer IV")
    assert {unit.name for unit in panzers} >= {"Panzer IV Ausf G", "Panzer IV Ausf H", "Panzer IV Ausf J"}
    for unit in panzers:
        assert "tiger-fear" not in {rule.slug for rule in unit.special_rules.all()}, unit.name
    tigers = Unit.objects.filter(army__edition__slug="v2", army__slug="germany", name__in=["Tiger I", "Tiger II"])
    assert [unit.special_rules.filter(slug="tiger-fear").exists() for unit in tigers] == [True, True]


def test_a_rule_correction_that_matches_nothing_stops_the_generator(monkeypatch):
    generator = _generator()
    stale = {**generator.RULE_CORRECTIONS, ("germany", "Panther", "Tiger Fear"): "no longer in the files"}
    monkeypatch.setattr(generator, "RULE_CORRECTIONS", stale)
    with pytest.raises(SystemExit, match="Panther"):
        generator.read_source(BARRACKS.resolve())


@pytest.mark.parametrize(
    "stale",
    [
        {("germany", "Maus"): ((("Pintle-mounted MMG", "Pintle-mounted HMG"), "no such unit"),)},
        {("germany", "SdKfz 251 Hanomag Half-Track"): ((("Forward facing light anti-tank gun", "Flamer"), "renamed"),)},
    ],
)
def test_an_alternative_that_matches_nothing_stops_the_generator(monkeypatch, stale):
    generator = _generator()
    monkeypatch.setattr(generator, "ALTERNATIVE_OPTIONS", stale)
    with pytest.raises(generator.DataError, match="alternative options|ALTERNATIVE_OPTIONS"):
        generator.generate(BARRACKS.resolve())


@pytest.mark.django_db
def test_grenadiers_take_panzerfausts_or_anti_tank_grenades_not_both(national):
    from rules.errors import RulesError

    squads = Unit.objects.filter(army__edition__slug="v2", options__name="Anti-tank grenades (if no Panzerfaust taken)")
    assert squads.count() == 2
    for unit in squads:
        grenades = unit.options.get(name="Anti-tank grenades (if no Panzerfaust taken)")
        assert grenades.excludes == ["panzerfaust"]
        assert unit.options.filter(slug="panzerfaust").exists()
        quality = "regular" if "regular" in unit.base_cost() else "veteran"
        both = {grenades.slug: 1, "panzerfaust": 1}
        with pytest.raises(RulesError, match="cannot be taken with Panzerfaust"):
            entry_points(_entry(unit, quality, unit.base_models, both))
    # Every other option names nothing it excludes.
    others = [o for u in Unit.objects.filter(army__edition__slug="v2") for o in u.options.all() if o.excludes]
    assert len(others) == 2


# --- options that cannot go together, read from the Barracks JSON -------------------------------

# Alternatives whose names do not say so: variants of one vehicle, read off the Barracks data by
# hand. (nation, Barracks unit name) -> pairs of its options that one vehicle cannot both have.
VARIANT_ALTERNATIVES: dict[tuple[str, str], list[tuple[str, str]]] = {
    ("germany", "SdKfz 251 Hanomag Half-Track"): [
        (
            "Forward facing light anti-tank gun (37mm PaK 36)",
            "Pintle-mounted light autocannon (KwK 38) with 360° arc of fire",
        )
    ],
    ("germany", "SdKfz 221, 222 and 223 Light Armoured Car"): [
        ("Turret-mounted MMG and radio (SdKfz 223)", "Turret-mounted MMG / anti-tank rifle (SdKfz 221)")
    ],
}
_MACHINE_GUN = re.compile(r"\b[LMH]MGs?\b")


def clashing_pairs(nation: str, section: str, raw_unit: dict) -> set[frozenset[str]]:
    """Pairs of a Barracks unit's option names that cannot be taken together.

    A vehicle's pintle weapons named alike but for the gun ("Pintle-mounted MMG", "Pintle-mounted
    HMG") share its one pintle mount; its "Replace MMG with ..." options are alternatives for that
    MMG; "X (if no Y taken)" excludes Y; and the variants above.
    """
    names = [" ".join(option["name"].split()) for option in raw_unit.get("options", [])]
    vehicle = section == "vehicles"
    pairs: set[frozenset[str]] = set()
    for first, second in combinations(names, 2):
        pair = frozenset((first, second))
        pintles = "pintle" in first.lower() and "pintle" in second.lower()
        if vehicle and pintles and _MACHINE_GUN.sub("#", first) == _MACHINE_GUN.sub("#", second):
            pairs.add(pair)
        replaced = [re.match(r"replace (\w+) with", name, re.IGNORECASE) for name in (first, second)]
        if vehicle and all(replaced) and replaced[0].group(1).lower() == replaced[1].group(1).lower():
            pairs.add(pair)
        for this, other in ((first, second), (second, first)):
            condition = re.search(r"\(if no (.+?) taken\)", this, re.IGNORECASE)
            if condition and condition.group(1).lower().rstrip("s") == other.lower().rstrip("s"):
                pairs.add(pair)
    for pair in VARIANT_ALTERNATIVES.get((nation, raw_unit["name"]), []):
        assert set(pair) <= set(names), pair
        pairs.add(frozenset(pair))
    return pairs


def _expected_option_points(option, raw: dict, quality: str, models: int, full: int) -> tuple[int, int]:
    """(count to take, points) of one option as Barracks prices it, taken as far as it goes."""
    price = raw["cost"][quality]
    if _whole_unit(option, raw, full):
        return 1, price * models
    most = raw.get("max") or 1
    return most, price * most


@pytest.mark.django_db
@pytest.mark.parametrize("nation", NATIONS)
def test_every_combination_of_options_costs_their_sum_or_is_refused(national, nation):
    """Each profile × quality × {base, full size} × every set of two or more of its priced options."""
    units = list(Unit.objects.filter(army__edition__slug="v2", army__slug=nation).prefetch_related("options"))
    entries = list(barracks_entries(nation))
    assert len(units) == len(entries)
    priced = refused = 0
    for unit, (section, raw_unit, profile, extra, others) in zip(units, entries, strict=True):
        spec = unit.to_rules()
        clashes = clashing_pairs(nation, section, raw_unit)
        paired = list(zip(unit.options.all(), others, strict=True))
        for quality, cost in profile["cost"].items():
            offered = [(o, raw) for o, raw in paired if quality in raw["cost"] and not _is_free_unit(raw)]
            for models in {unit.base_models, unit.max_models}:
                base = cost + (models - unit.base_models) * (extra["cost"][quality] if extra else 0)
                for size in range(2, len(offered) + 1):
                    for combo in combinations(offered, size):
                        chosen, expected = {}, base
                        for option, raw in combo:
                            count, points = _expected_option_points(option, raw, quality, models, unit.max_models)
                            chosen[option.slug] = count
                            expected += points
                        entry = EntrySpec(
                            key=unit.slug, name=unit.name, unit=spec, quality=quality, models=models, options=chosen
                        )
                        names = {" ".join(raw["name"].split()) for _, raw in combo}
                        if any(pair <= names for pair in clashes):
                            with pytest.raises(RulesError):
                                entry_points(entry)
                            refused += 1
                        else:
                            assert entry_points(entry) == expected, (unit.name, quality, models, sorted(names))
                            priced += 1
    assert priced > 0
    # France and Japan have no options that exclude each other; the other five do.
    assert (refused > 0) == (nation not in ("france", "imperial-japan")), refused


@pytest.mark.django_db
def test_a_sherman_takes_one_pintle_weapon_not_both(national):
    sherman = Unit.objects.get_by_natural_key("v2", "us", "m4a1-sherman-75mm")
    mmg = sherman.options.get(name="Pintle-mounted MMG")
    hmg = sherman.options.get(name="Pintle-mounted HMG")
    assert mmg.group and mmg.group == hmg.group
    assert (mmg.grants_weapon.slug, hmg.grants_weapon.slug) == ("mmg", "hmg")
    assert entry_points(_entry(sherman, "regular", 1, {mmg.slug: 1})) == 195 + 15
    assert entry_points(_entry(sherman, "regular", 1, {hmg.slug: 1})) == 195 + 25
    with pytest.raises(RulesError):
        entry_points(_entry(sherman, "regular", 1, {mmg.slug: 1, hmg.slug: 1}))
    # Its base armament carries neither, nor the howitzer Barracks lists among its weapon keys.
    assert [w.slug for w in sherman.weapons.all()] == ["medium-at-gun", "mmg"]


@pytest.mark.django_db
def test_a_half_track_is_one_variant_or_the_other(national):
    hanomag = Unit.objects.get_by_natural_key("v2", "germany", "sdkfz-251-hanomag-half-track")
    pak = hanomag.options.get(name="Forward facing light anti-tank gun (37mm PaK 36)")
    kwk = hanomag.options.get(name="Pintle-mounted light autocannon (KwK 38) with 360° arc of fire")
    rear = hanomag.options.get(name="Rear facing pintle-mounted MMG covering rear arc")
    assert (pak.grants_weapon.slug, kwk.grants_weapon.slug) == ("light-at-gun", "light-autocannon")
    with pytest.raises(RulesError):
        entry_points(_entry(hanomag, "regular", 1, {pak.slug: 1, kwk.slug: 1}))
    # The rear MMG is on its own mount: it goes with either.
    both = entry_points(_entry(hanomag, "regular", 1, {pak.slug: 1, rear.slug: 1}))
    assert both == hanomag.base_cost()["regular"] + 40 + 10


# --- what the points do not show, checked on the data --------------------------------------------


def barracks_free_unit_limits() -> dict[str, int]:
    """Nation -> how many units a list may have free, from the national rules granting them.

    "one free ... artillery unit", "1 regular artillery forward observer for free", "a free
    12-man squad": the snapshot keeps that number as the rule's ``free_units``, not its wording
    (barracks_snapshot.free_units reads it; test_barracks_snapshot.py shows it does).
    """
    limits: dict[str, set[int]] = {}
    for nation, army in json.loads((BARRACKS / "armies.json").read_text(encoding="utf-8")).items():
        if not isinstance(army, dict):
            continue
        for rule in army["rules"]:
            if "free_units" in rule:
                limits.setdefault(nation, set()).add(rule["free_units"])
    return {nation: min(counts) for nation, counts in limits.items()}


@pytest.mark.django_db
def test_barracks_free_unit_marks_the_unit_free_with_its_limit_per_list(national):
    limits = barracks_free_unit_limits()
    assert limits == {"france": 1, "great-britain": 1, "soviet-union": 1}
    free = {}
    for nation in NATIONS:
        units = Unit.objects.filter(army__edition__slug="v2", army__slug=nation).prefetch_related("options")
        for unit, (_section, _raw, _profile, _extra, others) in zip(units, barracks_entries(nation), strict=True):
            for option, raw in zip(unit.options.all(), others, strict=True):
                if _is_free_unit(raw):
                    assert (option.free_unit, option.free_per_list) == (True, limits[nation]), unit.name
                    # Free where Barracks makes it free, not offered at any other quality.
                    assert option.cost() == dict.fromkeys(raw["cost"], 0), unit.name
                    free.setdefault(nation, []).append(unit.name)
                else:
                    assert not option.free_unit and option.free_per_list is None, (unit.name, option.name)
    assert sorted(free) == sorted(limits)
    assert "Medium Artillery" in free["france"] and "Rifle Squad" in free["soviet-union"]


@pytest.mark.django_db
def test_a_further_soldier_a_spotter_or_a_loader_adds_a_model(national):
    added = 0
    for nation in NATIONS:
        units = Unit.objects.filter(army__edition__slug="v2", army__slug=nation).prefetch_related("options")
        for unit, (_section, _raw, _profile, _extra, others) in zip(units, barracks_entries(nation), strict=True):
            for option, raw in zip(unit.options.all(), others, strict=True):
                # The unit's first "Additional soldier" is its per-model price (max_models); a
                # second one ("Additional soldier (pistol only)") is an option that adds a man.
                man = re.match(r"\s*(additional soldier|spotter|loader)\b", raw["name"], re.IGNORECASE)
                assert option.adds_models == (1 if man else 0), (unit.name, option.name)
                added += option.adds_models
    assert added > 0
    section = Unit.objects.get_by_natural_key("v2", "france", "regular-infantry-section")
    pistol = section.options.get(name="Additional soldier (pistol only)")
    assert (section.base_models, section.max_models, pistol.adds_models, pistol.max_count) == (5, 11, 1, 1)


def _names_weapon(text: str, weapon: Weapon) -> bool:
    """The armament text names the chart weapon: its name, its abbreviation or its slug's words."""
    text = text.lower()
    abbreviation = re.search(r"\(([^)]+)\)", weapon.name)
    spellings = {re.sub(r"\s*\(.*?\)", "", weapon.name).lower(), weapon.slug.replace("-", " ")}
    if abbreviation:
        spellings.add(abbreviation.group(1).lower())
    return any(re.search(rf"\b{re.escape(spelling)}", text) for spelling in spellings)


@pytest.mark.django_db
def test_a_unit_s_own_armament_leaves_out_what_only_an_option_adds(national):
    checked = 0
    for nation in NATIONS:
        units = Unit.objects.filter(army__edition__slug="v2", army__slug=nation).prefetch_related(
            "options__grants_weapon", "weapons"
        )
        for unit, (section, raw_unit, *_rest) in zip(units, barracks_entries(nation), strict=True):
            described = (raw_unit.get("weapons") or {}).get("description") or ""
            own = {weapon.slug for weapon in unit.weapons.all()}
            if section == "vehicles":
                # A vehicle carries what its armament mounts, nothing when Barracks describes none.
                assert own == {line["weapon"] for line in unit.weapon_lines}, unit.name
                if not described:
                    assert (unit.weapons_text, unit.weapon_lines) == ("", []), unit.name
            for option in unit.options.all():
                weapon = option.grants_weapon
                if weapon is not None and weapon.slug in own:
                    # Only a weapon the unit's own text names stays its own beside the option.
                    assert _names_weapon(described, weapon) and "or none" not in described, (unit.name, option.name)
                checked += 1
    assert checked > 0
    for nation, slug in (("us", "jeep"), ("great-britain", "truck"), ("soviet-union", "gaz-jeep")):
        jeep = Unit.objects.get_by_natural_key("v2", nation, slug)
        assert (list(jeep.weapons.all()), jeep.weapons_text) == ([], ""), slug
        assert sorted(o.grants_weapon.slug for o in jeep.options.all()) == ["hmg", "mmg"]
    chaplain = Unit.objects.get_by_natural_key("v2", "germany", "chaplain")
    assert list(chaplain.weapons.all()) == [] and chaplain.options.get(name="Pistol").grants_weapon.slug == "pistol"


@pytest.mark.django_db
def test_sniper_teams_carry_the_2nd_edition_sniper_rifle(national):
    rifle = Weapon.objects.get(edition__slug="v2", slug="rifle")
    sniper_rifle = Weapon.objects.get(edition__slug="v2", slug="sniper-rifle")
    assert (rifle.range_max, sniper_rifle.range_max, sniper_rifle.range_min) == (24, 36, 12)
    assert "BS2" in sniper_rifle.source and "Barracks" in sniper_rifle.source
    teams = 0
    for nation in NATIONS:
        units = Unit.objects.filter(army__edition__slug="v2", army__slug=nation).prefetch_related("weapons")
        for unit, (_section, raw_unit, *_rest) in zip(units, barracks_entries(nation), strict=True):
            if "Sniper" in raw_unit.get("rules", []):
                slugs = {weapon.slug for weapon in unit.weapons.all()}
                assert "sniper-rifle" in slugs and "rifle" not in slugs, unit.name
                assert "Sniper rifle" in unit.weapons_text, unit.name
                teams += 1
    assert teams >= len(NATIONS)

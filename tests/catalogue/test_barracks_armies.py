"""The built-in 2nd-edition national armies generated from the Barracks data.

The committed fixture must be what the generator makes of the Barracks facts kept in the
repository (fixtures/src/barracks_data, written by barracks_snapshot.py from ../shared/data/barracks,
which a fresh clone does not have; the app itself never reads either). The points are checked
against those Barracks files read here directly, not through the generator or the parser: every
profile of every nation, at each quality it is offered at, at base and full size, and with each
option. Rule sentences are kept only as digests (``sentences.json``), enough to show that
Muster's summaries are not Barracks' sentences.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import pytest
from django.conf import settings
from django.core.management import call_command

from armybuilder.catalogue.models import Army, Unit
from armybuilder.reference.models import Edition, SpecialRule, Weapon
from rules.army.model import EntrySpec
from rules.army.points import entry_points

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


# --- the figures, read straight from the Barracks JSON ----------------------------------------------


def _is_extra_models(option: dict) -> bool:
    return re.match(r"\s*(additional soldier|attendant)", option["name"], re.IGNORECASE) is not None


def barracks_profiles(nation: str):
    """(profile name, profile costs, extra-model option or None, other options), in file order."""
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
                price = raw["cost"][quality]
                # Bought by the whole squad: listed up to the squad's size (or anti-tank grenades,
                # which some squads list a man or three short of their largest size).
                whole_unit = option.grants_weapon is None and (
                    (raw.get("max") is not None and raw["max"] >= full > 1) or raw["name"] == "Anti-tank grenades"
                )
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

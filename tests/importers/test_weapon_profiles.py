"""Weapon profiles from community files: typed values, or a refusal naming the part that cannot be read."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from armydata.weapon_profiles import ProfileRefused, parse_profile, parse_range, parse_shots, split_mount
from rules.combat.dice import dice_pmf
from rules.combat.weapons import Weapon


def test_a_flamethrower_written_one_shot_with_its_hits_in_brackets_is_one_shot():
    profile = parse_profile("Co-axial Flamethrower", '12"', "1(D6+1)", "+2", ["Flamethrower"])
    assert (profile.range_max, profile.shots, profile.hits, profile.pen) == (12, "1", "D6+1", 2)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ('36"', (None, 36, None, None)),
        ('12" - 72"', (12, 72, None, None)),
        ('72" (or 36-84)', (None, 72, 36, 84)),
        ('6-18"', (6, 18, None, None)),
    ],
)
def test_ranges_are_read_as_the_files_write_them(text, expected):
    assert parse_range(text) == expected


@pytest.mark.parametrize("text", ["-", "–", "n/a", "Close combat"])
def test_a_weapon_with_no_range_is_a_close_combat_weapon(text):
    profile = parse_profile("Demolition Charge", text, "1", "HE", ['HE (3")', "one-shot"])
    assert (profile.range_max, profile.range_min, profile.he_size, profile.shots) == (0, None, 3, "1")
    assert Weapon(name=profile.name, slug="demolition-charge", range_max=profile.range_max).bands == ()


@pytest.mark.parametrize(
    ("shots", "expected"),
    [("4", ("4", None)), ("D6+1", ("D6+1", None)), ("2 D6", ("2D6", None)), ("1 (D6 hits)", ("1", "D6"))],
)
def test_shots_are_dice_expressions_the_engine_reads(shots, expected):
    assert parse_shots(shots) == expected


@pytest.mark.parametrize(
    ("part", "values"),
    [
        ("range", ("", "1", "-", [])),
        ("range", ('999999999999"', "1", "-", [])),
        ("range", ('60"-12"', "1", "HE", [])),
        ("shots", ('24"', "", "-", [])),
        ("shots", ('24"', "D7+1", "-", [])),
        ("shots", ('24"', "1/2", "-", [])),
        ("shots", ('24"', "9" * 5000, "-", [])),
        ("shots", ('24"', "6D6", "-", [])),  # up to 36 shots: beyond what the engine takes
        ("penetration", ('24"', "1", "+99999", [])),
        ("penetration", ('24"', "1", "very", [])),
        ("special rules", ('24"', "1", "HE", ['HE (99")'])),
        ("name", ('24"', "1", "-", [])),
    ],
)
def test_what_cannot_be_read_is_refused_naming_the_part(part, values):
    name = "" if part == "name" else "Odd gun"
    with pytest.raises(ProfileRefused) as refused:
        parse_profile(name, *values)
    assert refused.value.part == part


def test_a_control_character_is_refused():
    with pytest.raises(ProfileRefused, match="control character"):
        parse_profile("Gun\x07", '24"', "1", "-", [])


@pytest.mark.parametrize(
    ("name", "weapon", "mount", "arc"),
    [
        ("Front Pintle-mounted LMG", "LMG", "pintle", "front"),
        ("Left Pintle-mounted LMG", "LMG", "pintle", "left"),
        ("Co-axial MMG", "MMG", "coaxial", ""),
        ("Co-axial Flamethrower", "Flamethrower", "coaxial", ""),
        ("Hull-mounted forward facing MMG", "MMG", "hull", "front"),
        ("MMG (360°)", "MMG", "", "360"),
    ],
)
def test_a_name_with_mount_words_is_the_weapon_on_that_mount(name, weapon, mount, arc):
    found = split_mount(name)
    assert found is not None
    assert (found.weapon, found.mount, found.arc) == (weapon, mount, arc)


@pytest.mark.parametrize("name", ["LMG", "Testgewehr 99", "Pintle-mounted", "Medium anti-tank gun"])
def test_a_name_without_mount_words_or_only_them_is_not_a_variant(name):
    assert split_mount(name) is None


@given(
    name=st.text(max_size=40),
    range_text=st.text(max_size=30),
    shots=st.text(max_size=15),
    pen=st.text(max_size=10),
    rules=st.lists(st.text(max_size=20), max_size=3),
)
def test_any_profile_either_parses_into_what_the_engine_accepts_or_is_refused(name, range_text, shots, pen, rules):
    try:
        profile = parse_profile(name, range_text, shots, pen, rules)
    except ProfileRefused as refused:
        assert refused.part in ("name", "range", "shots", "penetration", "special rules", "profile")
        return
    weapon = Weapon(
        name=profile.name,
        slug="x",
        range_max=profile.range_max,
        range_min=profile.range_min,
        shots=profile.shots,
        pen=profile.pen,
        he_size=profile.he_size,
    )
    assert weapon.bands is not None
    assert 0 <= min(dice_pmf(profile.shots)) <= max(dice_pmf(profile.shots)) <= 20
    assert profile.range_max <= 240 and profile.pen <= 12

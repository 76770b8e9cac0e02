"""A unit's weapons as carried: one line per mount, changed by the options taken."""

from __future__ import annotations

from armybuilder.catalogue.mounts import Change, carried_lines, mount_and_arc, mount_label

PANZER = [
    {"weapon": "heavy-at-gun", "mount": "turret", "count": 1, "arc": "360"},
    {"weapon": "mmg", "mount": "coaxial", "count": 1, "arc": "360"},
    {"weapon": "mmg", "mount": "hull", "count": 1, "arc": "front"},
]


def test_mounts_and_arcs_are_read_from_the_armament_words():
    assert mount_and_arc("1 forward facing hull-mounted MMG") == ("hull", "front")
    assert mount_and_arc("Pintle-mounted MMG with 360° arc of fire") == ("pintle", "360")
    assert mount_and_arc("1 turret-mounted rear-facing MMG") == ("turret", "rear")
    assert mount_label(PANZER[2]) == "hull, front"
    assert mount_label(PANZER[2], french=True) == "caisse, avant"
    assert mount_label({"weapon": "rifle", "mount": "", "count": 1, "arc": ""}) == ""


def test_the_side_arcs_and_sponsons_of_imported_data_are_named_in_french_too():
    left = {"weapon": "lmg", "mount": "pintle", "count": 1, "arc": "left"}
    assert (mount_label(left), mount_label(left, french=True)) == ("pintle, left", "affût pivot, gauche")
    right = {"weapon": "mmg", "mount": "sponson", "count": 1, "arc": "right"}
    assert mount_label(right, french=True) == "sponson, droite"


def test_a_vehicle_keeps_one_line_per_mount():
    assert carried_lines(PANZER, ["heavy-at-gun", "mmg"], [], 1) == PANZER


def test_a_pintle_mount_taken_adds_its_own_line():
    lines = carried_lines(PANZER, [], [Change("Pintle-mounted MMG with 360° arc", "mmg", None, 1)], 1)
    assert lines[-1] == {"weapon": "mmg", "mount": "pintle", "count": 1, "arc": "360"}


def test_a_replaced_vehicle_weapon_leaves_the_mount_the_option_names():
    change = Change("Replace hull-mounted MMG with flamethrower", "vehicle-flamethrower", "mmg", 1)
    lines = carried_lines(PANZER, [], [change], 1)
    assert [(line["weapon"], line["mount"]) for line in lines] == [
        ("heavy-at-gun", "turret"),
        ("mmg", "coaxial"),
        ("vehicle-flamethrower", "hull"),
    ]


def test_replace_mmg_with_two_mmgs_is_two_mmg_lines():
    lines = carried_lines(
        [{"weapon": "mmg", "mount": "turret", "count": 1, "arc": "360"}],
        [],
        [Change("Replace MMG with 2 MMGs", "mmg", "mmg", 1)],
        1,
    )
    assert sum(line["count"] for line in lines if line["weapon"] == "mmg") == 2


def test_a_weapon_swapped_on_every_model_leaves_the_roster():
    smg_for_both = Change("SMG instead of rifle", "smg", "rifle", 2)
    assert [line["weapon"] for line in carried_lines([], ["rifle"], [smg_for_both], 2)] == ["smg"]


def test_a_partial_swap_keeps_the_others_weapon():
    nco = Change("NCO: SMG instead of rifle", "smg", "rifle", 1)
    assert [line["weapon"] for line in carried_lines([], ["rifle", "lmg"], [nco], 10)] == ["rifle", "lmg", "smg"]

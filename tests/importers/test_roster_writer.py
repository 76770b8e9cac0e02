"""The roster writer on plain data (no Django): what it writes, Muster's roster reader reads back."""

from __future__ import annotations

import io
import zipfile

from armydata.roster_file import parse_roster
from armydata.roster_writer import ForceTaken, OptionTaken, RosterData, UnitTaken, counter_ids, roster_xml, roster_zip

DATA = RosterData(
    name="Kampfgruppe Ost",
    game_system_id="sys-1",
    game_system_name="Bolt Action 2nd Edition",
    game_system_revision="12",
    catalogue_id="cat-1",
    catalogue_name="Germany",
    catalogue_revision="7",
    points_type_id="pts-1",
    points=146,
    points_limit=1000,
    forces=(
        ForceTaken(
            entry_id="force-1",
            name="Reinforced Platoon",
            units=(
                UnitTaken(
                    source_id="link-9::unit-1",
                    name="Grenadier Squad",
                    quality="Veteran",
                    quality_key="veteran",
                    models=6,
                    model_name="Grenadier",
                    points=104,
                    options=(OptionTaken(source_id="opt-lmg", name="LMG", number=1),),
                ),
                UnitTaken(
                    source_id="unit-2",
                    name="Lieutenant",
                    quality="Regular",
                    quality_key="regular",
                    models=0,
                    model_name="Lieutenant",
                    points=42,
                ),
            ),
        ),
    ),
)


def test_the_rosz_holds_one_roster_that_the_reader_reads_back():
    rosz = roster_zip(DATA, "kampfgruppe.ros", counter_ids())
    with zipfile.ZipFile(io.BytesIO(rosz)) as archive:
        assert archive.namelist() == ["kampfgruppe.ros"]
    roster = parse_roster("kampfgruppe.rosz", rosz)
    assert (roster.name, roster.game_system_id, roster.points, roster.points_limit) == (
        "Kampfgruppe Ost",
        "sys-1",
        146,
        1000,
    )
    (force,) = roster.forces
    assert (force.entry_id, force.catalogue_id, force.catalogue_name) == ("force-1", "cat-1", "Germany")
    squad, officer = force.selections
    assert (squad.entry_ids, squad.type, squad.points) == (("link-9", "unit-1"), "unit", 104)
    assert [(c.name, c.entry_ids, c.number, c.type) for c in squad.children] == [
        ("Veteran", ("muster-quality-veteran",), 1, "upgrade"),
        ("Grenadier", ("muster-model-unit-1",), 6, "model"),
        ("LMG", ("opt-lmg",), 1, "upgrade"),
    ]
    # No men beyond those the unit implies: no model selection at all.
    assert [c.type for c in officer.children] == ["upgrade"]


def test_counter_ids_make_the_same_roster_twice_and_random_ids_differ():
    assert roster_xml(DATA, counter_ids()) == roster_xml(DATA, counter_ids())
    assert roster_xml(DATA) != roster_xml(DATA)

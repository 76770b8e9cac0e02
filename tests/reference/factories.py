"""Small builders for rules-reference data: each test makes only the rows it reads."""

from __future__ import annotations

from itertools import count

from armybuilder.reference.models import Edition, RulesRow, RulesTable, SpecialRule, Weapon

_numbers = count(1)

DEFAULT_COLUMNS = [
    {"key": "name", "en": "Name", "fr": "Nom"},
    {"key": "value", "en": "Value", "fr": "Valeur"},
]


def make_edition(**kwargs) -> Edition:
    number = kwargs.pop("number", None) or next(_numbers) + 100
    kwargs.setdefault("slug", f"v{number}")
    kwargs.setdefault("name", f"Edition {number}")
    kwargs.setdefault("name_fr", f"Édition {number}")
    return Edition.objects.create(number=number, **kwargs)


def make_table(edition: Edition, **kwargs) -> RulesTable:
    n = next(_numbers)
    kwargs.setdefault("slug", f"table-{n}")
    kwargs.setdefault("topic", "orders")
    kwargs.setdefault("title", f"Table {n}")
    kwargs.setdefault("columns", DEFAULT_COLUMNS)
    kwargs.setdefault("source", "seed 002")
    return RulesTable.objects.create(edition=edition, **kwargs)


def make_row(table: RulesTable, cells: dict, **kwargs) -> RulesRow:
    kwargs.setdefault("position", table.rows.count() + 1)
    kwargs.setdefault("source", "seed 002")
    return RulesRow.objects.create(table=table, cells=cells, **kwargs)


def make_special_rule(edition: Edition, **kwargs) -> SpecialRule:
    n = next(_numbers)
    kwargs.setdefault("name", f"Rule {n}")
    kwargs.setdefault("slug", kwargs["name"].lower().replace(" ", "-"))
    kwargs.setdefault("source", "seed 002")
    return SpecialRule.objects.create(edition=edition, **kwargs)


def make_weapon(edition: Edition, special_rules: tuple[SpecialRule, ...] = (), **kwargs) -> Weapon:
    n = next(_numbers)
    kwargs.setdefault("name", f"Weapon {n}")
    kwargs.setdefault("slug", kwargs["name"].lower().replace(" ", "-"))
    kwargs.setdefault("category", "small-arms")
    kwargs.setdefault("range_max", 24)
    kwargs.setdefault("shots", "1")
    kwargs.setdefault("source", "seed 002")
    weapon = Weapon.objects.create(edition=edition, **kwargs)
    if special_rules:
        weapon.special_rules.set(special_rules)
    return weapon


def make_two_editions() -> dict:
    """A 2nd and a 3rd edition that differ the way the real ones do, in miniature.

    MMG shots 5 → 6 and HMG 36"/3 → 48"/6; the 3rd edition adds a weapon and a vehicles page,
    the 2nd has a weapon the 3rd dropped; the orders tables differ in one cell and one row.
    """
    v2 = make_edition(slug="v2", number=2, name="2nd edition", name_fr="2e édition")
    v3 = make_edition(slug="v3", number=3, name="3rd edition", name_fr="3e édition")
    columns = [
        {"key": "order", "en": "Order", "fr": "Ordre"},
        {"key": "summary", "en": "Summary", "fr": "Résumé"},
    ]
    orders = {}
    for edition, run in ((v2, "Move at double rate, no shooting"), (v3, "Move at double rate, may not shoot")):
        table = make_table(edition, slug="orders", topic="orders", title="Orders", title_fr="Ordres", columns=columns)
        make_row(table, {"order": "Fire", "summary": "Shoot at full effect"}, cells_fr={"order": "Feu"})
        make_row(table, {"order": "Run", "summary": run}, cells_fr={"order": "Course"})
        orders[edition.slug] = table
    make_row(orders["v3"], {"order": "Rally", "summary": "Remove D6 pins"}, status="unverified", note="Wording differs")
    vehicles = make_table(v3, slug="vehicle-damage", topic="vehicles", title="Vehicle damage", status="disputed")
    make_row(vehicles, {"name": "Immobilised", "value": "4"})

    weapons = {}
    for edition in (v2, v3):
        team = make_special_rule(edition, name="Team", slug="team", name_fr="Équipe")
        fixed = make_special_rule(edition, name="Fixed", slug="fixed", name_fr="Fixe")
        weapons[edition.slug] = {
            "rifle": make_weapon(edition, name="Rifle", slug="rifle", name_fr="Fusil", range_max=24, shots="1"),
            "mmg": make_weapon(
                edition, (team, fixed), name="MMG", slug="mmg", category="heavy", range_max=36, shots="5", pen=0
            ),
            "hmg": make_weapon(
                edition,
                (team, fixed),
                name="HMG",
                slug="hmg",
                category="heavy",
                range_max=36,
                shots="3",
                pen=1,
            ),
            "mortar": make_weapon(
                edition,
                (team,),
                name="Light mortar",
                slug="light-mortar",
                category="heavy",
                range_max=24,
                range_min=6,
                shots="1",
                he_size=1,
            ),
        }
    v3_weapons = weapons["v3"]
    Weapon.objects.filter(pk=v3_weapons["mmg"].pk).update(shots="6")
    Weapon.objects.filter(pk=v3_weapons["hmg"].pk).update(range_max=48, shots="6")
    v3_weapons["mmg"].refresh_from_db()
    v3_weapons["hmg"].refresh_from_db()
    weapons["v2"]["boys"] = make_weapon(
        v2, name="Boys anti-tank rifle", slug="boys-rifle", category="heavy", range_max=36, pen=2, status="disputed"
    )
    weapons["v3"]["assault-rifle"] = make_weapon(
        v3, name="Assault rifle", slug="assault-rifle", range_max=18, shots="2"
    )
    return {"v2": v2, "v3": v3, "orders": orders, "vehicles": vehicles, "weapons": weapons}

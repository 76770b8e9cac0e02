"""A small 3rd-edition world for the playsheet tests: a few tables, weapons, units and one list.

Every name has a French form, so each test can look for the language it asked for.
"""

from __future__ import annotations

from django.utils import timezone

from armybuilder.lists.models import ArmyList
from armybuilder.reference.models import Edition
from tests.conftest import log_in
from tests.lists import factories as list_factories
from tests.lists.factories import make_army, make_entry, make_list, make_officer, make_option, make_platoon, make_unit
from tests.reference.factories import make_row, make_special_rule, make_table, make_weapon


def make_rules_edition(slug: str = "v3") -> Edition:
    """An edition with orders, hit modifiers, damage values and a weapons chart."""
    edition = Edition.objects.create(
        slug=slug, number=int(slug[1:]), name="3rd edition", name_fr="3e édition", source="test"
    )
    orders = make_table(
        edition,
        slug="orders",
        topic="orders",
        title="Orders",
        title_fr="Ordres",
        columns=[
            {"key": "number", "en": "Die", "fr": "Dé"},
            {"key": "order", "en": "Order", "fr": "Ordre"},
            {"key": "summary", "en": "Summary", "fr": "Résumé"},
        ],
    )
    make_row(orders, {"number": 1, "order": "Fire", "summary": "Shoot at full effect"}, cells_fr={"order": "Feu"})
    make_row(orders, {"number": 3, "order": "Run", "summary": "Double speed"}, cells_fr={"order": "Course"})
    hits = make_table(
        edition,
        slug="hit-modifiers",
        topic="shooting",
        title="Hit modifiers",
        title_fr="Modificateurs pour toucher",
        columns=[
            {"key": "modifier", "en": "Situation", "fr": "Situation"},
            {"key": "value", "en": "To-hit modifier", "fr": "Modificateur"},
        ],
    )
    make_row(hits, {"modifier": "Point-blank range", "value": 2}, cells_fr={"modifier": "Bout portant"})
    make_row(hits, {"modifier": "Firer is pinned", "value": -1}, cells_fr={"modifier": "Tireur sous PIN"})
    damage = make_table(
        edition,
        slug="damage-values",
        topic="damage",
        title="Damage values",
        title_fr="Valeurs de dégâts",
        columns=[
            {"key": "target", "en": "Target", "fr": "Cible"},
            {"key": "damage_value", "en": "Damage value", "fr": "Valeur de dégâts"},
        ],
    )
    make_row(damage, {"target": "Regular infantry", "damage_value": 4}, cells_fr={"target": "Infanterie régulière"})
    make_row(damage, {"target": "Medium tank", "damage_value": 9}, cells_fr={"target": "Char moyen"})
    vehicles = make_table(
        edition,
        slug="vehicle-damage",
        topic="vehicles",
        title="Vehicle damage",
        title_fr="Dégâts des véhicules",
        status="disputed",
    )
    make_row(vehicles, {"name": "Immobilised", "value": "Roll 5"}, cells_fr={"name": "Immobilisé", "value": "Jet 5"})

    team = make_special_rule(edition, name="Team", slug="team", name_fr="Équipe", summary="Needs two crew.")
    assault = make_special_rule(
        edition, name="Assault", slug="assault", name_fr="Assaut", summary="No penalty for firing on the move."
    )
    make_weapon(edition, name="Rifle", slug="rifle", name_fr="Fusil", range_max=24, shots="1")
    make_weapon(
        edition, (assault,), name="Submachine gun", slug="smg", name_fr="Pistolet mitrailleur", range_max=12, shots="2"
    )
    make_weapon(
        edition, (team,), name="Medium anti-tank gun", slug="medium-at-gun", name_fr="Canon antichar moyen",
        category="heavy", range_max=60, shots="1", pen=5, he_size=1,
    )  # fmt: skip
    return edition


def make_playsheet_list(owner=None, *, squads: int = 2, edition: Edition | None = None, **kwargs) -> ArmyList:
    """A list with an officer, ``squads`` rifle squads (one with SMGs) and a tank, in one platoon."""
    edition = edition or Edition.objects.filter(slug="v3").first() or make_rules_edition()
    weapons = {weapon.slug: weapon for weapon in edition.weapons.all()}
    rules = {rule.slug: rule for rule in edition.special_rules.all()}
    army = make_army(edition=edition, name="Finland", name_fr="Finlande")
    kwargs.setdefault("name", "Sisu Company")
    kwargs.setdefault("points_limit", 1000)
    army_list = make_list(owner, army, **kwargs)
    platoon = make_platoon(army_list, kind="rifle_platoon", name="First Platoon")

    officer = make_officer(army, name="Platoon Commander", name_fr="Chef de section", officer_rank="platoon_commander")
    officer.weapons.set([weapons["rifle"]])
    squad = make_unit(army, name="Rifle Squad", name_fr="Escouade de fusiliers", weapons_text="Rifles")
    squad.weapons.set([weapons["rifle"]])
    make_option(
        squad, slug="smg", name="SMG for the NCO", name_fr="PM pour le sous-officier", grants_weapon=weapons["smg"]
    )
    tank = make_unit(
        army, name="Medium Tank", name_fr="Char moyen", unit_type="vehicle_armoured", slot="tank", damage_value=9,
        base_models=1, max_models=1, cost_inexperienced=None, cost_regular=195, cost_veteran=None,
        per_model_inexperienced=None, per_model_regular=None, per_model_veteran=None,
    )  # fmt: skip
    tank.weapons.set([weapons["medium-at-gun"]])
    tank.special_rules.set([rules["team"]])

    make_entry(army_list, officer, platoon=platoon, quality="veteran", models_count=1, position=0)
    for position in range(squads):
        make_entry(
            army_list,
            squad,
            platoon=platoon,
            position=position + 1,
            models_count=10,
            options={"smg": 1} if position == 0 else {},
        )
    make_entry(army_list, tank, platoon=platoon, position=squads + 1)
    return army_list


def trash(army_list: ArmyList) -> None:
    army_list.deleted_at = timezone.now()
    army_list.save(update_fields=["deleted_at"])


def alice_with_a_list(context, live_server) -> ArmyList:
    """The start of the browser tests that open a list's pages: Alice, logged in to ``context``,
    owning a list of the rules edition (``army_list.owner`` is Alice)."""
    alice = list_factories.make_user("alice")
    make_rules_edition()
    army_list = make_playsheet_list(alice)
    log_in(context, live_server, alice)
    return army_list

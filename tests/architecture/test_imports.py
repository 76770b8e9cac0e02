"""No import circles in the app packages, and no app importing one above it.

A circle means neither module can be read, tested or moved without the other; a climb means a
lower room (the catalogue) knows about a higher one (the lists built from it). Each failure names
the modules, so the fix is to move the piece to the room it serves.
"""

from __future__ import annotations

from tests.architecture.imports import circles, import_graph

# Lower rooms first: an app may import from its own room and the rooms before it, never after.
LAYERS = (
    ("rules", "armydata"),
    (
        "armybuilder.security",
        "armybuilder.http",
        "armybuilder.stamps",
        "armybuilder.jobs",
        "armybuilder.worker",
        "armybuilder.localised",
        "armybuilder.js_cases",
    ),
    ("armybuilder.reference",),
    ("armybuilder.catalogue",),
    ("armybuilder.lists",),
    ("armybuilder.importers",),
    ("armybuilder.resolver",),
    ("armybuilder.playsheets",),
    ("armybuilder.games",),
    ("armybuilder.events",),
    ("armybuilder.leagues",),
    ("armybuilder.accounts", "armybuilder.site", "armybuilder.urls", "armybuilder.settings", "armybuilder.wsgi"),
)


def _layer(module: str) -> int | None:
    for index, rooms in enumerate(LAYERS):
        if any(module == room or module.startswith(room + ".") for room in rooms):
            return index
    return None


def test_no_import_circles():
    assert circles(import_graph()) == []


def test_the_graph_sees_the_imports():
    # The walker itself: a module known to import another shows the edge (or the tests above prove nothing).
    graph = import_graph()
    assert graph.has_edge("armybuilder.lists.views", "armybuilder.lists.exchange")
    assert graph.has_edge("rules.combat.api", "rules.combat.shooting") or graph.out_degree("rules.combat.api") > 3


def test_every_module_has_a_room():
    # A new app must be placed in LAYERS, or the climbs test would pass it by without a look.
    unplaced = [module for module in import_graph() if module != "armybuilder" and _layer(module) is None]
    assert unplaced == []


def test_no_app_imports_a_room_above_it():
    climbs = []
    for source, target in import_graph().edges:
        low, high = _layer(source), _layer(target)
        if low is not None and high is not None and high > low:
            climbs.append(f"{source} -> {target}")
    assert sorted(climbs) == []


def test_the_rules_and_parsers_know_nothing_of_django_apps():
    graph = import_graph()
    for module in graph:
        if module.startswith(("rules", "armydata")):
            assert not any(target.startswith("armybuilder") for target in graph.successors(module)), module

"""Lists of an army imported from BattleScribe data exported as a roster (.rosz), and read back.

The round trip: a list made from the small nr3 test catalogue is exported through the view and
imported again through Muster's own roster import; both lists must hold the same units,
qualities, models, options, platoons and points.
"""

from __future__ import annotations

import io
import zipfile
from xml.etree.ElementTree import fromstring

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile

from armybuilder.catalogue.models import Army, Origin, Unit
from armybuilder.importers.roster_import import import_roster
from armybuilder.importers.writer import import_files
from armybuilder.lists.models import ArmyList
from armybuilder.lists.summary import list_summary
from armydata.roster_writer import NAMESPACE
from tests.importers.test_nr3 import NR3, read_nr3
from tests.importers.test_roster import entries
from tests.importers.test_writer import make_chart

pytestmark = pytest.mark.django_db

ROS = (NR3 / "nr3_roster.ros").read_bytes()


@pytest.fixture
def catalogue():
    make_chart("v3")
    import_files(read_nr3())


@pytest.fixture
def player(client):
    user = get_user_model().objects.create_user("roster-player", password="pw-roster-123")
    client.force_login(user)
    return user


def made_list(owner) -> ArmyList:
    """A list of the imported army with qualities, added models, an option and two platoons."""
    army_list = import_roster("Testland Company.ros", ROS, owner=owner).army_list
    return ArmyList.objects.for_builder().get(pk=army_list.pk)


def members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        return {name: archive.read(name) for name in archive.namelist()}


def test_the_exported_roster_imports_back_to_the_same_list(client, catalogue, player):
    original = made_list(player)
    response = client.get(f"/lists/{original.pk}/export.rosz")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/zip"
    assert response["Content-Disposition"] == 'attachment; filename="testland-company.rosz"'
    assert list(members(response.content)) == ["testland-company.ros"]

    upload = SimpleUploadedFile("testland-company.rosz", response.content, content_type="application/zip")
    before = set(ArmyList.objects.values_list("pk", flat=True))
    page = client.post("/lists/import/roster/", {"file": upload}, follow=True)
    assert page.status_code == 200
    (new_pk,) = set(ArmyList.objects.values_list("pk", flat=True)) - before
    back = ArmyList.objects.for_builder().get(pk=new_pk)

    assert entries(back) == entries(original)
    assert [(p.kind, p.name) for p in back.platoons.all()] == [(p.kind, p.name) for p in original.platoons.all()]
    assert (back.name, back.army_id, back.points_limit) == (original.name, original.army_id, original.points_limit)
    assert list_summary(back).points == list_summary(original).points == 432


# -- The roster's shape ------------------------------------------------------------------------

# What the BattleScribe roster schema (rosterSchema, not available offline) requires of the
# elements Muster writes: their attributes, and the children they hold in this order.
REQUIRED_ATTRIBUTES = {
    "roster": {"id", "name", "battleScribeVersion", "gameSystemId", "gameSystemName", "gameSystemRevision"},
    "force": {"id", "name", "entryId", "catalogueId", "catalogueRevision", "catalogueName"},
    "selection": {"id", "name", "entryId", "number", "type"},
    "cost": {"name", "typeId", "value"},
    "costLimit": {"name", "typeId", "value"},
}
CHILDREN = {
    "roster": ["costs", "costLimits", "forces"],
    "costs": ["cost"],
    "costLimits": ["costLimit"],
    "forces": ["force"],
    "force": ["selections"],
    "selections": ["selection"],
    "selection": ["selections", "costs"],
}


def _local(tag: str) -> str:
    assert tag.startswith(f"{{{NAMESPACE}}}"), f"<{tag}> is outside the roster namespace"
    return tag.split("}", 1)[1]


def check_shape(element) -> list[str]:
    """Every element in the roster namespace, named as the schema names it, with its required
    attributes and only the children the schema allows there (a structural check: the XSD itself
    is not available offline)."""
    problems = []
    name = _local(element.tag)
    missing = REQUIRED_ATTRIBUTES.get(name, set()) - set(element.attrib)
    if missing:
        problems.append(f"<{name}> lacks {sorted(missing)}")
    children = [_local(child.tag) for child in element]
    allowed = CHILDREN.get(name, [])
    if any(child not in allowed for child in children):
        problems.append(f"<{name}> holds {children}, allowed {allowed}")
    elif children != sorted(children, key=allowed.index):
        problems.append(f"<{name}> holds {children} out of the schema's order {allowed}")
    if name == "selection" and element.get("type") not in {"unit", "model", "upgrade"}:
        problems.append(f"<selection> of type {element.get('type')!r}")
    for number in ("number",):
        if number in element.attrib and not element.get(number).isdigit():
            problems.append(f"<{name}> {number}={element.get(number)!r}")
    if name in {"cost", "costLimit"}:
        float(element.get("value"))
    for child in element:
        problems.extend(check_shape(child))
    return problems


def test_the_roster_has_the_schemas_elements_attributes_and_namespace(client, catalogue, player):
    original = made_list(player)
    (xml,) = members(client.get(f"/lists/{original.pk}/export.rosz").content).values()
    assert xml.startswith(b'<?xml version="1.0" encoding="UTF-8"')
    root = fromstring(xml)
    assert root.tag == f"{{{NAMESPACE}}}roster"
    assert check_shape(root) == []
    assert (root.get("gameSystemId"), root.get("gameSystemRevision"), root.get("battleScribeVersion")) == (
        "nr3-sys",
        "4",
        "2.03",
    )
    ns = {"r": NAMESPACE}
    forces = root.findall("r:forces/r:force", ns)
    assert [(f.get("entryId"), f.get("catalogueId"), f.get("catalogueRevision")) for f in forces] == [
        ("fe-rifle", "nr3-testland", "2"),
        ("fe-hw", "nr3-testland", "2"),
    ]
    total = root.find("r:costs/r:cost", ns)
    assert (total.get("typeId"), total.get("value")) == ("nr3-pts", "432.0")
    units = root.findall("r:forces/r:force/r:selections/r:selection", ns)
    assert sum(float(u.find("r:costs/r:cost", ns).get("value")) for u in units) == 432
    squad = units[1]
    assert (squad.get("entryId"), squad.get("type")) == ("u-rifle", "unit")
    grenades = Unit.objects.get(name="Rifle Squad").options.get()
    taken = [(s.get("name"), s.get("entryId"), s.get("number"), s.get("type")) for s in squad.find("r:selections", ns)]
    assert taken == [
        ("Regular", "muster-quality-regular", "1", "upgrade"),
        ("Rifle Squad", "muster-model-u-rifle", "8", "model"),
        (grenades.name, grenades.source_id, "1", "upgrade"),
    ]
    # Every id is unique, as the tools expect.
    ids = [e.get("id") for e in root.iter() if e.get("id")]
    assert len(ids) == len(set(ids))


# -- Refusals and access -----------------------------------------------------------------------


def _messages(page) -> list[str]:
    return [str(m) for m in page.context["messages"]]


def test_a_list_of_a_built_in_army_is_refused_on_its_page(client, player):
    from tests.lists.factories import make_army, make_entry, make_list

    army_list = make_list(owner=player, army=make_army(name="Germany"), name="Built in")
    make_entry(army_list)
    page = client.get(f"/lists/{army_list.pk}/export.rosz", follow=True)
    assert page.status_code == 200
    assert page.redirect_chain == [(f"/lists/{army_list.pk}/", 302)]
    (message,) = _messages(page)
    assert "imported from a BattleScribe catalogue" in message and "Germany" in message
    assert "BattleScribe import" not in message and "Built in" in message


def test_a_list_holding_a_players_own_unit_is_refused(client, catalogue, player):
    from tests.lists.factories import make_entry

    army_list = made_list(player)
    own = Unit.objects.get(name="Commissar")
    own.pk, own.slug, own.owner, own.source_id, own.name = None, "my-commissar", player, "", "My Commissar"
    own.save()
    make_entry(army_list, own, quality="veteran")
    page = client.get(f"/lists/{army_list.pk}/export.rosz", follow=True)
    assert page.redirect_chain == [(f"/lists/{army_list.pk}/", 302)]
    (message,) = _messages(page)
    assert "holds “My Commissar”, a unit from a player's own book" in message


def test_an_army_imported_before_the_roster_ids_were_kept_asks_for_a_new_import(client, catalogue, player):
    army_list = made_list(player)
    Army.objects.filter(origin=Origin.BATTLESCRIBE).update(roster_header={})
    page = client.get(f"/lists/{army_list.pk}/export.rosz", follow=True)
    (message,) = _messages(page)
    assert "import its catalogue again" in message


def test_the_refusal_is_in_french(client, catalogue, player):
    from tests.lists.factories import make_army, make_list

    army_list = make_list(owner=player, army=make_army(name="Germany"))
    page = client.get(f"/lists/{army_list.pk}/export.rosz", follow=True, headers={"accept-language": "fr"})
    (message,) = _messages(page)
    assert "importée d’un catalogue BattleScribe" in message and "Intégré" in message


def test_another_player_cannot_export_a_private_list(client, catalogue, player):
    army_list = made_list(player)
    other = get_user_model().objects.create_user("someone-else", password="pw-other-123")
    client.force_login(other)
    assert client.get(f"/lists/{army_list.pk}/export.rosz").status_code == 404
    client.logout()
    assert client.get(f"/lists/{army_list.pk}/export.rosz").status_code == 404


def test_the_shared_page_exports_the_roster_and_links_to_it(client, catalogue, player):
    army_list = made_list(player)
    client.logout()
    token = army_list.share_token
    page = client.get(f"/s/{token}/")
    assert f'href="/s/{token}/export.rosz"' in page.text
    response = client.get(f"/s/{token}/export.rosz")
    assert response.status_code == 200 and response["X-Robots-Tag"] == "noindex"
    (xml,) = members(response.content).values()
    assert fromstring(xml).get("name") == "Testland Company"


def test_the_builders_share_menu_links_to_the_roster(client, catalogue, player):
    army_list = made_list(player)
    page = client.get(f"/lists/{army_list.pk}/")
    assert 'id="share-roster"' in page.text and f'href="/lists/{army_list.pk}/export.rosz"' in page.text


def test_the_shared_refusal_returns_to_the_shared_page(client, player):
    from tests.lists.factories import make_army, make_list

    army_list = make_list(owner=player, army=make_army(name="Germany"))
    client.logout()
    page = client.get(f"/s/{army_list.share_token}/export.rosz", follow=True)
    assert page.redirect_chain == [(f"/s/{army_list.share_token}/", 302)]
    (message,) = _messages(page)
    assert "BattleScribe catalogue" in message


def test_units_outside_platoons_come_back_outside_platoons(client, catalogue, player):
    original = made_list(player)
    original.entries.update(platoon=None)
    original.platoons.all().delete()
    ArmyList.objects.filter(pk=original.pk).update(force_org="none")
    original = ArmyList.objects.for_builder().get(pk=original.pk)
    rosz = client.get(f"/lists/{original.pk}/export.rosz").content
    back = import_roster("back.rosz", rosz, owner=player).army_list
    back = ArmyList.objects.for_builder().get(pk=back.pk)
    assert entries(back) == entries(original) and all(row[4] is None for row in entries(back))
    assert (back.force_org, list_summary(back).points) == ("none", list_summary(original).points)


@pytest.mark.parametrize("origin", [Origin.BARRACKS, Origin.MODULE])
def test_lists_of_barracks_and_module_armies_are_refused(client, player, origin):
    from tests.lists.factories import make_army, make_list

    army_list = make_list(owner=player, army=make_army(name="Imported elsewhere", origin=origin, source_id="x"))
    page = client.get(f"/lists/{army_list.pk}/export.rosz", follow=True)
    (message,) = _messages(page)
    assert "imported from a BattleScribe catalogue" in message and str(Origin(origin).label) in message


def test_importing_the_catalogue_again_fills_what_an_older_import_lacked(catalogue):
    Army.objects.filter(origin=Origin.BATTLESCRIBE).update(roster_header={})
    import_files(read_nr3())
    assert Army.objects.get(origin=Origin.BATTLESCRIBE).roster_header == {
        "game_system_id": "nr3-sys",
        "game_system_name": "Bolt Action: Third Edition (Muster test)",
        "game_system_revision": "4",
        "catalogue_revision": "2",
        "points_type_id": "nr3-pts",
    }

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

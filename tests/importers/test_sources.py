"""The known public sources on the staff import page: listed with their facts, imported in one step, re-imported.

Every download is served by the loopback archive server (``test_github.archive_server``) from
small test files of Muster's own, under the real repositories' names; no test touches GitHub.
"""

from __future__ import annotations

import io
import zipfile
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.utils import timezone

from armybuilder.catalogue.models import Army, Unit
from armybuilder.importers.models import ImportJob
from armydata.sources import KNOWN_SOURCES, known_source
from tests.importers.helpers import BARRACKS
from tests.importers.test_github import archive_server  # noqa: F401 (fixture)
from tests.importers.test_nr3 import NR3
from tests.importers.test_writer import make_chart

pytestmark = pytest.mark.django_db

HTMX = {"HX-Request": "true"}
SOVIET = known_source("jelle-kuipers-nrdata")
SOVIET_ARCHIVE = "/Jelle-Kuipers/Bolt-Action-Third-Edition-NRData/zip/HEAD"
COMMIT = "3f1c2a9e8b7d6c5f4e3d2c1b0a9f8e7d6c5b4a39"


def github_zip(members: dict[str, bytes], *, top: str = "repo-main", commit: str = "") -> bytes:
    """A zip laid out like GitHub's (one top folder), with the commit id as its comment as GitHub writes it."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(f"{top}/README.md", b"# community data\n")
        for name, data in members.items():
            archive.writestr(f"{top}/{name}", data)
        archive.comment = commit.encode()
    return buffer.getvalue()


def nr3_zip(commit: str = COMMIT) -> bytes:
    return github_zip({path.name: path.read_bytes() for path in sorted(NR3.iterdir())}, commit=commit)


def make_user(username: str, **kwargs):
    return get_user_model().objects.create_user(username=username, password=None, **kwargs)


@pytest.fixture
def staff_client():
    make_chart("v3")
    client = Client()
    client.force_login(make_user("quartermaster", is_staff=True))
    return client


def source_card(page: str, key: str) -> str:
    start = page.index(f'id="source-{key}"')
    return page[start : page.index("</li>", start)]


def test_staff_see_every_known_source_with_its_facts(staff_client):
    page = staff_client.get("/catalogue/import/").content.decode()
    for source in KNOWN_SOURCES:
        card = source_card(page, source.key)
        assert f'href="https://github.com/{source.repository}"' in card
        assert source.author in card and "Never imported here" in card
        assert f'name="github" value="{source.repository}"' in card and "Import this source" in card
    assert "Muster ships none of these files: none carries a licence that allows it." in page
    soviet = source_card(page, "jelle-kuipers-nrdata")
    assert "Jelle Kuipers" in soviet and "NewRecruit" in soviet and "3rd edition" in soviet
    assert "Soviet Union" in soviet and "No licence stated: import for your own use; Muster cannot ship it" in soviet
    barracks = source_card(page, "barracks")
    assert "MIT licence for the app" in barracks and "2nd edition" in barracks
    module = source_card(page, "phyrexianqueen-ttamba")
    assert "PhyrexianQueen/BoltAction3D-WWII" in module and "JSON module" in module and "Sweden" in module


def test_the_list_is_data_with_where_each_fact_was_read():
    keys = [source.key for source in KNOWN_SOURCES]
    assert len(keys) == len(set(keys)) == 5
    assert {source.repository for source in KNOWN_SOURCES} >= {
        "BSData/boltaction",
        "Jelle-Kuipers/Bolt-Action-Third-Edition-NRData",
        "Jasseji/bolt-action-3e-data",
        "PhyrexianQueen/BoltAction3D-WWII",
        "fjlaubscher/barracks",
    }
    assert all(source.facts_from and source.nations and source.edition in ("v2", "v3") for source in KNOWN_SOURCES)


def test_import_this_source_runs_the_github_import_and_the_list_shows_it(staff_client, archive_server):  # noqa: F811
    archive_server.archives[SOVIET_ARCHIVE] = nr3_zip()
    fragment = staff_client.post("/catalogue/import/", {"github": SOVIET.repository}, headers=HTMX).content.decode()
    assert 'data-status="done"' in fragment and "Import complete." in fragment
    # The per-army report: what was read, guessed and dropped.
    assert (
        "Testland (3rd edition)</strong>: units read: 8 · imported: 8 · options: 2 · guessed: 0 · dropped: 0"
        in fragment
    )
    assert archive_server.requested == [SOVIET_ARCHIVE]
    # The source's card comes along, swapped out of band: it now offers a re-import.
    oob = fragment[fragment.index('id="source-jelle-kuipers-nrdata" hx-swap-oob="true"') :]
    assert "Re-import" in oob[: oob.index("</li>")] and oob.count('hx-swap-oob="true"') == 1
    job = ImportJob.objects.get()
    assert (job.repository, job.commit) == (SOVIET.repository, COMMIT)
    assert job.report["catalogues"][0]["army_reports"] == [
        {"name": "Testland (3rd edition)", "read": 8, "imported": 8, "options": 2, "guessed": [], "dropped": []}
    ]
    card = source_card(staff_client.get("/catalogue/import/").content.decode(), "jelle-kuipers-nrdata")
    date = timezone.localtime(job.finished_at).strftime("%-d %b %Y")
    assert f"Imported {date}" in card and f"from {SOVIET.repository}" in card
    assert '<code title="' + COMMIT + '">3f1c2a9</code>' in card
    assert "Re-import" in card and "Import this source" not in card
    assert "units read: 8 · imported: 8 · guessed: 0 · dropped: 0" in card
    assert f'href="/catalogue/import/jobs/{job.pk}/"' in card
    # Other sources were not touched.
    assert "Never imported here" in source_card(staff_client.get("/catalogue/import/").content.decode(), "barracks")


def test_re_importing_unchanged_data_changes_nothing(staff_client, archive_server):  # noqa: F811
    archive_server.archives[SOVIET_ARCHIVE] = nr3_zip()
    staff_client.post("/catalogue/import/", {"github": SOVIET.repository}, headers=HTMX)
    stamps = dict(Unit.objects.values_list("pk", "updated_at"))
    fragment = staff_client.post("/catalogue/import/", {"github": SOVIET.repository}, headers=HTMX).content.decode()
    assert "Nothing changed: the data is the same as at the last import." in fragment
    assert dict(Unit.objects.values_list("pk", "updated_at")) == stamps
    first, last = ImportJob.objects.order_by("created_at")
    assert ImportJob.objects.last_import_of(SOVIET) == last != first


def test_without_javascript_the_button_goes_to_the_jobs_page(staff_client, archive_server):  # noqa: F811
    archive_server.archives[SOVIET_ARCHIVE] = nr3_zip()
    response = staff_client.post("/catalogue/import/", {"github": SOVIET.repository})
    job = ImportJob.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/catalogue/import/jobs/{job.pk}/"
    assert "Import complete." in staff_client.get(response["Location"]).content.decode()


def test_a_dry_run_or_a_failed_import_is_not_the_sources_last_update(staff_client, archive_server):  # noqa: F811
    archive_server.archives[SOVIET_ARCHIVE] = nr3_zip()
    dry = staff_client.post("/catalogue/import/", {"github": SOVIET.repository, "dry_run": "on"}, headers=HTMX)
    assert "hx-swap-oob" not in dry.content.decode()
    staff_client.post("/catalogue/import/", {"github": known_source("barracks").repository}, headers=HTMX)  # 404
    assert ImportJob.objects.count() == 2 and ImportJob.objects.last_import_of(SOVIET) is None
    page = staff_client.get("/catalogue/import/").content.decode()
    assert page.count("Never imported here") == len(KNOWN_SOURCES)


def test_each_sources_last_import_outlives_the_expiry_of_old_jobs(staff_client, archive_server):  # noqa: F811
    archive_server.archives[SOVIET_ARCHIVE] = nr3_zip()
    staff_client.post("/catalogue/import/", {"github": SOVIET.repository}, headers=HTMX)
    staff_client.post("/catalogue/import/", {"github": SOVIET.repository, "dry_run": "on"}, headers=HTMX)
    ImportJob.objects.update(created_at=timezone.now() - timedelta(days=30))
    kept = ImportJob.objects.get(dry_run=False)
    staff_client.post("/catalogue/import/", {"github": "muster/nowhere"}, headers=HTMX)  # expires the old rows
    assert set(ImportJob.objects.values_list("repository", "dry_run")) == {
        (SOVIET.repository, False),
        ("muster/nowhere", False),
    }
    assert ImportJob.objects.last_import_of(SOVIET) == kept


def test_the_barracks_app_repository_imports_its_data_folder(staff_client, archive_server):  # noqa: F811
    data = {
        f"barracks-web/public/data/{path.relative_to(BARRACKS).as_posix()}": path.read_bytes()
        for path in BARRACKS.rglob("*.json")
    }
    app = {"package.json": b'{"name": "barracks"}', "barracks-web/tsconfig.json": b"{}", **data}
    archive_server.archives["/fjlaubscher/barracks/zip/HEAD"] = github_zip(app, top="barracks-main")
    make_chart("v2")
    fragment = staff_client.post(
        "/catalogue/import/", {"github": "fjlaubscher/barracks"}, headers=HTMX
    ).content.decode()
    assert "Import complete." in fragment and "(Barracks, edition v2): 3 files" in fragment
    assert set(Army.objects.values_list("name", flat=True)) == {"Armies of Testland", "Armies of Emptyland"}


def test_an_import_by_the_command_is_the_sources_last_update(staff_client, archive_server):  # noqa: F811
    archive_server.archives[SOVIET_ARCHIVE] = nr3_zip()
    call_command("import_catalogue", "--github", SOVIET.repository, stdout=io.StringIO(), stderr=io.StringIO())
    out = io.StringIO()
    call_command("import_catalogue", "--github", SOVIET.repository, "--dry-run", stdout=out, stderr=io.StringIO())
    assert "    Testland (3rd edition): 8 units read, 8 imported (2 options), 0 guessed, 0 dropped" in out.getvalue()
    job = ImportJob.objects.get()  # the dry run is not kept
    assert (job.status, job.commit, job.requested_by) == (ImportJob.Status.DONE, COMMIT, None)
    card = source_card(staff_client.get("/catalogue/import/").content.decode(), "jelle-kuipers-nrdata")
    assert "Re-import" in card and "3f1c2a9" in card


def test_an_archive_without_a_commit_comment_imports_and_shows_no_commit(staff_client, archive_server):  # noqa: F811
    archive_server.archives[SOVIET_ARCHIVE] = nr3_zip(commit="not a commit id")
    staff_client.post("/catalogue/import/", {"github": SOVIET.repository}, headers=HTMX)
    assert ImportJob.objects.get().commit == ""
    card = source_card(staff_client.get("/catalogue/import/").content.decode(), "jelle-kuipers-nrdata")
    assert "Re-import" in card and "<code" not in card


def test_the_sources_list_speaks_french(staff_client):
    page = staff_client.get("/catalogue/import/", headers={"Accept-Language": "fr"}).content.decode()
    card = source_card(page, "bsdata-boltaction")
    assert "Sources connues" in page and "Importer cette source" in card and "Jamais importée ici" in card
    assert "Aucune licence indiquée" in card


@pytest.mark.parametrize("url", ["/catalogue/import/", "/catalogue/import/compare/"])
def test_only_staff_see_the_sources_and_their_comparison(url):
    player = Client()
    player.force_login(make_user("player"))
    assert player.get(url).status_code == 403
    anonymous = Client().get(url)
    assert anonymous.status_code == 302 and anonymous["Location"] == f"/accounts/login/?next={url}"


def test_a_player_cannot_start_a_sources_import(archive_server):  # noqa: F811
    player = Client()
    player.force_login(make_user("player"))
    assert player.post("/catalogue/import/", {"github": SOVIET.repository}).status_code == 403
    assert not ImportJob.objects.exists() and archive_server.requested == []


def test_a_repository_archive_gives_its_commit_and_the_shallowest_barracks_folder():
    from armydata import github

    repository = github.parse_repository("someone/app")
    archive = github_zip(
        {
            "public/data/armies.json": b"{}",
            "public/data/core.json": b"{}",
            "public/data/units/testland.json": b"{}",
            "public/data/notes.json": b"{}",
            "tests/fixtures/data/armies.json": b"{}",
            "package.json": b"{}",
        },
        commit=COMMIT,
    )
    assert sorted(github.catalogue_files(repository, archive)) == [
        "public/data/armies.json",
        "public/data/core.json",
        "public/data/units/testland.json",
    ]
    assert github.archive_commit(archive) == COMMIT
    assert github.archive_commit(b"not a zip") == ""

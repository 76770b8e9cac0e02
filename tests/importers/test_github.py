"""``import_catalogue --github OWNER/REPO[@REF]``: archives served locally; no test touches the internet."""

from __future__ import annotations

import http.server
import io
import os
import threading
import zipfile

import pytest
from django.core.management import call_command
from django.test import override_settings

from armybuilder.catalogue.models import Army, Unit
from armydata import github
from armydata.safety import CatalogueImportError
from tests.importers.test_nr3 import NR3
from tests.importers.test_writer import make_chart

pytestmark = pytest.mark.django_db


def repository_zip(top: str = "Testland-main", extra: dict[str, bytes] | None = None) -> bytes:
    """A zip laid out like GitHub's: everything under one ``REPO-REF/`` folder, read-me and images beside the data."""
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr(f"{top}/README.md", b"# community data\n")
        archive.writestr(f"{top}/images/logo.png", b"\x89PNG" + b"\x00" * 100)
        for path in sorted(NR3.iterdir()):
            archive.writestr(f"{top}/{path.name}", path.read_bytes())
        for name, data in (extra or {}).items():
            archive.writestr(f"{top}/{name}", data)
    return buffer.getvalue()


class _Archives(http.server.BaseHTTPRequestHandler):
    archives: dict[str, bytes] = {}
    requested: list[str] = []

    redirects: dict[str, str] = {}
    base = ""

    def do_GET(self) -> None:  # noqa: N802 (the name http.server calls)
        self.requested.append(self.path)
        if self.path in self.redirects:
            self.send_response(302)
            self.send_header("Location", self.redirects[self.path])
            self.end_headers()
            return
        body = self.archives.get(self.path)
        if body is None:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", "application/zip")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        return None


@pytest.fixture
def archive_server():
    _Archives.archives = {}
    _Archives.requested = []
    _Archives.redirects = {}
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Archives)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    # (tests/importers/conftest.py stands a plain namespace in for pytest-django's ``settings``)
    _Archives.base = f"http://127.0.0.1:{server.server_port}"
    url = f"{_Archives.base}/{{owner}}/{{repo}}/zip/{{ref}}"
    with override_settings(CATALOGUE_GITHUB_ARCHIVE_URL=url, CATALOGUE_GITHUB_ALLOW_LOOPBACK_HTTP=True):
        yield _Archives
    server.shutdown()
    server.server_close()


def run(*args: str) -> tuple[str, str]:
    out, err = io.StringIO(), io.StringIO()
    call_command("import_catalogue", *args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def test_it_downloads_the_repository_and_imports_every_catalogue(archive_server):
    make_chart("v3")
    archive_server.archives["/muster/testland/zip/HEAD"] = repository_zip()
    out, err = run("--github", "muster/testland")
    assert archive_server.requested == ["/muster/testland/zip/HEAD"]
    assert Army.objects.get().name == "Testland (3rd edition)"
    assert Unit.objects.filter(army__name="Testland (3rd edition)").count() == 8
    assert "muster/testland: 2 BattleScribe files" in err
    assert "downloading muster/testland" in err
    assert "Units: 8" in out


def test_it_downloads_the_branch_tag_or_commit_given(archive_server):
    make_chart("v3")
    archive_server.archives["/muster/testland/zip/v1.2"] = repository_zip("testland-1.2")
    run("--github", "muster/testland@v1.2")
    assert Army.objects.count() == 1


def test_a_dry_run_writes_nothing_and_importing_again_changes_nothing(archive_server):
    make_chart("v3")
    archive_server.archives["/muster/testland/zip/HEAD"] = repository_zip()
    run("--github", "muster/testland", "--dry-run")
    assert Army.objects.count() == 0
    run("--github", "muster/testland")
    stamps = dict(Unit.objects.values_list("pk", "updated_at"))
    out, _err = run("--github", "muster/testland")
    assert dict(Unit.objects.values_list("pk", "updated_at")) == stamps
    assert "8 unchanged" in out


def test_a_missing_repository_is_refused_with_a_clear_message(archive_server):
    make_chart("v3")
    with pytest.raises(Exception, match="not found \\(check the owner, repository and branch\\). Nothing was imported"):
        run("--github", "muster/nowhere")


def test_a_path_climbing_out_of_the_archive_is_refused(archive_server):
    make_chart("v3")
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("top/../../evil.cat", b"<catalogue/>")
    archive_server.archives["/muster/evil/zip/HEAD"] = buffer.getvalue()
    with pytest.raises(Exception, match="climbs out of the archive"):
        run("--github", "muster/evil")
    assert Army.objects.count() == 0


def test_a_repository_without_battlescribe_files_is_refused(archive_server):
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("top/README.md", b"nothing here")
    archive_server.archives["/muster/empty/zip/HEAD"] = buffer.getvalue()
    with pytest.raises(Exception, match="holds no BattleScribe files"):
        run("--github", "muster/empty")


def test_an_archive_over_the_download_limit_is_refused(archive_server, monkeypatch):
    monkeypatch.setattr(github, "MAX_DOWNLOAD_BYTES", 1000)
    archive_server.archives["/muster/big/zip/HEAD"] = repository_zip()
    with pytest.raises(Exception, match="larger than"):
        run("--github", "muster/big")


@pytest.mark.parametrize(
    "name", ["testland", "muster/", "../etc/passwd", "muster/testland@../../x", "muster/..", "a b/c"]
)
def test_it_refuses_anything_but_a_repository_name(name):
    with pytest.raises(CatalogueImportError):
        github.parse_repository(name)


def test_it_refuses_a_plain_http_address_away_from_this_machine():
    with pytest.raises(CatalogueImportError, match="not HTTPS"):
        github.archive_url(github.parse_repository("a/b"), "http://example.org/{owner}/{repo}/{ref}")


def test_plain_http_to_this_machine_is_refused_outside_tests():
    # The tests' allowance used to hold in production too.
    from django.conf import settings

    assert settings.CATALOGUE_GITHUB_ALLOW_LOOPBACK_HTTP is False  # and no environment variable sets it
    for address in ("http://127.0.0.1:8000/{owner}/{repo}/{ref}", "http://localhost/{owner}/{repo}/{ref}"):
        with pytest.raises(CatalogueImportError, match="not HTTPS"):
            github.archive_url(github.parse_repository("a/b"), address)
    assert github.archive_url(
        github.parse_repository("a/b"), "http://127.0.0.1:8000/{owner}/{repo}/{ref}", allow_loopback_http=True
    )


def test_a_redirect_to_plain_http_on_this_machine_is_not_followed_outside_tests(archive_server):
    base = archive_server.base
    archive_server.redirects["/muster/testland/zip/HEAD"] = f"{base}/muster/testland/zip/elsewhere"
    archive_server.archives["/muster/testland/zip/elsewhere"] = data = repository_zip()
    with pytest.raises(CatalogueImportError, match="which is not HTTPS"):
        github.download(f"{base}/muster/testland/zip/HEAD")
    assert github.download(f"{base}/muster/testland/zip/HEAD", allow_loopback_http=True) == data


def test_the_default_address_is_githubs_https_archive():
    assert github.archive_url(github.parse_repository("BSData/boltaction@main")) == (
        "https://codeload.github.com/BSData/boltaction/zip/main"
    )


def test_the_command_refuses_a_fifo(tmp_path):
    fifo = tmp_path / "army.cat"
    os.mkfifo(fifo)
    with pytest.raises(Exception, match="not a regular file"):
        run(str(fifo))


def test_the_command_refuses_a_fifo_inside_a_folder(tmp_path):
    os.mkfifo(tmp_path / "army.cat")
    with pytest.raises(Exception, match="not a regular file"):
        run(str(tmp_path))


# the staff page's field


@pytest.fixture
def staff_client(client):
    from django.contrib.auth import get_user_model

    make_chart("v3")
    client.force_login(get_user_model().objects.create_user(username="quartermaster", password=None, is_staff=True))
    return client


def test_the_staff_page_imports_a_repository_named_in_its_field(staff_client, archive_server):
    archive_server.archives["/muster/testland/zip/main"] = repository_zip()
    # The task worker imports it (run at once here, tests/conftest.py); the page follows the job.
    response = staff_client.post("/catalogue/import/", {"github": "muster/testland@main"})
    assert response.status_code == 302 and response["Location"].startswith("/catalogue/import/jobs/")
    response = staff_client.get(response["Location"])
    assert response.status_code == 200
    assert "Import complete." in response.content.decode()
    assert Unit.objects.count() == 8


def test_the_staff_page_explains_a_name_that_is_not_a_repository(staff_client, archive_server):
    response = staff_client.post("/catalogue/import/", {"github": "not a repository"})
    assert "is not a GitHub repository: write OWNER/REPO or OWNER/REPO@REF" in response.content.decode()
    assert archive_server.requested == []


def test_the_staff_page_asks_for_files_or_a_repository(staff_client):
    response = staff_client.post("/catalogue/import/", {})
    assert "Choose files to upload or name a GitHub repository." in response.content.decode()


def test_files_never_read_do_not_count_toward_the_archive_limit(archive_server):
    make_chart("v3")
    pictures = {f"images/unit-{n}.png": b"png" for n in range(600)}
    archive_server.archives["/muster/testland/zip/HEAD"] = repository_zip(extra=pictures)
    run("--github", "muster/testland")
    assert Unit.objects.count() == 8

"""One PDF of every approved list: made by the task (immediate backend in tests), organiser-only,
each list printed as sealed (a later edit of the list does not show)."""

from __future__ import annotations

import io
import subprocess

import pytest
from django.test import Client
from PIL import Image
from pypdf import PdfReader

from armybuilder.events.models import ListsPdfJob
from tests.events.factories import make_entrant, make_event
from tests.lists.factories import make_entry, make_unit, make_user

pytestmark = pytest.mark.django_db


def _text(data: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(data)).pages)


def _looks_like_two_rosters(data: bytes, tmp_path) -> None:
    """Looked at as pictures (poppler's pdftoppm): one page a list, each with its roster's dark ink."""
    source = tmp_path / "lists.pdf"
    source.write_bytes(data)
    subprocess.run(["pdftoppm", "-r", "30", "-gray", "-png", str(source), str(tmp_path / "page")], check=True)
    pages = sorted(tmp_path.glob("page*.png"))
    assert len(pages) == 2
    for page in pages:
        image = Image.open(page)
        histogram = image.histogram()
        dark = sum(histogram[:128]) / (image.width * image.height)
        assert 0.005 < dark < 0.3  # printed text and rules, not a blank or a black page


def test_the_organiser_gets_one_pdf_of_the_approved_lists_as_sealed(tmp_path):
    organiser = make_user("orga")
    event = make_event(organiser)
    approved = [make_entrant(event, make_user(name)) for name in ("anna", "boris")]
    make_entrant(event, make_user("carla"), approve=False)
    # Boris edits his list after sealing: the PDF prints it as sealed.
    late = make_unit(army=approved[1].submission.army_list.army, name="Late Addition")
    make_entry(approved[1].submission.army_list, late)
    client = Client()
    client.force_login(organiser)
    response = client.post(f"/events/{event.slug}/manage/lists.pdf", {"paper": "a4"})
    job = ListsPdfJob.objects.get()
    assert response["Location"] == f"/events/{event.slug}/manage/pdf/{job.pk}/"
    page = client.get(response["Location"])
    assert job.is_done and "Download the PDF" in page.content.decode()
    pdf = client.get(f"/events/{event.slug}/manage/pdf/{job.pk}/file.pdf")
    assert pdf["Content-Type"] == "application/pdf"
    text = _text(pdf.content)
    assert "anna" in text and "boris" in text and "carla" not in text
    assert "Late Addition" not in text
    assert approved[0].submission.list_name in text
    _looks_like_two_rosters(pdf.content, tmp_path)
    # The throwaway lists made for printing are gone.
    from armybuilder.lists.models import ArmyList

    assert ArmyList.objects.filter(owner__isnull=True).count() == 0


@pytest.mark.parametrize("role", ["entrant", "other", "anonymous"])
def test_nobody_else_makes_or_reads_it(role):
    organiser = make_user("orga")
    event = make_event(organiser)
    entrant = make_entrant(event)
    organiser_client = Client()
    organiser_client.force_login(organiser)
    organiser_client.post(f"/events/{event.slug}/manage/lists.pdf")
    job = ListsPdfJob.objects.get()
    client = Client()
    if role != "anonymous":
        client.force_login(entrant.user if role == "entrant" else make_user())
    for url in (f"manage/pdf/{job.pk}/", f"manage/pdf/{job.pk}/file.pdf"):
        response = client.get(f"/events/{event.slug}/{url}")
        assert response.status_code in (302, 404)
        assert response.status_code == 404 or response["Location"].startswith("/accounts/login/")
    client.post(f"/events/{event.slug}/manage/lists.pdf")
    assert ListsPdfJob.objects.count() == 1


@pytest.mark.parametrize(
    ("asked", "cookie", "made"), [("de", "", "de"), ("it", "fr", "it"), ("xx", "pl", "pl"), ("", "", "en")]
)
def test_the_lists_pdf_speaks_the_language_asked_or_the_pages(asked, cookie, made):
    organiser = make_user("orga")
    event = make_event(organiser)
    make_entrant(event, make_user("anna"))
    client = Client()
    client.force_login(organiser)
    if cookie:
        client.cookies["django_language"] = cookie
    client.post(f"/events/{event.slug}/manage/lists.pdf", {"paper": "a4", "lang": asked})
    assert ListsPdfJob.objects.get().lang == made

"""Bounded PDF renders: a saturated process or an over-long render answers 503 with Retry-After."""

from __future__ import annotations

import threading

import pytest

from armybuilder.playsheets import pdf

pytestmark = pytest.mark.django_db


@pytest.fixture
def one_slot(settings):
    settings.PLAYSHEET_RENDER_LIMIT = 1
    settings.PLAYSHEET_RENDER_WAIT = 0.05


def test_a_render_waits_for_no_slot_when_the_process_is_saturated(alice_client, army_list, one_slot):
    with pdf.render_slot():  # another request is rendering
        response = alice_client.get(f"/lists/{army_list.pk}/roster.pdf")
    assert response.status_code == 503
    assert response["Retry-After"] == str(pdf.RETRY_AFTER)
    assert "The printer is busy" in response.content.decode()
    # Once the slot is free again the same request succeeds.
    assert alice_client.get(f"/lists/{army_list.pk}/roster.pdf").status_code == 200


def test_the_busy_page_is_translated(alice_client, army_list, one_slot):
    alice_client.cookies["django_language"] = "fr"
    with pdf.render_slot():
        response = alice_client.get(f"/s/{army_list.share_token}/cards.pdf")
    assert response.status_code == 503
    assert "L’imprimante est occupée" in response.content.decode()


def test_a_cached_pdf_needs_no_slot(alice_client, army_list, one_slot):
    url = f"/lists/{army_list.pk}/roster.pdf"
    assert alice_client.get(url).status_code == 200
    with pdf.render_slot():
        assert alice_client.get(url).status_code == 200


def test_the_quick_reference_sheet_is_bounded_too(client, edition, one_slot):
    with pdf.render_slot():
        assert client.get("/reference/v3/sheet.pdf").status_code == 503


def test_a_render_past_its_budget_is_stopped(alice_client, army_list, settings):
    settings.PLAYSHEET_RENDER_BUDGET = 0.01
    response = alice_client.get(f"/lists/{army_list.pk}/cards.pdf")
    assert response.status_code == 503
    assert "took too long" in response.content.decode()
    # The slot was given back and nothing half-made was kept, not even the fonts.
    assert getattr(pdf._thread_fonts, "config", None) is None
    settings.PLAYSHEET_RENDER_BUDGET = 30
    assert alice_client.get(f"/lists/{army_list.pk}/cards.pdf").content.startswith(b"%PDF-")


def test_slots_are_shared_by_the_process_threads(settings):
    settings.PLAYSHEET_RENDER_LIMIT = 2
    settings.PLAYSHEET_RENDER_WAIT = 0.05
    held = threading.Event()
    release = threading.Event()

    def render_elsewhere():
        with pdf.render_slot():
            held.set()
            release.wait(5)

    other = threading.Thread(target=render_elsewhere)
    other.start()
    try:
        assert held.wait(5)
        with pdf.render_slot(), pytest.raises(pdf.RenderBusy), pdf.render_slot():  # the second, then a third
            pass
    finally:
        release.set()
        other.join()

"""A list's PDFs and print pages are as private as the list; its share link opens them read-only."""

from __future__ import annotations

import pytest

from tests.lists.factories import make_user
from tests.playsheets.factories import make_playsheet_list, trash

pytestmark = pytest.mark.django_db

SUFFIXES = ["roster.pdf", "cards.pdf", "playsheet.pdf", "print.pdf", "print/", "print/document/"]


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_it_serves_the_owner(alice_client, army_list, suffix):
    assert alice_client.get(f"/lists/{army_list.pk}/{suffix}").status_code == 200


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_it_404s_for_another_user(client, army_list, suffix):
    client.force_login(make_user("bob"))
    assert client.get(f"/lists/{army_list.pk}/{suffix}").status_code == 404


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_it_404s_for_a_logged_out_visitor(client, army_list, suffix):
    assert client.get(f"/lists/{army_list.pk}/{suffix}").status_code == 404


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_it_404s_for_a_list_in_the_trash(alice_client, army_list, suffix):
    trash(army_list)
    assert alice_client.get(f"/lists/{army_list.pk}/{suffix}").status_code == 404


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_it_serves_anyone_with_the_share_link(client, army_list, suffix):
    response = client.get(f"/s/{army_list.share_token}/{suffix}")
    assert response.status_code == 200
    assert response["X-Robots-Tag"] == "noindex"


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_it_404s_for_a_wrong_share_token(client, army_list, suffix):
    assert client.get(f"/s/not-{army_list.share_token}/{suffix}").status_code == 404


def test_it_keeps_private_pdfs_out_of_shared_caches(alice_client, army_list):
    response = alice_client.get(f"/lists/{army_list.pk}/roster.pdf")
    # Private: no shared cache keeps it; no-cache: the browser asks again, answered 304 if unchanged.
    assert response["Cache-Control"] == "private, no-cache"


def test_it_prints_the_shared_list_itself(client, army_list, read_pdf):
    pdf = read_pdf(client.get(f"/s/{army_list.share_token}/roster.pdf"))
    assert "Sisu Company" in pdf.text and "points 463 / 1000" in pdf.lower


def test_it_serves_a_visitors_own_session_list(client, edition):
    army_list = make_playsheet_list(None)
    session = client.session
    session["muster_anonymous_lists"] = [army_list.pk]
    session.save()
    assert client.get(f"/lists/{army_list.pk}/roster.pdf").status_code == 200

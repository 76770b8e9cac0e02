"""The read-only share link /s/<token>/ and its plain-text export."""

from __future__ import annotations

import pytest

from tests.lists.factories import make_army, make_entry, make_list, make_option, make_platoon, make_unit, make_user


def _shared_list():
    army = make_army(name="Red Army")
    officer = make_unit(
        army=army,
        name="Lieutenant",
        slot="officer",
        unit_type="headquarters",
        officer_rank="platoon_commander",
        base_models=1,
        max_models=3,
    )
    squad = make_unit(army=army, name="Rifle squad", cost_inexperienced=35, base_models=5, max_models=10)
    dp = make_option(squad, slug="dp-28", name="DP-28 LMG")
    army_list = make_list(owner=make_user("olga"), army=army, name="Guards", points_limit=500)
    platoon = make_platoon(army_list, name="1st Rifle Platoon")
    make_entry(army_list, officer, platoon=platoon, models_count=1)
    make_entry(army_list, squad, platoon=platoon, quality="inexperienced", models_count=10, options={dp.slug: 1})
    return army_list


@pytest.mark.django_db
def test_it_opens_a_shared_list_for_a_logged_out_visitor(client):
    army_list = _shared_list()
    response = client.get(f"/s/{army_list.share_token}/")
    assert response.status_code == 200
    assert "Guards" in response.text
    assert "1st Rifle Platoon" in response.text


@pytest.mark.django_db
def test_it_shows_units_with_quality_models_options_and_points(client):
    army_list = _shared_list()
    response = client.get(f"/s/{army_list.share_token}/")
    # Inexperienced squad: 35 + 5 extra models x 7 + DP-28 at 3.
    text = " ".join(response.text.split())
    assert "Inexperienced</span> · 10 models" in text
    assert '<span class="unit-options">DP-28 LMG</span>' in text
    assert '<td class="text-right strong">73</td>' in text


@pytest.mark.django_db
def test_it_shows_order_dice_officers_and_problems(client):
    army_list = _shared_list()
    response = client.get(f"/s/{army_list.share_token}/")
    summary = response.context["summary"]
    assert summary.order_dice == 2
    assert "Platoon Commander" in response.text
    assert all(problem.message in response.text for problem in summary.problems)


@pytest.mark.django_db
def test_it_has_no_edit_controls(client):
    army_list = _shared_list()
    client.force_login(army_list.owner)
    response = client.get(f"/s/{army_list.share_token}/")
    main = response.text.split('<main id="main">')[1].split("</main>")[0]
    # One form only: "Copy to my lists", which makes the reader's own copy and leaves this one.
    assert main.count("<form") == 1
    assert f'<form method="post" action="/s/{army_list.share_token}/copy/"' in main
    assert "hx-post" not in main


@pytest.mark.django_db
def test_it_answers_404_for_an_unknown_token(client):
    assert client.get("/s/not-a-real-token/").status_code == 404


@pytest.mark.django_db
def test_it_answers_404_for_a_list_in_the_trash(client):
    army_list = _shared_list()
    army_list.deleted_at = army_list.created_at
    army_list.save(update_fields=["deleted_at"])
    assert client.get(f"/s/{army_list.share_token}/").status_code == 404


@pytest.mark.django_db
def test_it_exports_a_shared_list_as_plain_text(client):
    army_list = _shared_list()
    response = client.get(f"/s/{army_list.share_token}/export.txt")
    assert response["Content-Type"] == "text/plain; charset=utf-8"
    assert "* Rifle squad (Inexperienced, 10 models): DP-28 LMG - 73 pts" in response.text


@pytest.mark.django_db
def test_it_escapes_user_text_on_the_share_page(client):
    army_list = _shared_list()
    army_list.name = '<img src=x onerror="alert(1)">'
    army_list.save(update_fields=["name"])
    response = client.get(f"/s/{army_list.share_token}/")
    assert "<img src=x" not in response.text


@pytest.mark.django_db
def test_it_says_whether_the_shared_list_is_legal(client):
    army_list = _shared_list()
    response = client.get(f"/s/{army_list.share_token}/")
    # One platoon with one squad: the Soviet platoon needs two.
    assert 'id="legality"><strong class="has-problems">Not legal yet: ' in response.text


@pytest.mark.django_db
def test_it_copies_a_shared_list_to_the_readers_lists(client):
    army_list = _shared_list()
    reader = make_user("reader")
    client.force_login(reader)
    response = client.post(f"/s/{army_list.share_token}/copy/")
    copy = reader.army_lists.get()
    assert response.status_code == 302
    assert response["Location"] == f"/lists/{copy.pk}/"
    assert copy.name == "Guards"
    assert copy.entries.count() == 2 and copy.platoons.count() == 1
    assert copy.share_token != army_list.share_token
    assert army_list.owner.army_lists.count() == 1  # the original stays its owner's only list


@pytest.mark.django_db
def test_it_copies_a_shared_list_into_a_visitors_session(client):
    army_list = _shared_list()
    response = client.post(f"/s/{army_list.share_token}/copy/")
    copy_pk = int(response["Location"].split("/")[2])
    assert client.get(f"/lists/{copy_pk}/").status_code == 200  # theirs: in their session
    assert client.get(f"/lists/{army_list.pk}/").status_code == 404


@pytest.mark.django_db
def test_it_copies_only_by_post_and_only_a_known_token(client):
    army_list = _shared_list()
    assert client.get(f"/s/{army_list.share_token}/copy/").status_code == 405
    assert client.post("/s/not-a-token/copy/").status_code == 404

"""Game views through the test client: starting a game, ownership, the opponent's link, the table."""

from __future__ import annotations

import json
import re

import pytest
from django.contrib.messages import get_messages
from django.test import Client

from armybuilder.games.models import Game
from tests.lists.factories import make_builder_list, make_entry, make_officer, make_unit, make_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def other():
    """A second browser: another user, or the opponent on their own phone (not logged in)."""
    return Client()


def start(client, army_list, **data):
    data.setdefault("my_name", "Alice")
    data.setdefault("opponent", "dice")
    data.setdefault("opponent_name", "Bob")
    data.setdefault("opponent_dice", "3")
    return client.post(f"/games/new/?list={army_list.pk}", data)


def a_game(client, owner, entries=2, **data) -> Game:
    army_list = make_builder_list(owner, entries=entries)
    response = start(client, army_list, **data)
    assert response.status_code == 302, response.content[:2000]
    return Game.objects.get(pk=int(re.search(r"/games/(\d+)/", response["Location"]).group(1)))


def act(client, base, **data):
    return client.post(f"{base}act/", data)


def test_it_starts_a_game_against_a_name_and_a_number_of_dice(alice_client, alice) -> None:
    game = a_game(alice_client, alice)
    sides = game.setup["sides"]
    assert ([len(s["units"]) for s in sides], sides[1]["name"], game.edition) == ([2, 3], "Bob", "v2")


def test_it_freezes_the_order_dice_officers_and_points_of_each_unit(alice_client, alice) -> None:
    army_list = make_builder_list(alice, entries=1)
    make_entry(army_list, make_officer(army_list.army))
    game = Game.objects.get(pk=int(start(alice_client, army_list)["Location"].split("/")[2]))
    officer = game.setup["sides"][0]["units"][1]
    frozen = (officer["dice"], officer["officer_bonus"], officer["command_range"], officer["extra_orders"])
    assert (*frozen, officer["points"]) == (1, 1, 6, 1, 50)


def test_an_officers_order_passes_to_a_unit_in_range_on_the_page(alice_client, alice) -> None:
    army_list = make_builder_list(alice, entries=2)
    make_entry(army_list, make_officer(army_list.army))
    game = Game.objects.get(pk=int(start(alice_client, army_list)["Location"].split("/")[2]))
    base = f"/games/{game.pk}/"
    units = game.setup["sides"][0]["units"]
    officer = next(u["key"] for u in units if u["extra_orders"])
    squad, other_squad = (u["key"] for u in units if u["key"] != officer)
    act(alice_client, base, action="record", side="a", rev="0")
    act(alice_client, base, action="order", unit=officer, order="advance")
    page = alice_client.get(base).content.decode()
    assert "You men, snap to action!" in page
    assert "1 more unit within 6″ may take the same order" in page
    # Both squads, not the officer (the page's offline template for it is not an offer).
    assert page.count('class="order-form snap-form" data-bonus') == 2
    alice_client.cookies["django_language"] = "fr"
    french = alice_client.get(base).content.decode()
    assert "Vous autres, en action !" in french
    assert "a reçu l'ordre Avancer : 1 unité de plus à 6″ ou moins peut recevoir le même ordre" in french
    # The officer's name in French through the glossary, as every data name reads now.
    assert "Avancer aussi (ordre de Sous-lieutenant)" in french
    del alice_client.cookies["django_language"]
    response = act(alice_client, base, action="snap", unit=squad)
    assert response.status_code == 302
    page = alice_client.get(base).content.decode()
    assert "snap to action, ordered by Second Lieutenant" in page
    assert 'snap-form" data-bonus' not in page  # his one extra order is used
    assert 'id="dice-a">Alice: <strong>1</strong> / 3' in page
    response = act(alice_client, base, action="snap", unit=other_squad)
    assert [m.message for m in get_messages(response.wsgi_request)] == ["No officer's order to pass on now."]
    assert [a.payload["kind"] for a in game.actions.all()] == ["draw", "order", "snap"]


def test_an_officer_ordered_last_offers_his_order_to_no_one(alice_client, alice) -> None:
    # Every other unit of his side has its order, their dice are out of the bag: an offer nobody
    # could take up is not shown.
    army_list = make_builder_list(alice, entries=2)
    make_entry(army_list, make_officer(army_list.army))
    game = Game.objects.get(pk=int(start(alice_client, army_list)["Location"].split("/")[2]))
    base = f"/games/{game.pk}/"
    units = game.setup["sides"][0]["units"]
    officer = next(u["key"] for u in units if u["extra_orders"])
    for key in [u["key"] for u in units if u["key"] != officer] + [officer]:
        game.refresh_from_db()
        act(alice_client, base, action="record", side="a", rev=str(game.revision))
        act(alice_client, base, action="order", unit=key, order="advance")
    page = alice_client.get(base).content.decode()
    assert page.count('class="badge badge-order">Advance') == 3
    assert 'id="dice-a">Alice: <strong>0</strong> / 3' in page
    assert "You men, snap to action!" not in page and 'id="snap"' not in page
    assert 'class="order-form snap-form" data-bonus' not in page


def test_it_starts_from_a_list_shared_with_me_against_one_of_mine(alice_client, alice) -> None:
    shared = make_builder_list(make_user("bob"), entries=1, name="Bob's Grenadiers")
    mine = make_builder_list(alice, entries=2)
    mine.edition = shared.edition
    mine.save()
    response = alice_client.post(
        f"/games/new/?shared={shared.share_token}", {"my_name": "Alice", "opponent": "list", "opponent_list": mine.pk}
    )
    game = Game.objects.get(owner=alice)
    assert (response.status_code, [s["name"] for s in game.setup["sides"]]) == (302, ["Alice", mine.name])


def test_it_takes_the_opponent_from_a_share_link(alice_client, alice) -> None:
    mine = make_builder_list(alice, entries=1)
    theirs = make_builder_list(make_user("bob"), entries=3)
    theirs.edition = mine.edition
    theirs.save()
    link = f"http://testserver/s/{theirs.share_token}/"
    start(alice_client, mine, opponent="link", opponent_link=link, opponent_name="")
    assert len(Game.objects.get().setup["sides"][1]["units"]) == 3


def test_it_refuses_lists_of_two_editions(alice_client, alice) -> None:
    mine = make_builder_list(alice, entries=1, edition="v2")
    other = make_builder_list(alice, entries=1, edition="v3")
    response = start(alice_client, mine, opponent="link", opponent_link=f"/s/{other.share_token}/")
    assert (response.status_code, Game.objects.count()) == (200, 0)
    assert "same edition" in response.content.decode()


def test_it_will_not_play_someone_elses_private_list(alice_client) -> None:
    private = make_builder_list(make_user("bob"), entries=1)
    assert alice_client.get(f"/games/new/?list={private.pk}").status_code == 404


def test_a_game_is_private_to_its_creator(alice_client, alice, other) -> None:
    game = a_game(alice_client, alice)
    other.force_login(make_user("mallory"))
    assert [
        other.get(f"/games/{game.pk}/").status_code,
        act(other, f"/games/{game.pk}/", action="draw").status_code,
    ] == [
        404,
        404,
    ]


def test_a_game_asks_an_anonymous_visitor_to_log_in(alice_client, alice) -> None:
    game = a_game(alice_client, alice)
    alice_client.logout()
    assert alice_client.get(f"/games/{game.pk}/")["Location"].startswith("/accounts/login/")


def test_the_share_link_opens_the_game_without_an_account(alice_client, alice, other) -> None:
    game = a_game(alice_client, alice)
    response = other.get(f"/g/{game.share_token}/")
    assert response.status_code == 200
    assert "Bob" in response.content.decode()


def test_a_wrong_share_link_is_404(client) -> None:
    assert client.get("/g/not-a-real-token-at-all/").status_code == 404


def test_the_opponent_acts_for_their_own_side_only(alice_client, alice, other) -> None:
    game = a_game(alice_client, alice)
    base = f"/g/{game.share_token}/"
    mine, theirs = game.setup["sides"][0]["units"][0]["key"], game.setup["sides"][1]["units"][0]["key"]
    act(other, base, action="pins", unit=mine, delta="1")
    act(other, base, action="pins", unit=theirs, delta="1")
    assert [a.payload["unit"] for a in game.actions.all()] == [theirs]


def test_the_opponent_cannot_undo_the_creators_action_nor_end_the_game(alice_client, alice, other) -> None:
    game = a_game(alice_client, alice)
    act(alice_client, f"/games/{game.pk}/", action="record", side="a", rev="0")
    base = f"/g/{game.share_token}/"
    other.post(f"{base}undo/")
    act(other, base, action="end_game", result="b", rev="1")
    game.refresh_from_db()
    assert (game.actions.count(), game.result) == (1, "")


def test_it_plays_a_draw_an_order_and_an_undo(alice_client, alice) -> None:
    game = a_game(alice_client, alice)
    base = f"/games/{game.pk}/"
    unit = game.setup["sides"][0]["units"][0]["key"]
    act(alice_client, base, action="record", side="a", rev="0")
    act(alice_client, base, action="order", unit=unit, order="advance")
    alice_client.post(f"{base}undo/", {"rev": "2"})
    game.refresh_from_db()
    state = game.state()
    assert (state.pending, state.unit(unit).order, game.revision) == ("a", None, 3)


def test_a_stale_draw_is_refused(alice_client, alice) -> None:
    game = a_game(alice_client, alice)
    base = f"/games/{game.pk}/"
    act(alice_client, base, action="draw", rev="0")
    response = act(alice_client, base, action="draw", rev="0")
    assert (game.actions.count(), response.status_code) == (1, 302)


def test_a_die_the_phone_drew_is_played_as_drawn_on_that_side(alice_client, alice) -> None:
    # With JavaScript the page draws the die itself (weighted by the dice left) to show it at the tap.
    game = a_game(alice_client, alice)
    act(alice_client, f"/games/{game.pk}/", action="draw", side="b", rev="0")
    draw = game.actions.get()
    assert (draw.payload["side"], draw.payload["data"], game.state().pending) == ("b", {}, "b")


def test_a_die_the_phone_drew_of_a_side_with_none_left_is_refused(alice_client, alice) -> None:
    game = a_game(alice_client, alice, opponent_dice="1")
    base = f"/games/{game.pk}/"
    bob = game.setup["sides"][1]["units"][0]["key"]
    act(alice_client, base, action="draw", side="b", rev="0")
    act(alice_client, base, action="order", unit=bob, order="fire")
    response = act(alice_client, base, action="draw", side="b", rev="2")
    assert game.actions.count() == 2
    assert "That side has no die left in the bag." in alice_client.get(response["Location"]).content.decode()


def test_a_refused_action_says_why(alice_client, alice) -> None:
    game = a_game(alice_client, alice)
    unit = game.setup["sides"][0]["units"][0]["key"]
    response = alice_client.post(
        f"/games/{game.pk}/act/", {"action": "order", "unit": unit, "order": "fire"}, follow=True
    )
    assert "Draw a die of this unit" in response.content.decode()


def test_the_htmx_post_answers_the_board_fragment(alice_client, alice) -> None:
    game = a_game(alice_client, alice)
    response = alice_client.post(
        f"/games/{game.pk}/act/", {"action": "draw", "rev": "0"}, headers={"HX-Request": "true"}
    )
    html = response.content.decode()
    assert ('id="game"' in html, "<html" in html, "Die drawn" in html) == (True, False, True)


def test_the_poll_is_204_until_the_game_moves(alice_client, alice) -> None:
    game = a_game(alice_client, alice)
    poll = f"/games/{game.pk}/?since=0"
    before = alice_client.get(poll, headers={"HX-Request": "true"}).status_code
    act(alice_client, f"/games/{game.pk}/", action="draw", rev="0")
    after = alice_client.get(poll, headers={"HX-Request": "true"}).status_code
    assert (before, after) == (204, 200)


def test_the_page_answers_304_to_its_own_etag(alice_client, alice) -> None:
    game = a_game(alice_client, alice)
    etag = alice_client.get(f"/games/{game.pk}/")["ETag"]
    assert alice_client.get(f"/games/{game.pk}/", headers={"If-None-Match": etag}).status_code == 304


def test_odds_now_opens_the_calculator_with_the_live_state(alice_client, alice) -> None:
    army_list = make_builder_list(alice, entries=0)
    squad = make_unit(army_list.army, name="Squad")
    entry = make_entry(army_list, squad, models_count=10)
    game = Game.objects.get(pk=int(start(alice_client, army_list)["Location"].split("/")[2]))
    game.setup["odds"][f"a{entry.pk}"]["groups"] = [["rifle", 9], ["lmg", 1]]
    game.save()
    base = f"/games/{game.pk}/"
    act(alice_client, base, action="pins", unit=f"a{entry.pk}", delta="2")
    act(alice_client, base, action="casualties", unit=f"a{entry.pk}", delta="3")
    location = alice_client.get(f"{base}odds/?firer=a{entry.pk}&target=b1&cover=soft")["Location"]
    for part in (
        "firer_pins=2",
        "g0-weapon=rifle",
        "g0-models=6",
        "g1-weapon=lmg",
        "cover=soft",
        "target_quality=regular",
    ):
        assert part in location


def test_my_games_lists_running_and_past_games_in_one_query(alice_client, alice, django_assert_num_queries) -> None:
    for _ in range(3):
        a_game(alice_client, alice, entries=1)
    # session, user, games
    with django_assert_num_queries(3):
        response = alice_client.get("/games/")
    assert response.content.decode().count("/games/") >= 3


@pytest.mark.parametrize("actions", [1, 12])
def test_the_game_page_costs_the_same_queries_however_long_the_log(
    alice_client, alice, actions, django_assert_num_queries
) -> None:
    game = a_game(alice_client, alice)
    unit = game.setup["sides"][0]["units"][0]["key"]
    for _ in range(actions):
        act(alice_client, f"/games/{game.pk}/", action="pins", unit=unit, delta="0")
    # session, user, game, the log, the last snapshot and the actions after it
    with django_assert_num_queries(5):
        alice_client.get(f"/games/{game.pk}/")


def test_the_table_speaks_french(alice_client, alice) -> None:
    game = a_game(alice_client, alice)
    act(alice_client, f"/games/{game.pk}/", action="record", side="b", rev="0")
    html = alice_client.get(f"/games/{game.pk}/", headers={"Accept-Language": "fr"}).content.decode()
    assert "Dé tiré : Bob" in html and "Embuscade" in html and "Tour 1" in html


def test_odds_now_shows_the_exact_answer_for_real_weapons(alice_client, alice) -> None:
    from tests.playsheets.factories import make_playsheet_list, make_rules_edition

    make_rules_edition()
    army_list = make_playsheet_list(alice)
    theirs = make_playsheet_list(make_user("bob"), edition=army_list.edition)
    start(alice_client, army_list, opponent="link", opponent_link=f"/s/{theirs.share_token}/")
    game = Game.objects.get()
    squad, target = game.setup["sides"][0]["units"][1]["key"], game.setup["sides"][1]["units"][1]["key"]
    response = alice_client.get(f"/games/{game.pk}/odds/?firer={squad}&target={target}&cover=hard", follow=True)
    html = response.content.decode()
    assert (response.redirect_chain[0][0].startswith("/calc/shooting/?"), 'class="stat-value"' in html) == (True, True)
    assert 'class="errorlist"' not in html


def test_only_the_creator_deletes_a_game(alice_client, alice, other) -> None:
    game = a_game(alice_client, alice)
    other.force_login(make_user("mallory"))
    refused = other.post(f"/games/{game.pk}/delete/").status_code
    alice_client.post(f"/games/{game.pk}/delete/")
    assert (refused, Game.objects.count()) == (404, 0)


def test_my_games_shows_the_turn_each_game_is_at(alice_client, alice) -> None:
    game = a_game(alice_client, alice)
    act(alice_client, f"/games/{game.pk}/", action="end_turn", force="on", rev="0")
    assert "Turn 2" in alice_client.get("/games/").content.decode()


@pytest.mark.parametrize("action", [{"action": "draw"}, {"action": "record", "side": "a"}, {"action": "end_turn"}])
@pytest.mark.parametrize("htmx", [False, True])
def test_a_guarded_action_without_its_revision_is_refused(alice_client, alice, action, htmx) -> None:
    # It skipped the stale-revision check: a double tap drew two dice.
    game = a_game(alice_client, alice)
    headers = {"HX-Request": "true"} if htmx else {}
    response = alice_client.post(f"/games/{game.pk}/act/", action, headers=headers)
    assert response.status_code == 400
    assert "“rev”" in response.content.decode()
    game.refresh_from_db()
    assert (game.actions.count(), game.revision) == (0, 0)


def test_an_undo_without_its_revision_is_refused(alice_client, alice) -> None:
    game = a_game(alice_client, alice)
    act(alice_client, f"/games/{game.pk}/", action="record", side="a", rev="0")
    response = alice_client.post(f"/games/{game.pk}/undo/")
    assert response.status_code == 400
    assert game.actions.count() == 1


def test_an_unguarded_action_needs_no_revision(alice_client, alice) -> None:
    game = a_game(alice_client, alice)
    act(alice_client, f"/games/{game.pk}/", action="record", side="a", rev="0")
    unit = game.setup["sides"][0]["units"][0]["key"]
    assert act(alice_client, f"/games/{game.pk}/", action="pins", unit=unit, delta="1").status_code == 302
    assert game.actions.count() == 2


def test_the_dice_a_phone_rolled_offline_are_replayed_and_a_garbled_d3_refused(alice_client, alice) -> None:
    # Offline, a one-phone game rolls the FUBAR chart's die and staying Down's D3 itself (game.js):
    # the server takes them as typed dice, and refuses one that is no D3 with a sentence.
    game = a_game(alice_client, alice)
    base = f"/games/{game.pk}/"
    unit = game.setup["sides"][0]["units"][0]["key"]
    act(alice_client, base, action="pins", unit=unit, delta="2")
    act(alice_client, base, action="record", side="a", rev="1")
    act(alice_client, base, action="order", unit=unit, order="fire", die1="6", die2="6", fubar="1")
    fubar = game.actions.get(kind="order")
    assert (fubar.payload["data"]["fubar"], fubar.log["detail"]["fubar"]) == (1, "friendly_fire")
    game.refresh_from_db()
    end = {"action": "end_turn", "force": "on", "rev": str(game.revision), "down_pins": f"{unit}:9"}
    response = alice_client.post(f"{base}act/", end, headers={"Accept-Language": "fr"})
    assert response.status_code == 302 and game.actions.filter(kind="end_turn").count() == 0
    page = alice_client.get(base, headers={"Accept-Language": "fr"}).content.decode()
    assert "le D3 de chaque unité vaut 1, 2 ou 3" in page


def test_a_one_phone_board_carries_the_editions_numbers_and_the_logs_sentences_in_its_language(
    alice_client, alice
) -> None:
    game = a_game(alice_client, alice)
    page = alice_client.get(f"/games/{game.pk}/", headers={"Accept-Language": "fr"})
    words = json.loads(
        re.search(r'<script id="offline-words" type="application/json">(.*?)</script>', page.content.decode()).group(1)
    )
    rules = game.state().rules
    assert words["rules"]["fubar_faces"] == rules.combat.fubar_friendly_fire_faces
    assert (words["rules"]["down"], words["rules"]["rally"]) == (rules.down_end_turn, rules.rally)
    assert words["line"]["routed"] == "limite de marqueurs PIN atteinte : détruite"
    assert words["line"]["pins"] == "%(unit)s : marqueurs PIN %(delta)+d (maintenant %(pins)s)"
    # The opponent's page (the share link) plays nothing offline, but its taps show their result at
    # once: it carries the words, not the offline panel.
    other_page = Client().get(f"/g/{game.share_token}/", headers={"Accept-Language": "fr"}).content.decode()
    theirs = json.loads(
        re.search(r'<script id="offline-words" type="application/json">(.*?)</script>', other_page).group(1)
    )
    assert theirs["line"] == words["line"] and theirs["rules"] == words["rules"]
    assert 'id="game-words"' in other_page and "data-one-phone" not in other_page
    assert 'id="offline-play"' not in other_page and 'id="offline-follow"' in other_page

"""In a real browser: the builder's "legal for <event>" for a submitted list, and no request for another."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from armybuilder.lists.models import ArmyList
from tests.conftest import log_in
from tests.events.factories import make_entrant, make_event, make_player_list
from tests.lists.factories import make_user


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_builder_fetches_legal_for_the_event_only_for_a_submitted_list(live_server, new_browser_context):
    user = make_user("pia")
    event = make_event(points_limit=60)  # one 50-point squad fits, two do not
    entrant = make_entrant(event, user)
    submitted = entrant.submission.army_list
    # The list's own limit too: adding a squad then changes its problems, and the builder sends the panel again.
    ArmyList.objects.filter(pk=submitted.pk).update(points_limit=60)
    other = make_player_list(user, army=submitted.army, points_limit=60)
    unit = submitted.entries.get().unit
    context = new_browser_context()
    log_in(context, live_server, user)
    page = context.new_page()
    asked = []
    page.on("request", lambda request: asked.append(request.url) if "/events/for-list/" in request.url else None)

    page.goto(f"/lists/{submitted.pk}/")
    expect(page.locator("#problems")).to_contain_text("Legal for Club night.", timeout=10_000)
    # A change that brings the problems panel again: the event's verdict is fetched again, as the list is now.
    page.click(f"#add-unit-{unit.pk}")
    expect(page.locator("#problems")).to_contain_text("Not legal for Club night", timeout=10_000)
    assert len(asked) == 2

    asked.clear()
    page.goto(f"/lists/{other.pk}/")
    page.click(f"#add-unit-{unit.pk}")
    expect(page.locator("#problems")).to_contain_text("60", timeout=10_000)  # the panel came again
    expect(page.locator("#problems")).not_to_contain_text("Club night")
    assert asked == []

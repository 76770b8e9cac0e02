"""In a real browser: sign up, create a list, and open its share link as a logged-out visitor."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from armybuilder.lists.models import ArmyList
from tests.lists.factories import make_army, make_edition

# The builder of a new list; a glob like "**/lists/*/" would also match the /lists/new/ form itself.
BUILDER_URL = re.compile(r".*/lists/\d+/$")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_it_signs_up_creates_a_list_and_shares_it(django_db_setup, page, new_browser_context):
    # django_db_setup first: the test database must exist before Playwright starts its event loop.
    make_army(edition=make_edition("v2"), name="Soviet Union")
    make_army(edition=make_edition("v3"), name="Finland")

    page.goto("/accounts/signup/")
    page.fill("#id_username", "hanna")
    page.fill("#id_password1", "a-long-browser-secret")
    page.fill("#id_password2", "a-long-browser-secret")
    page.click("button[type=submit]:has-text('Create my account')")
    page.wait_for_url("**/lists/")

    page.goto("/lists/new/")
    page.select_option("#id_edition", "v3")
    # htmx swaps the army select for the edition's armies only.
    expect(page.locator("#id_army")).not_to_contain_text("Soviet Union")
    page.select_option("#id_army", label="Finland")
    page.fill("#id_name", "Sisu")
    page.fill("#id_points_limit", "800")
    page.click("button[name=create]")
    page.wait_for_url(BUILDER_URL)
    army_list = ArmyList.objects.get(name="Sisu")
    assert army_list.owner.username == "hanna"

    page.goto("/lists/")
    share_url = page.input_value(f"#share-{army_list.pk}")
    assert share_url.endswith(f"/s/{army_list.share_token}/")

    visitor = new_browser_context().new_page()
    visitor.goto(share_url)
    assert visitor.locator("h1").inner_text() == "Sisu"
    assert "Shared list (read only)" in visitor.content()
    # Read only: its one form makes the visitor's own copy ("Copy to my lists").
    assert visitor.locator("main form").count() == 1
    assert visitor.locator("main form #copy-to-my-lists").count() == 1
    assert visitor.locator("text=Log in").count() >= 1


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_it_deletes_and_undoes_with_htmx_in_place(django_db_setup, page):
    army = make_army(edition=make_edition("v3"), name="Finland")
    page.goto("/lists/new/")
    page.select_option("#id_edition", "v3")
    # Wait for htmx to swap in the edition's own armies (no more per-edition groups) before choosing one.
    expect(page.locator("#id_army optgroup")).to_have_count(0)
    page.select_option("#id_army", label="Finland")
    page.fill("#id_name", "Motti")
    page.click("button[name=create]")
    page.wait_for_url(BUILDER_URL)
    army_list = ArmyList.objects.get(army=army)

    page.goto("/lists/")
    page.click(f"#list-{army_list.pk} button[name=delete]")
    page.wait_for_selector("text=Moved “Motti” to the trash.")
    assert page.inner_text("#trash-link") == "Trash (1)"
    page.click("button[name=restore]")
    page.wait_for_selector(f"#list-{army_list.pk}")
    assert page.inner_text("#trash-link") == "Trash (0)"
    army_list.refresh_from_db()
    assert army_list.deleted_at is None


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_army_select_waits_for_the_editions_armies(django_db_setup, page):
    """While the edition's armies are on their way the army select is disabled: an army picked
    in the old select meanwhile would be lost when the new one replaces it."""
    make_army(edition=make_edition("v2"), name="Soviet Union")
    make_army(edition=make_edition("v3"), name="Finland")
    page.goto("/lists/new/")
    page.evaluate(
        """() => {
            window.__armyDisabled = false;
            new MutationObserver(() => {
                const army = document.querySelector('#id_army');
                if (army && army.disabled) window.__armyDisabled = true;
            }).observe(document.body, {attributes: true, subtree: true, childList: true});
        }"""
    )
    page.select_option("#id_edition", "v3")
    expect(page.locator("#id_army")).not_to_contain_text("Soviet Union")
    assert page.evaluate("window.__armyDisabled") is True
    assert page.is_enabled("#id_army")
    page.select_option("#id_army", label="Finland")

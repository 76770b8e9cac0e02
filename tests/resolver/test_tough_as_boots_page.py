"""The close quarters page applies Tough as Boots when ticked, and says so (or says why not)."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db

CQ = (
    "/calc/close-quarters/?edition={ed}&attacker_models=3&attacker_quality={q}"
    "&defender_models=1&defender_quality=regular"
)


def test_tough_as_boots_adds_a_die_per_three_men_and_is_named(client, charts):
    url = CQ.format(ed="v2", q="regular")
    html = client.get(url + "&attacker_boots=on").content.decode()
    assert "4 attacks" in html and "One more die per three men: Tough as Boots" in html
    assert "30/31" in html  # the hand-worked vector (tests/rules/combat/test_tough_as_boots.py)
    plain = client.get(url).content.decode()
    assert "3 attacks" in plain and "14/15" in plain and "Tough as Boots:" not in plain
    french = client.get(url + "&attacker_boots=on", headers={"Accept-Language": "fr"}).content.decode()
    assert "Un dé de plus par trois hommes : Durs à cuire" in french


def test_inexperienced_men_get_no_bonus_and_the_page_says_why(client, charts):
    html = client.get(CQ.format(ed="v2", q="inexperienced") + "&attacker_boots=on").content.decode()
    assert "3 attacks" in html and "Tough as Boots does not act here" in html

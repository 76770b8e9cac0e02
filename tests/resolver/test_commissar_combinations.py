"""Not One Step Back! with the order test page's other boxes: the chance a man is removed, exactly.

The re-take is rolled in the same case as the first test: after Vengeance's die (a pin shed or not) and
after Initiative Training's die (the lost NCO's -1 or not), so each case carries its own re-take and the
cases are mixed afterwards. A Banzai Charge passes the test without a roll, so no man is ever removed.
The expected figures are worked out here by enumerating every die, independently of the engine.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

import pytest

from armybuilder.resolver.national_rules import order_test
from tests.resolver.test_national_pages import _exact

pytestmark = pytest.mark.django_db

URL = "/calc/order-test/?edition=v2&quality=regular&pins=1&officer_bonus=0&modifier=0&commissar=on"
MORALE = {"inexperienced": 8, "regular": 9, "veteran": 10}
D6 = range(1, 7)


def enumerate_dice(quality: str, pins: int, *, vengeance: bool, nco: str, banzai: bool, commissar: bool):
    """(pass, man removed, FUBAR) in 2nd edition, each die rolled in turn with weight 1/6."""
    if banzai:  # Banzai Charge: passed without a roll
        return Fraction(1), Fraction(0), Fraction(0)
    passed = removed = fubar = Fraction(0)
    sheds = D6 if vengeance and quality != "inexperienced" else [1]  # Vengeance: 4-6 sheds a pin
    takes_over = D6 if nco == "lost_german" else [1]  # Initiative Training: 2+, another man takes over
    for shed_die, nco_die in itertools.product(sheds, takes_over):
        weight = Fraction(1, len(sheds) * len(takes_over))
        left = pins - (1 if vengeance and quality != "inexperienced" and shed_die >= 4 else 0)
        penalty = 1 if nco == "lost" or (nco == "lost_german" and nco_die == 1) else 0
        morale = MORALE[quality] - left - penalty
        for a, b in itertools.product(D6, D6):
            first = a + b <= morale and not a == b == 6
            if first:
                passed += weight / 36
                continue
            if not commissar:
                fubar += weight / 36 if a == b == 6 else 0
                continue
            removed += weight / 36  # a man is shot, and the test is taken once more
            for c, d in itertools.product(D6, D6):
                if c + d <= morale and not c == d == 6:
                    passed += weight / 1296
                elif c == d == 6:
                    fubar += weight / 1296
    return passed, removed, fubar


def test_the_issues_three_cases_on_the_page(client, charts):
    alone = client.get(URL).text
    assert _exact(alone, "A man removed") == Fraction(5, 18)
    assert _exact(client.get(URL + "&vengeance=on").text, "A man removed") == Fraction(2, 9)
    assert _exact(client.get(URL + "&nco=lost_german").text, "A man removed") == Fraction(65, 216)
    banzai = client.get(URL + "&banzai=on").text
    assert _exact(banzai, "A man removed") == 0
    assert _exact(banzai, "Order given") == 1


def test_a_lost_nco_without_initiative_training_removes_a_man_as_at_morale_seven(client, charts):
    html = client.get(URL + "&nco=lost").text
    assert _exact(html, "A man removed") == Fraction(15, 36)
    assert _exact(html, "Order given") == Fraction(21, 36) + Fraction(15, 36) * Fraction(21, 36)


@pytest.mark.parametrize("quality", ["inexperienced", "regular", "veteran"])
@pytest.mark.parametrize("pins", [1, 2, 3])
def test_every_combination_of_boxes_matches_the_dice(quality, pins):
    for vengeance, nco, banzai, commissar in itertools.product(
        (False, True), ("", "lost", "lost_german"), (False, True), (False, True)
    ):
        cd = {
            "edition": "v2",
            "quality": quality,
            "pins": pins,
            "officer_bonus": 0,
            "modifier": 0,
            "vengeance": vengeance,
            "nco": nco,
            "banzai": banzai,
            "commissar": commissar,
        }
        odds, _ = order_test(cd)
        passed, removed, fubar = enumerate_dice(
            quality, pins, vengeance=vengeance, nco=nco, banzai=banzai, commissar=commissar
        )
        case = f"{quality}, {pins} pins, vengeance={vengeance}, nco={nco!r}, banzai={banzai}, commissar={commissar}"
        assert odds.p_pass == passed, case
        assert odds.p_fubar == fubar, case
        assert (odds.p_man_removed or 0) == removed, case
        assert (odds.p_man_removed is not None) == commissar, case

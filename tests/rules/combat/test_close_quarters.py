from __future__ import annotations

from dataclasses import replace
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.combat import cq
from rules.combat.api import close_quarters
from rules.combat.cq import CQSide, die_weights
from rules.errors import RulesError

from .builders import CFG1, CFG2, CFG3


def test_it_resolves_v27_a_2e_assault_with_the_attacker_striking_first() -> None:
    res = close_quarters("2e", attacker={"models": 10}, defender={"models": 6})
    assert res.first_round == "attacker_first"
    assert res.p_attacker_wins == F(36196195992342212621, 37118580405366620160)
    assert round(float(res.p_defender_wins), 6) == 0.024850
    assert res.p_both_destroyed == 0
    assert round(float(res.expected_rounds), 6) == 1.035872
    assert isinstance(res.expected_rounds, F)


def test_it_resolves_v28_the_same_fight_simultaneous_in_3e() -> None:
    res = close_quarters("3e", attacker={"models": 10}, defender={"models": 6})
    assert res.first_round == "simultaneous"
    assert res.p_attacker_wins == F(72004385583047, 80912084100705)
    assert res.p_defender_wins == F(8907698517658, 80912084100705)
    assert round(float(res.expected_rounds), 6) == 1.126176


def test_it_cross_checks_four_against_three_simultaneous() -> None:
    res = cq.close_quarters(CFG3, CQSide(4), CQSide(3))
    assert round(float(res.p_attacker_wins), 5) == 0.73051
    assert res.p_attacker_wins + res.p_defender_wins + res.p_both_destroyed == 1


def test_it_matches_a_hand_computed_one_against_one_fight() -> None:
    # Simultaneous, both hit on 4+: both die 1/4, one side 1/4 each, nobody 1/4 (loop).
    res = cq.close_quarters(CFG3, CQSide(1), CQSide(1))
    assert res.p_both_destroyed == F(1, 3)
    assert res.p_attacker_wins == F(1, 3)
    assert res.expected_rounds == F(4, 3)
    # Attacker first in 2e: wins 1/2 at once; otherwise the defender replies.
    first = cq.close_quarters(CFG2, CQSide(1), CQSide(1))
    assert first.p_attacker_wins == F(1, 2) + F(1, 4) * F(1, 3)
    assert first.p_defender_wins == F(1, 4) + F(1, 4) * F(1, 3)


def test_it_picks_the_first_round_by_edition_and_position() -> None:
    assert (
        close_quarters("3e", attacker={"models": 5}, defender={"models": 5, "defensive_position": True}).first_round
        == "defender_first"
    )
    res = close_quarters("2e", attacker={"models": 5}, defender={"models": 5, "defensive_position": True})
    assert res.first_round == "simultaneous"
    assert "cq_first_round_defensive" in res.unverified
    assert close_quarters("1e", attacker={"models": 5}, defender={"models": 5}).first_round == "attacker_first"


def test_it_models_tough_fighters_per_edition() -> None:
    q = F(1, 2)
    assert die_weights("bonus_roll_on_success", q) == ((2, 1, 1), 4)  # {0: 1/2, 1: 1/4, 2: 1/4}
    assert die_weights("reroll_failed", q) == ((1, 3), 4)  # {0: 1/4, 1: 3/4}
    assert die_weights("bonus_roll_on_success", F(1, 3)) == ((6, 2, 1), 9)
    assert cq.attack_dice(CFG1, CQSide(5, assault_weapons=2), "regular") == {"plain": 7, "tough": 0}
    assert cq.attack_dice(CFG1, CQSide(5, tough_fighters=True), "regular") == {"plain": 10, "tough": 0}
    assert cq.attack_dice(CFG2, CQSide(5, assault_weapons=2), "regular") == {"plain": 3, "tough": 2}
    assert cq.attack_dice(CFG3, CQSide(5, tough_fighters=True), "regular") == {"plain": 0, "tough": 5}
    plain = cq.close_quarters(CFG3, CQSide(5), CQSide(5))
    tough = cq.close_quarters(CFG3, CQSide(5, tough_fighters=True), CQSide(5))
    assert tough.p_attacker_wins > plain.p_attacker_wins


def test_it_raises_for_an_endless_draw() -> None:
    harmless = ((1, 0), 1)  # a die that never causes a casualty
    arms = cq._Arms(harmless, harmless, (1, 0), (1, 0), 0)
    with pytest.raises(RulesError, match="endless draw"):
        cq._chain(arms, arms, 3, 3, "simultaneous", "simultaneous")


def test_it_can_repeat_the_first_round_order_in_later_rounds() -> None:
    cfg = replace(CFG2, cq_later_rounds="same_as_first")
    res = cq.close_quarters(cfg, CQSide(6), CQSide(6))
    assert res.p_attacker_wins + res.p_defender_wins + res.p_both_destroyed == 1
    assert res.p_both_destroyed == 0


def test_it_resolves_twenty_against_twenty_quickly() -> None:
    import time

    cq.clear_caches()
    start = time.perf_counter()
    res = cq.close_quarters(CFG3, CQSide(20, tough_fighters=True), CQSide(20, quality="veteran"))
    elapsed = time.perf_counter() - start
    assert res.p_attacker_wins + res.p_defender_wins + res.p_both_destroyed == 1
    assert elapsed < 0.5  # generous bound for a loaded 2-core machine; the bench measures the real figure


@settings(max_examples=30, deadline=None)
@given(
    st.sampled_from([CFG1, CFG2, CFG3]),
    st.integers(1, 12),
    st.integers(1, 12),
    st.sampled_from(["inexperienced", "regular", "veteran"]),
    st.sampled_from(["inexperienced", "regular", "veteran"]),
    st.booleans(),
    st.booleans(),
    st.integers(0, 3),
    st.sampled_from([None, "attacker_first", "simultaneous", "defender_first"]),
)
def test_it_keeps_close_quarters_outcomes_summing_to_one(cfg, a, d, qa, qd, tfa, tfd, aw, first) -> None:
    att = CQSide(a, qa, tfa, min(aw, a))
    dfd = CQSide(d, qd, tfd)
    res = cq.close_quarters(cfg, att, dfd, first)
    assert res.p_attacker_wins + res.p_defender_wins + res.p_both_destroyed == 1
    assert min(res.p_attacker_wins, res.p_defender_wins, res.p_both_destroyed) >= 0
    assert res.expected_rounds >= 1

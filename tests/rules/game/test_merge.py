"""Two phones' offline actions merged in the order they happened (rules.game.merge), without Django."""

from __future__ import annotations

import pytest

from rules.errors import RulesError
from rules.game.engine import SNAPSHOT_EVERY, Action, GameSetup, new_state, recorded_draw, replay, state_to_data
from rules.game.merge import Step, corrected, interleave, merge


def setup() -> GameSetup:
    def unit(key, models=5):
        return {"key": key, "name": key.title(), "quality": "regular", "models": models}

    return GameSetup.from_data(
        {
            "edition": "v2",
            "sides": [
                {"key": "a", "name": "Alice", "units": [unit("a1"), unit("a2")]},
                {"key": "b", "name": "Bob", "units": [unit("b1"), unit("b2")]},
            ],
        }
    )


def step(phone, made_at, action, ref="", stored=False):
    return Step(phone=phone, made_at=made_at, build=lambda _s: action, ref=ref or f"{phone}{made_at}", stored=stored)


def order(unit, side):
    return Action("order", side=side, unit=unit, data={"order": "fire"})


def pins(unit, side, delta=1):
    return Action("pins", side=side, unit=unit, data={"delta": delta})


def test_it_corrects_a_phone_clock_by_its_skew_at_send():
    # The phone's clock was 90 s behind the server's when it sent the queue.
    assert corrected(1_000_000, phone_now=2_000_000, server_now=2_090_000) == 1_090_000


def test_it_interleaves_by_time_and_keeps_each_lists_order():
    a = [step("a", 10, pins("a1", "a")), step("a", 30, pins("a2", "a")), step("a", 20, pins("a1", "a"))]
    b = [step("b", 15, pins("b1", "b")), step("b", 25, pins("b2", "b"))]
    # a's clock went back in the middle of its queue: its third action stays after its second.
    assert [s.ref for s in interleave(a, b)] == ["a10", "b15", "b25", "a30", "a20"]


def test_it_applies_both_phones_actions_in_the_order_they_happened():
    stored = [step("a", 10, recorded_draw("a"), stored=True), step("a", 40, order("a1", "a"), stored=True)]
    incoming = [step("b", 20, pins("a2", "b")), step("b", 50, pins("b1", "b"))]
    merged = merge(new_state(setup()), stored, incoming, start=0)
    assert [a.step.ref for a in merged.applied] == ["a10", "b20", "a40", "b50"]
    assert merged.conflicts == []


def test_it_replays_the_same_state_as_the_actions_in_that_order():
    stored = [step("a", 10, recorded_draw("a"), stored=True), step("a", 40, order("a1", "a"), stored=True)]
    incoming = [step("b", 20, pins("a2", "b")), step("b", 50, pins("b2", "b", 2))]
    merged = merge(new_state(setup()), stored, incoming, start=0)
    expected = replay(setup(), [a.action for a in merged.applied])
    assert state_to_data(merged.state) == state_to_data(expected)


def test_a_die_recorded_on_both_phones_is_a_conflict_not_lost():
    # Both phones recorded the same die for side b; b's phone ordered its unit with it.
    stored = [step("a", 10, recorded_draw("b"), stored=True)]
    incoming = [step("b", 12, recorded_draw("b")), step("b", 14, order("b1", "b"))]
    merged = merge(new_state(setup()), stored, incoming, start=0)
    assert [(c.step.ref, c.code) for c in merged.conflicts] == [("b12", "pending")]
    assert [a.step.ref for a in merged.applied] == ["a10", "b14"]


def test_an_action_on_a_unit_the_other_side_destroyed_is_a_conflict():
    stored = [step("a", 10, Action("remove", side="b", unit="b1"), stored=True)]
    incoming = [step("b", 20, pins("b1", "b"))]
    merged = merge(new_state(setup()), stored, incoming, start=0)
    assert [(c.step.ref, c.code) for c in merged.conflicts] == [("b20", "destroyed")]


def test_nothing_is_dropped_every_step_is_applied_or_a_conflict():
    stored = [step("a", 10, recorded_draw("b"), stored=True), step("a", 11, Action("remove", side="a", unit="a2"))]
    incoming = [step("b", 5, recorded_draw("b")), step("b", 12, pins("a2", "b")), step("b", 13, order("b1", "b"))]
    merged = merge(new_state(setup()), stored, incoming, start=0)
    refs = sorted([a.step.ref for a in merged.applied] + [c.step.ref for c in merged.conflicts])
    assert refs == sorted(s.ref for s in stored + incoming)


def test_a_refusal_marked_fatal_refuses_the_whole_merge():
    def not_yours(_state):
        raise RulesError("You act for your own side only.", code="not-your-side")

    incoming = [Step(phone="b", made_at=1, build=not_yours, ref="x")]
    with pytest.raises(RulesError) as caught:
        merge(new_state(setup()), [], incoming, start=0, fatal=("not-your-side",))
    assert caught.value.code == "not-your-side"


def test_the_merge_note_comes_before_the_phones_first_action_and_counts_what_was_merged():
    incoming = [step("b", 12, recorded_draw("b")), step("b", 13, recorded_draw("b"))]

    def note(applied, conflicts):
        return Action(
            "merged", side="b", data={"count": sum(not a.step.stored for a in applied), "conflicts": len(conflicts)}
        )

    stored = [step("a", 10, Action("pins", side="a", unit="a1", data={"delta": 1}), stored=True)]
    merged = merge(new_state(setup()), stored, incoming, start=0, note=note)
    assert [a.action.kind for a in merged.applied] == ["pins", "merged", "draw"]
    assert merged.applied[1].log.detail == {"count": 1, "conflicts": 1}


def test_snapshots_fall_on_the_numbers_the_game_keeps_them_at():
    state = new_state(setup())
    incoming = [step("a", n, pins("a1", "a", 0)) for n in range(5)]
    merged = merge(state, [], incoming, start=SNAPSHOT_EVERY - 3)
    assert [a.snapshot is not None for a in merged.applied] == [False, False, True, False, False]


def test_merging_the_result_again_changes_nothing():
    # A queue sent twice: the second time the server's tail already holds it, in the merged order.
    stored = [step("a", 10, recorded_draw("b"), stored=True)]
    incoming = [step("b", 12, recorded_draw("b")), step("b", 14, order("b1", "b"))]
    first = merge(new_state(setup()), stored, incoming, start=0)
    again = [
        Step(phone=a.step.phone, made_at=a.step.made_at, build=lambda _s, x=a.action: x, ref=a.step.ref, stored=True)
        for a in first.applied
    ]
    second = merge(new_state(setup()), again, [], start=0)
    assert state_to_data(second.state) == state_to_data(first.state)
    assert second.conflicts == []

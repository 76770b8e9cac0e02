"""Properties over random, well-formed small BattleScribe catalogues.

The generator only writes costs and modifiers that cannot make a legal selection cost less
than nothing (a decrement never exceeds the cost it reduces), so any negative price the parser
produced would be its own mistake.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armydata.battlescribe import parse_battlescribe
from tests.importers.helpers import read_battlescribe

QUALITY_NAMES = ("Inexperienced", "Regular", "Veteran")
points = st.integers(min_value=0, max_value=60)


def _cost(value: int) -> str:
    return f'<costs><cost name="pts" typeId="pts-id" value="{value}"/></costs>'


def _limits(minimum: int | None, maximum: int | None, ident: str) -> str:
    parts = []
    if minimum is not None:
        parts.append(f'<constraint field="selections" scope="parent" value="{minimum}" id="{ident}-min" type="min"/>')
    if maximum is not None:
        parts.append(f'<constraint field="selections" scope="parent" value="{maximum}" id="{ident}-max" type="max"/>')
    return f"<constraints>{''.join(parts)}</constraints>" if parts else ""


def _condition(child_id: str) -> str:
    return (
        f'<conditions><condition field="selections" scope="parent" value="1" childId="{child_id}" '
        'type="atLeast"/></conditions>'
    )


@st.composite
def units(draw, index: int) -> tuple[str, str]:
    """One unit as (shared entry XML, root entry link XML)."""
    uid = f"u{index}"
    qualities = draw(st.lists(st.sampled_from(QUALITY_NAMES), unique=True, max_size=3))
    quality_ids = [f"{uid}-q{i}" for i in range(len(qualities))]
    body = []
    if qualities:
        entries = "".join(
            f'<selectionEntry id="{qid}" name="{name}" type="upgrade">{_cost(draw(points))}</selectionEntry>'
            for qid, name in zip(quality_ids, qualities, strict=True)
        )
        body.append(
            f'<selectionEntryGroup id="{uid}-rating" name="Rating">{_limits(1, 1, f"{uid}-rating")}'
            f"<selectionEntries>{entries}</selectionEntries></selectionEntryGroup>"
        )
    if draw(st.booleans()):
        soldier_cost = draw(points)
        # The lowest the soldier's cost can fall to whichever conditions hold; a decrement
        # may take at most that much.
        floor = soldier_cost
        modifiers = []
        for _ in range(draw(st.integers(0, 2))):
            kind = draw(st.sampled_from(["set", "increment", "decrement"]))
            value = draw(st.integers(0, floor if kind == "decrement" else 20))
            conditional = bool(quality_ids) and draw(st.booleans())
            when = _condition(draw(st.sampled_from(quality_ids))) if conditional else ""
            if kind == "set":
                floor = min(floor, value) if conditional else value
            elif kind == "increment" and not conditional:
                floor += value
            elif kind == "decrement":
                floor -= value
            modifiers.append(f'<modifier type="{kind}" field="pts-id" value="{value}">{when}</modifier>')
        minimum = draw(st.integers(0, 4))
        maximum = minimum + draw(st.integers(0, 6))
        body.append(
            f'<selectionEntryGroup id="{uid}-squad" name="Squad Members">'
            f"{_limits(None, draw(st.one_of(st.none(), st.integers(maximum + 1, maximum + 5))), f'{uid}-squad')}"
            "<selectionEntries>"
            f'<selectionEntry id="{uid}-nco" name="NCO" type="model">{_limits(1, 1, f"{uid}-nco")}'
            f"{_cost(draw(points))}</selectionEntry>"
            f'<selectionEntry id="{uid}-man" name="Soldier" type="model">{_limits(minimum, maximum, f"{uid}-man")}'
            f"<modifiers>{''.join(modifiers)}</modifiers>"
            f'<entryLinks><entryLink id="{uid}-man-rifle" targetId="gs-rifle" type="selectionEntry"/></entryLinks>'
            f"{_cost(soldier_cost)}</selectionEntry>"
            "</selectionEntries></selectionEntryGroup>"
        )
    options = []
    for number in range(draw(st.integers(0, 3))):
        oid = f"{uid}-o{number}"
        own = draw(points)
        modifiers = []
        if draw(st.booleans()):
            modifiers.append(
                f'<modifier type="increment" field="pts-id" value="{draw(st.integers(0, 5))}"><repeats>'
                '<repeat field="selections" scope="parent" value="1" childId="model" repeats="1" roundUp="false"/>'
                "</repeats></modifier>"
            )
        if draw(st.booleans()):
            modifiers.append(
                f'<modifier type="decrement" field="pts-id" value="{draw(st.integers(0, own))}">'
                f"{_condition(oid)}</modifier>"
            )
        link = draw(st.sampled_from(["", "gs-rifle", "gs-lmg"]))
        links = f'<entryLinks><entryLink id="{oid}-w" targetId="{link}" type="selectionEntry"/></entryLinks>'
        options.append(
            f'<selectionEntry id="{oid}" name="Option {number}" type="upgrade">{_limits(None, 1, oid)}'
            f"<modifiers>{''.join(modifiers)}</modifiers>{links if link else ''}{_cost(own)}</selectionEntry>"
        )
    if options:
        body.append(f"<selectionEntries>{''.join(options)}</selectionEntries>")
    groups = [part for part in body if part.startswith("<selectionEntryGroup")]
    entries = [part for part in body if part.startswith("<selectionEntries")]
    shared = (
        f'<selectionEntry id="{uid}" name="Unit {index}" type="unit">{_cost(draw(points))}'
        f"{''.join(entries)}<selectionEntryGroups>{''.join(groups)}</selectionEntryGroups></selectionEntry>"
    )
    override = _cost(draw(points)) if draw(st.booleans()) else ""
    hidden = "true" if draw(st.booleans()) else "false"
    root = (
        f'<entryLink id="l{index}" name="Unit {index}" hidden="{hidden}" targetId="{uid}" type="selectionEntry">'
        f'<categoryLinks><categoryLink id="l{index}-c" targetId="cat-inf" primary="true"/></categoryLinks>'
        f"{override}</entryLink>"
    )
    return shared, root


@st.composite
def catalogues(draw) -> bytes:
    count = draw(st.integers(1, 3))
    parts = [draw(units(index)) for index in range(count)]
    return (
        '<?xml version="1.0" encoding="UTF-8"?>'
        '<catalogue id="cat-random" name="Random" gameSystemId="sys-test-2" '
        'xmlns="http://www.battlescribe.net/schema/catalogueSchema">'
        f"<entryLinks>{''.join(root for _, root in parts)}</entryLinks>"
        f"<sharedSelectionEntries>{''.join(shared for shared, _ in parts)}</sharedSelectionEntries>"
        "</catalogue>"
    ).encode()


SYSTEM = read_battlescribe()
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FAST
@given(catalogues())
def test_it_never_prices_a_unit_below_zero(catalogue):
    result = parse_battlescribe({**SYSTEM, "random.cat": catalogue})
    for unit in result.armies[0].units:
        assert all(cost >= 0 for cost in unit.base_cost.values())
        assert all(cost >= 0 for cost in unit.per_model_cost.values())
        assert all(cost >= 0 for option in unit.options for cost in option.cost.values())


@FAST
@given(catalogues())
def test_it_gives_the_same_result_when_parsing_twice(catalogue):
    files = {**SYSTEM, "random.cat": catalogue}
    assert parse_battlescribe(files) == parse_battlescribe(files)

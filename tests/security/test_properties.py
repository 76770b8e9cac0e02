"""Property tests: hostile JSON at the list import and every resolver endpoint never gets a 5xx
and never writes anything."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from armybuilder.lists.exchange import export_data
from armybuilder.lists.models import ArmyList, Entry, Platoon

RESOLVERS = ["shooting", "anti-tank", "order-test", "close-quarters", "order-dice", "ranging-in"]
SETTINGS = settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)

# Every code point, lone surrogates and control characters included.
hostile_text = st.text(st.characters(exclude_categories=()), max_size=12) | st.sampled_from(
    ["\x00", "\ud800", "a\udfffb", "\x1b[2J", "\u202e", "v2\x00", "", " " * 200]
)
scalars = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(10**30), max_value=10**30)
    | st.floats(allow_nan=False, allow_infinity=False)
    | hostile_text
)
values = st.recursive(
    scalars,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(hostile_text, inner, max_size=4),
    max_leaves=16,
)


def _dumps(value) -> str:
    # ensure_ascii writes lone surrogates as \\udXXX escapes, as a hostile client would.
    return json.dumps(value, ensure_ascii=True)


raw_hostile = st.one_of(
    st.integers(min_value=1, max_value=100_000).map(lambda n: "[" * n + "]" * n),
    st.integers(min_value=1, max_value=100_000).map(lambda n: '{"a":' * n + "1" + "}" * n),
    st.integers(min_value=4000, max_value=20_000).map(lambda n: '{"points_limit": 1' + "0" * n + "}"),
    st.sampled_from(["NaN", '{"a": Infinity}', "1e999", '{"a": -1e400}', "\ufeff{}", "{", "", "\x00"]),
)


def _mutations(base: dict, nested: str):
    """A valid document with one place replaced by something hostile, or hostile JSON outright.

    ``nested`` names a list of objects in ``base`` whose first item also has its fields replaced.
    """
    replaced = st.builds(lambda key, value: _dumps({**base, key: value}), st.sampled_from(sorted(base)), values)
    item = base[nested][0]
    in_item = st.builds(
        lambda key, value: _dumps({**base, nested: [{**item, key: value}]}),
        st.sampled_from(sorted(item)),
        values,
    )
    return replaced | in_item | values.map(_dumps) | raw_hostile


@pytest.fixture
def no_limits(settings):
    settings.RATELIMIT_ENABLE = False


@pytest.mark.django_db
def test_the_list_import_never_fails_and_writes_nothing_from_hostile_json(alice_client, army_list, no_limits):
    base = export_data(ArmyList.objects.for_builder().get(pk=army_list.pk))
    counts = (ArmyList.objects.count(), Entry.objects.count(), Platoon.objects.count())

    @SETTINGS
    @given(_mutations(base, "entries"))
    def check(text):
        response = alice_client.post("/lists/import/", {"text": text})
        assert response.status_code < 500
        if response.status_code == 302:  # a mutation that is still a valid list: remove it again
            ArmyList.objects.filter(pk=ArmyList.objects.latest("pk").pk).delete()
        else:
            assert response.status_code in (200, 400)
        assert (ArmyList.objects.count(), Entry.objects.count(), Platoon.objects.count()) == counts

    check()


SHOOTING = {
    "edition": "v2",
    "order": "fire",
    "firer": {"quality": "regular", "pins": 0},
    "groups": [{"weapon": "rifle", "models": 2, "range": "long"}],
    "target": {"kind": "infantry", "quality": "regular", "models": 5, "cover": "soft", "down": False},
}


@pytest.mark.django_db
@pytest.mark.parametrize("name", RESOLVERS)
def test_every_resolver_answers_hostile_json_with_200_or_400(client, charts, name, no_limits):
    counts = (ArmyList.objects.count(), Entry.objects.count())

    @SETTINGS
    @given(_mutations(SHOOTING, "groups"))
    def check(body):
        response = client.post(f"/api/resolve/{name}/", data=body, content_type="application/json")
        assert response.status_code in (200, 400), (response.status_code, body[:200])
        if response.status_code == 400:
            assert "error" in response.json() and "field" in response.json()

    check()
    assert (ArmyList.objects.count(), Entry.objects.count()) == counts

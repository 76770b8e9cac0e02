"""Test cases for the phone's pricing (``static/js/builder_logic.js``), priced by these rules.

Each case is a unit's price table (``price_table.encode``), a quality, a count of men and the options
taken, with what the phone must answer: ``entry_points``'s figure, or ``None`` where the phone must
not guess (the server refuses the entry, or prices a free unit by limits only it knows).
``manage.py builder_js_cases`` writes them to ``tests/js/builder_pricing_cases.json``; Node's test
runner feeds them to the JavaScript, and ``tests/lists/test_builder_js_cases.py`` checks that the
file is what these rules answer now, so a change to either side alone fails.

Choices the server alone refuses (an option over its count, options that exclude each other, a
group over its maximum) are left out: the phone shows a figure for them and the server's refusal
puts it back, as the builder's guesses always are.
"""

from __future__ import annotations

import itertools
from typing import Any

from rules.army.model import QUALITIES, EntrySpec, OptionGroupSpec, OptionSpec, UnitSpec
from rules.army.points import entry_points, free_option
from rules.army.price_table import encode
from rules.errors import RulesError

# Refusals the phone does not foresee: the figure it shows is put back by the server's answer.
SERVER_ONLY = frozenset(
    {"option-no-models", "option-max-once", "option-max", "option-exclusive", "option-group-max", "option-excludes"}
)


def _option(key: str, cost: dict[str, int], *, per_model: bool = False, **kwargs: Any) -> OptionSpec:
    return OptionSpec(key=key, name=key.replace("-", " "), per_model=per_model, cost=cost, **kwargs)


def _unit(key: str, base: dict[str, int], per_man: dict[str, int], men: tuple[int, int], *options: OptionSpec, **kw):
    return UnitSpec(
        key=key,
        name=key.replace("-", " "),
        unit_type="infantry",
        slot="infantry",
        base_cost=base,
        per_model_cost=per_man,
        base_models=men[0],
        max_models=men[1],
        options=options,
        **kw,
    )


REGULAR_UP = {"regular": 4, "veteran": 4}
EVERY = {"inexperienced": 1, "regular": 1, "veteran": 1}

# The shapes a unit's price takes in the built-in and imported data.
UNITS = (
    # A squad: no Inexperienced, extra men, an SMG per man, an LMG team on top of its men, grenades
    # for the whole squad (its teams' men too), a flag once.
    _unit(
        "squad",
        {"regular": 50, "veteran": 65},
        {"regular": 10, "veteran": 13},
        (5, 10),
        _option("smg", REGULAR_UP, per_model=True),
        _option("lmg-team", {"regular": 20, "veteran": 26}, adds_models=2),
        _option("grenades", {"regular": 2, "veteran": 2}, all_models=True),
        _option("flag", {"regular": 7, "veteran": 7}),
    ),
    # A squad whose team takes places within its largest size (an NKVD squad's LMG team).
    _unit(
        "within-squad",
        {"inexperienced": 35, "regular": 45, "veteran": 60},
        {"inexperienced": 7, "regular": 9, "veteran": 12},
        (6, 11),
        _option("lmg-team", {"inexperienced": 15, "regular": 20, "veteran": 25}, adds_models=2, within_size=True),
        _option("smg", EVERY | {"regular": 3, "veteran": 3}, per_model=True, max_count=3),
    ),
    # A gun that comes free through a national rule, and a spotter; no extra men.
    _unit(
        "gun",
        {"inexperienced": 60, "regular": 75, "veteran": 90},
        {},
        (3, 3),
        _option("free-unit", {"inexperienced": 0, "regular": 0, "veteran": 0}, free_unit=True, free_per_list=1),
        _option("spotter", {"inexperienced": 10, "regular": 10, "veteran": 10}, adds_models=1),
    ),
    # A vehicle offered at one quality, an option that saves points and one only some qualities price.
    _unit(
        "truck",
        {"regular": 12},
        {},
        (1, 1),
        _option("no-pintle", {"regular": -15}),
        _option("mg", {"regular": 10}),
        _option("armour", {"veteran": 5}),
    ),
    # Extra men priced at one quality only; a choice of one of two weapons in a described group.
    _unit(
        "team",
        {"inexperienced": 20, "regular": 25},
        {"regular": 8},
        (2, 4),
        _option("rifles", {"inexperienced": 0, "regular": 0}, group="arms"),
        _option("smgs", {"inexperienced": 3, "regular": 3}, group="arms", all_models=True),
        option_groups=(OptionGroupSpec("arms", "Arms", minimum=0, maximum=1),),
    ),
)


def _choices(unit: UnitSpec) -> list[dict[str, int]]:
    """Every combination of the unit's options, each taken 0, 1 or (per man) 3 times."""
    counts = [(0, 1, 3) if option.per_model else (0, 1) for option in unit.options]
    combos = []
    for taken in itertools.product(*counts):
        combos.append({option.key: n for option, n in zip(unit.options, taken, strict=True) if n})
    return combos + [{"no-such-option": 1}]


def _expected(entry: EntrySpec) -> int | None | str:
    """What the phone must answer, or "skip" for a refusal only the server makes."""
    try:
        points = entry_points(entry)
    except RulesError as refused:
        return "skip" if refused.code in SERVER_ONLY else None
    if free_option(entry.unit, entry.options) is not None:
        return None  # the server prices a free unit by the list's limits
    return points


def price_cases() -> dict[str, list]:
    """``tables``: each unit's price table; ``cases``: each naming its table by its place there."""
    cases = []
    for number, unit in enumerate(UNITS):
        for quality, models, chosen in itertools.product(
            QUALITIES, range(unit.base_models - 1, unit.max_models + 2), _choices(unit)
        ):
            entry = EntrySpec(key="e", name=unit.name, unit=unit, quality=quality, models=models, options=chosen)
            expected = _expected(entry)
            if expected == "skip":
                continue
            cases.append({"table": number, "quality": quality, "models": models, "chosen": chosen, "points": expected})
    return {"tables": [encode(unit) for unit in UNITS], "cases": cases}

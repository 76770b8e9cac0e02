"""A unit's price table as the builder's page carries it, for the phone to price a change at once.

``encode`` writes what ``static/js/builder_logic.js`` reads: ``base,max|cost per quality|cost per
extra man per quality|options``, each option ``key:cost per quality:flags:men it adds`` (flags:
``a`` bought for the whole unit, ``f`` makes the unit free, ``w`` its men count within the unit's
largest size), qualities in ``QUALITIES`` order, an empty cost where the quality is not offered.
Keys and numbers only: no quotes to escape, a few dozen bytes a unit. The server's answer still
decides; ``rules.army.js_price_cases`` checks the phone's reading against ``entry_points``.
"""

from __future__ import annotations

from collections.abc import Mapping

from rules.army.model import QUALITIES, OptionSpec, UnitSpec


def _costs(values: Mapping[str, int]) -> str:
    return ",".join(str(values[q]) if q in values else "" for q in QUALITIES)


def _flags(option: OptionSpec) -> str:
    return (
        ("a" if option.all_models else "")
        + ("f" if option.free_unit else "")
        + ("w" if option.within_size and option.adds_models else "")
    )


def encode(unit: UnitSpec) -> str:
    """The unit's price table (see the module's docstring)."""
    options = [f"{o.key}:{_costs(o.cost)}:{_flags(o)}:{o.adds_models or ''}" for o in unit.options]
    head = f"{unit.base_models},{unit.max_models}|{_costs(unit.base_cost)}|{_costs(unit.per_model_cost)}"
    return "|".join([head, ";".join(options)])

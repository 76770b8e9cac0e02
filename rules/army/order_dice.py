"""Order dice: one per unit, in every edition.

rules-notes §16: every unit generates one die, units in reserve included [C: S003, S004, BD].
A transport is a unit with its own die (in 3rd ed it carries its own Advance/Run die, RD2
quoting p146). Spotters and an officer's attached men are models of their unit, not units,
so they add no die; in this data they are options or extra models of the entry. So are teams
inside a unit (an LMG team of a squad, ``OptionSpec.adds_models``): models, never a die.
"""

from __future__ import annotations

from collections.abc import Iterable

from rules.army.model import EntrySpec, ListSpec

DICE_PER_UNIT = 1


def entry_order_dice(entry: EntrySpec) -> int:
    """Dice an entry brings to the bag: one, whatever its type (transports included), unless its
    data says otherwise (an attachment imported data lists at 0 dice)."""
    return max(entry.unit.order_dice, 0)


def count_order_dice(entries: Iterable[EntrySpec]) -> int:
    return sum(entry_order_dice(entry) for entry in entries)


def order_dice(spec: ListSpec) -> int:
    """Order dice of a whole list."""
    return count_order_dice(spec.entries)

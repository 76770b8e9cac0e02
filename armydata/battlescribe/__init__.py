"""BattleScribe data (a .gst game system plus .cat catalogues) to the neutral import model.

BattleScribe files describe a *roster editor*, not a price list: a unit is a tree of
selectable entries whose costs, visibility and limits change through modifiers as the user
picks things. Bolt Action data uses that machinery to encode quality. The 2nd-edition
community files put a "Rating" group under each unit whose Inexperienced/Regular/Veteran
entries carry the price, and hide the extra-man entries of the wrong quality with modifiers
conditioned on the chosen rating. NewRecruit-era 3rd-edition files instead link shared
quality entries into a "Veterancy" group and *set* the model costs through modifiers
conditioned on which of them is selected.

Rather than recognise each encoding by name, this parser evaluates the tree: for every
quality the unit offers it builds the minimal legal selection (the quality entry, every
entry or group with a minimum, defaults where a group must be filled), evaluates the
conditions and modifiers against that selection, and sums the costs. Adding one more model
entry gives the per-model cost; adding one option at a time gives the option costs. Conditions
that look outside the unit (the force type, the theatre chosen elsewhere in the roster)
cannot be decided here: cost modifiers depending on them are reported and ignored, and
visibility depending on them counts as "available".

The package, in the order the data flows: ``document`` (the files read), ``tree`` and ``links``
(entries resolved through their links into one tree per unit), ``selection`` (a unit's selections
built and costed), ``units`` (a catalogue's units priced, sized and classified), ``options`` (the
choices inside a unit), ``profile_kinds`` (what a unit's profiles say it is), ``forces`` (platoon
kinds and their limits), ``reference`` (weapons and rules), ``reading`` (the entry point).
Pieces other formats share live beside the package: ``armydata.qualities``,
``armydata.editions``, ``armydata.unit_kinds``, ``armydata.classify``.
"""

from __future__ import annotations

from armydata.editions import edition_of
from armydata.qualities import quality_of

from .profile_kinds import _profile_kinds
from .reading import parse_battlescribe
from .tree import _Profile

__all__ = ["_Profile", "_profile_kinds", "edition_of", "parse_battlescribe", "quality_of"]

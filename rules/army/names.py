"""Names a player can tell apart: units and platoons that share a name are numbered.

Two platoons both called "Reinforced Platoon", or two "Regular Infantry Squad (Late-War)", look
the same on the builder, the problems, the cards and the game board. ``distinct_names`` gives
each of them its rank among those sharing its name ("Reinforced Platoon 2",
"Regular Infantry Squad (Late-War) #2"), and leaves a name used once as it is. Every page that
prints a list's names asks this one function, so they all number the same way.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable

# Platoons read as "Reinforced Platoon 2"; units carry a "#" so a number is not taken for part
# of the unit's own name ("Panzer IV Ausf H 2" against "Panzer IV Ausf H #2").
PLATOON_FORMAT = "{name} {number}"
ENTRY_FORMAT = "{name} #{number}"


def _same(name: str) -> str:
    # Names differing only in case or spacing still read alike.
    return " ".join(name.split()).casefold()


def distinct_names[K: Hashable](items: Iterable[tuple[K, str]], fmt: str = ENTRY_FORMAT) -> dict[K, str]:
    """Each item's name (``(key, name)`` pairs, in list order), numbered 1, 2, … where shared.

    A number whose result is already another item's name is skipped, so a platoon the player
    named "Reinforced Platoon 2" and two unnamed ones become "… 2", "… 1" and "… 3".
    """
    pairs = list(items)
    counts = Counter(_same(name) for _key, name in pairs)
    taken = {_same(name) for _key, name in pairs if counts[_same(name)] == 1}
    numbers: dict[str, int] = {}
    result: dict[K, str] = {}
    for key, name in pairs:
        if counts[_same(name)] == 1:
            result[key] = name
            continue
        number = numbers.get(_same(name), 0)
        while True:
            number += 1
            numbered = fmt.format(name=name, number=number)
            if _same(numbered) not in taken:
                break
        numbers[_same(name)] = number
        taken.add(_same(numbered))
        result[key] = numbered
    return result

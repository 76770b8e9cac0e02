"""What differs between editions at the table: Rally, staying Down and the pin limit.

Source tags refer to docs/rules-notes.md (§7 pins, §12 morale, §16 order dice).
Combat numbers (morale clamp, FUBAR faces, pin rout) come from ``rules.combat.config`` so the two
engines never disagree; this table only holds what the combat resolver has no use for.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from rules.combat.config import RulesConfig, config_for

ORDERS = ("fire", "advance", "run", "ambush", "rally", "down")
# Orders a unit may keep from one turn to the next; its die then stays out of the bag [§16, C].
KEPT_ORDERS = ("down", "ambush")
VEHICLE_TYPES = ("vehicle_soft", "vehicle_armoured", "transport")


@dataclass(frozen=True)
class GameRules:
    edition: str  # "1e", "2e", "3e"
    combat: RulesConfig
    # Pins a passed Rally order removes on top of the one any passed order test removes (§7).
    rally: Literal["d6", "all"]
    # Pins lost by a unit that keeps its Down order at the end of the turn (§7).
    down_end_turn: Literal["d3", "all"]
    # A second Immobilised result knocks the vehicle out (2nd-ed damage chart, §11).
    second_immobilised_knocks_out: bool
    unverified: frozenset[str]
    source: str


GAME_RULES = {
    "1e": GameRules(
        "1e",
        config_for("1e"),
        rally="d6",  # test passed (-1) then D6 more [S004]
        down_end_turn="d3",  # not recovered for 1st ed: the 2nd-ed D3 stands in [R]
        second_immobilised_knocks_out=True,
        unverified=frozenset({"down_end_turn", "second_immobilised_knocks_out"}),
        source="rules-notes §7, §11, §16; 1st ed [S004, REF1]",
    ),
    "2e": GameRules(
        "2e",
        config_for("2e"),
        rally="d6",  # "lose D6+1": the passed test's 1 plus D6 [TR2, PS2]
        down_end_turn="d3",  # [PS2; CD3 "previously D3"]
        second_immobilised_knocks_out=True,  # [S002]
        unverified=frozenset(),
        source="rules-notes §7, §11, §16; 2nd ed [S002, PS2, TR2]",
    ),
    "3e": GameRules(
        "3e",
        config_for("3e"),
        rally="all",  # [S001, CD3, BD]; S000's "D6" is a 2nd-ed holdover
        down_end_turn="all",  # [CD3]; S000's "D3" is a holdover
        # The 3rd-ed chart has Steering compromised instead, knocked out on its third result [§11].
        second_immobilised_knocks_out=False,
        unverified=frozenset(),
        source="rules-notes §7, §11, §16; 3rd ed [S000, S001, CD3]",
    ),
}


def game_rules(edition: str) -> GameRules:
    """The table rules of ``edition`` ("v2", "2e", ...); RulesError for an unknown edition."""
    return GAME_RULES[config_for(edition).edition]

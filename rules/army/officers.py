"""Officers: what each rank gives (morale bonus, extra orders, command range), per edition.

Source: rules-notes §13. 2nd ed is confirmed [S002, MK]. 1st ed follows the same ladder, but
only the "+1 to +4" bonus is sourced [DOL]; the rest is an inference [R]. 3rd ed has two tiers,
Platoon Commander and Company Commander, at +2/2/6" and +4/4/12" [S000, S001]; RD1's +1 is
outweighed (two seeds and the community 3rd-ed data agree), so §13 now marks them confirmed. The same
table maps the 2nd-ed ranks onto the two 3rd-ed tiers (2nd/1st Lt -> Platoon Commander,
Captain/Major -> Company Commander), as the §13 table does.

In 3rd ed a Platoon Commander's extra orders go to units of his own platoon, so his effect
names that platoon; a Company Commander (and every 1st/2nd-ed officer) commands any unit in
range.
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.army.model import EntrySpec, ListSpec, OfficerEffect, Problem
from rules.errors import RulesError

RANK_LABELS = {
    "second_lieutenant": "Second Lieutenant",
    "first_lieutenant": "First Lieutenant",
    "captain": "Captain",
    "major": "Major",
    "platoon_commander": "Platoon Commander",
    "company_commander": "Company Commander",
}


@dataclass(frozen=True)
class RankEffect:
    rank: str
    label: str
    morale_bonus: int
    extra_orders: int
    command_range: int  # inches
    commands_platoon: bool  # True: his extra orders are limited to his own platoon
    unverified: bool
    source: str


def _rank(
    rank: str, bonus: int, orders: int, range_: int, source: str, *, platoon: bool = False, unverified: bool = False
) -> RankEffect:
    return RankEffect(rank, RANK_LABELS[rank], bonus, orders, range_, platoon, unverified, source)


_V1_SOURCE = 'rules-notes §13, 1st ed: bonus "+1 to +4" [DOL]; orders and ranges inferred from 2nd ed [R]'
_V2_SOURCE = "rules-notes §13, 2nd ed [S002, MK]"
_V3_SOURCE = "rules-notes §13, 3rd ed [S000, S001, NRData 3rd-ed catalogues]; confirmed (Nov 2026)"

RANK_EFFECTS: dict[str, dict[str, RankEffect]] = {
    "v1": {
        "second_lieutenant": _rank("second_lieutenant", 1, 1, 6, _V1_SOURCE, unverified=True),
        "first_lieutenant": _rank("first_lieutenant", 2, 2, 6, _V1_SOURCE, unverified=True),
        "captain": _rank("captain", 3, 3, 12, _V1_SOURCE, unverified=True),
        "major": _rank("major", 4, 4, 12, _V1_SOURCE, unverified=True),
    },
    "v2": {
        "second_lieutenant": _rank("second_lieutenant", 1, 1, 6, _V2_SOURCE),
        "first_lieutenant": _rank("first_lieutenant", 2, 2, 6, _V2_SOURCE),
        "captain": _rank("captain", 3, 3, 12, _V2_SOURCE),
        "major": _rank("major", 4, 4, 12, _V2_SOURCE),
    },
    "v3": {
        "platoon_commander": _rank("platoon_commander", 2, 2, 6, _V3_SOURCE, platoon=True),
        "company_commander": _rank("company_commander", 4, 4, 12, _V3_SOURCE),
        # §13 maps the 2nd-ed ranks onto the two tiers (for units imported with the old ranks).
        "second_lieutenant": _rank("second_lieutenant", 2, 2, 6, _V3_SOURCE, platoon=True),
        "first_lieutenant": _rank("first_lieutenant", 2, 2, 6, _V3_SOURCE, platoon=True),
        "captain": _rank("captain", 4, 4, 12, _V3_SOURCE),
        "major": _rank("major", 4, 4, 12, _V3_SOURCE),
    },
}

EDITION_LABELS = {"v1": "1st-edition", "v2": "2nd-edition", "v3": "3rd-edition"}


def rank_label(rank: str) -> str:
    return RANK_LABELS.get(rank, rank)


def rank_effect(edition: str, rank: str) -> RankEffect:
    """What a rank gives in an edition; RulesError for an edition or rank it does not have."""
    table = RANK_EFFECTS.get(edition)
    if table is None:
        raise RulesError(f"Unknown edition “{edition}”.")
    effect = table.get(rank)
    if effect is None:
        ranks = ", ".join(e.label for e in table.values())
        raise RulesError(
            f"{rank_label(rank)} is not a {EDITION_LABELS[edition]} rank; the ranks are {ranks}.",
            code="rank",
            params={"rank": rank, "edition": edition, "ranks": ranks, "rank_keys": ",".join(table)},
        )
    return effect


def officer_effect(edition: str, entry: EntrySpec, platoon_names: dict[str, str] | None = None) -> OfficerEffect:
    """The effect of one officer entry; RulesError if its unit has no rank in this edition."""
    rank = entry.unit.officer_rank
    if not rank:
        raise RulesError(f"{entry.name} is not an officer.")
    effect = rank_effect(edition, rank)
    platoon_key = entry.platoon if effect.commands_platoon else None
    platoon_name = (platoon_names or {}).get(platoon_key) if platoon_key else None
    return OfficerEffect(
        entry_key=entry.key,
        name=entry.name,
        rank=rank,
        rank_label=effect.label,
        morale_bonus=effect.morale_bonus,
        extra_orders=effect.extra_orders,
        command_range=effect.command_range,
        platoon_key=platoon_key if platoon_name is not None else None,
        platoon_name=platoon_name,
        unverified=effect.unverified,
    )


def officer_effects(spec: ListSpec) -> tuple[OfficerEffect, ...]:
    """Effects of the list's officers in list order; officers whose rank the edition lacks are left out."""
    names = {platoon.key: platoon.name for platoon in spec.platoons}
    effects = []
    for entry in spec.entries:
        if not entry.unit.officer_rank:
            continue
        try:
            effects.append(officer_effect(spec.edition, entry, names))
        except RulesError:
            continue
    return tuple(effects)


def officer_problems(spec: ListSpec) -> list[Problem]:
    """Officers whose rank the list's edition does not have (their effect is left out), in list order."""
    problems = []
    for entry in spec.entries:
        rank = entry.unit.officer_rank
        if not rank:
            continue
        try:
            rank_effect(spec.edition, rank)
        except RulesError as error:
            params = {"name": entry.name, **error.params} if error.code == "rank" else {}
            problems.append(Problem(f"{entry.name}: {error}", "officer-rank", entry_key=entry.key, params=params))
    return problems

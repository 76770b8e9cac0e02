"""Whether a sealed list may be played at an event: the event's own rules, then the list's.

The list's own problems (force organisation, entry costs) come from ``rules.army.summary``; its
own points limit, order-dice and platoon caps are the builder's and are replaced here by the
event's, so a list built for 1,500 points is judged against a 1,000-point event. Problems keep
the builder's rule ids where they say the same thing (``points-limit``, ``max-order-dice``,
``max-platoons``), so the site translates them with the sentences it already has.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import date

from rules.army.model import Problem

# The list's own caps: the event's take their place.
LIST_LIMIT_RULES = frozenset({"points-limit", "max-order-dice", "max-platoons"})


@dataclass(frozen=True)
class EventRules:
    edition: str
    points_limit: int
    max_order_dice: int | None = None
    max_platoons: int | None = None
    # (edition, army slug) pairs; empty means every army of the edition.
    allowed_armies: frozenset[tuple[str, str]] = frozenset()
    banned_units: frozenset[str] = frozenset()  # unit slugs
    data_cutoff: date | None = None


@dataclass(frozen=True)
class SealedFacts:
    """What legality reads of a sealed list: worked out once, when it is sealed."""

    edition: str
    army: tuple[str, str]
    army_name: str
    points: int
    order_dice: int
    platoons: int
    units: tuple[tuple[str, str], ...] = ()  # (slug, name) of each entry
    army_data_date: date | None = None
    list_problems: tuple[Problem, ...] = field(default=())


def check(rules: EventRules, facts: SealedFacts) -> tuple[Problem, ...]:
    """Every reason the list cannot be played at the event, the event's first; () when legal."""
    problems: list[Problem] = []
    if facts.edition != rules.edition:
        problems.append(
            Problem(
                message=f"The list is for {facts.edition}; the event plays {rules.edition}.",
                rule="event-edition",
                params={"edition": facts.edition, "event_edition": rules.edition},
            )
        )
    if rules.allowed_armies and facts.army not in rules.allowed_armies:
        problems.append(
            Problem(
                message=f"{facts.army_name} is not one of the event's armies.",
                rule="event-army",
                params={"army": facts.army_name},
            )
        )
    if rules.data_cutoff is not None and facts.army_data_date is not None and facts.army_data_date > rules.data_cutoff:
        problems.append(
            Problem(
                message=(
                    f"{facts.army_name}'s data changed on {facts.army_data_date.isoformat()}, "
                    f"after the event's cut-off ({rules.data_cutoff.isoformat()})."
                ),
                rule="event-data-cutoff",
                params={"army": facts.army_name, "changed": facts.army_data_date, "cutoff": rules.data_cutoff},
            )
        )
    # The event's caps in place of the list's own, each problem said and named as the builder's.
    caps = (
        ("points-limit", facts.points, rules.points_limit, "points", "The list is {value} points"),
        ("max-order-dice", facts.order_dice, rules.max_order_dice, "count", "The list has {value} order dice"),
        ("max-platoons", facts.platoons, rules.max_platoons, "count", "The list has {value} platoons"),
    )
    for rule, value, limit, key, said in caps:
        if limit is not None and value > limit:
            message = f"{said.format(value=value)}; the limit is {limit}."
            problems.append(Problem(message=message, rule=rule, params={key: value, "limit": limit}))
    for slug, name in _distinct(facts.units):
        if slug in rules.banned_units:
            problems.append(
                Problem(message=f"{name} is banned at this event.", rule="event-banned-unit", params={"name": name})
            )
    problems.extend(problem for problem in facts.list_problems if problem.rule not in LIST_LIMIT_RULES)
    return tuple(problems)


def _distinct(units: Iterable[tuple[str, str]]) -> list[tuple[str, str]]:
    seen: set[str] = set()
    out = []
    for slug, name in units:
        if slug not in seen:
            seen.add(slug)
            out.append((slug, name))
    return out

"""Army-list problems in the active language.

``rules/`` builds each problem with an English ``message`` (kept as it is for the JSON API and the
text export) and the ``params`` that sentence interpolates. Here each ``rule`` id maps to a
translatable sentence with the same ``%(name)s`` fields; ``display_problem`` fills it in, and falls
back to the English message whenever the rule or a param is unknown, so it never raises.

Labels the rules write in English (platoon kinds, editions, roles, ranks, qualities, slot names)
are swapped for translated ones from their keys before the sentence is filled in.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.formats import number_format
from django.utils.translation import get_language, ngettext_lazy
from django.utils.translation import gettext_lazy as _

from armybuilder.catalogue.models import OfficerRank, Quality
from armybuilder.lists.models import PlatoonKind
from rules.army.force_org import EDITION_RULES
from rules.army.model import Problem

EDITION_LABELS = {"v1": _("1st edition"), "v2": _("2nd edition"), "v3": _("3rd edition")}

ROLE_LABELS = {
    "officer": _("an officer"),
    "company_commander": _("a senior officer"),
    "character": _("a national character"),
    "infantry": _("an infantry squad"),
    "medic": _("a medic"),
    "forward_observer": _("a forward observer"),
    "sniper": _("a sniper"),
    "machine_gun": _("a machine gun"),
    "light_mortar": _("a light mortar"),
    "mortar": _("a mortar"),
    "flamethrower": _("a flamethrower"),
    "anti_tank": _("an anti-tank team"),
    "anti_tank_gun": _("an anti-tank gun"),
    "artillery": _("artillery"),
    "armoured_car": _("an armoured car"),
    "tank": _("a tank"),
    "transport": _("a transport"),
    "other": _("a unit outside the platoon slots"),
}

# The slot names of the force-organisation tables (``SlotLimit.singular`` and ``.plural``).
UNIT_LABELS = {
    "Lieutenant (2nd or 1st)": _("Lieutenant (2nd or 1st)"),
    "Lieutenants (2nd or 1st)": _("Lieutenants (2nd or 1st)"),
    "Captain or Major": _("Captain or Major"),
    "Captains or Majors": _("Captains or Majors"),
    "Platoon Commander": _("Platoon Commander"),
    "Platoon Commanders": _("Platoon Commanders"),
    "infantry section": _("infantry section"),
    "infantry sections": _("infantry sections"),
    "infantry squad": _("infantry squad"),
    "infantry squads": _("infantry squads"),
    "engineer squad": _("engineer squad"),
    "engineer squads": _("engineer squads"),
    "medic": _("medic"),
    "medics": _("medics"),
    "national character": _("national character"),
    "national characters": _("national characters"),
    "machine-gun or mortar team": _("machine-gun or mortar team"),
    "machine-gun or mortar teams": _("machine-gun or mortar teams"),
    "forward observer": _("forward observer"),
    "forward observers": _("forward observers"),
    "sniper": _("sniper"),
    "snipers": _("snipers"),
    "machine-gun team": _("machine-gun team"),
    "machine-gun teams": _("machine-gun teams"),
    "mortar team": _("mortar team"),
    "mortar teams": _("mortar teams"),
    "light mortar": _("light mortar"),
    "light mortars": _("light mortars"),
    "flamethrower team": _("flamethrower team"),
    "flamethrower teams": _("flamethrower teams"),
    "anti-tank team": _("anti-tank team"),
    "anti-tank teams": _("anti-tank teams"),
    "field or anti-tank gun": _("field or anti-tank gun"),
    "field or anti-tank guns": _("field or anti-tank guns"),
    "gun": _("gun"),
    "guns": _("guns"),
    "vehicle": _("vehicle"),
    "vehicles": _("vehicles"),
    "armoured car or recce vehicle": _("armoured car or recce vehicle"),
    "armoured cars or recce vehicles": _("armoured cars or recce vehicles"),
    "tank, tank destroyer, self-propelled gun or anti-aircraft vehicle": _(
        "tank, tank destroyer, self-propelled gun or anti-aircraft vehicle"
    ),
    "tanks, tank destroyers, self-propelled guns or anti-aircraft vehicles": _(
        "tanks, tank destroyers, self-propelled guns or anti-aircraft vehicles"
    ),
}

UNIT_OUTSIDE_PLATOON = _("%(name)s is not in a platoon; with platoon force organisation every unit belongs to one.")
PLATOON_KIND = _(
    "%(platoon)s: a %(kind_label)s is not a %(edition_label)s platoon; %(edition_label)s lists use %(allowed)s."
)
PLATOON_SLOT = _("%(platoon)s: a %(kind_label)s has no place for %(name)s (%(role_label)s).")
LIMIT_MIN = _("%(platoon)s: a %(kind_label)s needs %(minimum)s %(units)s; it has %(count)s.")
LIMIT_MAX = _("%(platoon)s: a %(kind_label)s allows %(minimum)s–%(maximum)s %(units)s; it has %(count)s (%(names)s).")
TRANSPORT_MAX = _(
    "%(platoon)s: a %(kind_label)s allows one transport or tow per infantry or artillery unit (%(carried)s); "
    "it has %(count)s (%(names)s)."
)
CORE_REQUIRED = _("A %(edition_label)s list needs at least one %(kind_label)s; this list has none.")
SUPPORT_MAX = ngettext_lazy(
    "The list has %(count)s %(kind_label)s (%(names)s); it may have no more of them than %(core_kind_label)s "
    "platoons (%(core_count)s).",
    "The list has %(count)s %(kind_label)s platoons (%(names)s); it may have no more of them than "
    "%(core_kind_label)s platoons (%(core_count)s).",
    "count",
)

MESSAGES: dict[str, object] = {
    "unit-outside-platoon": UNIT_OUTSIDE_PLATOON,
    "platoon-kind": PLATOON_KIND,
    "company-commander-max": _("The list has %(count)s Company Commanders (%(names)s); it allows 0–%(maximum)s."),
    "points-limit": _("The list is %(points)s points; the limit is %(limit)s."),
    "max-order-dice": ngettext_lazy(
        "The list has %(count)s order die; the limit is %(limit)s.",
        "The list has %(count)s order dice; the limit is %(limit)s.",
        "count",
    ),
    "max-platoons": ngettext_lazy(
        "The list has %(count)s platoon; the limit is %(limit)s.",
        "The list has %(count)s platoons; the limit is %(limit)s.",
        "count",
    ),
    "officer-rank": _("%(name)s: %(rank)s is not a %(edition_label)s rank; the ranks are %(ranks)s."),
    # One rule, several sentences: params["reason"] picks one (RulesError.code in rules/army/points.py).
    "entry-points": {
        "no-quality": _("%(name)s has no points value at any quality."),
        "quality": _("%(name)s cannot be %(quality)s; it comes as %(offered)s only."),
        "models-exact": _("%(name)s has %(models)s models; it must have exactly %(minimum)s."),
        "models-range": _("%(name)s has %(models)s models; it must have %(minimum)s to %(maximum)s."),
        "extra-models-cost": _("%(name)s has no cost for extra models at %(quality)s."),
        "models-with-teams": _("%(name)s has %(models)s models with its teams; it may have at most %(maximum)s."),
        "unknown-option": _("%(name)s has no option “%(option)s”."),
        "option-count-type": _("%(name)s: %(option)s has a count that is not a whole number (%(count)s)."),
        "option-negative": _("%(name)s: %(option)s cannot be taken %(count)s times."),
        "option-no-models": _("%(name)s: %(option)s cannot be taken with %(models)s models."),
        "option-max-once": _("%(name)s: %(option)s can be taken at most once; it was taken %(count)s times."),
        "option-max": _("%(name)s: %(option)s can be taken at most %(limit)s times; it was taken %(count)s times."),
        "option-cost": _("%(name)s: %(option)s has no cost at %(quality)s."),
        "option-exclusive": _("%(name)s: %(options)s exclude each other; choose one."),
        "option-excludes": _("%(name)s: %(option)s cannot be taken with %(other)s."),
        "negative-points": _(
            "%(name)s would cost %(points)s points with its options; an entry never costs less than 0."
        ),
        "option-group-max": ngettext_lazy(
            "%(name)s: %(group)s allows at most %(limit)s choice; %(count)s were taken.",
            "%(name)s: %(group)s allows at most %(limit)s choices; %(count)s were taken.",
            "limit",
        ),
    },
    "option-group-min": ngettext_lazy(
        "%(name)s: choose one of %(group)s.",
        "%(name)s: choose at least %(minimum)s of %(group)s; %(count)s chosen.",
        "minimum",
    ),
    "free-unit-limit": _("%(option)s: %(count)s units are free through it (%(names)s); a list may have %(limit)s."),
}


def _kind_id(kind: str) -> str:
    return kind.replace("_", "-")


# The force-organisation rule ids are built from the platoon kinds and slot limits of each edition.
for _edition in EDITION_RULES.values():
    MESSAGES[f"{_kind_id(_edition.core_kind)}-required"] = CORE_REQUIRED
    for _kind, _table in _edition.platoons.items():
        MESSAGES[f"{_kind_id(_kind)}-slot"] = PLATOON_SLOT
        for _limit in _table.limits:
            MESSAGES[f"{_kind_id(_kind)}-{_limit.key}-min"] = LIMIT_MIN
            MESSAGES[f"{_kind_id(_kind)}-{_limit.key}-max"] = LIMIT_MAX
        if _table.transports:
            MESSAGES[f"{_kind_id(_kind)}-transport-max"] = TRANSPORT_MAX
        if _edition.support_limited_by_core and _kind != _edition.core_kind:
            MESSAGES[f"{_kind_id(_kind)}-max"] = SUPPORT_MAX


def _join(words: list[str], last: str) -> str:
    if len(words) <= 1:
        return "".join(words)
    return f"{', '.join(words[:-1])} {last} {words[-1]}"


def _labels(keys: object, labels: Mapping[str, object]) -> list[str]:
    return [str(labels.get(key, key)) for key in str(keys).split(",") if key]


def localise_params(params: Mapping[str, object]) -> dict[str, object]:
    """The params with their English labels replaced by translated ones (from the keys beside them)."""
    kinds = dict(PlatoonKind.choices)
    qualities = dict(Quality.choices)
    ranks = dict(OfficerRank.choices)
    values = dict(params)
    if "kind" in values:
        values["kind_label"] = kinds.get(values["kind"], values.get("kind_label", values["kind"]))
    if "core_kind" in values:
        values["core_kind_label"] = kinds.get(values["core_kind"], values.get("core_kind_label", values["core_kind"]))
    if values.get("edition") in EDITION_LABELS:
        values["edition_label"] = EDITION_LABELS[values["edition"]]
    if "role" in values:
        values["role_label"] = ROLE_LABELS.get(values["role"], values.get("role_label", values["role"]))
    if values.get("units") in UNIT_LABELS:
        values["units"] = UNIT_LABELS[values["units"]]
    if "allowed_kinds" in values:
        values["allowed"] = _join(_labels(values["allowed_kinds"], kinds), str(_("or")))
    if "quality" in values:
        values["quality"] = qualities.get(values["quality"], values["quality"])
    if "offered_keys" in values:
        values["offered"] = _join(_labels(values["offered_keys"], qualities), str(_("or")))
    if "rank" in values:
        values["rank"] = ranks.get(values["rank"], values["rank"])
    if "rank_keys" in values:
        values["ranks"] = ", ".join(_labels(values["rank_keys"], ranks))
    if "option_names" in values:
        values["options"] = _join([str(name) for name in values["option_names"]], str(_("and")))
    return values


def problem_message(problem: Problem) -> object | None:
    """The translatable sentence for a problem's rule (and reason), or None when there is none."""
    message = MESSAGES.get(problem.rule)
    if message is None and "kind" in problem.params:
        # Limits read from an imported army's data are keyed by the data's own category ids;
        # they say the same sentences as the built-in tables.
        message = {"min": LIMIT_MIN, "max": LIMIT_MAX}.get(problem.rule.rsplit("-", 1)[-1])
    if isinstance(message, dict):
        message = message.get(problem.params.get("reason", ""))
    return message


def display_problem(problem: Problem) -> str:
    """The problem's sentence in the active language; its English message if it cannot be built."""
    language = get_language() or "en"
    if language == "en" or language.startswith("en-"):  # the rules already wrote it in English
        return problem.message
    try:
        message = problem_message(problem)
        if message is None or not problem.params:
            return problem.message
        params = localise_params(problem.params)
        if problem.rule == "points-limit":
            # Thousands grouped as the reader expects: "1,250" would read as 1.25 in French.
            params = {key: _grouped(value) if isinstance(value, int) else value for key, value in params.items()}
        return str(message % params)
    except Exception:  # noqa: BLE001 - a problem must always display; the English sentence is the fallback
        return problem.message


def _grouped(value: int) -> str:
    """1250 as "1,250" in English, "1 250" (narrow no-break space) in French, "1.250" in German."""
    language = get_language() or "en"
    if language.startswith("fr"):
        return f"{value:,}".replace(",", "\u202f")
    return number_format(value, force_grouping=True)

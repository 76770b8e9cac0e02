"""The combat calculator pages: shooting, anti-tank fire, order tests, close quarters and order dice.

Each page is a GET form whose query string is the whole state. The full page renders the result from
the query string (so it works without JavaScript and a result URL can be shared); htmx requests get
the ``#result`` fragment, or ``#resolver`` (form and result) when the form itself must change: another
edition's weapons, an extra weapon row, a target taken from a list. Field errors travel with the
``#result`` fragment as out-of-band swaps, so the inputs being typed in are never replaced.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any
from urllib.parse import urlencode

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, gettext_noop, ngettext
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers
from django_htmx.http import push_url

from armybuilder.catalogue.models import OfficerRank
from armybuilder.http import HtmxHttpRequest
from armybuilder.lists.access import get_list_for_user, lists_for_user
from armybuilder.lists.models import Entry
from armybuilder.reference.models import Weapon as WeaponRow
from armybuilder.resolver import adapters, forms, national_rules
from armybuilder.resolver.charts import Bar, Chart, bar_chart, bars_from_pmf, decimal, percent, to_fraction
from armybuilder.resolver.errors import display_error
from armybuilder.resolver.modifiers import modifier_name
from rules.combat import api as engine
from rules.combat import national
from rules.combat.config import RulesConfig, config_for
from rules.combat.context import BASE_MORALE, DAMAGE_VALUE
from rules.combat.dice import p_at_least
from rules.combat.results import (
    AntiTankResult,
    CloseQuartersOdds,
    GroupInfo,
    OrderDiceOdds,
    OrderTestOdds,
    RangingOdds,
    ShootingResult,
    Unverified,
)
from rules.combat.results import Roll as NeedRoll
from rules.combat.tank_assault import TankAssaultResult
from rules.errors import RulesError

FRAGMENTS = ("result", "resolver")

SWITCH_LABELS = {
    "seven_plus": gettext_lazy("Needing 7+ to hit (a 6, then a 6)"),
    "nat1_always_fails": gettext_lazy("A natural 1 always fails"),
    "exceptional_damage": gettext_lazy("Exceptional damage"),
    "morale_check_trigger": gettext_lazy("When a morale check is forced (half strength)"),
    "morale_cap": gettext_lazy("Highest morale after modifiers"),
    "officer_bonuses": gettext_lazy("Officer morale bonus"),
    "building_extra_protection": gettext_lazy("Building extra protection"),
    "gun_shield_dv": gettext_lazy("Gun shield"),
    "side_pen": gettext_lazy("Side armour bonus"),
    "rear_pen": gettext_lazy("Rear armour bonus"),
    "top_pen": gettext_lazy("Top armour bonus"),
    "he_pins": gettext_lazy("HE pins"),
    "he_down_rounding": gettext_lazy("HE hits on a Down unit (rounding)"),
    "he_hits_mode": gettext_lazy("HE hits rolled by class"),
    "he_multi_hit_pins": gettext_lazy("Pins from several HE hits"),
    "mixed_fire_pins": gettext_lazy("Pins when weapon types are mixed"),
    "flamer_hits": gettext_lazy("Flamethrower hits"),
    "flamer_pins": gettext_lazy("Flamethrower pins"),
    "flamer_ignores_to_hit_mods": gettext_lazy("Flamethrowers ignore to-hit modifiers"),
    "flamer_forced_morale": gettext_lazy("Flamethrower forced morale check"),
    "flamer_vs_vehicle": gettext_lazy("Flamethrowers against vehicles"),
    "vehicle_tables": gettext_lazy("Vehicle damage tables"),
    "superficial_mode": gettext_lazy("Superficial damage"),
    "superficial_above_six": gettext_lazy("Superficial results above 6"),
    "pin_on_no_effect": gettext_lazy("A hit with no effect still pins"),
    "soft_skin_destroyed_when_damaged": gettext_lazy("Soft-skins destroyed when damaged"),
    "fixed_fires_on_advance": gettext_lazy("Fixed weapons firing on Advance"),
    "cq_first_round_defensive": gettext_lazy("First round against a defensive position"),
    "cq_later_rounds": gettext_lazy("Later close-quarters rounds"),
    "tough_fighters": gettext_lazy("Tough Fighters"),
}


# --- presentation -------------------------------------------------------------------------------


@dataclass(frozen=True)
class Stat:
    """One headline figure: a probability shown as a percentage, or a mean shown as a decimal."""

    label: str
    value: Fraction
    is_probability: bool = True
    note: str = ""

    @property
    def display(self) -> str:
        return percent(self.value) if self.is_probability else decimal(self.value)

    @property
    def exact(self) -> str:
        return str(self.value)


@dataclass(frozen=True)
class Roll:
    """A roll's required score and what produced it, e.g. base 3+, long range −1, soft cover −1 → 5+."""

    label: str
    start: str
    modifiers: tuple[tuple[str, str], ...]
    need: str
    chance: Fraction | None

    @property
    def chance_display(self) -> str:
        return "" if self.chance is None else percent(self.chance)


@dataclass
class Result:
    stats: list[Stat] = field(default_factory=list)
    charts: list[Chart] = field(default_factory=list)
    rows: list[dict[str, Any]] = field(default_factory=list)
    unverified: list[tuple[str, str]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    readings: list[str] = field(default_factory=list)  # Muster's own readings [R], folded away on the page


def _signed(value: int) -> str:
    return f"+{value}" if value > 0 else f"−{abs(value)}"


def _need_text(need: int, *, to_hit: bool = False) -> str:
    if need <= 1:
        return _("2+ (a 1 always fails)")
    if need > 6:
        return (
            _("%(need)s+ (a 6, then another 6)") % {"need": need}
            if to_hit
            else _("%(need)s+: cannot harm") % {"need": need}
        )
    return f"{need}+"


def _roll(label: str, block: NeedRoll, start: int, start_label: str, *, to_hit: bool = False) -> Roll:
    """Modifiers are signed contributions to the roll (Pen +1 lowers the score needed by one)."""
    return Roll(
        label=label,
        start=f"{start_label} {start}+",
        modifiers=tuple((modifier_name(name), _signed(value) if value else "") for name, value in block.modifiers),
        need=_need_text(block.need, to_hit=to_hit),
        chance=to_fraction(block.p),
    )


# The figure an unverified rule could move, as the badge names it.
FIGURES = {
    "casualties": gettext_lazy("the casualties"),
    "pins": gettext_lazy("the pins"),
    "hits": gettext_lazy("the hits"),
    "p_destroyed": gettext_lazy("the chance the unit is destroyed"),
    "p_check": gettext_lazy("the chance of a morale check"),
    "p_knocked_out": gettext_lazy("the chance of a knock-out"),
    "p_immobilised": gettext_lazy("the chance it is immobilised"),
    "p_pin_rout": gettext_lazy("the chance the crew flees"),
    "p_exceptional": gettext_lazy("the chance of exceptional damage"),
    "p_pass": gettext_lazy("the chance the order is given"),
    "outcome": gettext_lazy("the outcome of the fight"),
}


def _unverified(details: Iterable[Unverified]) -> list[tuple[str, str]]:
    """(switch, "rule: how much it could change the answer") for each badge worth showing."""
    out = []
    for d in details:
        label = SWITCH_LABELS.get(d.switch, d.switch.replace("_", " ").capitalize())
        if d.swing is None:
            effect = _("could change this answer; by how much is not known")
        else:
            effect = _("could move %(figure)s by up to %(points)s percentage points") % {
                "figure": FIGURES.get(d.figure, d.figure),
                "points": decimal(d.swing * 100, 1),
            }
        out.append((d.switch, _("%(rule)s: %(effect)s") % {"rule": label, "effect": effect}))
    return out


def _hits(n: int) -> str:
    return ngettext("%(n)s hit", "%(n)s hits", n) % {"n": n}


def _pins(n: int) -> str:
    return ngettext("%(n)s pin", "%(n)s pins", n) % {"n": n}


def _casualties(n: int) -> str:
    return ngettext("%(n)s casualty", "%(n)s casualties", n) % {"n": n}


def _damage_names() -> dict[str, str]:
    """The vehicle damage chart's results, in the visitor's language (shooting, anti-tank, assault)."""
    return {
        "none": _("No effect"),
        "superficial": _("Superficial"),
        "full": _("Full damage"),
        "massive": _("Massive damage"),
    }


def _vehicle_stats(outcome: Any, *more: Stat) -> list[Stat]:
    """A vehicle's fate first (knocked out; its crew fleeing, when pins can reach its morale;
    immobilised), then the attack's own figures. ``outcome`` has ``p_knocked_out``,
    ``p_immobilised`` and ``p_pin_rout``: the shooting's vehicle part or the anti-tank result."""
    stats = [Stat(_("Knocked out"), to_fraction(outcome.p_knocked_out))]
    if to_fraction(outcome.p_pin_rout):
        stats.append(
            Stat(
                _("Crew flees (pins reach morale)"),
                to_fraction(outcome.p_pin_rout),
                note=_("destroyed before it can be knocked out"),
            )
        )
    return [*stats, Stat(_("Immobilised (not knocked out)"), to_fraction(outcome.p_immobilised)), *more]


def _prob_bars(pairs: Sequence[tuple[str, object]]) -> list[Bar]:
    return [Bar(label, to_fraction(p)) for label, p in pairs]


# --- request plumbing ---------------------------------------------------------------------------


def _render(
    request: HtmxHttpRequest, template: str, context: dict[str, Any], state: Mapping[str, Any] | None = None
) -> HttpResponse:
    """The full page, or the fragment the htmx request targets (``#resolver`` or, by default, ``#result``).

    When the form itself is re-rendered, the address bar gets ``state`` (the form's data after any
    prefill) rather than the request's query, so copying the URL copies what is on screen.
    """
    if not request.htmx or request.htmx.history_restore_request:
        return render(request, template, context)
    target = request.htmx.target if request.htmx.target in FRAGMENTS else "result"
    context["oob"] = target == "result"
    response = render(request, f"{template}#{target}", context)
    if target == "resolver" and state is not None:
        push_url(response, f"{request.path}?{urlencode(state)}")
    return response


def _entry_for_user(request: HttpRequest, raw: str) -> Entry:
    """A list entry the visitor may see (their own list, or one in their session), else 404."""
    try:
        pk = int(raw)
    except (TypeError, ValueError):
        raise Http404("No such unit") from None
    entry = get_object_or_404(
        Entry.objects.select_related("unit", "army_list__edition", "army_list__army").prefetch_related(
            "army_list__army__national_rules",
            "unit__special_rules",
            "unit__weapons__special_rules",
            "unit__options__grants_weapon__special_rules",
            "unit__options__replaces_weapon",
        ),
        pk=pk,
    )
    get_list_for_user(request, entry.army_list_id)
    return entry


def _target_entries(request: HttpRequest) -> list[Entry]:
    """Every unit of the visitor's active lists, for the target chooser."""
    lists = lists_for_user(request).active()
    return list(
        Entry.objects.filter(army_list__in=lists)
        .select_related("unit", "army_list__edition")
        .prefetch_related("unit__options")  # their teams' models (``Entry.total_models``)
        .order_by("army_list__name", "army_list_id", "position", "pk")[:300]
    )


def _edition(data: Mapping[str, Any]) -> str:
    """The requested edition if it exists, else the newest one (the form reports the bad value)."""
    choices = {slug for slug, _ in forms.edition_choices()}
    value = data.get("edition")
    return value if value in choices else forms.default_edition()


def _error_fields(form: Any, groups: Sequence[Any] = ()) -> list[Any]:
    """Every bound field, so the result fragment can refresh each field's error slot out of band."""
    fields = [form[name] for name in form.fields if not form.fields[name].widget.is_hidden]
    for group in groups:
        fields.extend(group[name] for name in group.fields)
    return fields


def _weapon_names(weapons: Iterable[WeaponRow]) -> dict[str, str]:
    """Weapon names in the active language, by slug, for the engine's errors that name a weapon."""
    return {w.slug: w.display_name for w in weapons}


def firer_is_vehicle(cd: Mapping[str, Any]) -> bool:
    """The firer is a vehicle: its box is ticked, or its gun is gyro-stabilised (only a vehicle's is)."""
    return bool(cd.get("firer_vehicle") or cd.get("gyro"))


def _common(page: str, title: str) -> dict[str, Any]:
    return {"page": page, "page_title": title}


# --- pages --------------------------------------------------------------------------------------


@require_safe
def index(request: HtmxHttpRequest) -> HttpResponse:
    return render(request, "resolver/index.html", _common("index", _("Combat odds")))


@require_safe
@vary_on_headers("HX-Request")
def shooting(request: HtmxHttpRequest) -> HttpResponse:
    query = request.GET
    firer = None
    national_defaults: dict[str, str] = {}
    if query.get("from_entry"):
        entry = _entry_for_user(request, query["from_entry"])
        firer = adapters.firer_from_entry(entry)
        national_defaults = national_rules.entry_prefill(entry)
    edition = firer.edition if firer else None
    defaults = forms.shooting_defaults(edition or _edition(query))
    if firer:
        defaults = {k: v for k, v in defaults.items() if not k.startswith("g")}
        defaults["firer_quality"] = firer.quality
        defaults.update(national_defaults)
        for i, group in enumerate(firer.groups[: forms.MAX_GROUP_ROWS]):
            defaults.update(
                {f"g{i}-weapon": group.weapon, f"g{i}-models": str(group.models), f"g{i}-range": group.band}
            )
    data = forms.bind(defaults, {k: v for k, v in query.items() if k not in ("from_entry", "add_group")})
    rows = forms.group_rows(data, add="add_group" in query)
    for i in range(rows):
        data.setdefault(f"g{i}-range", "normal")

    target = None
    if data.get("target_entry"):
        entry = _entry_for_user(request, data["target_entry"])
        target = adapters.target_from_entry(entry)
        if data.get("target_loaded") != data["target_entry"]:
            # Newly chosen: the unit fills the target fields; later edits (casualties taken) stand.
            data.update(
                target_kind=target.kind,
                target_quality=target.quality,
                target_models=str(target.models),
                damage_value="" if target.damage_value is None else str(target.damage_value),
                target_loaded=data["target_entry"],
            )
            data.update(national_rules.target_prefill(entry))

    edition = _edition(data)
    weapons = adapters.weapons_for_edition(edition)
    form = forms.ShootingForm(data, weapons=weapons, rows=rows)
    result = None
    groups_error = None
    if form.is_valid() and all(g.is_valid() for g in form.groups):
        groups_error = form.groups_error()
    if form.all_valid():
        try:
            result = _shooting_result(form, {w.slug: w for w in weapons})
        except RulesError as exc:
            groups_error = display_error(exc, _weapon_names(weapons))

    context = _common("shooting", _("Shooting"))
    context.update(
        form=form,
        result=result,
        groups_error=groups_error,
        firer=firer,
        target=target,
        target_choices=adapters.entry_choices(_target_entries(request)),
        error_fields=_error_fields(form, form.groups),
        can_add_row=rows < forms.MAX_GROUP_ROWS,
    )
    return _render(request, "resolver/shooting.html", context, state=data)


def _shooting_result(form: forms.ShootingForm, weapons: Mapping[str, WeaponRow]) -> Result:
    cd = form.cleaned_data
    used = form.used_groups()
    target = engine.TargetInput(
        kind=cd["target_kind"],
        quality=cd["target_quality"],
        models=cd["target_models"],
        cover=cd["cover"],
        down=cd["down"],
        damage_value=cd["damage_value"],
        facing=cd["facing"],
        gun_shield=cd["gun_shield"],
        starting_models=cd.get("target_starting"),
    )
    # The armies' national rules adjust the inputs before the exact engine (rules.combat.national).
    prepared = national.prepare_shooting(
        cd["edition"],
        cd.get("army") or "",
        cd.get("target_army") or "",
        [_group_input(g, weapons[g["weapon"]]) for g in used],
        target,
        quality=cd["firer_quality"],
        order=cd["order"],
        gyro=bool(cd.get("gyro")),
        fire_and_manoeuvre=bool(cd.get("fire_and_manoeuvre")),
        target_gain=cd.get("target_unit_rule") or "",
    )
    raw = engine.shooting(
        cd["edition"],
        order=cd["order"],
        firer_quality=cd["firer_quality"],
        firer_pins=cd["firer_pins"],
        groups=prepared.groups,
        target=prepared.target,
        d2_pins=prepared.d2_pins,
        vehicle=firer_is_vehicle(cd),
    )
    result = present_shooting(raw, cd, [weapons[g["weapon"]] for g in used], used)
    names = [weapons[g["weapon"]].display_name for g in used]
    result.notes[:0] = national_rules.shooting_notes(prepared, names)
    if cd.get("army") and not national.rules_of(cd["edition"], cd["army"]):
        result.notes.insert(0, _("No national rules of this army are modelled for this edition."))
    if (cd.get("fire_and_manoeuvre") or cd.get("target_unit_rule")) and not national.unit_bonus(
        cd["edition"], cd.get("target_unit_rule") or "fire_and_manoeuvre"
    ):
        result.notes.append(_("The Italian bonus is not modelled for this edition."))
    return result


def _group_input(group: Mapping[str, Any], row: WeaponRow) -> engine.ShotGroupInput:
    """A cleaned group row as the engine's input: the shell, the template count and indirect fire."""
    fire = group.get("fire") or ""
    return engine.ShotGroupInput(
        adapters.to_rules_weapon(row),
        group["models"],
        group["range"],
        models_under_template=group.get("template"),
        ammo=group.get("ammo") or "auto",
        indirect=None if not fire else fire != "direct",
        ranging_attempt=int(fire) if fire.isdigit() else 1,
        zeroed=fire == "zeroed",
    )


def _group_subtitle(band: str, dice: str, raw_group: GroupInfo, flamer_hits: str = "") -> str:
    count = int(dice) if dice.isdigit() else 2
    parts = [ngettext("%(band)s · %(dice)s die", "%(band)s · %(dice)s dice", count) % {"band": band, "dice": dice}]
    if flamer_hits:
        parts.append(_("%(dice)s hits when it hits") % {"dice": flamer_hits})
    if raw_group.kind == "he":
        parts.append(_("HE"))
    if raw_group.template is not None:
        parts.append(
            ngettext("%(n)s model under each template", "%(n)s models under each template", raw_group.template)
            % {"n": raw_group.template}
        )
    if raw_group.indirect:
        parts.append(_("indirect fire"))
    return " · ".join(parts)


def _flamer_hits(cfg: RulesConfig, row: WeaponRow, kind: str) -> str:
    """A flamethrower's hit dice against men (D6, or D6+1 from a vehicle [notes §17]); "" otherwise."""
    weapon = adapters.to_rules_weapon(row)
    if not weapon.flamethrower or kind not in ("infantry", "artillery"):
        return ""
    return cfg.flamer_hits_vehicle_mounted if weapon.vehicle_mounted else cfg.flamer_hits


def present_shooting(
    raw: ShootingResult, cd: Mapping[str, Any], rows: Sequence[WeaponRow], groups: Sequence[Mapping[str, Any]]
) -> Result:
    cfg = config_for(cd["edition"])
    band_labels = dict(forms.BAND_CHOICES)
    kind = raw.target_kind
    result = Result(unverified=_unverified(raw.unverified_detail))
    target_dv = engine.TargetInput(
        kind=kind,
        quality=cd["target_quality"],
        models=1 if kind in ("soft_skin", "armoured") else cd["target_models"],
        damage_value=cd["damage_value"],
    ).dv
    for i, (row, group) in enumerate(zip(rows, groups, strict=True)):
        hit = raw.need_to_hit[i]
        dmg = raw.need_to_damage[i]
        save = raw.save[i] if raw.save else None
        dice = raw.groups[i].dice
        pmf = {int(k): to_fraction(v) for k, v in dice.pmf.items() if to_fraction(v)}
        dice_text = str(next(iter(pmf))) if len(pmf) == 1 else _("%(mean)s on average") % {"mean": decimal(dice.mean)}
        hit_roll = _roll(_("To hit"), hit, cfg.base_to_hit, _("base"), to_hit=True)
        if raw.groups[i].indirect:
            hit_roll = replace(hit_roll, start="")  # the ranging-in ladder replaces the base and modifiers
        dmg_roll = _roll(_("To damage"), dmg, target_dv, _("target"))
        save_roll = None if save is None else Roll(_("Cover save"), "", (), _need_text(save.need), to_fraction(save.p))
        result.rows.append(
            {
                "title": f"{group['models']} × {row.display_name}",
                "subtitle": _group_subtitle(
                    band_labels[group["range"]], dice_text, raw.groups[i], _flamer_hits(cfg, row, kind)
                ),
                "rolls": [r for r in (hit_roll, dmg_roll, save_roll) if r is not None],
            }
        )
    if all(block.need > 6 for block in raw.need_to_damage):
        result.notes.append(_("None of these weapons can damage this target."))
    if kind == "armoured":
        vehicle = raw.vehicle
        result.stats = _vehicle_stats(
            vehicle,
            Stat(_("Pinned"), to_fraction(raw.p_pin)),
            Stat(_("Hits (average)"), to_fraction(raw.hits.mean), is_probability=False),
        )
        names = _damage_names()
        result.charts = [
            bar_chart(
                _("Best damage result"),
                _prob_bars([(names[c], p) for c, p in vehicle.categories.items()]),
                trim=False,
            ),
            bar_chart(_("Pins added"), bars_from_pmf(raw.pins.pmf, _pins)),
            bar_chart(_("Hits"), bars_from_pmf(raw.hits.pmf, _hits)),
        ]
        return result
    if kind == "soft_skin":
        result.stats = [
            Stat(_("Destroyed"), to_fraction(raw.p_destroyed)),
            Stat(_("Pinned"), to_fraction(raw.p_pin)),
            Stat(_("Hits (average)"), to_fraction(raw.hits.mean), is_probability=False),
        ]
        result.charts = [bar_chart(_("Hits"), bars_from_pmf(raw.hits.pmf, _hits))]
        return result
    casualties = raw.casualties
    cas_pmf = {int(k): to_fraction(v) for k, v in casualties.pmf.items()}
    morale = raw.morale or {}
    result.stats = [
        Stat(_("Pinned"), to_fraction(raw.p_pin)),
        Stat(_("At least one casualty"), 1 - cas_pmf.get(0, Fraction(0))),
        Stat(_("Casualties (average)"), to_fraction(casualties.mean), is_probability=False),
        Stat(_("Hits (average)"), to_fraction(raw.hits.mean), is_probability=False),
    ]
    if morale:
        result.stats.append(
            Stat(
                _("Unit destroyed"),
                to_fraction(morale.p_destroyed),
                note=_("wiped out, or broken by the morale check that follows"),
            )
        )
        result.stats.append(Stat(_("Morale check forced"), to_fraction(morale.p_check)))
    if raw.p_exceptional is not None:
        result.stats.append(Stat(_("Exceptional damage"), to_fraction(raw.p_exceptional)))
    result.charts = [
        bar_chart(_("Casualties"), bars_from_pmf(casualties.pmf, _casualties)),
        bar_chart(_("Hits"), bars_from_pmf(raw.hits.pmf, _hits)),
    ]
    if any(int(k) > 1 for k, v in raw.pins.pmf.items() if to_fraction(v)):
        result.charts.append(bar_chart(_("Pins added"), bars_from_pmf(raw.pins.pmf, _pins)))
    if raw.firer_pins_added:
        result.notes.append(_("The firers take %(n)s pin(s) for firing a flamethrower.") % {"n": raw.firer_pins_added})
    return result


@require_safe
@vary_on_headers("HX-Request")
def anti_tank(request: HtmxHttpRequest) -> HttpResponse:
    if request.GET.get("mode") == forms.ASSAULT_MODE:
        return _tank_assault(request)
    data = forms.bind(forms.anti_tank_defaults(_edition(request.GET)), request.GET.dict())
    edition = _edition(data)
    weapons = adapters.weapons_for_edition(edition)
    form = forms.AntiTankForm(data, weapons=weapons)
    result = None
    error = None
    if form.is_valid():
        cd = form.cleaned_data
        row = next(w for w in weapons if w.slug == cd["weapon"])
        # Each shot is one die here, so only the national rules on the moving penalty and the pen roll act.
        steady = national.adjust_group(
            cd["edition"],
            cd.get("army") or "",
            adapters.to_rules_weapon(row),
            quality=cd["firer_quality"],
            order=cd["order"],
            gyro=bool(cd.get("gyro")),
            at_vehicle=True,
        )
        moving = tuple(a for a in steady.applied if a.change in ("moving", "pen"))
        try:
            raw = engine.anti_tank(
                cd["edition"],
                steady_on_move=steady.steady_on_move,
                reroll_failed_pen=steady.reroll_failed_pen,
                weapon=adapters.to_rules_weapon(row),
                damage_value=cd["damage_value"],
                shots=cd["shots"],
                facing=cd["facing"],
                band=cd["range"],
                order=cd["order"],
                firer_quality=cd["firer_quality"],
                firer_pins=cd["firer_pins"],
                vehicle=firer_is_vehicle(cd),
                anti_tank_gun=adapters.is_anti_tank_gun(row),
                vehicle_quality=cd["target_quality"],
                pins=cd["target_pins"],
                cover=cd["cover"],
                open_topped=cd["open_topped"],
                has_turret=not cd["no_turret"],
                slow=cd["slow"],
                carries_flamer=cd["carries_flamer"],
            )
            result = present_anti_tank(raw, cd)
            result.notes[:0] = national_rules.applied_notes([(row.display_name, moving)])
        except RulesError as exc:
            error = display_error(exc, _weapon_names(weapons))
    context = _common("anti-tank", _("Anti-tank fire"))
    context.update(form=form, result=result, error=error, error_fields=_error_fields(form), mode="fire")
    return _render(request, "resolver/anti_tank.html", context, state=data)


def _tank_assault(request: HtmxHttpRequest) -> HttpResponse:
    """The anti-tank page's second mode: infantry assaulting a vehicle (``rules.combat.tank_assault``)."""
    data = forms.bind(forms.tank_assault_defaults(_edition(request.GET)), request.GET.dict())
    form = forms.TankAssaultForm(data)
    result = None
    error = None
    if form.is_valid():
        cd = form.cleaned_data
        try:
            raw, notes = national_rules.tank_assault(cd)
            result = present_tank_assault(raw, cd, national_rules.vehicle_assault(cd))
            result.notes[:0] = notes
        except RulesError as exc:
            error = display_error(exc)
    context = _common("anti-tank", _("Infantry assault on a vehicle"))
    context.update(form=form, result=result, error=error, error_fields=_error_fields(form), mode="assault")
    return _render(request, "resolver/anti_tank.html", context, state=data)


# Muster's readings where the sources are silent (``rules.combat.tank_assault.READINGS``), as the page
# words them.
ASSAULT_READINGS = {
    "pen_given": gettext_lazy(
        "The Pen of an assault on a vehicle is not in Muster's sources: give your book's (the form starts at "
        "+2, Muster's assumption)."
    ),
    "one_attack_per_man": gettext_lazy(
        "One attack per man (2nd edition: read from Tough Tank Hunters, who make two each; 3rd edition "
        "assumed the same). Medium confidence."
    ),
    "no_hit_pin": gettext_lazy("A hit places no pin of its own: only its damage results pin the vehicle."),
    "no_facing": gettext_lazy("No side, rear or top armour bonus: the Pen given is the whole bonus."),
    "one_round": gettext_lazy("The vehicle does not strike back: these are the odds of one round of attacks."),
    "vehicle_assault_check": gettext_lazy(
        "A vehicle assaulting this unit: Muster reads the unit's morale check as a plain one (2D6, its morale "
        "less its pins, with the officer's bonus); the sources hold no vehicle-assault rules, and what a failed "
        "check does is in your rulebook."
    ),
    "to_hit_from_3e": gettext_lazy("To hit on a 6 or 4+ is the 3rd-edition sheet's, assumed for this edition."),
    "tank_fear_from_3e": gettext_lazy(
        "The −3 of the Tank Fear test is the 3rd-edition sheet's, assumed for this edition (2nd edition "
        "sources only say a test is taken)."
    ),
}


def present_tank_assault(
    raw: TankAssaultResult,
    cd: Mapping[str, Any],
    vehicle_check: tuple[int, Fraction, national.Applied | None] | None = None,
) -> Result:
    """The assault's odds; ``vehicle_check``: the other way round, the unit's morale check when a vehicle
    assaults it (its morale, the chance to pass, the rule that passes it) [R]."""
    names = _damage_names()
    result = Result()
    fear = raw.tank_fear
    if fear is not None:
        result.stats = [
            Stat(_("Knocked out (Tank Fear test included)"), raw.p_knocked_out_overall),
            Stat(_("Assault goes in (Tank Fear test passed)"), raw.p_assault),
            Stat(_("Knocked out if the assault goes in"), raw.p_knocked_out),
        ]
    else:
        result.stats = [Stat(_("Knocked out"), raw.p_knocked_out)]
    if raw.resolution != "destroyed_if_damaged":
        result.stats.append(Stat(_("Immobilised (not knocked out)"), raw.p_immobilised))
        if raw.p_pin_rout:
            result.stats.append(
                Stat(
                    _("Crew flees (pins reach morale)"),
                    raw.p_pin_rout,
                    note=_("destroyed before it can be knocked out"),
                )
            )
    result.stats.append(Stat(_("Hit (each attack)"), raw.p_hit))
    if raw.resolution != "destroyed_if_damaged":
        result.stats.append(Stat(_("Pins added (average)"), raw.pins.mean, is_probability=False))
    to_hit_reason = _("the vehicle has an Advance order") if raw.need_to_hit == 6 else _("no Advance order")
    rolls = [
        Roll(_("To hit"), to_hit_reason, (), f"{raw.need_to_hit}+", raw.p_hit),
        Roll(
            _("To penetrate"),
            f"{_('armour')} {raw.damage_value}+",
            ((_("Pen"), _signed(raw.pen) if raw.pen else ""),),
            _need_text(raw.need_to_damage),
            raw.p_damage,
        ),
    ]
    result.rows = [
        {
            "title": _("Each attack"),
            "subtitle": ngettext("%(n)s attack, one per man", "%(n)s attacks, one per man", raw.attacks)
            % {"n": raw.attacks},
            "rolls": rolls,
        }
    ]
    if fear is not None:
        if raw.tank_fear_passed:
            test = Roll(_("Order test"), _("Banzai Charge"), (), _("passed without a roll"), raw.p_assault)
        else:
            test = Roll(_("Order test"), "", (), _("2D6 ≤ %(m)s") % {"m": fear.morale}, fear.p_pass)
        result.rows.append(
            {
                "title": _("Tank Fear order test"),
                "subtitle": _("no anti-tank weapons against an enclosed armoured vehicle: −3"),
                "rolls": [test],
            }
        )
    if vehicle_check is not None:
        morale, p_pass, rule = vehicle_check
        result.stats.append(
            Stat(
                _("Morale check passed if a vehicle assaults this unit"),
                p_pass,
                note=_("passed without a roll: %(rule)s") % {"rule": national_rules.rule_name(rule)}
                if rule
                else _("failing: see your rulebook [R]"),
            )
        )
        if rule:
            check = Roll(_("Morale check"), national_rules.rule_name(rule), (), _("passed without a roll"), p_pass)
        else:
            check = Roll(_("Morale check"), "", (), _("2D6 ≤ %(m)s") % {"m": morale}, p_pass)
        result.rows.append(
            {
                "title": _("Vehicle assaults infantry"),
                "subtitle": _("the unit's morale check (quality, pins and officer above) when a tank assaults it"),
                "rolls": [check],
            }
        )
    how = {
        "destroyed_if_damaged": _("A soft-skin or open-topped vehicle is destroyed by any damage."),
        "superficial_only": _(
            "Without anti-tank weapons every damaging hit counts as superficial damage on the damage results table."
        ),
        "damage_table": _(
            "With anti-tank weapons (Tank Hunters) a damaging hit rolls on the damage results table as a normal "
            "penetration."
        ),
    }[raw.resolution]
    result.notes.append(how)
    result.readings = [str(ASSAULT_READINGS[code]) for code in raw.readings]
    if raw.resolution == "destroyed_if_damaged":
        bars = [(names["none"], raw.categories["none"]), (_("Damaged: destroyed"), raw.p_damage)]
    else:
        bars = [(names[c], p) for c, p in raw.categories.items()]
    result.charts = [bar_chart(_("Damage result of a hit"), _prob_bars(bars), trim=False)]
    if raw.resolution != "destroyed_if_damaged":
        result.charts.append(bar_chart(_("Pins added"), bars_from_pmf(raw.pins.pmf, _pins)))
    return result


def present_anti_tank(raw: AntiTankResult, cd: Mapping[str, Any]) -> Result:
    cfg = config_for(cd["edition"])
    names = _damage_names()
    result = Result(unverified=_unverified(raw.unverified_detail))
    result.stats = _vehicle_stats(
        raw,
        Stat(_("Hit (each shot)"), to_fraction(raw.p_hit)),
        Stat(_("Pins added (average)"), to_fraction(raw.pins.mean), is_probability=False),
    )
    result.rows = [
        {
            "title": _("Each shot"),
            "subtitle": "",
            "rolls": [
                _roll(_("To hit"), raw.need_to_hit, cfg.base_to_hit, _("base"), to_hit=True),
                _roll(_("To penetrate"), raw.need_to_damage, cd["damage_value"], _("armour")),
            ],
        }
    ]
    result.charts = [
        bar_chart(
            _("Damage result of a hit"),
            _prob_bars([(names[c], p) for c, p in raw.categories.items()]),
            trim=False,
        ),
        bar_chart(_("Pins added"), bars_from_pmf(raw.pins.pmf, _pins)),
    ]
    if len(raw.by_shot) > 1:
        result.charts.insert(
            1,
            bar_chart(
                _("Knocked out after each shot"),
                _prob_bars([(_("shot %(n)s") % {"n": s.shot}, s.p_knocked_out) for s in raw.by_shot]),
                trim=False,
            ),
        )
    return result


@require_safe
@vary_on_headers("HX-Request")
def order_test(request: HtmxHttpRequest) -> HttpResponse:
    data = forms.bind(forms.order_test_defaults(_edition(request.GET)), request.GET.dict())
    ranks = _officer_ranks(_edition(data))
    form = forms.OrderTestForm(data, officer_ranks=ranks)
    result = None
    error = None
    if form.is_valid():
        cd = form.cleaned_data
        try:
            # The national rules change the test's inputs or its roll (armybuilder.resolver.national_rules).
            raw, notes = national_rules.order_test(cd)
            result = present_order_test(raw, cd)
            result.notes[:0] = notes
        except RulesError as exc:
            error = display_error(exc)
    context = _common("order-test", _("Order test"))
    context.update(form=form, result=result, error=error, error_fields=_error_fields(form))
    return _render(request, "resolver/order_test.html", context, state=data)


@require_safe
@vary_on_headers("HX-Request")
def order_dice(request: HtmxHttpRequest) -> HttpResponse:
    data = forms.bind(forms.order_dice_defaults(_edition(request.GET)), request.GET.dict())
    form = forms.OrderDiceForm(data)
    result = ranging = None
    error = None
    if form.is_valid():
        cd = form.cleaned_data
        try:
            bag = engine.order_dice(own=cd["own_dice"], enemy=cd["enemy_dice"], draws=cd["draws"])
            ladder = engine.ranging_in(cd["edition"], turns=cd["turns"])
            result = present_order_dice(bag, cd)
            ranging = present_ranging_in(ladder)
        except RulesError as exc:
            error = display_error(exc)
    context = _common("order-dice", _("Order dice and ranging in"))
    context.update(form=form, result=result, ranging=ranging, error=error, error_fields=_error_fields(form))
    return _render(request, "resolver/order_dice.html", context, state=data)


def present_order_dice(raw: OrderDiceOdds, cd: Mapping[str, Any]) -> Result:
    draws = cd["draws"]
    own_pmf = {int(k): to_fraction(v) for k, v in raw.own_dice.items()}
    result = Result()
    result.stats = [
        Stat(_("Next die is yours"), to_fraction(raw.p_next)),
        Stat(
            ngettext("One of yours in the next draw", "At least one of yours in the next %(n)s draws", draws)
            % {"n": draws},
            to_fraction(raw.p_at_least_one),
        ),
        Stat(_("Your dice among them (average)"), sum((k * v for k, v in own_pmf.items()), Fraction(0)), False),
    ]
    result.notes = [
        _("%(own)s of your dice and %(enemy)s enemy dice in the bag, drawn blind and not put back.")
        % {"own": cd["own_dice"], "enemy": cd["enemy_dice"]}
    ]
    result.charts = [
        bar_chart(
            ngettext("Your dice in the next draw", "Your dice in the next %(n)s draws", draws) % {"n": draws},
            bars_from_pmf(own_pmf, lambda n: ngettext("%(n)s of yours", "%(n)s of yours", n) % {"n": n}),
            trim=False,
        )
    ]
    return result


def present_ranging_in(raw: RangingOdds) -> Result:
    by_turn = [to_fraction(p) for p in raw.p_first_hit_by_turn]
    turns = len(by_turn)
    result = Result()
    result.stats = [
        Stat(_("Hit on the first turn"), by_turn[0], note=_("needs a 6")),
        Stat(ngettext("Hit within %(n)s turn", "Hit within %(n)s turns", turns) % {"n": turns}, by_turn[-1]),
    ]
    result.notes = [
        _(
            "Each turn with a Fire order at a target that has not moved, the score needed drops: "
            "6, then 5, 4, 3 and 2. After the first hit the weapon is zeroed and needs 2+."
        )
    ]
    result.rows = [
        {
            "title": _("Ranging in"),
            "subtitle": _("one attempt a turn"),
            "rolls": [
                Roll(_("Turn %(n)s") % {"n": t}, "", (), f"{need}+", to_fraction(p))
                for t, (need, p) in enumerate(zip(raw.need_by_turn, raw.p_by_turn, strict=True), start=1)
            ],
        }
    ]
    result.charts = [
        bar_chart(
            _("First hit by turn"),
            [Bar(_("turn %(n)s") % {"n": t}, p) for t, p in enumerate(by_turn, start=1)],
            trim=False,
        )
    ]
    return result


# The ranks named as the list builder names them: one home for the names (the catalogue's choices).
RANK_NAMES = dict(OfficerRank.choices)


def _officer_ranks(edition: str) -> dict[int, str]:
    """Bonus -> rank names for the edition's officers (3rd edition has two ranks, +2 and +4)."""
    try:
        bonuses = config_for(edition).officer_bonuses
    except RulesError:
        return {}
    ranks: dict[int, list[str]] = {}
    for rank, bonus in bonuses:
        ranks.setdefault(bonus, []).append(str(RANK_NAMES.get(rank, rank)))
    return {bonus: ", ".join(names) for bonus, names in ranks.items()}


def present_order_test(raw: OrderTestOdds, cd: Mapping[str, Any]) -> Result:
    cfg = config_for(cd["edition"])
    base = BASE_MORALE[cd["quality"]]
    result = Result(unverified=_unverified(raw.unverified_detail))
    result.stats = [
        Stat(_("Order given"), to_fraction(raw.p_pass)),
        Stat(_("Fails (FUBAR included)"), to_fraction(raw.p_fail)),
        Stat(_("FUBAR"), to_fraction(raw.p_fubar), note=_("a double six")),
    ]
    if raw.p_double_one is not None:
        result.stats.append(
            Stat(_("Incredible Courage"), to_fraction(raw.p_double_one), note=_("a double one (2nd edition)"))
        )
    if raw.p_man_removed is not None:
        result.stats.append(
            Stat(_("A man removed"), to_fraction(raw.p_man_removed), note=_("to re-take a failed test"))
        )
    mods = [(_("Pins"), _signed(-cd["pins"]))] if cd["pins"] else []
    if cd["officer_bonus"]:
        mods.append((_("Officer"), _signed(cd["officer_bonus"])))
    if cd["modifier"]:
        mods.append((_("Other"), _signed(cd["modifier"])))
    mods.append((_("kept between %(lo)s and %(hi)s") % {"lo": cfg.morale_min, "hi": cfg.morale_cap}, ""))
    result.rows = [
        {
            "title": _("The test"),
            "subtitle": "" if raw.test_needed else _("With no pins no test is needed: the order is simply given."),
            "rolls": [
                Roll(
                    _("Morale"),
                    _("base %(m)s") % {"m": base},
                    tuple(mods),
                    _("%(m)s or less on 2D6") % {"m": raw.morale},
                    to_fraction(raw.p_pass),
                )
            ],
        }
    ]
    result.charts = [
        bar_chart(
            _("Outcome"),
            _prob_bars(
                [
                    (_("Order given"), raw.p_pass),
                    (_("Fails, no FUBAR"), raw.p_fail_not_fubar),
                    (_("FUBAR: friendly fire"), raw.p_fubar_friendly_fire),
                    (_("FUBAR: panic"), raw.p_fubar_panic),
                ]
            ),
            trim=False,
        )
    ]
    return result


@require_safe
@vary_on_headers("HX-Request")
def close_quarters(request: HtmxHttpRequest) -> HttpResponse:
    data = forms.bind(forms.close_quarters_defaults(_edition(request.GET)), request.GET.dict())
    form = forms.CloseQuartersForm(data)
    result = None
    error = None
    if form.is_valid():
        cd = form.cleaned_data
        try:
            raw = engine.close_quarters(
                cd["edition"],
                attacker={
                    "models": cd["attacker_models"],
                    "quality": cd["attacker_quality"],
                    "tough_fighters": cd["attacker_tough"],
                    "tough_as_boots": cd["attacker_boots"],
                    "blood_curdling_charge": cd["attacker_blood"],
                },
                defender={
                    "models": cd["defender_models"],
                    "quality": cd["defender_quality"],
                    "tough_fighters": cd["defender_tough"],
                    "tough_as_boots": cd["defender_boots"],
                    "defensive_position": cd["defensive_position"],
                },
                reaction=_reaction(cd),
            )
            result = present_close_quarters(raw, cd)
        except RulesError as exc:
            error = display_error(exc)
    context = _common("close-quarters", _("Close quarters"))
    context.update(form=form, result=result, error=error, error_fields=_error_fields(form))
    return _render(request, "resolver/close_quarters.html", context, state=data)


def _reaction(cd: Mapping[str, Any]) -> dict[str, int] | None:
    """The reaction fire the form asks for (no shots: none)."""
    if not cd["reaction_shots"]:
        return None
    return {"shots": cd["reaction_shots"], "to_hit": cd["reaction_to_hit"], "attacker_pins": cd["attacker_pins"]}


# The reading Muster takes of the reaction step where the sources are thin [R] (docs/national-rules.md).
REACTION_READING = gettext_noop(
    "Reaction fire [R]: the defenders shoot before the attackers move in, as the close-quarters sequence's "
    "“Target reacts” step allows (in 3rd edition only if the attackers start more than 6″ away; the player "
    "decides). The shots damage on the attackers' damage value (their quality), with no cover save; the "
    "attackers take a pin if hit, and a morale check as after any shooting when they are left with half "
    "their men or fewer (no officer bonus). Wiped out or failing it, they are destroyed and the assault "
    "does not happen: the defenders win."
)


FIRST_ROUND = {
    "attacker_first": gettext_noop("The attacker strikes first, then the survivors strike back."),
    "simultaneous": gettext_noop("Both sides strike at the same time."),
    "defender_first": gettext_noop("The defender strikes first from the defensive position."),
}


TOUGH_FIGHTERS = {
    "extra_attack": gettext_noop("Tough Fighters: an extra attack each"),
    "bonus_roll_on_success": gettext_noop("Tough Fighters: another roll for each casualty"),
    "reroll_failed": gettext_noop("Tough Fighters: failed rolls are re-rolled"),
}


def present_close_quarters(raw: CloseQuartersOdds, cd: Mapping[str, Any]) -> Result:
    cfg = config_for(cd["edition"])
    result = Result(unverified=_unverified(raw.unverified_detail))
    for side, enemy in (("attacker", "defender"), ("defender", "attacker")):
        dice = getattr(raw, f"{side}_dice")
        dv = DAMAGE_VALUE[cd[f"{enemy}_quality"]]
        mods: tuple[tuple[str, str], ...] = ()
        if cd[f"{side}_tough"]:
            mods = ((_(TOUGH_FIGHTERS[cfg.tough_fighters]), ""),)
        if cd[f"{side}_boots"]:
            applied = national.tough_as_boots(cd["edition"], True, cd[f"{side}_quality"])
            if applied is not None:
                rule = national_rules.rule_name(applied)
                mods += ((_("One more die per three men: %(rule)s") % {"rule": rule}, ""),)
            else:
                mods += ((_("Tough as Boots does not act here (Inexperienced men, or this edition)."), ""),)
        title = _("Attacker") if side == "attacker" else _("Defender")
        result.rows.append(
            {
                "title": title,
                "subtitle": ngettext("%(n)s attack", "%(n)s attacks", sum(dice.values())) % {"n": sum(dice.values())},
                "rolls": [
                    Roll(
                        _("To damage"),
                        _("target %(dv)s+") % {"dv": dv},
                        mods,
                        f"{dv}+",
                        p_at_least(dv, cfg.nat1_always_fails),
                    )
                ],
            }
        )
    result.stats = [
        Stat(_("Attacker wins"), to_fraction(raw.p_attacker_wins)),
        Stat(_("Defender wins"), to_fraction(raw.p_defender_wins)),
        Stat(_("Both wiped out"), to_fraction(raw.p_both_destroyed)),
        Stat(_("Rounds (average)"), to_fraction(raw.expected_rounds), is_probability=False),
    ]
    result.notes = [_(FIRST_ROUND.get(raw.first_round, raw.first_round))]
    _present_reaction(result, raw, cd)
    result.charts = [
        bar_chart(
            _("Outcome"),
            _prob_bars(
                [
                    (_("Attacker wins"), raw.p_attacker_wins),
                    (_("Defender wins"), raw.p_defender_wins),
                    (_("Both wiped out"), raw.p_both_destroyed),
                ]
            ),
            trim=False,
        )
    ]
    if raw.reaction is not None:
        result.charts.append(
            bar_chart(_("Attackers lost to the reaction fire"), bars_from_pmf(raw.reaction.casualties.pmf, _casualties))
        )
    return result


def _present_reaction(result: Result, raw: CloseQuartersOdds, cd: Mapping[str, Any]) -> None:
    """The reaction step: its rolls and what it did, or why there was none."""
    if cd["attacker_blood"]:
        applied = national.blood_curdling_charge(cd["edition"], True, cd["attacker_quality"])
        if applied is not None:
            rule = national_rules.rule_name(applied)
            result.notes.append(_("No reaction fire: %(rule)s") % {"rule": rule})
        else:
            why = _("Blood Curdling Charge does not act here (Inexperienced attackers, or this edition).")
            result.notes.append(why)
    rx = raw.reaction
    if rx is None:
        return
    result.notes.append(_(REACTION_READING))
    # A stopped assault is no round of fighting: the average counts it as 0.
    result.stats = [
        replace(stat, note=_("0 when the fire stops the assault")) if stat.is_probability is False else stat
        for stat in result.stats
    ]
    result.rows.insert(
        0,
        {
            "title": _("Reaction fire"),
            "subtitle": ngettext("%(n)s shot", "%(n)s shots", rx.shots) % {"n": rx.shots},
            "rolls": [
                Roll(_("To hit"), "", (), _need_text(rx.need_to_hit.need, to_hit=True), to_fraction(rx.need_to_hit.p)),
                Roll(
                    _("To damage"),
                    _("target %(dv)s+") % {"dv": rx.need_to_damage.need},
                    (),
                    f"{rx.need_to_damage.need}+",
                    to_fraction(rx.need_to_damage.p),
                ),
            ],
        },
    )
    result.stats += [
        Stat(_("Assault goes in"), to_fraction(rx.p_assault)),
        Stat(_("Attackers wiped out by the fire"), to_fraction(rx.p_wiped_out)),
        Stat(_("Attackers broken by the fire"), to_fraction(rx.p_broken), note=_("failed morale check, or pins")),
        Stat(_("Attackers lost to the fire (average)"), to_fraction(rx.casualties.mean), is_probability=False),
    ]

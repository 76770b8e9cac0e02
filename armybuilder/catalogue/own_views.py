"""A player's own units: their list, the unit form, deleting one, and sharing a set by link.

Every query of a player's units goes through ``Unit.objects.owned_by(request.user)``: another
player's unit is a 404 here, whatever its id. A shared set is read by its token only, and
copied, never edited.
"""

from __future__ import annotations

import secrets

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from armybuilder.catalogue import own_forms, own_kinds, own_units
from armybuilder.catalogue.models import Army, Unit, UnitShare
from armybuilder.reference.models import Edition
from rules.army.own_units import OPEN_TOPPED, OWN_UNITS_MAX


def _edition(slug: str) -> Edition:
    return get_object_or_404(Edition.objects.filter(armies__hidden=False).distinct(), slug=slug)


@require_safe
@login_required
def index(request: HttpRequest) -> HttpResponse:
    units = (
        Unit.objects.owned_by(request.user)
        .select_related("army", "army__edition")
        .order_by("army__edition__number", "army__name", "name")
    )
    shares = {share.edition_id: share for share in UnitShare.objects.filter(owner=request.user)}
    editions = []
    for unit in units:
        if not editions or editions[-1]["edition"].pk != unit.army.edition_id:
            share = shares.get(unit.army.edition_id)
            link = request.build_absolute_uri(reverse("ab-own-units-shared", args=[share.token])) if share else ""
            editions.append({"edition": unit.army.edition, "units": [], "share_url": link})
        editions[-1]["units"].append(unit)
    return render(
        request,
        "catalogue/own_units.html",
        {
            "editions": editions,
            "count": len(units),
            "limit": OWN_UNITS_MAX,
            "all_editions": Edition.objects.filter(armies__hidden=False).distinct().order_by("number"),
        },
    )


def _back_to(request: HttpRequest) -> str:
    """Where a saved unit sends the player: their list's builder when they came from it."""
    pk = request.GET.get("list", "")
    if pk.isdigit():
        return f"/lists/{int(pk)}/#catalogue"  # the builder itself checks whose list it is
    return reverse("ab-own-units")


def _initial(unit: Unit) -> tuple[dict, list[dict], list[dict]]:
    data = own_units.definition(unit)
    initial = {
        "name": data["name"],
        "army": unit.army_id,
        "unit_type": data["unit_type"],
        "slot": data["slot"],
        "officer_rank": data["officer_rank"],
        "damage_value": data["damage_value"],
        "transport_capacity": data["transport_capacity"],
        "base_models": data["base_models"],
        "max_models": data["max_models"],
        "composition": data["composition"],
        "weapons_text": data["weapons_text"] if unit.is_own else "",
        "special_rules": list(unit.special_rules.exclude(slug=OPEN_TOPPED).values_list("pk", flat=True)),
        "open_topped": OPEN_TOPPED in data["special_rules"],
        "scope": "army" if unit.is_own and unit.army_only else "edition",
        **{f"cost_{q}": c for q, c in data["cost"].items()},
        **{f"per_model_{q}": c for q, c in data["per_model"].items()},
    }
    weapons = {w.slug: w.pk for w in unit.weapons.all()}
    lines = [
        {"weapon": weapons.get(line["weapon"]), "count": line["count"], "mount": line["mount"], "arc": line["arc"]}
        for line in data["weapons"]
        if line["weapon"] in weapons
    ]
    options = [
        {
            "name": row["name"],
            "cost": row["cost"],
            "per_model": row["per_model"],
            "all_models": row["all_models"],
            "max_count": row["max_count"],
            "group": row["group"],
            "adds_models": row["adds_models"] or None,
            "grants_weapon": weapons.get(row["grants"]) or _weapon_pk(unit, row["grants"]),
            "replaces_weapon": weapons.get(row["replaces"]) or _weapon_pk(unit, row["replaces"]),
        }
        for row in data["options"]
    ]
    return initial, lines, options


def _kind_initial(generic: Unit) -> tuple[dict, list[dict], list[dict]]:
    """The form's start for a kind: the Generic unit's profile and weapons, without its name,
    army, points or options (those are the player's book's)."""
    initial, lines, _options = _initial(generic)
    for field in ("name", "army", "composition"):
        initial.pop(field, None)
    for key in [key for key in initial if key.startswith(("cost_", "per_model_"))]:
        del initial[key]
    return initial, lines, []


def _open_sections(form, weapons, options, sections: dict[str, list[str]]) -> dict[str, bool]:
    """Which folded sections start open: those holding a value or a refusal."""

    def holds(row, names) -> bool:
        return any(row[name].value() not in (None, "", [], False) or row[name].errors for name in names)

    vehicle = [
        name for name in ("officer_rank", "damage_value", "transport_capacity", "open_topped") if name in form.fields
    ]
    return {
        "profile": holds(form, vehicle),
        "weapons": bool(weapons.non_form_errors() or sections["weapons"])
        or any(holds(row, ("weapon",)) or row.non_field_errors() for row in weapons),
        "options": bool(options.non_form_errors() or sections["options"])
        or any(holds(row, ("name", "grants_weapon", "cost")) or row.non_field_errors() for row in options),
        "rules": holds(form, ("special_rules", "weapons_text", "composition")),
    }


def _start_query(request: HttpRequest) -> str:
    """The list and army the form was opened for, kept by the links that start it again."""
    kept = {key: request.GET[key] for key in ("list", "army") if request.GET.get(key, "")}
    return "".join(f"&{key}={value}" for key, value in kept.items() if value.replace("-", "").isalnum())


def _weapon_pk(unit: Unit, slug: str) -> int | None:
    if not slug:
        return None
    from armybuilder.reference.models import Weapon

    return Weapon.objects.filter(edition_id=unit.army.edition_id, slug=slug).values_list("pk", flat=True).first()


def _unit_form(request: HttpRequest, edition: Edition, unit: Unit | None) -> HttpResponse:
    kwargs = {"edition": edition}
    sections: dict[str, list[str]] = {"weapons": [], "options": []}
    # The copy's source stays in the address through the POST, so its notes stay on the page.
    source = _copy_source(request, edition) if unit is None else None
    kind = own_kinds.find(edition, request.GET.get("kind", "")) if unit is None and source is None else None
    if request.method == "POST":
        form, weapons, options = own_forms.bind(request.POST, edition)
        checked = own_forms.validate(form, weapons, options)
        if checked is not None:
            sections = checked
            own_forms.refuse_duplicate_name(form, request.user, unit)
            if not form.errors and not any(sections.values()):
                definition = own_forms.definition_of(form, weapons, options)
                definition["army_only"] = form.cleaned_data.get("scope") == "army"
                try:
                    saved = own_units.write_unit(request.user, form.cleaned_data["army"], definition, unit)
                except own_units.TooManyUnits as full:
                    form.add_error(None, str(full))
                else:
                    messages.success(request, _("“%(name)s” is saved in your units.") % {"name": saved.name})
                    return redirect(_back_to(request))
    else:
        start = source if unit is None else unit
        initial, lines, rows = _initial(start) if start is not None else ({}, [], [])
        if unit is None and source is not None:
            initial["name"] = _("%(name)s (mine)") % {"name": source.name}
        elif unit is None and kind is not None:
            initial, lines, rows = _kind_initial(kind.unit)
        army = request.GET.get("army", "")
        if unit is None and army:
            initial["army"] = Army.objects.filter(edition=edition, slug=army).values_list("pk", flat=True).first()
        form = own_forms.OwnUnitForm(initial=initial, **kwargs)
        weapons = own_forms.WeaponLineFormSet(initial=lines, prefix="w", form_kwargs=kwargs)
        options = own_forms.OptionFormSet(initial=rows, prefix="o", form_kwargs=kwargs)
    copyable = (
        (
            Unit.objects.filter(army__edition=edition, removed=False, hidden=False, owner__isnull=True)
            | Unit.objects.owned_by(request.user).filter(army__edition=edition)
        )
        .select_related("army")
        .order_by("army__name", "position", "name")
    )
    return render(
        request,
        "catalogue/own_unit_form.html",
        {
            "form": form,
            "weapons": weapons,
            "options": options,
            "sections": sections,
            "unit": unit,
            "edition": edition,
            "copyable": copyable if unit is None else [],
            "kinds": own_kinds.offered(edition) if unit is None else [],
            "kind": kind,
            "swaps": own_kinds.swap_weapons(edition),
            "open": _open_sections(form, weapons, options, sections),
            "start_query": _start_query(request),
            "copied_from": source,
            "not_carried": own_units.not_carried(source) if source is not None else [],
            "back": _back_to(request),
            "list_pk": request.GET.get("list", "") if request.GET.get("list", "").isdigit() else "",
        },
        status=400 if request.method == "POST" else 200,
    )


def _copy_source(request: HttpRequest, edition: Edition) -> Unit | None:
    """ "Start as a copy of": a built-in or imported unit of the edition, or one of the player's own."""
    pk = request.GET.get("from", "")
    if not pk.isdigit():
        return None
    visible = Unit.objects.filter(army__edition=edition, removed=False).filter(owner__isnull=True, hidden=False)
    return (visible | Unit.objects.owned_by(request.user).filter(army__edition=edition)).filter(pk=int(pk)).first()


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def unit_new(request: HttpRequest, edition: str) -> HttpResponse:
    return _unit_form(request, _edition(edition), None)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def unit_edit(request: HttpRequest, pk: int) -> HttpResponse:
    unit = get_object_or_404(Unit.objects.owned_by(request.user).select_related("army__edition"), pk=pk)
    return _unit_form(request, unit.army.edition, unit)


@require_POST
@login_required
def unit_delete(request: HttpRequest, pk: int) -> HttpResponse:
    unit = get_object_or_404(Unit.objects.owned_by(request.user), pk=pk)
    used = own_units.lists_using(unit)
    if used:
        messages.error(
            request,
            _("“%(name)s” is used in these lists, so it stays: %(lists)s. Remove it from them first.")
            % {"name": unit.name, "lists": ", ".join(used)},
        )
    else:
        unit.delete()
        messages.success(request, _("“%(name)s” is deleted.") % {"name": unit.name})
    return redirect("ab-own-units")


@require_POST
@login_required
def share(request: HttpRequest, edition: str) -> HttpResponse:
    """Make (once) the link to the player's units of an edition."""
    found = _edition(edition)
    UnitShare.objects.get_or_create(owner=request.user, edition=found, defaults={"token": secrets.token_urlsafe(16)})
    return redirect(reverse("ab-own-units") + f"#edition-{found.slug}")


@require_POST
@login_required
def unshare(request: HttpRequest, edition: str) -> HttpResponse:
    """Withdraw the link: whoever had it reads nothing more (copies already made stay theirs)."""
    UnitShare.objects.filter(owner=request.user, edition__slug=edition).delete()
    return redirect("ab-own-units")


@require_http_methods(["GET", "HEAD", "POST"])
def shared(request: HttpRequest, token: str) -> HttpResponse:
    """A shared set: anyone with the link reads it; a signed-in reader may copy it into their units."""
    share = get_object_or_404(UnitShare.objects.select_related("owner", "edition"), token=token)
    units = list(share.units().select_related("army").prefetch_related("options", "weapons").order_by("name"))
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"{reverse('login')}?next={request.path}")
        if share.owner_id == request.user.pk:
            messages.info(request, _("These are your own units already."))
            return redirect("ab-own-units")
        try:
            if not own_units.room_for(request.user, len(units)):
                raise own_units.TooManyUnits
            with transaction.atomic():  # all of them or none: another tab may fill the room meanwhile
                for unit in units:
                    own_units.copy_unit(request.user, unit)
        except own_units.TooManyUnits as full:
            messages.error(request, str(full))
        else:
            messages.success(request, _("%(n)s units are copied into your units.") % {"n": len(units)})
            return redirect("ab-own-units")
    response = render(
        request,
        "catalogue/own_units_shared.html",
        {"share": share, "units": units, "is_owner": share.owner_id == request.user.pk},
    )
    response["X-Robots-Tag"] = "noindex"
    return response

"""``/lists/import/roster/``: bring a BattleScribe or NewRecruit roster in as a new list (PRG)."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from armybuilder.importers.roster_import import MAX_ROSTER_BYTES, RosterImport, import_roster
from armybuilder.lists.access import owner_for
from armybuilder.lists.views import announce_import, import_page
from armydata.roster_file import ROSTER_SUFFIXES


class RosterForm(forms.Form):
    file = forms.FileField(
        label=gettext_lazy("Roster file"),
        help_text=gettext_lazy("A .ros or .rosz file saved by BattleScribe or NewRecruit, at most 2 MB."),
        widget=forms.ClearableFileInput(attrs={"accept": ",".join(ROSTER_SUFFIXES)}),
    )

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if not (upload.name or "").lower().endswith(ROSTER_SUFFIXES):
            raise forms.ValidationError(_("Choose a .ros or .rosz roster file."))
        if (upload.size or 0) > MAX_ROSTER_BYTES:
            raise forms.ValidationError(_("The file is larger than 2 MB."))
        return upload


def points_message(result: RosterImport) -> str:
    """How Muster's points compare with the roster's own total."""
    if result.roster_points is None:
        return _("Muster counts %(points)s points; the roster gave no total to compare.") % {
            "points": result.muster_points
        }
    difference = result.difference or 0
    if difference == 0:
        return _("Muster counts %(points)s points, the same as the roster.") % {"points": result.muster_points}
    return _(
        "Muster counts %(points)s points; the roster said %(roster)s (%(difference)+d). "
        "Check the units' qualities and options against the roster."
    ) % {"points": result.muster_points, "roster": result.roster_points, "difference": difference}


@require_http_methods(["GET", "HEAD", "POST"])
def import_roster_view(request: HttpRequest) -> HttpResponse:
    def load(form: RosterForm) -> HttpResponse:
        upload = form.cleaned_data["file"]
        result = import_roster(upload.name, upload.read(), owner=owner_for(request))
        announce_import(request, result.army_list)
        level = messages.SUCCESS if result.difference == 0 else messages.WARNING
        messages.add_message(request, level, points_message(result))
        for note in result.notes:
            messages.info(request, note)
        return redirect(reverse("ab-list-builder", args=[result.army_list.pk]))

    return import_page(request, RosterForm, "importers/roster.html", load)

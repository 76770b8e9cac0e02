"""The organiser's season form: its rules and which events count."""

from __future__ import annotations

from typing import Any

from django import forms
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from armybuilder.events.models import Event
from armybuilder.leagues.models import Season

# The newest events offered in the form: a season groups a club's or a league's recent events.
EVENT_CHOICES_MAX = 200


class SeasonForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = ["name", "edition", "best", "minimum_events", "points_scale", "events", "published"]
        widgets = {"events": forms.CheckboxSelectMultiple}
        help_texts = {
            "events": _("Your events and published ones, newest first; only those of the season's edition count."),
            "points_scale": _("The winner of an event earns this; other placings earn less, scaled by the field."),
        }

    def __init__(self, *args: Any, user, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        offered = Event.objects.filter(Q(published=True) | Q(organiser=user)).order_by("-date", "-pk")
        chosen = list(self.instance.events.values_list("pk", flat=True)) if self.instance.pk else []
        newest = list(offered.values_list("pk", flat=True)[:EVENT_CHOICES_MAX])
        # The events already in the season stay offered however old they are.
        self.fields["events"].queryset = (
            Event.objects.filter(pk__in=newest + chosen).select_related("edition").order_by("-date", "-pk")
        )
        self.fields["events"].label_from_instance = lambda event: f"{event.name} · {event.date:%Y-%m-%d}"
        self.fields["events"].required = False

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        edition = data.get("edition")
        if edition is not None:
            others = [event.name for event in data.get("events") or () if event.edition_id != edition.pk]
            if others:
                message = _("Not of the season's edition: %(names)s.") % {"names": ", ".join(others)}
                self.add_error("events", message)
        return data

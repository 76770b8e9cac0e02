"""The organiser's season form (its rules and which events count) and the league game report."""

from __future__ import annotations

import datetime
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.formats import date_format
from django.utils.translation import gettext_lazy as _

from armybuilder.events.forms import turns_field
from armybuilder.events.models import Event
from armybuilder.leagues.models import Season
from rules.leagues.league import DEFAULT_DRAW, DEFAULT_LOSS, DEFAULT_WIN

LEAGUE_POINTS = {"points_win": DEFAULT_WIN, "points_draw": DEFAULT_DRAW, "points_loss": DEFAULT_LOSS}
# The newest events offered in the form: a season groups a club's or a league's recent events.
EVENT_CHOICES_MAX = 200


class SeasonForm(forms.ModelForm):
    class Meta:
        model = Season
        fields = [
            "name",
            "edition",
            "best",
            "minimum_events",
            "points_scale",
            "events",
            "reports_open",
            "points_win",
            "points_draw",
            "points_loss",
            "published",
        ]
        widgets = {"events": forms.CheckboxSelectMultiple}
        help_texts = {
            "events": _("Your events and published ones, newest first; only those of the season's edition count."),
            "points_scale": _("The winner of an event earns this; other placings earn less, scaled by the field."),
            "minimum_events": _("Each confirmed league game counts as one too."),
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
        # Left empty (or absent from an older form), a league game's points are the usual 3/1/0.
        for name in LEAGUE_POINTS:
            self.fields[name].required = False

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        edition = data.get("edition")
        if edition is not None:
            others = [event.name for event in data.get("events") or () if event.edition_id != edition.pk]
            if others:
                message = _("Not of the season's edition: %(names)s.") % {"names": ", ".join(others)}
                self.add_error("events", message)
        for name, default in LEAGUE_POINTS.items():
            if name not in self.errors and data.get(name) is None:
                data[name] = default
        win, draw, loss = (data.get(name) for name in LEAGUE_POINTS)
        if None not in (win, draw, loss) and not win >= draw >= loss:
            self.add_error("points_draw", _("A win scores at least a draw, and a draw at least a loss."))
        return data


# A league game is reported within a year before the season was created and never for a later day.
OLDEST_GAME = datetime.timedelta(days=365)
# From the reporter's side; stored from player a's side as events do ("a" won, "b" won, draw).
OUTCOME_OF_RESULT = {"win": "a", "draw": "draw", "loss": "b"}


class LeagueGameForm(forms.Form):
    """A league game reported by one of its players, or entered by the season's organiser.

    The organiser names both players (``player`` then ``opponent``); a player names their opponent
    only and is player a. Every refusal is said in words next to its field.
    """

    player = forms.CharField(label=_("Player (username)"), max_length=150)
    opponent = forms.CharField(label=_("Opponent (username)"), max_length=150)
    result = forms.ChoiceField(
        label=_("Your result"),
        choices=[("win", _("I won")), ("draw", _("Draw")), ("loss", _("I lost"))],
        widget=forms.RadioSelect,
    )
    # An ISO value whatever the language: a date input reads no other (a French "29/11/2026" shows empty).
    played_on = forms.DateField(
        label=_("Date played"), widget=forms.DateInput(format="%Y-%m-%d", attrs={"type": "date"})
    )
    mission = forms.CharField(label=_("Mission"), max_length=200, required=False, help_text=_("Optional."))
    turns = turns_field()

    def __init__(self, *args: Any, season: Season, user, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.season, self.user = season, user
        self.by_organiser = season.organiser_id == user.pk
        self.fields["played_on"].initial = timezone.localdate()
        if self.by_organiser:
            self.fields["player"].required = False
            self.fields["player"].help_text = _("Empty: you.")
            self.fields["result"].label = _("The player's result")
            self.fields["result"].choices = [("win", _("Won")), ("draw", _("Draw")), ("loss", _("Lost"))]
        else:
            del self.fields["player"]

    def _account(self, field: str):
        username = self.cleaned_data.get(field, "").strip()
        if not username:
            return self.user
        accounts = get_user_model().objects.filter(is_active=True)
        # The exact username first; else one differing only in case, as players type names from memory.
        account = accounts.filter(username=username).first() or accounts.filter(username__iexact=username).first()
        if account is None:
            self.add_error(field, _("No player has the username “%(name)s”.") % {"name": username})
        return account

    def clean_played_on(self) -> datetime.date:
        day = self.cleaned_data["played_on"]
        if day > timezone.localdate():
            raise forms.ValidationError(_("A game cannot be reported for a day still to come."))
        oldest = timezone.localtime(self.season.created_at).date() - OLDEST_GAME
        if day < oldest:
            message = _("This season takes games played from %(date)s on.")
            raise forms.ValidationError(message % {"date": date_format(oldest)})
        return day

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        # An unpublished season is its organiser's only (a 404 to anyone else), so a player reaching
        # this form sees a published one; whether it takes reports is the organiser's choice.
        if not self.by_organiser and not self.season.reports_open:
            raise forms.ValidationError(_("This season takes no reported games: ask its organiser."))
        player = self._account("player") if self.by_organiser else self.user
        opponent = self._account("opponent") if "opponent" in data else None
        if player is None or opponent is None:
            return data
        if player.pk == opponent.pk:
            message = _("A game needs two different players.") if self.by_organiser else None
            self.add_error("opponent", message or _("You cannot report a game against yourself."))
            return data
        data["player_a"], data["player_b"] = player, opponent
        if "result" in data and "played_on" in data:
            outcome = OUTCOME_OF_RESULT[data["result"]]
            mirrored = {"a": "b", "b": "a", "draw": "draw"}[outcome]
            waiting = (
                self.season.league_games.filter(confirmed=False, by_organiser=False, played_on=data["played_on"])
                .filter(
                    models.Q(player_a=player, player_b=opponent, outcome=outcome)
                    | models.Q(player_a=opponent, player_b=player, outcome=mirrored)
                )
                .exists()
            )
            if waiting:
                raise forms.ValidationError(
                    _("This game is already reported and waits for its confirmation; it is not reported twice.")
                )
            data["outcome"] = outcome
        return data

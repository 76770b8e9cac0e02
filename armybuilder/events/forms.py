"""Forms of the event pages: the event itself, sealing a list, judging one, a result, a swap."""

from __future__ import annotations

import json
import re
from typing import Any

from django import forms
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from armybuilder.catalogue.models import Army, Unit
from armybuilder.events.models import (
    ADJUSTMENT_LIMIT,
    MAX_POINTS_DESTROYED,
    MAX_TURNS,
    TEAM_NAME_MAX,
    WALK_IN_NAME_MAX,
    Adjustment,
    Event,
    Outcome,
)
from armybuilder.events.services import EventError, pasted_list_values, walk_in_name_taken
from armybuilder.lists.exchange import ListImportError
from armybuilder.lists.forms import IMPORT_MAX_BYTES
from armybuilder.lists.text_import import export_from_text
from rules.events.missions import MISSIONS_MAX, PART_MAX, Mission, MissionError
from rules.events.missions import find as find_mission
from rules.events.missions import parse as parse_missions
from rules.events.timer import ADD_MAX, LENGTH_MAX

TIEBREAK_ORDERS = [
    ("score,sos,dice", _("Score, then strength of schedule, then enemy order dice destroyed")),
    ("score,dice,sos", _("Score, then enemy order dice destroyed, then strength of schedule")),
    ("score,sos,points", _("Score, then strength of schedule, then points of enemy units destroyed")),
    ("score,points,sos", _("Score, then points of enemy units destroyed, then strength of schedule")),
]

TEAM_TIEBREAK_ORDERS = [
    ("game_points,games_won,sos", _("Game points, then games won, then strength of schedule")),
    ("game_points,sos,games_won", _("Game points, then strength of schedule, then games won")),
    ("games_won,game_points,sos", _("Games won, then game points, then strength of schedule")),
    ("sos,game_points,games_won", _("Strength of schedule, then game points, then games won")),
]


class EventForm(forms.ModelForm):
    LAST_TURN_DEFAULT = 15

    banned = forms.CharField(
        label=_("Banned units"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Unit names or slugs of the edition, one a line."),
    )
    tiebreaks = forms.ChoiceField(label=_("Tiebreak order"), choices=TIEBREAK_ORDERS)
    team_tiebreaks = forms.ChoiceField(
        label=_("Team tiebreak order"),
        choices=TEAM_TIEBREAK_ORDERS,
        required=False,
        help_text=_("Team events only: how teams equal on team points are ordered."),
    )
    last_turn_minutes = forms.IntegerField(
        label=_("Last turn: minutes before the end of a round"),
        required=False,
        min_value=0,
        max_value=120,
        initial=15,
        help_text=_("The round page says the last turn should start this long before the timer ends. Empty: 15."),
    )

    class Meta:
        model = Event
        fields = [
            "name",
            "date",
            "place",
            "edition",
            "points_limit",
            "max_order_dice",
            "max_platoons",
            "allowed_armies",
            "data_cutoff",
            "list_deadline",
            "rounds",
            "score_win",
            "score_draw",
            "score_loss",
            "tiebreaks",
            "prefer_sides",
            "last_turn_minutes",
            "team_size",
            "team_tiebreaks",
        ]
        widgets = {
            "date": forms.DateInput(attrs={"type": "date"}),
            "data_cutoff": forms.DateInput(attrs={"type": "date"}),
            "list_deadline": forms.DateTimeInput(attrs={"type": "datetime-local"}),
            "allowed_armies": forms.CheckboxSelectMultiple,
        }
        help_texts = {"allowed_armies": _("None ticked: every army of the edition.")}

    def __init__(self, *args: Any, organiser: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        # Bans name units of the data, or the organiser's own: another player's own unit is theirs
        # alone (its slug carries their account's number), never found by its name here.
        self.organiser = organiser
        self.fields["allowed_armies"].queryset = Army.objects.visible().select_related("edition")
        if self.instance.pk:
            self.initial["banned"] = "\n".join(unit.slug for unit in self.instance.banned_units.all())

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        edition = data.get("edition")
        armies = data.get("allowed_armies") or []
        if edition is not None and any(army.edition_id != edition.pk for army in armies):
            self.add_error("allowed_armies", _("Every allowed army must be of the event's edition."))
        names = [line.strip() for line in re.split(r"[\n,]", data.get("banned") or "") if line.strip()]
        units: list[Unit] = []
        if names and edition is not None:
            found = Unit.objects.filter(army__edition=edition).filter(
                Q(owner__isnull=True) | Q(owner_id=getattr(self.organiser, "pk", None))
            )
            unknown = []
            for name in names:
                match = found.filter(slug=name).first() or found.filter(name__iexact=name).first()
                if match is None:
                    unknown.append(name)
                else:
                    units.append(match)
            if unknown:
                message = _("No unit of the edition is called: %(names)s.")
                self.add_error("banned", message % {"names": ", ".join(unknown)})
        data["banned_units"] = units
        return data

    def clean_last_turn_minutes(self) -> int:
        minutes = self.cleaned_data.get("last_turn_minutes")
        return self.LAST_TURN_DEFAULT if minutes is None else minutes

    def save(self, commit: bool = True) -> Event:
        event = super().save(commit=commit)
        if commit:
            event.banned_units.set(self.cleaned_data["banned_units"])
        return event

    def clean_team_tiebreaks(self) -> str:
        return self.cleaned_data.get("team_tiebreaks") or TEAM_TIEBREAK_ORDERS[0][0]

    def clean_team_size(self) -> int | None:
        size = self.cleaned_data.get("team_size")
        # Teams are settled once a round is paired: changing their size then would break them.
        if self.instance.pk and size != self.instance.team_size and self.instance.round_set.exists():
            raise forms.ValidationError(_("A round is paired: the number of players per team can no longer change."))
        # Escalation stages give each player a list per stage, which team pairing does not read.
        if size and self.instance.pk and self.instance.stages.exists():
            raise forms.ValidationError(
                _("This event has escalation stages: a team event plays one list per player. Remove the stages first.")
            )
        return size


class SubmitForm(forms.Form):
    army_list = forms.TypedChoiceField(label=_("Your list"), coerce=int)

    def __init__(self, *args: Any, lists: list[tuple[int, str]], **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.fields["army_list"].choices = lists


def turns_field() -> forms.IntegerField:
    """How many turns a game lasted, as an event's result and a league game ask it: optional."""
    return forms.IntegerField(
        label=_("Turns played"),
        required=False,
        min_value=1,
        max_value=MAX_TURNS,
        help_text=_("Optional."),
        error_messages={"invalid": _("Enter a whole number of turns.")},
    )


class JudgeForm(forms.Form):
    decision = forms.ChoiceField(choices=[("approve", _("Approve")), ("return", _("Send back"))])
    note = forms.CharField(label=_("Note to the player"), required=False, max_length=1000)


class ResultForm(forms.Form):
    outcome = forms.ChoiceField(label=_("Result"), choices=Outcome.choices, widget=forms.RadioSelect)
    dice_a = forms.IntegerField(label=_("Order dice destroyed by player A"), min_value=0, max_value=200, initial=0)
    dice_b = forms.IntegerField(label=_("Order dice destroyed by player B"), min_value=0, max_value=200, initial=0)
    turns = turns_field()

    points_a = forms.IntegerField(
        label=_("Points of enemy units destroyed by player A"), min_value=0, max_value=MAX_POINTS_DESTROYED, initial=0
    )
    points_b = forms.IntegerField(
        label=_("Points of enemy units destroyed by player B"), min_value=0, max_value=MAX_POINTS_DESTROYED, initial=0
    )

    def __init__(
        self, *args: Any, names: tuple[str, str] | None = None, with_points: bool = False, **kwargs: Any
    ) -> None:
        """``names``: the pairing's two players, so the choices say who won rather than "player A";
        ``with_points``: the event ranks by the points of enemy units destroyed, so they are asked."""
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        if not with_points:
            del self.fields["points_a"], self.fields["points_b"]
        if names is not None:
            first, second = names
            self.fields["outcome"].choices = [
                (Outcome.A_WINS, _("%(name)s won") % {"name": first}),
                (Outcome.B_WINS, _("%(name)s won") % {"name": second}),
                (Outcome.DRAW, _("Draw")),
            ]
            self.fields["dice_a"].label = _("Order dice destroyed by %(name)s") % {"name": first}
            self.fields["dice_b"].label = _("Order dice destroyed by %(name)s") % {"name": second}
            if with_points:
                label = _("Points of enemy units destroyed by %(name)s")
                self.fields["points_a"].label = label % {"name": first}
                self.fields["points_b"].label = label % {"name": second}


class SwapForm(forms.Form):
    first = forms.TypedChoiceField(label=_("Swap"), coerce=int)
    second = forms.TypedChoiceField(label=_("with"), coerce=int)

    def __init__(self, *args: Any, players: list[tuple[int, str]], **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.fields["first"].choices = players
        self.fields["second"].choices = players


class DropForm(forms.Form):
    from_round = forms.IntegerField(
        label=_("Drop from round"),
        min_value=1,
        error_messages={"invalid": _("Enter a round number."), "required": _("Enter a round number.")},
    )

    def __init__(self, *args: Any, first: int, last: int, **kwargs: Any) -> None:
        """``first``: the next round to be paired; ``last``: the event's last round."""
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.first, self.last = first, last
        self.fields["from_round"].initial = first
        self.fields["from_round"].widget.attrs.update({"min": first, "max": last})

    def clean_from_round(self) -> int:
        number = self.cleaned_data["from_round"]
        if not self.first <= number <= self.last:
            if self.first > self.last:
                raise forms.ValidationError(_("Every round of the event has been paired: nobody can be dropped now."))
            raise forms.ValidationError(
                _("Choose a round from %(first)s (the next to be paired) to %(last)s.")
                % {"first": self.first, "last": self.last}
            )
        return number


class AdjustmentForm(forms.Form):
    """Bonus or penalty points for one entrant: a category, a non-zero amount within the limit,
    the round it belongs to (optional) and the reason."""

    entrant = forms.TypedChoiceField(label=_("Player"), coerce=int, error_messages={"required": _("Choose a player.")})
    category = forms.ChoiceField(
        label=_("Category"),
        choices=Adjustment.Category.choices,
        error_messages={"required": _("Choose a category."), "invalid_choice": _("Choose a category.")},
    )
    amount = forms.IntegerField(
        label=_("Points"),
        help_text=_("Positive for a bonus, negative for a penalty."),
        error_messages={"invalid": _("Enter a whole number of points."), "required": _("Enter the points.")},
    )
    round_number = forms.IntegerField(
        label=_("Round (optional)"), required=False, error_messages={"invalid": _("Enter a round number.")}
    )
    reason = forms.CharField(
        label=_("Reason"), max_length=200, error_messages={"required": _("Say why, for the players.")}
    )

    def __init__(self, *args: Any, players: list[tuple[int, str]], rounds: int, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        kwargs.setdefault("auto_id", "adjust-%s")
        super().__init__(*args, **kwargs)
        self.rounds = rounds
        self.fields["entrant"].choices = [("", _("Choose a player"))] + players
        self.fields["entrant"].error_messages["invalid_choice"] = _("Choose a player of this event.")
        self.fields["amount"].widget.attrs.update({"min": -ADJUSTMENT_LIMIT, "max": ADJUSTMENT_LIMIT})
        self.fields["round_number"].widget.attrs.update({"min": 1, "max": rounds})

    def clean_amount(self) -> int:
        amount = self.cleaned_data["amount"]
        if amount == 0:
            raise forms.ValidationError(_("Zero points changes nothing: enter a bonus or a penalty."))
        if not -ADJUSTMENT_LIMIT <= amount <= ADJUSTMENT_LIMIT:
            raise forms.ValidationError(
                _("Enter from %(low)s to %(high)s points.") % {"low": -ADJUSTMENT_LIMIT, "high": ADJUSTMENT_LIMIT}
            )
        return amount

    def clean_round_number(self) -> int | None:
        number = self.cleaned_data["round_number"]
        if number is not None and not 1 <= number <= self.rounds:
            raise forms.ValidationError(
                _("Choose a round from 1 to %(last)s, or leave it empty.") % {"last": self.rounds}
            )
        return number


class TimerForm(forms.Form):
    """A round timer action: start (``minutes``: the round's length), pause, resume or add minutes."""

    action = forms.ChoiceField(choices=[(a, a) for a in ("start", "pause", "resume", "add")], widget=forms.HiddenInput)
    minutes = forms.IntegerField(
        label=_("Minutes"),
        required=False,
        error_messages={"invalid": _("Enter a whole number of minutes.")},
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        kwargs.setdefault("auto_id", "timer-%s")
        super().__init__(*args, **kwargs)

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        action, minutes = data.get("action"), data.get("minutes")
        if action == "start":
            if minutes is None and "minutes" not in self.errors:
                self.add_error("minutes", _("Enter the round's length in minutes."))
            elif minutes is not None and not 1 <= minutes <= LENGTH_MAX:
                self.add_error("minutes", _("A round lasts from 1 to %(max)s minutes.") % {"max": LENGTH_MAX})
        elif action == "add":
            if minutes is None and "minutes" not in self.errors:
                self.add_error("minutes", _("Enter the minutes to add."))
            elif minutes is not None and not 1 <= minutes <= ADD_MAX:
                self.add_error("minutes", _("Add from 1 to %(max)s minutes at a time.") % {"max": ADD_MAX})
        return data


class MissionsForm(forms.Form):
    """The event's missions as the rules pack names them, one a line."""

    missions = forms.CharField(
        label=_("Missions"),
        required=False,
        max_length=5000,
        widget=forms.Textarea(attrs={"rows": 5}),
    )

    def __init__(self, *args: Any, edition: str, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        kwargs.setdefault("auto_id", "missions-%s")
        super().__init__(*args, **kwargs)
        self.edition = edition
        if edition == "v3":
            help_text = _(
                "One a line: victory condition / deployment zone / deployment type, as the rules pack names them."
            )
        else:
            help_text = _("One a line: the scenario's name, as the rules pack names it.")
        self.fields["missions"].help_text = help_text

    def clean_missions(self) -> list[Mission]:
        try:
            return parse_missions(self.cleaned_data["missions"], self.edition)
        except MissionError as error:
            messages = {
                "parts": _(
                    "Line %(line)s: a mission is three parts separated by /: "
                    "victory condition / deployment zone / deployment type."
                ),
                "one-part": _("Line %(line)s: a mission is one scenario name, without /."),
                "empty-part": _("Line %(line)s: a part of the mission is empty."),
                "too-long": _("Line %(line)s: each part is at most %(max)s characters."),
                "too-many": _("At most %(count)s missions."),
            }
            raise forms.ValidationError(
                messages[error.code] % {"line": error.line, "max": PART_MAX, "count": MISSIONS_MAX}
            ) from error


class RoundMissionForm(forms.Form):
    """A round's mission: typed (the event's missions offered) or rolled."""

    mission = forms.CharField(label=_("Mission"), required=False, max_length=200)
    action = forms.ChoiceField(choices=[("set", "set"), ("roll", "roll")], initial="set")

    def __init__(self, *args: Any, missions: list[Mission], number: int, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        kwargs.setdefault("auto_id", f"mission-{number}-%s")
        super().__init__(*args, **kwargs)
        self.missions, self.number = missions, number
        self.fields["mission"].widget.attrs["list"] = "event-missions"

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("action") == "set":
            typed = data.get("mission") or ""
            if not typed.strip():
                self.add_error("mission", _("Type one of the event's missions, or roll one."))
            elif find_mission(self.missions, typed) is None:
                self.add_error("mission", _("This is not one of the event's missions: type one of those offered."))
        return data


# A pasted list that does not read names at most this many of its problems (the rest are counted).
PASTED_PROBLEMS_SHOWN = 12


class PastedListForm(forms.Form):
    """A walk-in's list pasted by the organiser: Muster's list JSON, read and checked here, at the
    edge, into the fields of a sealed submission (``cleaned_data["list"]``); nothing is written."""

    list = forms.CharField(
        label=_("Their list (Muster's list JSON or text export)"),
        strip=True,
        widget=forms.Textarea(attrs={"rows": 6, "spellcheck": "false", "class": "mono-full"}),
        help_text=_("Paste the list as exported from Muster: its JSON, or its plain text."),
        error_messages={"required": _("Paste the player's list.")},
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)

    def clean_list(self) -> dict:
        text = self.cleaned_data["list"]
        if len(text.encode("utf-8")) > IMPORT_MAX_BYTES:
            raise forms.ValidationError(_("The pasted text is larger than 1 MB."))
        try:
            if not text.lstrip().startswith(("{", "[")):
                # Muster's text export, read back into the list format the JSON reader then checks.
                text = json.dumps(export_from_text(text))
            return pasted_list_values(text)
        except ListImportError as error:
            # The reader's sentences name each problem's place in the file (English, as on the import page).
            shown = error.errors[:PASTED_PROBLEMS_SHOWN]
            more = len(error.errors) - len(shown)
            problems = [forms.ValidationError(_("This list cannot be read:"))]
            problems += [forms.ValidationError(message) for message in shown]
            if more:
                problems.append(
                    forms.ValidationError(
                        ngettext("…and %(count)s more problem.", "…and %(count)s more problems.", more)
                        % {"count": more}
                    )
                )
            raise forms.ValidationError(problems) from error
        except EventError as error:
            raise forms.ValidationError(
                _("This list's points cannot be sealed (below 0 or beyond any limit): check its units' costs.")
            ) from error


class WalkInForm(PastedListForm):
    """A player without an account, entered by the organiser: their name and their pasted list."""

    name = forms.CharField(
        label=_("Player's name"),
        max_length=WALK_IN_NAME_MAX,
        error_messages={
            "required": _("Type the player's name."),
            "max_length": _("A name is at most %(limit_value)s characters."),
        },
    )
    field_order = ["name", "list"]

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "walk-in-%s")
        super().__init__(*args, **kwargs)
        self.event = event

    def clean_name(self) -> str:
        name = self.cleaned_data["name"]
        if walk_in_name_taken(self.event, name):
            raise forms.ValidationError(
                _("A walk-in of this event is already called %(name)s: add something to tell them apart.")
                % {"name": name}
            )
        return name


class TeamForm(forms.Form):
    """A new team: its name (its founder captains it)."""

    name = forms.CharField(label=_("Team name"), max_length=TEAM_NAME_MAX)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)


class TeamCodeForm(forms.Form):
    code = forms.CharField(
        label=_("Team code"),
        max_length=300,
        help_text=_("The code your captain gave you (the end of their join link)."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)


class OrganiserTeamForm(forms.Form):
    """The organiser founds a team for a captain, or adds a player to a team."""

    name = forms.CharField(label=_("Team name"), max_length=TEAM_NAME_MAX, required=False)
    team = forms.TypedChoiceField(label=_("Team"), coerce=int, required=False)
    entrant = forms.TypedChoiceField(label=_("Player"), coerce=int)

    def __init__(self, *args: Any, teams: list[tuple[int, str]], players: list[tuple[int, str]], **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.fields["team"].choices = [("", _("A new team (named above)")), *teams]
        self.fields["entrant"].choices = players

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        if data.get("team") in (None, "") and not (data.get("name") or "").strip():
            self.add_error("name", _("Name the new team, or choose a team to add the player to."))
        return data


class LineupForm(forms.Form):
    """A team's line-up for a team pairing: a player for each table, each player once."""

    def __init__(self, *args: Any, players: list[tuple[int, str]], size: int, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        super().__init__(*args, **kwargs)
        self.size = size
        for index in range(1, size + 1):
            self.fields[f"seat_{index}"] = forms.TypedChoiceField(
                label=_("Game %(n)s") % {"n": index}, coerce=int, choices=[("", "—"), *players]
            )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        chosen = [data.get(f"seat_{index}") for index in range(1, self.size + 1)]
        if all(chosen) and len(set(chosen)) != len(chosen):
            raise forms.ValidationError(_("Each player plays once: choose a different player for every game."))
        data["players"] = chosen
        return data

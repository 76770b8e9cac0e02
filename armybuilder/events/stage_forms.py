"""Forms of escalation events: the organiser's stages, and a player's list submitted for a stage.

The stages are typed as rows of three numbers (points, from round, to round); rows left empty are
no stage. Every refusal is said next to the number at fault, and the numbers stay as typed.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from armybuilder.events.forms import SubmitForm
from armybuilder.lists.models import POINTS_LIMIT_MAX
from rules.events import stages as stage_rules

STAGE_ROWS = 6  # more stages than any escalation event runs (500 to 1,500 points in steps)

STAGE_ERRORS = {
    "stage-points": _("A stage's points are a whole number from 1 to %(max)s."),
    "stage-round-range": _("The event has rounds 1 to %(rounds)s."),
    "stage-round-order": _("A stage ends at or after the round it starts with."),
    "stage-overlap": _("Round %(round)s already belongs to another stage: stages cannot overlap."),
    "stage-gap": _("No stage plays round %(round)s: every round belongs to one stage."),
    "stage-one": _("An escalation event has at least two stages; for one, set the event's points limit instead."),
}

FIELDS = {"points": "points", "first_round": "first", "last_round": "last"}


class StagesForm(forms.Form):
    """Up to ``STAGE_ROWS`` stages; ``cleaned_data["stages"]``: the ``StagePlan`` of each row filled."""

    def __init__(self, *args: Any, rounds: int, **kwargs: Any) -> None:
        kwargs.setdefault("label_suffix", "")
        kwargs.setdefault("auto_id", "stages-%s")
        super().__init__(*args, **kwargs)
        self.rounds = rounds
        number = {"invalid": _("Enter a whole number.")}
        for row in range(1, STAGE_ROWS + 1):
            self.fields[f"points_{row}"] = forms.IntegerField(
                label=_("Stage %(n)s: points") % {"n": row}, required=False, error_messages=number
            )
            self.fields[f"first_{row}"] = forms.IntegerField(
                label=_("from round"), required=False, error_messages=number
            )
            self.fields[f"last_{row}"] = forms.IntegerField(label=_("to round"), required=False, error_messages=number)

    @classmethod
    def for_stages(cls, stages: list, rounds: int) -> StagesForm:
        initial = {}
        for row, stage in enumerate(stages, start=1):
            initial |= {f"points_{row}": stage.points_limit, f"first_{row}": stage.first_round}
            initial[f"last_{row}"] = stage.last_round
        return cls(initial=initial, rounds=rounds)

    def rows(self) -> list[list[forms.BoundField]]:
        """The fields row by row, for the template."""
        return [[self[f"{name}_{row}"] for name in ("points", "first", "last")] for row in range(1, STAGE_ROWS + 1)]

    def clean(self) -> dict:
        data = super().clean()
        if self.errors:
            return data
        plans, rows = [], []
        for row in range(1, STAGE_ROWS + 1):
            values = [data.get(f"{name}_{row}") for name in ("points", "first", "last")]
            if all(value is None for value in values):
                continue
            missing = [name for name, value in zip(("points", "first", "last"), values, strict=True) if value is None]
            for name in missing:
                self.add_error(f"{name}_{row}", _("Fill in the stage's points and both rounds, or none of them."))
            plans.append(stage_rules.StagePlan(*(value or 0 for value in values)))
            rows.append(row)
        if self.errors:
            return data
        try:
            stage_rules.check(plans, self.rounds, points_max=POINTS_LIMIT_MAX)
        except stage_rules.StageError as error:
            params = {"max": POINTS_LIMIT_MAX, "rounds": self.rounds, **error.params}
            message = STAGE_ERRORS[error.code] % params
            if error.index < 0:
                self.add_error(f"points_{rows[0]}" if rows else None, message)
            else:
                self.add_error(f"{FIELDS[error.field]}_{rows[error.index]}", message)
            return data
        data["stages"] = plans
        return data


class StageSubmitForm(SubmitForm):
    """A list submitted to an escalation event: which stage it is for, and the list."""

    stage = forms.TypedChoiceField(label=_("For stage"), coerce=int)
    field_order = ["stage", "army_list"]

    def __init__(self, *args: Any, stages: list, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["stage"].choices = [(stage.number, stage.describe()) for stage in stages]
        self.order_fields(self.field_order)

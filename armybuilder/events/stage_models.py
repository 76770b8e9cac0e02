"""Escalation events: an event's stages and the list each entrant seals for each stage.

An event without stages keeps one ``Submission`` per entrant, as always. An event with stages
(``rules.events.stages``: each a points limit and the rounds it plays) takes one ``StageSubmission``
per entrant and stage instead, sealed, judged and played just like a submission: the same fields,
the same reading of its sealed facts, judged against the event's rules with the stage's points.
"""

from __future__ import annotations

import dataclasses

from django.core.validators import MaxValueValidator, MinValueValidator
from django.db import models
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from armybuilder.events.models import Entrant, Event, Submission
from armybuilder.lists.models import POINTS_LIMIT_MAX, ArmyList
from rules.events import legality
from rules.events import stages as stage_rules


class Stage(models.Model):
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="stages")
    number = models.PositiveSmallIntegerField()  # 1, 2, ... in round order
    points_limit = models.PositiveIntegerField(
        _("points limit"), validators=[MinValueValidator(1), MaxValueValidator(POINTS_LIMIT_MAX)]
    )
    first_round = models.PositiveSmallIntegerField(_("from round"))
    last_round = models.PositiveSmallIntegerField(_("to round"))
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["number"]
        constraints = [models.UniqueConstraint(fields=["event", "number"], name="one_stage_number_per_event")]

    def __str__(self) -> str:
        return f"{self.event} stage {self.number}"

    def describe(self) -> str:
        """The stage as pages say it: "Stage 2: 750 points, rounds 3–4"."""
        values = {"n": self.number, "points": self.points_limit, "first": self.first_round, "last": self.last_round}
        if self.first_round == self.last_round:
            return gettext("Stage %(n)s: %(points)s points, round %(first)s") % values
        return gettext("Stage %(n)s: %(points)s points, rounds %(first)s–%(last)s") % values

    def plan(self) -> stage_rules.StagePlan:
        return stage_rules.StagePlan(self.points_limit, self.first_round, self.last_round)

    def rules(self, event_rules: legality.EventRules) -> legality.EventRules:
        """The event's rules with this stage's points limit."""
        return dataclasses.replace(event_rules, points_limit=self.points_limit)


class StageSubmission(models.Model):
    """An entrant's list for one stage, sealed as a submission is (see ``Submission``)."""

    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="stage_submissions")
    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="submissions")
    army_list = models.ForeignKey(ArmyList, null=True, on_delete=models.SET_NULL, related_name="+")
    list_name = models.CharField(max_length=100)
    army_name = models.CharField(max_length=120)
    army_slug = models.CharField(max_length=80)
    snapshot = models.JSONField()
    hash = models.CharField(max_length=64)
    points = models.PositiveIntegerField()
    facts = models.JSONField(default=dict)
    submitted_at = models.DateTimeField()
    status = models.CharField(max_length=10, choices=Submission.Status.choices, default=Submission.Status.PENDING)
    note = models.TextField(_("note to the player"), blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["stage__number", "pk"]
        constraints = [models.UniqueConstraint(fields=["entrant", "stage"], name="one_list_per_entrant_and_stage")]

    def __str__(self) -> str:
        return f"{self.entrant}: {self.list_name} (stage {self.stage_id})"

    # A stage's list is read exactly as a submission is: the same sealed fields, the same methods.
    sealed_facts = Submission.sealed_facts
    own_unit_names = Submission.own_unit_names
    problems = Submission.problems
    sealed_list = Submission.sealed_list

"""Stamps on every catalogue row: options get one, units one per kind of change (see ``Stamped``).

A unit's points, options and profile stamps start at a fixed past date, not at the time of the
migration: nothing is known to have changed, and a stamp of "now" would flag every unit of every
saved list as changed.
"""

from __future__ import annotations

import datetime

import django.utils.timezone
from django.db import migrations, models

NOTHING_KNOWN = datetime.datetime(2000, 1, 1, tzinfo=datetime.UTC)


def _stamp(name: str) -> migrations.AddField:
    return migrations.AddField(
        model_name="unit",
        name=name,
        field=models.DateTimeField(default=NOTHING_KNOWN, editable=False),
        preserve_default=False,
    )


def _now_default(model_name: str, name: str) -> migrations.AlterField:
    return migrations.AlterField(
        model_name=model_name,
        name=name,
        field=models.DateTimeField(default=django.utils.timezone.now, editable=False),
    )


class Migration(migrations.Migration):
    dependencies = [
        ("catalogue", "0009_unit_source_aliases"),
    ]

    operations = [
        migrations.AddField(
            model_name="option",
            name="updated_at",
            field=models.DateTimeField(default=django.utils.timezone.now, editable=False),
        ),
        _stamp("points_updated_at"),
        _stamp("options_updated_at"),
        _stamp("profile_updated_at"),
        _now_default("unit", "points_updated_at"),
        _now_default("unit", "options_updated_at"),
        _now_default("unit", "profile_updated_at"),
        _now_default("army", "updated_at"),
        _now_default("unit", "updated_at"),
    ]

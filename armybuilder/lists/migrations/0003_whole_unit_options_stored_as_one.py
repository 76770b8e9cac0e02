"""Saved lists meet the catalogue of whole-unit options: a whole-unit option taken is stored as 1.

Lists saved before an option became whole-unit (anti-tank grenades for the whole squad) kept a
count of men; the rules read any count as "taken", but the list format ``muster-list/2`` and
the group limits count a whole-unit option as one choice, so the stored counts are brought to
1. Nothing else in a saved entry changes meaning: ``models_count`` stays the unit's own men,
and teams (``Option.adds_models``) add theirs through the options taken.
"""

from __future__ import annotations

from django.db import migrations


def whole_unit_counts_to_one(apps, schema_editor):
    Entry = apps.get_model("lists", "Entry")
    Option = apps.get_model("catalogue", "Option")
    whole = {}
    for unit_id, slug in Option.objects.filter(all_models=True).values_list("unit_id", "slug"):
        whole.setdefault(unit_id, set()).add(slug)
    changed = []
    for entry in Entry.objects.filter(unit_id__in=list(whole)).only("pk", "unit_id", "options").iterator():
        options = dict(entry.options or {})
        fixed = {
            slug: 1 if slug in whole[entry.unit_id] and isinstance(count, int) and count > 1 else count
            for slug, count in options.items()
        }
        if fixed != options:
            entry.options = fixed
            changed.append(entry)
    # bulk_update leaves ``updated_at`` alone: the list did not change in the player's eyes.
    Entry.objects.bulk_update(changed, ["options"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("lists", "0002_entry_and_platoon_stamps"),
        ("catalogue", "0008_option_teams_groups_free_units"),
    ]

    operations = [migrations.RunPython(whole_unit_counts_to_one, migrations.RunPython.noop)]

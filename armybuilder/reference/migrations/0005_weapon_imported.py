from __future__ import annotations

from django.db import migrations, models


def mark_imported(apps, schema_editor):
    """Weapons earlier imports created carry the source ``import: <files>``: they leave the rulebook chart."""
    Weapon = apps.get_model("reference", "Weapon")
    Weapon.objects.filter(source__startswith="import:").update(imported=True)


class Migration(migrations.Migration):
    dependencies = [
        ("reference", "0004_search_alias_stamp"),
    ]

    operations = [
        migrations.AddField(
            model_name="weapon",
            name="imported",
            field=models.BooleanField(default=False, help_text="Brought by a catalogue import; not in the rulebook."),
        ),
        migrations.RunPython(mark_imported, migrations.RunPython.noop),
    ]

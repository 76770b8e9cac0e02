from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("events", "0005_entrant_dropped_from"),
    ]

    operations = [
        migrations.AddField(
            model_name="event",
            name="standings_hidden",
            field=models.BooleanField(default=False, verbose_name="hide the standings"),
        ),
    ]

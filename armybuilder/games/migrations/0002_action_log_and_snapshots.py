"""Each action keeps its log line, and every SNAPSHOT_EVERY-th the state after it.

Games already under way are replayed once here to fill both in, so no request replays them again.
"""

from __future__ import annotations

from django.db import migrations, models

from rules.game.engine import SNAPSHOT_EVERY, Action, GameSetup, apply, log_entry_to_data, new_state, state_to_data


def fill_logs_and_snapshots(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    GameAction = apps.get_model("games", "GameAction")
    for game in Game.objects.iterator():
        state = new_state(GameSetup.from_data(game.setup))
        rows = list(GameAction.objects.filter(game=game).order_by("seq"))
        for row in rows:
            apply(state, Action.from_data(row.payload))
            row.log = log_entry_to_data(state.log[-1])
            row.snapshot = state_to_data(state) if row.seq % SNAPSHOT_EVERY == 0 else None
        GameAction.objects.bulk_update(rows, ["log", "snapshot"], batch_size=500)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0001_games_and_actions"),
    ]

    operations = [
        migrations.AddField(
            model_name="gameaction",
            name="log",
            field=models.JSONField(default=dict),
        ),
        migrations.AddField(
            model_name="gameaction",
            name="snapshot",
            field=models.JSONField(blank=True, null=True),
        ),
        migrations.RunPython(fill_logs_and_snapshots, migrations.RunPython.noop),
    ]

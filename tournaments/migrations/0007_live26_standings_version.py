from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0006_merge_event_day_and_season"),
    ]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="standings_version",
            field=models.PositiveBigIntegerField(default=0),
        ),
    ]

"""API tokens stored hashed: a table of SHA-256 digests, and every existing DRF token moved into it (its
plain-text row deleted), so clients keep working with the tokens they hold."""

import hashlib

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def hash_existing_tokens(apps, schema_editor):
    Token = apps.get_model("authtoken", "Token")
    ApiToken = apps.get_model("accounts", "ApiToken")
    for token in Token.objects.all().iterator():
        digest = hashlib.sha256(token.key.encode("utf-8", "replace")).hexdigest()
        row = ApiToken.objects.create(digest=digest, user_id=token.user_id)
        ApiToken.objects.filter(pk=row.pk).update(created_at=token.created)
    Token.objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [
        ("accounts", "0002_harden_attempt_counter"),
        ("authtoken", "0004_alter_tokenproxy_options"),
    ]

    operations = [
        migrations.CreateModel(
            name="ApiToken",
            fields=[
                ("digest", models.CharField(max_length=64, primary_key=True, serialize=False)),
                ("created_at", models.DateTimeField(auto_now_add=True, db_index=True)),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="api_tokens",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
        ),
        # The plain-text tokens cannot be brought back from their digests: going back leaves none.
        migrations.RunPython(hash_existing_tokens, migrations.RunPython.noop),
    ]

from __future__ import annotations

from django.conf import settings
from django.db import models


class IdempotencyKey(models.Model):
    """One write a user made with an ``Idempotency-Key`` header, and the answer it got.

    The row is inserted in the same transaction as the write itself, so the unique constraint decides which of
    two simultaneous requests with one key applies: the other waits for that transaction and replays its
    answer. ``fingerprint`` (method, path, query and body) tells a replay from a different request under a reused key.
    """

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="+")
    key = models.CharField(max_length=255)
    fingerprint = models.CharField(max_length=64)
    created_at = models.DateTimeField(db_index=True)
    status_code = models.PositiveSmallIntegerField(default=200)
    # An HTML view's answer is stored as its bytes and headers; an API answer as its data (JSON), rendered
    # again on replay so content negotiation still applies.
    content_type = models.CharField(max_length=100, blank=True)
    location = models.CharField(max_length=2000, blank=True)
    body = models.BinaryField(default=b"")
    api_data = models.JSONField(null=True, blank=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["user", "key"], name="idempotency_user_key_unique")]

    def __str__(self) -> str:
        return f"{self.user_id}:{self.key}"

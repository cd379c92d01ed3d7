"""API tokens, hashed at rest (accounts.models.ApiToken), and DRF's authentication reading them.

``api_token_create`` returns the token once; only its SHA-256 digest is stored. Each request for a token
makes a new one (a device, a script), and an account keeps its newest MAX_TOKENS_PER_USER.
"""

from __future__ import annotations

import hashlib
import secrets
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from .models import ApiToken

MAX_TOKENS_PER_USER = 10


def token_digest(raw: str) -> str:
    return hashlib.sha256(raw.encode("utf-8", "replace")).hexdigest()


@transaction.atomic
def api_token_create(*, user: Any) -> str:
    """A new token for ``user``; the caller shows it once. The oldest beyond the cap are revoked."""
    raw = secrets.token_hex(20)  # 40 characters, the shape DRF's tokens had
    ApiToken.objects.create(digest=token_digest(raw), user=user)
    stale = ApiToken.objects.filter(user=user).order_by("-created_at", "-digest")[MAX_TOKENS_PER_USER:]
    ApiToken.objects.filter(digest__in=list(stale.values_list("digest", flat=True))).delete()
    return raw


class HashedTokenAuthentication(TokenAuthentication):
    """``Authorization: Token <token>``, checked against the stored digests."""

    def authenticate_credentials(self, key: str) -> tuple[Any, ApiToken]:
        token = ApiToken.objects.select_related("user").filter(digest=token_digest(key)).first()
        if token is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        return token.user, token

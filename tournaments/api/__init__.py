"""REST API for tournaments (``events``, ``matches``; ``penalties`` and ``mending`` are plain views routed in
``tournaments/api_urls.py``). Integrations rely on these shapes: keep them stable (see the OpenAPI schema).

Views only parse input (``tournaments.serializers``) and call one service; permissions are enforced by the
services themselves. Every response body is produced by the output serializer its schema names, and every
status an operation can answer is documented: 400 (bad input, nothing changed), 401/403 (who may not),
404, 409 (a confirm of a result that changed since) and 429 (too many join attempts).
"""

from .events import TournamentViewSet
from .matches import MatchViewSet

__all__ = ["MatchViewSet", "TournamentViewSet"]

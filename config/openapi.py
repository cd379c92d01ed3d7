"""OpenAPI post-processing: statuses every operation with a request body can answer.

Any operation that reads a body answers 415 when the body's media type is one it cannot read (DRF's
content negotiation, before the view runs): a client sending XML, or a multipart body too broken to tell
its type. Documented once here for every such operation, with the same error shape as its 400, so the
schema states what the API really answers without each view repeating it.
"""

from __future__ import annotations

from typing import Any

UNSUPPORTED_MEDIA_TYPE = "415"


def document_unsupported_media_type(result: dict[str, Any], **kwargs: Any) -> dict[str, Any]:
    for path_item in result.get("paths", {}).values():
        for operation in path_item.values():
            if not isinstance(operation, dict) or "requestBody" not in operation:
                continue
            responses = operation.setdefault("responses", {})
            if UNSUPPORTED_MEDIA_TYPE in responses:
                continue
            shape = responses.get("400", {}).get("content")
            answer: dict[str, Any] = {"description": "The body's media type cannot be read."}
            if shape:
                answer["content"] = shape
            responses[UNSUPPORTED_MEDIA_TYPE] = answer
    return result

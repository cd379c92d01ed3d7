"""Idempotency-Key for writes from phones: a retried POST (its answer lost on the venue Wi-Fi, or sent again by
the page's offline queue) is applied once and answered with the first answer."""

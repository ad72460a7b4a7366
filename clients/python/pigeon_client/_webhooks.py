"""Checking that a webhook request came from pigeon, before trusting its body."""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
from collections.abc import Mapping

from ._front import PigeonError
from .generated.models import EventItem

TOLERANCE_SECONDS = 300


def _refused(why: str) -> PigeonError:
    return PigeonError(None, "INVALID_SIGNATURE", why)


def verify_webhook(
    body: bytes,
    headers: Mapping[str, str],
    secret: str,
    *,
    tolerance: int = TOLERANCE_SECONDS,
    now: float | None = None,
) -> EventItem:
    """The event of a webhook request, once its signature is checked over the exact `body`
    received; raises `PigeonError` with code `INVALID_SIGNATURE` otherwise.

    A generated `whsec_…` secret is checked by Standard Webhooks' scheme (`webhook-id`,
    `webhook-timestamp`, `webhook-signature`; a timestamp more than `tolerance` seconds from now
    is refused, so a captured request cannot be replayed); any other secret by
    `x-service-signature`, the spec's HMAC of the body.
    """
    if isinstance(body, str):
        body = body.encode()
    h = {k.lower(): v for k, v in headers.items()}
    if secret.startswith("whsec_"):
        msg_id, stamp, signature = h.get("webhook-id"), h.get("webhook-timestamp"), h.get("webhook-signature")
        if not (msg_id and stamp and signature):
            raise _refused("the webhook-id, webhook-timestamp and webhook-signature headers are required")
        try:
            sent = int(stamp)
        except ValueError:
            raise _refused("webhook-timestamp is not a number of seconds") from None
        if abs((time.time() if now is None else now) - sent) > tolerance:
            raise _refused(f"webhook-timestamp is more than {tolerance} s from now")
        key = base64.b64decode(secret[len("whsec_") :])
        mac = hmac.new(key, f"{msg_id}.{sent}.".encode() + body, hashlib.sha256).digest()
        expected = base64.b64encode(mac).decode()
        given = [part[3:] for part in signature.split() if part.startswith("v1,")]
        ok = any(hmac.compare_digest(expected, g) for g in given)
    else:
        header = h.get("x-service-signature", "")
        expected = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
        ok = hmac.compare_digest(expected, header)
    if not ok:
        raise _refused("the signature does not match the body and the secret")
    return EventItem.from_dict(json.loads(body))

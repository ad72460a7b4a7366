"""pigeon's Python SDK.

`Pigeon` is the hand-written front: typed answers, `PigeonError`, lists as iterators over every
page, retries as the spec's client guidance says, and `verify_webhook`. Every operation of the
API, the operator's included, is also in `pigeon_client.generated` (generated from the served
OpenAPI document; `clients/generate`).
"""

from ._front import DEFAULT_BASE_URL, Pigeon, PigeonError
from ._webhooks import verify_webhook

__all__ = ["DEFAULT_BASE_URL", "Pigeon", "PigeonError", "verify_webhook"]

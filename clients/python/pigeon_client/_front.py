"""The hand-written front: `Pigeon`, its resources, typed errors, paging and retries.

Answers are the generated models (`pigeon_client.generated.models`), read from each answer's
`data`; the requests are made here, so that retries, paging and errors behave the same on every
call.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Callable, Iterator
from typing import Any, TypeVar

import httpx

from .generated.models import (
    Accepted,
    ContactView,
    Deleted,
    EventItem,
    MediaView,
    MessageView,
    Recovering,
    SecretRotated,
    TemplateView,
    TestSent,
    WebhookCreated,
    WebhookItem,
)

T = TypeVar("T")

DEFAULT_BASE_URL = "http://127.0.0.1:8080"


class PigeonError(Exception):
    """An answer outside 2xx, in the API's envelope, or a request that got no answer.

    `status` is the HTTP status (`None` without an answer: `CONNECTION_FAILED` when none came,
    `INVALID_SIGNATURE` from `verify_webhook`),
    `code` the machine-readable code (`INVALID_PHONE_NUMBER`, `RATE_LIMIT_EXCEEDED`, …), `error`
    the text for people, `retry_after` the seconds `Retry-After` asked for (429, 503), and
    `request_id` the `X-Request-Id` to quote to the operator.
    """

    def __init__(
        self,
        status: int | None,
        code: str,
        error: str,
        retry_after: float | None = None,
        request_id: str | None = None,
        body: Any = None,
    ) -> None:
        super().__init__(f"{code}: {error}" if status is None else f"{status} {code}: {error}")
        self.status = status
        self.code = code
        self.error = error
        self.retry_after = retry_after
        self.request_id = request_id
        self.body = body


# The spec's client guidance: which statuses are worth another attempt, how many attempts in
# all, and the waits between them when the answer names none (`Retry-After` wins).
_RETRIES: dict[int, tuple[int, tuple[float, ...]]] = {
    429: (3, (1.0, 1.0)),
    500: (3, (1.0, 2.0)),
    503: (5, (2.0, 4.0, 8.0, 16.0)),
}
# A request that got no answer is tried again like a 500, when sending it twice is harmless.
_NO_ANSWER = 500


def _retry_after(res: httpx.Response) -> float | None:
    value = res.headers.get("retry-after")
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


class _Transport:
    def __init__(
        self,
        token: str,
        base_url: str,
        timeout: float,
        retries: bool,
        sleep: Callable[[float], None],
        http: httpx.Client | None,
    ) -> None:
        self._http = http or httpx.Client(base_url=base_url.rstrip("/"), timeout=timeout)
        self._auth = {"Authorization": f"Bearer {token}"}
        self._retries = retries
        self._sleep = sleep

    def close(self) -> None:
        self._http.close()

    def request(
        self,
        method: str,
        path: str,
        *,
        params: dict[str, Any] | None = None,
        json: Any = None,
        content: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> dict[str, Any]:
        """The answer's body (`{"data": …}`), after the retries the spec's guidance allows."""
        return self.send(method, path, params=params, json=json, content=content, headers=headers).json()

    def send(
        self,
        method: str,
        path: str,
        *,
        params: dict[str, Any] | None = None,
        json: Any = None,
        content: bytes | None = None,
        headers: dict[str, str] | None = None,
    ) -> httpx.Response:
        """The successful answer, after the retries the spec's guidance allows."""
        headers = {**self._auth, **(headers or {})}
        params = {k: _query_value(v) for k, v in (params or {}).items() if v is not None}
        # Sending twice is harmless for reads, deletes, and writes with an Idempotency-Key.
        repeatable = method in ("GET", "DELETE") or "Idempotency-Key" in headers
        attempt = 0
        while True:
            attempt += 1
            try:
                res = self._http.request(method, path, params=params, json=json, content=content, headers=headers)
            except httpx.TransportError as e:
                limit, waits = _RETRIES[_NO_ANSWER]
                if self._retries and repeatable and attempt < limit:
                    self._sleep(waits[min(attempt, len(waits)) - 1])
                    continue
                raise PigeonError(None, "CONNECTION_FAILED", str(e) or type(e).__name__) from e
            if res.is_success:
                return res
            rule = _RETRIES.get(res.status_code)
            if self._retries and rule and attempt < rule[0]:
                waits = rule[1]
                self._sleep(_retry_after(res) or waits[min(attempt, len(waits)) - 1])
                continue
            raise _error(res)

    def pages(self, path: str, params: dict[str, Any], model: Callable[[Any], T]) -> Iterator[T]:
        """Every item of a list, page after page, until `next_cursor` is null."""
        params = dict(params)
        while True:
            page = self.request("GET", path, params=params)
            for item in page.get("data", []):
                yield model(item)
            cursor = page.get("next_cursor")
            if not cursor:
                return
            params["after"] = cursor


def _query_value(v: Any) -> Any:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (list, tuple)):
        return ",".join(str(x) for x in v)
    if hasattr(v, "isoformat"):
        return v.isoformat()
    return v


def _error(res: httpx.Response) -> PigeonError:
    try:
        body = res.json()
    except ValueError:
        body = None
    if isinstance(body, dict) and isinstance(body.get("code"), str):
        code, error = body["code"], str(body.get("error", ""))
    else:
        code, error = f"HTTP_{res.status_code}", res.text[:200] or res.reason_phrase
    return PigeonError(res.status_code, code, error, _retry_after(res), res.headers.get("x-request-id"), body)


def _fields(given: dict[str, Any]) -> dict[str, Any]:
    """A JSON body of the fields given (None means: not given)."""
    return {k: v for k, v in given.items() if v is not None}


class Messages:
    """`/v1/messages`."""

    def __init__(self, t: _Transport) -> None:
        self._t = t

    def send(self, to: str, body: str | None = None, *, idempotency_key: str | None = None, **fields: Any) -> Accepted:
        """Sends a text (`from`, `channel`, `template_id`, `data`, `send_at`, `metadata`, … as
        keywords; `from_` for `from`). Every send carries an Idempotency-Key (one is made when
        none is given), so a retry after a lost answer never sends twice."""
        if "from_" in fields:
            fields["from"] = fields.pop("from_")
        payload = _fields({"to": to, "body": body, **fields})
        key = idempotency_key or f"sdk-{uuid.uuid4()}"
        data = self._t.request("POST", "/v1/messages", json=payload, headers={"Idempotency-Key": key})
        return Accepted.from_dict(data["data"])

    def get(self, message_id: str) -> MessageView:
        return MessageView.from_dict(self._t.request("GET", f"/v1/messages/{message_id}")["data"])

    def cancel(self, message_id: str) -> MessageView:
        """Cancels a message still queued or held."""
        return MessageView.from_dict(self._t.request("DELETE", f"/v1/messages/{message_id}")["data"])

    def list(self, **filters: Any) -> Iterator[MessageView]:
        """Every message matching `filters` (`status`, `to`, `from_`, `direction`, `campaign_id`,
        `created_after`, `created_before`, `order`, `limit` per page), across pages."""
        if "from_" in filters:
            filters["from"] = filters.pop("from_")
        return self._t.pages("/v1/messages", filters, MessageView.from_dict)


class _Crud:
    path = ""
    model: Any = None

    def __init__(self, t: _Transport) -> None:
        self._t = t

    def get(self, id: str) -> Any:
        return self.model.from_dict(self._t.request("GET", f"{self.path}/{id}")["data"])

    def list(self, **filters: Any) -> Iterator[Any]:
        return self._t.pages(self.path, filters, self.model.from_dict)

    def update(self, id: str, **fields: Any) -> Any:
        return self.model.from_dict(self._t.request("PATCH", f"{self.path}/{id}", json=fields)["data"])

    def delete(self, id: str) -> Deleted:
        return Deleted.from_dict(self._t.request("DELETE", f"{self.path}/{id}")["data"])


class Contacts(_Crud):
    """`/v1/contacts`."""

    path, model = "/v1/contacts", ContactView

    def create(self, phone: str, **fields: Any) -> ContactView:
        """A contact (`name`, `timezone`, `attributes` as keywords)."""
        return ContactView.from_dict(self._t.request("POST", self.path, json=_fields({"phone": phone, **fields}))["data"])


class Templates(_Crud):
    """`/v1/templates`."""

    path, model = "/v1/templates", TemplateView

    def create(self, name: str, body: str, **fields: Any) -> TemplateView:
        payload = _fields({"name": name, "body": body, **fields})
        return TemplateView.from_dict(self._t.request("POST", self.path, json=payload)["data"])


class Webhooks(_Crud):
    """`/v1/webhooks`."""

    path, model = "/v1/webhooks", WebhookItem

    def create(self, url: str, events: list[str], **fields: Any) -> WebhookCreated:
        """A webhook; the answer holds its `secret`, shown this once."""
        payload = _fields({"url": url, "events": events, **fields})
        return WebhookCreated.from_dict(self._t.request("POST", self.path, json=payload)["data"])

    def recover(self, id: str, since: Any, until: Any = None) -> Recovering:
        """Delivers again every delivery that failed since `since` (and before `until`), RFC 3339
        strings or datetimes."""
        payload = _fields({"since": _query_value(since), "until": _query_value(until) if until else None})
        return Recovering.from_dict(self._t.request("POST", f"{self.path}/{id}/recover", json=payload)["data"])

    def rotate_secret(self, id: str) -> SecretRotated:
        return SecretRotated.from_dict(self._t.request("POST", f"{self.path}/{id}/rotate-secret")["data"])

    def test(self, id: str) -> TestSent:
        """Sends a `webhook.test` event through the normal delivery path."""
        return TestSent.from_dict(self._t.request("POST", f"{self.path}/{id}/test")["data"])


class Media:
    """`/v1/media`: files to send. `upload` streams nothing itself: pass the file's bytes."""

    def __init__(self, t: _Transport) -> None:
        self._t = t

    def upload(self, content: bytes, content_type: str, *, filename: str | None = None) -> MediaView:
        """Uploads a file (`image/png`, `application/pdf`, …; the bytes must begin as the type's do)."""
        data = self._t.request(
            "POST", "/v1/media", params={"filename": filename}, content=content, headers={"Content-Type": content_type}
        )
        return MediaView.from_dict(data["data"])

    def get(self, media_id: str) -> MediaView:
        """The record, with a fresh signed `url` (good for 7 days, no key needed)."""
        return MediaView.from_dict(self._t.request("GET", f"/v1/media/{media_id}")["data"])

    def content(self, media_id: str) -> bytes:
        """The file's bytes."""
        return self._t.send("GET", f"/v1/media/{media_id}/content").content


class Events:
    """`/v1/events`: the tenant's events in the order they became durable."""

    def __init__(self, t: _Transport) -> None:
        self._t = t

    def list(self, *, after: str | None = None, types: list[str] | None = None, limit: int | None = None) -> Iterator[EventItem]:
        """Every event after `after` (from the oldest kept without it), up to the end of the log."""
        params: dict[str, Any] = {"after": after, "types": types, "limit": limit}
        while True:
            page = self._t.request("GET", "/v1/events", params=params)
            for item in page["data"]:
                yield EventItem.from_dict(item)
            if not page["data"]:
                return
            params["after"] = page["next_cursor"]

    def follow(self, *, after: str | None = None, types: list[str] | None = None, wait: int = 30) -> Iterator[EventItem]:
        """Every event after `after`, then each new one as it comes (long polls of `wait`
        seconds), forever: the loop a receiver without a public URL runs."""
        params: dict[str, Any] = {"after": after, "types": types, "wait": wait}
        while True:
            page = self._t.request("GET", "/v1/events", params=params)
            for item in page["data"]:
                yield EventItem.from_dict(item)
            params["after"] = page["next_cursor"]


class Pigeon:
    """A tenant's client: `Pigeon("svc_live_…")`, then `.messages`, `.media`, `.contacts`,
    `.templates`, `.webhooks` and `.events`.

    429, 500 and 503 answers are tried again as the spec's client guidance says (`Retry-After`
    honoured; at most 3, 3 and 5 attempts); `retries=False` raises at the first. A request that
    got no answer is tried again when sending it twice is harmless (reads, deletes, sends).
    """

    def __init__(
        self,
        api_key: str,
        base_url: str = DEFAULT_BASE_URL,
        *,
        timeout: float = 40.0,
        retries: bool = True,
        http_client: httpx.Client | None = None,
        sleep: Callable[[float], None] = time.sleep,
    ) -> None:
        # The timeout exceeds the longest long poll (30 s).
        self._t = _Transport(api_key, base_url, timeout, retries, sleep, http_client)
        self.messages = Messages(self._t)
        self.media = Media(self._t)
        self.contacts = Contacts(self._t)
        self.templates = Templates(self._t)
        self.webhooks = Webhooks(self._t)
        self.events = Events(self._t)

    def close(self) -> None:
        self._t.close()

    def __enter__(self) -> Pigeon:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="CreateWebhook")


@_attrs_define
class CreateWebhook:
    """Body of `POST /v1/webhooks`.

    Attributes:
        events (list[str]): Non-empty subset of `message.delivered`, `message.failed`, `message.received`,
            `message.sent`, `message.read`, `phone.offline`, `phone.online`, `phone.disabled`.
        url (str): Absolute `http(s)` URL that receives events.
        secret (None | str | Unset): Signing secret, 16–256 visible ASCII characters; generated (`whsec_…`) when
            omitted.
    """

    events: list[str]
    url: str
    secret: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        events = self.events

        url = self.url

        secret: None | str | Unset
        if isinstance(self.secret, Unset):
            secret = UNSET
        else:
            secret = self.secret

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "events": events,
                "url": url,
            }
        )
        if secret is not UNSET:
            field_dict["secret"] = secret

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        events = cast(list[str], d.pop("events"))

        url = d.pop("url")

        def _parse_secret(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        secret = _parse_secret(d.pop("secret", UNSET))

        create_webhook = cls(
            events=events,
            url=url,
            secret=secret,
        )

        return create_webhook

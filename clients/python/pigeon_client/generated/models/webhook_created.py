from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="WebhookCreated")


@_attrs_define
class WebhookCreated:
    """A webhook as registered: the only answer that shows the secret.

    Attributes:
        created_at (datetime.datetime): Creation time.
        events (list[str]): Subscribed events.
        id (str): Webhook id.
        secret (str): Signing secret.
        url (str): Endpoint.
    """

    created_at: datetime.datetime
    events: list[str]
    id: str
    secret: str
    url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        events = self.events

        id = self.id

        secret = self.secret

        url = self.url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "events": events,
                "id": id,
                "secret": secret,
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        events = cast(list[str], d.pop("events"))

        id = d.pop("id")

        secret = d.pop("secret")

        url = d.pop("url")

        webhook_created = cls(
            created_at=created_at,
            events=events,
            id=id,
            secret=secret,
            url=url,
        )

        webhook_created.additional_properties = d
        return webhook_created

    @property
    def additional_keys(self) -> list[str]:
        return list(self.additional_properties.keys())

    def __getitem__(self, key: str) -> Any:
        return self.additional_properties[key]

    def __setitem__(self, key: str, value: Any) -> None:
        self.additional_properties[key] = value

    def __delitem__(self, key: str) -> None:
        del self.additional_properties[key]

    def __contains__(self, key: str) -> bool:
        return key in self.additional_properties

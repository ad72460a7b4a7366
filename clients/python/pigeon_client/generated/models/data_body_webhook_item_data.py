from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DataBodyWebhookItemData")


@_attrs_define
class DataBodyWebhookItemData:
    """A webhook as listed.

    Attributes:
        created_at (datetime.datetime): Creation time.
        enabled (bool): Whether it gets deliveries.
        events (list[str]): Subscribed events.
        id (str): Webhook id.
        secret_hint (str): `...` and the secret's last four characters.
        url (str): Endpoint.
    """

    created_at: datetime.datetime
    enabled: bool
    events: list[str]
    id: str
    secret_hint: str
    url: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        enabled = self.enabled

        events = self.events

        id = self.id

        secret_hint = self.secret_hint

        url = self.url

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "enabled": enabled,
                "events": events,
                "id": id,
                "secret_hint": secret_hint,
                "url": url,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        enabled = d.pop("enabled")

        events = cast(list[str], d.pop("events"))

        id = d.pop("id")

        secret_hint = d.pop("secret_hint")

        url = d.pop("url")

        data_body_webhook_item_data = cls(
            created_at=created_at,
            enabled=enabled,
            events=events,
            id=id,
            secret_hint=secret_hint,
            url=url,
        )

        data_body_webhook_item_data.additional_properties = d
        return data_body_webhook_item_data

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

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DataBodyTestSentData")


@_attrs_define
class DataBodyTestSentData:
    """A test event on its way.

    Attributes:
        delivery_id (str): The delivery: see it in `GET /v1/webhooks/{id}/deliveries`.
        event (str): `webhook.test`.
        event_id (str): The event's id (`webhook-id`).
    """

    delivery_id: str
    event: str
    event_id: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        delivery_id = self.delivery_id

        event = self.event

        event_id = self.event_id

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "delivery_id": delivery_id,
                "event": event,
                "event_id": event_id,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        delivery_id = d.pop("delivery_id")

        event = d.pop("event")

        event_id = d.pop("event_id")

        data_body_test_sent_data = cls(
            delivery_id=delivery_id,
            event=event,
            event_id=event_id,
        )

        data_body_test_sent_data.additional_properties = d
        return data_body_test_sent_data

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

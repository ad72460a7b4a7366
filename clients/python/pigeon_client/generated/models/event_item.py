from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="EventItem")


@_attrs_define
class EventItem:
    """An event as a webhook gets it: these fields, then the event's own (see docs/api.md).

    Attributes:
        event (str): Its name, e.g. `message.delivered`.
        event_id (str): Its id, the same in every webhook delivery of it; also its cursor.
        timestamp (str): When it happened (RFC 3339).
    """

    event: str
    event_id: str
    timestamp: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        event = self.event

        event_id = self.event_id

        timestamp = self.timestamp

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "event": event,
                "event_id": event_id,
                "timestamp": timestamp,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        event = d.pop("event")

        event_id = d.pop("event_id")

        timestamp = d.pop("timestamp")

        event_item = cls(
            event=event,
            event_id=event_id,
            timestamp=timestamp,
        )

        event_item.additional_properties = d
        return event_item

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

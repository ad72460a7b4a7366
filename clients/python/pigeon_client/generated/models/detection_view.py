from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="DetectionView")


@_attrs_define
class DetectionView:
    """Whether a number has iMessage.

    Attributes:
        cached (bool): Answered from the 7-day cache.
        checked_at (datetime.datetime): When a phone checked it.
        imessage (bool): Has iMessage.
        phone (str): The number.
    """

    cached: bool
    checked_at: datetime.datetime
    imessage: bool
    phone: str
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cached = self.cached

        checked_at = self.checked_at.isoformat()

        imessage = self.imessage

        phone = self.phone

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cached": cached,
                "checked_at": checked_at,
                "imessage": imessage,
                "phone": phone,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        cached = d.pop("cached")

        checked_at = datetime.datetime.fromisoformat(d.pop("checked_at"))

        imessage = d.pop("imessage")

        phone = d.pop("phone")

        detection_view = cls(
            cached=cached,
            checked_at=checked_at,
            imessage=imessage,
            phone=phone,
        )

        detection_view.additional_properties = d
        return detection_view

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

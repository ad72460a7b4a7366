from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="TenantPhone")


@_attrs_define
class TenantPhone:
    """A phone as its tenant sees it.

    Attributes:
        daily_limit (int): Messages allowed per UTC day.
        id (str): Phone id.
        number (str): E.164 number.
        online (bool): Online now.
        sent_today (int): Messages assigned today (UTC).
    """

    daily_limit: int
    id: str
    number: str
    online: bool
    sent_today: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        daily_limit = self.daily_limit

        id = self.id

        number = self.number

        online = self.online

        sent_today = self.sent_today

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "daily_limit": daily_limit,
                "id": id,
                "number": number,
                "online": online,
                "sent_today": sent_today,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        daily_limit = d.pop("daily_limit")

        id = d.pop("id")

        number = d.pop("number")

        online = d.pop("online")

        sent_today = d.pop("sent_today")

        tenant_phone = cls(
            daily_limit=daily_limit,
            id=id,
            number=number,
            online=online,
            sent_today=sent_today,
        )

        tenant_phone.additional_properties = d
        return tenant_phone

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

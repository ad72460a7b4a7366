from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="TenantPhone")


@_attrs_define
class TenantPhone:
    """A phone as its tenant sees it.

    Attributes:
        daily_limit (int): Messages allowed per UTC day.
        enabled (bool): Chosen for sends only when true.
        id (str): Phone id.
        number (str): E.164 number.
        online (bool): Online now.
        sent_today (int): Messages assigned today (UTC).
        disabled_reason (None | str | Unset): Why the phone disabled itself, in plain English; null otherwise.
    """

    daily_limit: int
    enabled: bool
    id: str
    number: str
    online: bool
    sent_today: int
    disabled_reason: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        daily_limit = self.daily_limit

        enabled = self.enabled

        id = self.id

        number = self.number

        online = self.online

        sent_today = self.sent_today

        disabled_reason: None | str | Unset
        if isinstance(self.disabled_reason, Unset):
            disabled_reason = UNSET
        else:
            disabled_reason = self.disabled_reason

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "daily_limit": daily_limit,
                "enabled": enabled,
                "id": id,
                "number": number,
                "online": online,
                "sent_today": sent_today,
            }
        )
        if disabled_reason is not UNSET:
            field_dict["disabled_reason"] = disabled_reason

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        daily_limit = d.pop("daily_limit")

        enabled = d.pop("enabled")

        id = d.pop("id")

        number = d.pop("number")

        online = d.pop("online")

        sent_today = d.pop("sent_today")

        def _parse_disabled_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        disabled_reason = _parse_disabled_reason(d.pop("disabled_reason", UNSET))

        tenant_phone = cls(
            daily_limit=daily_limit,
            enabled=enabled,
            id=id,
            number=number,
            online=online,
            sent_today=sent_today,
            disabled_reason=disabled_reason,
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

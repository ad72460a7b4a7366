from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="AgentPhone")


@_attrs_define
class AgentPhone:
    """The phone an agent token belongs to, as `GET /phone/v1/me` answers (the agent's `--check`).

    Attributes:
        daily_limit (int): Messages per UTC day.
        enabled (bool): Whether the node routes messages to it.
        number (str): Its number, E.164.
        phone_id (str): Phone id.
        sent_today (int): Messages assigned to it today (UTC).
    """

    daily_limit: int
    enabled: bool
    number: str
    phone_id: str
    sent_today: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        daily_limit = self.daily_limit

        enabled = self.enabled

        number = self.number

        phone_id = self.phone_id

        sent_today = self.sent_today

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "daily_limit": daily_limit,
                "enabled": enabled,
                "number": number,
                "phone_id": phone_id,
                "sent_today": sent_today,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        daily_limit = d.pop("daily_limit")

        enabled = d.pop("enabled")

        number = d.pop("number")

        phone_id = d.pop("phone_id")

        sent_today = d.pop("sent_today")

        agent_phone = cls(
            daily_limit=daily_limit,
            enabled=enabled,
            number=number,
            phone_id=phone_id,
            sent_today=sent_today,
        )

        agent_phone.additional_properties = d
        return agent_phone

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

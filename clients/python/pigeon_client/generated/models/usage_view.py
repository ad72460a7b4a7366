from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="UsageView")


@_attrs_define
class UsageView:
    """What an operator sees of a tenant's usage.

    Attributes:
        api_calls_this_month (int): Live API calls counted this UTC month.
        new_contacts_today (int): First-time recipients today (UTC).
    """

    api_calls_this_month: int
    new_contacts_today: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        api_calls_this_month = self.api_calls_this_month

        new_contacts_today = self.new_contacts_today

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "api_calls_this_month": api_calls_this_month,
                "new_contacts_today": new_contacts_today,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        api_calls_this_month = d.pop("api_calls_this_month")

        new_contacts_today = d.pop("new_contacts_today")

        usage_view = cls(
            api_calls_this_month=api_calls_this_month,
            new_contacts_today=new_contacts_today,
        )

        usage_view.additional_properties = d
        return usage_view

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

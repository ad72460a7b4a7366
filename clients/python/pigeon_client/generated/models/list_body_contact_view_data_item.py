from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.list_body_contact_view_data_item_attributes import ListBodyContactViewDataItemAttributes


T = TypeVar("T", bound="ListBodyContactViewDataItem")


@_attrs_define
class ListBodyContactViewDataItem:
    """A contact.

    Attributes:
        attributes (ListBodyContactViewDataItemAttributes): Attributes.
        created_at (datetime.datetime): Creation time.
        id (str): Contact id.
        opted_out (bool): The number sent STOP (and not START since).
        phone (str): E.164 number.
        updated_at (datetime.datetime): Last change.
        name (None | str | Unset): Display name.
        timezone (None | str | Unset): IANA zone.
    """

    attributes: ListBodyContactViewDataItemAttributes
    created_at: datetime.datetime
    id: str
    opted_out: bool
    phone: str
    updated_at: datetime.datetime
    name: None | str | Unset = UNSET
    timezone: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attributes = self.attributes.to_dict()

        created_at = self.created_at.isoformat()

        id = self.id

        opted_out = self.opted_out

        phone = self.phone

        updated_at = self.updated_at.isoformat()

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        timezone: None | str | Unset
        if isinstance(self.timezone, Unset):
            timezone = UNSET
        else:
            timezone = self.timezone

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attributes": attributes,
                "created_at": created_at,
                "id": id,
                "opted_out": opted_out,
                "phone": phone,
                "updated_at": updated_at,
            }
        )
        if name is not UNSET:
            field_dict["name"] = name
        if timezone is not UNSET:
            field_dict["timezone"] = timezone

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.list_body_contact_view_data_item_attributes import ListBodyContactViewDataItemAttributes  # noqa: PLC0415

        d = dict(src_dict)
        attributes = ListBodyContactViewDataItemAttributes.from_dict(d.pop("attributes"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        id = d.pop("id")

        opted_out = d.pop("opted_out")

        phone = d.pop("phone")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_timezone(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        timezone = _parse_timezone(d.pop("timezone", UNSET))

        list_body_contact_view_data_item = cls(
            attributes=attributes,
            created_at=created_at,
            id=id,
            opted_out=opted_out,
            phone=phone,
            updated_at=updated_at,
            name=name,
            timezone=timezone,
        )

        list_body_contact_view_data_item.additional_properties = d
        return list_body_contact_view_data_item

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

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.patch_contact_attributes_type_0 import PatchContactAttributesType0


T = TypeVar("T", bound="PatchContact")


@_attrs_define
class PatchContact:
    """Body of `PATCH /v1/contacts/{id}`; `null` clears `name` or `timezone`.

    Attributes:
        attributes (None | PatchContactAttributesType0 | Unset): Replaces every attribute.
        name (None | str | Unset): Display name.
        phone (None | str | Unset): New phone (E.164, unique).
        timezone (None | str | Unset): IANA zone.
    """

    attributes: None | PatchContactAttributesType0 | Unset = UNSET
    name: None | str | Unset = UNSET
    phone: None | str | Unset = UNSET
    timezone: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.patch_contact_attributes_type_0 import PatchContactAttributesType0  # noqa: PLC0415

        attributes: dict[str, Any] | None | Unset
        if isinstance(self.attributes, Unset):
            attributes = UNSET
        elif isinstance(self.attributes, PatchContactAttributesType0):
            attributes = self.attributes.to_dict()
        else:
            attributes = self.attributes

        name: None | str | Unset
        if isinstance(self.name, Unset):
            name = UNSET
        else:
            name = self.name

        phone: None | str | Unset
        if isinstance(self.phone, Unset):
            phone = UNSET
        else:
            phone = self.phone

        timezone: None | str | Unset
        if isinstance(self.timezone, Unset):
            timezone = UNSET
        else:
            timezone = self.timezone

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if attributes is not UNSET:
            field_dict["attributes"] = attributes
        if name is not UNSET:
            field_dict["name"] = name
        if phone is not UNSET:
            field_dict["phone"] = phone
        if timezone is not UNSET:
            field_dict["timezone"] = timezone

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.patch_contact_attributes_type_0 import PatchContactAttributesType0  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_attributes(data: object) -> None | PatchContactAttributesType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                attributes_type_0 = PatchContactAttributesType0.from_dict(data)

                return attributes_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | PatchContactAttributesType0 | Unset, data)

        attributes = _parse_attributes(d.pop("attributes", UNSET))

        def _parse_name(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        name = _parse_name(d.pop("name", UNSET))

        def _parse_phone(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        phone = _parse_phone(d.pop("phone", UNSET))

        def _parse_timezone(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        timezone = _parse_timezone(d.pop("timezone", UNSET))

        patch_contact = cls(
            attributes=attributes,
            name=name,
            phone=phone,
            timezone=timezone,
        )

        return patch_contact

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.create_contact_attributes_type_0 import CreateContactAttributesType0


T = TypeVar("T", bound="CreateContact")


@_attrs_define
class CreateContact:
    """Body of `POST /v1/contacts`.

    Attributes:
        phone (str): E.164, unique in the account.
        attributes (CreateContactAttributesType0 | None | Unset): String attributes; they also fill template variables.
        name (None | str | Unset): Display name.
        timezone (None | str | Unset): IANA time zone (quiet hours use it).
    """

    phone: str
    attributes: CreateContactAttributesType0 | None | Unset = UNSET
    name: None | str | Unset = UNSET
    timezone: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.create_contact_attributes_type_0 import CreateContactAttributesType0  # noqa: PLC0415

        phone = self.phone

        attributes: dict[str, Any] | None | Unset
        if isinstance(self.attributes, Unset):
            attributes = UNSET
        elif isinstance(self.attributes, CreateContactAttributesType0):
            attributes = self.attributes.to_dict()
        else:
            attributes = self.attributes

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

        field_dict.update(
            {
                "phone": phone,
            }
        )
        if attributes is not UNSET:
            field_dict["attributes"] = attributes
        if name is not UNSET:
            field_dict["name"] = name
        if timezone is not UNSET:
            field_dict["timezone"] = timezone

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_contact_attributes_type_0 import CreateContactAttributesType0  # noqa: PLC0415

        d = dict(src_dict)
        phone = d.pop("phone")

        def _parse_attributes(data: object) -> CreateContactAttributesType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                attributes_type_0 = CreateContactAttributesType0.from_dict(data)

                return attributes_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CreateContactAttributesType0 | None | Unset, data)

        attributes = _parse_attributes(d.pop("attributes", UNSET))

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

        create_contact = cls(
            phone=phone,
            attributes=attributes,
            name=name,
            timezone=timezone,
        )

        return create_contact

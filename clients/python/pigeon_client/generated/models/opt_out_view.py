from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="OptOutView")


@_attrs_define
class OptOutView:
    """A number opted out of the tenant.

    Attributes:
        phone (str): E.164 number.
        via (str): `keyword` (it texted STOP or a synonym) or `api` (`POST /v1/opt-outs`). Example: keyword.
        keyword (None | str | Unset): The keyword as matched, upper-cased; null for `api`.
        opted_out_at (datetime.datetime | None | Unset): When it opted out (null for one recorded before opt-outs kept
            their time).
    """

    phone: str
    via: str
    keyword: None | str | Unset = UNSET
    opted_out_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        phone = self.phone

        via = self.via

        keyword: None | str | Unset
        if isinstance(self.keyword, Unset):
            keyword = UNSET
        else:
            keyword = self.keyword

        opted_out_at: None | str | Unset
        if isinstance(self.opted_out_at, Unset):
            opted_out_at = UNSET
        elif isinstance(self.opted_out_at, datetime.datetime):
            opted_out_at = self.opted_out_at.isoformat()
        else:
            opted_out_at = self.opted_out_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "phone": phone,
                "via": via,
            }
        )
        if keyword is not UNSET:
            field_dict["keyword"] = keyword
        if opted_out_at is not UNSET:
            field_dict["opted_out_at"] = opted_out_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        phone = d.pop("phone")

        via = d.pop("via")

        def _parse_keyword(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        keyword = _parse_keyword(d.pop("keyword", UNSET))

        def _parse_opted_out_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                opted_out_at_type_0 = datetime.datetime.fromisoformat(data)

                return opted_out_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        opted_out_at = _parse_opted_out_at(d.pop("opted_out_at", UNSET))

        opt_out_view = cls(
            phone=phone,
            via=via,
            keyword=keyword,
            opted_out_at=opted_out_at,
        )

        opt_out_view.additional_properties = d
        return opt_out_view

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

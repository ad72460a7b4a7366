from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="CreateOptOut")


@_attrs_define
class CreateOptOut:
    """Body of `POST /v1/opt-outs`.

    Attributes:
        phone (str): E.164 number.
    """

    phone: str

    def to_dict(self) -> dict[str, Any]:
        phone = self.phone

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "phone": phone,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        phone = d.pop("phone")

        create_opt_out = cls(
            phone=phone,
        )

        return create_opt_out

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define

T = TypeVar("T", bound="CreateTemplate")


@_attrs_define
class CreateTemplate:
    """Body of `POST /v1/templates`.

    Attributes:
        body (str): 1–10,000 characters; `{{ name }}` placeholders.
        name (str): Unique in the account, 1–100 characters.
    """

    body: str
    name: str

    def to_dict(self) -> dict[str, Any]:
        body = self.body

        name = self.name

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "body": body,
                "name": name,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        body = d.pop("body")

        name = d.pop("name")

        create_template = cls(
            body=body,
            name=name,
        )

        return create_template

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="TemplateView")


@_attrs_define
class TemplateView:
    """A template.

    Attributes:
        body (str): Body.
        created_at (datetime.datetime): Creation time.
        id (str): Template id.
        name (str): Name.
        updated_at (datetime.datetime): Last change.
        variables (list[str]): Its variables, in order of first use.
    """

    body: str
    created_at: datetime.datetime
    id: str
    name: str
    updated_at: datetime.datetime
    variables: list[str]
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        body = self.body

        created_at = self.created_at.isoformat()

        id = self.id

        name = self.name

        updated_at = self.updated_at.isoformat()

        variables = self.variables

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "body": body,
                "created_at": created_at,
                "id": id,
                "name": name,
                "updated_at": updated_at,
                "variables": variables,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        body = d.pop("body")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        id = d.pop("id")

        name = d.pop("name")

        updated_at = datetime.datetime.fromisoformat(d.pop("updated_at"))

        variables = cast(list[str], d.pop("variables"))

        template_view = cls(
            body=body,
            created_at=created_at,
            id=id,
            name=name,
            updated_at=updated_at,
            variables=variables,
        )

        template_view.additional_properties = d
        return template_view

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

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="DataBodyKeyCreatedData")


@_attrs_define
class DataBodyKeyCreatedData:
    """A key as created: the only answer that holds the full key.

    Attributes:
        created_at (datetime.datetime): Creation time.
        environment (str): `live` or `test`.
        id (str): Key id (ULID).
        key (str): The full key. Store it now: it is never shown again.
        name (str): Label.
        scopes (list[str]): What it may do: `send`, `read`, `manage`.
        rate_limit (int | None | Unset): Calls per minute; null is unlimited (scale plan).
    """

    created_at: datetime.datetime
    environment: str
    id: str
    key: str
    name: str
    scopes: list[str]
    rate_limit: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        environment = self.environment

        id = self.id

        key = self.key

        name = self.name

        scopes = self.scopes

        rate_limit: int | None | Unset
        if isinstance(self.rate_limit, Unset):
            rate_limit = UNSET
        else:
            rate_limit = self.rate_limit

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "environment": environment,
                "id": id,
                "key": key,
                "name": name,
                "scopes": scopes,
            }
        )
        if rate_limit is not UNSET:
            field_dict["rate_limit"] = rate_limit

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        environment = d.pop("environment")

        id = d.pop("id")

        key = d.pop("key")

        name = d.pop("name")

        scopes = cast(list[str], d.pop("scopes"))

        def _parse_rate_limit(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        rate_limit = _parse_rate_limit(d.pop("rate_limit", UNSET))

        data_body_key_created_data = cls(
            created_at=created_at,
            environment=environment,
            id=id,
            key=key,
            name=name,
            scopes=scopes,
            rate_limit=rate_limit,
        )

        data_body_key_created_data.additional_properties = d
        return data_body_key_created_data

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

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="KeyItem")


@_attrs_define
class KeyItem:
    """A key as listed.

    Attributes:
        created_at (datetime.datetime): Creation time.
        environment (str): `live` or `test`.
        id (str): Key id (ULID).
        key_hint (str): `...` and the key's last four characters.
        name (str): Label.
        scopes (list[str]): What it may do: `send`, `read`, `manage`.
        last_used_at (datetime.datetime | None | Unset): Last successful use; null if never used.
        rate_limit (int | None | Unset): Calls per minute in force; null is unlimited.
    """

    created_at: datetime.datetime
    environment: str
    id: str
    key_hint: str
    name: str
    scopes: list[str]
    last_used_at: datetime.datetime | None | Unset = UNSET
    rate_limit: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        environment = self.environment

        id = self.id

        key_hint = self.key_hint

        name = self.name

        scopes = self.scopes

        last_used_at: None | str | Unset
        if isinstance(self.last_used_at, Unset):
            last_used_at = UNSET
        elif isinstance(self.last_used_at, datetime.datetime):
            last_used_at = self.last_used_at.isoformat()
        else:
            last_used_at = self.last_used_at

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
                "key_hint": key_hint,
                "name": name,
                "scopes": scopes,
            }
        )
        if last_used_at is not UNSET:
            field_dict["last_used_at"] = last_used_at
        if rate_limit is not UNSET:
            field_dict["rate_limit"] = rate_limit

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        environment = d.pop("environment")

        id = d.pop("id")

        key_hint = d.pop("key_hint")

        name = d.pop("name")

        scopes = cast(list[str], d.pop("scopes"))

        def _parse_last_used_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_used_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_used_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        last_used_at = _parse_last_used_at(d.pop("last_used_at", UNSET))

        def _parse_rate_limit(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        rate_limit = _parse_rate_limit(d.pop("rate_limit", UNSET))

        key_item = cls(
            created_at=created_at,
            environment=environment,
            id=id,
            key_hint=key_hint,
            name=name,
            scopes=scopes,
            last_used_at=last_used_at,
            rate_limit=rate_limit,
        )

        key_item.additional_properties = d
        return key_item

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

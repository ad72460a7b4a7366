from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="PatchPhone")


@_attrs_define
class PatchPhone:
    """Body of `PATCH /admin/v1/phones/{id}`.

    Attributes:
        daily_limit (int | None | Unset): Messages per UTC day.
        enabled (bool | None | Unset): Chosen for sends only when true.
        online (bool | None | Unset): Sim phones only: the online switch.
    """

    daily_limit: int | None | Unset = UNSET
    enabled: bool | None | Unset = UNSET
    online: bool | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        daily_limit: int | None | Unset
        if isinstance(self.daily_limit, Unset):
            daily_limit = UNSET
        else:
            daily_limit = self.daily_limit

        enabled: bool | None | Unset
        if isinstance(self.enabled, Unset):
            enabled = UNSET
        else:
            enabled = self.enabled

        online: bool | None | Unset
        if isinstance(self.online, Unset):
            online = UNSET
        else:
            online = self.online

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if daily_limit is not UNSET:
            field_dict["daily_limit"] = daily_limit
        if enabled is not UNSET:
            field_dict["enabled"] = enabled
        if online is not UNSET:
            field_dict["online"] = online

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)

        def _parse_daily_limit(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        daily_limit = _parse_daily_limit(d.pop("daily_limit", UNSET))

        def _parse_enabled(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        enabled = _parse_enabled(d.pop("enabled", UNSET))

        def _parse_online(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        online = _parse_online(d.pop("online", UNSET))

        patch_phone = cls(
            daily_limit=daily_limit,
            enabled=enabled,
            online=online,
        )

        return patch_phone

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="QuietHoursBody")


@_attrs_define
class QuietHoursBody:
    """Quiet-hours window, in the recipient's local time.

    Attributes:
        enabled (bool): Off: messages go out at any hour.
        end (str): `HH:MM`, end of the quiet window.
        start (str): `HH:MM`, start of the quiet window.
        timezone (None | str | Unset): IANA zone used when the recipient's zone cannot be told (null: UTC).
    """

    enabled: bool
    end: str
    start: str
    timezone: None | str | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        enabled = self.enabled

        end = self.end

        start = self.start

        timezone: None | str | Unset
        if isinstance(self.timezone, Unset):
            timezone = UNSET
        else:
            timezone = self.timezone

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "enabled": enabled,
                "end": end,
                "start": start,
            }
        )
        if timezone is not UNSET:
            field_dict["timezone"] = timezone

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        enabled = d.pop("enabled")

        end = d.pop("end")

        start = d.pop("start")

        def _parse_timezone(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        timezone = _parse_timezone(d.pop("timezone", UNSET))

        quiet_hours_body = cls(
            enabled=enabled,
            end=end,
            start=start,
            timezone=timezone,
        )

        return quiet_hours_body

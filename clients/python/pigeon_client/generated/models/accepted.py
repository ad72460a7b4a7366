from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="Accepted")


@_attrs_define
class Accepted:
    """The 202 of a send.

    Attributes:
        channel (str): Requested channel.
        created_at (datetime.datetime): Acceptance time.
        message_id (str): Message id (ULID).
        status (str): `queued`.
        to (str): Recipient.
        notice (None | str | Unset): `QUIET_HOURS` when quiet hours moved it (not an error).
        scheduled_at (datetime.datetime | None | Unset): When it will go out, if held (quiet hours or `send_at`).
    """

    channel: str
    created_at: datetime.datetime
    message_id: str
    status: str
    to: str
    notice: None | str | Unset = UNSET
    scheduled_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        channel = self.channel

        created_at = self.created_at.isoformat()

        message_id = self.message_id

        status = self.status

        to = self.to

        notice: None | str | Unset
        if isinstance(self.notice, Unset):
            notice = UNSET
        else:
            notice = self.notice

        scheduled_at: None | str | Unset
        if isinstance(self.scheduled_at, Unset):
            scheduled_at = UNSET
        elif isinstance(self.scheduled_at, datetime.datetime):
            scheduled_at = self.scheduled_at.isoformat()
        else:
            scheduled_at = self.scheduled_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "channel": channel,
                "created_at": created_at,
                "message_id": message_id,
                "status": status,
                "to": to,
            }
        )
        if notice is not UNSET:
            field_dict["notice"] = notice
        if scheduled_at is not UNSET:
            field_dict["scheduled_at"] = scheduled_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        channel = d.pop("channel")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        message_id = d.pop("message_id")

        status = d.pop("status")

        to = d.pop("to")

        def _parse_notice(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        notice = _parse_notice(d.pop("notice", UNSET))

        def _parse_scheduled_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                scheduled_at_type_0 = datetime.datetime.fromisoformat(data)

                return scheduled_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        scheduled_at = _parse_scheduled_at(d.pop("scheduled_at", UNSET))

        accepted = cls(
            channel=channel,
            created_at=created_at,
            message_id=message_id,
            status=status,
            to=to,
            notice=notice,
            scheduled_at=scheduled_at,
        )

        accepted.additional_properties = d
        return accepted

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

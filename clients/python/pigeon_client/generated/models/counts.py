from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar

from attrs import define as _attrs_define
from attrs import field as _attrs_field

T = TypeVar("T", bound="Counts")


@_attrs_define
class Counts:
    """Counts of a campaign's messages by status.

    Attributes:
        cancelled (int): Cancelled.
        delivered (int): Delivered (and not yet read).
        failed (int): Failed.
        queued (int): Waiting (or held).
        read (int): Read by the recipient.
        sending (int): With a phone.
        sent (int): Sent.
    """

    cancelled: int
    delivered: int
    failed: int
    queued: int
    read: int
    sending: int
    sent: int
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        cancelled = self.cancelled

        delivered = self.delivered

        failed = self.failed

        queued = self.queued

        read = self.read

        sending = self.sending

        sent = self.sent

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "cancelled": cancelled,
                "delivered": delivered,
                "failed": failed,
                "queued": queued,
                "read": read,
                "sending": sending,
                "sent": sent,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        cancelled = d.pop("cancelled")

        delivered = d.pop("delivered")

        failed = d.pop("failed")

        queued = d.pop("queued")

        read = d.pop("read")

        sending = d.pop("sending")

        sent = d.pop("sent")

        counts = cls(
            cancelled=cancelled,
            delivered=delivered,
            failed=failed,
            queued=queued,
            read=read,
            sending=sending,
            sent=sent,
        )

        counts.additional_properties = d
        return counts

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

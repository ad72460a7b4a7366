from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

T = TypeVar("T", bound="ReleaseBody")


@_attrs_define
class ReleaseBody:
    """Body of `POST /phone/v1/leases/release`: the messages the agent still holds. Every other lease
    of its phone goes back to the queue at once (jobs answered to a poll the agent never read).

        Attributes:
            keep (list[str]): Message ids the agent is still sending or has yet to report.
    """

    keep: list[str]

    def to_dict(self) -> dict[str, Any]:
        keep = self.keep

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "keep": keep,
            }
        )

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        keep = cast(list[str], d.pop("keep"))

        release_body = cls(
            keep=keep,
        )

        return release_body

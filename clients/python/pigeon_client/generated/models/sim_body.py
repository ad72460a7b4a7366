from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

T = TypeVar("T", bound="SimBody")


@_attrs_define
class SimBody:
    """Sim behaviour.

    Attributes:
        failure_rate (float | Unset): Share of messages that fail, 0–1 (default 0).
        latency_ms (int | Unset): Milliseconds from hand-over to delivery (default 50, at most 60,000).
        read_after_ms (int | None | Unset): Milliseconds from delivery to the recipient reading it (at most 86,400,000);
            unset, the
            sim's messages are never read.
    """

    failure_rate: float | Unset = UNSET
    latency_ms: int | Unset = UNSET
    read_after_ms: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        failure_rate = self.failure_rate

        latency_ms = self.latency_ms

        read_after_ms: int | None | Unset
        if isinstance(self.read_after_ms, Unset):
            read_after_ms = UNSET
        else:
            read_after_ms = self.read_after_ms

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if failure_rate is not UNSET:
            field_dict["failure_rate"] = failure_rate
        if latency_ms is not UNSET:
            field_dict["latency_ms"] = latency_ms
        if read_after_ms is not UNSET:
            field_dict["read_after_ms"] = read_after_ms

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        failure_rate = d.pop("failure_rate", UNSET)

        latency_ms = d.pop("latency_ms", UNSET)

        def _parse_read_after_ms(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        read_after_ms = _parse_read_after_ms(d.pop("read_after_ms", UNSET))

        sim_body = cls(
            failure_rate=failure_rate,
            latency_ms=latency_ms,
            read_after_ms=read_after_ms,
        )

        return sim_body

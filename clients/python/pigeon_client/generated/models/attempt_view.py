from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

T = TypeVar("T", bound="AttemptView")


@_attrs_define
class AttemptView:
    """One HTTP attempt.

    Attributes:
        at (datetime.datetime): Start time.
        cycle (int): Retry cycle (0; one more per manual retry).
        duration_ms (int): Milliseconds to the answer or the error.
        error (None | str | Unset): Else why: `timeout`, `connect`, `dns`, `tls`, `refused_private_address`, `request`.
        response_snippet (None | str | Unset): First 200 characters of the answer.
        status_code (int | None | Unset): HTTP status, when one came back.
    """

    at: datetime.datetime
    cycle: int
    duration_ms: int
    error: None | str | Unset = UNSET
    response_snippet: None | str | Unset = UNSET
    status_code: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        at = self.at.isoformat()

        cycle = self.cycle

        duration_ms = self.duration_ms

        error: None | str | Unset
        if isinstance(self.error, Unset):
            error = UNSET
        else:
            error = self.error

        response_snippet: None | str | Unset
        if isinstance(self.response_snippet, Unset):
            response_snippet = UNSET
        else:
            response_snippet = self.response_snippet

        status_code: int | None | Unset
        if isinstance(self.status_code, Unset):
            status_code = UNSET
        else:
            status_code = self.status_code

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "at": at,
                "cycle": cycle,
                "duration_ms": duration_ms,
            }
        )
        if error is not UNSET:
            field_dict["error"] = error
        if response_snippet is not UNSET:
            field_dict["response_snippet"] = response_snippet
        if status_code is not UNSET:
            field_dict["status_code"] = status_code

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        at = datetime.datetime.fromisoformat(d.pop("at"))

        cycle = d.pop("cycle")

        duration_ms = d.pop("duration_ms")

        def _parse_error(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error = _parse_error(d.pop("error", UNSET))

        def _parse_response_snippet(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        response_snippet = _parse_response_snippet(d.pop("response_snippet", UNSET))

        def _parse_status_code(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        status_code = _parse_status_code(d.pop("status_code", UNSET))

        attempt_view = cls(
            at=at,
            cycle=cycle,
            duration_ms=duration_ms,
            error=error,
            response_snippet=response_snippet,
            status_code=status_code,
        )

        attempt_view.additional_properties = d
        return attempt_view

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

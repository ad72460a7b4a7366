from __future__ import annotations

from collections.abc import Mapping
from typing import Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.failure_scope import FailureScope
from ..models.reported_status import ReportedStatus
from ..models.used_channel import UsedChannel
from ..types import UNSET, Unset

T = TypeVar("T", bound="StatusBody")


@_attrs_define
class StatusBody:
    """Body of a status report.

    Attributes:
        status (ReportedStatus): What a phone reports.
        channel_used (None | Unset | UsedChannel):
        failure_reason (None | str | Unset): Carrier-level detail, for `failed`.
        failure_scope (FailureScope | None | Unset):
    """

    status: ReportedStatus
    channel_used: None | Unset | UsedChannel = UNSET
    failure_reason: None | str | Unset = UNSET
    failure_scope: FailureScope | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        status = self.status.value

        channel_used: None | str | Unset
        if isinstance(self.channel_used, Unset):
            channel_used = UNSET
        elif isinstance(self.channel_used, UsedChannel):
            channel_used = self.channel_used.value
        else:
            channel_used = self.channel_used

        failure_reason: None | str | Unset
        if isinstance(self.failure_reason, Unset):
            failure_reason = UNSET
        else:
            failure_reason = self.failure_reason

        failure_scope: None | str | Unset
        if isinstance(self.failure_scope, Unset):
            failure_scope = UNSET
        elif isinstance(self.failure_scope, FailureScope):
            failure_scope = self.failure_scope.value
        else:
            failure_scope = self.failure_scope

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "status": status,
            }
        )
        if channel_used is not UNSET:
            field_dict["channel_used"] = channel_used
        if failure_reason is not UNSET:
            field_dict["failure_reason"] = failure_reason
        if failure_scope is not UNSET:
            field_dict["failure_scope"] = failure_scope

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        d = dict(src_dict)
        status = ReportedStatus(d.pop("status"))

        def _parse_channel_used(data: object) -> None | Unset | UsedChannel:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                channel_used_type_0 = UsedChannel(data)

                return channel_used_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | Unset | UsedChannel, data)

        channel_used = _parse_channel_used(d.pop("channel_used", UNSET))

        def _parse_failure_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        failure_reason = _parse_failure_reason(d.pop("failure_reason", UNSET))

        def _parse_failure_scope(data: object) -> FailureScope | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                failure_scope_type_0 = FailureScope(data)

                return failure_scope_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(FailureScope | None | Unset, data)

        failure_scope = _parse_failure_scope(d.pop("failure_scope", UNSET))

        status_body = cls(
            status=status,
            channel_used=channel_used,
            failure_reason=failure_reason,
            failure_scope=failure_scope,
        )

        return status_body

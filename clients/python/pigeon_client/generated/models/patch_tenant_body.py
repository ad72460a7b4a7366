from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.quiet_hours_patch_body import QuietHoursPatchBody


T = TypeVar("T", bound="PatchTenantBody")


@_attrs_define
class PatchTenantBody:
    """Body of `PATCH /admin/v1/tenants/{id}`: every field optional.

    Attributes:
        media_bytes_limit (int | None | Unset): Override of the bytes of media the account may store; null returns to
            the plan's.
        monthly_call_limit (int | None | Unset): Override of API calls per month; null returns to the plan's.
        new_contact_daily_limit (int | None | Unset): Override of new contacts per day; null returns to the plan's.
        plan (None | str | Unset): New plan.
        quiet_hours (None | QuietHoursPatchBody | Unset):
        status (None | str | Unset): `active` or `suspended`.
        subscription_active (bool | None | Unset): Paid subscription on or off.
        trial_ends_at (datetime.datetime | None | Unset): Move the end of the trial (RFC 3339).
    """

    media_bytes_limit: int | None | Unset = UNSET
    monthly_call_limit: int | None | Unset = UNSET
    new_contact_daily_limit: int | None | Unset = UNSET
    plan: None | str | Unset = UNSET
    quiet_hours: None | QuietHoursPatchBody | Unset = UNSET
    status: None | str | Unset = UNSET
    subscription_active: bool | None | Unset = UNSET
    trial_ends_at: datetime.datetime | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.quiet_hours_patch_body import QuietHoursPatchBody  # noqa: PLC0415

        media_bytes_limit: int | None | Unset
        if isinstance(self.media_bytes_limit, Unset):
            media_bytes_limit = UNSET
        else:
            media_bytes_limit = self.media_bytes_limit

        monthly_call_limit: int | None | Unset
        if isinstance(self.monthly_call_limit, Unset):
            monthly_call_limit = UNSET
        else:
            monthly_call_limit = self.monthly_call_limit

        new_contact_daily_limit: int | None | Unset
        if isinstance(self.new_contact_daily_limit, Unset):
            new_contact_daily_limit = UNSET
        else:
            new_contact_daily_limit = self.new_contact_daily_limit

        plan: None | str | Unset
        if isinstance(self.plan, Unset):
            plan = UNSET
        else:
            plan = self.plan

        quiet_hours: dict[str, Any] | None | Unset
        if isinstance(self.quiet_hours, Unset):
            quiet_hours = UNSET
        elif isinstance(self.quiet_hours, QuietHoursPatchBody):
            quiet_hours = self.quiet_hours.to_dict()
        else:
            quiet_hours = self.quiet_hours

        status: None | str | Unset
        if isinstance(self.status, Unset):
            status = UNSET
        else:
            status = self.status

        subscription_active: bool | None | Unset
        if isinstance(self.subscription_active, Unset):
            subscription_active = UNSET
        else:
            subscription_active = self.subscription_active

        trial_ends_at: None | str | Unset
        if isinstance(self.trial_ends_at, Unset):
            trial_ends_at = UNSET
        elif isinstance(self.trial_ends_at, datetime.datetime):
            trial_ends_at = self.trial_ends_at.isoformat()
        else:
            trial_ends_at = self.trial_ends_at

        field_dict: dict[str, Any] = {}

        field_dict.update({})
        if media_bytes_limit is not UNSET:
            field_dict["media_bytes_limit"] = media_bytes_limit
        if monthly_call_limit is not UNSET:
            field_dict["monthly_call_limit"] = monthly_call_limit
        if new_contact_daily_limit is not UNSET:
            field_dict["new_contact_daily_limit"] = new_contact_daily_limit
        if plan is not UNSET:
            field_dict["plan"] = plan
        if quiet_hours is not UNSET:
            field_dict["quiet_hours"] = quiet_hours
        if status is not UNSET:
            field_dict["status"] = status
        if subscription_active is not UNSET:
            field_dict["subscription_active"] = subscription_active
        if trial_ends_at is not UNSET:
            field_dict["trial_ends_at"] = trial_ends_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.quiet_hours_patch_body import QuietHoursPatchBody  # noqa: PLC0415

        d = dict(src_dict)

        def _parse_media_bytes_limit(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        media_bytes_limit = _parse_media_bytes_limit(d.pop("media_bytes_limit", UNSET))

        def _parse_monthly_call_limit(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        monthly_call_limit = _parse_monthly_call_limit(d.pop("monthly_call_limit", UNSET))

        def _parse_new_contact_daily_limit(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        new_contact_daily_limit = _parse_new_contact_daily_limit(d.pop("new_contact_daily_limit", UNSET))

        def _parse_plan(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        plan = _parse_plan(d.pop("plan", UNSET))

        def _parse_quiet_hours(data: object) -> None | QuietHoursPatchBody | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                quiet_hours_type_0 = QuietHoursPatchBody.from_dict(data)

                return quiet_hours_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | QuietHoursPatchBody | Unset, data)

        quiet_hours = _parse_quiet_hours(d.pop("quiet_hours", UNSET))

        def _parse_status(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        status = _parse_status(d.pop("status", UNSET))

        def _parse_subscription_active(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        subscription_active = _parse_subscription_active(d.pop("subscription_active", UNSET))

        def _parse_trial_ends_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                trial_ends_at_type_0 = datetime.datetime.fromisoformat(data)

                return trial_ends_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        trial_ends_at = _parse_trial_ends_at(d.pop("trial_ends_at", UNSET))

        patch_tenant_body = cls(
            media_bytes_limit=media_bytes_limit,
            monthly_call_limit=monthly_call_limit,
            new_contact_daily_limit=new_contact_daily_limit,
            plan=plan,
            quiet_hours=quiet_hours,
            status=status,
            subscription_active=subscription_active,
            trial_ends_at=trial_ends_at,
        )

        return patch_tenant_body

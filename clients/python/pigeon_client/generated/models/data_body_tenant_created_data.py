from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.new_tenant_keys import NewTenantKeys
    from ..models.quiet_hours_body import QuietHoursBody
    from ..models.usage_view import UsageView


T = TypeVar("T", bound="DataBodyTenantCreatedData")


@_attrs_define
class DataBodyTenantCreatedData:
    """Answer of tenant creation.

    Attributes:
        created_at (datetime.datetime): Creation time.
        id (str): Tenant id (ULID).
        name (str): Label.
        new_contact_daily_limit (int): First-time recipients allowed per UTC day.
        plan (str): Plan. Example: trial.
        quiet_hours (QuietHoursBody): Quiet-hours window, in the recipient's local time.
        status (str): `active` or `suspended`. Example: active.
        subscription_active (bool): A subscription keeps a trial tenant in after `trial_ends_at`.
        trial_ends_at (datetime.datetime): End of the 14-day trial.
        usage (UsageView): What an operator sees of a tenant's usage.
        keys (NewTenantKeys): The two keys every new tenant gets.
        media_bytes_limit (int | None | Unset): Bytes of media the account may store; null is unlimited.
        monthly_call_limit (int | None | Unset): API calls allowed per UTC month; null is unlimited.
    """

    created_at: datetime.datetime
    id: str
    name: str
    new_contact_daily_limit: int
    plan: str
    quiet_hours: QuietHoursBody
    status: str
    subscription_active: bool
    trial_ends_at: datetime.datetime
    usage: UsageView
    keys: NewTenantKeys
    media_bytes_limit: int | None | Unset = UNSET
    monthly_call_limit: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        created_at = self.created_at.isoformat()

        id = self.id

        name = self.name

        new_contact_daily_limit = self.new_contact_daily_limit

        plan = self.plan

        quiet_hours = self.quiet_hours.to_dict()

        status = self.status

        subscription_active = self.subscription_active

        trial_ends_at = self.trial_ends_at.isoformat()

        usage = self.usage.to_dict()

        keys = self.keys.to_dict()

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

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "id": id,
                "name": name,
                "new_contact_daily_limit": new_contact_daily_limit,
                "plan": plan,
                "quiet_hours": quiet_hours,
                "status": status,
                "subscription_active": subscription_active,
                "trial_ends_at": trial_ends_at,
                "usage": usage,
                "keys": keys,
            }
        )
        if media_bytes_limit is not UNSET:
            field_dict["media_bytes_limit"] = media_bytes_limit
        if monthly_call_limit is not UNSET:
            field_dict["monthly_call_limit"] = monthly_call_limit

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.new_tenant_keys import NewTenantKeys  # noqa: PLC0415
        from ..models.quiet_hours_body import QuietHoursBody  # noqa: PLC0415
        from ..models.usage_view import UsageView  # noqa: PLC0415

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        id = d.pop("id")

        name = d.pop("name")

        new_contact_daily_limit = d.pop("new_contact_daily_limit")

        plan = d.pop("plan")

        quiet_hours = QuietHoursBody.from_dict(d.pop("quiet_hours"))

        status = d.pop("status")

        subscription_active = d.pop("subscription_active")

        trial_ends_at = datetime.datetime.fromisoformat(d.pop("trial_ends_at"))

        usage = UsageView.from_dict(d.pop("usage"))

        keys = NewTenantKeys.from_dict(d.pop("keys"))

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

        data_body_tenant_created_data = cls(
            created_at=created_at,
            id=id,
            name=name,
            new_contact_daily_limit=new_contact_daily_limit,
            plan=plan,
            quiet_hours=quiet_hours,
            status=status,
            subscription_active=subscription_active,
            trial_ends_at=trial_ends_at,
            usage=usage,
            keys=keys,
            media_bytes_limit=media_bytes_limit,
            monthly_call_limit=monthly_call_limit,
        )

        data_body_tenant_created_data.additional_properties = d
        return data_body_tenant_created_data

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

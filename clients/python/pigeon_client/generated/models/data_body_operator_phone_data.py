from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.sim_body import SimBody


T = TypeVar("T", bound="DataBodyOperatorPhoneData")


@_attrs_define
class DataBodyOperatorPhoneData:
    """A phone as the operator sees it.

    Attributes:
        created_at (datetime.datetime): Creation time.
        daily_limit (int): Messages per UTC day.
        driver (str): `agent` or `sim`.
        enabled (bool): Chosen for sends only when true.
        id (str): Phone id.
        number (str): E.164 number.
        online (bool): Online now (sim: the switch; agent: polled in the last 30 s).
        sent_today (int): Messages assigned today.
        tenant_id (str): Owner.
        agent (None | str | Unset): What the agent says it is, from its `User-Agent` (`pigeon-agent/0.1.0`), since the
            node
            started; null until it calls.
        agent_token (None | str | Unset): The agent's token (`svc_agent_…`), in the create answer only.
        disabled_reason (None | str | Unset): Why the phone disabled itself (phone-scoped failures in a row), in plain
            English; null
            otherwise, and once the operator enables it again.
        last_poll_at (datetime.datetime | None | Unset): An agent's last call (null for a sim, or an agent not heard
            from yet).
        sim (None | SimBody | Unset):
    """

    created_at: datetime.datetime
    daily_limit: int
    driver: str
    enabled: bool
    id: str
    number: str
    online: bool
    sent_today: int
    tenant_id: str
    agent: None | str | Unset = UNSET
    agent_token: None | str | Unset = UNSET
    disabled_reason: None | str | Unset = UNSET
    last_poll_at: datetime.datetime | None | Unset = UNSET
    sim: None | SimBody | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        from ..models.sim_body import SimBody  # noqa: PLC0415

        created_at = self.created_at.isoformat()

        daily_limit = self.daily_limit

        driver = self.driver

        enabled = self.enabled

        id = self.id

        number = self.number

        online = self.online

        sent_today = self.sent_today

        tenant_id = self.tenant_id

        agent: None | str | Unset
        if isinstance(self.agent, Unset):
            agent = UNSET
        else:
            agent = self.agent

        agent_token: None | str | Unset
        if isinstance(self.agent_token, Unset):
            agent_token = UNSET
        else:
            agent_token = self.agent_token

        disabled_reason: None | str | Unset
        if isinstance(self.disabled_reason, Unset):
            disabled_reason = UNSET
        else:
            disabled_reason = self.disabled_reason

        last_poll_at: None | str | Unset
        if isinstance(self.last_poll_at, Unset):
            last_poll_at = UNSET
        elif isinstance(self.last_poll_at, datetime.datetime):
            last_poll_at = self.last_poll_at.isoformat()
        else:
            last_poll_at = self.last_poll_at

        sim: dict[str, Any] | None | Unset
        if isinstance(self.sim, Unset):
            sim = UNSET
        elif isinstance(self.sim, SimBody):
            sim = self.sim.to_dict()
        else:
            sim = self.sim

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "created_at": created_at,
                "daily_limit": daily_limit,
                "driver": driver,
                "enabled": enabled,
                "id": id,
                "number": number,
                "online": online,
                "sent_today": sent_today,
                "tenant_id": tenant_id,
            }
        )
        if agent is not UNSET:
            field_dict["agent"] = agent
        if agent_token is not UNSET:
            field_dict["agent_token"] = agent_token
        if disabled_reason is not UNSET:
            field_dict["disabled_reason"] = disabled_reason
        if last_poll_at is not UNSET:
            field_dict["last_poll_at"] = last_poll_at
        if sim is not UNSET:
            field_dict["sim"] = sim

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.sim_body import SimBody  # noqa: PLC0415

        d = dict(src_dict)
        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        daily_limit = d.pop("daily_limit")

        driver = d.pop("driver")

        enabled = d.pop("enabled")

        id = d.pop("id")

        number = d.pop("number")

        online = d.pop("online")

        sent_today = d.pop("sent_today")

        tenant_id = d.pop("tenant_id")

        def _parse_agent(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        agent = _parse_agent(d.pop("agent", UNSET))

        def _parse_agent_token(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        agent_token = _parse_agent_token(d.pop("agent_token", UNSET))

        def _parse_disabled_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        disabled_reason = _parse_disabled_reason(d.pop("disabled_reason", UNSET))

        def _parse_last_poll_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                last_poll_at_type_0 = datetime.datetime.fromisoformat(data)

                return last_poll_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        last_poll_at = _parse_last_poll_at(d.pop("last_poll_at", UNSET))

        def _parse_sim(data: object) -> None | SimBody | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                sim_type_0 = SimBody.from_dict(data)

                return sim_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SimBody | Unset, data)

        sim = _parse_sim(d.pop("sim", UNSET))

        data_body_operator_phone_data = cls(
            created_at=created_at,
            daily_limit=daily_limit,
            driver=driver,
            enabled=enabled,
            id=id,
            number=number,
            online=online,
            sent_today=sent_today,
            tenant_id=tenant_id,
            agent=agent,
            agent_token=agent_token,
            disabled_reason=disabled_reason,
            last_poll_at=last_poll_at,
            sim=sim,
        )

        data_body_operator_phone_data.additional_properties = d
        return data_body_operator_phone_data

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

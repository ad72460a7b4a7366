from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.attempt_view import AttemptView
    from ..models.delivery_view_payload import DeliveryViewPayload


T = TypeVar("T", bound="DeliveryView")


@_attrs_define
class DeliveryView:
    """One event to one webhook.

    Attributes:
        attempts (list[AttemptView]): Every attempt, oldest first.
        created_at (datetime.datetime): Event time.
        cycle (int): Current retry cycle.
        event (str): Event name.
        event_id (str): The event (stable across retries; the same for every webhook that got it).
        id (str): Delivery id.
        payload (DeliveryViewPayload): The payload sent (and signed).
        state (str): `pending`, `succeeded` or `failed`.
        next_attempt_at (datetime.datetime | None | Unset): When the next attempt is due (pending only).
    """

    attempts: list[AttemptView]
    created_at: datetime.datetime
    cycle: int
    event: str
    event_id: str
    id: str
    payload: DeliveryViewPayload
    state: str
    next_attempt_at: datetime.datetime | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        attempts = []
        for attempts_item_data in self.attempts:
            attempts_item = attempts_item_data.to_dict()
            attempts.append(attempts_item)

        created_at = self.created_at.isoformat()

        cycle = self.cycle

        event = self.event

        event_id = self.event_id

        id = self.id

        payload = self.payload.to_dict()

        state = self.state

        next_attempt_at: None | str | Unset
        if isinstance(self.next_attempt_at, Unset):
            next_attempt_at = UNSET
        elif isinstance(self.next_attempt_at, datetime.datetime):
            next_attempt_at = self.next_attempt_at.isoformat()
        else:
            next_attempt_at = self.next_attempt_at

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "attempts": attempts,
                "created_at": created_at,
                "cycle": cycle,
                "event": event,
                "event_id": event_id,
                "id": id,
                "payload": payload,
                "state": state,
            }
        )
        if next_attempt_at is not UNSET:
            field_dict["next_attempt_at"] = next_attempt_at

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.attempt_view import AttemptView  # noqa: PLC0415
        from ..models.delivery_view_payload import DeliveryViewPayload  # noqa: PLC0415

        d = dict(src_dict)
        attempts = []
        _attempts = d.pop("attempts")
        for attempts_item_data in _attempts:
            attempts_item = AttemptView.from_dict(attempts_item_data)

            attempts.append(attempts_item)

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        cycle = d.pop("cycle")

        event = d.pop("event")

        event_id = d.pop("event_id")

        id = d.pop("id")

        payload = DeliveryViewPayload.from_dict(d.pop("payload"))

        state = d.pop("state")

        def _parse_next_attempt_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                next_attempt_at_type_0 = datetime.datetime.fromisoformat(data)

                return next_attempt_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        next_attempt_at = _parse_next_attempt_at(d.pop("next_attempt_at", UNSET))

        delivery_view = cls(
            attempts=attempts,
            created_at=created_at,
            cycle=cycle,
            event=event,
            event_id=event_id,
            id=id,
            payload=payload,
            state=state,
            next_attempt_at=next_attempt_at,
        )

        delivery_view.additional_properties = d
        return delivery_view

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

from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.attachment_view import AttachmentView
    from ..models.message_view_metadata import MessageViewMetadata


T = TypeVar("T", bound="MessageView")


@_attrs_define
class MessageView:
    """A message record.

    Attributes:
        channel (str): Requested channel.
        created_at (datetime.datetime): Acceptance time.
        direction (str): `outbound` or `inbound`.
        media (list[AttachmentView]): Attachments with signed links good for 7 days (`[]` when none).
        message_id (str): Message id.
        metadata (MessageViewMetadata): The tenant's own values given at the send (`{}` when none).
        status (str): `queued`, `sending`, `sent`, `delivered`, `read`, `failed`, `cancelled` or (inbound) `received`.
        test (bool): Sent with a test key.
        to (str): Recipient (outbound) or the tenant's phone (inbound).
        body (None | str | Unset): Text; `null` for a media-only message.
        campaign_id (None | str | Unset): Campaign.
        channel_used (None | str | Unset): Channel the phone used.
        delivered_at (datetime.datetime | None | Unset): Delivered.
        error_code (None | str | Unset): Stable code of a failure (`DELIVERY_FAILED`, `RECIPIENT_OPTED_OUT`,
            `NO_PHONE_AVAILABLE`).
        expires_at (datetime.datetime | None | Unset): When a message no phone has taken fails `EXPIRED` (`created_at` +
            `valid_for`).
        failed_at (datetime.datetime | None | Unset): Failed.
        failure_reason (None | str | Unset): Carrier-level detail of a failure.
        from_ (None | str | Unset): The tenant's phone (outbound, once chosen) or the sender (inbound).
        read_at (datetime.datetime | None | Unset): Read by the recipient (a read receipt).
        reply_to (None | str | Unset): The inbound message this one answers: the node's reply to a STOP, START or HELP.
        scheduled_at (datetime.datetime | None | Unset): Held until.
        sent_at (datetime.datetime | None | Unset): Sent by the phone.
        template (None | str | Unset): Template used.
    """

    channel: str
    created_at: datetime.datetime
    direction: str
    media: list[AttachmentView]
    message_id: str
    metadata: MessageViewMetadata
    status: str
    test: bool
    to: str
    body: None | str | Unset = UNSET
    campaign_id: None | str | Unset = UNSET
    channel_used: None | str | Unset = UNSET
    delivered_at: datetime.datetime | None | Unset = UNSET
    error_code: None | str | Unset = UNSET
    expires_at: datetime.datetime | None | Unset = UNSET
    failed_at: datetime.datetime | None | Unset = UNSET
    failure_reason: None | str | Unset = UNSET
    from_: None | str | Unset = UNSET
    read_at: datetime.datetime | None | Unset = UNSET
    reply_to: None | str | Unset = UNSET
    scheduled_at: datetime.datetime | None | Unset = UNSET
    sent_at: datetime.datetime | None | Unset = UNSET
    template: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        channel = self.channel

        created_at = self.created_at.isoformat()

        direction = self.direction

        media = []
        for media_item_data in self.media:
            media_item = media_item_data.to_dict()
            media.append(media_item)

        message_id = self.message_id

        metadata = self.metadata.to_dict()

        status = self.status

        test = self.test

        to = self.to

        body: None | str | Unset
        if isinstance(self.body, Unset):
            body = UNSET
        else:
            body = self.body

        campaign_id: None | str | Unset
        if isinstance(self.campaign_id, Unset):
            campaign_id = UNSET
        else:
            campaign_id = self.campaign_id

        channel_used: None | str | Unset
        if isinstance(self.channel_used, Unset):
            channel_used = UNSET
        else:
            channel_used = self.channel_used

        delivered_at: None | str | Unset
        if isinstance(self.delivered_at, Unset):
            delivered_at = UNSET
        elif isinstance(self.delivered_at, datetime.datetime):
            delivered_at = self.delivered_at.isoformat()
        else:
            delivered_at = self.delivered_at

        error_code: None | str | Unset
        if isinstance(self.error_code, Unset):
            error_code = UNSET
        else:
            error_code = self.error_code

        expires_at: None | str | Unset
        if isinstance(self.expires_at, Unset):
            expires_at = UNSET
        elif isinstance(self.expires_at, datetime.datetime):
            expires_at = self.expires_at.isoformat()
        else:
            expires_at = self.expires_at

        failed_at: None | str | Unset
        if isinstance(self.failed_at, Unset):
            failed_at = UNSET
        elif isinstance(self.failed_at, datetime.datetime):
            failed_at = self.failed_at.isoformat()
        else:
            failed_at = self.failed_at

        failure_reason: None | str | Unset
        if isinstance(self.failure_reason, Unset):
            failure_reason = UNSET
        else:
            failure_reason = self.failure_reason

        from_: None | str | Unset
        if isinstance(self.from_, Unset):
            from_ = UNSET
        else:
            from_ = self.from_

        read_at: None | str | Unset
        if isinstance(self.read_at, Unset):
            read_at = UNSET
        elif isinstance(self.read_at, datetime.datetime):
            read_at = self.read_at.isoformat()
        else:
            read_at = self.read_at

        reply_to: None | str | Unset
        if isinstance(self.reply_to, Unset):
            reply_to = UNSET
        else:
            reply_to = self.reply_to

        scheduled_at: None | str | Unset
        if isinstance(self.scheduled_at, Unset):
            scheduled_at = UNSET
        elif isinstance(self.scheduled_at, datetime.datetime):
            scheduled_at = self.scheduled_at.isoformat()
        else:
            scheduled_at = self.scheduled_at

        sent_at: None | str | Unset
        if isinstance(self.sent_at, Unset):
            sent_at = UNSET
        elif isinstance(self.sent_at, datetime.datetime):
            sent_at = self.sent_at.isoformat()
        else:
            sent_at = self.sent_at

        template: None | str | Unset
        if isinstance(self.template, Unset):
            template = UNSET
        else:
            template = self.template

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "channel": channel,
                "created_at": created_at,
                "direction": direction,
                "media": media,
                "message_id": message_id,
                "metadata": metadata,
                "status": status,
                "test": test,
                "to": to,
            }
        )
        if body is not UNSET:
            field_dict["body"] = body
        if campaign_id is not UNSET:
            field_dict["campaign_id"] = campaign_id
        if channel_used is not UNSET:
            field_dict["channel_used"] = channel_used
        if delivered_at is not UNSET:
            field_dict["delivered_at"] = delivered_at
        if error_code is not UNSET:
            field_dict["error_code"] = error_code
        if expires_at is not UNSET:
            field_dict["expires_at"] = expires_at
        if failed_at is not UNSET:
            field_dict["failed_at"] = failed_at
        if failure_reason is not UNSET:
            field_dict["failure_reason"] = failure_reason
        if from_ is not UNSET:
            field_dict["from"] = from_
        if read_at is not UNSET:
            field_dict["read_at"] = read_at
        if reply_to is not UNSET:
            field_dict["reply_to"] = reply_to
        if scheduled_at is not UNSET:
            field_dict["scheduled_at"] = scheduled_at
        if sent_at is not UNSET:
            field_dict["sent_at"] = sent_at
        if template is not UNSET:
            field_dict["template"] = template

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.attachment_view import AttachmentView  # noqa: PLC0415
        from ..models.message_view_metadata import MessageViewMetadata  # noqa: PLC0415

        d = dict(src_dict)
        channel = d.pop("channel")

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        direction = d.pop("direction")

        media = []
        _media = d.pop("media")
        for media_item_data in _media:
            media_item = AttachmentView.from_dict(media_item_data)

            media.append(media_item)

        message_id = d.pop("message_id")

        metadata = MessageViewMetadata.from_dict(d.pop("metadata"))

        status = d.pop("status")

        test = d.pop("test")

        to = d.pop("to")

        def _parse_body(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        body = _parse_body(d.pop("body", UNSET))

        def _parse_campaign_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        campaign_id = _parse_campaign_id(d.pop("campaign_id", UNSET))

        def _parse_channel_used(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        channel_used = _parse_channel_used(d.pop("channel_used", UNSET))

        def _parse_delivered_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                delivered_at_type_0 = datetime.datetime.fromisoformat(data)

                return delivered_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        delivered_at = _parse_delivered_at(d.pop("delivered_at", UNSET))

        def _parse_error_code(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        error_code = _parse_error_code(d.pop("error_code", UNSET))

        def _parse_expires_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                expires_at_type_0 = datetime.datetime.fromisoformat(data)

                return expires_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        expires_at = _parse_expires_at(d.pop("expires_at", UNSET))

        def _parse_failed_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                failed_at_type_0 = datetime.datetime.fromisoformat(data)

                return failed_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        failed_at = _parse_failed_at(d.pop("failed_at", UNSET))

        def _parse_failure_reason(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        failure_reason = _parse_failure_reason(d.pop("failure_reason", UNSET))

        def _parse_from_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        from_ = _parse_from_(d.pop("from", UNSET))

        def _parse_read_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                read_at_type_0 = datetime.datetime.fromisoformat(data)

                return read_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        read_at = _parse_read_at(d.pop("read_at", UNSET))

        def _parse_reply_to(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        reply_to = _parse_reply_to(d.pop("reply_to", UNSET))

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

        def _parse_sent_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                sent_at_type_0 = datetime.datetime.fromisoformat(data)

                return sent_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        sent_at = _parse_sent_at(d.pop("sent_at", UNSET))

        def _parse_template(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        template = _parse_template(d.pop("template", UNSET))

        message_view = cls(
            channel=channel,
            created_at=created_at,
            direction=direction,
            media=media,
            message_id=message_id,
            metadata=metadata,
            status=status,
            test=test,
            to=to,
            body=body,
            campaign_id=campaign_id,
            channel_used=channel_used,
            delivered_at=delivered_at,
            error_code=error_code,
            expires_at=expires_at,
            failed_at=failed_at,
            failure_reason=failure_reason,
            from_=from_,
            read_at=read_at,
            reply_to=reply_to,
            scheduled_at=scheduled_at,
            sent_at=sent_at,
            template=template,
        )

        message_view.additional_properties = d
        return message_view

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

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..models.job_channel import JobChannel
from ..models.job_kind import JobKind
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.job_media import JobMedia


T = TypeVar("T", bound="DataBodyVecJobViewDataItem")


@_attrs_define
class DataBodyVecJobViewDataItem:
    """A job as the agent gets it: `send` (`message_id`, `to`, `body`, `channel`, `media`) or
    `detect` (`phone`).

        Attributes:
            job_id (str): Lease id (send: answer within 60 s or the job returns to the queue) or question id (detect).
            kind (JobKind): What a job asks of the phone.
            body (None | str | Unset): Send: text; `null` for a media-only send.
            channel (JobChannel | None | Unset):
            media (list[JobMedia] | None | Unset): Send: the attachments to send after the text (`[]` for a text alone),
                each fetched with
                `GET /phone/v1/media/{media_id}` and checked against its `sha256`.
            message_id (None | str | Unset): Send: message to send.
            phone (None | str | Unset): Detect: the number to check for iMessage.
            to (None | str | Unset): Send: recipient.
    """

    job_id: str
    kind: JobKind
    body: None | str | Unset = UNSET
    channel: JobChannel | None | Unset = UNSET
    media: list[JobMedia] | None | Unset = UNSET
    message_id: None | str | Unset = UNSET
    phone: None | str | Unset = UNSET
    to: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        job_id = self.job_id

        kind = self.kind.value

        body: None | str | Unset
        if isinstance(self.body, Unset):
            body = UNSET
        else:
            body = self.body

        channel: None | str | Unset
        if isinstance(self.channel, Unset):
            channel = UNSET
        elif isinstance(self.channel, JobChannel):
            channel = self.channel.value
        else:
            channel = self.channel

        media: list[dict[str, Any]] | None | Unset
        if isinstance(self.media, Unset):
            media = UNSET
        elif isinstance(self.media, list):
            media = []
            for media_type_0_item_data in self.media:
                media_type_0_item = media_type_0_item_data.to_dict()
                media.append(media_type_0_item)

        else:
            media = self.media

        message_id: None | str | Unset
        if isinstance(self.message_id, Unset):
            message_id = UNSET
        else:
            message_id = self.message_id

        phone: None | str | Unset
        if isinstance(self.phone, Unset):
            phone = UNSET
        else:
            phone = self.phone

        to: None | str | Unset
        if isinstance(self.to, Unset):
            to = UNSET
        else:
            to = self.to

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "job_id": job_id,
                "kind": kind,
            }
        )
        if body is not UNSET:
            field_dict["body"] = body
        if channel is not UNSET:
            field_dict["channel"] = channel
        if media is not UNSET:
            field_dict["media"] = media
        if message_id is not UNSET:
            field_dict["message_id"] = message_id
        if phone is not UNSET:
            field_dict["phone"] = phone
        if to is not UNSET:
            field_dict["to"] = to

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.job_media import JobMedia  # noqa: PLC0415

        d = dict(src_dict)
        job_id = d.pop("job_id")

        kind = JobKind(d.pop("kind"))

        def _parse_body(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        body = _parse_body(d.pop("body", UNSET))

        def _parse_channel(data: object) -> JobChannel | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                channel_type_0 = JobChannel(data)

                return channel_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(JobChannel | None | Unset, data)

        channel = _parse_channel(d.pop("channel", UNSET))

        def _parse_media(data: object) -> list[JobMedia] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                media_type_0 = []
                _media_type_0 = data
                for media_type_0_item_data in _media_type_0:
                    media_type_0_item = JobMedia.from_dict(media_type_0_item_data)

                    media_type_0.append(media_type_0_item)

                return media_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[JobMedia] | None | Unset, data)

        media = _parse_media(d.pop("media", UNSET))

        def _parse_message_id(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        message_id = _parse_message_id(d.pop("message_id", UNSET))

        def _parse_phone(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        phone = _parse_phone(d.pop("phone", UNSET))

        def _parse_to(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        to = _parse_to(d.pop("to", UNSET))

        data_body_vec_job_view_data_item = cls(
            job_id=job_id,
            kind=kind,
            body=body,
            channel=channel,
            media=media,
            message_id=message_id,
            phone=phone,
            to=to,
        )

        data_body_vec_job_view_data_item.additional_properties = d
        return data_body_vec_job_view_data_item

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

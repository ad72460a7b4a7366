from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.requested_channel import RequestedChannel
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.media_item_type_1 import MediaItemType1
    from ..models.send_body_data_type_0 import SendBodyDataType0
    from ..models.send_body_metadata_type_0 import SendBodyMetadataType0


T = TypeVar("T", bound="SendBody")


@_attrs_define
class SendBody:
    """Body of `POST /v1/messages`.

    Attributes:
        to (str): Recipient, E.164: `+` then 10 to 15 digits.
        body (None | str | Unset): Text, 1–10,000 characters. At most one of `body` and `template`; one of them or
            `media`.
        channel (RequestedChannel | Unset): The channels a send may ask for.
        data (None | SendBodyDataType0 | Unset): Template values (strings, numbers or booleans).
        from_ (None | str | Unset): One of the tenant's phones (E.164): the message goes through it only.
        media (list[MediaItemType1 | str] | None | Unset): 1–10 attachments, in the order they go out: ids from `POST
            /v1/media`, or
            `{"url": "https://…"}` for a file the node fetches before it answers.
        metadata (None | SendBodyMetadataType0 | Unset): Up to 20 string values of the tenant's own (keys 1–40 of
            `[A-Za-z0-9_.-]`, values up to
            500 characters), echoed in the record and every event about the message.
        send_at (None | str | Unset): Send later: an RFC 3339 time in the future, at most 30 days ahead.
        template (None | str | Unset): A template's name or id; its `{{ variables }}` come from `data`, then the
            recipient
            contact's attributes.
        valid_for (int | None | Unset): Seconds (10–259,200) a phone may still take the message after it is accepted;
            past
            them it fails with `error_code: EXPIRED` and never reaches a phone.
    """

    to: str
    body: None | str | Unset = UNSET
    channel: RequestedChannel | Unset = UNSET
    data: None | SendBodyDataType0 | Unset = UNSET
    from_: None | str | Unset = UNSET
    media: list[MediaItemType1 | str] | None | Unset = UNSET
    metadata: None | SendBodyMetadataType0 | Unset = UNSET
    send_at: None | str | Unset = UNSET
    template: None | str | Unset = UNSET
    valid_for: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.media_item_type_1 import MediaItemType1  # noqa: PLC0415
        from ..models.send_body_data_type_0 import SendBodyDataType0  # noqa: PLC0415
        from ..models.send_body_metadata_type_0 import SendBodyMetadataType0  # noqa: PLC0415

        to = self.to

        body: None | str | Unset
        if isinstance(self.body, Unset):
            body = UNSET
        else:
            body = self.body

        channel: str | Unset = UNSET
        if not isinstance(self.channel, Unset):
            channel = self.channel.value

        data: dict[str, Any] | None | Unset
        if isinstance(self.data, Unset):
            data = UNSET
        elif isinstance(self.data, SendBodyDataType0):
            data = self.data.to_dict()
        else:
            data = self.data

        from_: None | str | Unset
        if isinstance(self.from_, Unset):
            from_ = UNSET
        else:
            from_ = self.from_

        media: list[dict[str, Any] | str] | None | Unset
        if isinstance(self.media, Unset):
            media = UNSET
        elif isinstance(self.media, list):
            media = []
            for media_type_0_item_data in self.media:
                media_type_0_item: dict[str, Any] | str
                if isinstance(media_type_0_item_data, MediaItemType1):
                    media_type_0_item = media_type_0_item_data.to_dict()
                else:
                    media_type_0_item = media_type_0_item_data
                media.append(media_type_0_item)

        else:
            media = self.media

        metadata: dict[str, Any] | None | Unset
        if isinstance(self.metadata, Unset):
            metadata = UNSET
        elif isinstance(self.metadata, SendBodyMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        send_at: None | str | Unset
        if isinstance(self.send_at, Unset):
            send_at = UNSET
        else:
            send_at = self.send_at

        template: None | str | Unset
        if isinstance(self.template, Unset):
            template = UNSET
        else:
            template = self.template

        valid_for: int | None | Unset
        if isinstance(self.valid_for, Unset):
            valid_for = UNSET
        else:
            valid_for = self.valid_for

        field_dict: dict[str, Any] = {}

        field_dict.update(
            {
                "to": to,
            }
        )
        if body is not UNSET:
            field_dict["body"] = body
        if channel is not UNSET:
            field_dict["channel"] = channel
        if data is not UNSET:
            field_dict["data"] = data
        if from_ is not UNSET:
            field_dict["from"] = from_
        if media is not UNSET:
            field_dict["media"] = media
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if send_at is not UNSET:
            field_dict["send_at"] = send_at
        if template is not UNSET:
            field_dict["template"] = template
        if valid_for is not UNSET:
            field_dict["valid_for"] = valid_for

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.media_item_type_1 import MediaItemType1  # noqa: PLC0415
        from ..models.send_body_data_type_0 import SendBodyDataType0  # noqa: PLC0415
        from ..models.send_body_metadata_type_0 import SendBodyMetadataType0  # noqa: PLC0415

        d = dict(src_dict)
        to = d.pop("to")

        def _parse_body(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        body = _parse_body(d.pop("body", UNSET))

        _channel = d.pop("channel", UNSET)
        channel: RequestedChannel | Unset
        if isinstance(_channel, Unset):
            channel = UNSET
        else:
            channel = RequestedChannel(_channel)

        def _parse_data(data: object) -> None | SendBodyDataType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                data_type_0 = SendBodyDataType0.from_dict(data)

                return data_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SendBodyDataType0 | Unset, data)

        data = _parse_data(d.pop("data", UNSET))

        def _parse_from_(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        from_ = _parse_from_(d.pop("from", UNSET))

        def _parse_media(data: object) -> list[MediaItemType1 | str] | None | Unset:
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

                    def _parse_media_type_0_item(data: object) -> MediaItemType1 | str:
                        try:
                            if not isinstance(data, dict):
                                raise TypeError()
                            componentsschemas_media_item_type_1 = MediaItemType1.from_dict(data)

                            return componentsschemas_media_item_type_1
                        except (TypeError, ValueError, AttributeError, KeyError):
                            pass
                        return cast(MediaItemType1 | str, data)

                    media_type_0_item = _parse_media_type_0_item(media_type_0_item_data)

                    media_type_0.append(media_type_0_item)

                return media_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[MediaItemType1 | str] | None | Unset, data)

        media = _parse_media(d.pop("media", UNSET))

        def _parse_metadata(data: object) -> None | SendBodyMetadataType0 | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = SendBodyMetadataType0.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(None | SendBodyMetadataType0 | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))

        def _parse_send_at(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        send_at = _parse_send_at(d.pop("send_at", UNSET))

        def _parse_template(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        template = _parse_template(d.pop("template", UNSET))

        def _parse_valid_for(data: object) -> int | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(int | None | Unset, data)

        valid_for = _parse_valid_for(d.pop("valid_for", UNSET))

        send_body = cls(
            to=to,
            body=body,
            channel=channel,
            data=data,
            from_=from_,
            media=media,
            metadata=metadata,
            send_at=send_at,
            template=template,
            valid_for=valid_for,
        )

        return send_body

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define

from ..models.requested_channel import RequestedChannel
from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.create_campaign_data_type_0 import CreateCampaignDataType0
    from ..models.create_campaign_metadata_type_0 import CreateCampaignMetadataType0
    from ..models.media_item_type_1 import MediaItemType1


T = TypeVar("T", bound="CreateCampaign")


@_attrs_define
class CreateCampaign:
    """Body of `POST /v1/campaigns`.

    Attributes:
        name (str): Label, 1–200 characters.
        all_contacts (bool | None | Unset): every contact at launch.
        body (None | str | Unset): Text, 1–10,000 characters; or
        channel (RequestedChannel | Unset): The channels a send may ask for.
        contact_ids (list[str] | None | Unset): Recipients: these contacts, or
        data (CreateCampaignDataType0 | None | Unset): Shared template values (each recipient's contact attributes fill
            the rest).
        media (list[MediaItemType1 | str] | None | Unset): 1–10 attachments every message carries, as on a send: media
            ids, or `{"url"}`s fetched
            once, when the campaign is created.
        metadata (CreateCampaignMetadataType0 | None | Unset): Up to 20 string values of the tenant's own, given to
            every message (as on a send).
        phones (list[str] | None | Unset): these numbers (E.164, at most 100,000), or
        template (None | str | Unset): a template name or id.
        valid_for (int | None | Unset): Each message's `valid_for` (10–259,200 s from its own acceptance), as on a send.
    """

    name: str
    all_contacts: bool | None | Unset = UNSET
    body: None | str | Unset = UNSET
    channel: RequestedChannel | Unset = UNSET
    contact_ids: list[str] | None | Unset = UNSET
    data: CreateCampaignDataType0 | None | Unset = UNSET
    media: list[MediaItemType1 | str] | None | Unset = UNSET
    metadata: CreateCampaignMetadataType0 | None | Unset = UNSET
    phones: list[str] | None | Unset = UNSET
    template: None | str | Unset = UNSET
    valid_for: int | None | Unset = UNSET

    def to_dict(self) -> dict[str, Any]:
        from ..models.create_campaign_data_type_0 import CreateCampaignDataType0  # noqa: PLC0415
        from ..models.create_campaign_metadata_type_0 import CreateCampaignMetadataType0  # noqa: PLC0415
        from ..models.media_item_type_1 import MediaItemType1  # noqa: PLC0415

        name = self.name

        all_contacts: bool | None | Unset
        if isinstance(self.all_contacts, Unset):
            all_contacts = UNSET
        else:
            all_contacts = self.all_contacts

        body: None | str | Unset
        if isinstance(self.body, Unset):
            body = UNSET
        else:
            body = self.body

        channel: str | Unset = UNSET
        if not isinstance(self.channel, Unset):
            channel = self.channel.value

        contact_ids: list[str] | None | Unset
        if isinstance(self.contact_ids, Unset):
            contact_ids = UNSET
        elif isinstance(self.contact_ids, list):
            contact_ids = self.contact_ids

        else:
            contact_ids = self.contact_ids

        data: dict[str, Any] | None | Unset
        if isinstance(self.data, Unset):
            data = UNSET
        elif isinstance(self.data, CreateCampaignDataType0):
            data = self.data.to_dict()
        else:
            data = self.data

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
        elif isinstance(self.metadata, CreateCampaignMetadataType0):
            metadata = self.metadata.to_dict()
        else:
            metadata = self.metadata

        phones: list[str] | None | Unset
        if isinstance(self.phones, Unset):
            phones = UNSET
        elif isinstance(self.phones, list):
            phones = self.phones

        else:
            phones = self.phones

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
                "name": name,
            }
        )
        if all_contacts is not UNSET:
            field_dict["all_contacts"] = all_contacts
        if body is not UNSET:
            field_dict["body"] = body
        if channel is not UNSET:
            field_dict["channel"] = channel
        if contact_ids is not UNSET:
            field_dict["contact_ids"] = contact_ids
        if data is not UNSET:
            field_dict["data"] = data
        if media is not UNSET:
            field_dict["media"] = media
        if metadata is not UNSET:
            field_dict["metadata"] = metadata
        if phones is not UNSET:
            field_dict["phones"] = phones
        if template is not UNSET:
            field_dict["template"] = template
        if valid_for is not UNSET:
            field_dict["valid_for"] = valid_for

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.create_campaign_data_type_0 import CreateCampaignDataType0  # noqa: PLC0415
        from ..models.create_campaign_metadata_type_0 import CreateCampaignMetadataType0  # noqa: PLC0415
        from ..models.media_item_type_1 import MediaItemType1  # noqa: PLC0415

        d = dict(src_dict)
        name = d.pop("name")

        def _parse_all_contacts(data: object) -> bool | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(bool | None | Unset, data)

        all_contacts = _parse_all_contacts(d.pop("all_contacts", UNSET))

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

        def _parse_contact_ids(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                contact_ids_type_0 = cast(list[str], data)

                return contact_ids_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        contact_ids = _parse_contact_ids(d.pop("contact_ids", UNSET))

        def _parse_data(data: object) -> CreateCampaignDataType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                data_type_0 = CreateCampaignDataType0.from_dict(data)

                return data_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CreateCampaignDataType0 | None | Unset, data)

        data = _parse_data(d.pop("data", UNSET))

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

        def _parse_metadata(data: object) -> CreateCampaignMetadataType0 | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, dict):
                    raise TypeError()
                metadata_type_0 = CreateCampaignMetadataType0.from_dict(data)

                return metadata_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(CreateCampaignMetadataType0 | None | Unset, data)

        metadata = _parse_metadata(d.pop("metadata", UNSET))

        def _parse_phones(data: object) -> list[str] | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, list):
                    raise TypeError()
                phones_type_0 = cast(list[str], data)

                return phones_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(list[str] | None | Unset, data)

        phones = _parse_phones(d.pop("phones", UNSET))

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

        create_campaign = cls(
            name=name,
            all_contacts=all_contacts,
            body=body,
            channel=channel,
            contact_ids=contact_ids,
            data=data,
            media=media,
            metadata=metadata,
            phones=phones,
            template=template,
            valid_for=valid_for,
        )

        return create_campaign

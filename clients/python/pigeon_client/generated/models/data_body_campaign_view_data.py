from __future__ import annotations

import datetime
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.attachment_view import AttachmentView
    from ..models.counts import Counts
    from ..models.data_body_campaign_view_data_audience import DataBodyCampaignViewDataAudience
    from ..models.data_body_campaign_view_data_data import DataBodyCampaignViewDataData
    from ..models.data_body_campaign_view_data_metadata import DataBodyCampaignViewDataMetadata
    from ..models.data_body_campaign_view_data_skipped import DataBodyCampaignViewDataSkipped


T = TypeVar("T", bound="DataBodyCampaignViewData")


@_attrs_define
class DataBodyCampaignViewData:
    """A campaign.

    Attributes:
        audience (DataBodyCampaignViewDataAudience): `{contact_ids: [...]}`, `{phones: [...]}` or `"all_contacts"`.
        channel (str): Requested channel.
        counts (Counts): Counts of a campaign's messages by status.
        created_at (datetime.datetime): Creation time.
        data (DataBodyCampaignViewDataData): Shared template values.
        id (str): Campaign id.
        media (list[AttachmentView]): Attachments of every message, links signed now (`[]` when none).
        metadata (DataBodyCampaignViewDataMetadata): The tenant's own values given to every message (`{}` when none).
        name (str): Label.
        processed (int): Recipients handled so far (sent or skipped).
        skipped (DataBodyCampaignViewDataSkipped): Recipients not sent, by the code that refused them.
        status (str): `draft`, `running`, `completed` or `cancelled`.
        total (int): Recipients resolved at launch.
        body (None | str | Unset): Text, if not a template.
        finished_at (datetime.datetime | None | Unset): Completion or cancellation time.
        launched_at (datetime.datetime | None | Unset): Launch time.
        template (None | str | Unset): Template name or id, if used.
        valid_for (int | None | Unset): Each message's `valid_for`, seconds.
    """

    audience: DataBodyCampaignViewDataAudience
    channel: str
    counts: Counts
    created_at: datetime.datetime
    data: DataBodyCampaignViewDataData
    id: str
    media: list[AttachmentView]
    metadata: DataBodyCampaignViewDataMetadata
    name: str
    processed: int
    skipped: DataBodyCampaignViewDataSkipped
    status: str
    total: int
    body: None | str | Unset = UNSET
    finished_at: datetime.datetime | None | Unset = UNSET
    launched_at: datetime.datetime | None | Unset = UNSET
    template: None | str | Unset = UNSET
    valid_for: int | None | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        audience = self.audience.to_dict()

        channel = self.channel

        counts = self.counts.to_dict()

        created_at = self.created_at.isoformat()

        data = self.data.to_dict()

        id = self.id

        media = []
        for media_item_data in self.media:
            media_item = media_item_data.to_dict()
            media.append(media_item)

        metadata = self.metadata.to_dict()

        name = self.name

        processed = self.processed

        skipped = self.skipped.to_dict()

        status = self.status

        total = self.total

        body: None | str | Unset
        if isinstance(self.body, Unset):
            body = UNSET
        else:
            body = self.body

        finished_at: None | str | Unset
        if isinstance(self.finished_at, Unset):
            finished_at = UNSET
        elif isinstance(self.finished_at, datetime.datetime):
            finished_at = self.finished_at.isoformat()
        else:
            finished_at = self.finished_at

        launched_at: None | str | Unset
        if isinstance(self.launched_at, Unset):
            launched_at = UNSET
        elif isinstance(self.launched_at, datetime.datetime):
            launched_at = self.launched_at.isoformat()
        else:
            launched_at = self.launched_at

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
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "audience": audience,
                "channel": channel,
                "counts": counts,
                "created_at": created_at,
                "data": data,
                "id": id,
                "media": media,
                "metadata": metadata,
                "name": name,
                "processed": processed,
                "skipped": skipped,
                "status": status,
                "total": total,
            }
        )
        if body is not UNSET:
            field_dict["body"] = body
        if finished_at is not UNSET:
            field_dict["finished_at"] = finished_at
        if launched_at is not UNSET:
            field_dict["launched_at"] = launched_at
        if template is not UNSET:
            field_dict["template"] = template
        if valid_for is not UNSET:
            field_dict["valid_for"] = valid_for

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.attachment_view import AttachmentView  # noqa: PLC0415
        from ..models.counts import Counts  # noqa: PLC0415
        from ..models.data_body_campaign_view_data_audience import DataBodyCampaignViewDataAudience  # noqa: PLC0415
        from ..models.data_body_campaign_view_data_data import DataBodyCampaignViewDataData  # noqa: PLC0415
        from ..models.data_body_campaign_view_data_metadata import DataBodyCampaignViewDataMetadata  # noqa: PLC0415
        from ..models.data_body_campaign_view_data_skipped import DataBodyCampaignViewDataSkipped  # noqa: PLC0415

        d = dict(src_dict)
        audience = DataBodyCampaignViewDataAudience.from_dict(d.pop("audience"))

        channel = d.pop("channel")

        counts = Counts.from_dict(d.pop("counts"))

        created_at = datetime.datetime.fromisoformat(d.pop("created_at"))

        data = DataBodyCampaignViewDataData.from_dict(d.pop("data"))

        id = d.pop("id")

        media = []
        _media = d.pop("media")
        for media_item_data in _media:
            media_item = AttachmentView.from_dict(media_item_data)

            media.append(media_item)

        metadata = DataBodyCampaignViewDataMetadata.from_dict(d.pop("metadata"))

        name = d.pop("name")

        processed = d.pop("processed")

        skipped = DataBodyCampaignViewDataSkipped.from_dict(d.pop("skipped"))

        status = d.pop("status")

        total = d.pop("total")

        def _parse_body(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        body = _parse_body(d.pop("body", UNSET))

        def _parse_finished_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                finished_at_type_0 = datetime.datetime.fromisoformat(data)

                return finished_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        finished_at = _parse_finished_at(d.pop("finished_at", UNSET))

        def _parse_launched_at(data: object) -> datetime.datetime | None | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            try:
                if not isinstance(data, str):
                    raise TypeError()
                launched_at_type_0 = datetime.datetime.fromisoformat(data)

                return launched_at_type_0
            except (TypeError, ValueError, AttributeError, KeyError):
                pass
            return cast(datetime.datetime | None | Unset, data)

        launched_at = _parse_launched_at(d.pop("launched_at", UNSET))

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

        data_body_campaign_view_data = cls(
            audience=audience,
            channel=channel,
            counts=counts,
            created_at=created_at,
            data=data,
            id=id,
            media=media,
            metadata=metadata,
            name=name,
            processed=processed,
            skipped=skipped,
            status=status,
            total=total,
            body=body,
            finished_at=finished_at,
            launched_at=launched_at,
            template=template,
            valid_for=valid_for,
        )

        data_body_campaign_view_data.additional_properties = d
        return data_body_campaign_view_data

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

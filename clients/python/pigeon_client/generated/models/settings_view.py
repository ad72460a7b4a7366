from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, TypeVar, cast

from attrs import define as _attrs_define
from attrs import field as _attrs_field

from ..types import UNSET, Unset

if TYPE_CHECKING:
    from ..models.quiet_hours_body import QuietHoursBody


T = TypeVar("T", bound="SettingsView")


@_attrs_define
class SettingsView:
    """A tenant's settings.

    Attributes:
        quiet_hours (QuietHoursBody): Quiet-hours window, in the recipient's local time.
        help_reply (None | str | Unset): Texted to a number that sends HELP or INFO; null (the default) sends nothing.
        opt_in_reply (None | str | Unset): Texted to a number whose START opted it back in; null sends nothing.
        opt_out_reply (None | str | Unset): Texted once to a number whose STOP opted it out; null sends nothing.
    """

    quiet_hours: QuietHoursBody
    help_reply: None | str | Unset = UNSET
    opt_in_reply: None | str | Unset = UNSET
    opt_out_reply: None | str | Unset = UNSET
    additional_properties: dict[str, Any] = _attrs_field(init=False, factory=dict)

    def to_dict(self) -> dict[str, Any]:
        quiet_hours = self.quiet_hours.to_dict()

        help_reply: None | str | Unset
        if isinstance(self.help_reply, Unset):
            help_reply = UNSET
        else:
            help_reply = self.help_reply

        opt_in_reply: None | str | Unset
        if isinstance(self.opt_in_reply, Unset):
            opt_in_reply = UNSET
        else:
            opt_in_reply = self.opt_in_reply

        opt_out_reply: None | str | Unset
        if isinstance(self.opt_out_reply, Unset):
            opt_out_reply = UNSET
        else:
            opt_out_reply = self.opt_out_reply

        field_dict: dict[str, Any] = {}
        field_dict.update(self.additional_properties)
        field_dict.update(
            {
                "quiet_hours": quiet_hours,
            }
        )
        if help_reply is not UNSET:
            field_dict["help_reply"] = help_reply
        if opt_in_reply is not UNSET:
            field_dict["opt_in_reply"] = opt_in_reply
        if opt_out_reply is not UNSET:
            field_dict["opt_out_reply"] = opt_out_reply

        return field_dict

    @classmethod
    def from_dict(cls: type[T], src_dict: Mapping[str, Any]) -> T:
        from ..models.quiet_hours_body import QuietHoursBody  # noqa: PLC0415

        d = dict(src_dict)
        quiet_hours = QuietHoursBody.from_dict(d.pop("quiet_hours"))

        def _parse_help_reply(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        help_reply = _parse_help_reply(d.pop("help_reply", UNSET))

        def _parse_opt_in_reply(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        opt_in_reply = _parse_opt_in_reply(d.pop("opt_in_reply", UNSET))

        def _parse_opt_out_reply(data: object) -> None | str | Unset:
            if data is None:
                return data
            if isinstance(data, Unset):
                return data
            return cast(None | str | Unset, data)

        opt_out_reply = _parse_opt_out_reply(d.pop("opt_out_reply", UNSET))

        settings_view = cls(
            quiet_hours=quiet_hours,
            help_reply=help_reply,
            opt_in_reply=opt_in_reply,
            opt_out_reply=opt_out_reply,
        )

        settings_view.additional_properties = d
        return settings_view

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

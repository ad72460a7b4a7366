from enum import StrEnum


class JobChannel(StrEnum):
    AUTO = "auto"
    IMESSAGE = "imessage"
    SMS = "sms"

    def __str__(self) -> str:
        return str(self.value)

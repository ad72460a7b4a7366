from enum import StrEnum


class FailureScope(StrEnum):
    PHONE = "phone"
    RECIPIENT = "recipient"

    def __str__(self) -> str:
        return str(self.value)

from enum import StrEnum


class ReportedStatus(StrEnum):
    DELIVERED = "delivered"
    FAILED = "failed"
    SENT = "sent"

    def __str__(self) -> str:
        return str(self.value)

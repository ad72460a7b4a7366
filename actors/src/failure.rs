//! Why a message failed or a campaign skipped a recipient, as the API codes them. Stored on the
//! message (`error_code`) and counted under the campaign's `skipped`; spelled here only.

use crate::EngineError;

/// A failure or skip reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum FailureCode {
    /// The phone or carrier reported a failure.
    DeliveryFailed,
    /// The recipient opted out before the message went out.
    RecipientOptedOut,
    /// No phone could take it (or its phone was removed).
    NoPhoneAvailable,
    /// No phone took it before its `valid_for` ran out.
    Expired,
    /// The day's first-time recipients were used up.
    NewContactLimit,
    /// The number is not E.164.
    InvalidPhoneNumber,
    /// No such template.
    InvalidTemplate,
    /// A template variable had no value.
    MissingTemplateVar,
    /// Some other field was invalid.
    ValidationError,
    /// A campaign's contact was deleted before launch.
    ContactNotFound,
    /// The engine failed.
    InternalError,
}

impl FailureCode {
    /// The API's code.
    pub fn as_str(self) -> &'static str {
        match self {
            FailureCode::DeliveryFailed => "DELIVERY_FAILED",
            FailureCode::RecipientOptedOut => "RECIPIENT_OPTED_OUT",
            FailureCode::NoPhoneAvailable => "NO_PHONE_AVAILABLE",
            FailureCode::Expired => "EXPIRED",
            FailureCode::NewContactLimit => "NEW_CONTACT_LIMIT",
            FailureCode::InvalidPhoneNumber => "INVALID_PHONE_NUMBER",
            FailureCode::InvalidTemplate => "INVALID_TEMPLATE",
            FailureCode::MissingTemplateVar => "MISSING_TEMPLATE_VAR",
            FailureCode::ValidationError => "VALIDATION_ERROR",
            FailureCode::ContactNotFound => "CONTACT_NOT_FOUND",
            FailureCode::InternalError => "INTERNAL_ERROR",
        }
    }

    /// The code a send refused with `e` is counted under (a campaign's skips).
    pub fn of(e: &EngineError) -> Self {
        match e {
            EngineError::RecipientOptedOut => FailureCode::RecipientOptedOut,
            EngineError::NewContactLimit { .. } => FailureCode::NewContactLimit,
            EngineError::NoPhoneAvailable { .. } => FailureCode::NoPhoneAvailable,
            EngineError::InvalidTemplate(_) => FailureCode::InvalidTemplate,
            EngineError::MissingTemplateVar(_) => FailureCode::MissingTemplateVar,
            EngineError::Validation(_) => FailureCode::ValidationError,
            _ => FailureCode::InternalError,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refusals_count_under_their_api_codes() {
        assert_eq!(FailureCode::of(&EngineError::RecipientOptedOut).as_str(), "RECIPIENT_OPTED_OUT");
        assert_eq!(
            FailureCode::of(&EngineError::NewContactLimit { retry_after: 1 }).as_str(),
            "NEW_CONTACT_LIMIT"
        );
        assert_eq!(FailureCode::of(&EngineError::Unavailable).as_str(), "INTERNAL_ERROR");
    }
}

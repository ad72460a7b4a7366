//! The one error type of the HTTP edge. Every refusal the API can give is a variant here, with
//! the spec's status and code; the body is always the envelope `{error, code}`.

use actix_web::http::{header, StatusCode};
use actix_web::{HttpResponse, ResponseError};
use pigeon_actors::{EngineError, FailureCode, Missing};
use serde::Serialize;

/// Seconds a client is asked to wait when the store cannot write: about how long the node takes
/// to notice that the disk has room again and restart.
pub const STORAGE_RETRY_AFTER: u64 = 30;

/// `Retry-After` of a tenant changing hands between the nodes of a fleet, in seconds: the next
/// owner takes it within a lease (5 s by default), so clients come back soon and often.
pub const MOVING_RETRY_AFTER: u64 = 1;

/// Seconds a client is asked to wait when the node refuses a send for overload: the accept path
/// drains in milliseconds, so a second later it has room unless the load goes on.
pub const OVERLOAD_RETRY_AFTER: u64 = 1;

/// An answer that is not a success.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ApiError {
    /// 401: key missing, malformed or revoked (also a wrong operator token).
    InvalidApiKey,
    /// 401 `INVALID_API_KEY`: an identity-provider token refused, saying why.
    InvalidToken(&'static str),
    /// 503: the identity provider's keys cannot be fetched and none is known.
    IdentityUnavailable,
    /// 403: the operator deactivated the key.
    KeyInactive,
    /// 403: the key may not do this (a test key revoking a live key); the text says what.
    InsufficientScope(String),
    /// 403: trial over, no subscription.
    TrialExpired,
    /// 403: tenant suspended.
    TenantSuspended,
    /// 400: a field is invalid; the text names it.
    Validation(String),
    /// 400: not E.164.
    InvalidPhoneNumber(String),
    /// 400: no such template in the tenant.
    InvalidTemplate(String),
    /// 400: template variables without a value.
    MissingTemplateVar(String),
    /// 400: the recipient opted out.
    RecipientOptedOut,
    /// 503: every phone that could take it (the `from` one, else every phone) offline, disabled or
    /// at its daily limit.
    NoPhoneAvailable {
        /// The `from` number asked for.
        from: Option<String>,
        /// Seconds to wait (to UTC midnight when they are all spent for the day, else 30).
        retry_after: u64,
    },
    /// 500: sent but delivery failed.
    DeliveryFailed,
    /// 429: the key's rate.
    RateLimitExceeded {
        /// Seconds to wait.
        retry_after: u64,
    },
    /// 429 `RATE_LIMIT_EXCEEDED`: too many failed sign-ins from the caller's address.
    SignInThrottled {
        /// Seconds to wait.
        retry_after: u64,
    },
    /// 409: the tenant holds the most records of a kind it may.
    LimitReached(String),
    /// 429: the month's calls.
    QuotaExceeded {
        /// Seconds to the month's end.
        retry_after: u64,
    },
    /// 429: first-time recipients today.
    NewContactLimit {
        /// Seconds to UTC midnight.
        retry_after: u64,
    },
    /// 404: no such record (or route) here.
    NotFound(String),
    /// 404: no such contact in the tenant.
    ContactNotFound,
    /// 404: no such campaign in the tenant.
    CampaignNotFound,
    /// 409: a contact with that phone exists.
    DuplicateContact {
        /// The existing contact.
        contact_id: String,
    },
    /// 503: no phone can answer a detection.
    DetectionUnavailable,
    /// 413: body over 1 MiB.
    PayloadTooLarge,
    /// 413 `PAYLOAD_TOO_LARGE`: a media upload over the node's limit (bytes).
    MediaTooLarge(u64),
    /// 400: a media file refused (its type, its bytes, a fetch); the text says which and why.
    InvalidMedia(String),
    /// 403: a media link without a valid, unexpired signature.
    InvalidSignature,
    /// 408: the client did not send its request in time.
    RequestTimeout,
    /// 431: the request's head is over actix-http's limits (96 headers, 128 KiB).
    HeadersTooLarge,
    /// 405: the path exists, the method does not.
    MethodNotAllowed,
    /// 409: a template with that name exists.
    DuplicateTemplate(String),
    /// 409: an `Idempotency-Key` reused within 24 h with a different body.
    IdempotencyKeyReused,
    /// 409: the record's state does not allow the change (e.g. cancelling a sent message).
    InvalidTransition(String),
    /// 409: a backup was asked for while another is being taken.
    BackupInProgress,
    /// 409: the node keeps its data in PostgreSQL, whose backups are the database's.
    BackupNotSupported,
    /// 410: an event cursor older than the events kept.
    CursorExpired,
    /// 503: the server is not ready (starting or stopping).
    NotReady,
    /// 503: the store cannot write (a full or failing disk); reads still answer.
    StorageUnavailable,
    /// 503: the tenant is changing hands between nodes of a fleet (its owner died or just
    /// stopped); its next owner answers within a lease.
    TenantMoving,
    /// 503: more sends are in the accept path than the node takes at once (`overload.rs`).
    Overloaded,
    /// 500: a bug or an I/O failure; details are logged, not shown.
    Internal,
}

impl ApiError {
    /// The stable code clients match on. The codes a message can fail with or a campaign skip
    /// under are spelled once, by [`FailureCode`]; the rest only here.
    pub fn code(&self) -> &'static str {
        use ApiError::*;
        match self {
            InvalidApiKey | InvalidToken(_) => "INVALID_API_KEY",
            IdentityUnavailable => "IDENTITY_UNAVAILABLE",
            KeyInactive => "KEY_INACTIVE",
            InsufficientScope(_) => "INSUFFICIENT_SCOPE",
            TrialExpired => "TRIAL_EXPIRED",
            TenantSuspended => "TENANT_SUSPENDED",
            Validation(_) => FailureCode::ValidationError.as_str(),
            InvalidPhoneNumber(_) => FailureCode::InvalidPhoneNumber.as_str(),
            InvalidTemplate(_) => FailureCode::InvalidTemplate.as_str(),
            MissingTemplateVar(_) => FailureCode::MissingTemplateVar.as_str(),
            RecipientOptedOut => FailureCode::RecipientOptedOut.as_str(),
            NoPhoneAvailable { .. } => FailureCode::NoPhoneAvailable.as_str(),
            DeliveryFailed => FailureCode::DeliveryFailed.as_str(),
            RateLimitExceeded { .. } | SignInThrottled { .. } => "RATE_LIMIT_EXCEEDED",
            LimitReached(_) => "LIMIT_REACHED",
            QuotaExceeded { .. } => "QUOTA_EXCEEDED",
            NewContactLimit { .. } => FailureCode::NewContactLimit.as_str(),
            NotFound(_) => "NOT_FOUND",
            ContactNotFound => FailureCode::ContactNotFound.as_str(),
            CampaignNotFound => "CAMPAIGN_NOT_FOUND",
            DuplicateContact { .. } => "DUPLICATE_CONTACT",
            DetectionUnavailable => "DETECTION_UNAVAILABLE",
            PayloadTooLarge | MediaTooLarge(_) => "PAYLOAD_TOO_LARGE",
            InvalidMedia(_) => "INVALID_MEDIA",
            InvalidSignature => "INVALID_SIGNATURE",
            RequestTimeout => "REQUEST_TIMEOUT",
            HeadersTooLarge => "HEADERS_TOO_LARGE",
            MethodNotAllowed => "METHOD_NOT_ALLOWED",
            NotReady | TenantMoving => "NOT_READY",
            StorageUnavailable => "STORAGE_UNAVAILABLE",
            Overloaded => "OVERLOADED",
            InvalidTransition(_) => "INVALID_STATUS_TRANSITION",
            CursorExpired => "CURSOR_EXPIRED",
            BackupInProgress => "BACKUP_IN_PROGRESS",
            BackupNotSupported => "BACKUP_NOT_SUPPORTED",
            IdempotencyKeyReused => "IDEMPOTENCY_KEY_REUSED",
            DuplicateTemplate(_) => "DUPLICATE_TEMPLATE",
            Internal => FailureCode::InternalError.as_str(),
        }
    }

    /// Plain English, safe to show to end users.
    pub fn message(&self) -> String {
        use ApiError::*;
        match self {
            InvalidApiKey => "The API key is missing, malformed or revoked.".into(),
            InvalidToken(why) => format!("The token was refused: {why}."),
            IdentityUnavailable => {
                "The identity provider's keys cannot be fetched; try again shortly.".into()
            }
            KeyInactive => "This API key has been deactivated.".into(),
            InsufficientScope(m) => m.clone(),
            TrialExpired => "The 14-day trial has ended and no subscription is active; choose a plan.".into(),
            TenantSuspended => "This account has been suspended by the operator.".into(),
            Validation(m)
            | InvalidPhoneNumber(m)
            | InvalidTemplate(m)
            | MissingTemplateVar(m)
            | NotFound(m)
            | LimitReached(m)
            | InvalidMedia(m)
            | InvalidTransition(m) => m.clone(),
            RecipientOptedOut => {
                "The recipient opted out (sent STOP); nothing can be sent until START.".into()
            }
            NoPhoneAvailable { from: None, .. } => "Every phone is offline or at its daily limit.".into(),
            NoPhoneAvailable { from: Some(n), .. } => {
                format!("The phone {n} is disabled, offline or at its daily limit.")
            }
            DeliveryFailed => "The message was sent but delivery failed; see failure_reason.".into(),
            RateLimitExceeded { retry_after } => {
                format!("This key's rate limit is exceeded; retry in {retry_after} s.")
            }
            SignInThrottled { retry_after } => format!(
                "Too many failed sign-ins from this address; every attempt is refused for {retry_after} s."
            ),
            QuotaExceeded { retry_after } => {
                format!("The monthly API call limit is reached; it resets in {retry_after} s.")
            }
            NewContactLimit { retry_after } => {
                format!("Today's limit on first-time recipients is reached; it resets in {retry_after} s.")
            }
            ContactNotFound => "No such contact.".into(),
            CampaignNotFound => "No such campaign.".into(),
            DuplicateContact { .. } => "A contact with this phone number already exists.".into(),
            DetectionUnavailable => "iMessage detection is unavailable: no phone can answer.".into(),
            PayloadTooLarge => "The request body is larger than 1 MiB.".into(),
            MediaTooLarge(max) => format!("The file is larger than {max} bytes, the most this server takes."),
            InvalidSignature => {
                "This media link's signature is missing, wrong or expired; ask for the record \
                                 again for a fresh link, or use an API key."
                    .into()
            }
            RequestTimeout => format!(
                "The request was not sent in time: its head must arrive within {} s of connecting \
                 and its body within {} s of its head.",
                crate::limits::HEADER_TIMEOUT.as_secs(),
                crate::limits::BODY_TIMEOUT.as_secs()
            ),
            HeadersTooLarge => format!(
                "The request's head is too large: at most {} headers and {} KiB.",
                crate::limits::MAX_HEADERS,
                crate::limits::MAX_HEAD / 1024
            ),
            MethodNotAllowed => "This method is not allowed on this path.".into(),
            NotReady => "The server is not ready.".into(),
            TenantMoving => format!(
                "This account is moving to another node of the fleet; nothing was changed. Retry in \
                 {MOVING_RETRY_AFTER} s."
            ),
            StorageUnavailable => format!(
                "The server cannot store anything right now (its disk is full or failing); nothing was \
                 changed. Retry in {STORAGE_RETRY_AFTER} s."
            ),
            Overloaded => format!(
                "The server is taking all the sends it can; nothing was sent. Retry in \
                 {OVERLOAD_RETRY_AFTER} s, backing off if this repeats."
            ),
            IdempotencyKeyReused => {
                "This Idempotency-Key was used in the last 24 hours for a different request.".into()
            }
            DuplicateTemplate(name) => format!("name: a template named {name:?} already exists."),
            CursorExpired => "after: events after this cursor were deleted (they are kept for the retention \
                              period); read again from the oldest kept, without after."
                .into(),
            BackupInProgress => "A backup is already being taken; ask again when it is done.".into(),
            BackupNotSupported => "This node keeps its data in PostgreSQL: back it up with pg_dump.".into(),
            Internal => "Unexpected server failure.".into(),
        }
    }

    /// The error that best describes a bare status, for answers made outside our handlers.
    pub fn from_status(status: StatusCode) -> Self {
        match status.as_u16() {
            400 => ApiError::Validation("The request is malformed.".into()),
            401 => ApiError::InvalidApiKey,
            404 => ApiError::NotFound("No such resource.".into()),
            405 => ApiError::MethodNotAllowed,
            408 => ApiError::RequestTimeout,
            431 => ApiError::HeadersTooLarge,
            413 => ApiError::PayloadTooLarge,
            503 => ApiError::NotReady,
            _ => ApiError::Internal,
        }
    }

    fn retry_after(&self) -> Option<u64> {
        match self {
            ApiError::RateLimitExceeded { retry_after }
            | ApiError::SignInThrottled { retry_after }
            | ApiError::QuotaExceeded { retry_after }
            | ApiError::NewContactLimit { retry_after }
            | ApiError::NoPhoneAvailable { retry_after, .. } => Some((*retry_after).max(1)),
            ApiError::StorageUnavailable => Some(STORAGE_RETRY_AFTER),
            ApiError::Overloaded => Some(OVERLOAD_RETRY_AFTER),
            ApiError::TenantMoving => Some(MOVING_RETRY_AFTER),
            _ => None,
        }
    }
}

impl std::fmt::Display for ApiError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code(), self.message())
    }
}

#[derive(Serialize)]
struct Envelope<'a> {
    error: String,
    code: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    contact_id: Option<&'a str>,
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        use ApiError::*;
        match self {
            InvalidApiKey | InvalidToken(_) => StatusCode::UNAUTHORIZED,
            KeyInactive | InsufficientScope(_) | TrialExpired | TenantSuspended | InvalidSignature => {
                StatusCode::FORBIDDEN
            }
            Validation(_)
            | InvalidPhoneNumber(_)
            | InvalidTemplate(_)
            | MissingTemplateVar(_)
            | InvalidMedia(_)
            | RecipientOptedOut => StatusCode::BAD_REQUEST,
            NoPhoneAvailable { .. }
            | DetectionUnavailable
            | NotReady
            | StorageUnavailable
            | IdentityUnavailable
            | Overloaded
            | TenantMoving => StatusCode::SERVICE_UNAVAILABLE,
            DeliveryFailed | Internal => StatusCode::INTERNAL_SERVER_ERROR,
            RateLimitExceeded { .. }
            | SignInThrottled { .. }
            | QuotaExceeded { .. }
            | NewContactLimit { .. } => StatusCode::TOO_MANY_REQUESTS,
            NotFound(_) | ContactNotFound | CampaignNotFound => StatusCode::NOT_FOUND,
            DuplicateContact { .. }
            | InvalidTransition(_)
            | IdempotencyKeyReused
            | BackupInProgress
            | BackupNotSupported
            | DuplicateTemplate(_)
            | LimitReached(_) => StatusCode::CONFLICT,
            PayloadTooLarge | MediaTooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            RequestTimeout => StatusCode::REQUEST_TIMEOUT,
            HeadersTooLarge => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
            MethodNotAllowed => StatusCode::METHOD_NOT_ALLOWED,
            CursorExpired => StatusCode::GONE,
        }
    }

    fn error_response(&self) -> HttpResponse {
        let mut res = HttpResponse::build(self.status_code());
        if let Some(s) = self.retry_after() {
            res.insert_header((header::RETRY_AFTER, s.to_string()));
        }
        let contact_id = match self {
            ApiError::DuplicateContact { contact_id } => Some(contact_id.as_str()),
            _ => None,
        };
        res.json(Envelope { error: self.message(), code: self.code(), contact_id })
    }
}

impl From<EngineError> for ApiError {
    fn from(e: EngineError) -> Self {
        match e {
            EngineError::InvalidApiKey => ApiError::InvalidApiKey,
            EngineError::KeyInactive => ApiError::KeyInactive,
            EngineError::InsufficientScope(m) => ApiError::InsufficientScope(m),
            EngineError::TrialExpired => ApiError::TrialExpired,
            EngineError::TenantSuspended => ApiError::TenantSuspended,
            EngineError::RateLimited { retry_after } => ApiError::RateLimitExceeded { retry_after },
            EngineError::QuotaExceeded { retry_after } => ApiError::QuotaExceeded { retry_after },
            EngineError::SignInThrottled { retry_after } => ApiError::SignInThrottled { retry_after },
            EngineError::LimitReached(m) => ApiError::LimitReached(m),
            EngineError::Validation(m) => ApiError::Validation(m),
            EngineError::RecipientOptedOut => ApiError::RecipientOptedOut,
            EngineError::NewContactLimit { retry_after } => ApiError::NewContactLimit { retry_after },
            EngineError::NoPhoneAvailable { from, retry_after } => {
                ApiError::NoPhoneAvailable { from, retry_after }
            }
            EngineError::InvalidTransition(m) => ApiError::InvalidTransition(m),
            EngineError::CursorExpired => ApiError::CursorExpired,
            EngineError::IdempotencyKeyReused => ApiError::IdempotencyKeyReused,
            EngineError::DetectionUnavailable => ApiError::DetectionUnavailable,
            EngineError::InvalidMedia(m) => ApiError::InvalidMedia(m),
            EngineError::InvalidTemplate(t) => ApiError::InvalidTemplate(format!(
                "template: no template named or with id {t:?} in this account"
            )),
            EngineError::MissingTemplateVar(vars) => ApiError::MissingTemplateVar(format!(
                "data: no value for template variable(s) {} (in data or the contact's attributes)",
                vars.join(", ")
            )),
            EngineError::DuplicateTemplate(name) => ApiError::DuplicateTemplate(name),
            EngineError::DuplicateContact(id) => ApiError::DuplicateContact { contact_id: id.to_string() },
            EngineError::NotFound(Missing::Contact) => ApiError::ContactNotFound,
            EngineError::NotFound(Missing::Campaign) => ApiError::CampaignNotFound,
            EngineError::NotFound(what) => ApiError::NotFound(format!("No such {}.", what.noun())),
            EngineError::Unavailable => ApiError::NotReady,
            EngineError::Elsewhere(_) => ApiError::TenantMoving,
            EngineError::InvalidToken(why) => ApiError::InvalidToken(why),
            EngineError::IdentityUnavailable => ApiError::IdentityUnavailable,
            EngineError::Config(_) => ApiError::Internal,
            EngineError::Store(e) if e.is_unavailable() => ApiError::StorageUnavailable,
            EngineError::Store(e) => {
                tracing::error!(error = %e, "store failure");
                ApiError::Internal
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The spec's code table, status by status.
    #[test]
    fn every_spec_code_has_its_status() {
        let table = [
            (ApiError::InvalidApiKey, 401, "INVALID_API_KEY"),
            (ApiError::KeyInactive, 403, "KEY_INACTIVE"),
            (ApiError::InsufficientScope("x".into()), 403, "INSUFFICIENT_SCOPE"),
            (ApiError::TrialExpired, 403, "TRIAL_EXPIRED"),
            (ApiError::TenantSuspended, 403, "TENANT_SUSPENDED"),
            (ApiError::Validation("x".into()), 400, "VALIDATION_ERROR"),
            (ApiError::InvalidPhoneNumber("x".into()), 400, "INVALID_PHONE_NUMBER"),
            (ApiError::InvalidTemplate("x".into()), 400, "INVALID_TEMPLATE"),
            (ApiError::MissingTemplateVar("x".into()), 400, "MISSING_TEMPLATE_VAR"),
            (ApiError::RecipientOptedOut, 400, "RECIPIENT_OPTED_OUT"),
            (ApiError::NoPhoneAvailable { from: None, retry_after: 30 }, 503, "NO_PHONE_AVAILABLE"),
            (ApiError::DeliveryFailed, 500, "DELIVERY_FAILED"),
            (ApiError::RateLimitExceeded { retry_after: 3 }, 429, "RATE_LIMIT_EXCEEDED"),
            (ApiError::QuotaExceeded { retry_after: 3 }, 429, "QUOTA_EXCEEDED"),
            (ApiError::NewContactLimit { retry_after: 3 }, 429, "NEW_CONTACT_LIMIT"),
            (ApiError::NotFound("x".into()), 404, "NOT_FOUND"),
            (ApiError::ContactNotFound, 404, "CONTACT_NOT_FOUND"),
            (ApiError::CampaignNotFound, 404, "CAMPAIGN_NOT_FOUND"),
            (ApiError::DuplicateContact { contact_id: "c".into() }, 409, "DUPLICATE_CONTACT"),
            (ApiError::DetectionUnavailable, 503, "DETECTION_UNAVAILABLE"),
            (ApiError::SignInThrottled { retry_after: 3 }, 429, "RATE_LIMIT_EXCEEDED"),
            (ApiError::LimitReached("x".into()), 409, "LIMIT_REACHED"),
            (ApiError::InvalidMedia("x".into()), 400, "INVALID_MEDIA"),
            (ApiError::MediaTooLarge(1), 413, "PAYLOAD_TOO_LARGE"),
            (ApiError::InvalidSignature, 403, "INVALID_SIGNATURE"),
        ];
        for (e, status, code) in table {
            assert_eq!(e.status_code().as_u16(), status, "{code}");
            assert_eq!(e.code(), code);
            let res = e.error_response();
            let says_when = status == 429 || code == "NO_PHONE_AVAILABLE";
            assert_eq!(res.headers().contains_key(header::RETRY_AFTER), says_when, "{code}");
        }
        let full = ApiError::StorageUnavailable.error_response();
        assert_eq!(full.status(), 503);
        assert_eq!(full.headers().get(header::RETRY_AFTER).unwrap(), "30");
        let busy = ApiError::Overloaded.error_response();
        assert_eq!((busy.status().as_u16(), ApiError::Overloaded.code()), (503, "OVERLOADED"));
        assert_eq!(busy.headers().get(header::RETRY_AFTER).unwrap(), "1");
        let moving = ApiError::TenantMoving.error_response();
        assert_eq!((moving.status().as_u16(), ApiError::TenantMoving.code()), (503, "NOT_READY"));
        assert_eq!(moving.headers().get(header::RETRY_AFTER).unwrap(), "1");
        let none = ApiError::NoPhoneAvailable { from: None, retry_after: 30 }.error_response();
        assert_eq!(none.headers().get(header::RETRY_AFTER).unwrap(), "30");
        assert!(!ApiError::NotReady.error_response().headers().contains_key(header::RETRY_AFTER));
    }
}

//! What the engine can refuse, typed; the HTTP edge maps each variant to the spec's code.

use pigeon_storage::StoreError;

/// A refusal or failure from the engine.
#[derive(Debug, thiserror::Error)]
pub enum EngineError {
    /// Missing, malformed, unknown or revoked credential.
    #[error("invalid API key")]
    InvalidApiKey,
    /// The operator deactivated the key.
    #[error("key is deactivated")]
    KeyInactive,
    /// Trial over, no subscription.
    #[error("trial expired")]
    TrialExpired,
    /// The operator suspended the tenant.
    #[error("tenant suspended")]
    TenantSuspended,
    /// The key's per-minute rate is used up.
    #[error("rate limit exceeded")]
    RateLimited {
        /// Whole seconds until the next call may pass.
        retry_after: u64,
    },
    /// Too many failed sign-ins from the caller's address (`engine/guard.rs`).
    #[error("too many failed sign-ins")]
    SignInThrottled {
        /// Whole seconds until the address may try again.
        retry_after: u64,
    },
    /// The key lacks the scope the call needs; the text names it.
    #[error("{0}")]
    InsufficientScope(String),
    /// A tenant holds the most records of a kind it may; the text names the kind and bound.
    #[error("{0}")]
    LimitReached(String),
    /// The tenant's monthly calls are used up.
    #[error("monthly quota exceeded")]
    QuotaExceeded {
        /// Whole seconds until the month ends.
        retry_after: u64,
    },
    /// A field is invalid; the text names it.
    #[error("{0}")]
    Validation(String),
    /// The recipient opted out.
    #[error("recipient opted out")]
    RecipientOptedOut,
    /// First-time recipients of the day are used up.
    #[error("new-contact limit reached")]
    NewContactLimit {
        /// Whole seconds to UTC midnight.
        retry_after: u64,
    },
    /// Every phone that could take the message (the `from` one, else every phone) is offline,
    /// disabled or at its daily limit.
    #[error("no phone available")]
    NoPhoneAvailable {
        /// The `from` number asked for, if any.
        from: Option<String>,
        /// Whole seconds to wait: to UTC midnight when those phones are all online and at their
        /// daily limit, else 30.
        retry_after: u64,
    },
    /// An event cursor from before events it would have read were pruned (`GET /v1/events`).
    #[error("cursor expired")]
    CursorExpired,
    /// The change is not allowed from the record's current state; the text says why.
    #[error("{0}")]
    InvalidTransition(String),
    /// No phone could answer a detection (none online, or no answer within 10 s).
    #[error("detection unavailable")]
    DetectionUnavailable,
    /// A media file refused (its type, its bytes, a fetch); the text says which and why.
    #[error("{0}")]
    InvalidMedia(String),
    /// No template with that name or id in the tenant.
    #[error("no template {0:?}")]
    InvalidTemplate(String),
    /// Template variables without a value.
    #[error("missing template variables")]
    MissingTemplateVar(Vec<String>),
    /// A template with that name exists.
    #[error("duplicate template {0:?}")]
    DuplicateTemplate(String),
    /// A contact with that phone exists (its id).
    #[error("duplicate contact")]
    DuplicateContact(ulid::Ulid),
    /// The idempotency key was used within 24 h for a different request.
    #[error("idempotency key reused with a different body")]
    IdempotencyKeyReused,
    /// No such record in this tenant.
    #[error("{} not found", .0.noun())]
    NotFound(Missing),
    /// The store failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// An actor is gone (shutting down).
    #[error("engine unavailable")]
    Unavailable,
    /// Another node of the fleet owns the tenant (a request that reached this node without
    /// being forwarded, or in the moment the tenant changes hands).
    #[error("the tenant is owned by the node at {0}")]
    Elsewhere(String),
    /// An identity-provider token was refused; the text says why.
    #[error("invalid token: {0}")]
    InvalidToken(&'static str),
    /// The identity provider's keys cannot be fetched and none is known.
    #[error("identity provider unavailable")]
    IdentityUnavailable,
    /// The identity provider's settings are unusable (a PEM that is no public key).
    #[error("{0}")]
    Config(String),
}

/// What was not found: the HTTP edge answers some kinds with a code of their own
/// (`CONTACT_NOT_FOUND`, `CAMPAIGN_NOT_FOUND`), the rest with `NOT_FOUND`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Missing {
    /// A tenant.
    Tenant,
    /// An API key.
    ApiKey,
    /// A message.
    Message,
    /// A phone.
    Phone,
    /// A webhook endpoint.
    Webhook,
    /// A webhook delivery.
    Delivery,
    /// A template.
    Template,
    /// A contact.
    Contact,
    /// A campaign.
    Campaign,
    /// A detection question an agent answers.
    DetectionJob,
    /// A number's opt-out.
    OptOut,
    /// A media file.
    Media,
}

impl Missing {
    /// The thing's name in an error text ("No such {noun}.").
    pub fn noun(self) -> &'static str {
        match self {
            Missing::Tenant => "tenant",
            Missing::ApiKey => "API key",
            Missing::Message => "message",
            Missing::Phone => "phone",
            Missing::Webhook => "webhook",
            Missing::Delivery => "delivery",
            Missing::Template => "template",
            Missing::Contact => "contact",
            Missing::Campaign => "campaign",
            Missing::DetectionJob => "detection job",
            Missing::OptOut => "opt-out of that number",
            Missing::Media => "media",
        }
    }
}

impl From<actix::MailboxError> for EngineError {
    fn from(_: actix::MailboxError) -> Self {
        EngineError::Unavailable
    }
}

/// A failure that may be a full or failing disk (see `pigeon_storage::Writable`).
pub(crate) trait MaybeUnavailable: std::fmt::Display {
    fn is_unavailable(&self) -> bool;
}

impl MaybeUnavailable for StoreError {
    fn is_unavailable(&self) -> bool {
        StoreError::is_unavailable(self)
    }
}

impl MaybeUnavailable for EngineError {
    fn is_unavailable(&self) -> bool {
        matches!(self, EngineError::Store(e) if e.is_unavailable())
    }
}

//! Webhook endpoints and their deliveries (the outbox), each with every attempt made.

use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};
use ulid::Ulid;

/// A tenant's webhook endpoint.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WebhookRecord {
    /// Webhook id.
    pub id: Ulid,
    /// Owner.
    pub tenant_id: Ulid,
    /// Absolute http(s) URL.
    pub url: String,
    /// Subscribed events, e.g. `message.delivered`.
    pub events: Vec<String>,
    /// Signing secret. Kept in clear: signing needs it (unlike API keys, which are only compared).
    pub secret: String,
    /// The secret before the last rotation: attempts are signed with it too until
    /// `previous_until`, so receivers can switch without downtime.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub previous_secret: Option<String>,
    /// When the previous secret stops signing.
    #[serde(default, with = "crate::ts::option", skip_serializing_if = "Option::is_none")]
    pub previous_until: Option<DateTime<Utc>>,
    /// Creation time.
    #[serde(with = "crate::ts")]
    pub created_at: DateTime<Utc>,
    /// Off: no deliveries (its pending ones stopped when it was turned off).
    #[serde(default = "on")]
    pub enabled: bool,
}

fn on() -> bool {
    true
}

/// Where a delivery stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum DeliveryState {
    /// Attempts remain.
    Pending,
    /// A 2xx ended it.
    Succeeded,
    /// Four attempts failed.
    Failed,
}

/// One HTTP attempt of a delivery.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Attempt {
    /// When it started.
    #[serde(with = "crate::ts")]
    pub at: DateTime<Utc>,
    /// Which retry cycle (0, then one more per manual retry).
    pub cycle: u32,
    /// HTTP status, when one came back.
    pub status_code: Option<u16>,
    /// Why there was no status: `timeout`, `connect`, `refused_private_address`, ...
    pub error: Option<String>,
    /// Milliseconds to the answer or the error.
    pub duration_ms: u64,
    /// The first bytes of the answer.
    pub response_snippet: Option<String>,
}

/// One event to one webhook, with every attempt made.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct DeliveryRecord {
    /// Delivery id.
    pub id: Ulid,
    /// Owner.
    pub tenant_id: Ulid,
    /// Endpoint.
    pub webhook_id: Ulid,
    /// The event, shared by every webhook that gets it and stable across retries.
    pub event_id: Ulid,
    /// `message.delivered`, `message.failed` or `message.received`.
    pub event: String,
    /// The exact bytes sent (and signed).
    pub payload: String,
    /// Pending, succeeded or failed.
    pub state: DeliveryState,
    /// Current retry cycle.
    pub cycle: u32,
    /// Every attempt, oldest first.
    pub attempts: Vec<Attempt>,
    /// When the next attempt is due (pending only).
    #[serde(with = "crate::ts::option")]
    pub next_attempt_at: Option<DateTime<Utc>>,
    /// Creation time (the event's).
    #[serde(with = "crate::ts")]
    pub created_at: DateTime<Utc>,
}

/// An event in a tenant's log (`GET /v1/events`), keyed by its id (the payload's `event_id`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct EventRecord {
    /// Its name, e.g. `message.delivered`.
    pub event: String,
    /// The mode of the message it is about (a test key sees only test messages' events); `None`
    /// for events about no message (a phone's), which both modes see.
    pub test: Option<bool>,
    /// The JSON a webhook gets.
    pub payload: String,
}

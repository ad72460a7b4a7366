//! Events and their payloads: which state change makes which event, and the JSON a receiver gets.

use chrono::{DateTime, Utc};
use pigeon_storage::model::{Channel, MessageRecord};
use serde::Serialize;
use ulid::Ulid;

/// An event's payload: the spec's fields, then `event_id`, `test` and the message's `metadata`;
/// `message.failed` adds `failure_reason` and `code`, `message.received` adds `body`.
#[derive(Serialize)]
struct Payload<'a> {
    event: &'a str,
    event_id: String,
    message_id: String,
    from: Option<&'a str>,
    to: &'a str,
    channel: Channel,
    timestamp: String,
    test: bool,
    metadata: &'a std::collections::BTreeMap<String, String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    body: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    failure_reason: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<&'a str>,
}

/// The event a message's new state makes, if any.
pub fn event_of(m: &MessageRecord) -> Option<&'static str> {
    use pigeon_storage::model::MessageStatus::*;
    match m.status {
        Delivered => Some("message.delivered"),
        Failed => Some("message.failed"),
        Received => Some("message.received"),
        _ => None,
    }
}

pub(crate) fn payload(event: &str, event_id: Ulid, m: &MessageRecord, at: DateTime<Utc>) -> String {
    let p = Payload {
        event,
        event_id: event_id.to_string(),
        message_id: m.id.to_string(),
        from: m.from.as_deref(),
        to: &m.to,
        channel: m.channel_used.unwrap_or(m.channel),
        timestamp: pigeon_storage::ts::format(&at),
        test: m.test,
        metadata: &m.metadata,
        body: (event == "message.received").then_some(m.body.as_str()),
        failure_reason: (event == "message.failed").then(|| m.failure_reason.as_deref().unwrap_or("")),
        code: (event == "message.failed")
            .then(|| m.error_code.as_deref().unwrap_or(crate::failure::FailureCode::DeliveryFailed.as_str())),
    };
    serde_json::to_string(&p).expect("payloads serialize")
}

/// The event a tenant sends itself to check a receiver (`POST /v1/webhooks/{id}/test`).
pub const TEST_EVENT: &str = "webhook.test";

/// The payload of a test event: the event, its id, the endpoint, a timestamp, and `test: true`.
pub(crate) fn test_payload(event_id: Ulid, webhook_id: Ulid, at: DateTime<Utc>) -> String {
    serde_json::json!({
        "event": TEST_EVENT,
        "event_id": event_id.to_string(),
        "webhook_id": webhook_id.to_string(),
        "timestamp": pigeon_storage::ts::format(&at),
        "test": true,
    })
    .to_string()
}

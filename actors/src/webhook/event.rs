//! Events and their payloads: which state change makes which event, and the JSON a receiver gets.

use chrono::{DateTime, Utc};
use pigeon_storage::model::{Channel, MessageRecord, MessageStatus};
use serde::Serialize;
use ulid::Ulid;

/// An event's payload: the spec's fields, then `event_id`, `test`, the message's `metadata` and
/// `media`; `message.failed` adds `failure_reason` and `code`, `message.received` adds `body`.
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
    media: Vec<crate::media::Attachment>,
    #[serde(skip_serializing_if = "Option::is_none")]
    body: Option<Option<&'a str>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    failure_reason: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<&'a str>,
}

/// The events a message's move from `before` to its state makes, in the order of its life: a
/// message delivered straight from `sending` passes `sent`, one read straight from `sent` passes
/// `delivered`. `before` is `None` for a message that had not left its phone (`queued`,
/// `sending`) or is new.
pub fn events_of(before: Option<MessageStatus>, m: &MessageRecord) -> &'static [&'static str] {
    use MessageStatus::*;
    const SENT: &str = "message.sent";
    const DELIVERED: &str = "message.delivered";
    const READ: &str = "message.read";
    match (before, m.status) {
        (Some(b), s) if b == s => &[],
        (_, Sent) => &[SENT],
        (Some(Sent), Delivered) => &[DELIVERED],
        (_, Delivered) => &[SENT, DELIVERED],
        (Some(Delivered), Read) => &[READ],
        (Some(Sent), Read) => &[DELIVERED, READ],
        (_, Read) => &[SENT, DELIVERED, READ],
        (_, Failed) => &[FAILED],
        (_, Received) => &[RECEIVED],
        _ => &[],
    }
}

/// The failure event.
const FAILED: &str = "message.failed";
/// A text received.
const RECEIVED: &str = "message.received";

/// Every event a webhook may name: the spec's three, then `sent` and `read`, then the phones',
/// then the opt-outs'.
pub const EVENTS: [&str; 10] = [
    "message.delivered",
    FAILED,
    RECEIVED,
    "message.sent",
    "message.read",
    PHONE_OFFLINE,
    PHONE_ONLINE,
    PHONE_DISABLED,
    OPTED_OUT,
    OPTED_IN,
];

/// A number opted out of the tenant (its STOP, or the tenant through the API).
pub const OPTED_OUT: &str = "contact.opted_out";
/// It opted back in (its START, or the tenant removed an opt-out it had made).
pub const OPTED_IN: &str = "contact.opted_in";

/// An opt-out event's payload: `{event, event_id, phone, via, keyword, timestamp}`.
pub(crate) fn contact_payload(
    event: &str,
    event_id: Ulid,
    phone: &str,
    via: pigeon_storage::model::OptOutVia,
    keyword: Option<&str>,
    at: DateTime<Utc>,
) -> String {
    serde_json::json!({
        "event": event,
        "event_id": event_id.to_string(),
        "phone": phone,
        "via": via,
        "keyword": keyword,
        "timestamp": pigeon_storage::ts::format(&at),
    })
    .to_string()
}

/// An agent phone that was online stopped polling, or a sim phone was switched off.
pub const PHONE_OFFLINE: &str = "phone.offline";
/// It is back.
pub const PHONE_ONLINE: &str = "phone.online";
/// It took itself out of rotation after phone-scoped failures.
pub const PHONE_DISABLED: &str = "phone.disabled";

/// A phone event's payload: `{event, event_id, phone_id, number, timestamp, last_poll_at}`, and
/// `reason` for `phone.disabled`.
pub(crate) fn phone_payload(
    event: &str,
    event_id: Ulid,
    phone: &pigeon_storage::model::PhoneRecord,
    last_poll_at: Option<DateTime<Utc>>,
    at: DateTime<Utc>,
) -> String {
    let mut p = serde_json::json!({
        "event": event,
        "event_id": event_id.to_string(),
        "phone_id": phone.id.to_string(),
        "number": phone.number,
        "timestamp": pigeon_storage::ts::format(&at),
        "last_poll_at": last_poll_at.map(|t| pigeon_storage::ts::format(&t)),
    });
    if event == PHONE_DISABLED {
        p["reason"] = serde_json::json!(phone.disabled_reason);
    }
    p.to_string()
}

pub(crate) fn payload(
    event: &str,
    event_id: Ulid,
    m: &MessageRecord,
    links: &crate::media::Links,
    at: DateTime<Utc>,
) -> String {
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
        media: links.attachments(&m.media, at.timestamp()),
        // A media-only text has no body: `null`.
        body: (event == RECEIVED).then(|| m.text()),
        failure_reason: (event == FAILED).then(|| m.failure_reason.as_deref().unwrap_or("")),
        code: (event == FAILED)
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

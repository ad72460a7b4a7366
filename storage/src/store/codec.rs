//! How records are laid out on disk. Most records are JSON: small, rarely written, readable with
//! any tool. The two the send path writes for every message, the message and its webhook
//! delivery, are postcard (a compact binary serde format): ids as 16 bytes, times as
//! milliseconds, enums as their variant's index, no field names. That is about half their JSON
//! size, and sled writes every value byte several times over (splits, consolidation, cleaning).
//!
//! A binary record starts with its format's version byte; JSON always starts with `{`. So a
//! store written before keeps reading, and each JSON record turns binary when next written. A
//! later layout is the one before followed by what it adds, so every version reads alike.
//! Enum variants are stored by index: add new ones at the end, never reorder.

use std::borrow::Cow;

use chrono::{DateTime, Utc};
use serde::{de::DeserializeOwned, Deserialize, Serialize};
use ulid::Ulid;

use crate::model::{
    Attempt, Channel, DeliveryRecord, DeliveryState, Direction, Lease, MediaRef, MessageRecord, MessageStatus,
};
use crate::StoreError;

/// A record type and its layout on disk.
pub(crate) trait Codec: Sized {
    fn encode(&self) -> Vec<u8>;
    fn decode(tree: &'static str, bytes: &[u8]) -> Result<Self, StoreError>;
}

/// Records stored as JSON.
pub(crate) trait Json: Serialize + DeserializeOwned {}

impl Json for crate::model::TenantRecord {}
impl Json for crate::model::ApiKeyRecord {}
impl Json for crate::model::PhoneRecord {}
impl Json for crate::model::RecipientRecord {}
impl Json for crate::model::IdempotencyRecord {}
impl Json for crate::model::WebhookRecord {}
impl Json for crate::model::DetectionRecord {}
impl Json for crate::model::OptOutRecord {}
impl Json for crate::model::CampaignRecord {}
impl Json for crate::model::SessionRecord {}
impl Json for crate::model::MediaRecord {}
/// Templates and contacts.
impl<T: super::Unique> Json for T {}

impl<T: Json> Codec for T {
    fn encode(&self) -> Vec<u8> {
        serde_json::to_vec(self).expect("records always serialize")
    }

    fn decode(tree: &'static str, bytes: &[u8]) -> Result<Self, StoreError> {
        json(tree, bytes)
    }
}

fn json<T: DeserializeOwned>(tree: &'static str, bytes: &[u8]) -> Result<T, StoreError> {
    serde_json::from_slice(bytes).map_err(|e| StoreError::Decode { tree, source: Box::new(e) })
}

/// The first byte of a record in the first binary layout.
const V1: u8 = 1;

/// The first byte of a message in the second layout: the first, then [`MessageV2`].
const V2: u8 = 2;
/// The first byte of a message in the third layout: the second, then [`MessageV3`].
const V3: u8 = 3;
/// The first byte of a message in the fourth layout: the third, then [`MessageV4`].
const V4: u8 = 4;
/// The first byte of a message in the fifth layout: the fourth, then [`MessageV5`].
const V5: u8 = 5;

fn binary<T: Serialize>(wire: &T) -> Vec<u8> {
    versioned(V1, wire)
}

fn versioned<T: Serialize>(version: u8, wire: &T) -> Vec<u8> {
    postcard::to_extend(wire, vec![version]).expect("records always serialize")
}

/// The record in `bytes`: JSON (written before the binary layout) or binary.
fn read<'a, W: Deserialize<'a>, T: DeserializeOwned>(
    tree: &'static str,
    bytes: &'a [u8],
    from_wire: impl FnOnce(W) -> Option<T>,
) -> Result<T, StoreError> {
    match bytes.first() {
        Some(b'{') => json(tree, bytes),
        Some(&V1) => wire(tree, &bytes[1..], from_wire),
        _ => Err(StoreError::Decode { tree, source: "unknown record layout".into() }),
    }
}

fn wire<'a, W: Deserialize<'a>, T>(
    tree: &'static str,
    bytes: &'a [u8],
    from_wire: impl FnOnce(W) -> Option<T>,
) -> Result<T, StoreError> {
    let wire = postcard::from_bytes(bytes).map_err(|e| StoreError::Decode { tree, source: Box::new(e) })?;
    from_wire(wire).ok_or_else(|| StoreError::Decode { tree, source: "a time out of range".into() })
}

/// The default of a layout part an older record lacks.
fn d<T: Default>() -> T {
    T::default()
}

/// A message in any layout: JSON or one of the binary ones.
fn read_message<'a>(
    tree: &'static str,
    bytes: &'a [u8],
    from_wire: impl FnOnce(
        MessageV1<'a>,
        MessageV2<'a>,
        MessageV3,
        MessageV4,
        MessageV5<'a>,
    ) -> Option<MessageRecord>,
) -> Result<MessageRecord, StoreError> {
    match bytes.first() {
        Some(&V5) => wire(tree, &bytes[1..], |(v1, v2, v3, v4, v5)| from_wire(v1, v2, v3, v4, v5)),
        Some(&V4) => wire(tree, &bytes[1..], |(v1, v2, v3, v4)| from_wire(v1, v2, v3, v4, d())),
        Some(&V3) => wire(tree, &bytes[1..], |(v1, v2, v3)| from_wire(v1, v2, v3, d(), d())),
        Some(&V2) => wire(tree, &bytes[1..], |(v1, v2)| from_wire(v1, v2, d(), d(), d())),
        Some(&V1) => wire(tree, &bytes[1..], |v1| from_wire(v1, d(), d(), d(), d())),
        _ => read(tree, bytes, |v1| from_wire(v1, d(), d(), d(), d())),
    }
}

fn ms(t: &DateTime<Utc>) -> i64 {
    t.timestamp_millis()
}

fn time(ms: i64) -> Option<DateTime<Utc>> {
    DateTime::from_timestamp_millis(ms)
}

/// An optional time, where `None` stays `None` and a bad one fails the record.
fn opt_time(ms: Option<i64>) -> Option<Option<DateTime<Utc>>> {
    ms.map_or(Some(None), |ms| time(ms).map(Some))
}

/// A SHA-256 in hex as its 32 bytes (media records always hold one; anything else is zeros).
fn hex_32(s: &str) -> [u8; 32] {
    let mut out = [0; 32];
    let _ = hex::decode_to_slice(s, &mut out);
    out
}

fn id(bytes: [u8; 16]) -> Ulid {
    Ulid::from_bytes(bytes)
}

#[derive(Serialize, Deserialize)]
struct MessageV1<'a> {
    id: [u8; 16],
    tenant_id: [u8; 16],
    direction: Direction,
    status: MessageStatus,
    #[serde(borrow)]
    to: Cow<'a, str>,
    #[serde(borrow)]
    from: Option<Cow<'a, str>>,
    phone_id: Option<[u8; 16]>,
    channel: Channel,
    channel_used: Option<Channel>,
    #[serde(borrow)]
    body: Cow<'a, str>,
    #[serde(borrow)]
    template: Option<Cow<'a, str>>,
    campaign_id: Option<[u8; 16]>,
    test: bool,
    created_at: i64,
    scheduled_at: Option<i64>,
    sent_at: Option<i64>,
    delivered_at: Option<i64>,
    failed_at: Option<i64>,
    #[serde(borrow)]
    failure_reason: Option<Cow<'a, str>>,
    #[serde(borrow)]
    error_code: Option<Cow<'a, str>>,
    lease: Option<([u8; 16], i64)>,
    held: bool,
    #[serde(borrow)]
    notice: Option<Cow<'a, str>>,
    tally: Cow<'a, [(String, u64)]>,
}

/// What the second layout adds to a message (`from`, `metadata`, `valid_for`).
#[derive(Serialize, Deserialize, Default)]
struct MessageV2<'a> {
    pinned: bool,
    #[serde(borrow)]
    metadata: Vec<(Cow<'a, str>, Cow<'a, str>)>,
    expires_at: Option<i64>,
}

/// What the third layout adds (`read`, failover).
#[derive(Serialize, Deserialize, Default)]
struct MessageV3 {
    read_at: Option<i64>,
    failed_phones: Vec<[u8; 16]>,
}

/// What the fourth layout adds (replies).
#[derive(Serialize, Deserialize, Default)]
struct MessageV4 {
    reply_to: Option<[u8; 16]>,
}

/// What the fifth layout adds (attachments): id, type, size, SHA-256 and name of each.
#[derive(Serialize, Deserialize, Default)]
struct MessageV5<'a> {
    #[serde(borrow)]
    media: Vec<MediaWire<'a>>,
}

type MediaWire<'a> = ([u8; 16], Cow<'a, str>, u64, [u8; 32], Option<Cow<'a, str>>);

fn owned(s: Option<Cow<'_, str>>) -> Option<String> {
    s.map(Cow::into_owned)
}

impl Codec for MessageRecord {
    fn encode(&self) -> Vec<u8> {
        let v1 = MessageV1 {
            id: self.id.to_bytes(),
            tenant_id: self.tenant_id.to_bytes(),
            direction: self.direction,
            status: self.status,
            to: Cow::Borrowed(&self.to),
            from: self.from.as_deref().map(Cow::Borrowed),
            phone_id: self.phone_id.map(|p| p.to_bytes()),
            channel: self.channel,
            channel_used: self.channel_used,
            body: Cow::Borrowed(&self.body),
            template: self.template.as_deref().map(Cow::Borrowed),
            campaign_id: self.campaign_id.map(|c| c.to_bytes()),
            test: self.test,
            created_at: ms(&self.created_at),
            scheduled_at: self.scheduled_at.as_ref().map(ms),
            sent_at: self.sent_at.as_ref().map(ms),
            delivered_at: self.delivered_at.as_ref().map(ms),
            failed_at: self.failed_at.as_ref().map(ms),
            failure_reason: self.failure_reason.as_deref().map(Cow::Borrowed),
            error_code: self.error_code.as_deref().map(Cow::Borrowed),
            lease: self.lease.as_ref().map(|l| (l.job_id.to_bytes(), ms(&l.until))),
            held: self.held,
            notice: self.notice.as_deref().map(Cow::Borrowed),
            tally: Cow::Borrowed(&self.tally),
        };
        let v2 = MessageV2 {
            pinned: self.pinned,
            metadata: self.metadata.iter().map(|(k, v)| (Cow::Borrowed(&**k), Cow::Borrowed(&**v))).collect(),
            expires_at: self.expires_at.as_ref().map(ms),
        };
        let v3 = MessageV3 {
            read_at: self.read_at.as_ref().map(ms),
            failed_phones: self.failed_phones.iter().map(|p| p.to_bytes()).collect(),
        };
        let v4 = MessageV4 { reply_to: self.reply_to.map(|r| r.to_bytes()) };
        let v5 = MessageV5 {
            media: self
                .media
                .iter()
                .map(|a| {
                    let sha = hex_32(&a.sha256);
                    (
                        a.id.to_bytes(),
                        Cow::Borrowed(&*a.content_type),
                        a.size,
                        sha,
                        a.filename.as_deref().map(Cow::Borrowed),
                    )
                })
                .collect(),
        };
        versioned(V5, &(v1, v2, v3, v4, v5))
    }

    fn decode(tree: &'static str, bytes: &[u8]) -> Result<Self, StoreError> {
        read_message(tree, bytes, |w, v2, v3, v4, v5| {
            let lease = match w.lease {
                Some((job, until)) => Some(Lease { job_id: id(job), until: time(until)? }),
                None => None,
            };
            Some(MessageRecord {
                id: id(w.id),
                tenant_id: id(w.tenant_id),
                direction: w.direction,
                status: w.status,
                to: w.to.into_owned(),
                from: owned(w.from),
                phone_id: w.phone_id.map(id),
                channel: w.channel,
                channel_used: w.channel_used,
                body: w.body.into_owned(),
                template: owned(w.template),
                campaign_id: w.campaign_id.map(id),
                test: w.test,
                created_at: time(w.created_at)?,
                scheduled_at: opt_time(w.scheduled_at)?,
                sent_at: opt_time(w.sent_at)?,
                delivered_at: opt_time(w.delivered_at)?,
                read_at: opt_time(v3.read_at)?,
                failed_at: opt_time(w.failed_at)?,
                failure_reason: owned(w.failure_reason),
                error_code: owned(w.error_code),
                lease,
                held: w.held,
                notice: owned(w.notice),
                tally: w.tally.into_owned(),
                pinned: v2.pinned,
                metadata: v2.metadata.into_iter().map(|(k, v)| (k.into_owned(), v.into_owned())).collect(),
                expires_at: opt_time(v2.expires_at)?,
                failed_phones: v3.failed_phones.into_iter().map(id).collect(),
                reply_to: v4.reply_to.map(id),
                media: v5
                    .media
                    .into_iter()
                    .map(|(m, content_type, size, sha, filename)| MediaRef {
                        id: id(m),
                        content_type: content_type.into_owned(),
                        size,
                        sha256: hex::encode(sha),
                        filename: owned(filename),
                    })
                    .collect(),
            })
        })
    }
}

#[derive(Serialize, Deserialize)]
struct AttemptV1<'a> {
    at: i64,
    cycle: u32,
    status_code: Option<u16>,
    #[serde(borrow)]
    error: Option<Cow<'a, str>>,
    duration_ms: u64,
    #[serde(borrow)]
    response_snippet: Option<Cow<'a, str>>,
}

#[derive(Serialize, Deserialize)]
struct DeliveryV1<'a> {
    id: [u8; 16],
    tenant_id: [u8; 16],
    webhook_id: [u8; 16],
    event_id: [u8; 16],
    #[serde(borrow)]
    event: Cow<'a, str>,
    #[serde(borrow)]
    payload: Cow<'a, str>,
    state: DeliveryState,
    cycle: u32,
    #[serde(borrow)]
    attempts: Vec<AttemptV1<'a>>,
    next_attempt_at: Option<i64>,
    created_at: i64,
}

impl Codec for DeliveryRecord {
    fn encode(&self) -> Vec<u8> {
        binary(&DeliveryV1 {
            id: self.id.to_bytes(),
            tenant_id: self.tenant_id.to_bytes(),
            webhook_id: self.webhook_id.to_bytes(),
            event_id: self.event_id.to_bytes(),
            event: Cow::Borrowed(&self.event),
            payload: Cow::Borrowed(&self.payload),
            state: self.state,
            cycle: self.cycle,
            attempts: self
                .attempts
                .iter()
                .map(|a| AttemptV1 {
                    at: ms(&a.at),
                    cycle: a.cycle,
                    status_code: a.status_code,
                    error: a.error.as_deref().map(Cow::Borrowed),
                    duration_ms: a.duration_ms,
                    response_snippet: a.response_snippet.as_deref().map(Cow::Borrowed),
                })
                .collect(),
            next_attempt_at: self.next_attempt_at.as_ref().map(ms),
            created_at: ms(&self.created_at),
        })
    }

    fn decode(tree: &'static str, bytes: &[u8]) -> Result<Self, StoreError> {
        read(tree, bytes, |w: DeliveryV1| {
            let mut attempts = Vec::with_capacity(w.attempts.len());
            for a in w.attempts {
                attempts.push(Attempt {
                    at: time(a.at)?,
                    cycle: a.cycle,
                    status_code: a.status_code,
                    error: owned(a.error),
                    duration_ms: a.duration_ms,
                    response_snippet: owned(a.response_snippet),
                });
            }
            Some(DeliveryRecord {
                id: id(w.id),
                tenant_id: id(w.tenant_id),
                webhook_id: id(w.webhook_id),
                event_id: id(w.event_id),
                event: w.event.into_owned(),
                payload: w.payload.into_owned(),
                state: w.state,
                cycle: w.cycle,
                attempts,
                next_attempt_at: opt_time(w.next_attempt_at)?,
                created_at: time(w.created_at)?,
            })
        })
    }
}

/// An event of the log: written for every event the send path makes, so binary too.
impl Codec for crate::model::EventRecord {
    fn encode(&self) -> Vec<u8> {
        binary(self)
    }

    fn decode(tree: &'static str, bytes: &[u8]) -> Result<Self, StoreError> {
        read(tree, bytes, Some)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::new_id;

    fn now() -> DateTime<Utc> {
        crate::ts::truncate(Utc::now())
    }

    fn message() -> MessageRecord {
        MessageRecord {
            from: Some("+14155550999".into()),
            phone_id: Some(new_id()),
            channel_used: Some(Channel::Imessage),
            template: Some("welcome".into()),
            campaign_id: Some(new_id()),
            scheduled_at: Some(now()),
            sent_at: Some(now()),
            delivered_at: Some(now()),
            failure_reason: Some("no".into()),
            error_code: Some("DELIVERY_FAILED".into()),
            lease: Some(Lease { job_id: new_id(), until: now() }),
            held: true,
            notice: Some("QUIET_HOURS".into()),
            tally: vec![("calls:2026-11".into(), 7)],
            pinned: true,
            metadata: [("order_id".to_owned(), "A-1".to_owned())].into(),
            expires_at: Some(now()),
            read_at: Some(now()),
            failed_phones: vec![new_id(), new_id()],
            reply_to: Some(new_id()),
            media: vec![MediaRef {
                id: new_id(),
                content_type: "image/png".into(),
                size: 1234,
                sha256: "ab".repeat(32),
                filename: Some("cat.png".into()),
            }],
            ..MessageRecord::new(
                new_id(),
                new_id(),
                Direction::Outbound,
                MessageStatus::Delivered,
                "+14155550100".into(),
                "Hello, \"world\" ✓".into(),
                Channel::Auto,
                now(),
            )
        }
    }

    fn delivery() -> DeliveryRecord {
        DeliveryRecord {
            id: new_id(),
            tenant_id: new_id(),
            webhook_id: new_id(),
            event_id: new_id(),
            event: "message.delivered".into(),
            payload: r#"{"event":"message.delivered"}"#.into(),
            state: DeliveryState::Pending,
            cycle: 1,
            attempts: vec![Attempt {
                at: now(),
                cycle: 0,
                status_code: Some(500),
                error: None,
                duration_ms: 12,
                response_snippet: Some("oops".into()),
            }],
            next_attempt_at: Some(now()),
            created_at: now(),
        }
    }

    #[test]
    fn binary_records_read_back_whole_and_are_smaller_than_their_json() {
        let (m, d) = (message(), delivery());
        let (mb, db) = (m.encode(), d.encode());
        assert_eq!(MessageRecord::decode("m", &mb).unwrap(), m);
        assert_eq!(DeliveryRecord::decode("d", &db).unwrap(), d);
        let (mj, dj) = (serde_json::to_vec(&m).unwrap(), serde_json::to_vec(&d).unwrap());
        assert!(mb.len() * 2 < mj.len(), "message: {} binary, {} JSON", mb.len(), mj.len());
        assert!(db.len() * 3 < dj.len() * 2, "delivery: {} binary, {} JSON", db.len(), dj.len());
    }

    #[test]
    fn json_records_written_before_still_read() {
        let (m, d) = (message(), delivery());
        assert_eq!(MessageRecord::decode("m", &serde_json::to_vec(&m).unwrap()).unwrap(), m);
        assert_eq!(DeliveryRecord::decode("d", &serde_json::to_vec(&d).unwrap()).unwrap(), d);
    }

    /// A message in an earlier binary layout is the next one's without its tail (the fourth's:
    /// no media, one byte; the third's:
    /// `reply_to` none, one byte; the second's: `read_at` none and no failed phones, two more;
    /// the first's: `pinned` false, `metadata` and `expires_at` none, three more), and reads as a
    /// message that has none of them.
    #[test]
    fn messages_in_earlier_binary_layouts_still_read() {
        let v4 = MessageRecord { media: Vec::new(), ..message() };
        let mut bytes = v4.encode();
        assert_eq!(bytes[0], V5);
        bytes[0] = V4;
        bytes.truncate(bytes.len() - 1);
        assert_eq!(MessageRecord::decode("m", &bytes).unwrap(), v4);
        let v3 = MessageRecord { reply_to: None, ..v4 };
        let mut bytes = v3.encode();
        bytes[0] = V3;
        bytes.truncate(bytes.len() - 2);
        assert_eq!(MessageRecord::decode("m", &bytes).unwrap(), v3);
        let v2 = MessageRecord { read_at: None, failed_phones: Vec::new(), ..v3 };
        let mut bytes = v2.encode();
        bytes[0] = V2;
        bytes.truncate(bytes.len() - 4);
        assert_eq!(MessageRecord::decode("m", &bytes).unwrap(), v2);
        let v1 = MessageRecord { pinned: false, metadata: Default::default(), expires_at: None, ..v2 };
        let mut bytes = v1.encode();
        bytes[0] = V1;
        bytes.truncate(bytes.len() - 7);
        assert_eq!(MessageRecord::decode("m", &bytes).unwrap(), v1);
        assert_ne!(MessageRecord::decode("m", &message().encode()).unwrap(), v1, "the tail is read");
    }

    #[test]
    fn garbage_is_an_error_not_a_panic() {
        for bytes in [&b""[..], &[V1], &[V2], &[V3], &[V4], &[V5], &[V1, 0xff, 0xff], &[9, 1, 2]] {
            assert!(MessageRecord::decode("m", bytes).is_err());
            assert!(DeliveryRecord::decode("d", bytes).is_err());
        }
    }
}

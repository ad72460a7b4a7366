//! The wire types of the phone-agent API, `/phone/v1/`, and the envelopes every answer comes in.
//! The server serves them and `pigeon agent` speaks them; both take them from here, so the two
//! sides cannot drift, and the agent needs neither the engine nor the store. `tls` holds the
//! TLS settings all their HTTP clients share.

pub mod tls;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

/// The success envelope.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct DataBody<T> {
    /// The payload.
    pub data: T,
}

/// The error envelope.
#[derive(Debug, Serialize, Deserialize, ToSchema)]
pub struct ErrorBody {
    /// Plain English, safe to show.
    pub error: String,
    /// Stable code to match on.
    pub code: String,
}

/// What a job asks of the phone.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum JobKind {
    /// Send a text.
    Send,
    /// Tell whether a number has iMessage.
    Detect,
}

/// The channel a send asks for.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum JobChannel {
    /// iMessage when the number has it, else SMS.
    Auto,
    /// iMessage.
    Imessage,
    /// SMS.
    Sms,
}

/// A job as the agent gets it: `send` (`message_id`, `to`, `body`, `channel`, `media`) or
/// `detect` (`phone`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct JobView {
    /// Lease id (send: answer within 60 s or the job returns to the queue) or question id (detect).
    pub job_id: String,
    /// `send` or `detect`.
    pub kind: JobKind,
    /// Send: message to send.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub message_id: Option<String>,
    /// Send: recipient.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub to: Option<String>,
    /// Send: text; `null` for a media-only send.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub body: Option<String>,
    /// Send: `auto`, `imessage` or `sms`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel: Option<JobChannel>,
    /// Detect: the number to check for iMessage.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub phone: Option<String>,
    /// Send: the attachments to send after the text (`[]` for a text alone), each fetched with
    /// `GET /phone/v1/media/{media_id}` and checked against its `sha256`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub media: Option<Vec<JobMedia>>,
}

/// An attachment of a send job.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct JobMedia {
    /// Media id.
    pub media_id: String,
    /// Its type.
    pub content_type: String,
    /// Bytes.
    pub size: u64,
    /// SHA-256 of the bytes, lowercase hex.
    pub sha256: String,
    /// The name given at upload.
    pub filename: Option<String>,
}

/// What a phone reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ReportedStatus {
    /// Handed to the network.
    Sent,
    /// Reached the recipient.
    Delivered,
    /// Will not arrive.
    Failed,
    /// The recipient read it (a read receipt; from `sent` it implies delivery).
    Read,
}

/// Whose fault a failure is.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum FailureScope {
    /// This message cannot reach its recipient (a bad address, a refusal).
    #[default]
    Recipient,
    /// This phone cannot send now (signed out, Messages not running, no service, its server
    /// down): the message goes to another phone, and 5 in a row disable the phone.
    Phone,
}

/// What a phone used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum UsedChannel {
    /// iMessage.
    Imessage,
    /// SMS.
    Sms,
}

/// Body of a status report.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct StatusBody {
    /// `sent`, `delivered`, `read` or `failed`.
    pub status: ReportedStatus,
    /// Carrier-level detail, for `failed`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_reason: Option<String>,
    /// `imessage` or `sms`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub channel_used: Option<UsedChannel>,
    /// For `failed`: `recipient` (default) or `phone`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub failure_scope: Option<FailureScope>,
}

/// Body of an inbound text.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct InboundBody {
    /// Sender, E.164.
    #[schema(pattern = r"^\+[0-9]{10,15}$")]
    pub from: String,
    /// Text (STOP, START and their synonyms change the sender's opt-out); required unless
    /// `media` is given.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(max_length = 10000)]
    pub body: Option<String>,
    /// 1–10 files this phone uploaded with `POST /phone/v1/media`, in the order received.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[schema(min_items = 1, max_items = 10)]
    pub media: Option<Vec<String>>,
}

/// The media types a node takes, each with its usual file extensions (the first is the one a
/// downloaded file is named with): the node's allow-list, and how an agent tells a received
/// file's type by its name.
pub const MEDIA_TYPES: &[(&str, &[&str])] = &[
    ("image/jpeg", &["jpg", "jpeg"]),
    ("image/png", &["png"]),
    ("image/gif", &["gif"]),
    ("image/heic", &["heic"]),
    ("image/heif", &["heif"]),
    ("image/webp", &["webp"]),
    ("video/mp4", &["mp4"]),
    ("video/quicktime", &["mov", "qt"]),
    ("audio/mp4", &["m4a"]),
    ("audio/mpeg", &["mp3"]),
    ("audio/x-caf", &["caf"]),
    ("audio/aac", &["aac"]),
    ("application/pdf", &["pdf"]),
    ("text/vcard", &["vcf", "vcard"]),
    ("text/plain", &["txt"]),
];

/// The answer to a phone's upload (`POST /phone/v1/media`): the id to name in its inbound text.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct MediaUploaded {
    /// Media id.
    pub media_id: String,
}

/// Body of a detection answer.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct DetectionAnswer {
    /// Whether the number has iMessage.
    pub imessage: bool,
}

/// Answer of a detection report.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct DetectionAck {
    /// The job.
    pub job_id: String,
    /// The number it was about.
    pub phone: String,
    /// The answer recorded.
    pub imessage: bool,
}

/// The phone an agent token belongs to, as `GET /phone/v1/me` answers (the agent's `--check`).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct AgentPhone {
    /// Phone id.
    pub phone_id: String,
    /// Its number, E.164.
    pub number: String,
    /// Whether the node routes messages to it.
    pub enabled: bool,
    /// Messages per UTC day.
    pub daily_limit: u32,
    /// Messages assigned to it today (UTC).
    pub sent_today: u32,
}

/// Body of `POST /phone/v1/leases/release`: the messages the agent still holds. Every other lease
/// of its phone goes back to the queue at once (jobs answered to a poll the agent never read).
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct ReleaseBody {
    /// Message ids the agent is still sending or has yet to report.
    pub keep: Vec<String>,
}

/// Answer of a lease release.
#[derive(Debug, Clone, Serialize, Deserialize, ToSchema)]
pub struct Released {
    /// Leases that went back to the queue.
    pub released: u32,
}

/// The longest wait a job poll may ask for, in seconds.
pub const MAX_POLL_WAIT_S: u64 = 30;

/// How long a send job's lease lasts: unanswered, the job goes back to the queue.
pub const LEASE_S: u64 = 60;

/// How recently an agent must have polled for its phone to count as online.
pub const ONLINE_WINDOW_S: u64 = 30;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_send_job_reads_and_a_report_writes_as_the_api_says() {
        let job: JobView = serde_json::from_str(
            r#"{"job_id":"01J","kind":"send","message_id":"01M","to":"+15551234567","body":"hi","channel":"auto"}"#,
        )
        .unwrap();
        assert_eq!((job.kind, job.channel), (JobKind::Send, Some(JobChannel::Auto)));
        let detect: JobView =
            serde_json::from_str(r#"{"job_id":"01D","kind":"detect","phone":"+1555"}"#).unwrap();
        assert_eq!((detect.kind, detect.message_id), (JobKind::Detect, None));
        let report = StatusBody {
            status: ReportedStatus::Failed,
            failure_reason: Some("no".into()),
            channel_used: None,
            failure_scope: None,
        };
        assert_eq!(serde_json::to_string(&report).unwrap(), r#"{"status":"failed","failure_reason":"no"}"#);
    }
}

//! The `bluebubbles` connector, for an operator who already runs a BlueBubbles server on a Mac
//! (its private API gives reliable receipts and iMessage availability). It speaks the server's
//! HTTP API as `../shared/research/bluebubbles-api.md` records it: the password in the query, the
//! `{status, message, data, error}` envelope, `POST /api/v1/message/text` to send (synchronous: it
//! answers once Messages has sent or failed), `POST /api/v1/message/query` polled for receipts and
//! for texts received (so the agent needs no inbound port), and
//! `GET /api/v1/handle/availability/imessage` for detection.
//!
//! A row's `dateDelivered` means `delivered`, its `dateRead` (an iMessage read receipt) `read`.
//! The receipts it follows and the last inbound row it forwarded are kept in the journal, so a
//! restart neither forgets a `delivered` or a `read` nor forwards a text twice.

use std::cell::RefCell;
use std::collections::HashMap;
use std::rc::Rc;
use std::time::Duration;

use pigeon_protocol::{FailureScope, JobChannel, ReportedStatus, StatusBody, UsedChannel};
use serde_json::{json, Value};

use super::SendJob;
use crate::journal::Journal;
use crate::node::{Node, Outcome};

/// The journal key of the last inbound row forwarded.
const INBOUND: &str = "bluebubbles.inbound_rowid";
/// The journal keys of the receipts followed: `bluebubbles.watch.<guid>` → `<message id> <ms>
/// <service>[ delivered]`.
const WATCH: &str = "bluebubbles.watch.";
/// How long a sent text's receipt is followed; after that it stays `sent`.
const WATCH_FOR_MS: i64 = 24 * 3600 * 1000;
/// The journal keys of sends under way: `bluebubbles.sending.<message id>` → [`Sending`].
const SENDING: &str = "bluebubbles.sending.";
/// How far the Mac's clock may be from this one when a restart looks for a send's row.
const SKEW_MS: i64 = 5 * 60 * 1000;
/// A send waits for Messages (the server's own limit is 2 minutes).
const SEND_TIMEOUT: Duration = Duration::from_secs(150);

/// A BlueBubbles server: its address and password.
#[derive(Clone)]
pub struct Server {
    client: awc::Client,
    base: String,
    password: String,
}

/// A BlueBubbles server and what the agent follows on it.
#[derive(Clone)]
pub struct BlueBubbles {
    server: Server,
    poll: Duration,
    journal: Journal,
    /// Receipts followed, by the message's BlueBubbles guid.
    watched: Rc<RefCell<HashMap<String, Watch>>>,
}

impl std::fmt::Debug for BlueBubbles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("BlueBubbles").field("base", &self.server.base).finish_non_exhaustive()
    }
}

/// A sent text whose receipt is followed; once reported delivered, an iMessage is followed on
/// for its read receipt.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Watch {
    message_id: String,
    created_ms: i64,
    channel: UsedChannel,
    delivered: bool,
}

impl Watch {
    fn encode(&self) -> String {
        let service = if self.channel == UsedChannel::Imessage { "iMessage" } else { "SMS" };
        let state = if self.delivered { " delivered" } else { "" };
        format!("{} {} {service}{state}", self.message_id, self.created_ms)
    }

    fn decode(v: &str) -> Option<Self> {
        let mut it = v.split(' ');
        let message_id = it.next()?.to_owned();
        let created_ms = it.next()?.parse().ok()?;
        let channel = if it.next()? == "iMessage" { UsedChannel::Imessage } else { UsedChannel::Sms };
        let delivered = it.next() == Some("delivered");
        Some(Self { message_id, created_ms, channel, delivered })
    }
}

/// Whether a row says it was delivered.
fn delivered(row: &Value) -> bool {
    row["dateDelivered"].as_i64().is_some_and(|d| d > 0) || row["isDelivered"].as_bool() == Some(true)
}

/// Whether a row carries a read receipt.
fn read(row: &Value) -> bool {
    row["dateRead"].as_i64().is_some_and(|d| d > 0)
}

/// A send under way, kept in the journal until it settles.
#[derive(serde::Serialize, serde::Deserialize)]
struct Sending {
    to: String,
    body: String,
    since_ms: i64,
    imessage: bool,
}

/// What a call to the server came to, when it did not succeed.
#[derive(Debug)]
enum BbError {
    /// No connection (refused, no route, no such host): the request never reached the server.
    Unreachable(String),
    /// The connection broke or timed out after the request went: the server may have acted.
    Cut(String),
    /// An answer other than 200, with the envelope's words and whether its `data` is a message
    /// row (Messages recorded the send and its error).
    Status(u16, String, bool),
}

impl BbError {
    /// Whose fault a failed send is. The phone's: a server that cannot be reached or refuses the
    /// password, one that answers 5xx without a row (Messages not running, iMessage signed out,
    /// the private API off), or whose words say it is signed out. The recipient's: a row Messages
    /// failed (an address it cannot reach), a refused request, and a send cut short (it may have
    /// gone: another phone must not send it again).
    fn scope(&self) -> FailureScope {
        match self {
            BbError::Unreachable(_) => FailureScope::Phone,
            BbError::Cut(_) => FailureScope::Recipient,
            BbError::Status(_, words, _) if signed_out(words) => FailureScope::Phone,
            BbError::Status(401 | 403, _, _) => FailureScope::Phone,
            // Its 2-minute wait for the row ran out: the text may still go.
            BbError::Status(_, words, _) if words.contains("See attached message") => FailureScope::Recipient,
            BbError::Status(s, words, false) if *s >= 500 && !about_the_address(words) => FailureScope::Phone,
            BbError::Status(..) => FailureScope::Recipient,
        }
    }
}

/// Words that say Messages is not signed in to iMessage.
fn signed_out(words: &str) -> bool {
    let w = words.to_ascii_lowercase();
    w.contains("signed out") || w.contains("not signed in") || w.contains("sign in")
}

/// Words about the recipient's address (an unknown participant or chat, a bad address).
fn about_the_address(words: &str) -> bool {
    let w = words.to_ascii_lowercase();
    ["participant", "chat guid", "find chat", "address", "handle", "(-1728)"].iter().any(|k| w.contains(k))
}

impl std::fmt::Display for BbError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BbError::Unreachable(e) => write!(f, "cannot reach BlueBubbles: {e}"),
            BbError::Cut(e) => write!(f, "BlueBubbles did not answer: {e}"),
            BbError::Status(401, _, _) => write!(f, "BlueBubbles refused the password (--bb-password)"),
            BbError::Status(s, m, _) => write!(f, "BlueBubbles answered {s}: {m}"),
        }
    }
}

impl Server {
    /// The server at `url` (`http://mac.local:1234`) with `password`.
    pub fn new(url: &str, password: &str) -> Result<Self, String> {
        if !(url.starts_with("http://") || url.starts_with("https://")) {
            return Err(format!("--bb-url: {url:?} is not an http:// or https:// address"));
        }
        Ok(Self {
            client: awc::Client::builder()
                .connector(awc::Connector::new().rustls_0_23(pigeon_protocol::tls::client_config()))
                .timeout(SEND_TIMEOUT)
                .finish(),
            base: url.trim_end_matches('/').to_owned(),
            password: password.to_owned(),
        })
    }

    /// A call; the envelope's `data` on 200.
    async fn call(
        &self,
        method: &str,
        path: &str,
        query: &[(&str, &str)],
        body: Option<Value>,
    ) -> Result<Value, BbError> {
        let mut q: Vec<(&str, &str)> = vec![("password", &self.password)];
        q.extend_from_slice(query);
        let qs = serde_urlencoded::to_string(&q).map_err(|e| BbError::Status(0, e.to_string(), false))?;
        let url = format!("{}{path}?{qs}", self.base);
        let sent = match (method, body) {
            ("GET", _) => self.client.get(&url).send().await,
            (_, Some(b)) => self.client.post(&url).send_json(&b).await,
            (_, None) => self.client.post(&url).send().await,
        };
        // The error's words never carry the URL: it holds the password.
        let mut res = sent.map_err(|e| match e {
            awc::error::SendRequestError::Connect(c) => BbError::Unreachable(c.to_string()),
            e => BbError::Cut(e.to_string()),
        })?;
        let status = res.status().as_u16();
        let bytes = res.body().limit(32 << 20).await.map_err(|e| BbError::Cut(e.to_string()))?;
        let v: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
        if status == 200 {
            return Ok(v.get("data").cloned().unwrap_or(Value::Null));
        }
        let words = v["error"]["message"]
            .as_str()
            .or(v["message"].as_str())
            .map_or_else(|| String::from_utf8_lossy(&bytes).chars().take(200).collect(), str::to_owned);
        Err(BbError::Status(status, words, v["data"]["guid"].is_string()))
    }

    /// For `--check`: the password works, and what the server says of itself.
    pub async fn check(&self) -> Result<String, String> {
        self.call("GET", "/api/v1/ping", &[], None).await.map_err(|e| e.to_string())?;
        let info = self.call("GET", "/api/v1/server/info", &[], None).await.map_err(|e| e.to_string())?;
        Ok(format!(
            "BlueBubbles {} on macOS {}, private API {}",
            info["server_version"].as_str().unwrap_or("?"),
            info["os_version"].as_str().unwrap_or("?"),
            if info["private_api"].as_bool() == Some(true) {
                "on"
            } else {
                "off (no receipts of SMS, no detection)"
            }
        ))
    }

    /// Whether `phone` has iMessage; `None` when the server cannot tell (no private API).
    async fn available(&self, phone: &str) -> Option<bool> {
        let data = self
            .call("GET", "/api/v1/handle/availability/imessage", &[("address", phone)], None)
            .await
            .ok()?;
        data["available"].as_bool()
    }
}

impl BlueBubbles {
    /// Follows `server`, polled every `poll`, with what `journal` kept of earlier runs.
    pub fn new(server: Server, poll: Duration, journal: Journal) -> Self {
        let watched = journal
            .marks(WATCH)
            .into_iter()
            .filter_map(|(k, v)| Some((k[WATCH.len()..].to_owned(), Watch::decode(&v)?)))
            .collect();
        Self { server, poll, journal, watched: Rc::new(RefCell::new(watched)) }
    }

    /// Whether `phone` has iMessage (no, when the server cannot tell).
    pub async fn detect(&self, phone: &str) -> bool {
        self.server.available(phone).await.unwrap_or(false)
    }

    /// Sends one text; `sent` once Messages has sent it (its receipt is then followed).
    pub async fn send(&self, job: &SendJob) -> StatusBody {
        let channel = match job.channel {
            JobChannel::Imessage => UsedChannel::Imessage,
            JobChannel::Sms => UsedChannel::Sms,
            // Messages falls back to SMS itself where it is set to; unknown means iMessage.
            JobChannel::Auto => match self.server.available(&job.to).await {
                Some(false) => UsedChannel::Sms,
                _ => UsedChannel::Imessage,
            },
        };
        let service = if channel == UsedChannel::Imessage { "iMessage" } else { "SMS" };
        let body = json!({
            "chatGuid": format!("{service};-;{}", job.to),
            "tempGuid": format!("pigeon-{}", job.message_id),
            "message": job.body,
            "method": "apple-script",
        });
        let failed = |reason: String, scope: FailureScope| StatusBody {
            status: ReportedStatus::Failed,
            failure_reason: Some(reason.chars().take(500).collect()),
            channel_used: Some(channel),
            failure_scope: Some(scope),
        };
        // Kept until the send settles, so a restart can look for its row.
        let key = format!("{SENDING}{}", job.message_id);
        let sending = Sending {
            to: job.to.clone(),
            body: job.body.clone(),
            since_ms: now_ms(),
            imessage: channel == UsedChannel::Imessage,
        };
        let _ = self.journal.set_mark(&key, serde_json::to_string(&sending).ok()).await;
        let report = match self.server.call("POST", "/api/v1/message/text", &[], Some(body)).await {
            Ok(row) => self.judge(&job.message_id, &row, channel).await,
            Err(e) => {
                let scope = e.scope();
                match e {
                    // Messages' own words.
                    BbError::Status(500, words, _) => failed(words, scope),
                    e => failed(e.to_string(), scope),
                }
            }
        };
        let _ = self.journal.set_mark(&key, None).await;
        report
    }

    /// What a sent row means; a row only sent is followed for its receipt, an iMessage
    /// delivered for its read receipt.
    async fn judge(&self, message_id: &str, row: &Value, channel: UsedChannel) -> StatusBody {
        let code = row["error"].as_i64().unwrap_or(0);
        if code != 0 {
            return StatusBody {
                status: ReportedStatus::Failed,
                failure_reason: Some(format!("Messages could not send it (error {code})")),
                channel_used: Some(channel),
                failure_scope: None,
            };
        }
        let delivered = delivered(row);
        if let Some(guid) = row["guid"].as_str().filter(|_| !delivered || channel == UsedChannel::Imessage) {
            let created_ms = row["dateCreated"].as_i64().unwrap_or(0);
            self.follow_row(
                guid,
                Watch { message_id: message_id.to_owned(), created_ms, channel, delivered },
            )
            .await;
        }
        let status = if delivered { ReportedStatus::Delivered } else { ReportedStatus::Sent };
        StatusBody { status, failure_reason: None, channel_used: Some(channel), failure_scope: None }
    }

    /// Follows a row's receipts, in memory and in the journal (a restart follows it on).
    async fn follow_row(&self, guid: &str, w: Watch) {
        if let Err(e) = self.journal.set_mark(&format!("{WATCH}{guid}"), Some(w.encode())).await {
            tracing::warn!(error = %e, "cannot save a receipt to follow; it is followed until the agent stops");
        }
        self.watched.borrow_mut().insert(guid.to_owned(), w);
    }

    /// After a crash: the row of a send the agent stopped in the middle of, looked for once among
    /// the outgoing rows since it began (the server goes on with a send its caller left).
    pub async fn settle(&self, message_id: &str) -> Option<StatusBody> {
        let key = format!("{SENDING}{message_id}");
        let sending: Sending = serde_json::from_str(&self.journal.mark(&key)?).ok()?;
        let query = json!({
            "where": [{"statement": "message.is_from_me = :me", "args": {"me": 1}}],
            "after": (sending.since_ms - SKEW_MS).max(0),
            "sort": "ASC",
            "limit": 1000,
        });
        let rows = self.server.call("POST", "/api/v1/message/query", &[], Some(query)).await.ok()?;
        let row = rows.as_array()?.iter().find(|r| {
            r["handle"]["address"].as_str() == Some(sending.to.as_str())
                && r["text"].as_str() == Some(sending.body.trim())
        });
        let channel = if sending.imessage { UsedChannel::Imessage } else { UsedChannel::Sms };
        let report = match row {
            Some(row) => self.judge(message_id, row, channel).await,
            None => StatusBody {
                status: ReportedStatus::Failed,
                failure_reason: Some(
                    "the agent stopped before BlueBubbles recorded the text; it was not sent again".into(),
                ),
                channel_used: None,
                failure_scope: None,
            },
        };
        let _ = self.journal.set_mark(&key, None).await;
        Some(report)
    }

    /// Follows receipts and texts received, every `poll`, for as long as the agent runs.
    pub async fn follow(self, node: Node, outcomes: tokio::sync::mpsc::UnboundedSender<Outcome>) {
        super::every(self.poll, "BlueBubbles", async || {
            self.receipts(&outcomes).await?;
            self.inbound(&node).await
        })
        .await
    }

    /// Reads the outgoing rows since the oldest text followed; reports those delivered, read or
    /// failed.
    async fn receipts(&self, outcomes: &tokio::sync::mpsc::UnboundedSender<Outcome>) -> Result<(), BbError> {
        let oldest = self.watched.borrow().values().map(|w| w.created_ms).min();
        let Some(oldest) = oldest else { return Ok(()) };
        let query = json!({
            "where": [{"statement": "message.is_from_me = :me", "args": {"me": 1}}],
            "after": oldest.max(0),
            "sort": "ASC",
            "limit": 1000,
        });
        let rows = self.server.call("POST", "/api/v1/message/query", &[], Some(query)).await?;
        let now_ms = now_ms();
        let mut settled = Vec::new();
        for row in rows.as_array().map(Vec::as_slice).unwrap_or_default() {
            let Some(guid) = row["guid"].as_str() else { continue };
            let Some(w) = self.watched.borrow().get(guid).cloned() else { continue };
            let code = row["error"].as_i64().unwrap_or(0);
            let report = |status, failure_reason| StatusBody {
                status,
                failure_reason,
                channel_used: Some(w.channel),
                failure_scope: None,
            };
            if read(row) {
                // From `sent` too: a read implies delivery.
                let _ = outcomes.send(Outcome::new(w.message_id.clone(), report(ReportedStatus::Read, None)));
                settled.push(guid.to_owned());
            } else if code != 0 && !w.delivered {
                let why = format!("Messages could not deliver it (error {code})");
                let _ = outcomes
                    .send(Outcome::new(w.message_id.clone(), report(ReportedStatus::Failed, Some(why))));
                settled.push(guid.to_owned());
            } else if delivered(row) && !w.delivered {
                let _ = outcomes
                    .send(Outcome::new(w.message_id.clone(), report(ReportedStatus::Delivered, None)));
                if w.channel == UsedChannel::Imessage {
                    self.follow_row(guid, Watch { delivered: true, ..w }).await;
                } else {
                    settled.push(guid.to_owned());
                }
            }
        }
        // Followed long enough: it stays as it is.
        settled.extend(
            self.watched
                .borrow()
                .iter()
                .filter(|(_, w)| now_ms - w.created_ms > WATCH_FOR_MS)
                .map(|(g, _)| g.clone()),
        );
        for guid in settled {
            self.watched.borrow_mut().remove(&guid);
            let _ = self.journal.set_mark(&format!("{WATCH}{guid}"), None).await;
        }
        Ok(())
    }

    /// Forwards the texts received since the last one forwarded, oldest first.
    async fn inbound(&self, node: &Node) -> Result<(), BbError> {
        let last: i64 = match self.journal.mark(INBOUND).and_then(|v| v.parse().ok()) {
            Some(n) => n,
            None => {
                // First start: what came before the agent is not forwarded.
                let newest = self
                    .server
                    .call("POST", "/api/v1/message/query", &[], Some(json!({"sort": "DESC", "limit": 1})))
                    .await?;
                let n = newest[0]["originalROWID"].as_i64().unwrap_or(0);
                let _ = self.journal.set_mark(INBOUND, Some(n.to_string())).await;
                n
            }
        };
        let query = json!({
            "where": [
                {"statement": "message.ROWID > :rowid", "args": {"rowid": last}},
                {"statement": "message.is_from_me = :me", "args": {"me": 0}},
            ],
            "sort": "ASC",
            "limit": 100,
        });
        let rows = self.server.call("POST", "/api/v1/message/query", &[], Some(query)).await?;
        for row in rows.as_array().map(Vec::as_slice).unwrap_or_default() {
            let rowid = row["originalROWID"].as_i64().unwrap_or(last);
            let from = row["handle"]["address"].as_str().unwrap_or_default();
            let text = row["text"].as_str().unwrap_or_default();
            let id = match row["guid"].as_str() {
                Some(guid) => format!("bluebubbles:{guid}"),
                None => format!("bluebubbles:row:{rowid}"),
            };
            // Reactions and attachments alone are not texts.
            if !text.is_empty()
                && row["associatedMessageType"].is_null()
                && !super::forward(node, from, text, &id, rowid).await
            {
                return Ok(());
            }
            let _ = self.journal.set_mark(INBOUND, Some(rowid.to_string())).await;
        }
        Ok(())
    }
}

/// Milliseconds since the Unix epoch, as BlueBubbles writes its dates.
fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn failed_sends_are_the_phones_or_the_recipients() {
        let phone = [
            BbError::Unreachable("Connection refused".into()),
            BbError::Status(401, "Unauthorized".into(), false),
            BbError::Status(500, "iMessage Private API is not enabled!".into(), false),
            BbError::Status(500, "Messages is not signed in to iMessage".into(), false),
            BbError::Status(502, "Bad Gateway".into(), false),
        ];
        for e in phone {
            assert_eq!(e.scope(), FailureScope::Phone, "{e:?}");
        }
        let recipient = [
            BbError::Cut("timeout".into()),
            BbError::Status(500, "Failed to send message! See attached message error code.".into(), true),
            BbError::Status(500, "Failed to send message! See attached message error code.".into(), false),
            BbError::Status(500, "Can't get participant \"+1415\" (-1728)".into(), false),
            BbError::Status(400, "Message is already queued to be sent!".into(), false),
        ];
        for e in recipient {
            assert_eq!(e.scope(), FailureScope::Recipient, "{e:?}");
        }
    }

    #[test]
    fn a_followed_receipt_reads_back_as_it_was_saved() {
        let w = Watch {
            message_id: "01M".into(),
            created_ms: 1_764_000_000_000,
            channel: UsedChannel::Sms,
            delivered: false,
        };
        assert_eq!(Watch::decode(&w.encode()), Some(w.clone()));
        let delivered = Watch { delivered: true, channel: UsedChannel::Imessage, ..w };
        assert_eq!(Watch::decode(&delivered.encode()), Some(delivered));
        assert_eq!(Watch::decode("01M"), None);
    }
}

//! The `bluebubbles` connector, for an operator who already runs a BlueBubbles server on a Mac
//! (its private API gives reliable receipts and iMessage availability). It speaks the server's
//! HTTP API as `../shared/research/bluebubbles-api.md` records it: the password in the query, the
//! `{status, message, data, error}` envelope, `POST /api/v1/message/text` to send (synchronous: it
//! answers once Messages has sent or failed) and `POST /api/v1/message/attachment` (multipart)
//! for each file after it, `POST /api/v1/message/query` polled for receipts and for texts
//! received (so the agent needs no inbound port), `GET /api/v1/attachment/{guid}/download` for
//! their files, and `GET /api/v1/handle/availability/imessage` for detection.
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

mod server;

use server::BbError;
pub use server::Server;

use super::received::{now_ms, Inbox, Received, ReceivedFile};
use super::SendJob;
use crate::journal::Journal;
use crate::node::{Node, Outcome};

/// The journal key of the last inbound row forwarded.
const INBOUND: &str = "bluebubbles.inbound_rowid";
/// The journal keys of texts received whose files BlueBubbles has yet to download.
const HELD: &str = "bluebubbles.held.";
/// The journal keys of the receipts followed: `bluebubbles.watch.<guid>` → `<message id> <ms>
/// <service>[ delivered]`.
const WATCH: &str = "bluebubbles.watch.";
/// How long a sent text's receipt is followed; after that it stays `sent`.
const WATCH_FOR_MS: i64 = 24 * 3600 * 1000;
/// The journal keys of sends under way: `bluebubbles.sending.<message id>` → [`Sending`].
const SENDING: &str = "bluebubbles.sending.";
/// How far the Mac's clock may be from this one when a restart looks for a send's row.
const SKEW_MS: i64 = 5 * 60 * 1000;

/// A BlueBubbles server and what the agent follows on it.
#[derive(Clone)]
pub struct BlueBubbles {
    server: Server,
    poll: Duration,
    journal: Journal,
    inbox: Inbox,
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
    /// For a send of files alone: the first file's name, which its row's attachment carries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    file: Option<String>,
}

impl BlueBubbles {
    /// Follows `server`, polled every `poll`, with what `journal` kept of earlier runs.
    pub fn new(server: Server, poll: Duration, journal: Journal) -> Self {
        let watched = journal
            .marks(WATCH)
            .into_iter()
            .filter_map(|(k, v)| Some((k[WATCH.len()..].to_owned(), Watch::decode(&v)?)))
            .collect();
        let inbox = Inbox::new(journal.clone(), INBOUND, HELD);
        Self { server, poll, journal, inbox, watched: Rc::new(RefCell::new(watched)) }
    }

    /// Whether `phone` has iMessage (no, when the server cannot tell).
    pub async fn detect(&self, phone: &str) -> bool {
        self.server.available(phone).await.unwrap_or(false)
    }

    /// Sends one job, the text then each file, each its own send as BlueBubbles takes them;
    /// `sent` once Messages has sent them all (the first row's receipt is then followed).
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
        let chat_guid = format!("{service};-;{}", job.to);
        let failed = |reason: String, scope: FailureScope| StatusBody {
            status: ReportedStatus::Failed,
            failure_reason: Some(reason.chars().take(500).collect()),
            channel_used: Some(channel),
            failure_scope: Some(scope),
        };
        let names: Vec<String> = job
            .files
            .iter()
            .map(|f| f.file_name().map_or_else(String::new, |n| n.to_string_lossy().into_owned()))
            .collect();
        // Kept until the send settles, so a restart can look for its row.
        let key = format!("{SENDING}{}", job.message_id);
        let sending = Sending {
            to: job.to.clone(),
            body: job.body.clone(),
            since_ms: now_ms(),
            imessage: channel == UsedChannel::Imessage,
            file: names.first().filter(|_| job.body.is_empty()).cloned(),
        };
        let _ = self.journal.set_mark(&key, serde_json::to_string(&sending).ok()).await;
        let mut first: Option<Value> = None;
        let mut report = None;
        let parts =
            (!job.body.is_empty()).then_some(None).into_iter().chain(job.files.iter().zip(&names).map(Some));
        for (i, part) in parts.enumerate() {
            let sent = match part {
                None => {
                    let body = json!({
                        "chatGuid": chat_guid,
                        "tempGuid": format!("pigeon-{}", job.message_id),
                        "message": job.body,
                        "method": "apple-script",
                    });
                    self.server.call("POST", "/api/v1/message/text", &[], Some(body)).await
                }
                Some((path, name)) => {
                    let temp_guid = format!("pigeon-{}-{i}", job.message_id);
                    self.server.send_file(&chat_guid, &temp_guid, name, path).await
                }
            };
            let what = part.map_or_else(|| "the text".to_owned(), |(_, n)| n.clone());
            match sent {
                // Messages recorded it with an error: nothing after it goes.
                Ok(row) if row["error"].as_i64().unwrap_or(0) != 0 && first.is_some() => {
                    let code = row["error"].as_i64().unwrap_or(0);
                    report = Some(failed(
                        format!("Messages could not send {what} (error {code})"),
                        FailureScope::Recipient,
                    ));
                    break;
                }
                Ok(row) if first.is_none() => first = Some(row),
                Ok(_) => {}
                Err(e) => {
                    // What went before it went: another phone must not send it again.
                    let scope = if first.is_some() { FailureScope::Recipient } else { e.scope() };
                    let words = match e {
                        // Messages' own words.
                        BbError::Status(500, words, _) => words,
                        e => e.to_string(),
                    };
                    let words = if first.is_some() { format!("{what}: {words}") } else { words };
                    report = Some(failed(words, scope));
                    break;
                }
            }
            if first.as_ref().is_some_and(|r| r["error"].as_i64().unwrap_or(0) != 0) {
                break;
            }
        }
        let report = match (report, first) {
            (Some(r), _) => r,
            (None, Some(row)) => self.judge(&job.message_id, &row, channel).await,
            (None, None) => failed("the job has neither a text nor a file".into(), FailureScope::Recipient),
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
            "with": ["attachment"],
        });
        let rows = self.server.call("POST", "/api/v1/message/query", &[], Some(query)).await.ok()?;
        let row = rows.as_array()?.iter().find(|r| {
            let carries = |name: &str| {
                let files = r["attachments"].as_array().map(Vec::as_slice).unwrap_or_default();
                files.iter().any(|a| a["transferName"].as_str() == Some(name))
            };
            r["handle"]["address"].as_str() == Some(sending.to.as_str())
                && match &sending.file {
                    Some(name) => carries(name),
                    None => r["text"].as_str() == Some(sending.body.trim()),
                }
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

    /// Forwards the texts received since the last one forwarded, oldest first, with their files.
    async fn inbound(&self, node: &Node) -> Result<(), BbError> {
        let last = match self.inbox.cursor() {
            Some(n) => n,
            None => {
                // First start: what came before the agent is not forwarded.
                let newest = self
                    .server
                    .call("POST", "/api/v1/message/query", &[], Some(json!({"sort": "DESC", "limit": 1})))
                    .await?;
                let n = newest[0]["originalROWID"].as_i64().unwrap_or(0);
                self.inbox.advance(n).await;
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
            "with": ["attachment"],
        });
        let rows = self.server.call("POST", "/api/v1/message/query", &[], Some(query)).await?;
        let rows = rows.as_array().map(Vec::as_slice).unwrap_or_default();
        let rows = rows.iter().map(|row| {
            let rowid = row["originalROWID"].as_i64().unwrap_or(last);
            // A reaction is no text.
            let received = row["associatedMessageType"].is_null().then(|| Received {
                from: row["handle"]["address"].as_str().unwrap_or_default().to_owned(),
                text: row["text"].as_str().unwrap_or_default().to_owned(),
                id: match row["guid"].as_str() {
                    Some(guid) => format!("bluebubbles:{guid}"),
                    None => format!("bluebubbles:row:{rowid}"),
                },
                rowid,
                files: row["attachments"]
                    .as_array()
                    .map(Vec::as_slice)
                    .unwrap_or_default()
                    .iter()
                    .filter_map(|a| {
                        let guid = a["guid"].as_str()?;
                        let name = a["transferName"].as_str().filter(|n| !n.is_empty()).unwrap_or(guid);
                        Some(ReceivedFile { source: guid.to_owned(), name: name.to_owned(), size: 0 })
                    })
                    .collect(),
                seen_ms: now_ms(),
            });
            (rowid, received)
        });
        let server = &self.server;
        self.inbox
            .deliver(node, rows.collect(), async |f: &ReceivedFile| {
                server.download(&f.source).await.map_err(|e| e.to_string())
            })
            .await;
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

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

//! The `messages` connector: Messages.app on the Mac the agent runs on (iMessage, and SMS through
//! an iPhone's Text Message Forwarding). It sends by running one AppleScript program with
//! `osascript`, whose `on run argv` takes the recipient, the text and the service, then the
//! paths of the files to send after it (`send POSIX file`): the text is an argument, never part
//! of the program, so no text can inject AppleScript. It learns what became
//! of a text, and what arrived, by reading `~/Library/Messages/chat.db` read-only.
//!
//! chat.db (macOS 14 schema): `message` (`ROWID`, `text`, `attributedBody`, `handle_id`,
//! `is_from_me`, `error`, `is_delivered`, `date_delivered`, `associated_message_type`, …) and
//! `handle` (`ROWID`, `id` the address, `service` `iMessage` or `SMS`). A send's outgoing row is
//! the first one to its handle with its text after the send began (for files alone: the first
//! whose `attachment`, through `message_attachment_join`, bears the first file's name): `sent`;
//! `is_delivered`/`date_delivered` mean `delivered`; `is_read`/`date_read` (an iMessage read
//! receipt) mean `read`; a non-zero `error`, `failed`. Texts received are rows with
//! `is_from_me = 0` after the last one forwarded, their files the `attachment`s joined to them.

use std::cell::RefCell;
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::rc::Rc;
use std::time::{Duration, Instant};

use pigeon_protocol::{FailureScope, JobChannel, ReportedStatus, StatusBody, UsedChannel};
use rusqlite::{Connection, OpenFlags, OptionalExtension};
use serde::{Deserialize, Serialize};

use super::command::RunError;
mod inbound;

use super::received::Inbox;
use super::{typedstream, SendJob};
use crate::journal::Journal;
use crate::node::{Node, Outcome};

/// The AppleScript program, written beside the journal and run with the three arguments.
pub const SEND_SCRIPT: &str = r#"-- pigeon agent: send one text with Messages. Arguments: recipient, text (may be empty),
-- service, then the files to send after the text.
on run argv
	set recipient to item 1 of argv
	set theText to item 2 of argv
	set serviceName to item 3 of argv
	tell application "Messages"
		if serviceName is "SMS" then
			set theAccount to 1st account whose service type = SMS
		else
			set theAccount to 1st account whose service type = iMessage
		end if
		set theParticipant to participant recipient of theAccount
		if theText is not "" then send theText to theParticipant
		repeat with i from 4 to count of argv
			send (POSIX file (item i of argv)) to theParticipant
		end repeat
	end tell
end run
"#;

const INBOUND: &str = "messages.inbound_rowid";
/// Texts received whose files Messages has yet to download.
const HELD: &str = "messages.held.";
const WATCH: &str = "messages.watch.";
const SENDING: &str = "messages.sending.";
/// How long a sent text's receipt is followed, in polls' worth of time.
const WATCH_FOR: Duration = Duration::from_secs(24 * 3600);

/// What the connector needs.
#[derive(Clone)]
pub struct Messages {
    osascript: PathBuf,
    script: PathBuf,
    chat_db: PathBuf,
    poll: Duration,
    send_timeout: Duration,
    journal: Journal,
    inbox: Inbox,
    /// Receipts followed, by outgoing row.
    watched: Rc<RefCell<HashMap<i64, Followed>>>,
}

impl std::fmt::Debug for Messages {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Messages").field("chat_db", &self.chat_db).finish_non_exhaustive()
    }
}

/// Runs `f` on a read-only connection to the database at `path` (WAL and a busy writer tolerated),
/// off the event loop.
async fn read<T: Send + 'static>(
    path: &Path,
    f: impl FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
) -> Result<T, String> {
    let owned = path.to_owned();
    let run = move || {
        let c = Connection::open_with_flags(
            &owned,
            OpenFlags::SQLITE_OPEN_READ_ONLY | OpenFlags::SQLITE_OPEN_NO_MUTEX,
        )?;
        c.busy_timeout(Duration::from_secs(2))?;
        f(&c)
    };
    tokio::task::spawn_blocking(run)
        .await
        .map_err(|e| e.to_string())?
        .map_err(|e| format!("cannot read {}: {e}", path.display()))
}

/// For `--check`: chat.db readable (Full Disk Access), and `osascript` allowed to drive Messages.
/// Each check: passed, what, and what to do when it did not.
pub async fn check(osascript: &Path, chat_db: &Path) -> Vec<(bool, String, &'static str)> {
    let mut out = Vec::new();
    match read(chat_db, |c| c.query_row("SELECT COUNT(*) FROM message", [], |r| r.get::<_, i64>(0))).await {
        Ok(n) => out.push((true, format!("{} is readable ({n} messages)", chat_db.display()), "")),
        Err(e) => out.push((
            false,
            e,
            "give the program that runs the agent Full Disk Access (System Settings → Privacy & Security → Full Disk Access), or set --chat-db",
        )),
    }
    let argv =
        [osascript.display().to_string(), "-e".into(), "tell application \"Messages\" to get name".into()];
    match super::command::run(&argv, Duration::from_secs(30)).await {
        Ok((0, _)) => out.push((true, format!("{} may control Messages", osascript.display()), "")),
        Ok((_, why)) => out.push((
            false,
            format!("osascript may not control Messages: {why}"),
            "allow it under System Settings → Privacy & Security → Automation, then run --check again",
        )),
        Err(e) => {
            out.push((false, e.to_string(), "set --osascript to the osascript program (/usr/bin/osascript)"))
        }
    }
    out
}

/// A followed receipt: the message, its channel, since when, and whether it was reported
/// delivered (an iMessage is followed on for its read receipt).
#[derive(Clone)]
struct Followed {
    id: String,
    channel: UsedChannel,
    since: Instant,
    delivered: bool,
}

/// A send under way, kept in the journal until it settles, so a restart can look for its row.
#[derive(Serialize, Deserialize)]
struct Sending {
    to: String,
    after: i64,
    body: String,
    imessage: bool,
    /// For a send of files alone: the first file's name, which its row's attachment carries.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    file: Option<String>,
}

/// What chat.db says of an outgoing row.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct RowState {
    rowid: i64,
    error: i64,
    delivered: bool,
    read: bool,
}

impl Messages {
    /// `osascript` and `chat_db` as given; the program is written into `state_dir`.
    pub fn new(
        osascript: PathBuf,
        chat_db: PathBuf,
        state_dir: &Path,
        poll: Duration,
        send_timeout: Duration,
        journal: Journal,
    ) -> Result<Self, String> {
        let script = state_dir.join("send.applescript");
        std::fs::write(&script, SEND_SCRIPT)
            .map_err(|e| format!("cannot write {}: {e}", script.display()))?;
        let watched = journal
            .marks(WATCH)
            .into_iter()
            .filter_map(|(k, v)| {
                let rowid = k[WATCH.len()..].parse().ok()?;
                let mut words = v.split(' ');
                let (id, service) = (words.next()?, words.next()?);
                let channel = if service == "iMessage" { UsedChannel::Imessage } else { UsedChannel::Sms };
                let delivered = words.next() == Some("delivered");
                Some((rowid, Followed { id: id.to_owned(), channel, since: Instant::now(), delivered }))
            })
            .collect();
        Ok(Self {
            osascript,
            script,
            chat_db,
            poll,
            send_timeout,
            inbox: Inbox::new(journal.clone(), INBOUND, HELD),
            journal,
            watched: Rc::new(RefCell::new(watched)),
        })
    }

    /// Runs `f` on a read-only connection to chat.db, off the event loop.
    async fn db<T: Send + 'static>(
        &self,
        f: impl FnOnce(&Connection) -> rusqlite::Result<T> + Send + 'static,
    ) -> Result<T, String> {
        read(&self.chat_db, f).await
    }

    /// Whether `phone` has iMessage, as far as chat.db knows.
    pub async fn detect(&self, phone: &str) -> bool {
        let phone = phone.to_owned();
        let found = self
            .db(move |c| {
                c.query_row(
                    "SELECT 1 FROM handle WHERE id = ?1 AND service = 'iMessage' LIMIT 1",
                    [&phone],
                    |_| Ok(()),
                )
                .optional()
            })
            .await;
        matches!(found, Ok(Some(())))
    }

    /// Sends one text with osascript, then waits for its row in chat.db.
    pub async fn send(&self, job: &SendJob) -> StatusBody {
        let channel = match job.channel {
            JobChannel::Imessage => UsedChannel::Imessage,
            JobChannel::Sms => UsedChannel::Sms,
            JobChannel::Auto if self.detect(&job.to).await => UsedChannel::Imessage,
            // Unknown to this Mac: iMessage, which Messages turns into SMS where it is set to.
            JobChannel::Auto => UsedChannel::Imessage,
        };
        let failed = |reason: String, scope: FailureScope| StatusBody {
            status: ReportedStatus::Failed,
            failure_reason: Some(reason.chars().take(500).collect()),
            channel_used: Some(channel),
            failure_scope: Some(scope),
        };
        let after = match self
            .db(|c| c.query_row("SELECT IFNULL(MAX(ROWID), 0) FROM message", [], |r| r.get(0)))
            .await
        {
            Ok(n) => n,
            // Nothing ran: without chat.db this Mac can tell nothing of any send.
            Err(e) => return failed(e, FailureScope::Phone),
        };
        let key = format!("{SENDING}{}", job.message_id);
        let sending = Sending {
            to: job.to.clone(),
            after,
            body: job.body.clone(),
            imessage: channel == UsedChannel::Imessage,
            file: job
                .files
                .first()
                .filter(|_| job.body.is_empty())
                .and_then(|f| f.file_name())
                .map(|n| n.to_string_lossy().into_owned()),
        };
        let _ = self.journal.set_mark(&key, serde_json::to_string(&sending).ok()).await;
        let service = if channel == UsedChannel::Imessage { "iMessage" } else { "SMS" };
        let argv: Vec<String> = [
            self.osascript.display().to_string(),
            self.script.display().to_string(),
            job.to.clone(),
            job.body.clone(),
            service.to_owned(),
        ]
        .into_iter()
        .chain(job.files.iter().map(|f| f.display().to_string()))
        .collect();
        let report = match super::command::run(&argv, self.send_timeout * 2).await {
            Ok((0, _)) => self.await_row(&job.message_id, &sending, channel).await,
            Ok((code, why)) if why.is_empty() => {
                failed(format!("osascript exited with status {code}"), FailureScope::Recipient)
            }
            Ok((_, why)) => {
                let scope = applescript_scope(&why);
                failed(why, scope)
            }
            Err(e @ RunError::NotRun(_)) => failed(e.to_string(), FailureScope::Phone),
            Err(e @ RunError::Cut(_)) => failed(e.to_string(), FailureScope::Recipient),
        };
        let _ = self.journal.set_mark(&key, None).await;
        report
    }

    /// Waits up to `--send-timeout` for the send's row.
    async fn await_row(&self, message_id: &str, sending: &Sending, channel: UsedChannel) -> StatusBody {
        let until = Instant::now() + self.send_timeout;
        loop {
            match self.find(sending).await {
                Ok(Some(row)) => return self.judge(message_id, row, channel).await,
                Ok(None) if Instant::now() < until => {
                    actix_rt::time::sleep(self.poll.min(Duration::from_millis(250))).await
                }
                Ok(None) => {
                    return StatusBody {
                        status: ReportedStatus::Failed,
                        failure_reason: Some(format!(
                            "Messages recorded no such text within {}",
                            humantime::format_duration(self.send_timeout)
                        )),
                        channel_used: Some(channel),
                        failure_scope: None,
                    }
                }
                Err(e) => {
                    return StatusBody {
                        status: ReportedStatus::Failed,
                        failure_reason: Some(e),
                        channel_used: Some(channel),
                        failure_scope: None,
                    }
                }
            }
        }
    }

    /// What a found row means; a row only sent is followed for its receipt, an iMessage
    /// delivered for its read receipt.
    async fn judge(&self, message_id: &str, row: RowState, channel: UsedChannel) -> StatusBody {
        if row.error != 0 {
            return StatusBody {
                status: ReportedStatus::Failed,
                failure_reason: Some(format!("Messages could not send it (error {})", row.error)),
                channel_used: Some(channel),
                failure_scope: None,
            };
        }
        let status = if row.delivered { ReportedStatus::Delivered } else { ReportedStatus::Sent };
        if !row.delivered || channel == UsedChannel::Imessage {
            let followed = Followed {
                id: message_id.to_owned(),
                channel,
                since: Instant::now(),
                delivered: row.delivered,
            };
            self.follow_row(row.rowid, followed).await;
        }
        StatusBody { status, failure_reason: None, channel_used: Some(channel), failure_scope: None }
    }

    /// Follows a row's receipts, in memory and in the journal (a restart follows it on).
    async fn follow_row(&self, rowid: i64, f: Followed) {
        let service = if f.channel == UsedChannel::Imessage { "iMessage" } else { "SMS" };
        let state = if f.delivered { " delivered" } else { "" };
        let value = format!("{} {service}{state}", f.id);
        let _ = self.journal.set_mark(&format!("{WATCH}{rowid}"), Some(value)).await;
        self.watched.borrow_mut().insert(rowid, f);
    }

    /// The first outgoing row to `sending.to` with its text after `sending.after`.
    async fn find(&self, sending: &Sending) -> Result<Option<RowState>, String> {
        let (to, after, body) = (sending.to.clone(), sending.after, sending.body.clone());
        if let Some(file) = sending.file.clone() {
            return self.db(move |c| file_row(c, after, &to, &file)).await;
        }
        self.db(move |c| {
            let mut q = c.prepare(
                "SELECT m.ROWID, m.text, m.attributedBody, m.error, m.is_delivered, m.date_delivered,
                        m.is_read, m.date_read
                 FROM message m JOIN handle h ON m.handle_id = h.ROWID
                 WHERE m.ROWID > ?1 AND m.is_from_me = 1 AND h.id = ?2 ORDER BY m.ROWID",
            )?;
            let mut rows = q.query(rusqlite::params![after, to])?;
            while let Some(r) = rows.next()? {
                let text = r
                    .get::<_, Option<String>>(1)?
                    .or_else(|| typedstream::text(&r.get::<_, Option<Vec<u8>>>(2).ok()??));
                if text.as_deref() == Some(body.as_str()) {
                    return Ok(Some(RowState {
                        rowid: r.get(0)?,
                        error: r.get::<_, Option<i64>>(3)?.unwrap_or(0),
                        delivered: flag(r.get(4)?, r.get(5)?),
                        read: flag(r.get(6)?, r.get(7)?),
                    }));
                }
            }
            Ok(None)
        })
        .await
    }

    /// After a crash: the row of a send the agent stopped in the middle of, if Messages made one.
    pub async fn settle(&self, message_id: &str) -> Option<StatusBody> {
        let key = format!("{SENDING}{message_id}");
        let sending: Sending = serde_json::from_str(&self.journal.mark(&key)?).ok()?;
        let found = self.find(&sending).await.ok()?;
        let _ = self.journal.set_mark(&key, None).await;
        let channel = if sending.imessage { UsedChannel::Imessage } else { UsedChannel::Sms };
        Some(match found {
            Some(row) => self.judge(message_id, row, channel).await,
            None => StatusBody {
                status: ReportedStatus::Failed,
                failure_reason: Some(
                    "the agent stopped before Messages recorded the text; it was not sent again".into(),
                ),
                channel_used: None,
                failure_scope: None,
            },
        })
    }

    /// Follows receipts and texts received, every `poll`, for as long as the agent runs.
    pub async fn follow(self, node: Node, outcomes: tokio::sync::mpsc::UnboundedSender<Outcome>) {
        super::every(self.poll, "chat.db", async || {
            self.receipts(&outcomes).await?;
            self.inbound(&node).await
        })
        .await
    }

    async fn receipts(&self, outcomes: &tokio::sync::mpsc::UnboundedSender<Outcome>) -> Result<(), String> {
        let rowids: Vec<i64> = self.watched.borrow().keys().copied().collect();
        if rowids.is_empty() {
            return Ok(());
        }
        let states = self
            .db(move |c| {
                let mut q = c.prepare(
                    "SELECT error, is_delivered, date_delivered, is_read, date_read FROM message WHERE ROWID = ?1",
                )?;
                let mut out = Vec::new();
                for rowid in rowids {
                    let row = q
                        .query_row([rowid], |r| {
                            Ok(RowState {
                                rowid,
                                error: r.get::<_, Option<i64>>(0)?.unwrap_or(0),
                                delivered: flag(r.get(1)?, r.get(2)?),
                                read: flag(r.get(3)?, r.get(4)?),
                            })
                        })
                        .optional()?;
                    out.extend(row);
                }
                Ok(out)
            })
            .await?;
        let mut settled = Vec::new();
        for s in states {
            let Some(f) = self.watched.borrow().get(&s.rowid).cloned() else { continue };
            let report = |status, failure_reason| StatusBody {
                status,
                failure_reason,
                channel_used: Some(f.channel),
                failure_scope: None,
            };
            if s.read {
                // From `sent` too: a read implies delivery.
                let _ = outcomes.send(Outcome::new(f.id.clone(), report(ReportedStatus::Read, None)));
                settled.push(s.rowid);
            } else if s.error != 0 && !f.delivered {
                let why = format!("Messages could not deliver it (error {})", s.error);
                let _ = outcomes.send(Outcome::new(f.id.clone(), report(ReportedStatus::Failed, Some(why))));
                settled.push(s.rowid);
            } else if s.delivered && !f.delivered {
                let _ = outcomes.send(Outcome::new(f.id.clone(), report(ReportedStatus::Delivered, None)));
                if f.channel == UsedChannel::Imessage {
                    self.follow_row(s.rowid, Followed { delivered: true, ..f }).await;
                } else {
                    settled.push(s.rowid);
                }
            }
        }
        settled.extend(
            self.watched.borrow().iter().filter(|(_, f)| f.since.elapsed() > WATCH_FOR).map(|(r, _)| *r),
        );
        for rowid in settled {
            self.watched.borrow_mut().remove(&rowid);
            let _ = self.journal.set_mark(&format!("{WATCH}{rowid}"), None).await;
        }
        Ok(())
    }
}

/// Whose fault an AppleScript error is: Messages not running (-600), no iMessage or SMS account
/// signed in (no such account: -1719, or its words) are the phone's; anything else, an unknown
/// participant (-1728) above all, the recipient's.
fn applescript_scope(words: &str) -> FailureScope {
    if words.contains("participant") || words.contains("(-1728)") {
        return FailureScope::Recipient;
    }
    let phone = ["(-600)", "(-1719)", "isn’t running", "isn't running", "not signed in", "signed out"];
    let account = words.contains("Can’t get account");
    if account || phone.iter().any(|w| words.contains(w)) {
        FailureScope::Phone
    } else {
        FailureScope::Recipient
    }
}

/// A chat.db state kept as a flag and a date: set when either is.
fn flag(is: Option<i64>, date: Option<i64>) -> bool {
    is.unwrap_or(0) != 0 || date.unwrap_or(0) > 0
}

/// The outgoing row of a send of files alone: the first after `after` to `to` whose attachment
/// (`attachment` through `message_attachment_join`) is named `file`.
fn file_row(c: &Connection, after: i64, to: &str, file: &str) -> rusqlite::Result<Option<RowState>> {
    c.query_row(
        "SELECT m.ROWID, m.error, m.is_delivered, m.date_delivered, m.is_read, m.date_read
         FROM message m JOIN handle h ON m.handle_id = h.ROWID
           JOIN message_attachment_join j ON j.message_id = m.ROWID
           JOIN attachment a ON a.ROWID = j.attachment_id
         WHERE m.ROWID > ?1 AND m.is_from_me = 1 AND h.id = ?2 AND a.transfer_name = ?3
         ORDER BY m.ROWID LIMIT 1",
        rusqlite::params![after, to, file],
        |r| {
            Ok(RowState {
                rowid: r.get(0)?,
                error: r.get::<_, Option<i64>>(1)?.unwrap_or(0),
                delivered: flag(r.get(2)?, r.get(3)?),
                read: flag(r.get(4)?, r.get(5)?),
            })
        },
    )
    .optional()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn applescript_errors_are_the_phones_or_the_recipients() {
        let phone = [
            "send.applescript:95:120: execution error: Messages got an error: Application isn’t running. (-600)",
            "execution error: Can’t get account 1 whose service type = iMessage. Invalid index. (-1719)",
        ];
        for w in phone {
            assert_eq!(applescript_scope(w), FailureScope::Phone, "{w}");
        }
        let to = "execution error: Messages got an error: Can’t get participant \"+1415\" of account id \"E:me\". (-1728)";
        assert_eq!(applescript_scope(to), FailureScope::Recipient);
        assert_eq!(applescript_scope("something else"), FailureScope::Recipient);
    }

    #[test]
    fn the_program_takes_everything_from_its_arguments() {
        assert!(SEND_SCRIPT.contains("on run argv"));
        for arg in ["item 1 of argv", "item 2 of argv", "item 3 of argv", "POSIX file (item i of argv)"] {
            assert!(SEND_SCRIPT.contains(arg), "{arg}");
        }
        assert!(!SEND_SCRIPT.contains("do shell script"));
    }
}

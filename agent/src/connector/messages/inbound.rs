//! Texts the Mac received, read from chat.db with their files (`attachment` through
//! `message_attachment_join`).

use std::path::{Path, PathBuf};

use super::Messages;
use crate::connector::received::{now_ms, Fetched, Received, ReceivedFile, LARGEST};
use crate::connector::typedstream;
use crate::node::Node;

impl Messages {
    /// Forwards the texts received since the last one forwarded, oldest first, with their
    /// files (`attachment` through `message_attachment_join`).
    pub(super) async fn inbound(&self, node: &Node) -> Result<(), String> {
        let last = match self.inbox.cursor() {
            Some(n) => n,
            None => {
                // First start: what came before the agent is not forwarded.
                let n: i64 = self
                    .db(|c| c.query_row("SELECT IFNULL(MAX(ROWID), 0) FROM message", [], |r| r.get(0)))
                    .await?;
                self.inbox.advance(n).await;
                n
            }
        };
        type Row = (i64, Option<String>, Option<String>, Option<Vec<u8>>, Option<i64>, String);
        let rows: Vec<(Row, Vec<Attachment>)> = self
            .db(move |c| {
                let mut q = c.prepare(
                    "SELECT m.ROWID, h.id, m.text, m.attributedBody, m.associated_message_type, m.guid
                     FROM message m LEFT JOIN handle h ON m.handle_id = h.ROWID
                     WHERE m.ROWID > ?1 AND m.is_from_me = 0 ORDER BY m.ROWID LIMIT 100",
                )?;
                let rows = q.query_map([last], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?))
                })?;
                let rows: Vec<Row> = rows.collect::<rusqlite::Result<_>>()?;
                let mut files = c.prepare(
                    "SELECT a.filename, a.transfer_name, a.total_bytes
                     FROM message_attachment_join j JOIN attachment a ON a.ROWID = j.attachment_id
                     WHERE j.message_id = ?1 ORDER BY a.ROWID",
                )?;
                rows.into_iter()
                    .map(|row| {
                        let of = files.query_map([row.0], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
                        Ok((row, of.collect::<rusqlite::Result<_>>()?))
                    })
                    .collect()
            })
            .await?;
        let home = std::env::var_os("HOME").map(PathBuf::from);
        let rows = rows.into_iter().map(|((rowid, from, text, body, associated, guid), files)| {
            let text = text.or_else(|| typedstream::text(body.as_deref()?)).unwrap_or_default();
            // A reaction is no text.
            let received = (associated.unwrap_or(0) == 0).then(|| Received {
                from: from.unwrap_or_default(),
                text,
                id: format!("messages:{guid}"),
                rowid,
                files: files.into_iter().map(|a| received_file(a, home.as_deref())).collect(),
                seen_ms: now_ms(),
            });
            (rowid, received)
        });
        self.inbox
            .deliver(node, rows.collect(), async |f: &ReceivedFile| Ok(local_file(&f.source, f.size).await))
            .await;
        Ok(())
    }
}

/// An attachment row: `filename` (under `~/Library/Messages/Attachments`, `~` unexpanded; NULL
/// until Messages knows where it goes), `transfer_name`, `total_bytes`.
type Attachment = (Option<String>, Option<String>, Option<i64>);

/// Where an attachment's file is, `~` expanded.
fn received_file((filename, transfer_name, total): Attachment, home: Option<&Path>) -> ReceivedFile {
    let path = match (filename.as_deref(), home) {
        (Some(f), Some(h)) if f == "~" || f.starts_with("~/") => {
            h.join(f.trim_start_matches('~').trim_start_matches('/'))
        }
        (Some(f), _) => PathBuf::from(f),
        (None, _) => PathBuf::new(),
    };
    let name = transfer_name
        .filter(|n| !n.is_empty())
        .or_else(|| path.file_name().map(|n| n.to_string_lossy().into_owned()))
        .unwrap_or_else(|| "attachment".to_owned());
    let size = total.map_or(0, |n| n.max(0) as u64);
    ReceivedFile { source: path.display().to_string(), name, size }
}

/// The bytes of a received file once Messages has downloaded it whole (its length reaches the
/// row's `total_bytes`).
async fn local_file(path: &str, total: u64) -> Fetched {
    if path.is_empty() {
        return Fetched::NotYet;
    }
    let len = match tokio::fs::metadata(path).await {
        Ok(m) if m.is_file() => m.len(),
        Ok(_) => return Fetched::Gone(format!("{path} is not a file")),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Fetched::NotYet,
        Err(e) => return Fetched::Gone(format!("{path}: {e}")),
    };
    if len < total {
        return Fetched::NotYet;
    }
    if len > LARGEST {
        return Fetched::Gone(format!("{path} is larger than the node takes"));
    }
    match tokio::fs::read(path).await {
        Ok(b) => Fetched::Here(b),
        Err(e) => Fetched::Gone(format!("{path}: {e}")),
    }
}

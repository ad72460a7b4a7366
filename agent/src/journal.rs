//! The agent's journal: what it has handed to its connector, and what it has not yet told the
//! node. A message id is on disk as attempted before the connector sees it, so no message is
//! handed over twice (across a `kill -9`, or a lease that expired and came back); an outcome is
//! on disk before it is reported, so an outage or a restart loses no report.
//!
//! One append-only file of JSON lines in the state directory. Attempts and outcomes are synced in
//! batches (one `fdatasync` per poll's jobs, one per batch of outcomes); acknowledgements are not
//! synced, since repeating a report is harmless (the node takes the current status again as a
//! no-op). Acknowledged messages are forgotten: the node never leases them again. On open, and
//! when the file has grown well past what is live, it is rewritten with only what is live.

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use pigeon_protocol::StatusBody;
use serde::{Deserialize, Serialize};

const FILE: &str = "journal";

/// One line of the journal.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Record {
    /// Handed to the connector.
    Attempt { id: String },
    /// What became of it, to report.
    Outcome { id: String, report: StatusBody },
    /// The node took the report.
    Acked { id: String },
    /// A connector's own state (the last inbound text forwarded, a receipt it follows, …), by
    /// key; `None` removes it.
    Mark { key: String, value: Option<String> },
}

/// What the journal holds of one message not yet acknowledged.
#[derive(Debug, Clone, Default)]
struct Entry {
    outcome: Option<StatusBody>,
}

/// What a restart found unfinished.
#[derive(Debug, Default)]
pub struct Unfinished {
    /// Handed to the connector, outcome unknown: the agent stopped during the send.
    pub attempted: Vec<String>,
    /// Outcomes the node has not acknowledged.
    pub unreported: Vec<(String, StatusBody)>,
}

struct Inner {
    file: File,
    path: PathBuf,
    live: HashMap<String, Entry>,
    marks: HashMap<String, String>,
    /// Lines in the file.
    lines: usize,
}

/// The journal (see the module docs). Clones share it.
#[derive(Clone)]
pub struct Journal {
    inner: Arc<Mutex<Inner>>,
}

impl Journal {
    /// Opens (or makes) the journal in `dir`, and says what was left unfinished.
    pub fn open(dir: &Path) -> io::Result<(Journal, Unfinished)> {
        std::fs::create_dir_all(dir)?;
        let path = dir.join(FILE);
        let mut live: HashMap<String, Entry> = HashMap::new();
        let mut marks = HashMap::new();
        if let Ok(f) = File::open(&path) {
            for line in io::BufReader::new(f).lines() {
                // A line cut short by a crash is the last one, and was never acted on.
                let Ok(record) = serde_json::from_str::<Record>(&line?) else { continue };
                match record {
                    Record::Attempt { id } => {
                        live.entry(id).or_default();
                    }
                    Record::Outcome { id, report } => live.entry(id).or_default().outcome = Some(report),
                    Record::Acked { id } => {
                        live.remove(&id);
                    }
                    Record::Mark { key, value } => set(&mut marks, key, value),
                }
            }
        }
        let mut unfinished = Unfinished::default();
        for (id, e) in &live {
            match &e.outcome {
                None => unfinished.attempted.push(id.clone()),
                Some(r) => unfinished.unreported.push((id.clone(), r.clone())),
            }
        }
        unfinished.attempted.sort();
        unfinished.unreported.sort_by(|a, b| a.0.cmp(&b.0));
        let file = rewrite(&path, &live, &marks)?;
        let lines = live.len() * 2 + marks.len();
        let inner = Inner { file, path, live, marks, lines };
        Ok((Journal { inner: Arc::new(Mutex::new(inner)) }, unfinished))
    }

    /// Whether this message was ever handed to the connector and is not yet settled with the node.
    pub fn knows(&self, id: &str) -> bool {
        self.inner.lock().unwrap().live.contains_key(id)
    }

    /// Records `ids` as handed to the connector, on disk, before they are.
    pub async fn attempted(&self, ids: &[String]) -> io::Result<()> {
        let records = ids.iter().map(|id| Record::Attempt { id: id.clone() }).collect();
        self.append(records, true).await
    }

    /// Records outcomes to report, on disk, before they are reported.
    pub async fn outcomes(&self, batch: &[(String, StatusBody)]) -> io::Result<()> {
        let records =
            batch.iter().map(|(id, r)| Record::Outcome { id: id.clone(), report: r.clone() }).collect();
        self.append(records, true).await
    }

    /// The node took the report on `id` (or will never take one): it is forgotten.
    pub async fn acked(&self, id: &str) -> io::Result<()> {
        self.append(vec![Record::Acked { id: id.to_owned() }], false).await
    }

    /// A connector's saved state under `key`.
    pub fn mark(&self, key: &str) -> Option<String> {
        self.inner.lock().unwrap().marks.get(key).cloned()
    }

    /// Every saved state whose key starts with `prefix`, by key.
    pub fn marks(&self, prefix: &str) -> Vec<(String, String)> {
        let g = self.inner.lock().unwrap();
        let mut out: Vec<_> = g
            .marks
            .iter()
            .filter(|(k, _)| k.starts_with(prefix))
            .map(|(k, v)| (k.clone(), v.clone()))
            .collect();
        out.sort();
        out
    }

    /// Saves (or, with `None`, removes) a connector's state under `key`, on disk.
    pub async fn set_mark(&self, key: &str, value: Option<String>) -> io::Result<()> {
        self.append(vec![Record::Mark { key: key.to_owned(), value }], true).await
    }

    /// The ids of the messages not yet settled with the node.
    pub fn live_ids(&self) -> Vec<String> {
        self.inner.lock().unwrap().live.keys().cloned().collect()
    }

    /// Appends `records` (synced if `sync`), off the event loop's thread.
    async fn append(&self, records: Vec<Record>, sync: bool) -> io::Result<()> {
        let inner = self.inner.clone();
        let work = move || {
            let mut g = inner.lock().unwrap();
            let mut buf = Vec::with_capacity(records.len() * 48);
            for r in &records {
                serde_json::to_writer(&mut buf, r).map_err(io::Error::other)?;
                buf.push(b'\n');
            }
            g.file.write_all(&buf)?;
            if sync {
                g.file.sync_data()?;
            }
            g.lines += records.len();
            for r in records {
                match r {
                    Record::Attempt { id } => {
                        g.live.entry(id).or_default();
                    }
                    Record::Outcome { id, report } => g.live.entry(id).or_default().outcome = Some(report),
                    Record::Acked { id } => {
                        g.live.remove(&id);
                    }
                    Record::Mark { key, value } => set(&mut g.marks, key, value),
                }
            }
            // Rewritten once most of it is dead.
            if g.lines > 10_000 && g.lines > 4 * (g.live.len() * 2 + g.marks.len()) {
                let Inner { path, live, marks, .. } = &*g;
                let file = rewrite(path, live, marks)?;
                g.lines = g.live.len() * 2 + g.marks.len();
                g.file = file;
            }
            Ok(())
        };
        tokio::task::spawn_blocking(work).await.map_err(io::Error::other)?
    }
}

/// Writes what is live into a fresh journal and puts it in place of the old (synced, then
/// renamed, then the directory synced); returns it open for appending.
/// Applies a mark.
fn set(marks: &mut HashMap<String, String>, key: String, value: Option<String>) {
    match value {
        Some(v) => {
            marks.insert(key, v);
        }
        None => {
            marks.remove(&key);
        }
    }
}

fn rewrite(path: &Path, live: &HashMap<String, Entry>, marks: &HashMap<String, String>) -> io::Result<File> {
    let tmp = path.with_extension("new");
    let mut out = io::BufWriter::new(File::create(&tmp)?);
    for (key, value) in marks {
        serde_json::to_writer(&mut out, &Record::Mark { key: key.clone(), value: Some(value.clone()) })?;
        out.write_all(b"\n")?;
    }
    for (id, e) in live {
        serde_json::to_writer(&mut out, &Record::Attempt { id: id.clone() })?;
        out.write_all(b"\n")?;
        if let Some(report) = &e.outcome {
            serde_json::to_writer(&mut out, &Record::Outcome { id: id.clone(), report: report.clone() })?;
            out.write_all(b"\n")?;
        }
    }
    out.into_inner().map_err(|e| e.into_error())?.sync_all()?;
    std::fs::rename(&tmp, path)?;
    if let Some(dir) = path.parent() {
        File::open(dir)?.sync_all()?;
    }
    OpenOptions::new().append(true).open(path)
}

#[cfg(test)]
mod tests {
    use super::*;
    use pigeon_protocol::ReportedStatus;

    fn sent() -> StatusBody {
        StatusBody {
            status: ReportedStatus::Sent,
            failure_reason: None,
            channel_used: None,
            failure_scope: None,
        }
    }

    #[actix_rt::test]
    async fn a_reopened_journal_knows_what_was_attempted_and_what_is_unreported() {
        let dir = tempfile::tempdir().unwrap();
        let (j, unfinished) = Journal::open(dir.path()).unwrap();
        assert!(unfinished.attempted.is_empty() && unfinished.unreported.is_empty());
        j.attempted(&["a".into(), "b".into(), "c".into()]).await.unwrap();
        j.outcomes(&[("b".into(), sent()), ("c".into(), sent())]).await.unwrap();
        j.acked("c").await.unwrap();
        j.set_mark("inbound", Some("42".into())).await.unwrap();
        j.set_mark("watch.a", Some("x".into())).await.unwrap();
        j.set_mark("watch.b", Some("y".into())).await.unwrap();
        j.set_mark("watch.a", None).await.unwrap();
        assert!(j.knows("a") && j.knows("b") && !j.knows("c"));
        drop(j);
        // A torn last line, as a crash mid-write leaves it.
        let mut f = OpenOptions::new().append(true).open(dir.path().join(FILE)).unwrap();
        f.write_all(b"{\"attempt\":{\"id\":\"d").unwrap();
        drop(f);

        let (j, unfinished) = Journal::open(dir.path()).unwrap();
        assert_eq!(unfinished.attempted, vec!["a".to_owned()]);
        assert_eq!(unfinished.unreported, vec![("b".to_owned(), sent())]);
        assert_eq!(j.mark("inbound").as_deref(), Some("42"));
        assert_eq!(j.marks("watch."), vec![("watch.b".to_owned(), "y".to_owned())]);
        assert!(j.knows("a") && !j.knows("c") && !j.knows("d"));
        // Reopening rewrote it with only what is live.
        let text = std::fs::read_to_string(dir.path().join(FILE)).unwrap();
        assert_eq!(text.lines().count(), 5, "{text}");
    }

    #[actix_rt::test]
    async fn a_journal_of_settled_messages_stays_small() {
        let dir = tempfile::tempdir().unwrap();
        let (j, _) = Journal::open(dir.path()).unwrap();
        for i in 0..3_000 {
            let id = format!("m{i}");
            j.attempted(std::slice::from_ref(&id)).await.unwrap();
            j.outcomes(&[(id.clone(), sent())]).await.unwrap();
            j.acked(&id).await.unwrap();
        }
        assert!(j.live_ids().is_empty());
        let lines = std::fs::read_to_string(dir.path().join(FILE)).unwrap().lines().count();
        assert!(lines < 10_000, "{lines} lines");
    }
}

//! Texts a phone received, with their files, on their way to the node. A connector reads its
//! rows (chat.db's, BlueBubbles') into [`Received`]s and says how to fetch a file; this module
//! uploads the files, forwards the text once (the node keys it by the connector's id), and keeps
//! in the journal a text whose file the phone has not finished downloading, so it is tried again
//! on later rounds instead of dropped, while the texts after it go on.

use serde::{Deserialize, Serialize};

use crate::journal::Journal;
use crate::node::{Node, NodeError};

/// How long a file the phone is still downloading is waited for; after that the text goes on
/// without it (and says so in the log).
const WAIT_FOR_MS: i64 = 24 * 3600 * 1000;
/// A received file larger than this is not read into memory (the node takes far less).
pub(crate) const LARGEST: u64 = 200 << 20;

/// A text received, as a connector read it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct Received {
    /// The sender, as the phone names it.
    pub from: String,
    /// The text; empty when the files are all there is.
    pub text: String,
    /// The connector's id of the text, the node's idempotency key.
    pub id: String,
    /// The connector's row, in order (the journal's cursor).
    pub rowid: i64,
    /// Its files, in order.
    pub files: Vec<ReceivedFile>,
    /// When the agent first read it, ms since the Unix epoch.
    pub seen_ms: i64,
}

/// A file of a text received: where the connector finds it and the name it came with.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub(crate) struct ReceivedFile {
    /// A path on this Mac, or a BlueBubbles attachment guid.
    pub source: String,
    pub name: String,
    /// Its length where the phone says (a shorter file is still downloading).
    #[serde(default)]
    pub size: u64,
}

/// What fetching a file came to.
pub(crate) enum Fetched {
    /// Its bytes.
    Here(Vec<u8>),
    /// The phone has not finished downloading it.
    NotYet,
    /// It will never come (and why).
    Gone(String),
}

/// What became of a text this round.
#[derive(Debug, PartialEq, Eq)]
enum Outcome {
    /// Forwarded, or nothing to forward.
    Done,
    /// A file is still downloading.
    Waiting,
    /// The node or the phone cannot take or give it now: the round stops here.
    NotNow,
}

/// The texts a connector holds back until their files are downloaded, under `<prefix><rowid>`.
#[derive(Clone)]
pub(crate) struct Inbox {
    journal: Journal,
    cursor: &'static str,
    held: &'static str,
}

impl Inbox {
    /// The journal's cursor under `cursor`, held texts under `held`.
    pub fn new(journal: Journal, cursor: &'static str, held: &'static str) -> Self {
        Self { journal, cursor, held }
    }

    /// The last row read, if the agent ever read one.
    pub fn cursor(&self) -> Option<i64> {
        self.journal.mark(self.cursor).and_then(|v| v.parse().ok())
    }

    /// Moves the cursor to `rowid`.
    pub async fn advance(&self, rowid: i64) {
        let _ = self.journal.set_mark(self.cursor, Some(rowid.to_string())).await;
    }

    /// Tries the texts held back, then `rows` in order (`None` for a row that is no text, a
    /// reaction say), moving the cursor past each one forwarded or held; stops at the first
    /// that cannot go now.
    pub async fn deliver(
        &self,
        node: &Node,
        rows: Vec<(i64, Option<Received>)>,
        fetch: impl AsyncFn(&ReceivedFile) -> Result<Fetched, String>,
    ) {
        for (key, v) in self.journal.marks(self.held) {
            let Ok(r) = serde_json::from_str::<Received>(&v) else {
                let _ = self.journal.set_mark(&key, None).await;
                continue;
            };
            match forward(node, &r, &fetch).await {
                Outcome::Done => {
                    let _ = self.journal.set_mark(&key, None).await;
                }
                Outcome::Waiting => {}
                Outcome::NotNow => return,
            }
        }
        for (rowid, r) in rows {
            if let Some(r) = r {
                match forward(node, &r, &fetch).await {
                    Outcome::Done => {}
                    Outcome::Waiting => {
                        let key = format!("{}{rowid}", self.held);
                        if self.journal.set_mark(&key, serde_json::to_string(&r).ok()).await.is_err() {
                            return;
                        }
                        tracing::info!(rowid, "a text received waits for its files to download");
                    }
                    Outcome::NotNow => return,
                }
            }
            self.advance(rowid).await;
        }
    }
}

/// Uploads `r`'s files and forwards it. A file that will never come, or that the node refuses
/// (a type it does not take), is left out and logged; the text goes with the rest.
async fn forward(
    node: &Node,
    r: &Received,
    fetch: &impl AsyncFn(&ReceivedFile) -> Result<Fetched, String>,
) -> Outcome {
    let mut media = Vec::with_capacity(r.files.len());
    for f in &r.files {
        let skip =
            |why: &str| tracing::warn!(rowid = r.rowid, file = %f.name, why, "a file received is left out");
        let bytes = match fetch(f).await {
            Ok(Fetched::Here(b)) => b,
            Ok(Fetched::NotYet) if now_ms() - r.seen_ms < WAIT_FOR_MS => return Outcome::Waiting,
            Ok(Fetched::NotYet) => {
                skip("the phone did not download it within a day");
                continue;
            }
            Ok(Fetched::Gone(why)) => {
                skip(&why);
                continue;
            }
            Err(e) => {
                tracing::debug!(error = %e, "a file received cannot be read now");
                return Outcome::NotNow;
            }
        };
        let Some(content_type) = crate::media::content_type_of(std::path::Path::new(&f.name)) else {
            skip("the node takes no file of its type");
            continue;
        };
        match node.upload(bytes, content_type, &f.name).await {
            Ok(id) => media.push(id),
            Err(NodeError::Refused { error, .. }) => skip(&error),
            Err(e) => {
                tracing::debug!(error = %e, "a file received waits for the node");
                return Outcome::NotNow;
            }
        }
    }
    // Messages' placeholder for where a file sat in the text.
    let text = r.text.replace('\u{fffc}', "");
    let text = text.trim();
    if text.is_empty() && media.is_empty() {
        return Outcome::Done;
    }
    let body = (!text.is_empty()).then_some(text);
    match node.inbound(&r.from, body, media, Some(&r.id)).await {
        Ok(()) => Outcome::Done,
        Err(NodeError::Refused { code, error, .. }) => {
            tracing::warn!(rowid = r.rowid, code = %code, error = %error, "the node refused a text received; skipped");
            Outcome::Done
        }
        Err(e) => {
            tracing::debug!(error = %e, "a text received waits for the node");
            Outcome::NotNow
        }
    }
}

/// Milliseconds since the Unix epoch.
pub(crate) fn now_ms() -> i64 {
    std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_millis() as i64)
}

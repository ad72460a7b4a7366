//! The node as the agent sees it: the `/phone/v1/` calls, and what their failures mean for the
//! agent (wait and try again, give up on this report, or stop: the token is refused).

use std::time::Duration;

use awc::http::StatusCode;
use pigeon_protocol::{AgentPhone, DataBody, DetectionAnswer, ErrorBody, InboundBody, JobView, StatusBody};
use serde::de::DeserializeOwned;
use serde::Serialize;

/// What a call to the node came to, when it did not succeed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum NodeError {
    /// Unreachable, timed out, overloaded or failing (5xx, 408, 429): worth trying again later.
    Transient(String),
    /// The token is refused (401): revoked, or never valid. Nothing will work until it changes.
    Unauthorized(String),
    /// The node refused this one call (another 4xx) with its envelope: trying again is pointless.
    Refused {
        /// HTTP status.
        status: u16,
        /// The envelope's stable code.
        code: String,
        /// The envelope's words.
        error: String,
    },
}

impl std::fmt::Display for NodeError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            NodeError::Transient(e) => write!(f, "{e}"),
            NodeError::Unauthorized(e) => write!(f, "the node refused the agent token: {e}"),
            NodeError::Refused { status, code, error } => write!(f, "{status} {code}: {error}"),
        }
    }
}

/// A client of one node's `/phone/v1/`, with one agent token.
#[derive(Clone)]
pub struct Node {
    client: awc::Client,
    base: String,
}

impl Node {
    /// A client for the node at `server` (`http://host:port`) with `token`. Calls time out after
    /// a long poll's `wait` plus `slack`.
    pub fn new(server: &str, token: &str) -> Self {
        let client = awc::Client::builder()
            .connector(awc::Connector::new().rustls_0_23(pigeon_protocol::tls::client_config()))
            .timeout(Duration::from_secs(pigeon_protocol::MAX_POLL_WAIT_S + 15))
            .add_default_header(("authorization", format!("Bearer {token}")))
            .add_default_header(("user-agent", concat!("pigeon-agent/", env!("CARGO_PKG_VERSION"))))
            .finish();
        Self { client, base: server.trim_end_matches('/').to_owned() }
    }

    /// Leased jobs, waiting up to `wait_s` seconds for the first.
    pub async fn poll(&self, wait_s: u64) -> Result<Vec<JobView>, NodeError> {
        self.call::<(), _>("GET", &format!("/phone/v1/jobs?wait={wait_s}"), None).await
    }

    /// Reports what became of a message.
    pub async fn report(&self, message_id: &str, body: &StatusBody) -> Result<(), NodeError> {
        let path = format!("/phone/v1/messages/{message_id}/status");
        self.call::<_, serde_json::Value>("POST", &path, Some(body)).await.map(drop)
    }

    /// Answers a detection question.
    pub async fn answer(&self, job_id: &str, imessage: bool) -> Result<(), NodeError> {
        let path = format!("/phone/v1/detections/{job_id}");
        self.call::<_, serde_json::Value>("POST", &path, Some(&DetectionAnswer { imessage })).await.map(drop)
    }

    /// Forwards a text the phone received. `id` is the connector's own id for the text: the node
    /// records a repeat of it once, so a forward retried after a crash makes no duplicate.
    /// `media` names files uploaded with [`Node::upload`] first.
    pub async fn inbound(
        &self,
        from: &str,
        body: Option<&str>,
        media: Vec<String>,
        id: Option<&str>,
    ) -> Result<(), NodeError> {
        let media = (!media.is_empty()).then_some(media);
        let b = InboundBody { from: from.to_owned(), body: body.map(str::to_owned), media };
        self.call_keyed::<_, serde_json::Value>("POST", "/phone/v1/inbound", Some(&b), id).await.map(drop)
    }

    /// Streams the bytes of media `media_id` (an attachment of a job this phone holds) into `out`,
    /// at most `limit` of them; how many came.
    pub async fn media(
        &self,
        media_id: &str,
        limit: u64,
        out: &mut (impl tokio::io::AsyncWrite + Unpin),
    ) -> Result<u64, NodeError> {
        use futures_util::StreamExt;
        use tokio::io::AsyncWriteExt;
        let url = format!("{}/phone/v1/media/{media_id}", self.base);
        let mut res = self
            .client
            .get(&url)
            .send()
            .await
            .map_err(|e| NodeError::Transient(format!("cannot reach {}: {e}", self.base)))?;
        let status = res.status();
        if !status.is_success() {
            let bytes = res.body().limit(64 << 10).await.unwrap_or_default();
            return Err(Self::failure(&self.base, status, &bytes));
        }
        let mut got = 0u64;
        while let Some(chunk) = res.next().await {
            let chunk = chunk.map_err(|e| {
                NodeError::Transient(format!("{} cut media {media_id} short: {e}", self.base))
            })?;
            got += chunk.len() as u64;
            if got > limit {
                return Err(NodeError::Refused {
                    status: status.as_u16(),
                    code: "INVALID_MEDIA".into(),
                    error: format!("media {media_id} is longer than the job says ({limit} bytes)"),
                });
            }
            out.write_all(&chunk)
                .await
                .map_err(|e| NodeError::Transient(format!("cannot keep media {media_id}: {e}")))?;
        }
        Ok(got)
    }

    /// Uploads a file the phone received (`POST /phone/v1/media`); its media id.
    pub async fn upload(
        &self,
        bytes: Vec<u8>,
        content_type: &str,
        filename: &str,
    ) -> Result<String, NodeError> {
        let query = serde_urlencoded::to_string([("filename", filename)]).unwrap_or_default();
        let url = format!("{}/phone/v1/media?{query}", self.base);
        let sent =
            self.client.post(&url).insert_header(("content-type", content_type)).send_body(bytes).await;
        let mut res = sent.map_err(|e| NodeError::Transient(format!("cannot reach {}: {e}", self.base)))?;
        let bytes = res.body().limit(1 << 20).await.map_err(|e| {
            NodeError::Transient(format!("{} answered {} and then failed: {e}", self.base, res.status()))
        })?;
        let up: pigeon_protocol::MediaUploaded = Self::data_of(&self.base, res.status(), &bytes)?;
        Ok(up.media_id)
    }

    /// Tells the node the agent holds only `keep`: its other leases go back to the queue. How many did.
    pub async fn release(&self, keep: Vec<String>) -> Result<u32, NodeError> {
        let body = pigeon_protocol::ReleaseBody { keep };
        let r: pigeon_protocol::Released = self.call("POST", "/phone/v1/leases/release", Some(&body)).await?;
        Ok(r.released)
    }

    /// The phone this token belongs to.
    pub async fn me(&self) -> Result<AgentPhone, NodeError> {
        self.call::<(), _>("GET", "/phone/v1/me", None).await
    }

    async fn call<B: Serialize, T: DeserializeOwned>(
        &self,
        method: &str,
        path: &str,
        body: Option<&B>,
    ) -> Result<T, NodeError> {
        self.call_keyed(method, path, body, None).await
    }

    async fn call_keyed<B: Serialize, T: DeserializeOwned>(
        &self,
        method: &str,
        path: &str,
        body: Option<&B>,
        idempotency_key: Option<&str>,
    ) -> Result<T, NodeError> {
        let url = format!("{}{path}", self.base);
        let mut req = match method {
            "GET" => self.client.get(&url),
            _ => self.client.post(&url),
        };
        if let Some(k) = idempotency_key {
            req = req.insert_header(("idempotency-key", k));
        }
        let sent = match body {
            Some(b) => req.send_json(b).await,
            None => req.send().await,
        };
        let mut res = sent.map_err(|e| NodeError::Transient(format!("cannot reach {}: {e}", self.base)))?;
        let status = res.status();
        let bytes = res.body().limit(16 << 20).await.map_err(|e| {
            NodeError::Transient(format!("{} answered {status} and then failed: {e}", self.base))
        })?;
        Self::data_of(&self.base, status, &bytes)
    }

    /// The `data` of a success, else what the failure means.
    fn data_of<T: DeserializeOwned>(base: &str, status: StatusCode, bytes: &[u8]) -> Result<T, NodeError> {
        if !status.is_success() {
            return Err(Self::failure(base, status, bytes));
        }
        serde_json::from_slice::<DataBody<T>>(bytes)
            .map(|d| d.data)
            .map_err(|e| NodeError::Transient(format!("{base} answered what the agent cannot read: {e}")))
    }

    /// What a failed answer means: the envelope's words, and whether trying again is worth it.
    fn failure(base: &str, status: StatusCode, bytes: &[u8]) -> NodeError {
        let envelope: Option<ErrorBody> = serde_json::from_slice(bytes).ok();
        let words =
            envelope.as_ref().map_or_else(|| status.to_string(), |e| format!("{} ({})", e.error, e.code));
        match status {
            StatusCode::UNAUTHORIZED => NodeError::Unauthorized(words),
            s if s.is_server_error()
                || s == StatusCode::REQUEST_TIMEOUT
                || s == StatusCode::TOO_MANY_REQUESTS =>
            {
                NodeError::Transient(format!("{base} answered {words}"))
            }
            s => {
                let (code, error) = envelope.map_or((String::new(), s.to_string()), |e| (e.code, e.error));
                NodeError::Refused { status: s.as_u16(), code, error }
            }
        }
    }
}

/// An outcome on its way to the node; `journaled` once it is on disk.
pub struct Outcome {
    pub(crate) id: String,
    pub(crate) report: StatusBody,
    pub(crate) journaled: bool,
}

impl Outcome {
    /// A fresh outcome of message `id` (a connector's later receipt, say).
    pub fn new(id: String, report: StatusBody) -> Self {
        Self { id, report, journaled: false }
    }
}

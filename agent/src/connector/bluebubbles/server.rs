//! The BlueBubbles server's HTTP API as the connector calls it: the password in the query, the
//! `{status, message, data, error}` envelope and what its failures mean.

use std::path::Path;
use std::time::Duration;

use pigeon_protocol::FailureScope;
use serde_json::Value;

use crate::connector::received::{now_ms, Fetched, LARGEST};

/// A send waits for Messages (the server's own limit is 2 minutes).
const SEND_TIMEOUT: Duration = Duration::from_secs(150);

/// A BlueBubbles server: its address and password.
#[derive(Clone)]
pub struct Server {
    client: awc::Client,
    pub(super) base: String,
    password: String,
}

/// What a call to the server came to, when it did not succeed.
#[derive(Debug)]
pub(super) enum BbError {
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
    pub(super) fn scope(&self) -> FailureScope {
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

    /// The URL of `path` with the password and `query`.
    fn url(&self, path: &str, query: &[(&str, &str)]) -> Result<String, BbError> {
        let mut q: Vec<(&str, &str)> = vec![("password", &self.password)];
        q.extend_from_slice(query);
        let qs = serde_urlencoded::to_string(&q).map_err(|e| BbError::Status(0, e.to_string(), false))?;
        Ok(format!("{}{path}?{qs}", self.base))
    }

    /// A call; the envelope's `data` on 200.
    pub(super) async fn call(
        &self,
        method: &str,
        path: &str,
        query: &[(&str, &str)],
        body: Option<Value>,
    ) -> Result<Value, BbError> {
        let url = self.url(path, query)?;
        let sent = match (method, body) {
            ("GET", _) => self.client.get(&url).send().await,
            (_, Some(b)) => self.client.post(&url).send_json(&b).await,
            (_, None) => self.client.post(&url).send().await,
        };
        Self::answer(sent).await
    }

    /// The envelope's `data` of an answer with 200, else what went wrong.
    async fn answer(
        sent: Result<awc::ClientResponse, awc::error::SendRequestError>,
    ) -> Result<Value, BbError> {
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

    /// Sends the file at `path` as `name` (`POST /api/v1/message/attachment`, multipart).
    pub(super) async fn send_file(
        &self,
        chat_guid: &str,
        temp_guid: &str,
        name: &str,
        path: &Path,
    ) -> Result<Value, BbError> {
        let bytes =
            tokio::fs::read(path).await.map_err(|e| BbError::Status(0, format!("{name}: {e}"), false))?;
        let boundary = format!("pigeon-{temp_guid}-{:x}", now_ms());
        let mut body = Vec::with_capacity(bytes.len() + 1024);
        let fields =
            [("chatGuid", chat_guid), ("tempGuid", temp_guid), ("name", name), ("method", "apple-script")];
        for (k, v) in fields {
            body.extend_from_slice(
                format!("--{boundary}\r\nContent-Disposition: form-data; name=\"{k}\"\r\n\r\n{v}\r\n")
                    .as_bytes(),
            );
        }
        // A quote or a line break in the name would end its header (browsers escape them so too).
        let quoted = name.replace('"', "%22").replace(['\r', '\n'], " ");
        body.extend_from_slice(
            format!(
                "--{boundary}\r\nContent-Disposition: form-data; name=\"attachment\"; filename=\"{quoted}\"\r\n\
                 Content-Type: application/octet-stream\r\n\r\n"
            )
            .as_bytes(),
        );
        body.extend_from_slice(&bytes);
        body.extend_from_slice(format!("\r\n--{boundary}--\r\n").as_bytes());
        let url = self.url("/api/v1/message/attachment", &[])?;
        let sent = self
            .client
            .post(&url)
            .insert_header(("content-type", format!("multipart/form-data; boundary={boundary}")))
            .send_body(body)
            .await;
        Self::answer(sent).await
    }

    /// The bytes of attachment `guid` as it came (`original=true`: no HEIC conversion).
    pub(super) async fn download(&self, guid: &str) -> Result<Fetched, BbError> {
        let segment: String = guid
            .bytes()
            .map(|b| match b {
                b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (b as char).to_string(),
                b => format!("%{b:02X}"),
            })
            .collect();
        let url = self.url(&format!("/api/v1/attachment/{segment}/download"), &[("original", "true")])?;
        let mut res = self.client.get(&url).send().await.map_err(|e| match e {
            awc::error::SendRequestError::Connect(c) => BbError::Unreachable(c.to_string()),
            e => BbError::Cut(e.to_string()),
        })?;
        let status = res.status().as_u16();
        let limit = if status == 200 { LARGEST as usize } else { 1 << 20 };
        let bytes = match res.body().limit(limit).await {
            Ok(b) => b,
            Err(awc::error::PayloadError::Overflow) => {
                return Ok(Fetched::Gone("larger than the node takes".into()))
            }
            Err(e) => return Err(BbError::Cut(e.to_string())),
        };
        let words = || {
            let v: Value = serde_json::from_slice(&bytes).unwrap_or(Value::Null);
            v["error"]["message"].as_str().unwrap_or_default().to_owned()
        };
        match status {
            200 => Ok(Fetched::Here(bytes.to_vec())),
            // Messages has the row but not yet the file.
            500 if words().contains("does not exist in disk") => Ok(Fetched::NotYet),
            404 => Ok(Fetched::Gone(format!("BlueBubbles has no attachment {guid}"))),
            s => Err(BbError::Status(s, words(), false)),
        }
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
    pub(super) async fn available(&self, phone: &str) -> Option<bool> {
        let data = self
            .call("GET", "/api/v1/handle/availability/imessage", &[("address", phone)], None)
            .await
            .ok()?;
        data["available"].as_bool()
    }
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
}

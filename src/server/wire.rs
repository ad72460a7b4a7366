//! The envelope on the answers actix-http writes itself. Its HTTP/1 dispatcher answers a request
//! it cannot parse (400), a head that is too large (431) or too slow (408) before any middleware
//! runs, with an empty body and no `X-Request-Id`, and offers no hook to change them. So each
//! connection's stream is wrapped: a write that is exactly one such answer (a status line of
//! 400, 408 or 431, no `x-request-id`, no body) goes out as the same answer in our envelope, with
//! a request id that is also logged. Everything else passes through untouched; the check reads
//! the first bytes of a write and the head of a bodiless one only.
//!
//! On the read side the wrapper follows the requests' framing (`framing.rs`) and stops a head
//! larger than [`MAX_HEAD`](crate::limits::MAX_HEAD): it answers 431 in the envelope itself,
//! and the dispatcher reads the end of the stream. It also tells a request whose client closed
//! its connection ([`PeerGone`]): the dispatcher lets half-closed connections finish their
//! request, so a handler would otherwise never learn it, and an agent's long poll would lease jobs
//! to a dead agent (they would wait out their lease).

use std::io;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll};

use actix_web::http::StatusCode;
use actix_web::ResponseError;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

use crate::error::ApiError;
use crate::server::framing::Framing;

/// A connection's stream whose bare dispatcher errors are rewritten (see the module docs).
pub struct Enveloped<T> {
    io: T,
    /// A rewritten answer not yet fully written.
    pending: Vec<u8>,
    written: usize,
    framing: Framing,
    /// A head was too large: the client is answered and nothing more is read.
    refused: bool,
    gone: Arc<PeerGone>,
}

impl<T> Enveloped<T> {
    /// Wraps `io`.
    pub fn new(io: T) -> Self {
        let gone = Arc::new(PeerGone::default());
        Self { io, pending: Vec::new(), written: 0, framing: Framing::default(), refused: false, gone }
    }

    /// What tells this connection's requests that its client has closed it (for the
    /// connection's data: `HttpRequest::conn_data`).
    pub fn peer_gone(&self) -> Arc<PeerGone> {
        self.gone.clone()
    }
}

/// Set when a connection's client has closed its side (the read found the end of the stream).
#[derive(Debug, Default)]
pub struct PeerGone {
    gone: AtomicBool,
    notify: tokio::sync::Notify,
}

impl PeerGone {
    /// Resolves once the client has closed its side of the connection.
    pub async fn wait(&self) {
        let notified = self.notify.notified();
        tokio::pin!(notified);
        notified.as_mut().enable();
        if !self.gone.load(Ordering::Acquire) {
            notified.await;
        }
    }

    fn set(&self) {
        self.gone.store(true, Ordering::Release);
        self.notify.notify_waiters();
    }
}

impl<T: AsyncWrite + Unpin> Enveloped<T> {
    /// Writes what is left of a rewritten answer.
    fn drain(&mut self, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        while self.written < self.pending.len() {
            match Pin::new(&mut self.io).poll_write(cx, &self.pending[self.written..]) {
                Poll::Ready(Ok(0)) => return Poll::Ready(Err(io::ErrorKind::WriteZero.into())),
                Poll::Ready(Ok(n)) => self.written += n,
                Poll::Ready(Err(e)) => return Poll::Ready(Err(e)),
                Poll::Pending => return Poll::Pending,
            }
        }
        self.pending.clear();
        self.written = 0;
        Poll::Ready(Ok(()))
    }
}

impl<T: AsyncRead + AsyncWrite + Unpin> AsyncRead for Enveloped<T> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<io::Result<()>> {
        let this = &mut *self;
        if this.refused {
            return Poll::Ready(Ok(()));
        }
        let (before, room) = (buf.filled().len(), buf.remaining() > 0);
        std::task::ready!(Pin::new(&mut this.io).poll_read(cx, buf))?;
        if room && buf.filled().len() == before {
            this.gone.set();
            return Poll::Ready(Ok(()));
        }
        if this.framing.feed(&buf.filled()[before..]).is_err() {
            // What came in is dropped; the dispatcher sees the stream end, and the answer goes
            // out now or with its flush or shutdown.
            buf.set_filled(before);
            this.refused = true;
            let line = "HTTP/1.1 431 Request Header Fields Too Large";
            this.pending = answer(line, ["connection: close"], StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE);
            this.written = 0;
            let _ = this.drain(cx);
        }
        Poll::Ready(Ok(()))
    }
}

impl<T: AsyncWrite + Unpin> AsyncWrite for Enveloped<T> {
    fn poll_write(mut self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        let this = &mut *self;
        if !this.pending.is_empty() {
            std::task::ready!(this.drain(cx))?;
        }
        if let Some(answer) = rewrite(buf) {
            this.pending = answer;
            // Whatever is not written now goes with the next write, flush or shutdown.
            if let Poll::Ready(Err(e)) = this.drain(cx) {
                return Poll::Ready(Err(e));
            }
            return Poll::Ready(Ok(buf.len()));
        }
        Pin::new(&mut this.io).poll_write(cx, buf)
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        std::task::ready!(self.drain(cx))?;
        Pin::new(&mut self.io).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        std::task::ready!(self.drain(cx))?;
        Pin::new(&mut self.io).poll_shutdown(cx)
    }
}

/// The enveloped form of `buf` if it is one bare dispatcher error, else `None`.
fn rewrite(buf: &[u8]) -> Option<Vec<u8>> {
    let status = match buf.get(..13)? {
        b"HTTP/1.1 400 " | b"HTTP/1.0 400 " => StatusCode::BAD_REQUEST,
        b"HTTP/1.1 408 " | b"HTTP/1.0 408 " => StatusCode::REQUEST_TIMEOUT,
        b"HTTP/1.1 431 " | b"HTTP/1.0 431 " => StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
        _ => return None,
    };
    // One whole head and nothing after it: a bodiless answer, alone in this write.
    let head = std::str::from_utf8(buf.strip_suffix(b"\r\n\r\n")?).ok()?;
    let mut lines = head.split("\r\n");
    let status_line = lines.next()?;
    let mut kept = Vec::new();
    for line in lines {
        let name = line.split(':').next()?.trim().to_ascii_lowercase();
        match name.as_str() {
            "x-request-id" | "content-type" => return None,
            "content-length" if line.split(':').nth(1)?.trim() != "0" => return None,
            "content-length" => {}
            _ => kept.push(line),
        }
    }
    Some(answer(status_line, kept, status))
}

/// An answer of `status` in the envelope, with a request id that is also logged.
fn answer<'a>(status_line: &str, headers: impl IntoIterator<Item = &'a str>, status: StatusCode) -> Vec<u8> {
    let id = ulid::Ulid::generate().to_string();
    let error = ApiError::from_status(status);
    let body =
        actix_web::body::MessageBody::try_into_bytes(error.error_response().into_body()).unwrap_or_default();
    tracing::info!(id = %id, status = status.as_u16(), code = error.code(), "answered before routing");
    let mut out = Vec::with_capacity(body.len() + 256);
    out.extend_from_slice(status_line.as_bytes());
    out.extend_from_slice(b"\r\n");
    for line in headers {
        out.extend_from_slice(line.as_bytes());
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"content-type: application/json\r\n");
    out.extend_from_slice(format!("content-length: {}\r\nx-request-id: {id}\r\n\r\n", body.len()).as_bytes());
    out.extend_from_slice(&body);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_bare_dispatcher_error_is_rewritten() {
        let bare = b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\nconnection: close\r\ndate: x\r\n\r\n";
        let out = String::from_utf8(rewrite(bare).unwrap()).unwrap();
        assert!(out.starts_with("HTTP/1.1 431 Request Header Fields Too Large\r\n"), "{out}");
        assert!(out.contains("connection: close\r\n") && out.contains("x-request-id: "), "{out}");
        let (head, body) = out.split_once("\r\n\r\n").unwrap();
        assert!(head.contains(&format!("content-length: {}", body.len())), "{out}");
        let v: serde_json::Value = serde_json::from_str(body).unwrap();
        assert_eq!(v["code"], "HEADERS_TOO_LARGE");
        // Ours (an id, a body) and other statuses pass through.
        for ours in [
            &b"HTTP/1.1 400 Bad Request\r\nx-request-id: 1\r\ncontent-length: 0\r\n\r\n"[..],
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 2\r\n\r\n{}",
            b"HTTP/1.1 200 OK\r\ncontent-length: 0\r\n\r\n",
            b"HTTP/1.1 400 Bad Request\r\ncontent-length: 0\r\n",
        ] {
            assert!(rewrite(ours).is_none(), "{}", String::from_utf8_lossy(ours));
        }
    }
}

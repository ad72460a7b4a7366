//! HTTPS without a proxy (`--tls-cert`, `--tls-key`): rustls on ring, as every client of the
//! process already is. A connection's handshake runs on its HTTP worker before the stream is
//! wrapped ([`super::wire`]), so the envelope, the head limit and the closed-peer signal work
//! the same on both kinds of connection.

use std::io;
use std::path::Path;
use std::pin::Pin;
use std::sync::Arc;
use std::task::{Context, Poll};

use actix_web::rt::net::TcpStream;
use rustls::pki_types::pem::PemObject;
use rustls::pki_types::{CertificateDer, PrivateKeyDer};
use rustls::ServerConfig;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};

/// The server's TLS settings from a PEM chain (the leaf first) and its private key (PKCS#8,
/// PKCS#1 or SEC1). HTTP/1.1 is all the node speaks, so it is all ALPN offers.
pub fn server_config(cert: &Path, key: &Path) -> Result<Arc<ServerConfig>, String> {
    let certs = CertificateDer::pem_file_iter(cert)
        .and_then(|found| found.collect::<Result<Vec<_>, _>>())
        .map_err(|e| format!("cannot read the certificate {}: {e}", cert.display()))?;
    if certs.is_empty() {
        return Err(format!("{} holds no PEM certificate", cert.display()));
    }
    let key = PrivateKeyDer::from_pem_file(key)
        .map_err(|e| format!("cannot read the private key {}: {e}", key.display()))?;
    let mut config = ServerConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
        .with_safe_default_protocol_versions()
        .map_err(|e| e.to_string())?
        .with_no_client_auth()
        .with_single_cert(certs, key)
        .map_err(|e| format!("the certificate and the key do not make a pair: {e}"))?;
    config.alpn_protocols = vec![b"http/1.1".to_vec()];
    Ok(Arc::new(config))
}

/// A client connection: plain TCP, or TLS over it.
pub enum Conn {
    /// `http://`.
    Plain(TcpStream),
    /// `https://`, its handshake done.
    Tls(Box<tokio_rustls::server::TlsStream<TcpStream>>),
}

impl Conn {
    /// Accepts `io` as `tls` says: as it is, or after a handshake that must end within
    /// `timeout` (a client that opens a connection and says nothing holds no worker long).
    pub async fn accept(
        io: TcpStream,
        tls: Option<&tokio_rustls::TlsAcceptor>,
        timeout: std::time::Duration,
    ) -> io::Result<Self> {
        let Some(acceptor) = tls else { return Ok(Self::Plain(io)) };
        match tokio::time::timeout(timeout, acceptor.accept(io)).await {
            Ok(Ok(stream)) => Ok(Self::Tls(Box::new(stream))),
            Ok(Err(e)) => {
                tracing::debug!(error = %e, "TLS handshake failed");
                Err(e)
            }
            Err(_) => Err(io::ErrorKind::TimedOut.into()),
        }
    }
}

impl AsyncRead for Conn {
    fn poll_read(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &mut ReadBuf<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Self::Plain(s) => Pin::new(s).poll_read(cx, buf),
            Self::Tls(s) => Pin::new(s.as_mut()).poll_read(cx, buf),
        }
    }
}

impl AsyncWrite for Conn {
    fn poll_write(self: Pin<&mut Self>, cx: &mut Context<'_>, buf: &[u8]) -> Poll<io::Result<usize>> {
        match self.get_mut() {
            Self::Plain(s) => Pin::new(s).poll_write(cx, buf),
            Self::Tls(s) => Pin::new(s.as_mut()).poll_write(cx, buf),
        }
    }

    fn poll_flush(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Self::Plain(s) => Pin::new(s).poll_flush(cx),
            Self::Tls(s) => Pin::new(s.as_mut()).poll_flush(cx),
        }
    }

    fn poll_shutdown(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<io::Result<()>> {
        match self.get_mut() {
            Self::Plain(s) => Pin::new(s).poll_shutdown(cx),
            Self::Tls(s) => Pin::new(s.as_mut()).poll_shutdown(cx),
        }
    }
}

//! The HTTP edge below the routes: what pigeon builds itself where actix-web's defaults would
//! cost a message or a client's patience. Each trade, and the actix-http behaviour it leans on:
//!
//! - [`serve`]: the server `HttpServer` would build, assembled from actix-server and
//!   actix-http by hand, because `HttpServer` offers no way to wrap a connection's stream; the
//!   workers, the connection cap under the descriptor limit, and the graceful stop's signal.
//! - [`wire`]: each connection's stream, wrapped: actix-http's h1 dispatcher answers a request it
//!   cannot parse (400), a head too slow (408) or too large (431) itself, bare, before any
//!   middleware; the wrapper rewrites exactly those answers into the envelope, and tells a
//!   handler when its client has gone (the dispatcher lets half-closed connections finish).
//! - [`framing`]: the requests' framing followed on the bytes read (`Content-Length`,
//!   `Transfer-Encoding: chunked`), as the dispatcher reads it, so a head over
//!   [`MAX_HEAD`](crate::limits::MAX_HEAD) is refused before the dispatcher buffers it (its own
//!   limit is larger).
//! - [`overload`]: the gate that refuses sends past what the node answers in time (503
//!   `OVERLOADED`), before their body is parsed; it relies on actix-web reading a refused body
//!   to keep the connection.
//! - [`restart`]: the re-exec that hands the listening socket across `exec` once a full disk
//!   has room again (the one `unsafe` of the workspace).
//! - [`memory`]: mimalloc's purge delay, set for a server.
//! - [`tls`]: HTTPS with rustls, the handshake before the stream is wrapped.

pub mod framing;
pub mod memory;
pub mod overload;
pub mod restart;
pub mod tls;
pub mod wire;

use std::net::TcpListener;

use actix_http::HttpService;
use actix_service::ServiceFactoryExt;
use actix_web::body::MessageBody;
use actix_web::dev::{Server, ServiceFactory, ServiceRequest, ServiceResponse};

use crate::limits::HEADER_TIMEOUT;

/// Serves `app` on `listener` with `workers` HTTP threads (`None`: half the cores, at least
/// one), over TLS when `tls` is given: what `HttpServer` builds, but with each connection's
/// stream wrapped ([`wire`]).
pub fn serve<T, B>(
    listener: TcpListener,
    workers: Option<usize>,
    tls: Option<std::sync::Arc<rustls::ServerConfig>>,
    app: impl Fn() -> actix_web::App<T> + Send + Clone + 'static,
) -> std::io::Result<Server>
where
    T: ServiceFactory<
            ServiceRequest,
            Config = (),
            Response = ServiceResponse<B>,
            Error = actix_web::Error,
            InitError = (),
        > + 'static,
    B: MessageBody + 'static,
{
    let workers = workers.unwrap_or_else(default_workers).max(1);
    let local = listener.local_addr()?;
    let builder = actix_server::Server::build();
    // Ends idle keep-alive connections at a graceful stop instead of waiting out their 5 s.
    let stopping = builder.graceful_shutdown_signal();
    let tls = tls.map(tokio_rustls::TlsAcceptor::from);
    Ok(builder
        .workers(workers)
        .max_concurrent_connections(connections_per_worker(workers))
        .shutdown_timeout(30)
        .listen("pigeon", listener, move || {
            // Runs once on each worker's thread.
            pigeon_actors::name_thread(c"pigeon-http");
            // The default `AppConfig` (host `localhost:8080`): its constructor is private to
            // actix-web, and nothing here builds URLs from it.
            let app = actix_service::map_config(app(), |_| actix_web::dev::AppConfig::default());
            let stopping = stopping.clone();
            let tls = tls.clone();
            actix_service::fn_service(move |io: actix_web::rt::net::TcpStream| {
                let tls = tls.clone();
                async move {
                    let peer = io.peer_addr().ok();
                    // A failed handshake ends the connection; the server carries on.
                    let io = tls::Conn::accept(io, tls.as_ref(), HEADER_TIMEOUT)
                        .await
                        .map_err(actix_http::error::DispatchError::Io)?;
                    Ok::<_, actix_http::error::DispatchError>((wire::Enveloped::new(io), peer))
                }
            })
            .and_then(
                HttpService::build()
                    .graceful_shutdown_signal(move || {
                        let stopping = stopping.clone();
                        async move { stopping.notified().await }
                    })
                    .h1_allow_half_closed(true)
                    .on_connect_ext(|io: &wire::Enveloped<tls::Conn>, data| {
                        data.insert(io.peer_gone());
                    })
                    .client_request_timeout(HEADER_TIMEOUT)
                    .client_disconnect_timeout(std::time::Duration::from_secs(1))
                    .local_addr(local)
                    .h1(app),
            )
        })?
        .run())
}

/// HTTP workers when the operator sets none: half the cores, at least one. A send costs more
/// CPU after the HTTP worker (the tenant actor, the store, the group commit) than in it, and a
/// flood of requests keeps every worker busy however many are refused: with one worker per core
/// the workers and the flood's clients took the cores from the actors and the committer, and the
/// sends taken waited for them. On the 2-core VM, one worker instead of two: under a 1,024-connection
/// flood the sends taken reached the client at p99 36–73 ms instead of 53–71 (median of six
/// phases 40 against 62), closed-loop sends 7.1k against 6.8k/s, the no-op route 24.7k against
/// 30.9k/s (docs/operating.md, "Overload").
fn default_workers() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get() / 2).max(1)
}

/// Descriptors kept back from client connections: the store's files, webhook connections (up
/// to 32 per endpoint in flight), logs.
const RESERVED_DESCRIPTORS: u64 = 512;

/// Connections each worker accepts at once, so that all of them together stay below the
/// process's descriptor limit: past it, `accept` fails and the node stops answering anyone. The
/// soft limit is raised to the hard one first (often 1,024 soft against 500k+ hard).
fn connections_per_worker(workers: usize) -> usize {
    let limit = raise_descriptor_limit();
    let cap = limit.saturating_sub(RESERVED_DESCRIPTORS).max(64 * workers as u64) / workers as u64;
    tracing::info!(descriptors = limit, connections_per_worker = cap, "connection cap");
    cap.min(25_000) as usize
}

/// Raises the soft `RLIMIT_NOFILE` to the hard limit; returns the soft limit in force.
#[cfg(target_os = "linux")]
fn raise_descriptor_limit() -> u64 {
    use rustix::process::{getrlimit, setrlimit, Resource, Rlimit};
    const CEILING: u64 = 1 << 20;
    let now = getrlimit(Resource::Nofile);
    let soft = now.current.unwrap_or(CEILING);
    let hard = now.maximum.unwrap_or(CEILING).min(CEILING);
    if soft < hard
        && setrlimit(Resource::Nofile, Rlimit { current: Some(hard), maximum: now.maximum }).is_ok()
    {
        return hard;
    }
    soft
}

/// Elsewhere the limit is left as it is and assumed to be the common 1,024.
#[cfg(not(target_os = "linux"))]
fn raise_descriptor_limit() -> u64 {
    1024
}

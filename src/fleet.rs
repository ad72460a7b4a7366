//! A fleet's forwarding: any node answers for any tenant. A request whose tenant another node owns
//! (by its lease, `pigeon_storage::pg`) is sent on to that node's advertised URL over kept-alive
//! connections, stamped with this node's id and a MAC under the fleet's secret, and its answer
//! comes back as it was given. The owner serves a stamped request itself and never forwards it
//! again, so a request crosses at most one hop.
//!
//! Why a middleware and not the handlers: the tenant is known from the credential (an API key, an
//! agent token, a session cookie) or the operator's path before any handler runs, and a forwarded
//! request must reach the owner whole, body and headers as the client sent them.

use std::time::Duration;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderMap, HeaderName, HeaderValue};
use actix_web::http::Method;
use actix_web::middleware::Next;
use actix_web::web::{self, Bytes, BytesMut};
use actix_web::HttpMessage;
use actix_web::{HttpResponse, ResponseError};
use futures_util::StreamExt;
use pigeon_actors::{Engine, NodeStamp, Route};
use ulid::Ulid;

use crate::error::ApiError;
use crate::limits::MAX_BODY;

/// The forwarding node's id.
const NODE: HeaderName = HeaderName::from_static("x-pigeon-node");
/// When it forwarded (Unix seconds).
const NODE_TIME: HeaderName = HeaderName::from_static("x-pigeon-node-time");
/// HMAC-SHA256 of id, time, method and path under the fleet's secret.
const NODE_MAC: HeaderName = HeaderName::from_static("x-pigeon-node-mac");
/// The client's address as the forwarding node saw it: the owner throttles failed sign-ins by
/// it (`extract::client_ip`). Read only on a request whose stamp is vouched for; clients' own
/// `x-pigeon-node*` headers are never passed on.
const NODE_CLIENT: HeaderName = HeaderName::from_static("x-pigeon-node-client");

/// Longest a forwarded request may take: an agent's longest poll and then some.
const FORWARD_TIMEOUT: Duration = Duration::from_secs(pigeon_protocol::MAX_POLL_WAIT_S + 30);

/// How often the lease of an owner holding a forwarded request is looked at.
const WATCH_EVERY: Duration = Duration::from_secs(1);

/// Largest answer passed back (a page of 100 messages with long texts is far below it).
const MAX_ANSWER: usize = 64 * 1024 * 1024;

thread_local! {
    /// One client per worker thread (awc's client is not `Send`), keeping connections to the
    /// other nodes alive between requests.
    static CLIENT: awc::Client = awc::Client::builder()
        .connector(awc::Connector::new().rustls_0_23(pigeon_protocol::tls::client_config()))
        .timeout(FORWARD_TIMEOUT)
        .disable_redirects()
        .finish();
}

/// The middleware: serves here what this node owns (or what no node owns yet, which this node
/// then takes), forwards the rest.
pub async fn forward(
    mut req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let engine = match req.app_data::<web::Data<Engine>>() {
        Some(e) if e.in_fleet() => e.get_ref().clone(),
        _ => return Ok(next.call(req).await?.map_into_boxed_body()),
    };
    let path = req.uri().path_and_query().map_or_else(|| req.path().to_owned(), |p| p.as_str().to_owned());
    if req.headers().contains_key(NODE) {
        // From another node of the fleet: served here, whoever owns the tenant now (the
        // engine answers 503 with `Retry-After` if another node took it meanwhile).
        let vouched =
            stamp_of(req.headers()).is_some_and(|s| engine.verify_stamp(&s, req.method().as_str(), &path));
        if !vouched {
            tracing::warn!(path = %req.path(), "a request posing as a node of the fleet was refused");
            return Ok(req.into_response(ApiError::InvalidApiKey.error_response()));
        }
        let client = req.headers().get(NODE_CLIENT).and_then(|v| v.to_str().ok()?.parse().ok());
        if let Some(ip) = client {
            req.extensions_mut().insert(crate::extract::ForwardedFor(ip));
        }
        return Ok(next.call(req).await?.map_into_boxed_body());
    }
    let mut body = None;
    if names_tenant_in_body(&req) {
        match read_body(&mut req).await {
            Ok(b) => body = Some(b),
            Err(e) => return Ok(req.into_response(e.error_response())),
        }
    }
    let tenant = tenant_of(&engine, &req, body.as_deref());
    let route = tenant.map(|t| engine.route(t));
    let Some(Ok(Route::Forward(url))) = route else {
        if let Some(b) = body {
            put_back(&mut req, b);
        }
        return Ok(next.call(req).await?.map_into_boxed_body());
    };
    if is_upload(&req) {
        // Megabytes, passed on as they come: never gathered here, so never served here either
        // if the owner fails mid-way (the client sends it again).
        let payload = req.take_payload();
        return Ok(match send_on(&engine, &req, &url, &path, Body::Stream(payload)).await {
            Ok(res) => req.into_response(res),
            Err(e) => {
                tracing::warn!(error = %e, owner = %url, path = %req.path(), "the tenant's node did not take an upload");
                req.into_response(ApiError::TenantMoving.error_response())
            }
        });
    }
    let body = match body {
        Some(b) => b,
        None => match read_body(&mut req).await {
            Ok(b) => b,
            Err(e) => return Ok(req.into_response(e.error_response())),
        },
    };
    // While the owner holds the request, its lease is watched: an owner that stalls (paused,
    // cut off) past its lease can commit nothing more, so the request is served here instead.
    let owner_gone = async {
        loop {
            actix_web::rt::time::sleep(WATCH_EVERY).await;
            if tenant.is_some_and(|t| matches!(engine.route(t), Ok(Route::Local))) {
                return;
            }
        }
    };
    let answered = {
        let sent = send_on(&engine, &req, &url, &path, Body::Whole(body.clone()));
        match futures_util::future::select(std::pin::pin!(sent), std::pin::pin!(owner_gone)).await {
            futures_util::future::Either::Left((answer, _)) => Some(answer),
            futures_util::future::Either::Right(((), _)) => None,
        }
    };
    let Some(answer) = answered else {
        tracing::warn!(owner = %url, path = %req.path(), "the tenant's node stalled past its lease: served here");
        put_back(&mut req, body);
        return Ok(next.call(req).await?.map_into_boxed_body());
    };
    match answer {
        Ok(res) => Ok(req.into_response(res)),
        Err(e) => {
            // The owner did not answer. If its lease ran out meanwhile (it died), this node takes
            // the tenant and serves the request; otherwise the client comes back shortly.
            tracing::warn!(error = %e, owner = %url, path = %req.path(), "the tenant's node did not answer");
            if tenant.is_some_and(|t| matches!(engine.route(t), Ok(Route::Local))) {
                put_back(&mut req, body);
                return Ok(next.call(req).await?.map_into_boxed_body());
            }
            Ok(req.into_response(ApiError::TenantMoving.error_response()))
        }
    }
}

fn stamp_of(h: &HeaderMap) -> Option<NodeStamp> {
    let text = |n: &HeaderName| h.get(n).and_then(|v| v.to_str().ok()).map(str::to_owned);
    Some(NodeStamp { node: text(&NODE)?, time: text(&NODE_TIME)?.parse().ok()?, mac: text(&NODE_MAC)? })
}

/// The media uploads, whose bodies are streamed on instead of read first.
fn is_upload(req: &ServiceRequest) -> bool {
    req.method() == Method::POST && matches!(req.path(), "/v1/media" | "/phone/v1/media")
}

/// A forwarded request's body.
enum Body {
    Whole(Bytes),
    Stream(actix_web::dev::Payload),
}

/// The two requests whose tenant is named only in their body.
fn names_tenant_in_body(req: &ServiceRequest) -> bool {
    req.method() == Method::POST && matches!(req.path(), "/admin/v1/phones" | "/dashboard/login")
}

/// The tenant a request acts for, as far as it can be told before a handler runs: `None` for
/// requests of no tenant (the operator's lists, probes, the console) or an unknown credential
/// (served here, which refuses it).
fn tenant_of(engine: &Engine, req: &ServiceRequest, body: Option<&[u8]>) -> Option<Ulid> {
    let path = req.path();
    let segment = |prefix: &str| path.strip_prefix(prefix)?.split('/').next()?.parse::<Ulid>().ok();
    if let Some(t) = segment("/admin/v1/tenants/").or_else(|| segment("/dashboard/admin/tenants/")) {
        return Some(t);
    }
    if let Some(k) = segment("/admin/v1/api-keys/") {
        return engine.tenant_of_key_id(k);
    }
    if let Some(p) = segment("/admin/v1/phones/") {
        return engine.tenant_of_phone(p);
    }
    if path == "/admin/v1/phones" {
        #[derive(serde::Deserialize)]
        struct Named {
            tenant_id: Option<String>,
        }
        let named: Option<Named> = match body {
            Some(b) => serde_json::from_slice(b).ok(),
            None => serde_urlencoded::from_str(req.query_string()).ok(),
        };
        return named?.tenant_id?.parse().ok();
    }
    if path == "/dashboard/login" {
        #[derive(serde::Deserialize)]
        struct Login {
            key: String,
        }
        let login: Login = serde_urlencoded::from_bytes(body?).ok()?;
        return engine.tenant_of_bearer(login.key.trim());
    }
    if path.starts_with("/dashboard") {
        let cookie = req.cookie(crate::dashboard::COOKIE)?;
        return engine.tenant_of_session(cookie.value());
    }
    engine.tenant_of_bearer(crate::extract::bearer_str(req.request())?)
}

async fn read_body(req: &mut ServiceRequest) -> Result<Bytes, ApiError> {
    let mut payload = req.take_payload();
    let mut buf = BytesMut::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|_| ApiError::Validation("The request body could not be read.".into()))?;
        if buf.len() + chunk.len() > MAX_BODY {
            return Err(ApiError::PayloadTooLarge);
        }
        buf.extend_from_slice(&chunk);
    }
    Ok(buf.freeze())
}

/// Gives a request back the body read from it.
fn put_back(req: &mut ServiceRequest, body: Bytes) {
    let (_, mut payload) = actix_http::h1::Payload::create(true);
    payload.unread_data(body);
    req.set_payload(payload.into());
}

/// Headers that belong to one connection, not to the request or answer.
fn hop_by_hop(name: &HeaderName) -> bool {
    matches!(
        name.as_str(),
        "connection"
            | "keep-alive"
            | "transfer-encoding"
            | "te"
            | "trailer"
            | "upgrade"
            | "proxy-authorization"
            | "proxy-authenticate"
            | "host"
            | "content-length"
    )
}

/// Sends the request on to the owner at `url` and returns its answer.
async fn send_on(
    engine: &Engine,
    req: &ServiceRequest,
    url: &str,
    path: &str,
    body: Body,
) -> Result<HttpResponse, String> {
    let stamp = engine.stamp(req.method().as_str(), path).ok_or("not in a fleet")?;
    let mut out = CLIENT.with(|c| c.request(req.method().clone(), format!("{url}{path}")));
    for (name, value) in req.headers() {
        if !hop_by_hop(name) && !name.as_str().starts_with("x-pigeon-node") {
            out = out.append_header((name.clone(), value.clone()));
        }
    }
    let time = HeaderValue::from(stamp.time);
    let node = HeaderValue::from_str(&stamp.node).map_err(|e| e.to_string())?;
    let mac = HeaderValue::from_str(&stamp.mac).map_err(|e| e.to_string())?;
    out = out.insert_header((NODE, node)).insert_header((NODE_TIME, time)).insert_header((NODE_MAC, mac));
    if let Some(peer) = req.peer_addr() {
        out = out.insert_header((NODE_CLIENT, peer.ip().to_string()));
    }
    let sent = match body {
        Body::Whole(b) => out.send_body(b).await,
        Body::Stream(p) => out.send_stream(p).await,
    };
    let mut answer = sent.map_err(|e| e.to_string())?;
    let mut res = HttpResponse::build(answer.status());
    for (name, value) in answer.headers() {
        if !hop_by_hop(name) && name != header::DATE {
            res.append_header((name.clone(), value.clone()));
        }
    }
    // An event stream is passed on as it comes (it lasts minutes); any other answer whole.
    let streamed = answer
        .headers()
        .get(header::CONTENT_TYPE)
        .is_some_and(|v| v.as_bytes().starts_with(b"text/event-stream"));
    if streamed {
        return Ok(res.streaming(answer));
    }
    let bytes = answer.body().limit(MAX_ANSWER).await.map_err(|e| e.to_string())?;
    Ok(res.body(bytes))
}

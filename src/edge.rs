//! The middleware: gives every request an id, turns panics into the 500 envelope, rewrites any non-JSON error (from actix itself) into the envelope, adds the rate-limit
//! headers the authenticating extractor left behind, and logs one line per request, never a secret.

use std::panic::AssertUnwindSafe;
use std::time::Instant;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{self, HeaderName, HeaderValue};
use actix_web::middleware::Next;
use actix_web::{HttpMessage, ResponseError};
use futures_util::FutureExt;
use pigeon_actors::RateInfo;
use tracing::Instrument;

use crate::error::ApiError;

/// Header carrying the request id on every answer.
pub const REQUEST_ID: HeaderName = HeaderName::from_static("x-request-id");

/// The tenant a request was authenticated as, left in its extensions for the request's log line.
#[derive(Clone, Copy)]
pub struct Caller(pub ulid::Ulid);

impl Caller {
    /// Notes that `req` acts for `tenant`.
    pub fn mark(req: &actix_web::HttpRequest, tenant: ulid::Ulid) {
        req.extensions_mut().insert(Caller(tenant));
    }
}

/// The outer middleware; wrap the app with `from_fn(edge::edge)`. It must not clone the request:
/// actix's router needs it unshared until a resource has matched.
pub async fn edge(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let started = Instant::now();
    let request_id = ulid::Ulid::generate().to_string();
    let method = req.method().clone();
    let span = tracing::info_span!(
        "request",
        id = %request_id,
        method = %method,
        path = %req.path(),
        tenant_id = tracing::field::Empty
    );
    let mut res = next.call(req).instrument(span.clone()).await?.map_into_boxed_body();
    let status = res.status();
    if status.as_u16() >= 400 && !is_json(res.headers()) {
        let (req, _) = res.into_parts();
        res = ServiceResponse::new(req, ApiError::from_status(status).error_response());
    }
    let rate = res.request().extensions().get::<RateInfo>().copied();
    if let Some(Caller(tenant)) = res.request().extensions().get::<Caller>().copied() {
        span.record("tenant_id", tracing::field::display(tenant));
    }
    let headers = res.headers_mut();
    if let Ok(v) = HeaderValue::from_str(&request_id) {
        headers.insert(REQUEST_ID, v);
    }
    if let Some(r) = rate {
        headers.insert(HeaderName::from_static("x-ratelimit-limit"), r.limit.into());
        headers.insert(HeaderName::from_static("x-ratelimit-remaining"), r.remaining.into());
        headers.insert(HeaderName::from_static("x-ratelimit-reset"), r.reset.into());
    }
    let status = res.status().as_u16();
    let secs = started.elapsed().as_secs_f64();
    let route = res.request().match_pattern().unwrap_or_else(|| "unmatched".into());
    let m = method.as_str().to_owned();
    metrics::counter!("pigeon_http_requests_total", "method" => m.clone(), "route" => route.clone(), "status" => status.to_string())
        .increment(1);
    metrics::histogram!("pigeon_http_request_duration_seconds", "method" => m, "route" => route).record(secs);
    // Rounded to the microsecond: the float's last digits are noise (`ms=0.25693200000000005`).
    let ms = (secs * 1e6).round() / 1e3;
    span.in_scope(|| {
        // 503s are states the node tells clients of (no phone, a full disk: logged once where
        // they start), not failures of this request.
        if status >= 500 && status != 503 {
            tracing::warn!(status, ms, "answered");
        } else {
            tracing::info!(status, ms, "answered");
        }
    });
    Ok(res)
}

/// The inner middleware, wrapped around every resource (after routing, so the request may be
/// cloned): a panicking handler answers the 500 envelope instead of dropping the connection.
pub async fn catch_panic(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    let http_req = req.request().clone();
    match AssertUnwindSafe(next.call(req)).catch_unwind().await {
        Ok(Ok(res)) => Ok(res.map_into_boxed_body()),
        Ok(Err(e)) => Ok(ServiceResponse::from_err(e, http_req)),
        Err(panic) => {
            let what = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_default();
            tracing::error!(panic = %what, "handler panicked");
            Ok(ServiceResponse::new(http_req, ApiError::Internal.error_response()))
        }
    }
}

/// True for our own answers: JSON, and the dashboard's HTML pages.
fn is_json(h: &header::HeaderMap) -> bool {
    h.get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.starts_with("application/json") || v.starts_with("text/html"))
}

#[cfg(test)]
mod tests {
    use actix_web::{middleware::from_fn, test, web, App, HttpResponse};

    async fn boom() -> HttpResponse {
        panic!("kaboom")
    }

    #[actix_web::test]
    async fn a_panicking_handler_answers_the_500_envelope() {
        let app = test::init_service(
            App::new()
                .wrap(from_fn(super::edge))
                .service(web::resource("/boom").route(web::get().to(boom)).wrap(from_fn(super::catch_panic)))
                .route("/plain", web::get().to(|| async { HttpResponse::BadRequest().body("nope") })),
        )
        .await;
        let res = test::call_service(&app, test::TestRequest::get().uri("/boom").to_request()).await;
        assert_eq!(res.status(), 500);
        assert!(res.headers().contains_key("x-request-id"));
        let body: serde_json::Value = test::read_body_json(res).await;
        assert_eq!(body["code"], "INTERNAL_ERROR");
        assert!(body.get("data").is_none());

        let res = test::call_service(&app, test::TestRequest::get().uri("/plain").to_request()).await;
        assert_eq!(res.status(), 400);
        let body: serde_json::Value = test::read_body_json(res).await;
        assert_eq!(body["code"], "VALIDATION_ERROR");
    }
}

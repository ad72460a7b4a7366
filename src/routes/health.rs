//! Liveness, readiness and the API description.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use pigeon_actors::Engine;
use serde::Serialize;
use utoipa::{OpenApi, ToSchema};

use super::{reply, ApiDoc, DataBody, ErrorBody};
use crate::error::ApiError;

/// State of a probe.
#[derive(Serialize, ToSchema)]
pub struct Status {
    /// `ok` or `ready`.
    pub status: &'static str,
}

/// The process is up.
#[utoipa::path(get, path = "/healthz", tag = "operations",
    responses((status = 200, body = DataBody<Status>)))]
pub async fn healthz() -> HttpResponse {
    reply(StatusCode::OK, Status { status: "ok" })
}

/// The store answers reads and takes writes, and the engine runs: traffic can be sent here.
/// 503 `STORAGE_UNAVAILABLE` while writes fail (a full disk), `NOT_READY` when the store does
/// not answer at all.
#[utoipa::path(get, path = "/readyz", tag = "operations",
    responses((status = 200, body = DataBody<Status>), (status = 503, body = ErrorBody)))]
pub async fn readyz(engine: web::Data<Engine>) -> Result<HttpResponse, ApiError> {
    if !engine.is_healthy() {
        Err(ApiError::NotReady)
    } else if engine.store_writable() != pigeon_actors::storage::Writable::Yes {
        Err(ApiError::StorageUnavailable)
    } else {
        Ok(reply(StatusCode::OK, Status { status: "ready" }))
    }
}

/// This document.
#[utoipa::path(get, path = "/openapi.json", tag = "operations",
    responses((status = 200, description = "OpenAPI 3.1 document")))]
pub async fn openapi() -> HttpResponse {
    HttpResponse::Ok().json(ApiDoc::openapi())
}

/// The same document, indented, as `pigeon openapi` prints it and `clients/openapi.json` holds it.
pub fn document() -> String {
    ApiDoc::openapi().to_pretty_json().expect("the OpenAPI document serializes")
}

/// Prometheus text: requests by route and status, latency histograms, group-commit and actor
/// figures, the work waiting (queued, in flight, held, webhook deliveries), and each thread group's
/// CPU time and wait for a core. Unauthenticated, like the probes: it holds no tenant data.
#[utoipa::path(get, path = "/metrics", tag = "operations",
    responses((status = 200, description = "Prometheus text exposition format", content_type = "text/plain")))]
pub async fn metrics(
    engine: web::Data<Engine>,
    gate: web::Data<crate::server::overload::Gate>,
) -> HttpResponse {
    let text = crate::exposition::scrape(&engine, &gate).await;
    HttpResponse::Ok().content_type("text/plain; version=0.0.4; charset=utf-8").body(text)
}

/// Whether `POST /bench/noop` answers (off unless the operator asks: it is a measuring aid).
#[derive(Clone, Copy)]
pub struct BenchRoutes(pub bool);

/// The load harness's baseline: parses the same JSON as `POST /v1/messages` and answers 202,
/// touching no actor and no store. 404 unless the server runs with `--bench-routes`.
#[utoipa::path(post, path = "/bench/noop", tag = "operations",
    request_body = super::messages::SendBody,
    responses((status = 202, body = DataBody<Status>), (status = 404, body = ErrorBody)))]
pub async fn noop(
    enabled: web::Data<BenchRoutes>,
    body: Result<crate::extract::Json<super::messages::SendBody>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    if !enabled.0 {
        return Err(ApiError::NotFound("No route POST /bench/noop.".into()));
    }
    let _ = body?;
    Ok(reply(StatusCode::ACCEPTED, Status { status: "noop" }))
}

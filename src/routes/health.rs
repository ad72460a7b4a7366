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
    let handle = crate::telemetry::metrics();
    let c = engine.commit_stats();
    metrics::counter!("pigeon_store_flushes_total").absolute(c.flushes);
    metrics::counter!("pigeon_store_commits_total").absolute(c.commits);
    metrics::counter!("pigeon_store_flush_microseconds_total").absolute(c.flush_micros);
    metrics::counter!("pigeon_store_slow_flushes_total").absolute(c.slow_flushes);
    metrics::counter!("pigeon_store_flushes_over_50ms_total").absolute(c.flushes_over_50ms);
    metrics::counter!("pigeon_store_flushes_over_250ms_total").absolute(c.flushes_over_250ms);
    metrics::counter!("pigeon_store_blobs_synced_total").absolute(c.blobs_synced);
    metrics::counter!("pigeon_store_log_sync_microseconds_total").absolute(c.sync_micros);
    metrics::counter!("pigeon_store_log_syncs_over_50ms_total").absolute(c.syncs_over_50ms);
    metrics::gauge!("pigeon_tenant_actors").set(engine.running_tenants() as f64);
    metrics::counter!("pigeon_actor_passivations_total").absolute(engine.passivations());
    metrics::gauge!("pigeon_store_size_bytes").set(engine.store_size() as f64);
    metrics::counter!("pigeon_store_writes_total").absolute(engine.store_writes());
    let cold = engine.store_cold_pages();
    metrics::counter!("pigeon_store_cold_pages_deferred_total").absolute(cold.deferred);
    metrics::gauge!("pigeon_store_cold_pages_waiting").set(cold.waiting as f64);
    let seg = engine.store_segments();
    for (state, n) in
        [("free", seg.free), ("active", seg.active), ("inactive", seg.inactive), ("draining", seg.draining)]
    {
        metrics::gauge!("pigeon_store_segments", "state" => state).set(n as f64);
    }
    metrics::gauge!("pigeon_store_live_bytes").set(seg.live_bytes as f64);
    metrics::gauge!("pigeon_store_pages").set(seg.pages as f64);
    let d = engine.depths().await;
    metrics::gauge!("pigeon_messages_queued").set(d.queued as f64);
    metrics::gauge!("pigeon_messages_in_flight").set(d.in_flight as f64);
    metrics::gauge!("pigeon_messages_held").set(d.held as f64);
    metrics::gauge!("pigeon_webhook_deliveries_pending").set(d.webhook_deliveries as f64);
    metrics::gauge!("pigeon_sends_pending").set(gate.pending() as f64);
    metrics::gauge!("pigeon_sends_shedding").set(if gate.shedding() { 1.0 } else { 0.0 });
    metrics::gauge!("pigeon_sends_bound").set(gate.bound() as f64);
    for (thread, t) in crate::telemetry::thread_times() {
        metrics::counter!("pigeon_thread_cpu_microseconds_total", "thread" => thread.clone())
            .absolute(t.cpu_micros);
        metrics::counter!("pigeon_thread_wait_microseconds_total", "thread" => thread)
            .absolute(t.wait_micros);
    }
    handle.run_upkeep();
    HttpResponse::Ok().content_type("text/plain; version=0.0.4; charset=utf-8").body(handle.render())
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

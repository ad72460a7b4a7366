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

/// The store answers and the engine runs: traffic can be sent here.
#[utoipa::path(get, path = "/readyz", tag = "operations",
    responses((status = 200, body = DataBody<Status>), (status = 503, body = ErrorBody)))]
pub async fn readyz(engine: web::Data<Engine>) -> Result<HttpResponse, ApiError> {
    if engine.store().is_healthy() {
        Ok(reply(StatusCode::OK, Status { status: "ready" }))
    } else {
        Err(ApiError::NotReady)
    }
}

/// This document.
#[utoipa::path(get, path = "/openapi.json", tag = "operations",
    responses((status = 200, description = "OpenAPI 3.1 document")))]
pub async fn openapi() -> HttpResponse {
    HttpResponse::Ok().json(ApiDoc::openapi())
}

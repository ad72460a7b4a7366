//! `/v1/templates`: message templates with `{{ variable }}` placeholders.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use chrono::{DateTime, Utc};
use pigeon_actors::storage::model::TemplateRecord;
use pigeon_actors::Engine;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{page as list_page, reply, DataBody, Deleted, ErrorBody, ListBody};
use crate::error::ApiError;
use crate::extract::{parse_id, Json, Page, Tenant};

/// Body of `POST /v1/templates`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateTemplate {
    /// Unique in the account, 1–100 characters.
    #[schema(min_length = 1, max_length = 100)]
    pub name: String,
    /// 1–10,000 characters; `{{ name }}` placeholders.
    #[schema(min_length = 1, max_length = 10000)]
    pub body: String,
}

/// Body of `PATCH /v1/templates/{id}`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PatchTemplate {
    /// New name.
    #[serde(default)]
    #[schema(min_length = 1, max_length = 100)]
    pub name: Option<String>,
    /// New body.
    #[serde(default)]
    #[schema(min_length = 1, max_length = 10000)]
    pub body: Option<String>,
}

/// A template.
#[derive(Serialize, ToSchema)]
pub struct TemplateView {
    /// Template id.
    pub id: String,
    /// Name.
    pub name: String,
    /// Body.
    pub body: String,
    /// Its variables, in order of first use.
    pub variables: Vec<String>,
    /// Creation time.
    #[serde(with = "pigeon_actors::storage::ts")]
    pub created_at: DateTime<Utc>,
    /// Last change.
    #[serde(with = "pigeon_actors::storage::ts")]
    pub updated_at: DateTime<Utc>,
}

impl From<TemplateRecord> for TemplateView {
    fn from(t: TemplateRecord) -> Self {
        Self {
            id: t.id.to_string(),
            name: t.name,
            body: t.body,
            variables: t.variables,
            created_at: t.created_at,
            updated_at: t.updated_at,
        }
    }
}

/// Creates a template; malformed braces are a 400, a taken name a 409.
#[utoipa::path(post, path = "/v1/templates", tag = "templates", security(("api_key" = [])),
    request_body = CreateTemplate,
    responses((status = 201, body = DataBody<TemplateView>), (status = 400, body = ErrorBody),
        (status = 409, description = "DUPLICATE_TEMPLATE", body = ErrorBody)))]
pub async fn create(
    tenant: Tenant,
    body: Result<Json<CreateTemplate>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let Json(b) = body?;
    let t = tenant.handle.put_template(None, Some(b.name), Some(b.body)).await?;
    Ok(reply(StatusCode::CREATED, TemplateView::from(t)))
}

/// The account's templates, oldest first.
#[utoipa::path(get, path = "/v1/templates", tag = "templates", security(("api_key" = [])),
    params(("limit" = Option<u32>, Query, description = "1–100, default 50"),
        ("after" = Option<String>, Query, description = "cursor from next_cursor")),
    responses((status = 200, body = ListBody<TemplateView>)))]
pub async fn list(
    tenant: Tenant,
    engine: web::Data<Engine>,
    page: Result<Page, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let page = page?;
    let items = engine.reads(tenant.id).templates(page.after, page.limit + 1)?;
    let items: Vec<TemplateView> = items.into_iter().map(TemplateView::from).collect();
    Ok(list_page(items, page.limit, |t| t.id.parse().unwrap_or_default()))
}

/// One template.
#[utoipa::path(get, path = "/v1/templates/{id}", tag = "templates", security(("api_key" = [])),
    params(("id" = String, Path, description = "template id")),
    responses((status = 200, body = DataBody<TemplateView>), (status = 404, body = ErrorBody)))]
pub async fn get(
    tenant: Tenant,
    engine: web::Data<Engine>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&id, "template")?;
    let t = engine.reads(tenant.id).template(id)?;
    Ok(reply(StatusCode::OK, TemplateView::from(t)))
}

/// Renames a template or changes its body.
#[utoipa::path(patch, path = "/v1/templates/{id}", tag = "templates", security(("api_key" = [])),
    params(("id" = String, Path, description = "template id")), request_body = PatchTemplate,
    responses((status = 200, body = DataBody<TemplateView>), (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, body = ErrorBody)))]
pub async fn patch(
    tenant: Tenant,
    id: web::Path<String>,
    body: Result<Json<PatchTemplate>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&id, "template")?;
    let Json(b) = body?;
    let t = tenant.handle.put_template(Some(id), b.name, b.body).await?;
    Ok(reply(StatusCode::OK, TemplateView::from(t)))
}

/// Deletes a template; messages sent with it keep its name.
#[utoipa::path(delete, path = "/v1/templates/{id}", tag = "templates", security(("api_key" = [])),
    params(("id" = String, Path, description = "template id")),
    responses((status = 200, body = DataBody<Deleted>), (status = 404, body = ErrorBody)))]
pub async fn delete(tenant: Tenant, id: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&id, "template")?;
    tenant.handle.delete_template(id).await?;
    Ok(reply(StatusCode::OK, Deleted { id: id.to_string(), deleted: true }))
}

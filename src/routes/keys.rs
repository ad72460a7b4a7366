//! `/v1/api-keys`: a tenant's own keys.

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use chrono::{DateTime, Utc};
use pigeon_actors::storage::model::{ApiKeyRecord, Environment, Scope, Scopes};
use pigeon_actors::NewKey;
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{page as list_page, reply, DataBody, ErrorBody, ListBody};
use crate::error::ApiError;
use crate::extract::{parse_id, Json, Page, Tenant};

/// Body of `POST /v1/api-keys`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateKey {
    /// Label, 1–100 characters.
    #[schema(min_length = 1, max_length = 100)]
    pub name: String,
    /// Calls per minute, 1 to the plan's ceiling; the plan's default when omitted.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 4294967295_u64)]
    pub rate_limit: Option<u64>,
    /// `live` or `test`; the caller's own when omitted. A test key creates only test keys.
    #[serde(default)]
    #[schema(value_type = Option<String>, example = "live")]
    pub environment: Option<Environment>,
    /// Any of `send`, `read`, `manage` (at least one); the caller's own when omitted. A key
    /// gives only scopes it has (else 403 `INSUFFICIENT_SCOPE`).
    #[serde(default)]
    #[schema(min_items = 1, example = json!(["send", "read"]))]
    pub scopes: Option<Vec<String>>,
}

/// A key as created: the only answer that holds the full key.
#[derive(Serialize, ToSchema)]
pub struct KeyCreated {
    /// Key id (ULID).
    #[schema(value_type = String)]
    pub id: ulid::Ulid,
    /// Label.
    pub name: String,
    /// The full key. Store it now: it is never shown again.
    pub key: String,
    /// Calls per minute; null is unlimited (scale plan).
    pub rate_limit: Option<u32>,
    /// `live` or `test`.
    #[schema(value_type = String)]
    pub environment: Environment,
    /// What it may do: `send`, `read`, `manage`.
    #[schema(value_type = Vec<String>)]
    pub scopes: Scopes,
    /// Creation time.
    #[serde(with = "pigeon_actors::storage::ts")]
    pub created_at: DateTime<Utc>,
}

impl From<NewKey> for KeyCreated {
    fn from(k: NewKey) -> Self {
        let r = k.record;
        Self {
            id: r.id,
            name: r.name,
            key: k.key,
            rate_limit: k.effective_rate_limit,
            environment: r.environment,
            scopes: r.scopes,
            created_at: r.created_at,
        }
    }
}

/// A key as listed.
#[derive(Serialize, ToSchema)]
pub struct KeyItem {
    /// Key id (ULID).
    #[schema(value_type = String)]
    pub id: ulid::Ulid,
    /// Label.
    pub name: String,
    /// `...` and the key's last four characters.
    pub key_hint: String,
    /// Calls per minute in force; null is unlimited.
    pub rate_limit: Option<u32>,
    /// `live` or `test`.
    #[schema(value_type = String)]
    pub environment: Environment,
    /// What it may do: `send`, `read`, `manage`.
    #[schema(value_type = Vec<String>)]
    pub scopes: Scopes,
    /// Last successful use; null if never used.
    #[serde(with = "pigeon_actors::storage::ts::option")]
    pub last_used_at: Option<DateTime<Utc>>,
    /// Creation time.
    #[serde(with = "pigeon_actors::storage::ts")]
    pub created_at: DateTime<Utc>,
}

impl KeyItem {
    fn new(r: ApiKeyRecord, rate_limit: Option<u32>) -> Self {
        Self {
            id: r.id,
            name: r.name,
            key_hint: r.hint,
            rate_limit,
            environment: r.environment,
            scopes: r.scopes,
            last_used_at: r.last_used_at,
            created_at: r.created_at,
        }
    }
}

/// Answer of a revocation.
#[derive(Serialize, ToSchema)]
pub struct Revoked {
    /// Key id.
    pub id: String,
    /// Always true.
    pub revoked: bool,
}

/// Checks a new key's name (1–100 characters, trimmed) and environment (the caller's when not
/// given; a test caller makes only test keys). The API and the dashboard both ask this.
pub fn new_key_request(
    name: &str,
    asked: Option<Environment>,
    caller: Environment,
) -> Result<(String, Environment), ApiError> {
    let name = name.trim().to_owned();
    if name.is_empty() || name.chars().count() > 100 {
        return Err(ApiError::Validation("name: must be 1 to 100 characters".into()));
    }
    let environment = asked.unwrap_or(caller);
    if caller == Environment::Test && environment == Environment::Live {
        return Err(ApiError::Validation("environment: a test key can create only test keys".into()));
    }
    Ok((name, environment))
}

/// A new key's scopes: `given` (at least one, each known), else `default`; a scope outside
/// `allowed` (what the creating key has) is 403 `INSUFFICIENT_SCOPE`.
pub fn key_scopes(given: Option<Vec<String>>, default: Scopes, allowed: Scopes) -> Result<Scopes, ApiError> {
    let Some(given) = given else { return Ok(default) };
    let mut out = Vec::new();
    for name in &given {
        out.push(Scope::parse(name).ok_or_else(|| {
            ApiError::Validation(format!("scopes: unknown scope {name:?}; known: send, read, manage"))
        })?);
    }
    let scopes = Scopes::of(out);
    if scopes.is_empty() {
        return Err(ApiError::Validation("scopes: name at least one of send, read, manage".into()));
    }
    if !allowed.covers(scopes) {
        return Err(ApiError::InsufficientScope("scopes: a key gives only scopes it has".into()));
    }
    Ok(scopes)
}

/// Creates a key for the caller's tenant.
#[utoipa::path(post, path = "/v1/api-keys", tag = "api keys", security(("api_key" = [])),
    request_body = CreateKey,
    responses((status = 201, body = DataBody<KeyCreated>), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody), (status = 403, description = "INSUFFICIENT_SCOPE", body = ErrorBody),
        (status = 429, body = ErrorBody)))]
pub async fn create(
    tenant: Tenant,
    body: Result<Json<CreateKey>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let Json(body) = body?;
    let (name, environment) = new_key_request(&body.name, body.environment, tenant.environment)?;
    let scopes = key_scopes(body.scopes, tenant.scopes, tenant.scopes)?;
    let key = tenant.handle.create_key(name, body.rate_limit, environment, scopes).await?;
    Ok(reply(StatusCode::CREATED, KeyCreated::from(key)))
}

/// Lists the tenant's active keys; never the key itself, only `key_hint`.
#[utoipa::path(get, path = "/v1/api-keys", tag = "api keys", security(("api_key" = [])),
    params(("limit" = Option<u32>, Query, description = "1–100, default 50"),
        ("after" = Option<String>, Query, description = "cursor from next_cursor")),
    responses((status = 200, body = ListBody<KeyItem>), (status = 401, body = ErrorBody)))]
pub async fn list(tenant: Tenant, page: Result<Page, ApiError>) -> Result<HttpResponse, ApiError> {
    let page = page?;
    let items: Vec<KeyItem> = tenant
        .handle
        .list_keys()
        .await?
        .into_iter()
        .filter(|(r, _)| page.after.is_none_or(|a| r.id > a))
        .take(page.limit + 1)
        .map(|(r, rate)| KeyItem::new(r, rate))
        .collect();
    Ok(list_page(items, page.limit, |k| k.id))
}

/// Revokes a key, at once and for good; later calls with it answer 401. A test key revokes only
/// test keys.
#[utoipa::path(delete, path = "/v1/api-keys/{id}", tag = "api keys", security(("api_key" = [])),
    params(("id" = String, Path, description = "key id")),
    responses((status = 200, body = DataBody<Revoked>), (status = 404, body = ErrorBody),
        (status = 403, description = "INSUFFICIENT_SCOPE: a test key revoking a live key", body = ErrorBody)))]
pub async fn revoke(tenant: Tenant, id: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let key_id = parse_id(&id, "API key")?;
    if tenant.environment == Environment::Test {
        // Test mode is walled off: a test key revokes test keys only.
        let keys = tenant.handle.list_keys().await?;
        let live = keys.iter().any(|(k, _)| k.id == key_id && k.environment == Environment::Live);
        if live {
            return Err(ApiError::InsufficientScope("A test key cannot revoke a live key.".into()));
        }
    }
    tenant.handle.revoke_key(key_id).await?;
    Ok(reply(StatusCode::OK, Revoked { id: key_id.to_string(), revoked: true }))
}

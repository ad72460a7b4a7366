//! `/admin/v1/`: the operator's API (tenants, plans, suspension, key switches).

use actix_web::http::StatusCode;
use actix_web::{web, HttpResponse};
use chrono::{DateTime, Utc};
use pigeon_actors::storage::model::{Plan, QuietHours, TenantRecord, TenantStatus};
use pigeon_actors::{QuietHoursPatch, TenantPatch, Usage};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::keys::KeyCreated;
use super::{page as list_page, reply, DataBody, ErrorBody, ListBody};
use crate::error::ApiError;
use crate::extract::{parse_id, Admin, Json, Page};

/// Body of `POST /admin/v1/tenants`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct CreateTenant {
    /// Label, 1–200 characters.
    #[schema(min_length = 1, max_length = 200)]
    pub name: String,
    /// `trial` (default), `starter`, `growth` or `scale`.
    #[serde(default)]
    #[schema(value_type = Option<String>, example = "trial")]
    pub plan: Option<Plan>,
}

/// Quiet-hours window, in the recipient's local time.
#[derive(Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct QuietHoursBody {
    /// Off: messages go out at any hour.
    pub enabled: bool,
    /// `HH:MM`, start of the quiet window.
    pub start: String,
    /// `HH:MM`, end of the quiet window.
    pub end: String,
    /// IANA zone used when the recipient's zone cannot be told (null: UTC).
    #[serde(default)]
    pub timezone: Option<String>,
}

impl From<QuietHours> for QuietHoursBody {
    fn from(q: QuietHours) -> Self {
        Self { enabled: q.enabled, start: q.start, end: q.end, timezone: q.timezone }
    }
}

/// What an operator sees of a tenant's usage.
#[derive(Serialize, ToSchema)]
pub struct UsageView {
    /// Live API calls counted this UTC month.
    pub api_calls_this_month: u64,
    /// First-time recipients today (UTC).
    pub new_contacts_today: u64,
}

/// A tenant as the operator sees it; limits are the ones in force.
#[derive(Serialize, ToSchema)]
pub struct TenantView {
    /// Tenant id (ULID).
    pub id: String,
    /// Label.
    pub name: String,
    /// Plan.
    #[schema(value_type = String, example = "trial")]
    pub plan: Plan,
    /// `active` or `suspended`.
    #[schema(value_type = String, example = "active")]
    pub status: TenantStatus,
    /// A subscription keeps a trial tenant in after `trial_ends_at`.
    pub subscription_active: bool,
    /// End of the 14-day trial.
    #[serde(with = "pigeon_actors::storage::ts")]
    pub trial_ends_at: DateTime<Utc>,
    /// First-time recipients allowed per UTC day.
    pub new_contact_daily_limit: u32,
    /// API calls allowed per UTC month; null is unlimited.
    pub monthly_call_limit: Option<u64>,
    /// Bytes of media the account may store; null is unlimited.
    pub media_bytes_limit: Option<u64>,
    /// Quiet hours.
    pub quiet_hours: QuietHoursBody,
    /// Creation time.
    #[serde(with = "pigeon_actors::storage::ts")]
    pub created_at: DateTime<Utc>,
    /// Usage so far.
    pub usage: UsageView,
}

impl TenantView {
    fn new(t: TenantRecord, u: Usage) -> Self {
        Self {
            id: t.id.to_string(),
            new_contact_daily_limit: t.effective_new_contacts(),
            monthly_call_limit: t.effective_monthly_calls(),
            media_bytes_limit: t.effective_media_bytes(),
            name: t.name,
            plan: t.plan,
            status: t.status,
            subscription_active: t.subscription_active,
            trial_ends_at: t.trial_ends_at,
            quiet_hours: t.quiet_hours.into(),
            created_at: t.created_at,
            usage: UsageView {
                api_calls_this_month: u.api_calls_this_month,
                new_contacts_today: u.new_contacts_today,
            },
        }
    }
}

/// The two keys every new tenant gets.
#[derive(Serialize, ToSchema)]
pub struct NewTenantKeys {
    /// `svc_live_` key, shown once.
    pub live: KeyCreated,
    /// `svc_test_` key, shown once.
    pub test: KeyCreated,
}

/// Answer of tenant creation.
#[derive(Serialize, ToSchema)]
pub struct TenantCreated {
    /// The tenant.
    #[serde(flatten)]
    pub tenant: TenantView,
    /// Its first keys.
    pub keys: NewTenantKeys,
}

/// Body of `PATCH /admin/v1/tenants/{id}`: every field optional.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct PatchTenantBody {
    /// New plan.
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub plan: Option<Plan>,
    /// `active` or `suspended`.
    #[serde(default)]
    #[schema(value_type = Option<String>)]
    pub status: Option<TenantStatus>,
    /// Paid subscription on or off.
    #[serde(default)]
    pub subscription_active: Option<bool>,
    /// Move the end of the trial (RFC 3339).
    #[serde(default, with = "pigeon_actors::storage::ts::option")]
    pub trial_ends_at: Option<DateTime<Utc>>,
    /// Override of new contacts per day; null returns to the plan's.
    #[serde(default, deserialize_with = "super::nullable")]
    pub new_contact_daily_limit: Option<Option<u32>>,
    /// Override of API calls per month; null returns to the plan's.
    #[serde(default, deserialize_with = "super::nullable")]
    pub monthly_call_limit: Option<Option<u64>>,
    /// Override of the bytes of media the account may store; null returns to the plan's.
    #[serde(default, deserialize_with = "super::nullable")]
    pub media_bytes_limit: Option<Option<u64>>,
    /// Changes to the quiet-hours window: only the fields given change.
    #[serde(default, deserialize_with = "super::object")]
    pub quiet_hours: Option<QuietHoursPatchBody>,
}

/// Changes to a quiet-hours window; a field left out keeps its value.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct QuietHoursPatchBody {
    /// Off: messages go out at any hour.
    #[serde(default)]
    pub enabled: Option<bool>,
    /// `HH:MM`, start of the quiet window.
    #[serde(default)]
    pub start: Option<String>,
    /// `HH:MM`, end of the quiet window.
    #[serde(default)]
    pub end: Option<String>,
    /// IANA zone used when the recipient's zone cannot be told; null: back to UTC.
    #[serde(default, deserialize_with = "super::nullable")]
    pub timezone: Option<Option<String>>,
}

impl From<QuietHoursPatchBody> for QuietHoursPatch {
    fn from(q: QuietHoursPatchBody) -> Self {
        Self { enabled: q.enabled, start: q.start, end: q.end, timezone: q.timezone }
    }
}

/// Answer of a key switch.
#[derive(Serialize, ToSchema)]
pub struct KeyActive {
    /// Key id.
    pub id: String,
    /// False while deactivated.
    pub active: bool,
}

/// Creates a tenant with a live and a test key (each shown once).
#[utoipa::path(post, path = "/admin/v1/tenants", tag = "operator", security(("admin_token" = [])),
    request_body = CreateTenant,
    responses((status = 201, body = DataBody<TenantCreated>), (status = 400, body = ErrorBody),
        (status = 401, body = ErrorBody)))]
pub async fn create_tenant(
    Admin(engine): Admin,
    body: Result<Json<CreateTenant>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let Json(body) = body?;
    let name = body.name.trim().to_owned();
    if name.is_empty() || name.chars().count() > 200 {
        return Err(ApiError::Validation("name: must be 1 to 200 characters".into()));
    }
    let created = engine.create_tenant(name, body.plan.unwrap_or_default()).await?;
    let usage = Usage { api_calls_this_month: 0, new_contacts_today: 0 };
    Ok(reply(
        StatusCode::CREATED,
        TenantCreated {
            tenant: TenantView::new(created.tenant, usage),
            keys: NewTenantKeys { live: created.live.into(), test: created.test.into() },
        },
    ))
}

/// Lists tenants, oldest first, with usage.
#[utoipa::path(get, path = "/admin/v1/tenants", tag = "operator", security(("admin_token" = [])),
    params(("limit" = Option<u32>, Query, description = "1–100, default 50"),
        ("after" = Option<String>, Query, description = "cursor from next_cursor")),
    responses((status = 200, body = ListBody<TenantView>), (status = 401, body = ErrorBody)))]
pub async fn list_tenants(
    Admin(engine): Admin,
    page: Result<Page, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let page = page?;
    let items: Vec<TenantView> = engine
        .list_tenants(page.after, page.limit + 1)?
        .into_iter()
        .map(|(t, u)| TenantView::new(t, u))
        .collect();
    Ok(list_page(items, page.limit, |t| t.id.parse().unwrap_or_default()))
}

/// One tenant with usage.
#[utoipa::path(get, path = "/admin/v1/tenants/{id}", tag = "operator", security(("admin_token" = [])),
    params(("id" = String, Path, description = "tenant id")),
    responses((status = 200, body = DataBody<TenantView>), (status = 404, body = ErrorBody)))]
pub async fn get_tenant(Admin(engine): Admin, id: web::Path<String>) -> Result<HttpResponse, ApiError> {
    let (t, u) = engine.tenant_view(parse_id(&id, "tenant")?)?;
    Ok(reply(StatusCode::OK, TenantView::new(t, u)))
}

/// Changes plan, status, subscription, trial end, limits or quiet hours.
#[utoipa::path(patch, path = "/admin/v1/tenants/{id}", tag = "operator", security(("admin_token" = [])),
    params(("id" = String, Path, description = "tenant id")), request_body = PatchTenantBody,
    responses((status = 200, body = DataBody<TenantView>), (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody)))]
pub async fn patch_tenant(
    Admin(engine): Admin,
    id: web::Path<String>,
    body: Result<Json<PatchTenantBody>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&id, "tenant")?;
    let handle = engine.tenant(id)?;
    let Json(b) = body?;
    let patch = TenantPatch {
        plan: b.plan,
        status: b.status,
        subscription_active: b.subscription_active,
        trial_ends_at: b.trial_ends_at,
        new_contact_daily_limit: b.new_contact_daily_limit,
        monthly_call_limit: b.monthly_call_limit,
        media_bytes_limit: b.media_bytes_limit,
        quiet_hours: b.quiet_hours.map(QuietHoursPatch::from),
        ..Default::default()
    };
    handle.patch(patch).await?;
    let (t, u) = engine.tenant_view(id)?;
    Ok(reply(StatusCode::OK, TenantView::new(t, u)))
}

async fn set_active(
    engine: &pigeon_actors::Engine,
    id: &str,
    active: bool,
) -> Result<HttpResponse, ApiError> {
    let key_id = parse_id(id, "API key")?;
    let rec = engine.key_owner(key_id)?.set_key_active(key_id, active).await?;
    Ok(reply(StatusCode::OK, KeyActive { id: rec.id.to_string(), active: rec.active }))
}

/// Deactivates a key: its calls answer 403 `KEY_INACTIVE` until reactivated.
#[utoipa::path(post, path = "/admin/v1/api-keys/{id}/deactivate", tag = "operator",
    security(("admin_token" = [])), params(("id" = String, Path, description = "key id")),
    responses((status = 200, body = DataBody<KeyActive>), (status = 404, body = ErrorBody)))]
pub async fn deactivate_key(Admin(engine): Admin, id: web::Path<String>) -> Result<HttpResponse, ApiError> {
    set_active(&engine, &id, false).await
}

/// Reactivates a deactivated key (a revoked key stays revoked: 404).
#[utoipa::path(post, path = "/admin/v1/api-keys/{id}/reactivate", tag = "operator",
    security(("admin_token" = [])), params(("id" = String, Path, description = "key id")),
    responses((status = 200, body = DataBody<KeyActive>), (status = 404, body = ErrorBody)))]
pub async fn reactivate_key(Admin(engine): Admin, id: web::Path<String>) -> Result<HttpResponse, ApiError> {
    set_active(&engine, &id, true).await
}

/// A live node of the fleet.
#[derive(Serialize, ToSchema)]
pub struct NodeView {
    /// The node's id (new each time it starts).
    pub id: String,
    /// Where the other nodes forward its tenants' requests.
    pub advertise_url: String,
    /// Its version.
    pub version: String,
    /// Tenants whose live lease it holds.
    pub tenants_owned: i64,
    /// When it last renewed its leases (the database's clock).
    pub last_renewal: DateTime<Utc>,
    /// When it started.
    pub started_at: DateTime<Utc>,
    /// Whether this is the node that answered.
    pub this_node: bool,
}

/// The live nodes of the fleet sharing this node's PostgreSQL database (renewed within three
/// leases, not stopped), oldest first; a node on sled is a fleet of one and lists nothing.
#[utoipa::path(get, path = "/admin/v1/fleet", tag = "operator", security(("admin_token" = [])),
    responses((status = 200, body = DataBody<Vec<NodeView>>), (status = 401, body = ErrorBody)))]
pub async fn fleet(Admin(engine): Admin) -> Result<HttpResponse, ApiError> {
    let me = engine.node_id().map(str::to_owned);
    let nodes: Vec<NodeView> = engine
        .nodes()?
        .into_iter()
        .map(|n| NodeView {
            this_node: me.as_deref() == Some(n.id.as_str()),
            id: n.id,
            advertise_url: n.url,
            version: n.version,
            tenants_owned: n.tenants,
            last_renewal: n.renewed_at,
            started_at: n.started_at,
        })
        .collect();
    Ok(reply(StatusCode::OK, nodes))
}

/// Body of `POST /admin/v1/tenants/{id}/api-keys`.
#[derive(Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
pub struct RescueKey {
    /// Label, 1–100 characters.
    #[schema(min_length = 1, max_length = 100)]
    pub name: String,
    /// `live` (default) or `test`.
    #[serde(default)]
    #[schema(value_type = Option<String>, example = "live")]
    pub environment: Option<pigeon_actors::storage::model::Environment>,
    /// Calls per minute, 1 to the plan's ceiling; the plan's default when omitted.
    #[serde(default)]
    #[schema(minimum = 1, maximum = 4294967295_u64)]
    pub rate_limit: Option<u64>,
    /// Any of `send`, `read`, `manage` (at least one); all three when omitted.
    #[serde(default)]
    #[schema(min_items = 1)]
    pub scopes: Option<Vec<String>>,
}

/// The operator's way back in for a tenant that revoked its last key: a new key, shown once
/// (live and all scopes by default; it counts toward the tenant's 50).
#[utoipa::path(post, path = "/admin/v1/tenants/{id}/api-keys", operation_id = "create_tenant_key", tag = "operator",
    security(("admin_token" = [])), params(("id" = String, Path, description = "tenant id")),
    request_body = RescueKey,
    responses((status = 201, body = DataBody<KeyCreated>), (status = 400, body = ErrorBody),
        (status = 404, body = ErrorBody), (status = 409, description = "LIMIT_REACHED: 50 keys", body = ErrorBody)))]
pub async fn create_tenant_key(
    Admin(engine): Admin,
    id: web::Path<String>,
    body: Result<Json<RescueKey>, ApiError>,
) -> Result<HttpResponse, ApiError> {
    use pigeon_actors::storage::model::{Environment, Scopes};
    let tenant = engine.tenant(parse_id(&id, "tenant")?)?;
    let Json(b) = body?;
    let live = Environment::Live;
    let (name, environment) =
        super::keys::new_key_request(&b.name, Some(b.environment.unwrap_or(live)), live)?;
    let scopes = super::keys::key_scopes(b.scopes, Scopes::ALL, Scopes::ALL)?;
    let key = tenant.create_key(name, b.rate_limit, environment, scopes).await?;
    Ok(reply(StatusCode::CREATED, KeyCreated::from(key)))
}

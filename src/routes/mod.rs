//! The route table: the one place a route is declared. The macro registers each route with
//! actix, answers 405 for the other methods of a known path, and lists the routes in [`ROUTES`] so
//! a test can hold the OpenAPI document to them.

use actix_web::http::{Method, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse, Resource, Route};
use serde::Serialize;
use ulid::Ulid;
use utoipa::{OpenApi, ToSchema};

use crate::error::ApiError;

pub mod admin;
pub mod backup;
pub mod campaigns;
pub mod contacts;
mod document;
pub mod events;
pub mod health;
pub mod keys;
pub mod media;
pub mod message_list;
pub mod messages;
pub mod opt_outs;
pub mod phones;
pub mod query;
pub mod send_media;
pub mod settings;
pub mod templates;
pub mod webhooks;

macro_rules! routes {
    ($($method:ident $path:literal => $handler:path;)*) => {
        /// Every route the server answers, as `(METHOD, path)`.
        pub const ROUTES: &[(&str, &str)] = &[$((stringify!($method), $path)),*];

        /// Registers every route of [`ROUTES`].
        pub fn configure(cfg: &mut web::ServiceConfig) {
            let mut table: Vec<(&'static str, Resource)> = Vec::new();
            $( add(&mut table, $path, web::method(Method::$method).to($handler)); )*
            // Fixed paths first: actix tries resources in order, and a path with a `{param}`
            // is a regex match, so a send no longer pays for the ones listed before it. No
            // fixed path matches a pattern here, so the order changes no answer.
            table.sort_by_key(|(p, _)| p.contains('{'));
            for (path, r) in table {
                let allow: String =
                    ROUTES.iter().filter(|(_, p)| *p == path).map(|(m, _)| *m).collect::<Vec<_>>().join(", ");
                cfg.service(
                    r.default_service(web::to(move || method_not_allowed(allow.clone())))
                        .wrap(actix_web::middleware::from_fn(query::check))
                        .wrap(actix_web::middleware::from_fn(crate::edge::catch_panic)),
                );
            }
        }

        /// The OpenAPI document, generated from the handlers' annotations.
        #[derive(OpenApi)]
        #[openapi(
            info(title = "pigeon", description = "Multi-tenant messaging API. Conventions, limits and flows: docs/api.md."),
            paths($($handler),*),
            modifiers(&BearerAuth)
        )]
        pub struct ApiDoc;
    };
}

routes! {
    GET "/healthz" => health::healthz;
    GET "/readyz" => health::readyz;
    GET "/metrics" => health::metrics;
    GET "/openapi.json" => health::openapi;
    POST "/bench/noop" => health::noop;
    POST "/v1/api-keys" => keys::create;
    GET "/v1/api-keys" => keys::list;
    DELETE "/v1/api-keys/{id}" => keys::revoke;
    POST "/admin/v1/tenants" => admin::create_tenant;
    GET "/admin/v1/tenants" => admin::list_tenants;
    GET "/admin/v1/tenants/{id}" => admin::get_tenant;
    PATCH "/admin/v1/tenants/{id}" => admin::patch_tenant;
    POST "/admin/v1/tenants/{id}/api-keys" => admin::create_tenant_key;
    POST "/admin/v1/api-keys/{id}/deactivate" => admin::deactivate_key;
    POST "/admin/v1/api-keys/{id}/reactivate" => admin::reactivate_key;
    GET "/admin/v1/fleet" => admin::fleet;
    GET "/admin/v1/backup" => backup::backup;
    POST "/v1/messages" => messages::send;
    GET "/v1/messages" => message_list::list;
    GET "/v1/messages/{id}" => messages::get;
    DELETE "/v1/messages/{id}" => messages::cancel;
    GET "/v1/phones" => messages::phones;
    POST "/v1/detect" => messages::detect;
    POST "/admin/v1/phones" => phones::create;
    GET "/admin/v1/phones" => phones::list;
    PATCH "/admin/v1/phones/{id}" => phones::patch;
    DELETE "/admin/v1/phones/{id}" => phones::delete;
    GET "/phone/v1/me" => phones::me;
    GET "/phone/v1/jobs" => phones::jobs;
    POST "/phone/v1/messages/{id}/status" => phones::status;
    POST "/phone/v1/inbound" => phones::inbound;
    POST "/phone/v1/leases/release" => phones::release;
    POST "/phone/v1/detections/{job_id}" => phones::detection;
    POST "/phone/v1/media" => media::phone_upload;
    GET "/phone/v1/media/{id}" => media::phone_content;
    POST "/v1/webhooks" => webhooks::create;
    GET "/v1/webhooks" => webhooks::list;
    GET "/v1/webhooks/{id}" => webhooks::get;
    PATCH "/v1/webhooks/{id}" => webhooks::patch;
    DELETE "/v1/webhooks/{id}" => webhooks::delete;
    POST "/v1/webhooks/{id}/recover" => webhooks::recover;
    GET "/v1/webhooks/{id}/deliveries" => webhooks::deliveries;
    POST "/v1/webhooks/{id}/deliveries/{delivery_id}/retry" => webhooks::retry;
    POST "/v1/webhooks/{id}/rotate-secret" => webhooks::rotate_secret;
    POST "/v1/webhooks/{id}/test" => webhooks::test;
    POST "/v1/media" => media::upload;
    GET "/v1/media/{id}" => media::get;
    GET "/v1/media/{id}/content" => media::content;
    GET "/v1/events" => events::list;
    GET "/v1/settings" => settings::get;
    PATCH "/v1/settings" => settings::patch;
    GET "/v1/opt-outs" => opt_outs::list;
    POST "/v1/opt-outs" => opt_outs::create;
    DELETE "/v1/opt-outs/{phone}" => opt_outs::delete;
    POST "/v1/templates" => templates::create;
    GET "/v1/templates" => templates::list;
    GET "/v1/templates/{id}" => templates::get;
    PATCH "/v1/templates/{id}" => templates::patch;
    DELETE "/v1/templates/{id}" => templates::delete;
    POST "/v1/contacts" => contacts::create;
    GET "/v1/contacts" => contacts::list;
    GET "/v1/contacts/{id}" => contacts::get;
    PATCH "/v1/contacts/{id}" => contacts::patch;
    DELETE "/v1/contacts/{id}" => contacts::delete;
    POST "/v1/campaigns" => campaigns::create;
    GET "/v1/campaigns" => campaigns::list;
    GET "/v1/campaigns/{id}" => campaigns::get;
    POST "/v1/campaigns/{id}/launch" => campaigns::launch;
    POST "/v1/campaigns/{id}/cancel" => campaigns::cancel;
}

fn add(table: &mut Vec<(&'static str, Resource)>, path: &'static str, route: Route) {
    match table.iter().position(|(p, _)| *p == path) {
        Some(i) => {
            let (p, r) = table.remove(i);
            table.insert(i, (p, r.route(route)));
        }
        None => table.push((path, web::resource(path).route(route))),
    }
}

/// The security schemes, then what holds for every route (see `document.rs`).
struct BearerAuth;

impl utoipa::Modify for BearerAuth {
    fn modify(&self, doc: &mut utoipa::openapi::OpenApi) {
        use utoipa::openapi::security::{HttpAuthScheme, HttpBuilder, SecurityScheme};
        let c = doc.components.get_or_insert_with(Default::default);
        c.add_security_scheme(
            "api_key",
            SecurityScheme::Http(
                HttpBuilder::new()
                    .scheme(HttpAuthScheme::Bearer)
                    .description(Some(
                        "A tenant's API key (`svc_live_…`, `svc_test_…`), or a JWT of the node's identity \
                         provider naming the tenant in its tenant claim (docs/api.md, \"Signing in with an \
                         identity provider\")",
                    ))
                    .build(),
            ),
        );
        c.add_security_scheme(
            "agent_token",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        );
        c.add_security_scheme(
            "admin_token",
            SecurityScheme::Http(HttpBuilder::new().scheme(HttpAuthScheme::Bearer).build()),
        );
        document::complete(doc);
    }
}

/// Default service of the app: an unknown route.
pub async fn not_found(req: HttpRequest) -> Result<HttpResponse, ApiError> {
    Err(ApiError::NotFound(format!("No route {} {}.", req.method(), req.path())))
}

/// 405 with the `Allow` header RFC 9110 asks for: the methods the path does answer.
async fn method_not_allowed(allow: String) -> HttpResponse {
    use actix_web::ResponseError;
    let mut res = ApiError::MethodNotAllowed.error_response();
    if let Ok(v) = actix_web::http::header::HeaderValue::from_str(&allow) {
        res.headers_mut().insert(actix_web::http::header::ALLOW, v);
    }
    res
}

pub use pigeon_protocol::{DataBody, ErrorBody};

/// The success envelope of a list.
#[derive(Serialize, ToSchema)]
pub struct ListBody<T> {
    /// This page.
    pub data: Vec<T>,
    /// Pass as `after` for the next page; null at the end.
    pub next_cursor: Option<String>,
}

/// Answer of a deletion.
#[derive(Serialize, ToSchema)]
pub struct Deleted {
    /// The id.
    pub id: String,
    /// Always true.
    pub deleted: bool,
}

/// Serde helper for PATCH fields: absent → `None`; `null` → `Some(None)`; a value → `Some(Some(v))`.
pub fn nullable<'de, D: serde::Deserializer<'de>, T: serde::Deserialize<'de>>(
    d: D,
) -> Result<Option<Option<T>>, D::Error> {
    serde::Deserialize::deserialize(d).map(Some)
}

/// Serde helper for an optional nested object: only a JSON object (or null) is one. serde's
/// derived structs also take an array, read by field position (`"quiet_hours": [true, …]`); the
/// API refuses that as it refuses a top-level array (see `extract::parse_json`).
pub fn object<'de, D: serde::Deserializer<'de>, T: serde::de::DeserializeOwned>(
    d: D,
) -> Result<Option<T>, D::Error> {
    use serde::de::Error;
    match <Option<serde_json::Map<String, serde_json::Value>> as serde::Deserialize>::deserialize(d)? {
        None => Ok(None),
        Some(map) => T::deserialize(serde_json::Value::Object(map)).map(Some).map_err(D::Error::custom),
    }
}

/// Answers `{data}` with `status`.
pub fn reply<T: Serialize>(status: StatusCode, data: T) -> HttpResponse {
    HttpResponse::build(status).json(DataBody { data })
}

/// Answers a list page. `items` may hold one more than `limit`: its presence means more follow.
pub fn page<T: Serialize>(mut items: Vec<T>, limit: usize, id: impl Fn(&T) -> Ulid) -> HttpResponse {
    let next_cursor = if items.len() > limit {
        items.truncate(limit);
        items.last().map(|i| id(i).to_string())
    } else {
        None
    };
    HttpResponse::Ok().json(ListBody { data: items, next_cursor })
}

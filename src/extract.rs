//! Extractors that turn a request into validated inputs: the authenticated tenant, the operator,
//! a JSON body whose errors name the field, and list paging. Handlers take these and nothing raw.

use std::future::Future;
use std::pin::Pin;

use actix_web::dev::Payload;
use actix_web::error::PayloadError;
use actix_web::http::header;
use actix_web::{web, FromRequest, HttpMessage, HttpRequest};
use pigeon_actors::storage::model::{Environment, Scope, Scopes};
use pigeon_actors::{Engine, TenantHandle};
use serde::de::DeserializeOwned;
use serde::Deserialize;
use ulid::Ulid;

use crate::error::ApiError;
use crate::limits::{BODY_TIMEOUT, MAX_BODY};

type Fut<T> = Pin<Box<dyn Future<Output = Result<T, ApiError>>>>;

fn engine(req: &HttpRequest) -> Result<Engine, ApiError> {
    req.app_data::<web::Data<Engine>>().map(|e| e.get_ref().clone()).ok_or(ApiError::Internal)
}

/// The token of `Authorization: Bearer <token>`, if the header has that shape.
pub fn bearer(req: &HttpRequest) -> Option<String> {
    bearer_str(req).map(str::to_owned)
}

/// [`bearer`], borrowed from the request.
pub fn bearer_str(req: &HttpRequest) -> Option<&str> {
    let v = req.headers().get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, token) = v.split_once(' ')?;
    scheme.eq_ignore_ascii_case("bearer").then(|| token.trim())
}

/// The caller's tenant, authenticated by API key and charged for the call. Extracting it runs
/// auth → rate limit → monthly quota, in that order (DESIGN "check order").
pub struct Tenant {
    /// Tenant id.
    pub id: Ulid,
    /// The key the caller used.
    pub key_id: Ulid,
    /// Live or test key.
    pub environment: Environment,
    /// What the key may do (this call's scope is already checked).
    pub scopes: Scopes,
    /// The tenant's actor.
    pub handle: TenantHandle,
}

/// The scope a call needs: `send` for sends, cancels, campaign launch and cancel, detection and
/// media uploads; `read` for every `GET`; `manage` for the rest.
pub fn scope_of(method: &str, pattern: &str) -> Scope {
    const SEND: [(&str, &str); 6] = [
        ("POST", "/v1/messages"),
        ("DELETE", "/v1/messages/{id}"),
        ("POST", "/v1/campaigns/{id}/launch"),
        ("POST", "/v1/campaigns/{id}/cancel"),
        ("POST", "/v1/detect"),
        ("POST", "/v1/media"),
    ];
    if method == "GET" {
        Scope::Read
    } else if SEND.contains(&(method, pattern)) {
        Scope::Send
    } else {
        Scope::Manage
    }
}

impl FromRequest for Tenant {
    type Error = ApiError;
    type Future = Fut<Self>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let req = req.clone();
        Box::pin(async move {
            let engine = engine(&req)?;
            let token = bearer(&req).ok_or(ApiError::InvalidApiKey)?;
            let (rate, admitted) = engine.authenticate(&token).await;
            if let Some(rate) = rate {
                req.extensions_mut().insert(rate);
            }
            let a = admitted?;
            let needs = scope_of(req.method().as_str(), &req.match_pattern().unwrap_or_default());
            if !a.scopes.has(needs) {
                return Err(ApiError::InsufficientScope(pigeon_actors::lacks(needs)));
            }
            crate::edge::Caller::mark(&req, a.tenant_id);
            query_refused(&req)?;
            Ok(Tenant {
                id: a.tenant_id,
                key_id: a.key_id,
                environment: a.environment,
                scopes: a.scopes,
                handle: engine.tenant(a.tenant_id)?,
            })
        })
    }
}

/// A request that named a query parameter its route does not take (`routes/query.rs` marks it):
/// the error to answer once the caller is known.
#[derive(Clone)]
pub struct UnknownQuery(pub String);

/// For an authenticating extractor, once the caller is known: the 400 of a request marked with
/// an [`UnknownQuery`].
pub fn query_refused(req: &HttpRequest) -> Result<(), ApiError> {
    match req.extensions().get::<UnknownQuery>() {
        Some(UnknownQuery(what)) => Err(ApiError::Validation(what.clone())),
        None => Ok(()),
    }
}

/// Runs a synchronous credential check on the bearer token (401 when there is none).
fn with_bearer<T>(
    req: &HttpRequest,
    check: impl FnOnce(&Engine, &str) -> Result<T, ApiError>,
) -> std::future::Ready<Result<T, ApiError>> {
    std::future::ready(engine(req).and_then(|e| check(&e, &bearer(req).ok_or(ApiError::InvalidApiKey)?)))
}

/// Proof that the caller holds the operator token. Wrong tokens are throttled by client
/// address (`Engine::operator_from`); a request with no bearer at all guesses nothing, so it is
/// answered 401 and not counted.
pub struct Admin(pub Engine);

impl FromRequest for Admin {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        std::future::ready(engine(req).and_then(|engine| {
            let token = bearer_str(req).filter(|t| !t.is_empty()).ok_or(ApiError::InvalidApiKey)?;
            engine.operator_from(token, client_ip(req))?;
            query_refused(req)?;
            Ok(Admin(engine))
        }))
    }
}

/// The address a request came from: the client's as a node of the fleet forwarded it
/// (`fleet.rs`), else the connection's peer. Proxies' `X-Forwarded-For` is not read: any client
/// could write it.
pub fn client_ip(req: &HttpRequest) -> Option<std::net::IpAddr> {
    if let Some(ForwardedFor(ip)) = req.extensions().get::<ForwardedFor>() {
        return Some(*ip);
    }
    req.peer_addr().map(|a| a.ip())
}

/// The client's address of a request another node of the fleet forwarded (`fleet.rs` sets it
/// from a stamped request's `x-pigeon-node-client`).
#[derive(Debug, Clone, Copy)]
pub struct ForwardedFor(pub std::net::IpAddr);

/// A phone agent, authenticated by its `svc_agent_` token.
pub struct Agent(pub pigeon_actors::AgentHandle);

impl FromRequest for Agent {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        let user_agent = req.headers().get(header::USER_AGENT).and_then(|v| v.to_str().ok());
        with_bearer(req, |engine, token| {
            let agent = engine.agent(token, user_agent)?;
            query_refused(req)?;
            Ok(Agent(agent))
        })
    }
}

/// A JSON body. Errors name the field (`rate_limit: invalid type ...`); unknown fields are refused
/// by the body types themselves (`deny_unknown_fields`). Take it as `Result<Json<T>, ApiError>`
/// and apply `?` after authentication, so a bad key is reported before a bad body.
pub struct Json<T>(pub T);

impl<T: DeserializeOwned + 'static> FromRequest for Json<T> {
    type Error = ApiError;
    type Future = Fut<Self>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let json_type = req.mime_type().ok().flatten().is_some_and(|m| m.essence_str() == "application/json");
        let too_long = req
            .headers()
            .get(header::CONTENT_LENGTH)
            .and_then(|v| v.to_str().ok()?.parse::<usize>().ok())
            .is_some_and(|n| n > MAX_BODY);
        let body = web::Bytes::from_request(req, payload);
        Box::pin(async move {
            if too_long {
                return Err(ApiError::PayloadTooLarge);
            }
            if !json_type {
                return Err(ApiError::Validation("Content-Type: must be application/json".into()));
            }
            let bytes = actix_web::rt::time::timeout(BODY_TIMEOUT, body)
                .await
                .map_err(|_| ApiError::RequestTimeout)?
                .map_err(|e| match e.as_error::<PayloadError>() {
                    Some(PayloadError::Overflow) => ApiError::PayloadTooLarge,
                    _ => ApiError::Validation(format!("body: cannot be read ({e})")),
                })?;
            parse_json(&bytes).map(Json)
        })
    }
}

/// Parses a JSON object, naming the failing field in the error. Every body is an object: an
/// array would otherwise fill a struct's fields by position, and text after the object is
/// refused rather than ignored.
pub fn parse_json<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, ApiError> {
    if bytes.iter().find(|b| !b.is_ascii_whitespace()) != Some(&b'{') {
        return Err(ApiError::Validation("body: must be a JSON object".into()));
    }
    let de = &mut serde_json::Deserializer::from_slice(bytes);
    let value = parse_in(de)?;
    de.end().map_err(|e| ApiError::Validation(format!("body: not valid JSON ({e})")))?;
    Ok(value)
}

fn parse_in<'de, T: DeserializeOwned>(
    de: &mut serde_json::Deserializer<serde_json::de::SliceRead<'de>>,
) -> Result<T, ApiError> {
    serde_path_to_error::deserialize(de).map_err(|e| {
        let path = e.path().to_string();
        let inner = e.into_inner();
        if inner.is_syntax() || inner.is_eof() {
            return ApiError::Validation(format!("body: not valid JSON ({inner})"));
        }
        let mut msg = inner.to_string();
        if let Some(i) = msg.rfind(" at line ") {
            msg.truncate(i);
        }
        ApiError::Validation(if path == "." { msg } else { format!("{path}: {msg}") })
    })
}

/// `limit` (1–100, default 50) and `after` (a cursor) of every list.
#[derive(Debug, Clone, Copy)]
pub struct Page {
    /// Items wanted.
    pub limit: usize,
    /// Start after this id.
    pub after: Option<Ulid>,
}

impl FromRequest for Page {
    type Error = ApiError;
    type Future = std::future::Ready<Result<Self, ApiError>>;

    fn from_request(req: &HttpRequest, _: &mut Payload) -> Self::Future {
        #[derive(Deserialize)]
        struct Raw {
            limit: Option<String>,
            after: Option<String>,
        }
        std::future::ready((|| {
            let raw = web::Query::<Raw>::from_query(req.query_string())
                .map_err(|e| ApiError::Validation(format!("query: {e}")))?
                .into_inner();
            let limit = match raw.limit {
                None => 50,
                Some(s) => s.parse::<usize>().ok().filter(|n| (1..=100).contains(n)).ok_or_else(|| {
                    ApiError::Validation("limit: must be a whole number from 1 to 100".into())
                })?,
            };
            let after = match raw.after {
                None => None,
                Some(s) => Some(
                    Ulid::from_string(&s)
                        .map_err(|_| ApiError::Validation("after: not a cursor this API gave".into()))?,
                ),
            };
            Ok(Page { limit, after })
        })())
    }
}

/// Parses a path id; anything that is not one of our ids is simply not found.
pub fn parse_id(s: &str, what: &str) -> Result<Ulid, ApiError> {
    Ulid::from_string(s).map_err(|_| ApiError::NotFound(format!("No such {what}.")))
}

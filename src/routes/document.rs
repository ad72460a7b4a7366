//! What the OpenAPI document says of every route at once, so that no handler can forget it: who
//! may call it (`/v1/` a tenant key, `/admin/v1/` the operator token, `/phone/v1/` an agent
//! token), the refusals every route of a family can give (401, 403, 429 with its headers, 400,
//! 404 for path ids, 408 and 413 for bodies, 503 for a full disk, 500), a description
//! on every answer (OpenAPI 3.1 requires one), and operation ids unique across the document.
//! Handlers declare only what is theirs; `tests/api/envelope.rs` and the schemathesis run in CI
//! hold the document to the server.

use utoipa::openapi::header::HeaderBuilder;
use utoipa::openapi::path::{Operation, PathItem};
use utoipa::openapi::schema::{ObjectBuilder, Type};
use utoipa::openapi::{ContentBuilder, OpenApi, Ref, RefOr, Response, ResponseBuilder};

/// The refusals of a route, by status: the codes the server answers with.
fn refusals(path: &str, op: &Operation) -> Vec<(&'static str, &'static str)> {
    let mut out = Vec::new();
    let body = op.request_body.is_some();
    let tenant = path.starts_with("/v1/");
    let authenticated = tenant || path.starts_with("/admin/v1/") || path.starts_with("/phone/v1/");
    if authenticated {
        out.push((
            "401",
            "INVALID_API_KEY: the key or token is missing, malformed or revoked, or a JWT was refused",
        ));
    }
    if tenant {
        out.push(("403", "KEY_INACTIVE, TRIAL_EXPIRED, TENANT_SUSPENDED, INSUFFICIENT_SCOPE"));
        out.push(("429", "RATE_LIMIT_EXCEEDED, QUOTA_EXCEEDED (with `Retry-After`)"));
    }
    if path.starts_with("/admin/v1/") {
        out.push((
            "429",
            "RATE_LIMIT_EXCEEDED: 10 failed operator tokens from this address within a minute; every \
             attempt is refused until the minute is over (with `Retry-After`)",
        ));
    }
    if body
        && matches!(
            path,
            "/v1/contacts" | "/v1/templates" | "/v1/campaigns" | "/v1/api-keys" | "/v1/webhooks"
        )
    {
        out.push(("409", "LIMIT_REACHED: the account holds the most records of this kind it may"));
    }
    if body || op.parameters.as_ref().is_some_and(|p| !p.is_empty()) || tenant {
        out.push(("400", "VALIDATION_ERROR: a field, parameter or the body is invalid (the text names it)"));
    }
    if path.contains('{') {
        out.push(("404", "NOT_FOUND: no such record in this account (ids of other tenants included)"));
    }
    if body {
        out.push(("408", "REQUEST_TIMEOUT: the body did not arrive within 10 s"));
        out.push(("413", "PAYLOAD_TOO_LARGE: the body is over 1 MiB"));
    }
    if tenant {
        out.push((
            "503",
            "STORAGE_UNAVAILABLE, IDENTITY_UNAVAILABLE: the disk is full or failing (with \
             `Retry-After`), or a JWT came and the identity provider's keys cannot be fetched",
        ));
    } else if authenticated {
        out.push(("503", "STORAGE_UNAVAILABLE: the disk is full or failing (with `Retry-After`)"));
    }
    if authenticated {
        out.push(("500", "INTERNAL_ERROR: a bug; details are in the server's log"));
    }
    out
}

/// Applies the rules of the module docs to `doc`.
pub fn complete(doc: &mut OpenApi) {
    if let Some(c) = doc.components.as_mut() {
        for s in c.schemas.values_mut() {
            unsigned(s);
        }
    }
    for (path, item) in doc.paths.paths.iter_mut() {
        for op in operations(item) {
            let tag = op.tags.as_ref().and_then(|t| t.first()).map(|t| t.replace(' ', "_"));
            if let (Some(tag), Some(id)) = (tag, op.operation_id.as_mut()) {
                *id = format!("{tag}_{id}");
            }
            bound_parameters(op);
            let refused = refusals(path, op);
            let responses = &mut op.responses.responses;
            for (status, text) in refused {
                match responses.get_mut(status) {
                    Some(RefOr::T(r)) => {
                        let code = text.split(':').next().unwrap_or(text);
                        if r.description.is_empty() {
                            r.description = text.to_owned();
                        } else if !r.description.contains(code) {
                            r.description = format!("{}; {text}", r.description);
                        }
                    }
                    Some(RefOr::Ref(_)) => {}
                    None => {
                        responses.insert(status.to_owned(), RefOr::T(error(text)));
                    }
                }
            }
            for (status, r) in responses.iter_mut() {
                if let RefOr::T(r) = r {
                    if r.description.is_empty() {
                        r.description = reason(status).to_owned();
                    }
                    if status == "429" || status == "503" {
                        let retry = HeaderBuilder::new()
                            .schema(Some(ObjectBuilder::new().schema_type(Type::Integer).build()))
                            .description(Some("Seconds to wait before trying again"))
                            .build();
                        r.headers.entry("Retry-After".into()).or_insert(RefOr::T(retry));
                    }
                }
            }
        }
    }
}

fn operations(item: &mut PathItem) -> impl Iterator<Item = &mut Operation> {
    [item.get.as_mut(), item.post.as_mut(), item.put.as_mut(), item.patch.as_mut(), item.delete.as_mut()]
        .into_iter()
        .flatten()
}

fn error(text: &str) -> Response {
    ResponseBuilder::new()
        .description(text)
        .content(
            "application/json",
            ContentBuilder::new().schema(Some(Ref::from_schema_name("ErrorBody"))).build(),
        )
        .build()
}

fn reason(status: &str) -> &'static str {
    status
        .parse::<u16>()
        .ok()
        .and_then(|s| actix_web::http::StatusCode::from_u16(s).ok())
        .and_then(|s| s.canonical_reason())
        .unwrap_or("Answer")
}

/// A ULID, as ids and cursors are written.
const ULID: &str = "^[0-7][0-9A-HJKMNP-TV-Za-hjkmnp-tv-z]{25}$";

/// The query parameters every list and the agent's poll share, with the bounds the server holds
/// them to (`extract::Page`, `phones::jobs`).
fn bound_parameters(op: &mut Operation) {
    for p in op.parameters.iter_mut().flatten() {
        let RefOr::T(p) = p else { continue };
        let (min, max) = match p.name.as_str() {
            "limit" => (1.0, 100.0),
            "wait" => (0.0, 30.0),
            "after" => {
                let ulid = ObjectBuilder::new().schema_type(Type::String).pattern(Some(ULID));
                p.schema = Some(RefOr::T(ulid.build().into()));
                continue;
            }
            _ => continue,
        };
        p.schema = Some(RefOr::T(
            ObjectBuilder::new()
                .schema_type(Type::Integer)
                .minimum(Some(min))
                .maximum(Some(max))
                .build()
                .into(),
        ));
    }
}

/// utoipa writes a `u32` as `int32` with minimum 0 (and a `u64` as `int64`), which tells clients
/// that 2,147,483,648 and above are refused where the server takes them; the true bound replaces
/// the format.
fn unsigned(s: &mut RefOr<utoipa::openapi::schema::Schema>) {
    use utoipa::openapi::schema::{KnownFormat, Schema, SchemaFormat};
    use utoipa::Number;
    let RefOr::T(s) = s else { return };
    match s {
        Schema::Object(o) => {
            let zero = matches!(o.minimum, Some(Number::Int(0) | Number::UInt(0)))
                || matches!(o.minimum, Some(Number::Float(f)) if f == 0.0);
            let max = match &o.format {
                Some(SchemaFormat::KnownFormat(KnownFormat::Int32)) => Some(u32::MAX as usize),
                Some(SchemaFormat::KnownFormat(KnownFormat::Int64)) => Some(u64::MAX as usize),
                _ => None,
            };
            if let (true, Some(max)) = (zero, max) {
                o.format = None;
                o.maximum.get_or_insert(Number::UInt(max));
            }
            for p in o.properties.values_mut() {
                unsigned(p);
            }
        }
        Schema::Array(a) => {
            if let utoipa::openapi::schema::ArrayItems::RefOrSchema(items) = &mut a.items {
                unsigned(items);
            }
        }
        _ => {}
    }
}

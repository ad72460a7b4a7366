//! Query parameters a route does not take are refused, as unknown body fields are: the OpenAPI
//! document, built from the handlers' annotations, says which each route takes, so the check and
//! the contract cannot differ. A route with credentials answers a bad credential first (401),
//! so the check only marks the request and the authenticating extractor refuses it once the
//! caller is known ([`crate::extract::query_refused`]); a public route refuses it at once.

use std::collections::HashMap;
use std::sync::LazyLock;

use actix_web::body::{BoxBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::HttpMessage;
use utoipa::OpenApi;

use crate::error::ApiError;

/// What each `(method, path)` takes: its query parameters, and whether it needs credentials.
struct Takes {
    params: Vec<String>,
    secured: bool,
}

static TAKES: LazyLock<HashMap<(String, String), Takes>> = LazyLock::new(|| {
    use utoipa::openapi::path::ParameterIn;
    use utoipa::openapi::RefOr;
    let doc = super::ApiDoc::openapi();
    let mut out = HashMap::new();
    for (path, item) in doc.paths.paths {
        let ops = [
            ("GET", item.get),
            ("POST", item.post),
            ("PUT", item.put),
            ("PATCH", item.patch),
            ("DELETE", item.delete),
        ];
        for (method, op) in ops {
            let Some(op) = op else { continue };
            let params = op
                .parameters
                .unwrap_or_default()
                .into_iter()
                .filter_map(|p| match p {
                    RefOr::T(p) if p.parameter_in == ParameterIn::Query => Some(p.name),
                    _ => None,
                })
                .collect();
            let secured = op.security.is_some_and(|s| !s.is_empty());
            out.insert((method.to_owned(), path.clone()), Takes { params, secured });
        }
    }
    out
});

/// Middleware around every route of the table.
pub async fn check(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<BoxBody>, actix_web::Error> {
    if req.query_string().is_empty() {
        return next.call(req).await.map(ServiceResponse::map_into_boxed_body);
    }
    let route = (req.method().as_str().to_owned(), req.match_pattern().unwrap_or_default());
    let Some(takes) = TAKES.get(&route) else {
        return next.call(req).await.map(ServiceResponse::map_into_boxed_body);
    };
    // A query that does not parse is the route's own extractors' to refuse.
    let pairs: Vec<(String, String)> = serde_urlencoded::from_str(req.query_string()).unwrap_or_default();
    let unknown = pairs.into_iter().map(|(k, _)| k).find(|k| !takes.params.contains(k));
    let Some(name) = unknown else {
        return next.call(req).await.map(ServiceResponse::map_into_boxed_body);
    };
    let what = if takes.params.is_empty() {
        format!("{name}: unknown query parameter; this route takes none")
    } else {
        format!("{name}: unknown query parameter; this route takes {}", takes.params.join(", "))
    };
    if takes.secured {
        req.extensions_mut().insert(crate::extract::UnknownQuery(what));
        return next.call(req).await.map(ServiceResponse::map_into_boxed_body);
    }
    let (http, _) = req.into_parts();
    Ok(ServiceResponse::new(http, actix_web::ResponseError::error_response(&ApiError::Validation(what))))
}

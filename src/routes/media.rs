//! `/v1/media`: files a tenant uploads to send, and their bytes, by key or by a signed link a
//! receiver can fetch without one. An upload is streamed to the store's spool as it arrives and
//! refused as soon as it breaks a rule (its type, its first bytes, the node's size limit, the
//! tenant's bound), never gathered in memory.

use actix_web::dev::Payload;
use actix_web::http::{header, StatusCode};
use actix_web::web::{self, Bytes};
use actix_web::{FromRequest, HttpRequest, HttpResponse};
use chrono::{DateTime, Utc};
use futures_util::StreamExt;
use pigeon_actors::media::{check_bytes, check_type, over_bound, SNIFF};
use pigeon_actors::storage::media::Kept;
use pigeon_actors::storage::model::{MediaRecord, MediaRef};
use pigeon_actors::{Engine, EngineError};
use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::{reply, DataBody, ErrorBody};
use crate::error::ApiError;
use crate::extract::{parse_id, Agent, Tenant};
use crate::limits::BODY_TIMEOUT;

/// What the media routes need from the node's settings.
#[derive(Debug, Clone)]
pub struct MediaSettings {
    /// The largest upload, bytes (`PIGEON_MEDIA_MAX_BYTES`).
    pub max_bytes: u64,
    /// Which non-public addresses a send's `{"url"}` may be fetched from: the webhooks' rule
    /// (`PIGEON_WEBHOOK_ALLOW_PRIVATE`).
    pub allow_private: pigeon_actors::webhook::PrivateNetworks,
}

/// A media record.
#[derive(Serialize, ToSchema)]
pub struct MediaView {
    /// Media id.
    pub media_id: String,
    /// The type it was uploaded as.
    pub content_type: String,
    /// Bytes.
    pub size: u64,
    /// SHA-256 of the bytes, lowercase hex (also the content's ETag).
    pub sha256: String,
    /// The name given at upload.
    pub filename: Option<String>,
    /// Upload time.
    #[serde(with = "pigeon_actors::storage::ts")]
    pub created_at: DateTime<Utc>,
    /// A link to the bytes, signed and good for 7 days, that needs no key.
    pub url: String,
}

impl MediaView {
    /// The view of `m`, with a link signed now.
    pub fn of(m: &MediaRecord, engine: &Engine) -> Self {
        let id = m.id.to_string();
        Self {
            url: engine.media_links().url(&id, engine.clock().now().timestamp()),
            media_id: id,
            content_type: m.content_type.clone(),
            size: m.size,
            sha256: m.sha256.clone(),
            filename: m.filename.clone(),
            created_at: m.created_at,
        }
    }
}

/// An attachment of a message record.
#[derive(Serialize, ToSchema)]
pub struct AttachmentView {
    /// Media id.
    pub media_id: String,
    /// Its type.
    pub content_type: String,
    /// Bytes.
    pub size: u64,
    /// The name given at upload.
    pub filename: Option<String>,
    /// A link to the bytes, signed and good for 7 days, that needs no key.
    pub url: String,
}

/// A message's attachments, their links signed now.
pub fn attachments(media: &[MediaRef], engine: &Engine) -> Vec<AttachmentView> {
    let now = engine.clock().now().timestamp();
    let links = engine.media_links().attachments(media, now);
    links
        .into_iter()
        .map(|a| AttachmentView {
            media_id: a.media_id,
            content_type: a.content_type,
            size: a.size,
            filename: a.filename,
            url: a.url,
        })
        .collect()
}

/// The query of `POST /v1/media`.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UploadQuery {
    /// The file's name, kept with it.
    pub filename: Option<String>,
}

/// A file's bytes, as the OpenAPI document describes them.
#[derive(ToSchema)]
#[schema(value_type = String, format = Binary)]
pub struct FileBytes(pub Vec<u8>);

/// Uploads a file to send: the body is its bytes, `Content-Type` its type.
#[utoipa::path(post, path = "/v1/media", tag = "media", security(("api_key" = [])),
    params(("filename" = Option<String>, Query, description = "the file's name, 1–255 characters, no `/`")),
    request_body(content = FileBytes, description = "The file's bytes. Types: image/jpeg, image/png, image/gif, \
        image/heic, image/heif, image/webp, video/mp4, video/quicktime, audio/mp4, audio/mpeg, audio/x-caf, audio/aac, \
        application/pdf, text/vcard, text/plain; the bytes must begin as the type's files do.",
        content_type = "application/octet-stream"),
    responses((status = 201, body = DataBody<MediaView>),
        (status = 400, description = "`INVALID_MEDIA` (type, bytes), `VALIDATION_ERROR` (filename)", body = ErrorBody),
        (status = 409, description = "`LIMIT_REACHED`: the account's media bound", body = ErrorBody),
        (status = 413, description = "`PAYLOAD_TOO_LARGE`: over the node's limit (25 MiB by default)", body = ErrorBody)))]
pub async fn upload(
    tenant: Tenant,
    engine: web::Data<Engine>,
    settings: web::Data<MediaSettings>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let (allowed, filename) = upload_head(&req)?;
    let room = tenant.handle.media_room().await?;
    let kept = receive(engine.get_ref(), allowed, payload, settings.max_bytes, room, declared(req.headers()))
        .await?;
    let m = tenant.handle.record_media(kept, allowed, filename, None).await?;
    Ok(reply(StatusCode::CREATED, MediaView::of(&m, &engine)))
}

/// A file the phone received, to name in `POST /phone/v1/inbound`: the body is its bytes,
/// `Content-Type` its type, under the same rules as a tenant's upload.
#[utoipa::path(post, path = "/phone/v1/media", tag = "phone agent", security(("agent_token" = [])),
    params(("filename" = Option<String>, Query, description = "the file's name, 1–255 characters, no `/`")),
    request_body(content = FileBytes, description = "The file's bytes, of a type `POST /v1/media` takes.",
        content_type = "application/octet-stream"),
    responses((status = 201, body = DataBody<pigeon_protocol::MediaUploaded>),
        (status = 400, description = "`INVALID_MEDIA` (type, bytes), `VALIDATION_ERROR` (filename)", body = ErrorBody),
        (status = 409, description = "`LIMIT_REACHED`: the account's media bound", body = ErrorBody),
        (status = 413, description = "`PAYLOAD_TOO_LARGE`: over the node's limit", body = ErrorBody)))]
pub async fn phone_upload(
    Agent(agent): Agent,
    engine: web::Data<Engine>,
    settings: web::Data<MediaSettings>,
    req: HttpRequest,
    payload: web::Payload,
) -> Result<HttpResponse, ApiError> {
    let (allowed, filename) = upload_head(&req)?;
    let room = agent.media_room().await?;
    let kept = receive(engine.get_ref(), allowed, payload, settings.max_bytes, room, declared(req.headers()))
        .await?;
    let m = agent.record_media(kept, allowed, filename).await?;
    Ok(reply(StatusCode::CREATED, pigeon_protocol::MediaUploaded { media_id: m.id.to_string() }))
}

/// The `Content-Length` a sender declared.
pub(crate) fn declared(headers: &header::HeaderMap) -> Option<u64> {
    headers.get(header::CONTENT_LENGTH).and_then(|v| v.to_str().ok()).and_then(|v| v.parse().ok())
}

/// An upload's type (checked against the allow-list) and `?filename=`.
fn upload_head(req: &HttpRequest) -> Result<(&'static str, Option<String>), ApiError> {
    let query = web::Query::<UploadQuery>::from_query(req.query_string())
        .map_err(|e| ApiError::Validation(format!("query: {e}")))?
        .into_inner();
    let filename = query.filename.map(check_filename).transpose()?;
    let content_type = req.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok());
    Ok((check_type(content_type)?, filename))
}

/// 1–255 characters, none of them a path separator or a control character.
pub(crate) fn check_filename(name: String) -> Result<String, ApiError> {
    let ok = (1..=255).contains(&name.chars().count())
        && !name.chars().any(|c| c == '/' || c == '\\' || c.is_control())
        && name != "."
        && name != "..";
    ok.then_some(name).ok_or_else(|| {
        ApiError::Validation(
            "filename: must be 1 to 255 characters, without / \\ or control characters".into(),
        )
    })
}

/// Streams an upload into the store: each chunk goes to a spool file on a blocking thread as it
/// arrives; the first bytes are checked against `allowed`, the count against `max` and the
/// tenant's `room`, and the first broken rule ends the upload with its answer, leaving nothing.
/// `length` is what the sender declared (`Content-Length`), refused before a byte is read when
/// it breaks a rule.
pub async fn receive(
    engine: &Engine,
    allowed: &'static str,
    payload: impl futures_util::Stream<Item = Result<Bytes, actix_web::error::PayloadError>>,
    max: u64,
    room: Option<u64>,
    length: Option<u64>,
) -> Result<Kept, ApiError> {
    let mut payload = std::pin::pin!(payload);
    let refuse = |n: u64| {
        if n > max {
            Some(ApiError::MediaTooLarge(max))
        } else {
            room.filter(|r| n > *r).map(|r| over_bound(r).into())
        }
    };
    if let Some(e) = length.and_then(refuse) {
        return Err(e);
    }
    // A few chunks in flight: the client is read as fast as the disk takes the bytes.
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Bytes>(4);
    let e = engine.clone();
    let writer = web::block(move || -> Result<Option<Kept>, EngineError> {
        let mut spool = e.media_spool()?;
        let mut whole = false;
        while let Some(chunk) = rx.blocking_recv() {
            if chunk.is_empty() {
                whole = true;
                break;
            }
            spool.write(&chunk)?;
        }
        // Ended without the empty chunk that says "whole": the upload was refused or broke off,
        // and the spool goes with it.
        whole.then(|| e.keep_media(spool)).transpose()
    });
    let (mut total, mut head) = (0u64, Vec::with_capacity(SNIFF));
    let read = async {
        loop {
            let next = actix_web::rt::time::timeout(BODY_TIMEOUT, payload.next()).await;
            let chunk = match next {
                Err(_) => return Err(ApiError::RequestTimeout),
                Ok(None) => break,
                Ok(Some(Err(_))) => {
                    return Err(ApiError::Validation("The request body could not be read.".into()))
                }
                Ok(Some(Ok(c))) => c,
            };
            total += chunk.len() as u64;
            if let Some(e) = refuse(total) {
                return Err(e);
            }
            if head.len() < SNIFF {
                head.extend_from_slice(&chunk[..chunk.len().min(SNIFF - head.len())]);
                if head.len() == SNIFF {
                    check_bytes(allowed, &head)?;
                }
            }
            if tx.send(chunk).await.is_err() {
                // The writer stopped: its error is the answer.
                return Ok(());
            }
        }
        if head.len() < SNIFF {
            check_bytes(allowed, &head)?;
        }
        let _ = tx.send(Bytes::new()).await;
        Ok(())
    };
    let read: Result<(), ApiError> = read.await;
    drop(tx);
    let written = writer.await.map_err(|_| ApiError::Internal)?;
    read?;
    let kept = written.inspect_err(|e| tracing::error!(error = %e, "an upload could not be kept"))?;
    kept.ok_or(ApiError::Internal)
}

/// One of the account's media records, with a fresh signed link.
#[utoipa::path(get, path = "/v1/media/{id}", tag = "media", security(("api_key" = [])),
    params(("id" = String, Path, description = "media id")),
    responses((status = 200, body = DataBody<MediaView>), (status = 404, body = ErrorBody)))]
pub async fn get(
    tenant: Tenant,
    engine: web::Data<Engine>,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let id = parse_id(&id, "media")?;
    let m = engine.reads(tenant.id).media(id)?;
    Ok(reply(StatusCode::OK, MediaView::of(&m, &engine)))
}

/// The query of a signed link.
#[derive(Deserialize)]
pub struct LinkQuery {
    expires: Option<String>,
    signature: Option<String>,
}

/// A file's bytes: with an API key, or through a signed link (`url` of the record) without one.
#[utoipa::path(get, path = "/v1/media/{id}/content", tag = "media", security(("api_key" = []), ()),
    params(("id" = String, Path, description = "media id"),
        ("expires" = Option<i64>, Query, description = "a signed link's expiry (Unix seconds)"),
        ("signature" = Option<String>, Query, description = "a signed link's signature")),
    responses((status = 200, description = "The bytes, as `Content-Type`; `ETag` is their SHA-256.", content_type = "application/octet-stream", body = FileBytes),
        (status = 304, description = "`If-None-Match` names the ETag"),
        (status = 403, description = "`INVALID_SIGNATURE`: a link's signature is missing, wrong or expired", body = ErrorBody),
        (status = 404, body = ErrorBody)))]
pub async fn content(
    engine: web::Data<Engine>,
    req: HttpRequest,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let link = web::Query::<LinkQuery>::from_query(req.query_string()).map(web::Query::into_inner).ok();
    let signed = link.as_ref().is_some_and(|l| l.expires.is_some() || l.signature.is_some());
    let m = if signed {
        let link = link.unwrap_or(LinkQuery { expires: None, signature: None });
        let now = engine.clock().now().timestamp();
        let expires = link.expires.and_then(|e| e.parse::<i64>().ok());
        let good = matches!((expires, link.signature.as_deref()),
            (Some(e), Some(s)) if engine.media_links().verify(&id, e, s, now));
        if !good {
            return Err(ApiError::InvalidSignature);
        }
        engine.linked_media(parse_id(&id, "media")?)?
    } else {
        let tenant = Tenant::from_request(&req, &mut Payload::None).await?;
        engine.reads(tenant.id).media(parse_id(&id, "media")?)?
    };
    serve(&engine, &req, m).await
}

/// An attachment of a job this phone holds, or a file its agent uploaded: the bytes, as
/// `/v1/media/{id}/content` serves them. Check them against the job's `sha256`.
#[utoipa::path(get, path = "/phone/v1/media/{id}", tag = "phone agent", security(("agent_token" = [])),
    params(("id" = String, Path, description = "media id")),
    responses((status = 200, description = "The bytes, as `Content-Type`; `ETag` is their SHA-256.", content_type = "application/octet-stream", body = FileBytes),
        (status = 304, description = "`If-None-Match` names the ETag"),
        (status = 404, description = "no such media among this phone's jobs and uploads", body = ErrorBody)))]
pub async fn phone_content(
    Agent(agent): Agent,
    engine: web::Data<Engine>,
    req: HttpRequest,
    id: web::Path<String>,
) -> Result<HttpResponse, ApiError> {
    let m = agent.media(parse_id(&id, "media")?).await?;
    serve(&engine, &req, m).await
}

/// The bytes of `m`, streamed in chunks read off the async threads; 304 when the client has them.
async fn serve(
    engine: &web::Data<Engine>,
    req: &HttpRequest,
    m: MediaRecord,
) -> Result<HttpResponse, ApiError> {
    let etag = format!("\"{}\"", m.sha256);
    let cached = req.headers().get(header::IF_NONE_MATCH).and_then(|v| v.to_str().ok());
    if cached.is_some_and(|c| c.split(',').any(|t| t.trim() == etag || t.trim() == "*")) {
        return Ok(HttpResponse::NotModified().insert_header((header::ETAG, etag)).finish());
    }
    let e = engine.get_ref().clone();
    let record = m.clone();
    let content = web::block(move || e.media_content(&record)).await.map_err(|_| ApiError::Internal)??;
    let size = content.size;
    let body = futures_util::stream::unfold(Some(content), |c| async move {
        let mut c = c?;
        match web::block(move || c.next_chunk().map(|chunk| (chunk, c))).await {
            Ok(Ok((Some(chunk), c))) => Some((Ok::<_, std::io::Error>(Bytes::from(chunk)), Some(c))),
            Ok(Ok((None, _))) => None,
            Ok(Err(e)) => Some((Err(std::io::Error::other(e.to_string())), None)),
            Err(e) => Some((Err(std::io::Error::other(e.to_string())), None)),
        }
    });
    Ok(HttpResponse::Ok()
        .content_type(m.content_type.as_str())
        .insert_header((header::ETAG, etag))
        .insert_header((header::X_CONTENT_TYPE_OPTIONS, "nosniff"))
        .insert_header((header::CACHE_CONTROL, "private, max-age=3600"))
        .no_chunking(size)
        .streaming(body))
}

//! A send's `media`: upload ids, found in the tenant's media once the rest of the send is
//! valid, and `{"url"}`s the node fetches then, under the webhook address rules (10 s, no
//! redirects, the upload's type, first-byte and size rules), before the idempotency key is
//! looked at. A file fetched for a send that is then refused is an unused upload.

use std::time::Duration;

use actix_web::http::header;
use pigeon_actors::media::check_type;
use pigeon_actors::storage::model::MediaRef;
use pigeon_actors::webhook::{check_url, vetted_client, PRIVATE_REFUSED};
use pigeon_actors::{Engine, EngineError, TenantHandle};
use serde::Deserialize;
use ulid::Ulid;
use utoipa::ToSchema;

use super::media::{check_filename, declared, receive, MediaSettings};
use crate::error::ApiError;

/// Most attachments a message may carry.
const MAX_ATTACHMENTS: usize = 10;

/// How long a fetch may take, from the first byte dialled to the last received.
const FETCH_TIMEOUT: Duration = Duration::from_secs(10);

/// One of a send's attachments.
#[derive(ToSchema)]
#[serde(untagged)]
pub enum MediaItem {
    /// An id from `POST /v1/media`.
    Id(String),
    /// A file the node fetches before it answers.
    Url {
        /// `http://` or `https://`, at most 2,048 characters, reachable as a webhook's would be.
        url: String,
    },
}

impl<'de> Deserialize<'de> for MediaItem {
    /// A string, or an object of `url` alone; anything else is refused in words a tenant reads.
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        #[derive(Deserialize)]
        #[serde(deny_unknown_fields)]
        struct Fetch {
            url: String,
        }
        match serde_json::Value::deserialize(d)? {
            serde_json::Value::String(id) => Ok(MediaItem::Id(id)),
            v @ serde_json::Value::Object(_) => serde_json::from_value::<Fetch>(v)
                .map(|f| MediaItem::Url { url: f.url })
                .map_err(|_| serde::de::Error::custom(r#"expected a media id or {"url": "https://…"}"#)),
            _ => Err(serde::de::Error::custom(r#"expected a media id or {"url": "https://…"}"#)),
        }
    }
}

/// The URLs of a send left to fetch, each with its place among the attachments.
pub(crate) type ToFetch = Vec<(usize, String)>;

/// An attachment as the send names it, once its id is known to be one.
pub(crate) enum Wanted {
    Id(Ulid),
    Url(String),
}

/// The count (1–10, `VALIDATION_ERROR` naming `media` else) and each id's form (`INVALID_MEDIA`
/// naming `media[i]`).
pub(crate) fn check_items(items: Vec<MediaItem>) -> Result<Vec<Wanted>, ApiError> {
    count(items.len())?;
    items
        .into_iter()
        .enumerate()
        .map(|(i, item)| match item {
            MediaItem::Id(id) => parse_id(i, &id).map(Wanted::Id),
            MediaItem::Url { url } => Ok(Wanted::Url(url)),
        })
        .collect()
}

/// An inbound text's `media`: 1–10 ids of the phone's uploads.
pub(crate) fn media_ids(given: &[String]) -> Result<Vec<Ulid>, ApiError> {
    count(given.len())?;
    given.iter().enumerate().map(|(i, id)| parse_id(i, id)).collect()
}

fn count(n: usize) -> Result<(), ApiError> {
    if n == 0 || n > MAX_ATTACHMENTS {
        return Err(ApiError::Validation(format!("media: 1 to {MAX_ATTACHMENTS} items, got {n}")));
    }
    Ok(())
}

fn parse_id(i: usize, id: &str) -> Result<Ulid, ApiError> {
    id.parse().map_err(|_| ApiError::InvalidMedia(format!("media[{i}]: {id:?} is not a media id")))
}

/// The ids as the message holds them, in order, and the URLs left to fetch with their places.
/// An id the tenant has no media of (another tenant's included) is `INVALID_MEDIA` naming it.
pub(crate) fn resolve_ids(
    engine: &Engine,
    tenant: Ulid,
    wanted: Vec<Wanted>,
) -> Result<(Vec<MediaRef>, ToFetch), ApiError> {
    let reads = engine.reads(tenant);
    let (mut refs, mut urls) = (Vec::with_capacity(wanted.len()), Vec::new());
    for (i, w) in wanted.into_iter().enumerate() {
        match w {
            Wanted::Url(url) => urls.push((i, url)),
            Wanted::Id(id) => match reads.media(id) {
                Ok(m) => refs.push(MediaRef::from(&m)),
                Err(EngineError::NotFound(_)) => {
                    return Err(ApiError::InvalidMedia(format!(
                        "media[{i}]: no media {id} (upload it with POST /v1/media)"
                    )))
                }
                Err(e) => return Err(e.into()),
            },
        }
    }
    Ok((refs, urls))
}

/// Fetches each URL of a send (or a campaign) into the tenant's media, in its place among the
/// attachments.
pub(crate) async fn fetch_into(
    engine: &Engine,
    settings: &MediaSettings,
    media: &mut Vec<MediaRef>,
    tenant: Ulid,
    urls: ToFetch,
) -> Result<(), ApiError> {
    let handle = engine.tenant(tenant)?;
    for (i, url) in urls {
        let fetched =
            actix_web::rt::time::timeout(FETCH_TIMEOUT, fetch(engine, settings, &handle, &url)).await;
        let m = match fetched {
            Ok(r) => r.map_err(|e| named(i, e))?,
            Err(_) => {
                return Err(ApiError::InvalidMedia(format!("media[{i}]: no whole answer within 10 s")));
            }
        };
        media.insert(i, m);
    }
    Ok(())
}

async fn fetch(
    engine: &Engine,
    settings: &MediaSettings,
    handle: &TenantHandle,
    url: &str,
) -> Result<MediaRef, ApiError> {
    let refused = |why: String| ApiError::InvalidMedia(why);
    check_url(url, &settings.allow_private)
        .await
        .map_err(|e| refused(e.trim_start_matches("url: ").to_owned()))?;
    let client = vetted_client(settings.allow_private.clone(), FETCH_TIMEOUT);
    let res = client.get(url).send().await.map_err(|e| {
        let e = e.to_string();
        refused(if e.contains(PRIVATE_REFUSED) {
            "the host resolves to an address webhooks may not reach".into()
        } else {
            format!("cannot fetch it: {e}")
        })
    })?;
    let status = res.status();
    if status.is_redirection() {
        return Err(refused(format!("the server answered {status}; redirects are not followed")));
    }
    if !status.is_success() {
        return Err(refused(format!("the server answered {status}")));
    }
    let content_type = res.headers().get(header::CONTENT_TYPE).and_then(|v| v.to_str().ok());
    let allowed = check_type(content_type)?;
    let length = declared(res.headers());
    let room = handle.media_room().await?;
    let kept = receive(engine, allowed, res, settings.max_bytes, room, length).await?;
    let m = handle.record_media(kept, allowed, filename_of(url), None).await?;
    Ok(MediaRef::from(&m))
}

/// The last segment of the URL's path, when it is a plain file name.
fn filename_of(url: &str) -> Option<String> {
    let path = url.split(['?', '#']).next()?.splitn(4, '/').nth(3)?;
    let last = path.rsplit('/').next().filter(|n| !n.is_empty() && !n.contains('%'))?;
    check_filename(last.to_owned()).ok()
}

/// A fetch's failure, named by the attachment's place: each is `INVALID_MEDIA` but the
/// account's bound (`LIMIT_REACHED`, as for an upload) and the node's own trouble.
fn named(i: usize, e: ApiError) -> ApiError {
    let why = match e {
        ApiError::InvalidMedia(why) => why,
        ApiError::MediaTooLarge(max) => {
            format!("the file is larger than {max} bytes, the most this server takes")
        }
        ApiError::RequestTimeout => "the server sent no bytes for 10 s".into(),
        ApiError::Validation(_) => "the download broke off".into(),
        other => return other,
    };
    ApiError::InvalidMedia(format!("media[{i}]: {why}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fetched_file_is_named_by_the_last_plain_segment_of_its_path() {
        assert_eq!(filename_of("https://cdn.example.com/a/b/cat.png?size=2").as_deref(), Some("cat.png"));
        assert_eq!(filename_of("https://cdn.example.com/cat%20photo.png"), None);
        assert_eq!(filename_of("https://cdn.example.com/"), None);
        assert_eq!(filename_of("https://cdn.example.com"), None);
    }
}

//! Idempotency keys: the first answer to a key within 24 h stands, and the same key with another
//! request is refused. The send path and the inbound path (an agent's retried report) share it.

use pigeon_storage::model::IdempotencyRecord;
use ulid::Ulid;

use crate::{credentials, EngineError};

/// Adds a request's files to what its fingerprint hashes, by their bytes, not their ids: a retry
/// that uploads or fetches them again gets new ids and is the same request.
pub(crate) fn with_media(same: &mut String, media: &[pigeon_storage::model::MediaRef]) {
    for m in media {
        same.push_str("\nmedia ");
        same.push_str(&m.sha256);
    }
}

/// How long an idempotency key is honoured.
pub(crate) const IDEMPOTENCY_WINDOW: chrono::TimeDelta = chrono::TimeDelta::hours(24);

/// The first answer to `key` within the window, if any; the key with another request (another
/// `fingerprint`) is refused. Sends and inbound texts share it.
pub(crate) fn first_answer(
    store: &pigeon_storage::Store,
    tenant: Ulid,
    key: &str,
    fingerprint: &str,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<Option<IdempotencyRecord>, EngineError> {
    let Some(first) =
        store.messages().idempotency(tenant, key)?.filter(|r| now - r.created_at < IDEMPOTENCY_WINDOW)
    else {
        return Ok(None);
    };
    if !credentials::hashes_match(&first.fingerprint, fingerprint) {
        return Err(EngineError::IdempotencyKeyReused);
    }
    Ok(Some(first))
}

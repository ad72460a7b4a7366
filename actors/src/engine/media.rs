//! Media through the engine: the store keeps the bytes, the tenant's actor holds the bound and
//! writes the records, and links are signed with a key every node of a fleet shares.

use pigeon_storage::media::{Content, Kept, Spool};
use pigeon_storage::model::MediaRecord;
use pigeon_storage::Store;
use sha2::{Digest, Sha256};
use ulid::Ulid;

use super::handles::TenantHandle;
use super::{Engine, LocatedKey};
use crate::error::Missing;
use crate::media::Links;
use crate::{tenant, EngineError, SendRequest};

/// The link key: derived from a fleet's secret (so each node signs alike and no two nodes
/// starting together make two keys), else the store's own, made once.
pub(super) fn links(store: &Store, base: &str) -> Result<Links, EngineError> {
    if let Some(secret) = store.fleet().secret() {
        let mut h = Sha256::new();
        h.update(b"pigeon media links\n");
        h.update(secret);
        return Ok(Links::new(h.finalize().to_vec(), base));
    }
    let key = store.meta().media_link_key(|| crate::credentials::random_base62(43).into_bytes())?;
    Ok(Links::new(key, base))
}

impl Engine {
    /// The admission of [`Engine::send_with_key`] alone, charged as the call: for a send that has
    /// work to do between admission and the send (media to fetch), so a caller that may not send
    /// makes the node do none of it. Follow with [`Engine::send_admitted`].
    pub async fn admit_send(&self, key: &LocatedKey) -> (Option<crate::RateInfo>, Result<(), EngineError>) {
        let (rate, r) = self.send_with_key(key.clone(), None).await;
        (rate, r.map(drop))
    }

    /// The send of a call [`Engine::admit_send`] admitted.
    pub async fn send_admitted(
        &self,
        key: LocatedKey,
        req: SendRequest,
    ) -> Result<pigeon_storage::model::MessageRecord, EngineError> {
        let addr = self.located_owner(&key)?;
        let sent = addr.ask(tenant::AdmitSend { who: key.who, req: Some(req), admitted: true }).await;
        sent?.1?.ok_or(EngineError::NotFound(crate::error::Missing::Message))
    }

    /// Signs and checks media links.
    pub fn media_links(&self) -> &Links {
        &self.inner.shared.links
    }

    /// A new upload to write bytes into (blocking file I/O: call it off the async threads).
    pub fn media_spool(&self) -> Result<Spool, EngineError> {
        Ok(self.inner.store.media_spool()?)
    }

    /// Makes an upload durable under its hash (blocking).
    pub fn keep_media(&self, spool: Spool) -> Result<Kept, EngineError> {
        Ok(self.inner.store.keep_media(spool)?)
    }

    /// A media record's bytes (blocking reads); 404 when they are gone.
    pub fn media_content(&self, m: &MediaRecord) -> Result<Content, EngineError> {
        self.inner.store.media_content(m)?.ok_or(EngineError::NotFound(Missing::Media))
    }

    /// The media record a link names, whichever tenant holds it.
    pub fn linked_media(&self, id: Ulid) -> Result<MediaRecord, EngineError> {
        let store = &self.inner.store;
        let tenant = store.media().owner(id)?.ok_or(EngineError::NotFound(Missing::Media))?;
        store.media().get(tenant, id)?.ok_or(EngineError::NotFound(Missing::Media))
    }
}

impl TenantHandle {
    /// Bytes of media the tenant may still store (`None`: unbounded).
    pub async fn media_room(&self) -> Result<Option<u64>, EngineError> {
        self.ask(tenant::MediaRoom).await?
    }

    /// Records a kept upload against the tenant's bound (409 `LIMIT_REACHED` past it).
    pub async fn record_media(
        &self,
        kept: Kept,
        content_type: &'static str,
        filename: Option<String>,
        phone_id: Option<Ulid>,
    ) -> Result<MediaRecord, EngineError> {
        self.ask(tenant::RecordMedia { kept, content_type, filename, phone_id }).await?
    }
}

//! The tenant's media bound: the actor counts the bytes its media records hold (from the store
//! at first use, then as it writes them), so two uploads can never both take the last room.

use actix::prelude::*;
use pigeon_storage::media::Kept;
use pigeon_storage::model::MediaRecord;
use ulid::Ulid;

use super::TenantActor;
use crate::durable::after_commit;
use crate::EngineError;

/// Bytes of media the tenant may still store: `None` when unbounded. An upload is cut off at
/// this (409 `LIMIT_REACHED`) before it is kept, and checked again when recorded.
#[derive(Message, Clone)]
#[rtype(result = "Result<Option<u64>, EngineError>")]
pub(crate) struct MediaRoom;

/// Records a file kept by the store ([`pigeon_storage::Store::keep_media`]).
#[derive(Message, Clone)]
#[rtype(result = "Result<MediaRecord, EngineError>")]
pub(crate) struct RecordMedia {
    pub kept: Kept,
    pub content_type: &'static str,
    pub filename: Option<String>,
    /// The phone whose agent uploaded it.
    pub phone_id: Option<Ulid>,
}

impl TenantActor {
    fn media_room(&mut self) -> Result<Option<u64>, EngineError> {
        let Some(bound) = self.tenant.effective_media_bytes() else { return Ok(None) };
        let held = match self.media_bytes {
            Some(n) => n,
            None => *self.media_bytes.insert(self.store.media().bytes(self.tenant.id)?),
        };
        Ok(Some(bound.saturating_sub(held)))
    }
}

impl Handler<MediaRoom> for TenantActor {
    type Result = Result<Option<u64>, EngineError>;

    fn handle(&mut self, _: MediaRoom, _: &mut Self::Context) -> Self::Result {
        self.media_room()
    }
}

impl Handler<RecordMedia> for TenantActor {
    type Result = ResponseFuture<Result<MediaRecord, EngineError>>;

    fn handle(&mut self, msg: RecordMedia, _: &mut Self::Context) -> Self::Result {
        let res = (|| {
            if self.media_room()?.is_some_and(|room| msg.kept.size > room) {
                return Err(crate::media::over_bound(self.media_room()?.unwrap_or(0)));
            }
            let m = MediaRecord {
                id: self.store.new_id(),
                tenant_id: self.tenant.id,
                content_type: msg.content_type.to_owned(),
                size: msg.kept.size,
                sha256: msg.kept.sha256,
                filename: msg.filename,
                phone_id: msg.phone_id,
                created_at: self.clock.now(),
            };
            self.store.media().put(&m)?;
            if let Some(n) = self.media_bytes.as_mut() {
                *n += m.size;
            }
            Ok(m)
        })();
        after_commit(&self.store, res)
    }
}

//! The one way an actor answers a write: queue the group commit right after the write, in the
//! same turn (so the flush covers it), and answer once the commit resolves. A 2xx therefore means
//! the write is on disk (ARCHITECTURE "Architecture invariants").

use actix::ResponseFuture;
use pigeon_storage::Store;

use crate::EngineError;

/// Answers `res` once every write made before this call is durable; an error answers at once.
pub(crate) fn after_commit<T: Send + 'static>(
    store: &Store,
    res: Result<T, EngineError>,
) -> ResponseFuture<Result<T, EngineError>> {
    let commit = res.is_ok().then(|| store.commit());
    Box::pin(async move {
        let v = res?;
        if let Some(c) = commit {
            c.await?;
        }
        Ok(v)
    })
}

//! The one way an actor answers a write: queue the group commit right after the write, in the
//! same turn (so the flush covers it), and answer once the commit resolves. A 2xx therefore means
//! the write is on disk (ARCHITECTURE "Architecture invariants").

use std::future::Future;

use actix::ResponseFuture;
use pigeon_storage::Store;

use crate::EngineError;

/// `res` once every write made before this call is durable; an error at once. For handlers
/// that do more once the write is on disk (hand a message on); others use [`after_commit`].
pub(crate) fn durable<T: Send + 'static>(
    store: &Store,
    res: Result<T, EngineError>,
) -> impl Future<Output = Result<T, EngineError>> + Send + 'static {
    let commit = res.is_ok().then(|| store.commit());
    async move {
        let v = res?;
        if let Some(c) = commit {
            c.await?;
        }
        Ok(v)
    }
}

/// A handler's answer: `res` once it is durable (see [`durable`]).
pub(crate) fn after_commit<T: Send + 'static>(
    store: &Store,
    res: Result<T, EngineError>,
) -> ResponseFuture<Result<T, EngineError>> {
    Box::pin(durable(store, res))
}

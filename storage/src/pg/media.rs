//! Media bytes in the database (`crate::media`): `pigeon.media_chunks` holds each file in
//! chunks of [`CHUNK`] by its hash, and `pigeon.media_files` names the files whole. A file is
//! written in one transaction of its own, never through the write set: its megabytes would
//! otherwise ride in the group commit every send waits on.

use std::path::Path;

use super::{db_err, Pg};
use crate::media::{read_full, Kept, CHUNK};
use crate::StoreError;

impl Pg {
    /// Stores the spooled file at `path` under its hash, unless the database has it already, and
    /// marks it kept at `now_ms`.
    pub(crate) fn put_media(&self, kept: &Kept, path: &Path, now_ms: i64) -> Result<(), StoreError> {
        if self.touch_media(&kept.sha256, now_ms)? {
            return Ok(());
        }
        let (pool, kept, path) = (self.pool.clone(), kept.clone(), path.to_owned());
        self.run(async move {
            let mut file = std::fs::File::open(&path).map_err(|e| StoreError::Flush(format!("cannot read a spool file: {e}")))?;
            let mut client = pool.get().await.map_err(db_err)?;
            let tx = client.transaction().await.map_err(db_err)?;
            let insert = tx
                .prepare_cached(
                    "INSERT INTO pigeon.media_chunks (sha256, seq, bytes) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                )
                .await
                .map_err(db_err)?;
            let mut buf = vec![0; CHUNK];
            let mut seq = 0i32;
            loop {
                let n = read_full(&mut file, &mut buf)
                    .map_err(|e| StoreError::Flush(format!("cannot read a spool file: {e}")))?;
                if n == 0 {
                    break;
                }
                tx.execute(&insert, &[&kept.sha256, &seq, &&buf[..n]]).await.map_err(db_err)?;
                seq += 1;
            }
            tx.execute(
                "INSERT INTO pigeon.media_files (sha256, size, touched_ms) VALUES ($1, $2, $3)
                 ON CONFLICT (sha256) DO UPDATE SET touched_ms = GREATEST(media_files.touched_ms, EXCLUDED.touched_ms)",
                &[&kept.sha256, &(kept.size as i64), &now_ms],
            )
            .await
            .map_err(db_err)?;
            tx.commit().await.map_err(db_err)
        })
    }

    /// Marks the file of `sha256` kept at `now_ms`, if it is stored; whether it is.
    fn touch_media(&self, sha256: &str, now_ms: i64) -> Result<bool, StoreError> {
        let (pool, sha256) = (self.pool.clone(), sha256.to_owned());
        self.run(async move {
            let c = pool.get().await.map_err(db_err)?;
            let n = c
                .execute(
                    "UPDATE pigeon.media_files SET touched_ms = GREATEST(touched_ms, $2) WHERE sha256 = $1",
                    &[&sha256, &now_ms],
                )
                .await
                .map_err(db_err)?;
            Ok(n > 0)
        })
    }

    /// Up to `max` files by hash after `after`, last kept before `before_ms`.
    pub(crate) fn stale_media(
        &self,
        before_ms: i64,
        after: &str,
        max: usize,
    ) -> Result<Vec<String>, StoreError> {
        let (pool, after) = (self.pool.clone(), after.to_owned());
        self.run(async move {
            let c = pool.get().await.map_err(db_err)?;
            let rows = c
                .query(
                    "SELECT sha256 FROM pigeon.media_files WHERE touched_ms < $1 AND sha256 > $2
                     ORDER BY sha256 LIMIT $3",
                    &[&before_ms, &after, &(max as i64)],
                )
                .await
                .map_err(db_err)?;
            Ok(rows.iter().map(|r| r.get(0)).collect())
        })
    }

    /// Deletes the file of `sha256`, its row first, unless it was kept at `before_ms` or later
    /// (by any node); whether it went.
    pub(crate) fn remove_media(&self, sha256: &str, before_ms: i64) -> Result<bool, StoreError> {
        let (pool, sha256) = (self.pool.clone(), sha256.to_owned());
        self.run(async move {
            let mut client = pool.get().await.map_err(db_err)?;
            let tx = client.transaction().await.map_err(db_err)?;
            let gone = tx
                .execute(
                    "DELETE FROM pigeon.media_files WHERE sha256 = $1 AND touched_ms < $2",
                    &[&sha256, &before_ms],
                )
                .await
                .map_err(db_err)?;
            if gone > 0 {
                tx.execute("DELETE FROM pigeon.media_chunks WHERE sha256 = $1", &[&sha256])
                    .await
                    .map_err(db_err)?;
            }
            tx.commit().await.map_err(db_err)?;
            Ok(gone > 0)
        })
    }

    /// Whether the file of `sha256` is stored whole.
    pub(crate) fn has_media(&self, sha256: &str) -> Result<bool, StoreError> {
        let (pool, sha256) = (self.pool.clone(), sha256.to_owned());
        self.run(async move {
            let c = pool.get().await.map_err(db_err)?;
            let row = c
                .query_opt("SELECT 1 FROM pigeon.media_files WHERE sha256 = $1", &[&sha256])
                .await
                .map_err(db_err)?;
            Ok(row.is_some())
        })
    }

    /// Chunk `seq` of the file of `sha256`; `None` past its end.
    pub(crate) fn media_chunk(&self, sha256: &str, seq: i32) -> Result<Option<Vec<u8>>, StoreError> {
        let (pool, sha256) = (self.pool.clone(), sha256.to_owned());
        self.run(async move {
            let c = pool.get().await.map_err(db_err)?;
            let row = c
                .query_opt(
                    "SELECT bytes FROM pigeon.media_chunks WHERE sha256 = $1 AND seq = $2",
                    &[&sha256, &seq],
                )
                .await
                .map_err(db_err)?;
            Ok(row.map(|r| r.get(0)))
        })
    }
}

//! Media bytes in the database (`crate::media`): `pigeon.media_chunks` holds each file in
//! chunks of [`CHUNK`] by its hash, and `pigeon.media_files` names the files whole. A file is
//! written in one transaction of its own, never through the write set: its megabytes would
//! otherwise ride in the group commit every send waits on.

use std::path::Path;

use super::{db_err, Pg};
use crate::media::{read_full, Kept, CHUNK};
use crate::StoreError;

impl Pg {
    /// Stores the spooled file at `path` under its hash, unless the database has it already.
    pub(crate) fn put_media(&self, kept: &Kept, path: &Path) -> Result<(), StoreError> {
        if self.has_media(&kept.sha256)? {
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
                "INSERT INTO pigeon.media_files (sha256, size) VALUES ($1, $2) ON CONFLICT DO NOTHING",
                &[&kept.sha256, &(kept.size as i64)],
            )
            .await
            .map_err(db_err)?;
            tx.commit().await.map_err(db_err)
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

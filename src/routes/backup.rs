//! `GET /admin/v1/backup`: a consistent copy of a sled node's store, taken while it serves and
//! streamed as a tar archive (`pigeon_storage::backup`; `pigeon backup` saves it).

use actix_web::http::header;
use actix_web::web::{self, Bytes};
use actix_web::HttpResponse;
use pigeon_actors::storage::StoreError;

use super::ErrorBody;
use crate::error::ApiError;
use crate::extract::Admin;

/// Bytes the archive is written to the connection in.
const CHUNK: usize = 256 * 1024;

/// Chunks on their way to the client at most: the archive is read from disk as fast as the
/// client takes it, never gathered in memory.
const IN_FLIGHT: usize = 4;

/// A snapshot of the node's store as a tar archive (`data/`: the store's files;
/// `pigeon-backup.json` last: when it was taken and the records of each tree). It holds every
/// write acknowledged before the request. `pigeon restore FILE --data-dir DIR` unpacks it.
#[utoipa::path(get, path = "/admin/v1/backup", tag = "operator", security(("admin_token" = [])),
    responses(
        (status = 200, description = "The archive (a tar file, named in `Content-Disposition`).", content_type = "application/octet-stream", body = Archive),
        (status = 401, body = ErrorBody),
        (status = 409, description = "`BACKUP_IN_PROGRESS`; `BACKUP_NOT_SUPPORTED` on PostgreSQL (use `pg_dump`).", body = ErrorBody)))]
pub async fn backup(Admin(engine): Admin) -> Result<HttpResponse, ApiError> {
    let snapshot = web::block(move || engine.backup()).await.map_err(|_| ApiError::Internal)?;
    let snapshot = snapshot.map_err(|e| match e {
        StoreError::BackupBusy => ApiError::BackupInProgress,
        StoreError::BackupOnDatabase => ApiError::BackupNotSupported,
        e => {
            tracing::error!(error = %e, "backup failed");
            if e.is_unavailable() {
                ApiError::StorageUnavailable
            } else {
                ApiError::Internal
            }
        }
    })?;
    let m = &snapshot.manifest;
    tracing::info!(records = m.records, taken_at = %m.taken_at, "backup copied; sending it");
    let name = format!("pigeon-backup-{}.tar", m.taken_at.format("%Y%m%dT%H%M%SZ"));
    let (tx, rx) = tokio::sync::mpsc::channel::<Result<Bytes, std::io::Error>>(IN_FLIGHT);
    std::thread::Builder::new()
        .name("pigeon-backup".into())
        .spawn(move || {
            let out = std::io::BufWriter::with_capacity(CHUNK, Sender(tx.clone()));
            if let Err(e) = snapshot.write_archive(out) {
                // The client sees the body end early; an archive without its manifest is refused
                // by `pigeon backup` and `pigeon restore`.
                tracing::warn!(error = %e, "backup not sent whole");
                let _ = tx.blocking_send(Err(e));
            }
        })
        .map_err(|_| ApiError::Internal)?;
    let body = futures_util::stream::unfold(rx, |mut rx| async move { rx.recv().await.map(|c| (c, rx)) });
    Ok(HttpResponse::Ok()
        .content_type("application/octet-stream")
        .insert_header((header::CONTENT_DISPOSITION, format!("attachment; filename=\"{name}\"")))
        .streaming(body))
}

/// The archive's bytes, as the OpenAPI document describes them (a `Vec<u8>` would read as an
/// array of integers).
#[derive(utoipa::ToSchema)]
#[schema(value_type = String, format = Binary)]
pub struct Archive(pub Vec<u8>);

/// How long the client may take no bytes at all before the backup is given up: a client that
/// stalls with its connection open would otherwise hold the copy (and the next backup) forever.
const STALL: std::time::Duration = std::time::Duration::from_secs(120);

/// Hands the archive's bytes to the response, waiting while the client is behind.
struct Sender(tokio::sync::mpsc::Sender<Result<Bytes, std::io::Error>>);

impl std::io::Write for Sender {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        use tokio::sync::mpsc::error::TrySendError;
        let mut chunk = Ok(Bytes::copy_from_slice(buf));
        let since = std::time::Instant::now();
        loop {
            match self.0.try_send(chunk) {
                Ok(()) => return Ok(buf.len()),
                Err(TrySendError::Closed(_)) => {
                    return Err(std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the client went away"))
                }
                Err(TrySendError::Full(c)) if since.elapsed() < STALL => {
                    chunk = c;
                    std::thread::sleep(std::time::Duration::from_millis(5));
                }
                Err(TrySendError::Full(_)) => {
                    return Err(std::io::Error::new(
                        std::io::ErrorKind::TimedOut,
                        "the client took nothing for 2 min",
                    ))
                }
            }
        }
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

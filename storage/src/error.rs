//! Typed storage errors; the HTTP edge turns all of them into an opaque 500.

/// Anything that went wrong below the engine.
#[derive(Debug, thiserror::Error)]
pub enum StoreError {
    /// sled reported an I/O or corruption error.
    #[error("sled: {0}")]
    Sled(#[from] sled::Error),
    /// PostgreSQL could not be reached or refused a statement (the PostgreSQL store).
    #[error("database: {0}")]
    Database(String),
    /// A flush failed; the writes it covered may not be on disk.
    #[error("flush failed: {0}")]
    Flush(String),
    /// A stored record could not be decoded (a bug or a corrupted file).
    #[error("corrupt record in {tree}: {source}")]
    Decode {
        /// Which tree held the record.
        tree: &'static str,
        /// What the decoder said.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// Offline compaction could not go on; the store is left as it was, or already compacted.
    #[error("compaction: {0}")]
    Compact(String),
    /// A backup or restore could not be made; the text says why.
    #[error("backup: {0}")]
    Backup(String),
    /// A backup was asked for while another was being taken.
    #[error("a backup is already being taken: try again when it is done")]
    BackupBusy,
    /// A backup was asked of a node on PostgreSQL, whose backups are the database's.
    #[error("this node keeps its data in PostgreSQL: back it up with pg_dump (docs/operating.md)")]
    BackupOnDatabase,
    /// Moving a sled store to PostgreSQL could not go on; the text says why.
    #[error("migrate: {0}")]
    Migrate(String),
    /// A message named media that retention deleted as it was being accepted; nothing was
    /// written, and sent again it is refused for the media it names.
    #[error("media {0} was deleted as the message was accepted")]
    MediaGone(ulid::Ulid),
    /// The committer thread is gone (the store is shutting down).
    #[error("store is closed")]
    Closed,
    /// Another process holds the sled directory (its file lock stayed taken past the wait).
    #[error("another pigeon process{} is using {}: stop it first, or give this one its own data directory", .pid.map(|p| format!(" (pid {p})")).unwrap_or_default(), .dir.display())]
    InUse {
        /// The directory.
        dir: std::path::PathBuf,
        /// The holder, when the kernel names it.
        pid: Option<u32>,
    },
}

impl StoreError {
    /// True for the failures of a disk that is full or failing: the request may succeed later,
    /// so it is answered 503 with `Retry-After`, not 500.
    pub fn is_unavailable(&self) -> bool {
        matches!(
            self,
            StoreError::Sled(sled::Error::Io(_))
                | StoreError::Flush(_)
                | StoreError::Database(_)
                | StoreError::MediaGone(_)
        )
    }
}

impl From<sled::transaction::TransactionError<StoreError>> for StoreError {
    fn from(e: sled::transaction::TransactionError<StoreError>) -> Self {
        match e {
            sled::transaction::TransactionError::Abort(e) => e,
            sled::transaction::TransactionError::Storage(e) => StoreError::Sled(e),
        }
    }
}

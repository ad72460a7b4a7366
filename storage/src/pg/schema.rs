//! The PostgreSQL store's schema: a table per tree and the fleet's tables (`fleet.rs`), versioned
//! migrations applied at start under an advisory lock.

use deadpool_postgres::Pool;

use super::db_err;
use crate::StoreError;

/// Every tree the store opens, each a table of the same name in the `pigeon` schema. A new tree
/// needs a migration that creates its table.
pub(crate) const TREES: &[&str] = &[
    "meta",
    "tenants",
    "counters",
    "keys",
    "key_hashes",
    "key_ids",
    "phones",
    "phone_ids",
    "phone_tokens",
    "messages",
    "pending",
    "schedule",
    "recipients",
    "idempotency",
    "optouts",
    "detections",
    "webhooks",
    "deliveries",
    "due",
    "templates",
    "template_names",
    "contacts",
    "contact_phones",
    "campaigns",
    "campaign_recipients",
    "campaign_messages",
    "sessions",
    "events",
    "media",
    "media_ids",
    "media_holders",
    "media_uses",
];

/// The schema's versions, in order; each runs once, in the transaction that records it.
/// Messages, deliveries and counters are rewritten in place as they change state, so their pages
/// keep room for HOT updates (the research note: the heap tripled under three updates without).
const MIGRATIONS: &[&str] = &[
    r#"
CREATE TABLE pigeon."meta" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."tenants" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."counters" (k bytea PRIMARY KEY, v bytea NOT NULL) WITH (fillfactor = 70);
CREATE TABLE pigeon."keys" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."key_hashes" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."key_ids" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."phones" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."phone_ids" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."phone_tokens" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."messages" (k bytea PRIMARY KEY, v bytea NOT NULL) WITH (fillfactor = 70);
CREATE TABLE pigeon."pending" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."schedule" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."recipients" (k bytea PRIMARY KEY, v bytea NOT NULL) WITH (fillfactor = 80);
CREATE TABLE pigeon."idempotency" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."optouts" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."detections" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."webhooks" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."deliveries" (k bytea PRIMARY KEY, v bytea NOT NULL) WITH (fillfactor = 70);
CREATE TABLE pigeon."due" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."templates" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."template_names" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."contacts" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."contact_phones" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."campaigns" (k bytea PRIMARY KEY, v bytea NOT NULL) WITH (fillfactor = 80);
CREATE TABLE pigeon."campaign_recipients" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."campaign_messages" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."sessions" (k bytea PRIMARY KEY, v bytea NOT NULL);
"#,
    r#"
CREATE TABLE pigeon.fleet (id boolean PRIMARY KEY CHECK (id), secret bytea NOT NULL);
CREATE TABLE pigeon.nodes (
    id text PRIMARY KEY,
    url text NOT NULL,
    version text NOT NULL,
    started_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    renewed_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    stopped_at timestamptz
);
CREATE TABLE pigeon.leases (
    tenant bytea PRIMARY KEY,
    node text NOT NULL,
    url text NOT NULL,
    epoch bigint NOT NULL,
    expires_at timestamptz NOT NULL,
    owes boolean NOT NULL DEFAULT false
) WITH (fillfactor = 70);
CREATE INDEX leases_node ON pigeon.leases (node);
"#,
    r#"
CREATE TABLE pigeon."events" (k bytea PRIMARY KEY, v bytea NOT NULL);
"#,
    r#"
CREATE TABLE pigeon."media" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."media_ids" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon."media_holders" (k bytea PRIMARY KEY, v bytea NOT NULL);
CREATE TABLE pigeon.media_chunks (sha256 text, seq integer, bytes bytea NOT NULL, PRIMARY KEY (sha256, seq));
CREATE TABLE pigeon.media_files (sha256 text PRIMARY KEY, size bigint NOT NULL);
"#,
    // When each file was last kept (ms on the store's clock), so retention leaves one an upload
    // is about to name alone; which messages hold which media.
    r#"
ALTER TABLE pigeon.media_files ADD COLUMN touched_ms bigint NOT NULL DEFAULT 0;
CREATE TABLE pigeon."media_uses" (k bytea PRIMARY KEY, v bytea NOT NULL);
"#,
];

/// The advisory lock nodes take while they bring the schema up to date, so that nodes starting
/// together apply each migration once.
const MIGRATION_LOCK: i64 = 0x7069_6765_6f6e; // "pigeon"

/// The advisory lock that says what kind of node uses the database: a node on its own
/// (`--single-node`) holds it exclusively, each node of a fleet shares it. A node on its own is
/// fenced by nothing, so no other node may write beside it, and it may not join a fleet's.
const KIND_LOCK: i64 = 0x0070_6967_656f_6e01; // "pigeon", 1

/// How long a starting node waits for [`KIND_LOCK`]: a node that just died (or restarted itself
/// in place) may still be holding it until the database sees its connection closed.
const KIND_WAIT: &str = "3s";

/// Takes [`KIND_LOCK`] on `conn` (the node's dedicated connection, which holds it while it is
/// open): exclusively when `alone`, shared otherwise.
pub(super) async fn hold_kind(conn: &tokio_postgres::Client, alone: bool) -> Result<(), StoreError> {
    let take = if alone { "pg_advisory_lock" } else { "pg_advisory_lock_shared" };
    conn.batch_execute(&format!("SET lock_timeout = '{KIND_WAIT}'")).await.map_err(db_err)?;
    let taken = conn.execute(&format!("SELECT {take}($1)"), &[&KIND_LOCK]).await;
    conn.batch_execute("SET lock_timeout = 0").await.map_err(db_err)?;
    match taken {
        Ok(_) => Ok(()),
        Err(e) if e.code() == Some(&tokio_postgres::error::SqlState::LOCK_NOT_AVAILABLE) => {
            Err(StoreError::Database(if alone {
                "other pigeon nodes use this database: a node started with --single-node must be its only one"
                    .into()
            } else {
                "a pigeon node started with --single-node uses this database: stop it before starting a fleet's".into()
            }))
        }
        Err(e) => Err(db_err(e)),
    }
}

/// A connection taken out of the pool for good, for the fleet's renewals and the health probe.
/// A node whose machine died closes nothing: the database's keepalives on this connection find it
/// gone in ~25 s (not the system's two hours).
pub(super) async fn dedicated(pool: &Pool) -> Result<deadpool_postgres::ClientWrapper, StoreError> {
    let c = deadpool_postgres::Object::take(pool.get().await.map_err(db_err)?);
    c.batch_execute(
        "SET tcp_keepalives_idle = 10; SET tcp_keepalives_interval = 5; SET tcp_keepalives_count = 3",
    )
    .await
    .map_err(db_err)?;
    Ok(c)
}

/// Brings the schema up to date, under an advisory lock, in one transaction.
pub(super) async fn migrate(pool: &Pool) -> Result<(), StoreError> {
    let mut client = pool.get().await.map_err(db_err)?;
    let tx = client.transaction().await.map_err(db_err)?;
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK]).await.map_err(db_err)?;
    tx.batch_execute(
        "CREATE SCHEMA IF NOT EXISTS pigeon; CREATE TABLE IF NOT EXISTS pigeon.schema_version \
         (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
    )
    .await
    .map_err(db_err)?;
    let have: i32 = tx
        .query_one("SELECT coalesce(max(version), 0) FROM pigeon.schema_version", &[])
        .await
        .map_err(db_err)?
        .get(0);
    let ours = MIGRATIONS.len() as i32;
    if have > ours {
        return Err(StoreError::Database(format!(
            "the database's schema is version {have}, newer than this pigeon's ({ours}): run a pigeon at least as new"
        )));
    }
    for (i, sql) in MIGRATIONS.iter().enumerate().skip(have.max(0) as usize) {
        tx.batch_execute(sql).await.map_err(db_err)?;
        tx.execute("INSERT INTO pigeon.schema_version (version) VALUES ($1)", &[&(i as i32 + 1)])
            .await
            .map_err(db_err)?;
        tracing::info!(version = i + 1, "database schema migrated");
    }
    tx.commit().await.map_err(db_err)
}

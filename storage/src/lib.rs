//! pigeon's durable store: typed sled trees whose keys start with their tenant, and a group committer
//! so that concurrent writers share one flush instead of paying one fsync each.
//!
//! Guarantees, in order:
//! 1. A write call (`put_*`, `create_*`) applies the change to sled's in-memory pages atomically.
//! 2. [`Store::commit`], called after the write, resolves only once a flush that *started after* the
//!    write has finished, so the write is on disk.
//! 3. Writers that call `commit` while a flush is running wait for the next one; one flush covers
//!    every writer that queued before it began (group commit).
//! 4. Writes not followed by `commit` (usage counters, `last_used_at`) reach disk with the next
//!    commit of anyone, sled's periodic flush, or the shutdown flush.

pub mod backup;
mod blobs;
pub mod clock;
mod commit;
mod compact;
mod error;
pub mod fleet;
mod health;
pub mod media;
mod migrate;
pub mod model;
pub mod pg;
pub mod private;
mod sched;
mod store;
pub mod ts;

pub use commit::{CommitStats, DEFAULT_MIN_FLUSH_INTERVAL};
pub use compact::{compact, Compacted};
pub use error::StoreError;
pub use health::{StoreHealth, Writable, FREE_TO_REOPEN};
pub use migrate::{migrate, Migrated};
pub use store::{
    id_bound, Campaigns, ColdPages, Contacts, Cursor, DueDelivery, EventPage, Events, HeldMessage,
    HourCounts, Hourly, Indexed, KeyLocation, Keys, Media, Messages, Meta, Numbers, PendingWork,
    PhoneLocation, Phones, Segments, Sessions, Store, Templates, Tenants, Unique, Webhooks, DEFAULT_CACHE_MB,
};

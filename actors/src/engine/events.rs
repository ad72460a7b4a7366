//! `GET /v1/events`: a tenant's events in the order they became durable, read from its log in the
//! store (`pigeon_storage`'s `events.rs` says why that order holds), with a long-poll wait.

use std::time::Duration;

use ulid::Ulid;

use super::Engine;
use crate::webhook::EVENTS;
use crate::EngineError;

/// Events looked at per read at most, whatever the filters keep: a filter that keeps few
/// answers a short page and a cursor past what it passed over.
const MAX_SCAN: usize = super::reads::MAX_LIST_READ;

/// How far before now a cursor given at the end of the log may point: ids a node makes later
/// (this one, or another that takes the tenant over with a clock up to this much behind) sort
/// after it, and a quiet tenant's cursor stays younger than the retention period.
const END_MARGIN: chrono::TimeDelta = chrono::TimeDelta::seconds(60);

/// What a reader asks for.
#[derive(Debug, Clone)]
pub struct EventQuery {
    /// Read after this cursor; from the oldest kept without.
    pub after: Option<Ulid>,
    /// Only these event names (`None`: all).
    pub types: Option<Vec<&'static str>>,
    /// Events wanted at most.
    pub limit: usize,
    /// The reader's key is a test key: it sees test messages' events only, a live key live ones
    /// (events about no message, such as a phone's, both).
    pub test: bool,
}

/// Events read, and where to read on.
#[derive(Debug)]
pub struct EventBatch {
    /// Each event as a webhook gets it, with its id.
    pub events: Vec<(Ulid, String)>,
    /// The cursor after the last event looked at; at the end, the one to wait on.
    pub next_cursor: Ulid,
}

/// The event names `types` lists (comma-separated), each one known; an unknown one is named.
pub fn parse_types(types: &str) -> Result<Vec<&'static str>, EngineError> {
    types
        .split(',')
        .map(str::trim)
        .filter(|t| !t.is_empty())
        .map(|t| {
            EVENTS.iter().copied().find(|e| *e == t).ok_or_else(|| {
                EngineError::Validation(format!("types: unknown event {t:?}; known: {}", EVENTS.join(", ")))
            })
        })
        .collect()
}

impl Engine {
    /// The tenant's events after `q.after`, waiting up to `wait` for one when none follows.
    pub async fn events(
        &self,
        tenant: Ulid,
        q: &EventQuery,
        wait: Duration,
    ) -> Result<EventBatch, EngineError> {
        let store = &self.inner.store;
        let log = store.events();
        if q.after.is_some_and(|a| a < log.pruned_below().unwrap_or_default()) {
            return Err(EngineError::CursorExpired);
        }
        // Subscribed before the first look, so an append between the look and the wait wakes it.
        let mut appended = log.watch(tenant)?;
        let deadline = tokio::time::Instant::now() + wait;
        let mut after = q.after;
        loop {
            let upto = log.last(tenant)?;
            if upto > after {
                // Everything appended up to `upto` is on disk once this resolves.
                store.commit().await?;
            }
            let keep = |e: &pigeon_storage::model::EventRecord| {
                e.test.is_none_or(|t| t == q.test)
                    && q.types.as_ref().is_none_or(|ts| ts.iter().any(|t| *t == e.event))
            };
            let page = log.read(tenant, after, upto, q.limit, MAX_SCAN, keep)?;
            after = page.last_seen.or(after);
            let events: Vec<_> = page.events.into_iter().map(|(id, e)| (id, e.payload)).collect();
            if !events.is_empty() || !page.at_end {
                return Ok(EventBatch { events, next_cursor: after.unwrap_or_default() });
            }
            let waited = tokio::time::timeout_at(deadline, appended.changed()).await;
            if !matches!(waited, Ok(Ok(()))) {
                return Ok(EventBatch { events, next_cursor: self.end_cursor(after)? });
            }
        }
    }

    /// The cursor to wait on at the end of the log: the last event read, or a little before now
    /// when that is older (see [`END_MARGIN`]), never below what was pruned.
    fn end_cursor(&self, after: Option<Ulid>) -> Result<Ulid, EngineError> {
        let recent = pigeon_storage::id_bound(self.inner.clock.now() - END_MARGIN);
        let pruned = self.inner.store.events().pruned_below()?;
        Ok(after.unwrap_or_default().max(recent).max(pruned))
    }
}

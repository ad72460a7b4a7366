//! The retention sweeper: deletes what the node no longer keeps (DESIGN "Retention"), so disk use
//! levels off on a node that runs for months. Final messages and settled webhook deliveries go
//! once older than the retention window, idempotency keys after their 24 h, detection answers
//! after their 7 days, daily counters once their day is over by a day; queued, leased and held
//! messages and pending deliveries never go.
//!
//! It runs on a thread of its own (as nice as the work threads), because its deletes read the
//! oldest, coldest pages, which may have to come from disk; in batches of [`BATCH`] per tenant and
//! kind, going on while a batch comes back full, so it keeps up with any sustained rate the node
//! accepts.
//! The cutoff comes from the injectable clock; a message's or delivery's age is the time in its id
//! (ids come from the system clock, so in production both agree). Passes start on a real-time tick.

use std::time::{Duration, Instant};

use actix::prelude::*;
use pigeon_storage::{id_bound, Cursor, Store};
use ulid::Ulid;

use crate::clock::SharedClock;
use crate::tenant::{DETECTION_TTL, IDEMPOTENCY_WINDOW};

/// How often a pass starts.
const EVERY: Duration = Duration::from_secs(1);
/// Records deleted (or looked at, for whole-tree scans) per tenant and kind in one turn.
const BATCH: usize = 256;

/// Records of a span read per turn while it is retired (a read, not a delete, each), and the
/// pause between turns: up to ~40k records a second, a few seconds for a span at this VM's
/// highest rates, spread out so the reads do not crowd the accept path's disk and CPU.
const SPAN_BATCH: usize = 2_048;
const SPAN_PAUSE: Duration = Duration::from_millis(50);

/// When a pass goes on.
enum Turn {
    Now,
    Later,
    Done,
}
/// Idempotency keys and detections are found by scanning their whole trees, so those scans run
/// at most this often.
const SCAN_EVERY: Duration = Duration::from_secs(60);
/// Daily counters too, but a day's go only once it is over: an hourly scan is soon enough.
const COUNTER_SCAN_EVERY: Duration = Duration::from_secs(3_600);

/// What a pass counts, by the `kind` label of `pigeon_retention_deleted_total`.
const KINDS: [&str; 8] =
    ["message", "delivery", "idempotency_key", "detection", "counter", "event", "media", "media_file"];

/// Media records and files are found by scanning too (every record, and on sled the media
/// directory), this often on the injectable clock, so a test that moves the clock a day on sees
/// them go at the next pass. Records wait a day and files ten minutes: a quarter hour is soon.
const MEDIA_SCAN_EVERY: chrono::Duration = chrono::Duration::minutes(15);

pub(crate) struct Sweeper {
    store: Store,
    clock: SharedClock,
    retention: chrono::Duration,
    /// A pass is under way (it goes on over several turns).
    running: bool,
    /// The pass's per-tenant batches are not done: a turn of a scan alone does not walk the
    /// tenants again.
    tenants_due: bool,
    /// Where the whole-tree scans stand, and when they may start again.
    idempotency: Cursor,
    detections: Cursor,
    counters: Cursor,
    next_scan: Instant,
    next_counter_scan: Instant,
    media: Cursor,
    media_files: Option<String>,
    next_media_scan: chrono::DateTime<chrono::Utc>,
}

impl Sweeper {
    pub(crate) fn new(store: Store, clock: SharedClock, retention: Duration) -> Self {
        store.set_span_length(span_length(retention));
        Self {
            store,
            clock,
            retention: chrono::Duration::from_std(retention).unwrap_or(chrono::Duration::MAX),
            running: false,
            tenants_due: false,
            idempotency: None,
            detections: None,
            counters: None,
            next_scan: Instant::now(),
            next_counter_scan: Instant::now(),
            media: None,
            media_files: None,
            next_media_scan: chrono::DateTime::<chrono::Utc>::MIN_UTC,
        }
    }

    fn start_pass(&mut self, ctx: &mut Context<Self>) {
        if !self.running {
            self.running = true;
            self.tenants_due = true;
            self.step(ctx);
        }
    }

    /// One turn of a pass; schedules the next turn while there may be more to delete.
    fn step(&mut self, ctx: &mut Context<Self>) {
        match self.sweep() {
            Ok(Turn::Now) => {
                // Yield between batches, so a stop at shutdown is not held up by a long pass.
                ctx.spawn(tokio::task::yield_now().into_actor(self).map(|(), act, ctx| act.step(ctx)));
            }
            Ok(Turn::Later) => {
                ctx.run_later(SPAN_PAUSE, |act, ctx| act.step(ctx));
            }
            Ok(Turn::Done) => self.running = false,
            Err(e) => {
                log_store_failure!(e, "retention sweep failed; trying again at the next pass");
                self.running = false;
            }
        }
    }

    /// Deletes one batch of each kind; says when to go on: at once if any batch came back full,
    /// after a pause if only a span's retirement is under way.
    fn sweep(&mut self) -> Result<Turn, pigeon_storage::StoreError> {
        let now = self.clock.now();
        let before = id_bound(now.checked_sub_signed(self.retention).unwrap_or_default());
        let mut more = false;
        // Spans of messages and deliveries whose time is over go whole (storage's `spans.rs`);
        // the tenants' batches below delete the rest (records from before spans, and those a
        // retired span handed on because they were not final yet) key by key.
        let (mut messages, mut deliveries, spans_due) = self.store.retire_spans(before, SPAN_BATCH)?;
        let mut events = 0;
        // Only a pass's first turn, or one after a full batch, walks the tenants.
        if std::mem::take(&mut self.tenants_due) {
            let mut after: Option<Ulid> = None;
            loop {
                let tenants = self.store.tenants().page(after, 1000)?;
                let Some(last) = tenants.last() else { break };
                after = Some(last.id);
                for t in &tenants {
                    let m = self.store.prune_messages(t.id, before, BATCH)?;
                    let d = self.store.prune_deliveries(t.id, before, BATCH)?;
                    let e = self.store.prune_events(t.id, before, BATCH)?;
                    self.tenants_due |= m == BATCH || d == BATCH || e == BATCH;
                    events += e;
                    (messages, deliveries) = (messages + m, deliveries + d);
                }
            }
        }
        let (mut keys, mut detections, mut counters) = (0, 0, 0);
        if Instant::now() >= self.next_scan {
            let (cursor, n) =
                self.store.prune_idempotency(self.idempotency.take(), now - IDEMPOTENCY_WINDOW, BATCH)?;
            (self.idempotency, keys) = (cursor, n);
            let (cursor, n) =
                self.store.prune_detections(self.detections.take(), now - DETECTION_TTL, BATCH)?;
            (self.detections, detections) = (cursor, n);
            if self.idempotency.is_some() || self.detections.is_some() {
                more = true;
            } else {
                self.next_scan = Instant::now() + SCAN_EVERY;
            }
        }
        if Instant::now() >= self.next_counter_scan {
            // Yesterday's stay (a day's last counts may still be on their way to disk).
            let yesterday = now.date_naive() - chrono::Days::new(1);
            let (cursor, n) = self.store.prune_daily_counters(self.counters.take(), yesterday, BATCH)?;
            (self.counters, counters) = (cursor, n);
            if self.counters.is_some() {
                more = true;
            } else {
                self.next_counter_scan = Instant::now() + COUNTER_SCAN_EVERY;
            }
        }
        let (media, media_files) = self.sweep_media(now)?;
        more |= self.tenants_due || self.media.is_some() || self.media_files.is_some();
        let counts = [messages, deliveries, keys, detections, counters, events, media, media_files];
        for (kind, n) in KINDS.into_iter().zip(counts) {
            if n > 0 {
                metrics::counter!("pigeon_retention_deleted_total", "kind" => kind).increment(n as u64);
            }
        }
        Ok(if more {
            Turn::Now
        } else if spans_due {
            Turn::Later
        } else {
            Turn::Done
        })
    }
}

impl Sweeper {
    /// One batch of the media scans when they are due: records nothing holds, then, once those
    /// are all looked at, files no record holds. Returns how many of each went.
    fn sweep_media(
        &mut self,
        now: chrono::DateTime<chrono::Utc>,
    ) -> Result<(usize, usize), pigeon_storage::StoreError> {
        if self.media.is_none() && self.media_files.is_none() && now < self.next_media_scan {
            return Ok((0, 0));
        }
        let mut records = 0;
        if self.media_files.is_none() {
            (self.media, records) = self.store.prune_media(self.media.take(), now, BATCH)?;
            if self.media.is_some() {
                return Ok((records, 0));
            }
        }
        let before_ms = now.timestamp_millis() - pigeon_storage::media::GRACE_MS;
        let (cursor, files) = self.store.prune_media_files(self.media_files.take(), before_ms, BATCH)?;
        self.media_files = cursor;
        if self.media_files.is_none() {
            self.next_media_scan = now + MEDIA_SCAN_EVERY;
        }
        Ok((records, files))
    }
}

/// How long a span of messages and deliveries is for a retention window: a sixteenth of it, from
/// a second to a day. A final record goes once its whole span is older than the window, so up to
/// a span after its own time does; shorter spans mean more trees, each retired on its own, and
/// each retirement frees fewer pages at once (their entries stay until reused).
pub(crate) fn span_length(retention: Duration) -> Duration {
    (retention / 16).clamp(Duration::from_secs(1), Duration::from_secs(86_400))
}

impl Actor for Sweeper {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        // Every kind shows on /metrics from the start, at 0.
        for kind in KINDS {
            metrics::counter!("pigeon_retention_deleted_total", "kind" => kind).increment(0);
        }
        ctx.run_interval(EVERY, |act, ctx| act.start_pass(ctx));
    }
}

//! Load shedding on the send path. A node offered more sends than it can write used to queue the
//! rest without bound (in actor mailboxes and commit waits): at 3× capacity every accept waited
//! tens of seconds, memory grew, and a client could not tell "slow" from "overloaded". Now a gate
//! bounds the sends in the accept path ([`Gate`]): a send it cannot take is answered 503
//! `OVERLOADED` with `Retry-After` at once, before its body is parsed, so a refusal costs little
//! and the sends taken keep their latency. The gate lets bursts through, and is fair between
//! tenants: one that floods is refused, a quiet one beside it is not. The refused body is still
//! read and dropped (at most 1 MiB, within the body time-out): left unread, it made actix-http
//! close the connection, and under overload every refusal then cost the client a new connection.
//!
//! A send is judged when it arrives but takes its place only once its body is in: a client that
//! never finishes its body (slowloris) holds a connection until the body time-out, never a place,
//! so stalled uploads cannot fill the gate and lock every other sender out.
//!
//! A refusal is answered last ([`behind_the_others`]): on a worker with nothing else to do at
//! once, on a busy one after the connections ready before it. A refusal costs about what a no-op
//! request costs (HTTP in and out), so a flood answered in arrival order kept the workers busy
//! with refusals while the sends taken waited their turn among 1,024 connections to be read and
//! answered. Answered last, a connection that floods waits while the others go first.

use std::cell::{Cell, RefCell};
use std::collections::VecDeque;
use std::future::Future;
use std::hash::BuildHasher;
use std::pin::Pin;
use std::rc::Rc;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use std::time::{Duration, Instant};

use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpRequest};
use futures_util::future::{ready, Either, LocalBoxFuture, Ready};
use futures_util::StreamExt;
use pigeon_actors::{Engine, EngineError, LocatedKey};
use ulid::Ulid;

use crate::error::ApiError;
use crate::limits::{BODY_TIMEOUT, MAX_BODY};

/// The most sends in the accept path at once while the gate sheds, unless the operator sets
/// another; the bound then applied is what the node answers in [`QUEUE_TARGET`], if fewer.
/// Measured under overload (`benches/overload.rs`, docs/operating.md "Overload"), before bursts
/// and fairness: 256 let the sends taken wait ~0.7 s at p99 behind the refusals, 128 about 0.1 s.
pub const DEFAULT_MAX_PENDING_SENDS: usize = 128;

/// The gate judges each window of this length by the one before: a window in which most sends
/// arrived to a full bound makes the next one shed. A burst that drains within about a window
/// (2,000 connections opening at once on a quiet node) is taken whole, up to [`BURST`] times the
/// bound. Judged by arrivals, not by the count at one moment: a group commit answers all its
/// sends at once, so the count drops to nearly nothing many times a second under any load.
const WINDOW: Duration = Duration::from_millis(100);

/// [`WINDOW`] in the gate's clock, microseconds.
const WINDOW_US: u64 = WINDOW.as_micros() as u64;

/// While shedding, how long a send taken may wait beyond the quickest send of the last window:
/// the bound is what the node answers in that time (Little's law), so the sends taken wait about
/// as long on any machine. A fixed count did not: 128 places are 15 ms of sends at 8,500 answered
/// a second, but 40–70 ms at the 2,000–3,500 a node answers while a flood takes its cores. 10 ms
/// held the sends taken closer still but took a third fewer of them; 20 ms left 6 % over 50 ms. The
/// quickest send's time is the part no smaller bound shortens (a commit's sync), so a slow disk
/// does not shrink the bound to nothing.
const QUEUE_TARGET: Duration = Duration::from_millis(15);

/// [`QUEUE_TARGET`] in the gate's clock, microseconds.
const QUEUE_TARGET_US: u64 = QUEUE_TARGET.as_micros() as u64;

/// How far past the bound a burst may go while the gate is not shedding.
const BURST: usize = 4;

/// Fairness buckets in each of two rows: tenants are told apart by a keyed hash of their id, never
/// by an attacker's choice. A tenant counts in one bucket of each row and is judged by the
/// smaller count (a count-min sketch), so a quiet tenant is taken for a flooder only if it shares
/// both of the flooder's buckets, one time in this many squared. With one row it was one in
/// 1,024: such a tenant was refused for as long as the flood lasted.
const BUCKETS: usize = 1024;

/// A tenant's place in the gate's counts: its bucket in the first row and in the second.
#[derive(Debug, Clone, Copy)]
struct Bucket([usize; 2]);

/// The longest a refusal waits behind its worker's other work: the `Retry-After` a client is told
/// to wait anyway.
const LAST_AT_MOST: Duration = Duration::from_secs(1);

/// The bound and how many sends are past it now, overall and per tenant; shared by every worker.
///
/// Past the bound, a tenant holding fewer places than the tenants in the path hold on average
/// still gets in: a flooding tenant fills the bound and is refused, a quiet one beside it is not.
/// So does a tenant whose sends arrive less than half as often as the average sender's over the
/// current window and the one before: a quiet tenant whose own sends are slow for a moment may
/// hold more places than a flooder that is mostly refused, and was refused for it (0–1.7 % of a
/// 200/s tenant's sends beside a flood).
/// Nothing gets past [`BURST`] + 1 times the operator's bound. While the gate sheds (see
/// [`WINDOW`]), the bound is what the node answers in [`QUEUE_TARGET`]; otherwise the burst
/// allowance applies.
#[derive(Debug)]
pub struct Gate {
    pending: AtomicUsize,
    max: usize,
    held: Box<[AtomicU32]>,
    /// Buckets holding at least one place.
    active: AtomicUsize,
    /// The current window: its start (µs since `epoch`), its arrivals, and those that found the
    /// bound full.
    window: AtomicU64,
    arrivals: AtomicU32,
    full: AtomicU32,
    /// Sends answered in the current window, and the quickest of them (µs in the accept path).
    done: AtomicU32,
    quickest: AtomicU64,
    /// The bound while shedding (see [`QUEUE_TARGET`]).
    bound: AtomicUsize,
    /// The current window's number, and per bucket the sends that arrived during it and the
    /// window before (see [`Gate::count_in`]); how many buckets sent in it, and in the one before,
    /// and the known sends that arrived in the one before. Two windows, not one: early in a
    /// window a few sends are all there is to judge by, and a quiet tenant's burst of ten then
    /// outnumbered a flood whose clients were waiting for their refusals, and was refused.
    seq: AtomicU32,
    arrived: Box<[AtomicU64]>,
    senders: AtomicU32,
    senders_before: AtomicU32,
    arrivals_before: AtomicU32,
    /// Sends whose key names no tenant, counted as `arrived` is: kept out of the average
    /// sender's rate, so a flood of bad keys does not let real senders past.
    unknown: AtomicU64,
    shedding: AtomicBool,
    epoch: Instant,
    hasher: std::hash::RandomState,
}

impl Gate {
    /// A gate letting `max` sends through at once (at least one).
    pub fn new(max: usize) -> Arc<Self> {
        Arc::new(Self {
            pending: AtomicUsize::new(0),
            max: max.max(1),
            held: (0..2 * BUCKETS).map(|_| AtomicU32::new(0)).collect(),
            active: AtomicUsize::new(0),
            window: AtomicU64::new(0),
            arrivals: AtomicU32::new(0),
            full: AtomicU32::new(0),
            done: AtomicU32::new(0),
            quickest: AtomicU64::new(u64::MAX),
            bound: AtomicUsize::new(max.max(1)),
            seq: AtomicU32::new(0),
            arrived: (0..2 * BUCKETS).map(|_| AtomicU64::new(0)).collect(),
            senders: AtomicU32::new(0),
            senders_before: AtomicU32::new(0),
            arrivals_before: AtomicU32::new(0),
            unknown: AtomicU64::new(0),
            shedding: AtomicBool::new(false),
            epoch: Instant::now(),
            hasher: std::hash::RandomState::new(),
        })
    }

    /// The bound that applies while shedding, now.
    pub fn bound(&self) -> usize {
        self.bound.load(Ordering::Relaxed)
    }

    /// Sends in the accept path now.
    pub fn pending(&self) -> usize {
        self.pending.load(Ordering::Relaxed)
    }

    /// Whether the gate sheds now: most sends of the last window found the bound full.
    pub fn shedding(&self) -> bool {
        self.shedding_at(self.micros())
    }

    fn shedding_at(&self, now: u64) -> bool {
        let window = self.window.load(Ordering::Relaxed);
        self.shedding.load(Ordering::Relaxed) && now.saturating_sub(window) < 2 * WINDOW_US
    }

    fn bucket(&self, who: impl std::hash::Hash) -> Bucket {
        let hash = self.hasher.hash_one(who);
        Bucket([(hash as u32) as usize % BUCKETS, BUCKETS + (hash >> 32) as usize % BUCKETS])
    }

    /// The places a tenant holds: the smaller of its two buckets' counts.
    fn holding(&self, bucket: Bucket) -> usize {
        let [first, second] = bucket.0.map(|b| self.held[b].load(Ordering::Relaxed));
        first.min(second) as usize
    }

    fn micros(&self) -> u64 {
        self.epoch.elapsed().as_micros() as u64
    }

    /// Counts an arrival at `now` and answers the bound that applies to it: the burst allowance,
    /// or, while shedding, the bound the last window's sends allow (see [`QUEUE_TARGET`]).
    fn arrive(&self, now: u64) -> (usize, usize) {
        let window = self.window.load(Ordering::Relaxed);
        if now.saturating_sub(window) >= WINDOW_US
            && self.window.compare_exchange(window, now, Ordering::Relaxed, Ordering::Relaxed).is_ok()
        {
            // Only the previous window counts: a silence longer than one ends shedding.
            let recent = now - window < 2 * WINDOW_US;
            let (arrivals, full) =
                (self.arrivals.swap(0, Ordering::Relaxed), self.full.swap(0, Ordering::Relaxed));
            let (done, quickest) =
                (self.done.swap(0, Ordering::Relaxed), self.quickest.swap(u64::MAX, Ordering::Relaxed));
            let shedding = recent && full * 2 > arrivals;
            if !shedding {
                self.bound.store(self.max, Ordering::Relaxed);
            } else if done > 0 {
                self.bound.store(self.bound_for(done, quickest, now - window), Ordering::Relaxed);
            }
            self.shedding.store(shedding, Ordering::Relaxed);
            // After a silence the window before is empty: skipping a number makes every count read so.
            let seq = self.seq.fetch_add(if recent { 1 } else { 2 }, Ordering::Relaxed);
            let (_, unknown) = unpack(seq, self.unknown.load(Ordering::Relaxed));
            let senders = self.senders.swap(0, Ordering::Relaxed);
            let known = arrivals.saturating_sub(unknown);
            self.senders_before.store(if recent { senders } else { 0 }, Ordering::Relaxed);
            self.arrivals_before.store(if recent { known } else { 0 }, Ordering::Relaxed);
        }
        let p = self.pending();
        let shedding = self.shedding.load(Ordering::Relaxed);
        let limit = if shedding { self.bound.load(Ordering::Relaxed) } else { self.max * BURST };
        self.arrivals.fetch_add(1, Ordering::Relaxed);
        if p >= if shedding { limit } else { self.max } {
            self.full.fetch_add(1, Ordering::Relaxed);
        }
        (p, limit)
    }

    /// The bound while shedding, from a window of `elapsed` µs in which `done` sends were
    /// answered, the quickest in `quickest` µs: as many sends as the node answers in that time
    /// plus [`QUEUE_TARGET`] (Little's law), between an eighth of the operator's bound and all of it.
    fn bound_for(&self, done: u32, quickest: u64, elapsed: u64) -> usize {
        let allowed = u64::from(done) * (QUEUE_TARGET_US + quickest) / elapsed.max(1);
        (allowed as usize).clamp((self.max / 8).max(1), self.max)
    }

    /// Whether a send of `bucket` arriving at `now` is let in.
    fn judge(&self, bucket: Bucket, now: u64) -> bool {
        let (p, limit) = self.arrive(now);
        let mine = self.count_arrival(bucket);
        p < limit || self.past_the_bound(bucket, p, mine)
    }

    /// Whether a send of `bucket`, its `arrived`th in this window and the one before, gets in
    /// though `p` sends fill the bound. Holding fewer than the tenants in the path hold on
    /// average, a tenant still gets in, up to one bound past the burst allowance. Tenants that all
    /// flood end with equal holdings, and none gets in past them until one is answered, so between
    /// them they hold about the bound. A quiet tenant may hold as many as the flooder: with the
    /// bound as small as a slow node's, a share of it refused quiet tenants too. And a tenant
    /// sending less than half as often as the average sender (over the two windows) gets in
    /// whatever it holds; tenants that flood alike send alike, so none of them does.
    fn past_the_bound(&self, bucket: Bucket, p: usize, arrived: u32) -> bool {
        if p >= self.max * (BURST + 1) {
            return false;
        }
        let mine = self.holding(bucket);
        let tenants = self.active.load(Ordering::Relaxed) + usize::from(mine == 0);
        if mine * tenants < p {
            return true;
        }
        let senders = self.senders.load(Ordering::Relaxed).max(self.senders_before.load(Ordering::Relaxed));
        let (_, unknown) = self.read(&self.unknown);
        let arrivals = self.arrivals.load(Ordering::Relaxed).saturating_sub(unknown)
            + self.arrivals_before.load(Ordering::Relaxed);
        2 * u64::from(arrived) * u64::from(senders) < u64::from(arrivals)
    }

    /// Counts an arrival of `bucket` in the current window; answers its arrivals in it and in
    /// the window before (the smaller row's). Senders are counted in the first row.
    fn count_arrival(&self, bucket: Bucket) -> u32 {
        let [(before, now), second] = bucket.0.map(|b| self.count_in(&self.arrived[b]));
        if now == 1 {
            self.senders.fetch_add(1, Ordering::Relaxed);
        }
        (before + now).min(second.0 + second.1)
    }

    /// Adds one to a count of arrivals kept in one atomic: the number of the window it was last
    /// counted in (high half), the window before's count and its own (16 bits each, saturating).
    /// Answers the window before's count and the current one's.
    fn count_in(&self, slot: &AtomicU64) -> (u32, u32) {
        let seq = self.seq.load(Ordering::Relaxed);
        let mut counted = slot.load(Ordering::Relaxed);
        loop {
            let (before, now) = unpack(seq, counted);
            let now = (now + 1).min(0xffff);
            let next = u64::from(seq) << 32 | u64::from(before) << 16 | u64::from(now);
            match slot.compare_exchange_weak(counted, next, Ordering::Relaxed, Ordering::Relaxed) {
                Ok(_) => return (before, now),
                Err(seen) => counted = seen,
            }
        }
    }

    /// A count's arrivals in the window before the current one and in the current one.
    fn read(&self, slot: &AtomicU64) -> (u32, u32) {
        unpack(self.seq.load(Ordering::Relaxed), slot.load(Ordering::Relaxed))
    }

    /// Whether a send nobody can be fair to is refused at `now`: the bound that applies is full.
    fn refuses_unknown(&self, now: u64) -> bool {
        let (p, limit) = self.arrive(now);
        self.count_in(&self.unknown);
        p >= limit
    }

    /// Takes a place for `bucket`; the tenants in the path are counted in the first row.
    fn take(&self, bucket: Bucket) {
        self.pending.fetch_add(1, Ordering::Relaxed);
        let [first, second] = bucket.0;
        self.held[second].fetch_add(1, Ordering::Relaxed);
        if self.held[first].fetch_add(1, Ordering::Relaxed) == 0 {
            self.active.fetch_add(1, Ordering::Relaxed);
        }
    }

    /// Gives back a place held for `micros` µs.
    fn give_back(&self, bucket: Bucket, micros: u64) {
        self.done.fetch_add(1, Ordering::Relaxed);
        self.quickest.fetch_min(micros, Ordering::Relaxed);
        let [first, second] = bucket.0;
        self.held[second].fetch_sub(1, Ordering::Relaxed);
        if self.held[first].fetch_sub(1, Ordering::Relaxed) == 1 {
            self.active.fetch_sub(1, Ordering::Relaxed);
        }
        self.pending.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A count kept by [`Gate::count_in`], as of window `seq`: its arrivals in the window before and
/// in `seq` itself.
fn unpack(seq: u32, counted: u64) -> (u32, u32) {
    let (at, before, now) =
        ((counted >> 32) as u32, (counted >> 16) as u32 & 0xffff, counted as u32 & 0xffff);
    if at == seq {
        (before, now)
    } else if at.wrapping_add(1) == seq {
        (now, 0)
    } else {
        (0, 0)
    }
}

/// A send let in when it arrived, with its caller when an API key named it (looked up here, so
/// the gate can be fair between tenants, and not again by the handler); [`Admitted::hold`] takes
/// its place once its body is read. As a handler's first argument it is decided before the body
/// is read: actix-web makes every argument's extractor in order, so a refusal takes the body away
/// from the ones after it, and stops at the first error.
pub struct Admitted {
    gate: Arc<Gate>,
    bucket: Bucket,
    /// The caller as found at once (a key that names no tenant is the handler's 401); `None`
    /// for a token the identity provider must verify.
    pub key: Option<Result<LocatedKey, EngineError>>,
}

impl Admitted {
    /// Takes the send's place in the accept path until the returned [`Slot`] is dropped. Taken
    /// even if the gate filled up meanwhile: the send was let in when it came.
    pub fn hold(self) -> Slot {
        self.gate.take(self.bucket);
        Slot { gate: self.gate, bucket: self.bucket, since: Instant::now() }
    }
}

/// A send's place in the accept path, held until its answer is made.
pub struct Slot {
    gate: Arc<Gate>,
    bucket: Bucket,
    since: Instant,
}

impl Drop for Slot {
    fn drop(&mut self) {
        let held = self.since.elapsed();
        self.gate.give_back(self.bucket, held.as_micros() as u64);
        metrics::histogram!("pigeon_send_accept_seconds").record(held.as_secs_f64());
    }
}

impl FromRequest for Admitted {
    type Error = ApiError;
    type Future = Either<Ready<Result<Self, ApiError>>, LocalBoxFuture<'static, Result<Self, ApiError>>>;

    fn from_request(req: &HttpRequest, payload: &mut Payload) -> Self::Future {
        let (Some(gate), Some(engine)) =
            (req.app_data::<web::Data<Gate>>(), req.app_data::<web::Data<Engine>>())
        else {
            return Either::Left(ready(Err(ApiError::Internal)));
        };
        let gate = gate.clone().into_inner();
        let token = crate::extract::bearer_str(req).unwrap_or_default();
        // A tenant is known at once by its API key; a provider's token counts as its own caller
        // until the handler has verified it.
        let key = engine.locate_now(token);
        let (bucket, known) = match &key {
            Some(Ok(key)) => (gate.bucket(key.tenant_id), true),
            Some(Err(_)) => (gate.bucket(Ulid::nil()), false),
            None => (gate.bucket(token), true),
        };
        let now = gate.micros();
        // A key that names no tenant takes no share of a congested gate.
        if if known { gate.judge(bucket, now) } else { !gate.refuses_unknown(now) } {
            return Either::Left(ready(Ok(Admitted { gate, bucket, key })));
        }
        metrics::counter!("pigeon_sends_refused_total", "reason" => "overloaded").increment(1);
        let body = payload.take();
        Either::Right(Box::pin(async move {
            let _ = actix_web::rt::time::timeout(BODY_TIMEOUT, drain(body)).await;
            let _ = actix_web::rt::time::timeout(LAST_AT_MOST, behind_the_others()).await;
            Err(ApiError::Overloaded)
        }))
    }
}

/// Reads a body to its end and drops it, stopping past [`MAX_BODY`] (the connection then closes).
async fn drain(mut body: Payload) {
    let mut read = 0;
    while let Some(Ok(chunk)) = body.next().await {
        read += chunk.len();
        if read > MAX_BODY {
            return;
        }
    }
}

/// A worker thread's refusals waiting for their turn, oldest first, each with the flag that lets
/// it go; and its releaser task.
#[derive(Default)]
struct Line {
    waiting: VecDeque<(Rc<Cell<bool>>, Waker)>,
    releaser: ReleaserState,
}

#[derive(Default)]
enum ReleaserState {
    /// No refusal on this thread yet.
    #[default]
    NotStarted,
    Running,
    /// Asleep until a refusal joins the line.
    Parked(Waker),
}

thread_local! {
    static LINE: RefCell<Line> = RefCell::new(Line::default());
}

/// Resolves once the tasks ready on this worker thread have had a turn: a releaser task lets one
/// waiting refusal go each time the worker's queue comes round to it, and goes to sleep when none
/// waits. On an idle worker that is at once; on one busy with a flood it lets the sends taken, and
/// any connection not refused, be read and answered first. A refused client of a closed loop then
/// waits (at most [`LAST_AT_MOST`]) instead of coming back at once to take another turn.
fn behind_the_others() -> impl Future<Output = ()> {
    let released = Rc::new(Cell::new(false));
    let mut queued = false;
    std::future::poll_fn(move |cx| {
        if released.get() {
            return Poll::Ready(());
        }
        if !queued {
            queued = true;
            let before = LINE.with_borrow_mut(|line| {
                line.waiting.push_back((released.clone(), cx.waker().clone()));
                std::mem::replace(&mut line.releaser, ReleaserState::Running)
            });
            match before {
                ReleaserState::NotStarted => drop(actix_web::rt::spawn(Releaser)),
                ReleaserState::Parked(releaser) => releaser.wake(),
                ReleaserState::Running => {}
            }
        }
        Poll::Pending
    })
}

/// Lets one waiting refusal of its worker go per turn (see [`behind_the_others`]).
struct Releaser;

impl Future for Releaser {
    type Output = ();

    fn poll(self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<()> {
        let next = LINE.with_borrow_mut(|line| {
            let next = line.waiting.pop_front();
            if next.is_none() {
                line.releaser = ReleaserState::Parked(cx.waker().clone());
            }
            next
        });
        if let Some((released, waker)) = next {
            released.set(true);
            waker.wake();
            // Back of the worker's queue: the next refusal goes after everything ready now.
            cx.waker().wake_by_ref();
        }
        Poll::Pending
    }
}

#[cfg(test)]
mod tests;

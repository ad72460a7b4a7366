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

use std::hash::BuildHasher;
use std::sync::atomic::{AtomicBool, AtomicU32, AtomicU64, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use actix_web::dev::Payload;
use actix_web::{web, FromRequest, HttpRequest};
use futures_util::future::{ready, Either, LocalBoxFuture, Ready};
use futures_util::StreamExt;
use pigeon_actors::{Engine, EngineError, LocatedKey};
use ulid::Ulid;

use crate::error::ApiError;
use crate::limits::{BODY_TIMEOUT, MAX_BODY};

/// Sends in the accept path at once while the gate sheds, unless the operator sets another bound.
/// Measured under overload (`benches/overload.rs`, docs/operating.md "Overload"), before bursts
/// and fairness: 256 let the sends taken wait ~0.7 s at p99 behind the refusals, 128 about 0.1 s;
/// 32 already refused an open-loop client at half the node's rate.
pub const DEFAULT_MAX_PENDING_SENDS: usize = 128;

/// The gate judges each window of this length by the one before: a window in which most sends
/// arrived to a full bound makes the next one shed. A burst that drains within about a window
/// (2,000 connections opening at once on a quiet node) is taken whole, up to [`BURST`] times the
/// bound. Judged by arrivals, not by the count at one moment: a group commit answers all its
/// sends at once, so the count drops to nearly nothing many times a second under any load.
const WINDOW: Duration = Duration::from_millis(100);

/// [`WINDOW`] in the gate's clock, microseconds.
const WINDOW_US: u64 = WINDOW.as_micros() as u64;

/// How far past the bound a burst may go while the gate is not shedding.
const BURST: usize = 4;

/// Fairness buckets: tenants are told apart by a keyed hash of their id, so two share a bucket
/// only by chance (one in this many), never by an attacker's choice.
const BUCKETS: usize = 1024;

/// The bound and how many sends are past it now, overall and per tenant; shared by every worker.
///
/// Past the bound, a tenant holding less than its share (the bound over the tenants holding
/// places) still gets in: a flooding tenant fills the bound and is refused, a quiet one beside it
/// is not. Nothing gets past [`BURST`] + 1 times the bound. While the gate sheds (see [`WINDOW`]),
/// the bound applies; otherwise the burst allowance does.
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
            held: (0..BUCKETS).map(|_| AtomicU32::new(0)).collect(),
            active: AtomicUsize::new(0),
            window: AtomicU64::new(0),
            arrivals: AtomicU32::new(0),
            full: AtomicU32::new(0),
            shedding: AtomicBool::new(false),
            epoch: Instant::now(),
            hasher: std::hash::RandomState::new(),
        })
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

    fn bucket(&self, who: impl std::hash::Hash) -> usize {
        self.hasher.hash_one(who) as usize % BUCKETS
    }

    fn micros(&self) -> u64 {
        self.epoch.elapsed().as_micros() as u64
    }

    /// Counts an arrival at `now` and answers the bound that applies to it: the burst allowance,
    /// or the bound itself while shedding.
    fn arrive(&self, now: u64) -> (usize, usize) {
        let window = self.window.load(Ordering::Relaxed);
        if now.saturating_sub(window) >= WINDOW_US
            && self.window.compare_exchange(window, now, Ordering::Relaxed, Ordering::Relaxed).is_ok()
        {
            // Only the previous window counts: a silence longer than one ends shedding.
            let recent = now - window < 2 * WINDOW_US;
            let (arrivals, full) =
                (self.arrivals.swap(0, Ordering::Relaxed), self.full.swap(0, Ordering::Relaxed));
            self.shedding.store(recent && full * 2 > arrivals, Ordering::Relaxed);
        }
        let p = self.pending();
        self.arrivals.fetch_add(1, Ordering::Relaxed);
        if p >= self.max {
            self.full.fetch_add(1, Ordering::Relaxed);
        }
        (p, if self.shedding.load(Ordering::Relaxed) { self.max } else { self.max * BURST })
    }

    /// Whether a send of `bucket` arriving at `now` is let in.
    fn judge(&self, bucket: usize, now: u64) -> bool {
        let (p, limit) = self.arrive(now);
        if p < limit {
            return true;
        }
        // Below its share, a tenant still gets in, up to one bound past the burst allowance: the
        // tenants below their shares cannot hold more than the bound between them, except for
        // the sends let in at once before they took their places.
        let mine = self.held[bucket].load(Ordering::Relaxed) as usize;
        let tenants = self.active.load(Ordering::Relaxed) + usize::from(mine == 0);
        mine * tenants < limit && p < self.max * (BURST + 1)
    }

    /// Whether a send nobody can be fair to is refused at `now`: the bound that applies is full.
    fn refuses_unknown(&self, now: u64) -> bool {
        let (p, limit) = self.arrive(now);
        p >= limit
    }

    fn take(&self, bucket: usize) {
        self.pending.fetch_add(1, Ordering::Relaxed);
        if self.held[bucket].fetch_add(1, Ordering::Relaxed) == 0 {
            self.active.fetch_add(1, Ordering::Relaxed);
        }
    }

    fn give_back(&self, bucket: usize) {
        if self.held[bucket].fetch_sub(1, Ordering::Relaxed) == 1 {
            self.active.fetch_sub(1, Ordering::Relaxed);
        }
        self.pending.fetch_sub(1, Ordering::Relaxed);
    }
}

/// A send let in when it arrived, with its caller when an API key named it (looked up here, so
/// the gate can be fair between tenants, and not again by the handler); [`Admitted::hold`] takes
/// its place once its body is read. As a handler's first argument it is decided before the body
/// is read: actix-web makes every argument's extractor in order, so a refusal takes the body away
/// from the ones after it, and stops at the first error.
pub struct Admitted {
    gate: Arc<Gate>,
    bucket: usize,
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
    bucket: usize,
    since: Instant,
}

impl Drop for Slot {
    fn drop(&mut self) {
        self.gate.give_back(self.bucket);
        metrics::histogram!("pigeon_send_accept_seconds").record(self.since.elapsed().as_secs_f64());
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

#[cfg(test)]
mod tests {
    use super::*;

    const MS: u64 = 1000;

    fn take(gate: &Gate, bucket: usize, n: usize, now: u64) {
        for _ in 0..n {
            assert!(gate.judge(bucket, now), "let in");
            gate.take(bucket);
        }
    }

    #[test]
    fn a_burst_past_the_bound_is_taken_and_a_window_of_arrivals_to_a_full_bound_sheds() {
        let gate = Gate::new(4);
        take(&gate, 0, 16, 1);
        assert!(!gate.judge(0, 2), "four times the bound is the most a burst gets");
        (0..16).for_each(|_| gate.give_back(0));
        // Most arrivals of that window found the bound full: the next window sheds, though the
        // burst has drained, so the bound itself applies.
        take(&gate, 0, 4, 100 * MS);
        assert!(gate.shedding_at(100 * MS));
        assert!(!gate.judge(0, 101 * MS), "shedding: the bound itself applies");
        // A window whose arrivals mostly found room ends it: another burst is taken whole.
        (0..4).for_each(|_| gate.give_back(0));
        take(&gate, 0, 16, 200 * MS);
        assert!(!gate.shedding_at(200 * MS));
        (0..8).for_each(|_| assert!(!gate.judge(0, 250 * MS)));
        // A group commit answers everything at once; shedding goes on for the window all the same.
        (0..16).for_each(|_| gate.give_back(0));
        take(&gate, 0, 4, 300 * MS);
        assert!(gate.shedding_at(300 * MS));
        assert!(!gate.judge(0, 320 * MS));
        // A silence ends it too: neither the gauge nor the gate keeps an old window's state.
        assert!(!gate.shedding_at(600 * MS));
        (0..4).for_each(|_| gate.give_back(0));
        take(&gate, 0, 16, 600 * MS);
    }

    #[test]
    fn past_the_bound_a_tenant_below_its_share_still_gets_in_but_the_flooder_does_not() {
        let gate = Gate::new(4);
        take(&gate, 7, 16, 1);
        (0..40).for_each(|_| assert!(!gate.judge(7, 50 * MS)));
        let shedding = 100 * MS;
        (0..12).for_each(|_| gate.give_back(7));
        assert!(!gate.judge(7, shedding), "the flooder holds the whole bound");
        assert!(gate.shedding_at(shedding));
        assert!(gate.judge(9, shedding), "a quiet tenant gets in past it");
        gate.take(9);
        gate.take(9);
        assert!(!gate.judge(9, shedding), "its share of two is 2");
        assert!(gate.judge(11, shedding), "a third tenant's share is 1");
        // Sends let in at once, before any of them took its place, overshoot the bound.
        (0..14).for_each(|_| gate.take(7));
        assert!(!gate.judge(11, shedding), "nothing gets past five times the bound");
        assert!(gate.refuses_unknown(shedding), "a key of no tenant has no share");
        assert_eq!(gate.active.load(Ordering::Relaxed), 2);
        (0..2).for_each(|_| gate.give_back(9));
        assert_eq!(gate.active.load(Ordering::Relaxed), 1);
        (0..15).for_each(|_| gate.give_back(7));
        assert!(gate.judge(7, shedding + 1), "room again once places are given back");
    }
}

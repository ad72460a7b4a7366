//! The built-in webhook receiver: it checks each signature and notes when each delivery arrived.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use actix_web::{web, App, HttpRequest, HttpResponse, HttpServer};
use hdrhistogram::Histogram;
use serde_json::Value;

use pigeon_actors::webhook::{sign, SIGNATURE_HEADER};

/// Sends and their webhooks, matched by message id. Only what is in flight is kept, so a soak of
/// millions of messages holds as little as a short run: a map of every message ever sent grew
/// (and rehashed, under this lock) without end and stalled the harness itself for seconds.
pub(crate) struct Tracker {
    /// Accepted, no webhook yet: message id → when its send was due.
    in_flight: HashMap<u128, Instant>,
    /// Webhooks that came before their send's 202 was read (or came twice): id → arrival.
    early: HashMap<u128, Instant>,
    /// When the measured phase starts; sends due before it are the warm-up's.
    pub(crate) measured: Option<Instant>,
    /// Accepted messages whose webhook arrived, warm-up included.
    pub(crate) arrived: u64,
    /// Of those, the ones sent in the measured phase.
    pub(crate) delivered: u64,
    /// Their send-to-webhook times, µs.
    pub(crate) end_to_end: Histogram<u64>,
    pub(crate) bad_signatures: u64,
    /// The current soak window's figures.
    pub(crate) window: Window,
}

impl Default for Tracker {
    fn default() -> Self {
        Self {
            in_flight: HashMap::new(),
            early: HashMap::new(),
            measured: None,
            arrived: 0,
            delivered: 0,
            end_to_end: histogram(),
            bad_signatures: 0,
            window: Window::default(),
        }
    }
}

fn key(id: &str) -> Option<u128> {
    ulid::Ulid::from_string(id).ok().map(u128::from)
}

impl Tracker {
    /// A send was accepted: `intended` is when it was due.
    pub(crate) fn sent(&mut self, id: &str, intended: Instant) {
        let Some(k) = key(id) else { return };
        match self.early.remove(&k) {
            Some(at) => self.matched(intended, at),
            None => {
                self.in_flight.insert(k, intended);
            }
        }
    }

    /// A validly signed webhook for `id` arrived at `at`.
    pub(crate) fn webhook(&mut self, id: &str, at: Instant) {
        let Some(k) = key(id) else { return };
        match self.in_flight.remove(&k) {
            Some(sent) => self.matched(sent, at),
            None => {
                self.early.entry(k).or_insert(at);
            }
        }
    }

    fn matched(&mut self, sent: Instant, at: Instant) {
        let took = at.saturating_duration_since(sent).as_micros().max(1) as u64;
        self.arrived += 1;
        record(&mut self.window.end_to_end, took);
        if self.measured.is_some_and(|m| sent >= m) {
            self.delivered += 1;
            record(&mut self.end_to_end, took);
        }
    }

    /// Accepted messages whose webhook has not come (yet).
    pub(crate) fn outstanding(&self) -> usize {
        self.in_flight.len()
    }
}

pub(crate) type Shared = Arc<Mutex<Tracker>>;

/// The built-in webhook receiver: checks the signature, notes when each delivery arrived.
pub(crate) fn start_sink(tracker: Shared, secret: Arc<Mutex<String>>) -> std::io::Result<String> {
    let server = HttpServer::new(move || {
        let (tracker, secret) = (tracker.clone(), secret.clone());
        App::new().default_service(web::to(move |req: HttpRequest, body: web::Bytes| {
            let (tracker, secret) = (tracker.clone(), secret.clone());
            async move {
                let now = Instant::now();
                let sig = req.headers().get(SIGNATURE_HEADER).and_then(|v| v.to_str().ok()).unwrap_or("");
                let ok = sig == sign(&secret.lock().unwrap(), &body);
                let id = serde_json::from_slice::<Value>(&body)
                    .ok()
                    .and_then(|v| v["message_id"].as_str().map(str::to_owned));
                let mut t = tracker.lock().unwrap();
                match (ok, id) {
                    (true, Some(id)) => t.webhook(&id, now),
                    _ => t.bad_signatures += 1,
                }
                HttpResponse::Ok().finish()
            }
        }))
    })
    .workers(1)
    .bind("127.0.0.1:0")?;
    let url = format!("http://{}/hook", server.addrs()[0]);
    actix_web::rt::spawn(server.run());
    Ok(url)
}

/// What the connections and the sink record into for the current window.
pub(crate) struct Window {
    pub(crate) accept: Histogram<u64>,
    pub(crate) end_to_end: Histogram<u64>,
    pub(crate) accepted: u64,
}

impl Default for Window {
    fn default() -> Self {
        Self { accept: histogram(), end_to_end: histogram(), accepted: 0 }
    }
}

/// A latency histogram in µs from 1 µs, sized for a minute and growing past it as values need.
/// A fixed bound dropped what it could not hold: a soak window whose every webhook came more
/// than a minute late reported an end-to-end p99 of 0, the node's worst moment as its best.
pub(crate) fn histogram() -> Histogram<u64> {
    let mut h = Histogram::new_with_bounds(1, 60_000_000, 3).expect("bounds");
    h.auto(true);
    h
}

/// Records a latency of `micros`; none is ever dropped (see [`histogram`]).
pub(crate) fn record(h: &mut Histogram<u64>, micros: u64) {
    if h.record(micros).is_err() {
        // Only a histogram too large for memory fails to grow; keep the value at its top.
        h.saturating_record(micros);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    #[test]
    fn sends_and_webhooks_match_in_either_order_and_only_the_unmatched_stay() {
        let t0 = Instant::now();
        let mut t = Tracker { measured: Some(t0), ..Tracker::default() };
        let (a, b, c) =
            ("01KX0000000000000000000000", "01KX0000000000000000000001", "01KX0000000000000000000002");
        t.sent(a, t0);
        t.webhook(b, t0 + Duration::from_millis(3)); // before its 202 was read
        t.sent(b, t0 + Duration::from_millis(1));
        t.sent(c, t0 - Duration::from_millis(1)); // warm-up
        t.webhook(a, t0 + Duration::from_millis(5));
        t.webhook(a, t0 + Duration::from_millis(9)); // a retry's duplicate: counted once
        assert_eq!((t.arrived, t.delivered, t.outstanding()), (2, 2, 1));
        assert_eq!(t.end_to_end.len(), 2);
        assert!(t.end_to_end.equivalent(t.end_to_end.max(), 5_000), "{}", t.end_to_end.max());
        t.webhook(c, t0);
        assert_eq!((t.arrived, t.delivered, t.outstanding()), (3, 2, 0));
    }

    #[test]
    fn a_webhook_later_than_any_bound_is_counted_at_its_latency_not_dropped() {
        let t0 = Instant::now();
        let mut t = Tracker { measured: Some(t0), ..Tracker::default() };
        let (a, b) = ("01KX0000000000000000000000", "01KX0000000000000000000001");
        t.sent(a, t0);
        t.sent(b, t0);
        t.webhook(a, t0 + Duration::from_secs(90));
        t.webhook(b, t0 + Duration::from_secs(900));
        for h in [&t.window.end_to_end, &t.end_to_end] {
            assert_eq!(h.len(), 2, "both recorded");
            assert!(h.equivalent(h.value_at_quantile(0.99), 900_000_000), "{}", h.value_at_quantile(0.99));
            assert!(h.equivalent(h.value_at_quantile(0.5), 90_000_000), "{}", h.value_at_quantile(0.5));
        }
    }
}

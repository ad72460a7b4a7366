//! One endpoint's deliverer: signs each delivery, posts it, records every attempt, and retries on
//! the 2/4/8 s schedule by the injectable clock. Manual retries start a new cycle.

use std::collections::{BTreeSet, HashMap, HashSet, VecDeque};
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use actix::prelude::*;
use chrono::{DateTime, Utc};
use futures_util::future::LocalBoxFuture;
use pigeon_storage::model::{Attempt, DeliveryRecord, DeliveryState, WebhookRecord};
use pigeon_storage::Store;
use ulid::Ulid;

use super::signature::{
    sign, standard_sign, ID_HEADER, SIGNATURE_HEADER, STANDARD_SIGNATURE_HEADER, TIMESTAMP_HEADER,
};
use super::vet::{PrivateNetworks, PRIVATE_REFUSED};
use super::{Outcomes, ATTEMPT_TIMEOUT, BACKOFF};
use crate::clock::SharedClock;
use crate::error::Missing;

/// Requests in flight to one endpoint at most.
const MAX_IN_FLIGHT: usize = 32;
/// How often an endpoint's actor looks for retries that fell due (by the injectable clock).
const TICK: Duration = Duration::from_millis(50);

/// One endpoint's deliverer.
pub struct WebhookActor {
    pub(super) store: Store,
    pub(super) clock: SharedClock,
    pub(super) hook: WebhookRecord,
    allowed: PrivateNetworks,
    outcomes: Arc<Outcomes>,
    client: Option<awc::Client>,
    /// Attempts to make now, oldest first.
    pub(super) ready: VecDeque<Ulid>,
    /// Retries by due time.
    pub(super) due: BTreeSet<(DateTime<Utc>, Ulid)>,
    pub(super) in_flight: HashSet<Ulid>,
    /// What each delivery not yet answered once is about (a message, a phone).
    subjects: HashMap<Ulid, Ulid>,
    /// By subject: the delivery whose first attempt is in flight, and those waiting for its answer.
    opening: HashMap<Ulid, (Ulid, VecDeque<Ulid>)>,
}

impl WebhookActor {
    pub(crate) fn new(
        store: Store,
        clock: SharedClock,
        hook: WebhookRecord,
        allowed: PrivateNetworks,
        outcomes: Arc<Outcomes>,
    ) -> Self {
        Self {
            store,
            clock,
            hook,
            allowed,
            outcomes,
            client: None,
            ready: VecDeque::new(),
            due: BTreeSet::new(),
            in_flight: HashSet::new(),
            subjects: HashMap::new(),
            opening: HashMap::new(),
        }
    }

    pub(super) fn load(&self, id: Ulid) -> Option<DeliveryRecord> {
        self.store.webhooks().delivery(self.hook.tenant_id, self.hook.id, id).ok().flatten()
    }

    fn tick(&mut self, ctx: &mut Context<Self>) {
        let now = self.clock.now();
        while let Some(&(at, id)) = self.due.first() {
            if at > now {
                break;
            }
            self.due.pop_first();
            self.ready.push_back(id);
        }
        self.pump(ctx);
    }

    fn schedule(&mut self, d: &DeliveryRecord) {
        match d.next_attempt_at {
            Some(at) if at > self.clock.now() => {
                self.due.insert((at, d.id));
            }
            _ => self.ready.push_back(d.id),
        }
    }

    pub(super) fn pump(&mut self, ctx: &mut Context<Self>) {
        while self.in_flight.len() < MAX_IN_FLIGHT {
            let Some(id) = self.ready.pop_front() else { break };
            if self.in_flight.contains(&id) {
                continue;
            }
            let Some(d) = self.load(id).filter(|d| d.state == DeliveryState::Pending) else {
                self.answered(id);
                continue;
            };
            if !self.open(id, &d) {
                continue;
            }
            self.in_flight.insert(id);
            let at = self.clock.now();
            let started = Instant::now();
            let fut = self.attempt(d.event_id, d.payload.clone());
            // In flight, the delivery is this actor's alone (a manual retry waits for the
            // outcome), so the record goes along instead of being read again.
            ctx.spawn(fut.into_actor(self).map(move |outcome, act, ctx| {
                act.finish(d, at, started.elapsed(), outcome);
                act.in_flight.remove(&id);
                act.answered(id);
                act.pump(ctx);
            }));
        }
    }

    /// Whether `id` may go now: a first attempt waits while an earlier event about the same
    /// subject awaits its first answer (events of one message arrive in the order of its life).
    fn open(&mut self, id: Ulid, d: &DeliveryRecord) -> bool {
        let Some(&subject) = self.subjects.get(&id) else { return true };
        if !d.attempts.is_empty() {
            self.subjects.remove(&id);
            return true;
        }
        match self.opening.get_mut(&subject) {
            Some((first, waiting)) if *first != id => {
                waiting.push_back(id);
                false
            }
            Some(_) => true,
            None => {
                self.opening.insert(subject, (id, VecDeque::new()));
                true
            }
        }
    }

    /// `id`'s first attempt was answered: the next event about its subject may go.
    fn answered(&mut self, id: Ulid) {
        let Some(subject) = self.subjects.remove(&id) else { return };
        let Some((first, waiting)) = self.opening.remove(&subject) else { return };
        if first != id {
            self.opening.insert(subject, (first, waiting));
            return;
        }
        let mut waiting = waiting;
        if let Some(next) = waiting.pop_front() {
            self.opening.insert(subject, (next, waiting));
            self.ready.push_front(next);
        }
    }

    /// The Standard Webhooks signatures of an attempt at `timestamp`: the current secret's, and
    /// while a rotation's overlap lasts the previous one's, space-separated; `None` when neither
    /// secret is a `whsec_` one.
    fn standard_signatures(&self, id: &str, timestamp: i64, body: &[u8]) -> Option<String> {
        let previous = self
            .hook
            .previous_secret
            .as_deref()
            .filter(|_| self.hook.previous_until.is_some_and(|until| self.clock.now() < until));
        let all: Vec<String> = std::iter::once(self.hook.secret.as_str())
            .chain(previous)
            .filter_map(|secret| standard_sign(secret, id, timestamp, body))
            .collect();
        (!all.is_empty()).then(|| all.join(" "))
    }

    /// One HTTP attempt: `(status, error kind, snippet)`.
    fn attempt(
        &self,
        event_id: Ulid,
        body: String,
    ) -> LocalBoxFuture<'static, (Option<u16>, Option<String>, Option<String>)> {
        let literal_private = self
            .hook
            .url
            .parse::<awc::http::Uri>()
            .ok()
            .and_then(|u| u.host().map(|h| h.trim_start_matches('[').trim_end_matches(']').to_owned()))
            .and_then(|h| h.parse::<IpAddr>().ok())
            .is_some_and(|ip| !self.allowed.allows(ip));
        if literal_private {
            return Box::pin(async { (None, Some(PRIVATE_REFUSED.to_string()), None) });
        }
        let client = self.client.clone().expect("started");
        let (id, timestamp) = (event_id.to_string(), self.clock.now().timestamp());
        let mut req = client
            .post(&self.hook.url)
            .insert_header(("content-type", "application/json"))
            .insert_header((SIGNATURE_HEADER, sign(&self.hook.secret, body.as_bytes())))
            .insert_header(("user-agent", "pigeon-webhooks/0.1"));
        if let Some(signatures) = self.standard_signatures(&id, timestamp, body.as_bytes()) {
            req = req
                .insert_header((ID_HEADER, id))
                .insert_header((TIMESTAMP_HEADER, timestamp.to_string()))
                .insert_header((STANDARD_SIGNATURE_HEADER, signatures));
        }
        let attempt = async move {
            match req.send_body(body).await {
                Ok(res) => {
                    let status = res.status().as_u16();
                    let snippet = read_capped(res, SNIPPET_READ).await;
                    let snippet = String::from_utf8_lossy(&snippet).chars().take(200).collect::<String>();
                    (Some(status), None, Some(snippet).filter(|s| !s.is_empty()))
                }
                Err(e) => (None, Some(error_kind(&e)), None),
            }
        };
        // The time-out covers the whole attempt: a receiver that sends its headers and then
        // stalls its body must not hold the delivery.
        Box::pin(async move {
            tokio::time::timeout(ATTEMPT_TIMEOUT, attempt)
                .await
                .unwrap_or_else(|_| (None, Some("timeout".into()), None))
        })
    }

    fn finish(
        &mut self,
        mut d: DeliveryRecord,
        at: DateTime<Utc>,
        took: Duration,
        outcome: (Option<u16>, Option<String>, Option<String>),
    ) {
        let id = d.id;
        let (status_code, error, response_snippet) = outcome;
        let kind = match (&error, status_code.is_some_and(|s| (200..300).contains(&s))) {
            (Some(kind), _) => kind.clone(),
            (None, true) => "success".into(),
            (None, false) => "http_error".into(),
        };
        self.outcomes.add(&kind);
        metrics::counter!("pigeon_webhook_attempts_total", "outcome" => kind).increment(1);
        d.attempts.push(Attempt {
            at,
            cycle: d.cycle,
            status_code,
            error,
            duration_ms: took.as_millis() as u64,
            response_snippet,
        });
        let ok = status_code.is_some_and(|s| (200..300).contains(&s));
        let made = d.attempts.iter().filter(|a| a.cycle == d.cycle).count();
        let now = self.clock.now();
        if ok {
            d.state = DeliveryState::Succeeded;
            d.next_attempt_at = None;
        } else if let Some(wait) = BACKOFF.get(made - 1) {
            let next = now + chrono::Duration::from_std(*wait).expect("small");
            d.next_attempt_at = Some(next);
            self.due.insert((next, id));
        } else {
            d.state = DeliveryState::Failed;
            d.next_attempt_at = None;
        }
        if let Err(e) = self.store.webhooks().put_delivery(&d) {
            log_store_failure!(e, delivery_id = %id, "cannot record a webhook attempt");
        }
    }
}

/// How much of a receiver's answer is read: enough for the 200-character snippet, no more.
const SNIPPET_READ: usize = 1024;

/// The first bytes of a body, at most `cap`; the rest is never read (the connection is dropped).
async fn read_capped<S, B, E>(mut body: S, cap: usize) -> Vec<u8>
where
    S: futures_util::Stream<Item = Result<B, E>> + Unpin,
    B: AsRef<[u8]>,
{
    use futures_util::StreamExt;
    let mut out = Vec::new();
    while out.len() < cap {
        match body.next().await {
            Some(Ok(chunk)) => {
                let chunk = chunk.as_ref();
                out.extend_from_slice(&chunk[..chunk.len().min(cap - out.len())]);
            }
            _ => break,
        }
    }
    out
}

fn error_kind(e: &awc::error::SendRequestError) -> String {
    use awc::error::{ConnectError, SendRequestError as E};
    match e {
        E::Timeout => "timeout".into(),
        E::Connect(ConnectError::Resolver(r)) if r.to_string() == PRIVATE_REFUSED => PRIVATE_REFUSED.into(),
        E::Connect(ConnectError::Resolver(_)) => "dns".into(),
        E::Connect(ConnectError::Timeout) => "timeout".into(),
        E::Connect(ConnectError::SslIsNotSupported) => "tls".into(),
        // A failed handshake (an untrusted certificate, a receiver that does not speak TLS).
        E::Connect(ConnectError::Io(io)) if io.get_ref().is_some_and(|e| e.is::<rustls::Error>()) => {
            "tls".into()
        }
        E::Connect(_) => "connect".into(),
        _ => "request".into(),
    }
}

impl Actor for WebhookActor {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        self.client = Some(super::vet::vetted_client(self.allowed.clone(), ATTEMPT_TIMEOUT));
        ctx.run_interval(TICK, |act, ctx| act.tick(ctx));
    }
}

/// A new delivery, already written, and what its event is about (a message, a phone).
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct Deliver {
    pub id: Ulid,
    pub subject: Option<Ulid>,
}

impl Handler<Deliver> for WebhookActor {
    type Result = ();
    fn handle(&mut self, msg: Deliver, ctx: &mut Self::Context) {
        if let Some(subject) = msg.subject {
            self.subjects.insert(msg.id, subject);
        }
        self.ready.push_back(msg.id);
        self.pump(ctx);
    }
}

/// Pending deliveries found at start-up: each resumes where its schedule stands.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct Resume(pub Vec<Ulid>);

impl Handler<Resume> for WebhookActor {
    type Result = ();
    fn handle(&mut self, mut msg: Resume, ctx: &mut Self::Context) {
        // Oldest first (ids grow with time), each never-attempted one ordered behind the earlier
        // events about its subject as before the restart.
        msg.0.sort_unstable();
        for id in msg.0 {
            if let Some(d) = self.load(id).filter(|d| d.state == DeliveryState::Pending) {
                if d.attempts.is_empty() {
                    if let Some(subject) = subject_of(&d.payload) {
                        self.subjects.insert(d.id, subject);
                    }
                }
                self.schedule(&d);
            }
        }
        self.pump(ctx);
    }
}

/// What a stored payload is about: its message, or its phone.
fn subject_of(payload: &str) -> Option<Ulid> {
    #[derive(serde::Deserialize)]
    struct Subject {
        message_id: Option<String>,
        phone_id: Option<String>,
    }
    let s: Subject = serde_json::from_str(payload).ok()?;
    s.message_id.or(s.phone_id)?.parse().ok()
}

/// Start a new cycle of attempts (the tenant's manual retry).
#[derive(Message)]
#[rtype(result = "Result<DeliveryRecord, crate::EngineError>")]
pub(crate) struct Retry(pub Ulid);

impl Handler<Retry> for WebhookActor {
    type Result = Result<DeliveryRecord, crate::EngineError>;
    fn handle(&mut self, msg: Retry, ctx: &mut Self::Context) -> Self::Result {
        let mut d = self.load(msg.0).ok_or(crate::EngineError::NotFound(Missing::Delivery))?;
        if d.state == DeliveryState::Pending {
            return Err(crate::EngineError::InvalidTransition(
                "state: the delivery is still pending; retry it once it has succeeded or failed".into(),
            ));
        }
        d.cycle += 1;
        d.state = DeliveryState::Pending;
        d.next_attempt_at = Some(self.clock.now());
        self.store.webhooks().put_delivery(&d)?;
        self.ready.push_back(d.id);
        self.pump(ctx);
        Ok(d)
    }
}

/// Deliveries not yet settled: ready, in flight or waiting for a retry.
#[derive(Message)]
#[rtype(result = "usize")]
pub(crate) struct Depth;

impl Handler<Depth> for WebhookActor {
    type Result = usize;
    fn handle(&mut self, _: Depth, _: &mut Self::Context) -> usize {
        self.ready.len() + self.in_flight.len() + self.due.len()
    }
}

/// The endpoint's record changed (a rotated secret): sign with the new one from now on.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct UpdateHook(pub WebhookRecord);

impl Handler<UpdateHook> for WebhookActor {
    type Result = ();
    fn handle(&mut self, msg: UpdateHook, _: &mut Self::Context) {
        self.hook = msg.0;
    }
}

/// The endpoint is deleted: stop.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct Stop;

impl Handler<Stop> for WebhookActor {
    type Result = ();
    fn handle(&mut self, _: Stop, ctx: &mut Self::Context) {
        ctx.stop();
    }
}

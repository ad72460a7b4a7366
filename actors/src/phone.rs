//! The phone actor: one per phone. It owns the phone's outbound queue and the leases of what it
//! handed out, and drives either a simulated phone (in process) or an agent (a device that pulls
//! jobs). Capacity (the daily limit) is the tenant actor's business; this actor only delivers.

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use actix::prelude::*;
use pigeon_storage::model::{
    Channel, Lease, MessageRecord, MessageStatus, PhoneDriver, PhoneRecord, SimSettings,
};
use pigeon_storage::Store;
use serde::Serialize;
use tokio::sync::oneshot;
use ulid::Ulid;

use crate::clock::SharedClock;
use crate::EngineError;

/// A lease not answered within this goes back to the queue.
pub const LEASE: Duration = Duration::from_secs(60);
/// An agent is online while it polled within this.
pub const ONLINE_WINDOW_MS: i64 = 30_000;
/// Most jobs one poll takes.
pub const MAX_JOBS_PER_POLL: usize = 10;
const SWEEP_EVERY: Duration = Duration::from_millis(500);

/// Phone state other actors read without a round trip: whether it can take work now.
#[derive(Debug)]
pub struct PhoneLive {
    driver: PhoneDriver,
    sim_online: AtomicBool,
    last_poll_ms: AtomicI64,
}

impl PhoneLive {
    pub(crate) fn new(rec: &PhoneRecord) -> Arc<Self> {
        Arc::new(Self {
            driver: rec.driver,
            sim_online: AtomicBool::new(rec.sim_online),
            last_poll_ms: AtomicI64::new(i64::MIN / 2),
        })
    }

    /// Online: a sim switched on, or an agent that polled in the last 30 s.
    pub fn is_online(&self, now_ms: i64) -> bool {
        match self.driver {
            PhoneDriver::Sim => self.sim_online.load(Ordering::Relaxed),
            PhoneDriver::Agent => now_ms - self.last_poll_ms.load(Ordering::Relaxed) <= ONLINE_WINDOW_MS,
        }
    }

    pub(crate) fn polled(&self, now_ms: i64) {
        self.last_poll_ms.store(now_ms, Ordering::Relaxed);
    }

    pub(crate) fn set_sim_online(&self, on: bool) {
        self.sim_online.store(on, Ordering::Relaxed);
    }
}

/// A unit of work handed to an agent: `send` a message, or `detect` whether a number has iMessage.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Job {
    /// Lease id (send) or question id (detect).
    pub job_id: String,
    /// `send` or `detect`.
    pub kind: &'static str,
    /// Send: the message.
    pub message_id: Option<String>,
    /// Send: recipient.
    pub to: Option<String>,
    /// Send: text.
    pub body: Option<String>,
    /// Send: `auto`, `imessage` or `sms` (`auto` resolved when detection knows the number).
    pub channel: Option<Channel>,
    /// Detect: the number to check.
    pub phone: Option<String>,
}

pub(crate) struct PhoneActor {
    store: Store,
    clock: SharedClock,
    tenant_id: Ulid,
    phone_id: Ulid,
    driver: PhoneDriver,
    sim: SimSettings,
    live: Arc<PhoneLive>,
    /// Messages waiting, oldest first.
    queue: VecDeque<Ulid>,
    /// Messages leased to the agent, by message id.
    leases: HashMap<Ulid, Lease>,
    /// Agent polls waiting for work.
    waiters: Vec<oneshot::Sender<Vec<Job>>>,
    /// Detection questions not yet handed out, and those handed out awaiting an answer.
    detect_queue: VecDeque<(Ulid, String)>,
    detect_waiting: HashMap<Ulid, (String, oneshot::Sender<bool>)>,
    /// Set once the phone is deleted: nothing more is dispatched.
    retired: bool,
    /// Work found at start-up, not yet read back (oldest first).
    recovering: VecDeque<Ulid>,
    /// Sim deliveries waiting out their latency.
    sim_in_flight: usize,
    /// The tenant's webhooks, for the events its messages' fates make.
    subs: crate::webhook::Subscribers,
}

impl PhoneActor {
    pub(crate) fn new(
        store: Store,
        clock: SharedClock,
        rec: &PhoneRecord,
        live: Arc<PhoneLive>,
        subs: crate::webhook::Subscribers,
    ) -> Self {
        Self {
            store,
            clock,
            tenant_id: rec.tenant_id,
            phone_id: rec.id,
            driver: rec.driver,
            sim: rec.sim,
            live,
            queue: VecDeque::new(),
            leases: HashMap::new(),
            waiters: Vec::new(),
            detect_queue: VecDeque::new(),
            detect_waiting: HashMap::new(),
            retired: false,
            recovering: VecDeque::new(),
            sim_in_flight: 0,
            subs,
        }
    }

    fn load(&self, id: Ulid) -> Option<MessageRecord> {
        match self.store.message(self.tenant_id, id) {
            Ok(m) => m,
            Err(e) => {
                tracing::error!(error = %e, message_id = %id, "cannot read message");
                None
            }
        }
    }

    /// Writes a message's new state, with the webhook deliveries a final state makes.
    fn save(&self, m: &MessageRecord) {
        if let Err(e) = crate::webhook::write_with_events(&self.store, &self.subs, m, self.clock.now()) {
            tracing::error!(error = %e, message_id = %m.id, "cannot write message");
        }
    }

    /// Fails a message that must not go out; returns true if it did.
    fn refuse_if_opted_out(&self, m: &mut MessageRecord) -> bool {
        if self.store.is_opted_out(self.tenant_id, &m.to).unwrap_or(false) {
            fail(
                m,
                self.clock.now(),
                "RECIPIENT_OPTED_OUT",
                "The recipient opted out before the message was sent.",
            );
            self.save(m);
            return true;
        }
        false
    }

    /// Takes the next queued messages that may go out, up to `max`, marking them `sending`.
    fn take(&mut self, max: usize) -> Vec<MessageRecord> {
        let mut out = Vec::new();
        while out.len() < max {
            let Some(id) = self.queue.pop_front() else { break };
            let Some(mut m) = self.load(id) else { continue };
            if m.status != MessageStatus::Queued || self.refuse_if_opted_out(&mut m) {
                continue;
            }
            m.status = MessageStatus::Sending;
            out.push(m);
        }
        out
    }

    /// Hands work to the phone: sim phones start delivering; agents' waiting polls get jobs.
    fn dispatch(&mut self, ctx: &mut Context<Self>) {
        if self.retired || (self.queue.is_empty() && self.detect_queue.is_empty()) {
            return;
        }
        match self.driver {
            PhoneDriver::Sim => {
                if !self.live.is_online(0) {
                    return;
                }
                let batch = self.take(usize::MAX);
                let latency = Duration::from_millis(self.sim.latency_ms);
                for mut m in batch {
                    if latency.is_zero() {
                        // An instant carrier: `sending` would last no time, so only the outcome is
                        // written (a crash before it re-queues the message either way).
                        self.sim_outcome(&mut m);
                        self.save(&m);
                        continue;
                    }
                    self.save(&m);
                    let id = m.id;
                    self.sim_in_flight += 1;
                    ctx.run_later(latency, move |act, _| {
                        act.sim_in_flight -= 1;
                        act.finish_sim(id);
                    });
                }
            }
            PhoneDriver::Agent => {
                while !self.queue.is_empty() || !self.detect_queue.is_empty() {
                    let Some(tx) = self.next_waiter() else { break };
                    let (jobs, commit) = self.lease(MAX_JOBS_PER_POLL);
                    if jobs.is_empty() {
                        let _ = tx.send(jobs);
                        break;
                    }
                    let me = ctx.address();
                    actix::spawn(async move {
                        if commit.await.is_err() {
                            return;
                        }
                        if let Err(jobs) = tx.send(jobs) {
                            // The poll gave up meanwhile: the work goes back, not to waste.
                            me.do_send(Unlease(
                                jobs.iter().filter_map(|j| j.message_id.as_deref()?.parse().ok()).collect(),
                            ));
                        }
                    });
                }
            }
        }
    }

    fn next_waiter(&mut self) -> Option<oneshot::Sender<Vec<Job>>> {
        while !self.waiters.is_empty() {
            let tx = self.waiters.remove(0);
            if !tx.is_closed() {
                return Some(tx);
            }
        }
        None
    }

    /// Leases up to `max` messages; the jobs may be handed out once the returned commit resolves.
    fn lease(
        &mut self,
        max: usize,
    ) -> (Vec<Job>, impl std::future::Future<Output = Result<(), pigeon_storage::StoreError>> + use<>) {
        let until = self.clock.now() + chrono::Duration::from_std(LEASE).expect("small");
        let mut jobs: Vec<Job> = self
            .detect_queue
            .drain(..)
            .map(|(id, number)| Job {
                job_id: id.to_string(),
                kind: "detect",
                message_id: None,
                to: None,
                body: None,
                channel: None,
                phone: Some(number),
            })
            .collect();
        for mut m in self.take(max) {
            let lease = Lease { job_id: pigeon_storage::model::new_id(), until };
            m.lease = Some(lease.clone());
            self.save(&m);
            let channel = match m.channel {
                Channel::Auto => match self.store.detection(self.tenant_id, &m.to) {
                    Ok(Some(d)) if d.imessage => Channel::Imessage,
                    Ok(Some(_)) => Channel::Sms,
                    _ => Channel::Auto,
                },
                c => c,
            };
            jobs.push(Job {
                job_id: lease.job_id.to_string(),
                kind: "send",
                message_id: Some(m.id.to_string()),
                to: Some(m.to),
                body: Some(m.body),
                channel: Some(channel),
                phone: None,
            });
            self.leases.insert(m.id, lease);
        }
        (jobs, self.store.commit())
    }

    fn finish_sim(&mut self, id: Ulid) {
        let Some(mut m) = self.load(id) else { return };
        if m.status != MessageStatus::Sending {
            return;
        }
        self.sim_outcome(&mut m);
        self.save(&m);
    }

    /// The sim carrier's verdict on a message: delivered, or failed at the configured rate.
    fn sim_outcome(&self, m: &mut MessageRecord) {
        let now = self.clock.now();
        if self.sim.failure_rate > 0.0 && rand::random::<f64>() < self.sim.failure_rate {
            fail(m, now, "DELIVERY_FAILED", "Simulated carrier failure.");
        } else {
            m.status = MessageStatus::Delivered;
            m.sent_at = Some(now);
            m.delivered_at = Some(now);
            m.channel_used = Some(if sim_has_imessage(&m.to) && m.channel != Channel::Sms {
                Channel::Imessage
            } else {
                Channel::Sms
            });
        }
    }

    /// Lease expiry: unanswered jobs go back to the front of the queue.
    fn sweep(&mut self, ctx: &mut Context<Self>) {
        let now = self.clock.now();
        let expired: Vec<Ulid> =
            self.leases.iter().filter(|(_, l)| l.until <= now).map(|(id, _)| *id).collect();
        if expired.is_empty() {
            return;
        }
        self.unlease(expired);
        self.dispatch(ctx);
    }

    fn unlease(&mut self, ids: Vec<Ulid>) {
        let mut back = Vec::new();
        for id in ids {
            self.leases.remove(&id);
            let Some(mut m) = self.load(id) else { continue };
            if m.status == MessageStatus::Sending {
                m.status = MessageStatus::Queued;
                m.lease = None;
                self.save(&m);
                back.push(id);
            }
        }
        back.sort();
        for id in back.into_iter().rev() {
            self.queue.push_front(id);
        }
    }
}

/// The documented rule of sim phones: a number "has iMessage" when its last digit is even.
pub fn sim_has_imessage(number: &str) -> bool {
    number.bytes().last().is_some_and(|d| (d - b'0') % 2 == 0)
}

pub(crate) fn fail(m: &mut MessageRecord, now: chrono::DateTime<chrono::Utc>, code: &str, reason: &str) {
    m.status = MessageStatus::Failed;
    m.failed_at = Some(now);
    m.error_code = Some(code.into());
    m.failure_reason = Some(reason.into());
    m.lease = None;
}

impl Actor for PhoneActor {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        if self.driver == PhoneDriver::Agent {
            ctx.run_interval(SWEEP_EVERY, |act, ctx| act.sweep(ctx));
        }
    }
}

/// New work, already on disk.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct Enqueue(pub Ulid);

impl Handler<Enqueue> for PhoneActor {
    type Result = ();
    fn handle(&mut self, msg: Enqueue, ctx: &mut Self::Context) {
        self.queue.push_back(msg.0);
        self.dispatch(ctx);
    }
}

/// Work found on disk at start-up, oldest first.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct Recover(pub Vec<Ulid>);

impl Handler<Recover> for PhoneActor {
    type Result = ();
    fn handle(&mut self, msg: Recover, ctx: &mut Self::Context) {
        self.recovering.extend(msg.0);
        self.recover_chunk(ctx);
    }
}

/// Messages read back per turn of a recovering phone; between turns its mailbox (new sends,
/// polls, reports) is served, so a large backlog does not stall the phone.
const RECOVER_CHUNK: usize = 1024;

impl PhoneActor {
    fn recover_chunk(&mut self, ctx: &mut Context<Self>) {
        let n = self.recovering.len().min(RECOVER_CHUNK);
        for id in self.recovering.drain(..n).collect::<Vec<_>>() {
            let stale = pigeon_storage::PendingWork {
                phone_id: Some(self.phone_id),
                tenant_id: self.tenant_id,
                message_id: id,
            };
            let Some(mut m) = self.load(id) else {
                // Indexed, never written: a crash between the two.
                let _ = self.store.drop_pending(&stale);
                continue;
            };
            match (m.status, self.driver, m.lease.clone()) {
                (MessageStatus::Queued, _, _) => self.queue.push_back(id),
                // An agent may still answer a lease it took before the restart.
                (MessageStatus::Sending, PhoneDriver::Agent, Some(lease)) => {
                    self.leases.insert(id, lease);
                }
                // A sim delivery cut short starts again.
                (MessageStatus::Sending, _, _) => {
                    m.status = MessageStatus::Queued;
                    m.lease = None;
                    self.save(&m);
                    self.queue.push_back(id);
                }
                // Finished before the crash; only its index entry was left.
                _ => {
                    let _ = self.store.drop_pending(&stale);
                }
            }
        }
        if !self.recovering.is_empty() {
            // Yield the thread first: a message to self would be served in the same turn (actix
            // serves up to 256 messages per poll), starving the other actors of this arbiter.
            ctx.spawn(tokio::task::yield_now().into_actor(self).map(|(), act, ctx| act.recover_chunk(ctx)));
        }
        self.sweep(ctx);
        self.dispatch(ctx);
    }
}

/// `(queued, in flight)`: messages waiting here (read back or not yet), and messages being sent.
#[derive(Message)]
#[rtype(result = "(usize, usize)")]
pub(crate) struct Depth;

impl Handler<Depth> for PhoneActor {
    type Result = MessageResult<Depth>;
    fn handle(&mut self, _: Depth, _: &mut Self::Context) -> Self::Result {
        MessageResult((self.queue.len() + self.recovering.len(), self.leases.len() + self.sim_in_flight))
    }
}

/// Put leased messages back (a poll that gave up before its jobs arrived).
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct Unlease(pub Vec<Ulid>);

impl Handler<Unlease> for PhoneActor {
    type Result = ();
    fn handle(&mut self, msg: Unlease, ctx: &mut Self::Context) {
        self.unlease(msg.0);
        self.dispatch(ctx);
    }
}

/// An agent's long poll: jobs now, or the first ones to arrive within the wait.
#[derive(Message)]
#[rtype(result = "Result<Vec<Job>, EngineError>")]
pub(crate) struct Poll {
    pub wait: Duration,
}

impl Handler<Poll> for PhoneActor {
    type Result = ResponseFuture<Result<Vec<Job>, EngineError>>;

    fn handle(&mut self, msg: Poll, _: &mut Self::Context) -> Self::Result {
        self.live.polled(self.clock.now().timestamp_millis());
        if self.retired {
            return Box::pin(async { Err(EngineError::NotFound("phone")) });
        }
        let (jobs, commit) = self.lease(MAX_JOBS_PER_POLL);
        if !jobs.is_empty() || msg.wait.is_zero() {
            return Box::pin(async move {
                commit.await?;
                Ok(jobs)
            });
        }
        let (tx, rx) = oneshot::channel();
        self.waiters.push(tx);
        Box::pin(async move {
            Ok(tokio::time::timeout(msg.wait, rx).await.ok().and_then(Result::ok).unwrap_or_default())
        })
    }
}

/// An agent's report on a message it holds.
#[derive(Message)]
#[rtype(result = "Result<MessageRecord, EngineError>")]
pub(crate) struct Report {
    pub message_id: Ulid,
    pub status: MessageStatus,
    pub failure_reason: Option<String>,
    pub channel_used: Option<Channel>,
}

impl Handler<Report> for PhoneActor {
    type Result = ResponseFuture<Result<MessageRecord, EngineError>>;

    fn handle(&mut self, r: Report, _: &mut Self::Context) -> Self::Result {
        let res = (|| {
            let mut m = self
                .load(r.message_id)
                .filter(|m| m.phone_id == Some(self.phone_id) && !m.test)
                .ok_or(EngineError::NotFound("message"))?;
            use MessageStatus::*;
            let legal = matches!(
                (m.status, r.status),
                (Sending | Queued, Sent | Delivered | Failed) | (Sent, Delivered | Failed)
            );
            if m.status == r.status && matches!(m.status, Sent | Delivered | Failed) {
                return Ok(None); // a retried report: already applied
            }
            if !legal {
                return Err(EngineError::InvalidTransition(format!(
                    "status: a {} message cannot become {}",
                    status_name(m.status),
                    status_name(r.status)
                )));
            }
            let now = self.clock.now();
            // A late answer to an expired lease still counts: take the message off the queue.
            self.queue.retain(|id| *id != m.id);
            self.leases.remove(&m.id);
            m.lease = None;
            if r.channel_used.is_some() {
                m.channel_used = r.channel_used;
            }
            match r.status {
                Sent => {
                    m.status = Sent;
                    m.sent_at = Some(now);
                }
                Delivered => {
                    m.status = Delivered;
                    m.sent_at.get_or_insert(now);
                    m.delivered_at = Some(now);
                }
                _ => {
                    let reason = r.failure_reason.unwrap_or_else(|| "The phone reported a failure.".into());
                    fail(&mut m, now, "DELIVERY_FAILED", &reason);
                }
            }
            crate::webhook::write_with_events(&self.store, &self.subs, &m, now)?;
            Ok(Some((m, self.store.commit())))
        })();
        let id = r.message_id;
        let tenant = self.tenant_id;
        let store = self.store.clone();
        Box::pin(async move {
            match res? {
                Some((m, commit)) => {
                    commit.await?;
                    Ok(m)
                }
                None => store.message(tenant, id)?.ok_or(EngineError::NotFound("message")),
            }
        })
    }
}

/// The API's name of a status.
pub fn status_name(s: MessageStatus) -> &'static str {
    match s {
        MessageStatus::Queued => "queued",
        MessageStatus::Sending => "sending",
        MessageStatus::Sent => "sent",
        MessageStatus::Delivered => "delivered",
        MessageStatus::Failed => "failed",
        MessageStatus::Cancelled => "cancelled",
        MessageStatus::Received => "received",
    }
}

/// Cancel a message still in the queue.
#[derive(Message)]
#[rtype(result = "Result<MessageRecord, EngineError>")]
pub(crate) struct Cancel(pub Ulid);

impl Handler<Cancel> for PhoneActor {
    type Result = ResponseFuture<Result<MessageRecord, EngineError>>;

    fn handle(&mut self, msg: Cancel, _: &mut Self::Context) -> Self::Result {
        let res = (|| {
            let mut m = self.load(msg.0).ok_or(EngineError::NotFound("message"))?;
            let Some(pos) = self.queue.iter().position(|id| *id == msg.0) else {
                return Err(EngineError::InvalidTransition(format!(
                    "status: a {} message cannot be cancelled; only queued ones can",
                    status_name(m.status)
                )));
            };
            self.queue.remove(pos);
            m.status = MessageStatus::Cancelled;
            self.store.put_message(&m)?;
            Ok((m, self.store.commit()))
        })();
        Box::pin(async move {
            let (m, commit) = res?;
            commit.await?;
            Ok(m)
        })
    }
}

/// The operator changed the phone: new sim settings or online switch.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct Reconfigure {
    pub sim: SimSettings,
}

impl Handler<Reconfigure> for PhoneActor {
    type Result = ();
    fn handle(&mut self, msg: Reconfigure, ctx: &mut Self::Context) {
        self.sim = msg.sim;
        self.dispatch(ctx);
    }
}

/// The phone is deleted: what it still owes fails (no other phone was promised it), then it stops.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct Retire;

impl Handler<Retire> for PhoneActor {
    type Result = ();
    fn handle(&mut self, _: Retire, ctx: &mut Self::Context) {
        self.retired = true;
        let now = self.clock.now();
        let ids: Vec<Ulid> = self.queue.drain(..).chain(self.leases.drain().map(|(id, _)| id)).collect();
        for id in ids {
            if let Some(mut m) = self.load(id).filter(|m| m.status.is_pending()) {
                fail(&mut m, now, "NO_PHONE_AVAILABLE", "The phone was removed before the message was sent.");
                self.save(&m);
            }
        }
        for tx in self.waiters.drain(..) {
            let _ = tx.send(Vec::new());
        }
        ctx.stop();
    }
}

/// Ask the phone whether a number has iMessage; the answer comes on `reply`.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct Detect {
    pub number: String,
    pub reply: oneshot::Sender<bool>,
}

impl Handler<Detect> for PhoneActor {
    type Result = ();
    fn handle(&mut self, msg: Detect, ctx: &mut Self::Context) {
        if self.driver == PhoneDriver::Sim {
            let _ = msg.reply.send(sim_has_imessage(&msg.number));
            return;
        }
        let id = pigeon_storage::model::new_id();
        self.detect_waiting.retain(|_, (_, tx)| !tx.is_closed());
        self.detect_waiting.insert(id, (msg.number.clone(), msg.reply));
        self.detect_queue.push_back((id, msg.number));
        self.dispatch(ctx);
    }
}

/// An agent's answer to a detection question: the number it was about.
#[derive(Message)]
#[rtype(result = "Result<String, EngineError>")]
pub(crate) struct AnswerDetect {
    pub job_id: Ulid,
    pub imessage: bool,
}

impl Handler<AnswerDetect> for PhoneActor {
    type Result = Result<String, EngineError>;
    fn handle(&mut self, msg: AnswerDetect, _: &mut Self::Context) -> Self::Result {
        let (number, tx) =
            self.detect_waiting.remove(&msg.job_id).ok_or(EngineError::NotFound("detection job"))?;
        let _ = tx.send(msg.imessage);
        Ok(number)
    }
}

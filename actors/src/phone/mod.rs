//! The phone actor: one per phone. It owns the phone's outbound queue and the leases of what it
//! handed out, and drives either a simulated phone (in process) or an agent (a device that pulls
//! jobs). Capacity (the daily limit) is the tenant actor's business; this actor only delivers.

mod agent;
mod health;
mod recover;
mod sim;

use std::collections::{HashMap, VecDeque};
use std::sync::atomic::{AtomicBool, AtomicI64, Ordering};
use std::sync::Arc;

use actix::prelude::*;
use pigeon_storage::model::{Lease, MessageRecord, MessageStatus, PhoneDriver, PhoneRecord, SimSettings};
use pigeon_storage::Store;
use tokio::sync::oneshot;
use ulid::Ulid;

use crate::clock::SharedClock;
use crate::durable::after_commit;
use crate::error::Missing;
use crate::failure::FailureCode;
use crate::EngineError;

use agent::SWEEP_EVERY;
pub(crate) use agent::{AnswerDetect, Detect, HoldsMedia, JobsOnTheWay, Poll, Release, Report};
pub use agent::{Job, LEASE, MAX_JOBS_PER_POLL};
pub use health::DISABLE_AFTER;
pub(crate) use health::{DisablePhone, Failover, Owner, OwnerAddr};
pub(crate) use recover::Recover;
pub use sim::sim_has_imessage;

/// An agent is online while it polled within this.
pub const ONLINE_WINDOW_MS: i64 = pigeon_protocol::ONLINE_WINDOW_S as i64 * 1000;

/// How often an agent's last poll is saved (as a counter, written back within a second): often
/// enough that after a restart, even a `kill -9`, an agent that was polling is still online for
/// most of its window; rarely enough that an agent's reports, one per message, add no writes.
const SAVE_POLL_EVERY_MS: i64 = 5_000;

/// The counter holding an agent's last poll (engine-clock milliseconds).
pub(crate) fn polled_counter(phone: Ulid) -> String {
    format!("agent_polled:{phone}")
}

/// Phone state other actors read without a round trip: whether it can take work now.
#[derive(Debug)]
pub struct PhoneLive {
    driver: PhoneDriver,
    sim_online: AtomicBool,
    last_poll_ms: AtomicI64,
    saved_poll_ms: AtomicI64,
    /// What the agent says it is (its `User-Agent`), since this node started.
    agent: std::sync::Mutex<Option<String>>,
}

impl PhoneLive {
    /// `last_poll_ms`: the agent's last saved poll, so a phone started after a restart is online
    /// if its agent was polling just before.
    pub(crate) fn new(rec: &PhoneRecord, last_poll_ms: Option<i64>) -> Arc<Self> {
        let last = last_poll_ms.unwrap_or(i64::MIN / 2);
        Arc::new(Self {
            driver: rec.driver,
            sim_online: AtomicBool::new(rec.sim_online),
            last_poll_ms: AtomicI64::new(last),
            saved_poll_ms: AtomicI64::new(last),
            agent: std::sync::Mutex::new(None),
        })
    }

    /// Online: a sim switched on, or an agent that polled in the last 30 s.
    pub fn is_online(&self, now_ms: i64) -> bool {
        match self.driver {
            PhoneDriver::Sim => self.sim_online.load(Ordering::Relaxed),
            PhoneDriver::Agent => now_ms - self.last_poll_ms.load(Ordering::Relaxed) <= ONLINE_WINDOW_MS,
        }
    }

    /// Marks an agent's call (every one counts as a poll), and saves it now and then.
    pub(crate) fn polled(&self, store: &Store, tenant: Ulid, phone: Ulid, now_ms: i64) {
        self.last_poll_ms.store(now_ms, Ordering::Relaxed);
        let saved = self.saved_poll_ms.load(Ordering::Relaxed);
        if now_ms - saved >= SAVE_POLL_EVERY_MS
            && self
                .saved_poll_ms
                .compare_exchange(saved, now_ms, Ordering::Relaxed, Ordering::Relaxed)
                .is_ok()
        {
            store.tenants().set_counter(tenant, &polled_counter(phone), now_ms.max(0) as u64);
        }
    }

    /// When the agent last called (none for a sim, or an agent never heard from).
    pub fn last_poll_ms(&self) -> Option<i64> {
        let last = self.last_poll_ms.load(Ordering::Relaxed);
        (self.driver == PhoneDriver::Agent && last > i64::MIN / 4).then_some(last)
    }

    /// The agent's `User-Agent` (as `pigeon-agent/0.1.0`), kept to show the operator which agent
    /// and version each phone runs; at most 64 visible characters.
    pub(crate) fn saw_agent(&self, user_agent: &str) {
        let mut g = self.agent.lock().unwrap();
        // Every agent call passes here: the same agent as before costs a comparison, no copy.
        if g.as_deref() == Some(user_agent) {
            return;
        }
        *g = Some(user_agent.chars().filter(|c| !c.is_control()).take(64).collect());
    }

    /// What [`saw_agent`](Self::saw_agent) kept.
    pub fn agent(&self) -> Option<String> {
        self.agent.lock().unwrap().clone()
    }

    pub(crate) fn set_sim_online(&self, on: bool) {
        self.sim_online.store(on, Ordering::Relaxed);
    }
}

/// What only an agent phone holds.
#[derive(Default)]
pub(crate) struct AgentWork {
    /// Messages leased to the agent, by message id.
    leases: HashMap<Ulid, Lease>,
    /// Agent polls waiting for work.
    waiters: Vec<agent::Waiter>,
    /// Detection questions not yet handed out, and those handed out awaiting an answer.
    detect_queue: VecDeque<(Ulid, String)>,
    detect_waiting: HashMap<Ulid, (String, oneshot::Sender<bool>)>,
}

impl AgentWork {
    /// Answers every waiting poll with no jobs (the phone stops; the agent polls again).
    fn release_polls(self) {
        for tx in self.waiters {
            let _ = tx.send(Ok(Vec::new()));
        }
    }

    fn is_idle(&self) -> bool {
        self.leases.is_empty()
            && self.waiters.iter().all(|tx| tx.is_closed())
            && self.detect_queue.is_empty()
            && self.detect_waiting.is_empty()
    }
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
    /// An agent's leases, polls and questions; `None` for a sim phone, which has none of them
    /// (boxed apart: every running phone carries this actor, and most are sims).
    agent: Option<Box<AgentWork>>,
    /// Set once the phone is deleted: nothing more is dispatched.
    retired: bool,
    /// Work found at start-up, not yet read back (oldest first).
    recovering: VecDeque<Ulid>,
    /// Sim deliveries waiting out their latency.
    sim_in_flight: usize,
    /// The tenant's webhooks, for the events its messages' fates make.
    subs: crate::webhook::Subscribers,
    /// The scheduler, which tells the tenant when a queued message's `valid_for` runs out.
    scheduler: Arc<std::sync::OnceLock<Addr<crate::scheduler::Scheduler>>>,
    /// The tenant actor, which moves what this phone cannot send (`health.rs`).
    tenant: Option<health::OwnerAddr>,
    /// Phone-scoped failures in a row.
    phone_failures: u32,
}

impl PhoneActor {
    pub(crate) fn new(
        store: Store,
        clock: SharedClock,
        rec: &PhoneRecord,
        live: Arc<PhoneLive>,
        subs: crate::webhook::Subscribers,
        scheduler: Arc<std::sync::OnceLock<Addr<crate::scheduler::Scheduler>>>,
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
            agent: (rec.driver == PhoneDriver::Agent).then(Box::default),
            retired: false,
            recovering: VecDeque::new(),
            sim_in_flight: 0,
            subs,
            scheduler,
            tenant: None,
            phone_failures: 0,
        }
    }

    /// Asks to be told when a queued message expires (the tenant actor then sends [`Expire`]).
    fn watch_expiry(&self, id: Ulid, expires_at: Option<chrono::DateTime<chrono::Utc>>) {
        if let (Some(at), Some(s)) = (expires_at, self.scheduler.get()) {
            s.do_send(crate::scheduler::Hold { at, tenant: self.tenant_id, id });
        }
    }

    /// Fails a message whose `valid_for` ran out before a phone took it; returns true if it did.
    fn expire_if_due(&self, m: &mut MessageRecord) -> bool {
        let now = self.clock.now();
        if m.expires_at.is_some_and(|e| e <= now) {
            fail(m, now, FailureCode::Expired, EXPIRED_REASON);
            self.save(m);
            return true;
        }
        false
    }

    /// The agent's side, made on first use (a phone is an agent or a sim for its whole life,
    /// so a sim never makes it).
    fn agent(&mut self) -> &mut AgentWork {
        self.agent.get_or_insert_with(Box::default)
    }

    fn load(&self, id: Ulid) -> Option<MessageRecord> {
        match self.store.messages().get(self.tenant_id, id) {
            Ok(m) => m,
            Err(e) => {
                tracing::error!(error = %e, message_id = %id, "cannot read message");
                None
            }
        }
    }

    /// Writes a message's new state, with the webhook deliveries its move from `queued` or
    /// `sending` makes.
    fn save(&self, m: &MessageRecord) {
        self.write(m, None);
    }

    /// Writes a message's new state, with the webhook deliveries its move from `before` makes.
    fn save_from(&self, m: &MessageRecord, before: MessageStatus) {
        self.write(m, Some(before));
    }

    fn write(&self, m: &MessageRecord, before: Option<MessageStatus>) {
        if let Err(e) =
            crate::webhook::write_with_events(&self.store, &self.subs, m, before, self.clock.now())
        {
            log_store_failure!(e, message_id = %m.id, "cannot write message");
        }
    }

    /// Fails a message that must not go out; returns true if it did. A reply to a keyword goes
    /// out whatever the opt-out: it is what confirms it (`tenant/opt_outs.rs`).
    fn refuse_if_opted_out(&self, m: &mut MessageRecord) -> bool {
        if m.reply_to.is_none() && self.store.numbers().is_opted_out(self.tenant_id, &m.to).unwrap_or(false) {
            fail(
                m,
                self.clock.now(),
                FailureCode::RecipientOptedOut,
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
            if m.status != MessageStatus::Queued
                || self.expire_if_due(&mut m)
                || self.refuse_if_opted_out(&mut m)
            {
                continue;
            }
            m.status = MessageStatus::Sending;
            out.push(m);
        }
        out
    }
    /// Hands work to the phone: sim phones start delivering; agents' waiting polls get jobs.
    fn dispatch(&mut self, ctx: &mut Context<Self>) {
        let no_questions = self.agent.as_ref().is_none_or(|a| a.detect_queue.is_empty());
        if self.retired || (self.queue.is_empty() && no_questions) {
            return;
        }
        match self.driver {
            PhoneDriver::Sim => self.dispatch_sim(ctx),
            PhoneDriver::Agent => self.dispatch_agent(ctx),
        }
    }
}

pub(crate) fn fail(
    m: &mut MessageRecord,
    now: chrono::DateTime<chrono::Utc>,
    code: FailureCode,
    reason: &str,
) {
    m.status = MessageStatus::Failed;
    m.failed_at = Some(now);
    m.error_code = Some(code.as_str().into());
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

/// The `failure_reason` of an expired message.
pub(crate) const EXPIRED_REASON: &str = "No phone took the message within its valid_for.";

/// New work, already on disk, with its expiry.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct Enqueue {
    pub id: Ulid,
    pub expires_at: Option<chrono::DateTime<chrono::Utc>>,
}

impl Handler<Enqueue> for PhoneActor {
    type Result = ();
    fn handle(&mut self, msg: Enqueue, ctx: &mut Self::Context) {
        self.queue.push_back(msg.id);
        self.watch_expiry(msg.id, msg.expires_at);
        self.dispatch(ctx);
    }
}

/// A queued message's `valid_for` ran out: it fails `EXPIRED` unless a phone took it meanwhile
/// (a leased message is not recalled; its lease running out fails it then).
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct Expire(pub Ulid);

impl Handler<Expire> for PhoneActor {
    type Result = ();
    fn handle(&mut self, msg: Expire, _: &mut Self::Context) {
        let Some(pos) = self.queue.iter().position(|id| *id == msg.0) else { return };
        let Some(mut m) = self.load(msg.0) else { return };
        if m.status == MessageStatus::Queued && self.expire_if_due(&mut m) {
            self.queue.remove(pos);
        }
    }
}

/// `(queued, in flight)`: messages waiting here (read back or not yet), and messages being sent.
#[derive(Message)]
#[rtype(result = "(usize, usize)")]
pub(crate) struct Depth;

impl Handler<Depth> for PhoneActor {
    type Result = MessageResult<Depth>;
    fn handle(&mut self, _: Depth, _: &mut Self::Context) -> Self::Result {
        let leased = self.agent.as_ref().map_or(0, |a| a.leases.len());
        MessageResult((self.queue.len() + self.recovering.len(), leased + self.sim_in_flight))
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
            let mut m = self.load(msg.0).ok_or(EngineError::NotFound(Missing::Message))?;
            let Some(pos) = self.queue.iter().position(|id| *id == msg.0) else {
                return Err(EngineError::InvalidTransition(format!(
                    "status: a {} message cannot be cancelled; only queued ones can",
                    m.status.as_str()
                )));
            };
            self.queue.remove(pos);
            let before = Some(m.status);
            m.status = MessageStatus::Cancelled;
            self.store.messages().put(&m)?;
            crate::webhook::count_fate(&m, before);
            Ok(m)
        })();
        after_commit(&self.store, res)
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
        let mut agent = self.agent.take().unwrap_or_default();
        let ids: Vec<Ulid> = self.queue.drain(..).chain(agent.leases.drain().map(|(id, _)| id)).collect();
        for id in ids {
            if let Some(mut m) = self.load(id).filter(|m| m.status.is_pending()) {
                fail(
                    &mut m,
                    now,
                    FailureCode::NoPhoneAvailable,
                    "The phone was removed before the message was sent.",
                );
                self.save(&m);
            }
        }
        (*agent).release_polls();
        ctx.stop();
    }
}

/// Whether the phone holds nothing: no queued, leased or recovering message, no sim delivery
/// under way, no agent waiting in a poll, no detection question. Only such a phone may rest.
#[derive(Message)]
#[rtype(result = "bool")]
pub(crate) struct IsIdle;

impl Handler<IsIdle> for PhoneActor {
    type Result = bool;
    fn handle(&mut self, _: IsIdle, _: &mut Self::Context) -> bool {
        self.queue.is_empty()
            && self.recovering.is_empty()
            && self.sim_in_flight == 0
            && self.agent.as_ref().is_none_or(|a| a.is_idle())
    }
}

/// Its tenant passivates: stop. It was idle when asked and the tenant has sent it nothing since,
/// so it holds nothing. An agent's poll that came in between is answered empty (the agent polls
/// again, and reaches the next phone actor); a request still in the mailbox fails with `Closed`
/// and the agent's handle routes it to the next phone actor.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct Rest;

impl Handler<Rest> for PhoneActor {
    type Result = ();
    fn handle(&mut self, _: Rest, ctx: &mut Self::Context) {
        if let Some(agent) = self.agent.take() {
            (*agent).release_polls();
        }
        ctx.stop();
    }
}

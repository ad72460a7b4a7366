//! The agent side of a phone: jobs leased to a device that long-polls for them, its reports, lease
//! expiry, and detection questions asked through it.

use std::time::Duration;

use actix::prelude::*;
use pigeon_storage::model::{Channel, Lease, MessageRecord, MessageStatus, PhoneDriver};
use tokio::sync::oneshot;
use ulid::Ulid;

use super::{fail, sim_has_imessage, PhoneActor};
use crate::durable::{after_commit, durable};
use crate::error::Missing;
use pigeon_protocol::{JobChannel, JobKind};

use crate::failure::FailureCode;
use crate::EngineError;

/// A lease not answered within this goes back to the queue.
pub const LEASE: Duration = Duration::from_secs(pigeon_protocol::LEASE_S);
/// Most jobs one poll takes.
pub const MAX_JOBS_PER_POLL: usize = 10;
pub(super) const SWEEP_EVERY: Duration = Duration::from_millis(500);

/// A unit of work handed to an agent (`send` a message, or `detect` whether a number has
/// iMessage), in the wire form the agent reads.
pub use pigeon_protocol::JobView as Job;

impl PhoneActor {
    /// Hands queued work to waiting polls, each once its lease is on disk.
    pub(super) fn dispatch_agent(&mut self, ctx: &mut Context<Self>) {
        while !self.queue.is_empty() || !self.agent().detect_queue.is_empty() {
            let Some(tx) = self.next_waiter() else { break };
            let jobs = self.lease(MAX_JOBS_PER_POLL);
            if jobs.is_empty() {
                let _ = tx.send(Ok(jobs));
                break;
            }
            self.hand_over(tx, jobs, ctx);
        }
    }

    /// Sends leased `jobs` to a poll once their leases are durable; if the poll gave up
    /// meanwhile, the work goes back at once, not after the lease.
    fn hand_over(&self, tx: Waiter, jobs: Vec<Job>, ctx: &mut Context<Self>) {
        let me = ctx.address();
        let written = durable(&self.store, Ok(jobs));
        actix::spawn(async move {
            if let Err(Ok(jobs)) = tx.send(written.await) {
                me.do_send(Unlease::of(&jobs));
            }
        });
    }

    pub(super) fn next_waiter(&mut self) -> Option<Waiter> {
        let waiters = &mut self.agent().waiters;
        while !waiters.is_empty() {
            let tx = waiters.remove(0);
            if !tx.is_closed() {
                return Some(tx);
            }
        }
        None
    }

    /// Leases up to `max` messages; the jobs may be handed out once the leases are durable.
    pub(super) fn lease(&mut self, max: usize) -> Vec<Job> {
        let until = self.clock.now() + chrono::Duration::from_std(LEASE).expect("small");
        let mut jobs: Vec<Job> = self
            .agent()
            .detect_queue
            .drain(..)
            .map(|(id, number)| Job {
                job_id: id.to_string(),
                kind: JobKind::Detect,
                message_id: None,
                to: None,
                body: None,
                channel: None,
                phone: Some(number),
                media: None,
            })
            .collect();
        for mut m in self.take(max) {
            let lease = Lease { job_id: self.store.new_id(), until };
            m.lease = Some(lease.clone());
            self.save(&m);
            let channel = match m.channel {
                Channel::Auto => match self.store.numbers().detection(self.tenant_id, &m.to) {
                    Ok(Some(d)) if d.imessage => Channel::Imessage,
                    Ok(Some(_)) => Channel::Sms,
                    _ => Channel::Auto,
                },
                c => c,
            };
            let body = m.text().map(str::to_owned);
            jobs.push(Job {
                job_id: lease.job_id.to_string(),
                kind: JobKind::Send,
                message_id: Some(m.id.to_string()),
                to: Some(m.to),
                body,
                channel: Some(match channel {
                    Channel::Auto => JobChannel::Auto,
                    Channel::Imessage => JobChannel::Imessage,
                    Channel::Sms => JobChannel::Sms,
                }),
                phone: None,
                media: Some(
                    m.media
                        .into_iter()
                        .map(|a| pigeon_protocol::JobMedia {
                            media_id: a.id.to_string(),
                            content_type: a.content_type,
                            size: a.size,
                            sha256: a.sha256,
                            filename: a.filename,
                        })
                        .collect(),
                ),
            });
            self.agent().leases.insert(m.id, lease);
        }
        jobs
    }

    /// Lease expiry: unanswered jobs go back to the front of the queue.
    pub(super) fn sweep(&mut self, ctx: &mut Context<Self>) {
        let now = self.clock.now();
        let expired: Vec<Ulid> =
            self.agent().leases.iter().filter(|(_, l)| l.until <= now).map(|(id, _)| *id).collect();
        if expired.is_empty() {
            return;
        }
        self.unlease(expired);
        self.dispatch(ctx);
    }

    pub(super) fn unlease(&mut self, ids: Vec<Ulid>) {
        let mut back = Vec::new();
        for id in ids {
            self.agent().leases.remove(&id);
            let Some(mut m) = self.load(id) else { continue };
            if m.status == MessageStatus::Sending {
                m.status = MessageStatus::Queued;
                m.lease = None;
                // Its time ran out while it was leased: it fails instead of going back.
                if !self.expire_if_due(&mut m) {
                    self.save(&m);
                    back.push(id);
                }
            }
        }
        back.sort();
        for id in back.into_iter().rev() {
            self.queue.push_front(id);
        }
    }
}

/// Put leased messages back (a poll that gave up before its jobs arrived).
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct Unlease(pub Vec<Ulid>);

impl Unlease {
    /// The messages among `jobs`.
    pub(crate) fn of(jobs: &[Job]) -> Self {
        Self(jobs.iter().filter_map(|j| j.message_id.as_deref()?.parse().ok()).collect())
    }
}

impl Handler<Unlease> for PhoneActor {
    type Result = ();
    fn handle(&mut self, msg: Unlease, ctx: &mut Self::Context) {
        self.unlease(msg.0);
        self.dispatch(ctx);
    }
}

/// Where a poll's jobs go: to the request waiting for them, which may give up (its wait ended,
/// its agent's connection closed) and drop the receiving end.
pub(crate) type Waiter = oneshot::Sender<Result<Vec<Job>, EngineError>>;

/// An agent's long poll: jobs now, or the first ones to arrive within the wait.
#[derive(Message, Clone)]
#[rtype(result = "Result<Polled, EngineError>")]
pub(crate) struct Poll;

/// The actor's answer to a poll: where its jobs will come, and whether they are already leased
/// (then they come once their leases are durable, whatever the wait) or are waited for. The
/// request, not the actor, holds the receiving end, so a request dropped before it took its jobs
/// drops the receiver too, and the jobs go back to the queue ([`JobsOnTheWay`]).
pub(crate) struct Polled {
    pub rx: oneshot::Receiver<Result<Vec<Job>, EngineError>>,
    pub leased: bool,
    pub me: actix::Addr<PhoneActor>,
}

impl Handler<Poll> for PhoneActor {
    type Result = Result<Polled, EngineError>;

    fn handle(&mut self, _: Poll, ctx: &mut Self::Context) -> Self::Result {
        self.live.polled(&self.store, self.tenant_id, self.phone_id, self.clock.now().timestamp_millis());
        if self.retired {
            return Err(EngineError::NotFound(Missing::Phone));
        }
        let (tx, rx) = oneshot::channel();
        let jobs = self.lease(MAX_JOBS_PER_POLL);
        let leased = !jobs.is_empty();
        if leased {
            self.hand_over(tx, jobs, ctx);
        } else {
            self.agent().waiters.push(tx);
        }
        Ok(Polled { rx, leased, me: ctx.address() })
    }
}

/// A poll's jobs on their way to its request. Dropped before it gave them to the request (the
/// wait ended as they came, the agent's connection closed), it puts them back in the queue.
pub(crate) struct JobsOnTheWay(pub Polled);

impl JobsOnTheWay {
    /// The jobs, waiting at most `wait` unless they are already leased.
    pub(crate) async fn take(mut self, wait: Duration) -> Result<Vec<Job>, EngineError> {
        let rx = &mut self.0.rx;
        let got = if self.0.leased { Ok(rx.await) } else { tokio::time::timeout(wait, rx).await };
        match got {
            Ok(Ok(jobs)) => jobs,
            // The wait ended, or the actor stopped without handing anything over.
            Err(_) | Ok(Err(_)) => Ok(Vec::new()),
        }
    }
}

impl Drop for JobsOnTheWay {
    fn drop(&mut self) {
        if let Ok(Ok(jobs)) = self.0.rx.try_recv() {
            self.0.me.do_send(Unlease::of(&jobs));
        }
    }
}

/// An agent's report on a message it holds.
#[derive(Message, Clone)]
#[rtype(result = "Result<MessageRecord, EngineError>")]
pub(crate) struct Report {
    pub message_id: Ulid,
    pub status: MessageStatus,
    pub failure_reason: Option<String>,
    pub channel_used: Option<Channel>,
    /// A failure that is the phone's, not the recipient's: the message moves (`health.rs`).
    pub phone_scoped: bool,
}

impl Handler<Report> for PhoneActor {
    type Result = ResponseFuture<Result<MessageRecord, EngineError>>;

    fn handle(&mut self, r: Report, _: &mut Self::Context) -> Self::Result {
        let res = (|| {
            let mut m = self
                .load(r.message_id)
                .filter(|m| {
                    (m.phone_id == Some(self.phone_id) || m.failed_phones.contains(&self.phone_id)) && !m.test
                })
                .ok_or(EngineError::NotFound(Missing::Message))?;
            use MessageStatus::*;
            if m.phone_id != Some(self.phone_id) {
                // Moved after this phone failed it: only that failure, repeated, is taken.
                return match r.status {
                    Failed => Ok(Reported::Done(m)),
                    _ => Err(EngineError::NotFound(Missing::Message)),
                };
            }
            let legal = matches!(
                (m.status, r.status),
                (Sending | Queued, Sent | Delivered | Failed)
                    | (Sent, Delivered | Read | Failed)
                    | (Delivered, Read)
            );
            if m.status == r.status && matches!(m.status, Sent | Delivered | Read | Failed) {
                // A retried report: already applied; answered once that is durable too.
                return Ok(Reported::Done(m));
            }
            if !legal {
                return Err(EngineError::InvalidTransition(format!(
                    "status: a {} message cannot become {}",
                    m.status.as_str(),
                    r.status.as_str()
                )));
            }
            let before = (!m.status.is_pending()).then_some(m.status);
            let reason = r.failure_reason.unwrap_or_else(|| "The phone reported a failure.".into());
            if r.status == Failed && r.phone_scoped {
                if let Some(moved) = self.phone_failed(&m, &reason) {
                    return Ok(Reported::Moved(moved));
                }
            } else {
                self.healthy_report();
            }
            let now = self.clock.now();
            // A late answer to an expired lease still counts: take the message off the queue.
            self.queue.retain(|id| *id != m.id);
            self.agent().leases.remove(&m.id);
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
                Read => {
                    m.status = Read;
                    m.delivered_at.get_or_insert(now);
                    m.read_at = Some(now);
                }
                _ => fail(&mut m, now, FailureCode::DeliveryFailed, &reason),
            }
            crate::webhook::write_with_events(&self.store, &self.subs, &m, before, now)?;
            Ok(Reported::Done(m))
        })();
        match res {
            Ok(Reported::Moved(moved)) => moved,
            Ok(Reported::Done(m)) => after_commit(&self.store, Ok(m)),
            Err(e) => after_commit(&self.store, Err(e)),
        }
    }
}

/// What a report came to: the message as written here, or on its way to another phone. Lives
/// on the stack for one turn: boxing the record would cost every report an allocation.
#[allow(clippy::large_enum_variant)]
enum Reported {
    Done(MessageRecord),
    Moved(ResponseFuture<Result<MessageRecord, EngineError>>),
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
        let id = self.store.new_id();
        let agent = self.agent();
        agent.detect_waiting.retain(|_, (_, tx)| !tx.is_closed());
        agent.detect_waiting.insert(id, (msg.number.clone(), msg.reply));
        agent.detect_queue.push_back((id, msg.number));
        self.dispatch(ctx);
    }
}

/// An agent says which leases it holds; the others go back to the queue now (jobs answered to a
/// poll it never read, because it died or lost the answer). How many went back.
#[derive(Message, Clone)]
#[rtype(result = "Result<usize, EngineError>")]
pub(crate) struct Release {
    pub keep: std::collections::HashSet<Ulid>,
}

impl Handler<Release> for PhoneActor {
    type Result = ResponseFuture<Result<usize, EngineError>>;

    fn handle(&mut self, msg: Release, ctx: &mut Self::Context) -> Self::Result {
        if self.retired {
            return Box::pin(async { Err(EngineError::NotFound(Missing::Phone)) });
        }
        let stale: Vec<Ulid> =
            self.agent().leases.keys().filter(|id| !msg.keep.contains(id)).copied().collect();
        let n = stale.len();
        if n > 0 {
            self.unlease(stale);
            self.dispatch(ctx);
        }
        after_commit(&self.store, Ok(n))
    }
}

/// An agent's answer to a detection question: the number it was about.
#[derive(Message, Clone)]
#[rtype(result = "Result<String, EngineError>")]
pub(crate) struct AnswerDetect {
    pub job_id: Ulid,
    pub imessage: bool,
}

impl Handler<AnswerDetect> for PhoneActor {
    type Result = Result<String, EngineError>;
    fn handle(&mut self, msg: AnswerDetect, _: &mut Self::Context) -> Self::Result {
        let (number, tx) = self
            .agent()
            .detect_waiting
            .remove(&msg.job_id)
            .ok_or(EngineError::NotFound(Missing::DetectionJob))?;
        let _ = tx.send(msg.imessage);
        Ok(number)
    }
}

/// Whether one of the messages this phone holds now carries media `media_id`: what lets its
/// agent download a tenant's upload (`GET /phone/v1/media/{id}`).
#[derive(Message, Clone)]
#[rtype(result = "Result<bool, EngineError>")]
pub(crate) struct HoldsMedia {
    pub media_id: Ulid,
}

impl Handler<HoldsMedia> for PhoneActor {
    type Result = Result<bool, EngineError>;
    fn handle(&mut self, msg: HoldsMedia, _: &mut Self::Context) -> Self::Result {
        let tenant = self.tenant_id;
        for id in self.agent().leases.keys().copied().collect::<Vec<_>>() {
            let held = self.store.messages().get(tenant, id)?;
            if held.is_some_and(|m| m.media.iter().any(|a| a.id == msg.media_id)) {
                return Ok(true);
            }
        }
        Ok(false)
    }
}

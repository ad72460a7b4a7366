//! The tenant actor's messaging side: which phone takes a send (and whether any may), test-key
//! completions, inbound texts and opt-outs, cancellation, and the operator's phone changes. The
//! tenant actor owns each phone's daily capacity, so the choice and the count change together.

use std::sync::Arc;

use actix::prelude::*;
use chrono::{DateTime, NaiveDate, Utc};
use pigeon_storage::model::{
    Channel, Direction, Environment, IdempotencyRecord, MessageRecord, MessageStatus, PhoneDriver,
    PhoneRecord, RecipientRecord, SimSettings, WebhookRecord,
};
use pigeon_storage::Store;
use ulid::Ulid;

use crate::clock::{secs_to_next_day, SharedClock};
use crate::domain::{magic, Keyword, PhoneNumber};
use crate::engine::{PhoneEntry, PhoneRegistry, RateInfo, NEW_CONTACTS};
use crate::phone::{self, PhoneActor, PhoneLive};
use crate::scheduler::{self, Scheduler};
use crate::tenant::TenantActor;
use crate::webhook::{self, Subscribers, WebhookActor};
use crate::zones;
use crate::{credentials, EngineError};

/// A phone as the tenant actor sees it: the record, today's use, and its actor.
pub(crate) struct PhoneSlot {
    pub(crate) rec: PhoneRecord,
    sent_today: u32,
    day: NaiveDate,
    live: Arc<PhoneLive>,
    addr: Addr<PhoneActor>,
}

fn sent_counter(phone: Ulid, day: NaiveDate) -> String {
    format!("phone_sent:{phone}:{day}")
}

impl PhoneSlot {
    /// Starts the phone's actor on `arbiter` and registers it for agent calls.
    pub(crate) fn start(
        store: &Store,
        clock: &SharedClock,
        rec: PhoneRecord,
        registry: &PhoneRegistry,
        subs: &Subscribers,
        arbiter: &ArbiterHandle,
    ) -> Result<Self, EngineError> {
        let day = clock.now().date_naive();
        let sent_today = store.counter(rec.tenant_id, &sent_counter(rec.id, day))? as u32;
        let live = PhoneLive::new(&rec);
        let actor = PhoneActor::new(store.clone(), clock.clone(), &rec, live.clone(), subs.clone());
        let addr = PhoneActor::start_in_arbiter(arbiter, move |_| actor);
        registry
            .write()
            .unwrap()
            .insert(rec.id, PhoneEntry { tenant_id: rec.tenant_id, addr: addr.clone(), live: live.clone() });
        Ok(Self { rec, sent_today, day, live, addr })
    }

    /// Messages it may still take today.
    fn capacity(&mut self, today: NaiveDate) -> u32 {
        if self.day != today {
            self.day = today;
            self.sent_today = 0;
        }
        self.rec.daily_limit.saturating_sub(self.sent_today)
    }

    /// Enabled, online and under its daily limit.
    fn available(&mut self, now: DateTime<Utc>) -> bool {
        self.rec.enabled && self.live.is_online(now.timestamp_millis()) && self.capacity(now.date_naive()) > 0
    }

    fn view(&mut self, now: DateTime<Utc>) -> PhoneView {
        PhoneView {
            online: self.live.is_online(now.timestamp_millis()),
            sent_today: if self.day == now.date_naive() { self.sent_today } else { 0 },
            record: self.rec.clone(),
        }
    }
}

/// A phone with its live state.
#[derive(Debug, Clone)]
pub struct PhoneView {
    /// The record.
    pub record: PhoneRecord,
    /// Online now.
    pub online: bool,
    /// Messages assigned to it today (UTC).
    pub sent_today: u32,
}

/// A validated send.
#[derive(Debug, Clone)]
pub struct SendRequest {
    /// Recipient.
    pub to: PhoneNumber,
    /// Requested channel.
    pub channel: Channel,
    /// Text, already rendered.
    pub body: String,
    /// Sent with a test key.
    pub test: bool,
    /// The `Idempotency-Key` header, if any.
    pub idempotency_key: Option<String>,
    /// The template the body was rendered from.
    pub template: Option<String>,
    /// Hold until then (future, at most 30 days: checked at the edge).
    pub send_at: Option<DateTime<Utc>>,
    /// The campaign it belongs to.
    pub campaign_id: Option<Ulid>,
}

impl SendRequest {
    /// What "the same request" means for an idempotency key: same recipient, channel and text.
    fn fingerprint(&self) -> String {
        let channel = match self.channel {
            Channel::Auto => "auto",
            Channel::Imessage => "imessage",
            Channel::Sms => "sms",
        };
        let template = self.template.as_deref().unwrap_or("");
        let at = self.send_at.map(|t| t.timestamp_millis()).unwrap_or(0);
        credentials::hash(&format!("{}\n{channel}\n{template}\n{at}\n{}", self.to, self.body))
    }
}

/// How long an idempotency key is honoured.
const IDEMPOTENCY_WINDOW: chrono::TimeDelta = chrono::TimeDelta::hours(24);

/// Decide and record a send.
#[derive(Message)]
#[rtype(result = "Result<MessageRecord, EngineError>")]
pub(crate) struct Send(pub SendRequest);

/// The phone for a send, from `(phone id, capacity left if available)` oldest first: the sticky
/// sender if it is available, else the available phone with the most capacity left (the oldest
/// on a tie). One pass, no allocation: it runs on every send.
pub fn choose_phone(
    phones: impl IntoIterator<Item = (Ulid, Option<u32>)>,
    sticky: Option<Ulid>,
) -> Option<usize> {
    let mut best: Option<(usize, u32)> = None;
    for (i, (id, cap)) in phones.into_iter().enumerate() {
        let Some(cap) = cap else { continue };
        if Some(id) == sticky {
            return Some(i);
        }
        if best.is_none_or(|(_, c)| cap > c) {
            best = Some((i, cap));
        }
    }
    best.map(|(i, _)| i)
}

impl TenantActor {
    fn choose_phone(&mut self, sticky: Option<Ulid>, now: DateTime<Utc>) -> Option<usize> {
        let today = now.date_naive();
        choose_phone(
            self.phones.iter_mut().map(|p| (p.rec.id, p.available(now).then(|| p.capacity(today)))),
            sticky,
        )
    }

    fn new_message(&self, req: &SendRequest, now: DateTime<Utc>) -> MessageRecord {
        MessageRecord {
            id: pigeon_storage::model::new_id(),
            tenant_id: self.tenant.id,
            direction: Direction::Outbound,
            status: MessageStatus::Queued,
            to: req.to.as_str().to_owned(),
            from: None,
            phone_id: None,
            channel: req.channel,
            channel_used: None,
            body: req.body.clone(),
            template: req.template.clone(),
            campaign_id: req.campaign_id,
            test: req.test,
            created_at: now,
            scheduled_at: None,
            sent_at: None,
            delivered_at: None,
            failed_at: None,
            failure_reason: None,
            error_code: None,
            lease: None,
            held: false,
            notice: None,
        }
    }
}

impl Handler<Send> for TenantActor {
    type Result = ResponseFuture<Result<MessageRecord, EngineError>>;

    fn handle(&mut self, Send(req): Send, ctx: &mut Self::Context) -> Self::Result {
        self.send(req, ctx)
    }
}

/// An API send in one turn of the tenant actor: admission ([`TenantActor::admit`]), then, if
/// admitted, the send. `req` is `None` when the body failed validation at the edge: the call is
/// still admitted and charged first (DESIGN "check order"), and the edge answers its own error.
/// One message instead of `Admit` then `Send` saves the send path a round trip between threads.
#[derive(Message)]
#[rtype(result = "(Option<RateInfo>, Result<Option<MessageRecord>, EngineError>)")]
pub(crate) struct AdmitSend {
    pub key_id: Ulid,
    pub hash: String,
    pub req: Option<SendRequest>,
}

impl Handler<AdmitSend> for TenantActor {
    type Result = ResponseFuture<(Option<RateInfo>, Result<Option<MessageRecord>, EngineError>)>;

    fn handle(&mut self, msg: AdmitSend, ctx: &mut Self::Context) -> Self::Result {
        let (rate, admitted) = self.admit(msg.key_id, &msg.hash);
        let (Ok(a), Some(mut req)) = (&admitted, msg.req) else {
            return Box::pin(std::future::ready((rate, admitted.map(|_| None))));
        };
        // Live or test is the key's, known only once it is admitted.
        req.test = a.environment == Environment::Test;
        let sent = self.send(req, ctx);
        Box::pin(async move { (rate, sent.await.map(Some)) })
    }
}

impl TenantActor {
    /// Decides and records a send; the future resolves once it is on disk and handed on.
    fn send(
        &mut self,
        req: SendRequest,
        ctx: &mut Context<Self>,
    ) -> ResponseFuture<Result<MessageRecord, EngineError>> {
        let me = ctx.address();
        let res = (|| {
            let now = self.clock.now();
            let tenant = self.tenant.id;
            let to = req.to.as_str();
            // Only a keyed send needs the body's hash.
            let fingerprint = req.idempotency_key.as_ref().map(|_| req.fingerprint());
            if let (Some(key), Some(fingerprint)) = (&req.idempotency_key, &fingerprint) {
                if let Some(first) =
                    self.store.idempotency(tenant, key)?.filter(|r| now - r.created_at < IDEMPOTENCY_WINDOW)
                {
                    if !credentials::hashes_match(&first.fingerprint, fingerprint) {
                        return Err(EngineError::IdempotencyKeyReused);
                    }
                    // The first answer again; nothing is sent.
                    let m = self
                        .store
                        .message(tenant, first.message_id)?
                        .ok_or(EngineError::NotFound("message"))?;
                    return Ok((m, self.store.commit(), Dispatch::None));
                }
            }
            if self.store.is_opted_out(tenant, to)? {
                return Err(EngineError::RecipientOptedOut);
            }
            let mut m = self.new_message(&req, now);
            // Quiet hours in the recipient's zone, and `send_at`, hold the message.
            let contact = self.store.contact_by_phone(tenant, to)?;
            let fallback = self
                .tenant
                .quiet_hours
                .timezone
                .as_deref()
                .and_then(|z| z.parse().ok())
                .unwrap_or(chrono_tz::Tz::UTC);
            let zone =
                zones::recipient_zone(contact.as_ref().and_then(|c| c.timezone.as_deref()), to, fallback);
            let (release, notice) = scheduler::plan_release(now, req.send_at, zone, &self.tenant.quiet_hours);
            m.scheduled_at = release;
            m.held = release.is_some();
            m.notice = notice.map(str::to_owned);
            let hold = release.map(|at| Dispatch::Hold(self.scheduler.clone(), at, tenant, m.id));
            let idem = req.idempotency_key.as_deref().zip(fingerprint).map(|(k, fingerprint)| {
                (k, IdempotencyRecord { fingerprint, message_id: m.id, created_at: now })
            });
            let idem = idem.as_ref().map(|(k, r)| (*k, r));
            if req.test {
                // Test keys: no phone, no capacity, no new-contact allowance.
                m.from = Some(magic::TEST_SENDER.to_owned());
                self.store.accept_message(&m, None, &[], idem)?;
                let id = m.id;
                return Ok((m, self.store.commit(), hold.unwrap_or(Dispatch::Test(me, id))));
            }
            let known = self.store.recipient(tenant, to)?;
            let today = now.date_naive();
            if self.new_today.0 != today {
                self.new_today = (today, 0);
            }
            // Contacts and numbers messaged before are "existing": only others are new.
            let is_new = known.is_none() && contact.is_none();
            if is_new && self.new_today.1 >= u64::from(self.tenant.effective_new_contacts()) {
                return Err(EngineError::NewContactLimit { retry_after: secs_to_next_day(now) });
            }
            let i = self
                .choose_phone(known.as_ref().and_then(|r| r.last_phone), now)
                .ok_or(EngineError::NoPhoneAvailable)?;
            let slot = &self.phones[i];
            m.phone_id = Some(slot.rec.id);
            m.from = Some(slot.rec.number.clone());
            let sent = slot.sent_today + 1;
            let new_count = self.new_today.1 + u64::from(is_new);
            // Only what changed is written: a repeat recipient on its sticky phone costs no
            // recipient or new-contact write (the send path is hot).
            let recipient = (known.as_ref().and_then(|r| r.last_phone) != Some(slot.rec.id)).then(|| {
                RecipientRecord { first_at: known.map_or(now, |r| r.first_at), last_phone: Some(slot.rec.id) }
            });
            let sent_key = sent_counter(slot.rec.id, today);
            let new_key = is_new.then(|| format!("{NEW_CONTACTS}{today}"));
            let mut counters = vec![(sent_key.as_str(), u64::from(sent))];
            if let Some(k) = &new_key {
                counters.push((k.as_str(), new_count));
            }
            self.store.accept_message(&m, recipient.as_ref().map(|r| (to, r)), &counters, idem)?;
            self.phones[i].sent_today = sent;
            self.new_today.1 = new_count;
            let id = m.id;
            Ok((m, self.store.commit(), hold.unwrap_or(Dispatch::Phone(self.phones[i].addr.clone(), id))))
        })();
        Box::pin(async move {
            let (m, commit, dispatch) = res?;
            commit.await?;
            // Only what is on disk is handed on.
            match dispatch {
                Dispatch::Phone(addr, id) => addr.do_send(phone::Enqueue(id)),
                Dispatch::Test(addr, id) => addr.do_send(CompleteTest(id)),
                Dispatch::Hold(Some(s), at, tenant, id) => s.do_send(scheduler::Hold { at, tenant, id }),
                Dispatch::Hold(None, ..) => {
                    tracing::error!("no scheduler: a held message waits for a restart")
                }
                Dispatch::None => {}
            }
            Ok(m)
        })
    }
}

enum Dispatch {
    Phone(Addr<PhoneActor>, Ulid),
    Test(Addr<TenantActor>, Ulid),
    /// Held by quiet hours or `send_at`.
    Hold(Option<Addr<Scheduler>>, DateTime<Utc>, Ulid, Ulid),
    /// An idempotent replay: already handed on the first time.
    None,
}

/// A held message's time has come: hand it to its phone (or complete it, for test keys).
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct Release(pub Ulid);

impl Handler<Release> for TenantActor {
    type Result = ();

    fn handle(&mut self, msg: Release, ctx: &mut Self::Context) {
        let Ok(Some(mut m)) = self.store.message(self.tenant.id, msg.0) else { return };
        if !(m.held && m.status == MessageStatus::Queued) {
            return; // cancelled meanwhile
        }
        m.held = false;
        let now = self.clock.now();
        let phone =
            m.phone_id.and_then(|p| self.phones.iter().find(|s| s.rec.id == p)).map(|s| s.addr.clone());
        let res = match (m.test, phone) {
            (true, _) => self.store.put_message(&m).map(|()| ctx.address().do_send(CompleteTest(m.id))),
            (false, Some(addr)) => self.store.put_message(&m).map(|()| addr.do_send(phone::Enqueue(m.id))),
            (false, None) => {
                phone::fail(
                    &mut m,
                    now,
                    "NO_PHONE_AVAILABLE",
                    "The phone was removed before the message was sent.",
                );
                webhook::write_with_events(&self.store, &self.subs, &m, now)
            }
        };
        if let Err(e) = res {
            tracing::error!(error = %e, message_id = %m.id, "cannot release a held message");
        }
    }
}

/// Finish a test message: delivered, or failed for the magic numbers.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct CompleteTest(pub Ulid);

impl Handler<CompleteTest> for TenantActor {
    type Result = ();

    fn handle(&mut self, msg: CompleteTest, _: &mut Self::Context) {
        let Ok(Some(mut m)) = self.store.message(self.tenant.id, msg.0) else { return };
        if m.status != MessageStatus::Queued {
            return;
        }
        let now = self.clock.now();
        if self.store.is_opted_out(self.tenant.id, &m.to).unwrap_or(false) {
            phone::fail(
                &mut m,
                now,
                "RECIPIENT_OPTED_OUT",
                "The recipient opted out before the message was sent.",
            );
        } else if let Some(reason) = magic::failure(&m.to) {
            phone::fail(&mut m, now, "DELIVERY_FAILED", reason);
        } else {
            m.status = MessageStatus::Delivered;
            m.sent_at = Some(now);
            m.delivered_at = Some(now);
            m.channel_used = Some(if m.channel == Channel::Imessage && m.to != magic::SMS_ONLY {
                Channel::Imessage
            } else {
                Channel::Sms
            });
        }
        if let Err(e) = webhook::write_with_events(&self.store, &self.subs, &m, now) {
            tracing::error!(error = %e, message_id = %m.id, "cannot complete test message");
        }
    }
}

/// Cancel a message not yet leased to a phone.
#[derive(Message)]
#[rtype(result = "Result<MessageRecord, EngineError>")]
pub(crate) struct CancelMessage(pub Ulid);

impl Handler<CancelMessage> for TenantActor {
    type Result = ResponseFuture<Result<MessageRecord, EngineError>>;

    fn handle(&mut self, msg: CancelMessage, _: &mut Self::Context) -> Self::Result {
        let found = self.store.message(self.tenant.id, msg.0);
        let m = match found {
            Ok(Some(m)) if m.direction == Direction::Outbound => m,
            Ok(_) => return Box::pin(async { Err(EngineError::NotFound("message")) }),
            Err(e) => return Box::pin(async move { Err(e.into()) }),
        };
        if m.status != MessageStatus::Queued {
            let status = phone::status_name(m.status);
            return Box::pin(async move {
                Err(EngineError::InvalidTransition(format!(
                    "status: a {status} message cannot be cancelled; only queued ones can"
                )))
            });
        }
        match m.phone_id.filter(|_| !m.held).and_then(|p| self.phones.iter().find(|s| s.rec.id == p)) {
            Some(slot) => {
                let addr = slot.addr.clone();
                Box::pin(async move { addr.send(phone::Cancel(msg.0)).await? })
            }
            None => {
                let mut m = m;
                m.status = MessageStatus::Cancelled;
                m.held = false;
                let res = self.store.put_message(&m).map(|()| self.store.commit());
                Box::pin(async move {
                    res?.await?;
                    Ok(m)
                })
            }
        }
    }
}

/// A text from a recipient, received by one of the tenant's phones.
#[derive(Message)]
#[rtype(result = "Result<MessageRecord, EngineError>")]
pub(crate) struct Inbound {
    pub phone_id: Ulid,
    pub from: PhoneNumber,
    pub body: String,
}

impl Handler<Inbound> for TenantActor {
    type Result = ResponseFuture<Result<MessageRecord, EngineError>>;

    fn handle(&mut self, msg: Inbound, _: &mut Self::Context) -> Self::Result {
        let res = (|| {
            let phone = self
                .phones
                .iter()
                .find(|p| p.rec.id == msg.phone_id)
                .ok_or(EngineError::NotFound("phone"))?;
            let now = self.clock.now();
            let m = MessageRecord {
                id: pigeon_storage::model::new_id(),
                tenant_id: self.tenant.id,
                direction: Direction::Inbound,
                status: MessageStatus::Received,
                to: phone.rec.number.clone(),
                from: Some(msg.from.as_str().to_owned()),
                phone_id: Some(phone.rec.id),
                channel: Channel::Sms,
                channel_used: None,
                body: msg.body,
                template: None,
                campaign_id: None,
                test: false,
                created_at: now,
                scheduled_at: None,
                sent_at: None,
                delivered_at: Some(now),
                failed_at: None,
                failure_reason: None,
                error_code: None,
                lease: None,
                held: false,
                notice: None,
            };
            match Keyword::of(&m.body) {
                Some(Keyword::OptOut) => self.store.set_opted_out(self.tenant.id, msg.from.as_str(), true)?,
                Some(Keyword::OptIn) => self.store.set_opted_out(self.tenant.id, msg.from.as_str(), false)?,
                None => {}
            }
            webhook::write_with_events(&self.store, &self.subs, &m, now)?;
            Ok::<_, EngineError>((m, self.store.commit()))
        })();
        crate::tenant::after_commit(res)
    }
}

/// The operator adds a phone.
#[derive(Message)]
#[rtype(result = "Result<(PhoneView, Option<String>), EngineError>")]
pub(crate) struct AddPhone {
    pub number: PhoneNumber,
    pub daily_limit: u32,
    pub driver: PhoneDriver,
    pub sim: SimSettings,
}

/// Prefix of agent tokens.
const AGENT_PREFIX: &str = "svc_agent_";

impl Handler<AddPhone> for TenantActor {
    type Result = ResponseFuture<Result<(PhoneView, Option<String>), EngineError>>;

    fn handle(&mut self, msg: AddPhone, _: &mut Self::Context) -> Self::Result {
        let res = (|| {
            if self.phones.iter().any(|p| p.rec.number == msg.number.as_str()) {
                return Err(EngineError::Validation(
                    "number: the tenant already has a phone with this number".into(),
                ));
            }
            let now = self.clock.now();
            let token = (msg.driver == PhoneDriver::Agent).then(|| credentials::generate(AGENT_PREFIX));
            let rec = PhoneRecord {
                id: pigeon_storage::model::new_id(),
                tenant_id: self.tenant.id,
                number: msg.number.as_str().to_owned(),
                daily_limit: msg.daily_limit,
                driver: msg.driver,
                sim: msg.sim,
                enabled: true,
                sim_online: msg.driver == PhoneDriver::Sim,
                agent_token_hash: token.as_deref().map(credentials::hash),
                created_at: now,
            };
            self.store.put_phone(&rec)?;
            let arbiter = self.arbiters.for_id(rec.id);
            let mut slot =
                PhoneSlot::start(&self.store, &self.clock, rec, &self.registry, &self.subs, arbiter)?;
            let view = slot.view(now);
            self.phones.push(slot);
            Ok((view, token, self.store.commit()))
        })();
        Box::pin(async move {
            let (view, token, commit) = res?;
            commit.await?;
            Ok((view, token))
        })
    }
}

/// The tenant's phones with live state.
#[derive(Message)]
#[rtype(result = "Vec<PhoneView>")]
pub(crate) struct ListPhones;

impl Handler<ListPhones> for TenantActor {
    type Result = MessageResult<ListPhones>;

    fn handle(&mut self, _: ListPhones, _: &mut Self::Context) -> Self::Result {
        let now = self.clock.now();
        MessageResult(self.phones.iter_mut().map(|p| p.view(now)).collect())
    }
}

/// The operator's changes to a phone.
#[derive(Message)]
#[rtype(result = "Result<PhoneView, EngineError>")]
pub(crate) struct UpdatePhone {
    pub id: Ulid,
    pub daily_limit: Option<u32>,
    pub enabled: Option<bool>,
    pub online: Option<bool>,
}

impl Handler<UpdatePhone> for TenantActor {
    type Result = ResponseFuture<Result<PhoneView, EngineError>>;

    fn handle(&mut self, msg: UpdatePhone, _: &mut Self::Context) -> Self::Result {
        let now = self.clock.now();
        let res = (|| {
            let slot =
                self.phones.iter_mut().find(|p| p.rec.id == msg.id).ok_or(EngineError::NotFound("phone"))?;
            if msg.online.is_some() && slot.rec.driver != PhoneDriver::Sim {
                return Err(EngineError::Validation(
                    "online: only sim phones have an online switch; an agent is online while it polls".into(),
                ));
            }
            let mut rec = slot.rec.clone();
            if let Some(v) = msg.daily_limit {
                rec.daily_limit = v;
            }
            if let Some(v) = msg.enabled {
                rec.enabled = v;
            }
            if let Some(v) = msg.online {
                rec.sim_online = v;
            }
            self.store.put_phone(&rec)?;
            slot.live.set_sim_online(rec.sim_online);
            slot.rec = rec;
            slot.addr.do_send(phone::Reconfigure { sim: slot.rec.sim });
            Ok((slot.view(now), self.store.commit()))
        })();
        crate::tenant::after_commit(res)
    }
}

/// The operator deletes a phone.
#[derive(Message)]
#[rtype(result = "Result<(), EngineError>")]
pub(crate) struct RemovePhone(pub Ulid);

impl Handler<RemovePhone> for TenantActor {
    type Result = ResponseFuture<Result<(), EngineError>>;

    fn handle(&mut self, msg: RemovePhone, _: &mut Self::Context) -> Self::Result {
        let res = (|| {
            let i =
                self.phones.iter().position(|p| p.rec.id == msg.0).ok_or(EngineError::NotFound("phone"))?;
            self.store.delete_phone(&self.phones[i].rec)?;
            let slot = self.phones.remove(i);
            self.registry.write().unwrap().remove(&slot.rec.id);
            slot.addr.do_send(phone::Retire);
            Ok::<_, EngineError>(self.store.commit())
        })();
        Box::pin(async move { Ok(res?.await?) })
    }
}

/// Most webhooks per tenant.
pub(crate) const MAX_WEBHOOKS: usize = 10;

/// Register a webhook endpoint (its URL already vetted).
#[derive(Message)]
#[rtype(result = "Result<WebhookRecord, EngineError>")]
pub(crate) struct CreateWebhook {
    pub url: String,
    pub events: Vec<String>,
    pub secret: Option<String>,
}

impl TenantActor {
    /// Starts an endpoint's actor and makes it known to the phones and the engine.
    pub(crate) fn start_webhook(&self, w: WebhookRecord) -> Addr<WebhookActor> {
        let (store, clock, hook, allow) =
            (self.store.clone(), self.clock.clone(), w.clone(), self.allow_private);
        // Built on its arbiter: the HTTP client it holds is not Send.
        let addr = WebhookActor::start_in_arbiter(self.arbiters.for_id(w.id), move |_| {
            WebhookActor::new(store, clock, hook, allow)
        });
        self.webhook_registry.write().unwrap().insert(w.id, addr.clone());
        self.subs.add(w, addr.clone());
        addr
    }
}

impl Handler<CreateWebhook> for TenantActor {
    type Result = ResponseFuture<Result<WebhookRecord, EngineError>>;

    fn handle(&mut self, msg: CreateWebhook, _: &mut Self::Context) -> Self::Result {
        let res = (|| {
            if self.subs.list().len() >= MAX_WEBHOOKS {
                return Err(EngineError::Validation(format!(
                    "url: the tenant already has {MAX_WEBHOOKS} webhooks, the most allowed; delete one first"
                )));
            }
            let w = WebhookRecord {
                id: pigeon_storage::model::new_id(),
                tenant_id: self.tenant.id,
                url: msg.url,
                events: msg.events,
                secret: msg.secret.unwrap_or_else(|| credentials::generate("whsec_")),
                created_at: self.clock.now(),
            };
            self.store.put_webhook(&w)?;
            self.start_webhook(w.clone());
            Ok((w, self.store.commit()))
        })();
        crate::tenant::after_commit(res)
    }
}

/// The tenant's webhooks, oldest first.
#[derive(Message)]
#[rtype(result = "Vec<WebhookRecord>")]
pub(crate) struct ListWebhooks;

impl Handler<ListWebhooks> for TenantActor {
    type Result = MessageResult<ListWebhooks>;
    fn handle(&mut self, _: ListWebhooks, _: &mut Self::Context) -> Self::Result {
        MessageResult(self.subs.list())
    }
}

/// Delete a webhook: no more deliveries to it (pending ones stop).
#[derive(Message)]
#[rtype(result = "Result<(), EngineError>")]
pub(crate) struct DeleteWebhook(pub Ulid);

impl Handler<DeleteWebhook> for TenantActor {
    type Result = ResponseFuture<Result<(), EngineError>>;

    fn handle(&mut self, msg: DeleteWebhook, _: &mut Self::Context) -> Self::Result {
        let res = (|| {
            let (w, addr) = self.subs.remove(msg.0).ok_or(EngineError::NotFound("webhook"))?;
            self.webhook_registry.write().unwrap().remove(&w.id);
            addr.do_send(webhook::Stop);
            self.store.delete_webhook(&w)?;
            Ok::<_, EngineError>(self.store.commit())
        })();
        Box::pin(async move { Ok(res?.await?) })
    }
}

/// Start a new cycle of attempts for a finished delivery.
#[derive(Message)]
#[rtype(result = "Result<pigeon_storage::model::DeliveryRecord, EngineError>")]
pub(crate) struct RetryDelivery {
    pub webhook_id: Ulid,
    pub delivery_id: Ulid,
}

impl Handler<RetryDelivery> for TenantActor {
    type Result = ResponseFuture<Result<pigeon_storage::model::DeliveryRecord, EngineError>>;

    fn handle(&mut self, msg: RetryDelivery, _: &mut Self::Context) -> Self::Result {
        let addr = self.subs.addr(msg.webhook_id);
        Box::pin(async move {
            let addr = addr.ok_or(EngineError::NotFound("webhook"))?;
            addr.send(webhook::Retry(msg.delivery_id)).await?
        })
    }
}

/// How long a detection answer is trusted.
const DETECTION_TTL: chrono::TimeDelta = chrono::TimeDelta::days(7);
/// How long a phone has to answer a detection.
const DETECTION_WAIT: std::time::Duration = std::time::Duration::from_secs(10);

/// Whether a number has iMessage, and how pigeon knows.
#[derive(Debug, Clone)]
pub struct Detection {
    /// The number.
    pub phone: String,
    /// Has iMessage.
    pub imessage: bool,
    /// When a phone checked it.
    pub checked_at: DateTime<Utc>,
    /// From the 7-day cache.
    pub cached: bool,
}

/// Ask whether a number has iMessage.
#[derive(Message)]
#[rtype(result = "Result<Detection, EngineError>")]
pub(crate) struct DetectNumber {
    pub number: PhoneNumber,
    pub test: bool,
}

impl Handler<DetectNumber> for TenantActor {
    type Result = ResponseFuture<Result<Detection, EngineError>>;

    fn handle(&mut self, msg: DetectNumber, _: &mut Self::Context) -> Self::Result {
        let now = self.clock.now();
        let phone = msg.number.as_str().to_owned();
        if msg.test {
            // Test keys: the sim phones' documented rule, no phone, no cache.
            let imessage = phone::sim_has_imessage(&phone);
            return Box::pin(
                async move { Ok(Detection { phone, imessage, checked_at: now, cached: false }) },
            );
        }
        let cached = self.store.detection(self.tenant.id, &phone);
        if let Ok(Some(d)) = &cached {
            if now - d.checked_at < DETECTION_TTL {
                let (imessage, checked_at) = (d.imessage, d.checked_at);
                return Box::pin(async move { Ok(Detection { phone, imessage, checked_at, cached: true }) });
            }
        }
        let asked = self
            .phones
            .iter()
            .find(|p| p.rec.enabled && p.live.is_online(now.timestamp_millis()))
            .map(|p| p.addr.clone());
        let (store, clock, tenant) = (self.store.clone(), self.clock.clone(), self.tenant.id);
        Box::pin(async move {
            let addr = asked.ok_or(EngineError::DetectionUnavailable)?;
            let (tx, rx) = tokio::sync::oneshot::channel();
            addr.do_send(phone::Detect { number: phone.clone(), reply: tx });
            let imessage = match tokio::time::timeout(DETECTION_WAIT, rx).await {
                Ok(Ok(answer)) => answer,
                _ => return Err(EngineError::DetectionUnavailable),
            };
            let checked_at = clock.now();
            let rec = pigeon_storage::model::DetectionRecord { imessage, checked_at };
            if let Err(e) = store.put_detection(tenant, &phone, &rec) {
                tracing::warn!(error = %e, "cannot cache a detection");
            }
            Ok(Detection { phone, imessage, checked_at, cached: false })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sticky_phone_wins_while_available_else_the_most_capacity_then_the_oldest() {
        let (a, b, c) = (Ulid::from_parts(1, 1), Ulid::from_parts(2, 2), Ulid::from_parts(3, 3));
        assert_eq!(choose_phone([(a, Some(5)), (b, Some(9)), (c, Some(1))], Some(c)), Some(2));
        assert_eq!(choose_phone([(a, Some(5)), (b, Some(9)), (c, None)], Some(c)), Some(1));
        assert_eq!(choose_phone([(a, Some(9)), (b, Some(9))], None), Some(0));
        assert_eq!(choose_phone([(a, None), (b, None)], Some(a)), None);
        assert_eq!(choose_phone([(a, Some(0)), (b, None)], None), Some(0));
    }
}

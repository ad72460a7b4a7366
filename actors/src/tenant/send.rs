//! The send decision: idempotency, opt-out, quiet hours and `send_at`, the new-contact limit,
//! and which phone takes it; then the accept write, and the hand-off once it is on disk.

use std::collections::BTreeMap;

use actix::prelude::*;
use chrono::{DateTime, Utc};
use pigeon_storage::model::{
    Channel, Direction, Environment, IdempotencyRecord, MediaRef, MessageRecord, MessageStatus,
    RecipientRecord,
};
use ulid::Ulid;

use super::admission::{RateInfo, CALLS};
use super::idempotency::first_answer;
use super::lifecycle::CompleteTest;
use super::phones::sent_counter;
use super::TenantActor;
use crate::clock::secs_to_next_day;
use crate::domain::{magic, PhoneNumber};
use crate::durable::durable;
use crate::error::Missing;
use crate::phone::{self, PhoneActor};
use crate::scheduler::{self, Scheduler};
use crate::{credentials, quiet, zones, EngineError};
use pigeon_storage::model::Scope;

/// The refusal of a call outside its key's scopes.
pub fn lacks(s: Scope) -> String {
    format!("This key lacks the `{}` scope this call needs.", s.as_str())
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
    /// Send through this phone of the tenant's only (`from`).
    pub from: Option<PhoneNumber>,
    /// The tenant's own values, echoed in the record and its events (checked at the edge).
    pub metadata: BTreeMap<String, String>,
    /// Seconds a phone may still take it after its acceptance (10–259,200, checked at the edge).
    pub valid_for: Option<u32>,
    /// Attachments, the tenant's own media (found at the edge); a media-only send's `body` is empty.
    pub media: Vec<MediaRef>,
}

impl SendRequest {
    /// What "the same request" means for an idempotency key: same recipient, channel, text,
    /// template, time, phone, metadata, validity and media. The last four are added only when
    /// given, so a key's fingerprint from before they existed still matches.
    fn fingerprint(&self) -> String {
        let channel = match self.channel {
            Channel::Auto => "auto",
            Channel::Imessage => "imessage",
            Channel::Sms => "sms",
        };
        let template = self.template.as_deref().unwrap_or("");
        let at = self.send_at.map(|t| t.timestamp_millis()).unwrap_or(0);
        let mut same = format!("{}\n{channel}\n{template}\n{at}\n{}", self.to, self.body);
        if self.from.is_some() || !self.metadata.is_empty() || self.valid_for.is_some() {
            let from = self.from.as_ref().map_or("", |f| f.as_str());
            let metadata = serde_json::to_string(&self.metadata).expect("strings serialize");
            let valid_for = self.valid_for.unwrap_or(0);
            same.push_str(&format!("\n{from}\n{metadata}\n{valid_for}"));
        }
        super::idempotency::with_media(&mut same, &self.media);
        credentials::hash(&same)
    }
}

/// Seconds a 503 `NO_PHONE_AVAILABLE` asks to wait when a phone may come back any moment.
const NO_PHONE_RETRY_S: u64 = 30;

/// Counter name prefix of first-time recipients per day.
pub(crate) const NEW_CONTACTS: &str = "new_contacts:";

/// Decide and record a send.
#[derive(Message, Clone)]
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
    /// The phone for a send: the `from` one if it is available, else the sticky or the
    /// roomiest; when none is, the 503 to answer.
    fn choose_phone(
        &mut self,
        from: Option<&PhoneNumber>,
        sticky: Option<Ulid>,
        now: DateTime<Utc>,
    ) -> Result<usize, EngineError> {
        let today = now.date_naive();
        let chosen = match from {
            Some(number) => {
                let i = self.phone_numbered(number)?;
                self.phones[i].available(now).then_some(i)
            }
            None => choose_phone(
                self.phones.iter_mut().map(|p| (p.rec.id, p.available(now).then(|| p.capacity(today)))),
                sticky,
            ),
        };
        chosen.ok_or_else(|| self.no_phone(from, now))
    }

    /// The index of the tenant's phone with `number`; 400 naming `from` when there is none.
    fn phone_numbered(&self, number: &PhoneNumber) -> Result<usize, EngineError> {
        self.phones.iter().position(|p| p.rec.number == number.as_str()).ok_or_else(|| {
            EngineError::Validation(format!("from: {number} is not one of this tenant's phones"))
        })
    }

    /// 503 `NO_PHONE_AVAILABLE`: retry at UTC midnight when every phone that could take the
    /// message (the `from` one, else every enabled one) is online and spent for the day, else in 30 s.
    fn no_phone(&mut self, from: Option<&PhoneNumber>, now: DateTime<Utc>) -> EngineError {
        let mut could = self.phones.iter_mut().filter(|p| match from {
            Some(n) => p.rec.number == n.as_str(),
            None => p.rec.enabled,
        });
        let mut any = false;
        let spent = could.all(|p| {
            any = true;
            p.rec.enabled && p.spent(now)
        });
        let retry_after = if any && spent { secs_to_next_day(now) } else { NO_PHONE_RETRY_S };
        EngineError::NoPhoneAvailable { from: from.map(|n| n.as_str().to_owned()), retry_after }
    }

    fn new_message(&self, req: &SendRequest, now: DateTime<Utc>) -> MessageRecord {
        let (to, body) = (req.to.as_str().to_owned(), req.body.clone());
        MessageRecord {
            template: req.template.clone(),
            campaign_id: req.campaign_id,
            test: req.test,
            pinned: req.from.is_some(),
            metadata: req.metadata.clone(),
            expires_at: req.valid_for.map(|s| now + chrono::Duration::seconds(i64::from(s))),
            media: req.media.clone(),
            ..MessageRecord::new(
                self.store.new_id(),
                self.tenant.id,
                Direction::Outbound,
                MessageStatus::Queued,
                to,
                body,
                req.channel,
                now,
            )
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
#[derive(Message, Clone)]
#[rtype(result = "(Option<RateInfo>, Result<Option<MessageRecord>, EngineError>)")]
pub(crate) struct AdmitSend {
    pub who: super::Credential,
    pub req: Option<SendRequest>,
    /// The call was admitted and charged by an earlier `AdmitSend` without `req` (a send whose
    /// media the edge fetched in between): only the send runs now.
    pub admitted: bool,
}

impl Handler<AdmitSend> for TenantActor {
    type Result = ResponseFuture<(Option<RateInfo>, Result<Option<MessageRecord>, EngineError>)>;

    fn handle(&mut self, msg: AdmitSend, ctx: &mut Self::Context) -> Self::Result {
        let AdmitSend { who, req, admitted } = msg;
        if admitted {
            let Some(mut req) = req else { return Box::pin(std::future::ready((None, Ok(None)))) };
            req.test = self.environment_of(&who) == Environment::Test;
            let sent = self.send(req, ctx);
            return Box::pin(async move { (None, sent.await.map(Some)) });
        }
        let (rate, admitted) = self.admit(&who);
        let admitted = admitted.and_then(|a| match a.scopes.has(Scope::Send) {
            true => Ok(a),
            false => Err(EngineError::InsufficientScope(lacks(Scope::Send))),
        });
        let (Ok(a), Some(mut req)) = (&admitted, req) else {
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
                if let Some(first) = first_answer(&self.store, tenant, key, fingerprint, now)? {
                    // The first answer again; nothing is sent.
                    let m = self
                        .store
                        .messages()
                        .get(tenant, first.message_id)?
                        .ok_or(EngineError::NotFound(Missing::Message))?;
                    return Ok((m, Dispatch::None));
                }
            }
            if self.store.numbers().is_opted_out(tenant, to)? {
                return Err(EngineError::RecipientOptedOut);
            }
            let mut m = self.new_message(&req, now);
            if let (Some(at), Some(expires)) = (req.send_at, m.expires_at) {
                if at >= expires {
                    return Err(EngineError::Validation(
                        "valid_for: the message would expire before its send_at".into(),
                    ));
                }
            }
            // Quiet hours in the recipient's zone, and `send_at`, hold the message.
            let contact = self.store.contacts().find(tenant, to)?;
            let fallback = self
                .tenant
                .quiet_hours
                .timezone
                .as_deref()
                .and_then(|z| z.parse().ok())
                .unwrap_or(chrono_tz::Tz::UTC);
            let zone =
                zones::recipient_zone(contact.as_ref().and_then(|c| c.timezone.as_deref()), to, fallback);
            let (release, notice) = quiet::plan_release(now, req.send_at, zone, &self.tenant.quiet_hours);
            m.scheduled_at = release;
            m.held = release.is_some();
            m.notice = notice.map(str::to_owned);
            // Held past its expiry, it is due then, to fail (`lifecycle::Release`).
            let due = |at: DateTime<Utc>| m.expires_at.map_or(at, |e| e.min(at));
            let hold =
                release.map(|at| Dispatch::Hold(self.shared.scheduler.get().cloned(), due(at), tenant, m.id));
            let idem = req.idempotency_key.as_deref().zip(fingerprint).map(|(k, fingerprint)| {
                (k, IdempotencyRecord { fingerprint, message_id: m.id, created_at: now })
            });
            let idem = idem.as_ref().map(|(k, r)| (*k, r));
            if req.test {
                // Test keys: no phone, no capacity, no new-contact allowance; a `from` is checked
                // as a live send's would be, and is the record's sender.
                m.from = Some(match &req.from {
                    Some(number) => {
                        self.choose_phone(Some(number), None, now)?;
                        number.as_str().to_owned()
                    }
                    None => magic::TEST_SENDER.to_owned(),
                });
                self.store.accept_message(&m, None, idem)?;
                let id = m.id;
                return Ok((m, hold.unwrap_or(Dispatch::Test(me, id))));
            }
            let known = self.store.messages().recipient(tenant, to)?;
            let today = now.date_naive();
            if self.new_today.0 != today {
                self.new_today = (today, 0);
            }
            // Contacts and numbers messaged before are "existing": only others are new.
            let is_new = known.is_none() && contact.is_none();
            if is_new && self.new_today.1 >= u64::from(self.tenant.effective_new_contacts()) {
                return Err(EngineError::NewContactLimit { retry_after: secs_to_next_day(now) });
            }
            let sticky = known.as_ref().and_then(|r| r.last_phone);
            let i = self.choose_phone(req.from.as_ref(), sticky, now)?;
            let slot = &self.phones[i];
            m.phone_id = Some(slot.rec.id);
            m.from = Some(slot.rec.number.clone());
            let sent = slot.sent_today + 1;
            let new_count = self.new_today.1 + u64::from(is_new);
            // Only what changed is written: a repeat recipient on its sticky phone costs no
            // recipient or new-contact write (the send path is hot). A phone chosen with `from`
            // is not the recipient's sticky one; a first message still makes the number known.
            let last_phone = if req.from.is_some() { sticky } else { Some(slot.rec.id) };
            let recipient = (known.is_none() || sticky != last_phone)
                .then(|| RecipientRecord { first_at: known.map_or(now, |r| r.first_at), last_phone });
            let sent_key = sent_counter(slot.rec.id, today);
            let new_key = is_new.then(|| format!("{NEW_CONTACTS}{today}"));
            m.tally = vec![(format!("{CALLS}{}", self.month), self.calls), (sent_key, u64::from(sent))];
            if let Some(k) = new_key {
                m.tally.push((k, new_count));
            }
            self.store.accept_message(&m, recipient.as_ref().map(|r| (to, r)), idem)?;
            self.phones[i].sent_today = sent;
            self.new_today.1 = new_count;
            let (id, expires_at) = (m.id, m.expires_at);
            Ok((m, hold.unwrap_or(Dispatch::Phone(self.phones[i].addr.clone(), id, expires_at))))
        })();
        let written = durable(&self.store, res);
        Box::pin(async move {
            let (m, dispatch) = written.await?;
            // Only what is on disk is handed on.
            match dispatch {
                Dispatch::Phone(addr, id, expires_at) => addr.do_send(phone::Enqueue { id, expires_at }),
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
    /// To its phone, with its expiry.
    Phone(Addr<PhoneActor>, Ulid, Option<DateTime<Utc>>),
    Test(Addr<TenantActor>, Ulid),
    /// Held by quiet hours or `send_at`.
    Hold(Option<Addr<Scheduler>>, DateTime<Utc>, Ulid, Ulid),
    /// An idempotent replay: already handed on the first time.
    None,
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

//! What happens to a message after its send: release from hold, a test key's completion,
//! cancellation, and inbound texts (their keywords: `opt_outs.rs`).

use actix::prelude::*;
use pigeon_storage::model::{Channel, Direction, IdempotencyRecord, MediaRef, MessageRecord, MessageStatus};
use ulid::Ulid;

use super::TenantActor;
use crate::credentials;
use crate::domain::{magic, PhoneNumber};
use crate::durable::{after_commit, durable};
use crate::error::Missing;
use crate::failure::FailureCode;
use crate::phone::{self};
use crate::webhook::{self};
use crate::EngineError;

/// A message the scheduler held is due: a held message's time has come (hand it to its phone,
/// or complete it, for test keys), or a queued one's `valid_for` ran out (it fails `EXPIRED`).
#[derive(Message, Clone)]
#[rtype(result = "()")]
pub(crate) struct Release(pub Ulid);

impl Handler<Release> for TenantActor {
    type Result = ();

    fn handle(&mut self, msg: Release, ctx: &mut Self::Context) {
        self.active(self.clock.now());
        let Ok(Some(mut m)) = self.store.messages().get(self.tenant.id, msg.0) else { return };
        if m.status != MessageStatus::Queued {
            return; // cancelled, sent or failed meanwhile
        }
        let now = self.clock.now();
        let phone =
            m.phone_id.and_then(|p| self.phones.iter().find(|s| s.rec.id == p)).map(|s| s.addr.clone());
        if m.expires_at.is_some_and(|e| e <= now) {
            match (m.held, phone) {
                // In its phone's queue: the phone fails it unless it just handed it out.
                (false, Some(addr)) => addr.do_send(phone::Expire(m.id)),
                (false, None) => {}
                (true, _) => {
                    m.held = false;
                    phone::fail(&mut m, now, FailureCode::Expired, phone::EXPIRED_REASON);
                    if let Err(e) = webhook::write_with_events(&self.store, &self.subs, &m, None, now) {
                        log_store_failure!(e, message_id = %m.id, "cannot expire a held message");
                    }
                }
            }
            return;
        }
        if !m.held {
            return;
        }
        m.held = false;
        let enqueue = phone::Enqueue { id: m.id, expires_at: m.expires_at };
        let res = match (m.test, phone) {
            (true, _) => self.store.messages().put(&m).map(|()| ctx.address().do_send(CompleteTest(m.id))),
            (false, Some(addr)) => self.store.messages().put(&m).map(|()| addr.do_send(enqueue)),
            (false, None) => {
                phone::fail(
                    &mut m,
                    now,
                    FailureCode::NoPhoneAvailable,
                    "The phone was removed before the message was sent.",
                );
                webhook::write_with_events(&self.store, &self.subs, &m, None, now)
            }
        };
        if let Err(e) = res {
            log_store_failure!(e, message_id = %m.id, "cannot release a held message");
        }
    }
}

/// Finish a test message: delivered, or failed for the magic numbers.
#[derive(Message, Clone)]
#[rtype(result = "()")]
pub(crate) struct CompleteTest(pub Ulid);

impl Handler<CompleteTest> for TenantActor {
    type Result = ();

    fn handle(&mut self, msg: CompleteTest, _: &mut Self::Context) {
        let Ok(Some(mut m)) = self.store.messages().get(self.tenant.id, msg.0) else { return };
        if m.status != MessageStatus::Queued {
            return;
        }
        let now = self.clock.now();
        if self.store.numbers().is_opted_out(self.tenant.id, &m.to).unwrap_or(false) {
            phone::fail(
                &mut m,
                now,
                FailureCode::RecipientOptedOut,
                "The recipient opted out before the message was sent.",
            );
        } else if let Some(reason) = magic::failure(&m.to) {
            phone::fail(&mut m, now, FailureCode::DeliveryFailed, reason);
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
        if let Err(e) = webhook::write_with_events(&self.store, &self.subs, &m, None, now) {
            log_store_failure!(e, message_id = %m.id, "cannot complete test message");
        }
    }
}

/// Cancel a message not yet leased to a phone.
#[derive(Message, Clone)]
#[rtype(result = "Result<MessageRecord, EngineError>")]
pub(crate) struct CancelMessage(pub Ulid);

impl Handler<CancelMessage> for TenantActor {
    type Result = ResponseFuture<Result<MessageRecord, EngineError>>;

    fn handle(&mut self, msg: CancelMessage, _: &mut Self::Context) -> Self::Result {
        let found = self.store.messages().get(self.tenant.id, msg.0);
        let m = match found {
            Ok(Some(m)) if m.direction == Direction::Outbound => m,
            Ok(_) => return Box::pin(async { Err(EngineError::NotFound(Missing::Message)) }),
            Err(e) => return Box::pin(async move { Err(e.into()) }),
        };
        if m.status != MessageStatus::Queued {
            let status = m.status.as_str();
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
                let before = Some(m.status);
                m.status = MessageStatus::Cancelled;
                m.held = false;
                let res = self.store.messages().put(&m).map(|()| m).map_err(EngineError::from);
                if let Ok(m) = &res {
                    crate::webhook::count_fate(m, before);
                }
                after_commit(&self.store, res)
            }
        }
    }
}

/// A text from a recipient, received by one of the tenant's phones.
#[derive(Message, Clone)]
#[rtype(result = "Result<MessageRecord, EngineError>")]
pub(crate) struct Inbound {
    pub phone_id: Ulid,
    pub from: PhoneNumber,
    pub body: String,
    /// Files this phone uploaded, attached in this order.
    pub media: Vec<Ulid>,
    /// The agent's id for this text: a repeat within 24 h records nothing and answers the first.
    pub key: Option<String>,
}

impl Handler<Inbound> for TenantActor {
    type Result = ResponseFuture<Result<MessageRecord, EngineError>>;

    fn handle(&mut self, msg: Inbound, _: &mut Self::Context) -> Self::Result {
        self.active(self.clock.now());
        let res = (|| {
            let i = self
                .phones
                .iter()
                .position(|p| p.rec.id == msg.phone_id)
                .ok_or(EngineError::NotFound(Missing::Phone))?;
            let phone = &self.phones[i];
            let now = self.clock.now();
            // Keyed per phone, beside the tenant's send keys (and pruned with them after 24 h).
            let key = msg.key.as_ref().map(|k| format!("inbound:{}:{k}", phone.rec.id));
            let media = msg
                .media
                .iter()
                .enumerate()
                .map(|(i, id)| match self.store.media().get(self.tenant.id, *id)? {
                    Some(f) if f.phone_id == Some(phone.rec.id) => Ok(MediaRef::from(&f)),
                    _ => Err(EngineError::InvalidMedia(format!(
                        "media[{i}]: {id} is not an upload of this phone"
                    ))),
                })
                .collect::<Result<Vec<_>, EngineError>>()?;
            let mut same = format!("{}\n{}", msg.from.as_str(), msg.body);
            super::idempotency::with_media(&mut same, &media);
            let fingerprint = credentials::hash(&same);
            if let Some(key) = &key {
                if let Some(first) =
                    super::idempotency::first_answer(&self.store, self.tenant.id, key, &fingerprint, now)?
                {
                    // A key written just before a crash may have no message: record it now.
                    if let Some(m) = self.store.messages().get(self.tenant.id, first.message_id)? {
                        return Ok((m, None));
                    }
                }
            }
            let (to, body) = (phone.rec.number.clone(), msg.body);
            let m = MessageRecord {
                media,
                from: Some(msg.from.as_str().to_owned()),
                phone_id: Some(phone.rec.id),
                delivered_at: Some(now),
                ..MessageRecord::new(
                    self.store.new_id(),
                    self.tenant.id,
                    Direction::Inbound,
                    MessageStatus::Received,
                    to,
                    body,
                    Channel::Sms,
                    now,
                )
            };
            if let Some(key) = &key {
                // Before the message: a crash between the two leaves a key that the retry
                // overwrites, never a second message.
                let r = IdempotencyRecord { fingerprint, message_id: m.id, created_at: now };
                self.store.messages().set_idempotency(self.tenant.id, key, &r)?;
            }
            // The keyword's effect before the message, as the key is: sled may flush between
            // two writes of a turn, and a retry that finds the message applies nothing again.
            let reply = self.answer_keyword(&m, i, now)?;
            webhook::write_with_events(&self.store, &self.subs, &m, None, now)?;
            Ok::<_, EngineError>((m, reply))
        })();
        let written = durable(&self.store, res);
        Box::pin(async move {
            let (m, reply) = written.await?;
            if let Some(reply) = reply {
                reply.send();
            }
            Ok(m)
        })
    }
}

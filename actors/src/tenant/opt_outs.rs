//! Opt-outs: a recipient's STOP, START and HELP, the tenant's own opt-outs through the API, the
//! events they make, and the replies the node texts back on the tenant's behalf (DESIGN
//! "Opt-out replies, HELP, and tenant settings").
//!
//! A reply is an outbound message with `reply_to`, queued on the phone that received the
//! keyword. It skips every rule of a send: the opt-out it confirms, quiet hours, the new-contact
//! limit, the month's quota. It counts toward its phone's day but is never refused by it: a
//! recipient who texts STOP is told it worked even on a busy day.

use actix::prelude::*;
use chrono::{DateTime, Utc};
use pigeon_storage::model::{Channel, Direction, MessageRecord, MessageStatus, OptOutRecord, OptOutVia};
use ulid::Ulid;

use super::phones::sent_counter;
use super::TenantActor;
use crate::domain::{Keyword, PhoneNumber};
use crate::durable::after_commit;
use crate::error::Missing;
use crate::phone::{self, PhoneActor};
use crate::webhook::{self, Outbox};
use crate::EngineError;

/// A reply written in a turn, to hand to its phone once on disk.
pub(super) struct Reply(Addr<PhoneActor>, Ulid);

impl Reply {
    /// Hands the reply to its phone (call once its write is durable).
    pub(super) fn send(self) {
        self.0.do_send(phone::Enqueue { id: self.1, expires_at: None });
    }
}

impl TenantActor {
    /// What the keyword of `inbound` (received by phone `i`) changes, written in the inbound's
    /// turn: the opt-out and its event, and the reply. A STOP from a number already opted out,
    /// or a START from one that is not, changes nothing and sends nothing.
    pub(super) fn answer_keyword(
        &mut self,
        inbound: &MessageRecord,
        i: usize,
        now: DateTime<Utc>,
    ) -> Result<Option<Reply>, EngineError> {
        let Some(kind) = Keyword::of(&inbound.body) else { return Ok(None) };
        let Some(from) = inbound.from.clone() else { return Ok(None) };
        let tenant = self.tenant.id;
        let keyword = inbound.body.trim().to_ascii_uppercase();
        let replies = &self.tenant.replies;
        let text = match kind {
            Keyword::OptOut if !self.store.numbers().is_opted_out(tenant, &from)? => {
                let r = OptOutRecord {
                    phone: from.clone(),
                    opted_out_at: Some(now),
                    via: OptOutVia::Keyword,
                    keyword: Some(keyword),
                };
                let text = replies.opt_out_reply.clone();
                self.record_opt_out(&r, now)?;
                text
            }
            Keyword::OptIn if self.store.numbers().is_opted_out(tenant, &from)? => {
                let text = replies.opt_in_reply.clone();
                self.record_opt_in(&from, OptOutVia::Keyword, Some(&keyword), now)?;
                text
            }
            Keyword::Help => replies.help_reply.clone(),
            Keyword::OptOut | Keyword::OptIn => None,
        };
        text.map(|text| self.reply(inbound, &from, i, text, now)).transpose()
    }

    /// Queues `text` to `to` on phone `i`, answering `inbound`.
    fn reply(
        &mut self,
        inbound: &MessageRecord,
        to: &str,
        i: usize,
        text: String,
        now: DateTime<Utc>,
    ) -> Result<Reply, EngineError> {
        let today = now.date_naive();
        let slot = &mut self.phones[i];
        slot.capacity(today);
        let sent = slot.sent_today + 1;
        let m = MessageRecord {
            phone_id: Some(slot.rec.id),
            from: Some(slot.rec.number.clone()),
            pinned: true,
            reply_to: Some(inbound.id),
            tally: vec![(sent_counter(slot.rec.id, today), u64::from(sent))],
            ..MessageRecord::new(
                self.store.new_id(),
                self.tenant.id,
                Direction::Outbound,
                MessageStatus::Queued,
                to.to_owned(),
                text,
                Channel::Auto,
                now,
            )
        };
        self.store.accept_message(&m, None, None)?;
        slot.sent_today = sent;
        Ok(Reply(slot.addr.clone(), m.id))
    }

    /// Writes an opt-out, its event first (the outbox rule).
    fn record_opt_out(&mut self, r: &OptOutRecord, now: DateTime<Utc>) -> Result<(), EngineError> {
        let mut out = Outbox::default();
        let (event, keyword) = (webhook::OPTED_OUT, r.keyword.as_deref());
        let body = |id| webhook::contact_payload(event, id, &r.phone, r.via, keyword, now);
        self.subs.emit_one(&self.store, self.tenant.id, event, None, None, now, body, &mut out);
        self.store.numbers().opt_out(self.tenant.id, r)?;
        out.send_after_commit(&self.store);
        Ok(())
    }

    /// Removes an opt-out, its event first.
    fn record_opt_in(
        &mut self,
        phone: &str,
        via: OptOutVia,
        keyword: Option<&str>,
        now: DateTime<Utc>,
    ) -> Result<(), EngineError> {
        let mut out = Outbox::default();
        let event = webhook::OPTED_IN;
        let body = |id| webhook::contact_payload(event, id, phone, via, keyword, now);
        self.subs.emit_one(&self.store, self.tenant.id, event, None, None, now, body, &mut out);
        self.store.numbers().opt_in(self.tenant.id, phone)?;
        out.send_after_commit(&self.store);
        Ok(())
    }
}

/// The tenant records an opt-out it got elsewhere. Answers the record and whether it is new
/// (a number already opted out answers its existing record, however it was made).
#[derive(Message, Clone)]
#[rtype(result = "Result<(OptOutRecord, bool), EngineError>")]
pub(crate) struct AddOptOut(pub PhoneNumber);

impl Handler<AddOptOut> for TenantActor {
    type Result = ResponseFuture<Result<(OptOutRecord, bool), EngineError>>;

    fn handle(&mut self, AddOptOut(phone): AddOptOut, _: &mut Self::Context) -> Self::Result {
        let now = self.clock.now();
        let res = (|| {
            if let Some(r) = self.store.numbers().opt_out_of(self.tenant.id, phone.as_str())? {
                return Ok((r, false));
            }
            let r = OptOutRecord {
                phone: phone.as_str().to_owned(),
                opted_out_at: Some(now),
                via: OptOutVia::Api,
                keyword: None,
            };
            self.record_opt_out(&r, now)?;
            Ok((r, true))
        })();
        after_commit(&self.store, res)
    }
}

/// The tenant removes an opt-out it made through the API; one the recipient made by keyword
/// stays until the recipient's START.
#[derive(Message, Clone)]
#[rtype(result = "Result<OptOutRecord, EngineError>")]
pub(crate) struct RemoveOptOut(pub PhoneNumber);

impl Handler<RemoveOptOut> for TenantActor {
    type Result = ResponseFuture<Result<OptOutRecord, EngineError>>;

    fn handle(&mut self, RemoveOptOut(phone): RemoveOptOut, _: &mut Self::Context) -> Self::Result {
        let now = self.clock.now();
        let res = (|| {
            let r = self
                .store
                .numbers()
                .opt_out_of(self.tenant.id, phone.as_str())?
                .ok_or(EngineError::NotFound(Missing::OptOut))?;
            if r.via == OptOutVia::Keyword {
                return Err(EngineError::InvalidTransition(format!(
                    "phone: {} opted out by texting {}; only its START opts it back in",
                    r.phone,
                    r.keyword.as_deref().unwrap_or("STOP")
                )));
            }
            self.record_opt_in(&r.phone, OptOutVia::Api, None, now)?;
            Ok(r)
        })();
        after_commit(&self.store, res)
    }
}

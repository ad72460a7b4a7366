//! The simulated phone: an in-process carrier with a configured latency and failure rate, and
//! optionally a recipient who reads what arrives.

use std::time::Duration;

use actix::prelude::*;
use pigeon_storage::model::{Channel, MessageRecord, MessageStatus};
use ulid::Ulid;

use super::{fail, PhoneActor};
use crate::failure::FailureCode;

impl PhoneActor {
    /// Starts delivering every queued message (the sim is online).
    pub(super) fn dispatch_sim(&mut self, ctx: &mut Context<Self>) {
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
                self.sim_read_later(&m, ctx);
                continue;
            }
            self.save(&m);
            let id = m.id;
            self.sim_in_flight += 1;
            ctx.run_later(latency, move |act, ctx| {
                act.sim_in_flight -= 1;
                act.finish_sim(id, ctx);
            });
        }
    }

    pub(super) fn finish_sim(&mut self, id: Ulid, ctx: &mut Context<Self>) {
        let Some(mut m) = self.load(id) else { return };
        if m.status != MessageStatus::Sending {
            return;
        }
        self.sim_outcome(&mut m);
        self.save(&m);
        self.sim_read_later(&m, ctx);
    }

    /// With `read_after_ms`, the recipient reads a delivered message that long after. A read
    /// still to come when the node stops does not happen (the sim's recipient lives in memory).
    fn sim_read_later(&self, m: &MessageRecord, ctx: &mut Context<Self>) {
        let Some(after) = self.sim.read_after_ms else { return };
        if m.status != MessageStatus::Delivered {
            return;
        }
        let id = m.id;
        ctx.run_later(Duration::from_millis(after), move |act, _| {
            let Some(mut m) = act.load(id).filter(|m| m.status == MessageStatus::Delivered) else { return };
            m.status = MessageStatus::Read;
            m.read_at = Some(act.clock.now());
            act.save_from(&m, MessageStatus::Delivered);
        });
    }

    /// The sim carrier's verdict on a message: delivered, or failed at the configured rate.
    pub(super) fn sim_outcome(&self, m: &mut MessageRecord) {
        let now = self.clock.now();
        if self.sim.failure_rate > 0.0 && rand::random::<f64>() < self.sim.failure_rate {
            fail(m, now, FailureCode::DeliveryFailed, "Simulated carrier failure.");
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
}

/// The documented rule of sim phones: a number "has iMessage" when its last digit is even.
pub fn sim_has_imessage(number: &str) -> bool {
    number.bytes().last().is_some_and(|d| (d - b'0') % 2 == 0)
}

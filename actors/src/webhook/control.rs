//! A tenant's control over one endpoint's deliveries, handled by the endpoint's actor (the only
//! writer of its deliveries, so nothing races its attempts): turning it off stops what is
//! pending; `recover` starts again what failed in a window.

use actix::prelude::*;
use chrono::{DateTime, Utc};
use pigeon_storage::model::{Attempt, DeliveryRecord, DeliveryState};
use ulid::Ulid;

use super::actor::WebhookActor;

/// Why a delivery stopped when its webhook was turned off (the attempt that ends its cycle).
pub const DISABLED: &str = "webhook_disabled";

/// The webhook is turned off: every pending delivery ends its cycle `failed` (an attempt with
/// `error: webhook_disabled`, so `recover` can bring it back), then the actor stops. How many.
#[derive(Message)]
#[rtype(result = "Result<usize, pigeon_storage::StoreError>")]
pub(crate) struct Disable;

impl Handler<Disable> for WebhookActor {
    type Result = Result<usize, pigeon_storage::StoreError>;

    fn handle(&mut self, _: Disable, ctx: &mut Self::Context) -> Self::Result {
        let mut ids: Vec<Ulid> = self.ready.drain(..).collect();
        ids.extend(std::mem::take(&mut self.due).into_iter().map(|(_, id)| id));
        ids.extend(self.in_flight.drain());
        // Pending ones the actor has not picked up yet (resumed later, or handed on after it).
        let (tenant, webhook) = (self.hook.tenant_id, self.hook.id);
        ids.extend(
            self.store
                .webhooks()
                .due()?
                .into_iter()
                .filter(|d| d.webhook_id == webhook)
                .map(|d| d.delivery_id),
        );
        ids.sort_unstable();
        ids.dedup();
        let now = self.clock.now();
        let mut stopped = 0;
        for id in ids {
            let Some(mut d) = self.store.webhooks().delivery(tenant, webhook, id)? else { continue };
            if d.state != DeliveryState::Pending {
                continue;
            }
            d.attempts.push(Attempt {
                at: now,
                cycle: d.cycle,
                status_code: None,
                error: Some(DISABLED.into()),
                duration_ms: 0,
                response_snippet: None,
            });
            d.state = DeliveryState::Failed;
            d.next_attempt_at = None;
            self.store.webhooks().put_delivery(&d)?;
            stopped += 1;
        }
        ctx.stop();
        Ok(stopped)
    }
}

/// Starts a new cycle, as a manual retry does, for every delivery whose cycle ended `failed`
/// within `[since, until]` (by the time of the attempt that ended it). Pending ones are skipped,
/// so asking twice adds nothing. How many.
#[derive(Message)]
#[rtype(result = "Result<usize, pigeon_storage::StoreError>")]
pub(crate) struct Recover {
    pub since: DateTime<Utc>,
    pub until: Option<DateTime<Utc>>,
}

/// Deliveries read per page while looking for failed ones.
const PAGE: usize = 1000;

impl Handler<Recover> for WebhookActor {
    type Result = Result<usize, pigeon_storage::StoreError>;

    fn handle(&mut self, msg: Recover, ctx: &mut Self::Context) -> Self::Result {
        let (tenant, webhook) = (self.hook.tenant_id, self.hook.id);
        let now = self.clock.now();
        let until = msg.until.unwrap_or(now);
        let mut after = None;
        let mut again = Vec::new();
        loop {
            let page = self.store.webhooks().deliveries(tenant, webhook, after, PAGE)?;
            after = page.last().map(|d| d.id);
            let done = page.len() < PAGE;
            again.extend(page.into_iter().filter(|d| failed_within(d, msg.since, until)));
            if done {
                break;
            }
        }
        for d in &mut again {
            d.cycle += 1;
            d.state = DeliveryState::Pending;
            d.next_attempt_at = Some(now);
            self.store.webhooks().put_delivery(d)?;
        }
        self.ready.extend(again.iter().map(|d| d.id));
        self.pump(ctx);
        Ok(again.len())
    }
}

fn failed_within(d: &DeliveryRecord, since: DateTime<Utc>, until: DateTime<Utc>) -> bool {
    d.state == DeliveryState::Failed && d.attempts.last().is_some_and(|a| a.at >= since && a.at <= until)
}

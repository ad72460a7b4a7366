//! Webhooks: events made from message state changes, one delivery per subscribed endpoint written
//! before the change itself (the outbox), and one actor per endpoint that signs and sends them with
//! the 2/4/8 s retry schedule. A slow or dead endpoint only ever occupies its own actor.
//!
//! Addresses are vetted twice: at registration and at every connection (a resolver that refuses
//! private addresses, so DNS rebinding cannot slip a loopback address in after registration).

mod actor;
mod control;
mod event;
mod outbox;
mod signature;
mod vet;

use std::collections::BTreeMap;
use std::sync::Mutex;
use std::time::Duration;

pub(crate) use actor::{Deliver, Depth, Resume, Retry, Stop, UpdateHook, WebhookActor};
pub use control::DISABLED;
pub(crate) use control::{Disable, Recover};
pub(crate) use event::test_payload;
pub(crate) use event::{contact_payload, phone_payload};
pub use event::{
    events_of, EVENTS, OPTED_IN, OPTED_OUT, PHONE_DISABLED, PHONE_OFFLINE, PHONE_ONLINE, TEST_EVENT,
};
pub use outbox::Subscribers;
pub(crate) use outbox::{count_fate, write_with_events, Outbox};
pub use signature::{
    sign, standard_sign, ID_HEADER, SIGNATURE_HEADER, STANDARD_SIGNATURE_HEADER, TIMESTAMP_HEADER,
};
pub use vet::{check_url, is_public, vetted_client, Cidr, PrivateNetworks, PRIVATE_REFUSED};

/// Attempt outcomes since the node started, by kind (`success`, `http_error`, `timeout`, …), for
/// the operator's Node page; `/metrics` counts the same as `pigeon_webhook_attempts_total`.
#[derive(Default)]
pub struct Outcomes(Mutex<BTreeMap<String, u64>>);

impl Outcomes {
    pub(crate) fn add(&self, kind: &str) {
        *self.0.lock().unwrap().entry(kind.to_owned()).or_default() += 1;
    }

    /// Every kind seen so far, by name.
    pub fn snapshot(&self) -> Vec<(String, u64)> {
        self.0.lock().unwrap().iter().map(|(k, v)| (k.clone(), *v)).collect()
    }
}

/// Waits before the 1st, 2nd and 3rd retry (spec "Retry policy").
pub const BACKOFF: [Duration; 3] = [Duration::from_secs(2), Duration::from_secs(4), Duration::from_secs(8)];
/// Per-attempt time-out.
pub const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(10);

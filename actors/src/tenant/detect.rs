//! iMessage detection: the 7-day cache, else a question to one of the tenant's online phones.

use actix::prelude::*;
use chrono::{DateTime, Utc};

use super::TenantActor;
use crate::domain::PhoneNumber;
use crate::phone::{self};
use crate::EngineError;

/// How long a detection answer is trusted.
pub(crate) const DETECTION_TTL: chrono::TimeDelta = chrono::TimeDelta::days(7);
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
#[derive(Message, Clone)]
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
        let cached = self.store.numbers().detection(self.tenant.id, &phone);
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
            if let Err(e) = store.numbers().put_detection(tenant, &phone, &rec) {
                log_store_failure!(e, "cannot cache a detection");
            }
            Ok(Detection { phone, imessage, checked_at, cached: false })
        })
    }
}

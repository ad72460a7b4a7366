//! Webhooks: events made from message state changes, one delivery per subscribed endpoint written
//! before the change itself (the outbox), and one actor per endpoint that signs and sends them with
//! the 2/4/8 s retry schedule. A slow or dead endpoint only ever occupies its own actor.
//!
//! Addresses are vetted twice: at registration and at every connection (a resolver that refuses
//! private addresses, so DNS rebinding cannot slip a loopback address in after registration).

use std::collections::{BTreeSet, HashSet, VecDeque};
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, RwLock};
use std::time::{Duration, Instant};

use actix::prelude::*;
use actix_tls::connect::{Resolve, Resolver};
use chrono::{DateTime, Utc};
use futures_util::future::LocalBoxFuture;
use hmac::{Hmac, KeyInit, Mac};
use pigeon_storage::model::{Attempt, Channel, DeliveryRecord, DeliveryState, MessageRecord, WebhookRecord};
use pigeon_storage::Store;
use serde::Serialize;
use sha2::Sha256;
use ulid::Ulid;

use crate::clock::SharedClock;

/// The events a webhook can subscribe to.
pub const EVENTS: [&str; 3] = ["message.delivered", "message.failed", "message.received"];
/// Waits before the 1st, 2nd and 3rd retry (spec "Retry policy").
pub const BACKOFF: [Duration; 3] = [Duration::from_secs(2), Duration::from_secs(4), Duration::from_secs(8)];
/// Per-attempt time-out.
pub const ATTEMPT_TIMEOUT: Duration = Duration::from_secs(10);
/// Requests in flight to one endpoint at most.
const MAX_IN_FLIGHT: usize = 32;
/// How often an endpoint's actor looks for retries that fell due (by the injectable clock).
const TICK: Duration = Duration::from_millis(50);
/// Signature header.
pub const SIGNATURE_HEADER: &str = "x-service-signature";

/// `sha256=` and the lowercase hex HMAC-SHA256 of `body` keyed with `secret`.
pub fn sign(secret: &str, body: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes any key length");
    mac.update(body);
    format!("sha256={}", hex::encode(mac.finalize().into_bytes()))
}

/// True for addresses on the public internet; false for loopback, private, link-local, CGNAT,
/// multicast, unspecified, broadcast, documentation and reserved ranges, in IPv4 and IPv6 (mapped
/// and NAT64 forms judged by the IPv4 inside).
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let o = v4.octets();
            !(v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_multicast()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_documentation()
                || o[0] == 0
                || (o[0] == 100 && (o[1] & 0xc0) == 64) // 100.64.0.0/10 CGNAT
                || (o[0] == 198 && (o[1] & 0xfe) == 18) // 198.18.0.0/15 benchmarking
                || (o[0] == 192 && o[1] == 0 && o[2] == 0) // 192.0.0.0/24 protocol assignments
                || o[0] >= 240) // reserved
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_public(IpAddr::V4(v4));
            }
            let s = v6.segments();
            if s[0] == 0x64 && s[1] == 0xff9b && s[2..6] == [0, 0, 0, 0] {
                // NAT64: judged by the IPv4 address inside.
                let o = v6.octets();
                return is_public(IpAddr::V4(std::net::Ipv4Addr::new(o[12], o[13], o[14], o[15])));
            }
            !(v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (s[0] & 0xfe00) == 0xfc00 // unique local
                || (s[0] & 0xffc0) == 0xfe80 // link-local
                || (s[0] == 0x2001 && s[1] == 0x0db8) // documentation
                || (s[0..6] == [0, 0, 0, 0, 0, 0])) // IPv4-compatible (deprecated) and friends
        }
    }
}

/// Checks a webhook URL at registration: absolute `http(s)`, a host, no credentials, and (unless
/// private networks are allowed) every address it resolves to public. The error names `url`.
pub async fn check_url(url: &str, allow_private: bool) -> Result<(), String> {
    let uri: awc::http::Uri = url.parse().map_err(|_| "url: not a valid absolute URL".to_string())?;
    if !matches!(uri.scheme_str(), Some("http" | "https")) {
        return Err("url: must start with http:// or https://".into());
    }
    let auth = uri.authority().ok_or("url: must name a host")?;
    if auth.as_str().contains('@') {
        return Err("url: must not carry credentials".into());
    }
    if url.len() > 2048 {
        return Err("url: at most 2048 characters".into());
    }
    if allow_private {
        return Ok(());
    }
    let port = auth.port_u16().unwrap_or(if uri.scheme_str() == Some("https") { 443 } else { 80 });
    let addrs =
        resolve(auth.host(), port).await.map_err(|e| format!("url: the host does not resolve ({e})"))?;
    if addrs.is_empty() || addrs.iter().any(|a| !is_public(a.ip())) {
        return Err("url: the host is or resolves to a private, loopback or link-local address".into());
    }
    Ok(())
}

async fn resolve(host: &str, port: u16) -> std::io::Result<Vec<SocketAddr>> {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    if let Ok(ip) = bare.parse::<IpAddr>() {
        return Ok(vec![SocketAddr::new(ip, port)]);
    }
    Ok(tokio::net::lookup_host((bare, port)).await?.collect())
}

/// The resolver every delivery connection uses: only public addresses are ever dialled.
struct VettedResolver {
    allow_private: bool,
}

impl Resolve for VettedResolver {
    fn lookup<'a>(
        &'a self,
        host: &'a str,
        port: u16,
    ) -> LocalBoxFuture<'a, Result<Vec<SocketAddr>, Box<dyn std::error::Error>>> {
        Box::pin(async move {
            let addrs = resolve(host, port).await?;
            let vetted: Vec<_> =
                addrs.into_iter().filter(|a| self.allow_private || is_public(a.ip())).collect();
            if vetted.is_empty() {
                return Err(PRIVATE_REFUSED.into());
            }
            Ok(vetted)
        })
    }
}

const PRIVATE_REFUSED: &str = "refused_private_address";

/// An event's payload: the spec's fields, then `event_id` and `test`; `message.failed` adds
/// `failure_reason` and `code`, `message.received` adds `body`.
#[derive(Serialize)]
struct Payload<'a> {
    event: &'a str,
    event_id: String,
    message_id: String,
    from: Option<&'a str>,
    to: &'a str,
    channel: Channel,
    timestamp: String,
    test: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    body: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    failure_reason: Option<&'a str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    code: Option<&'a str>,
}

/// The event a message's new state makes, if any.
pub fn event_of(m: &MessageRecord) -> Option<&'static str> {
    use pigeon_storage::model::MessageStatus::*;
    match m.status {
        Delivered => Some("message.delivered"),
        Failed => Some("message.failed"),
        Received => Some("message.received"),
        _ => None,
    }
}

fn payload(event: &str, event_id: Ulid, m: &MessageRecord, at: DateTime<Utc>) -> String {
    let p = Payload {
        event,
        event_id: event_id.to_string(),
        message_id: m.id.to_string(),
        from: m.from.as_deref(),
        to: &m.to,
        channel: m.channel_used.unwrap_or(m.channel),
        timestamp: pigeon_storage::ts::format(&at),
        test: m.test,
        body: (event == "message.received").then_some(m.body.as_str()),
        failure_reason: (event == "message.failed").then(|| m.failure_reason.as_deref().unwrap_or("")),
        code: (event == "message.failed").then(|| m.error_code.as_deref().unwrap_or("DELIVERY_FAILED")),
    };
    serde_json::to_string(&p).expect("payloads serialize")
}

/// A tenant's endpoints with their actors; shared by the tenant actor (writer) and its phone
/// actors (readers), which emit events.
#[derive(Clone, Default)]
pub struct Subscribers(Arc<RwLock<Vec<Subscription>>>);

/// An endpoint and the actor that delivers to it.
type Subscription = (WebhookRecord, Addr<WebhookActor>);

impl Subscribers {
    pub(crate) fn add(&self, w: WebhookRecord, addr: Addr<WebhookActor>) {
        self.0.write().unwrap().push((w, addr));
    }

    pub(crate) fn remove(&self, id: Ulid) -> Option<(WebhookRecord, Addr<WebhookActor>)> {
        let mut v = self.0.write().unwrap();
        let i = v.iter().position(|(w, _)| w.id == id)?;
        Some(v.remove(i))
    }

    pub(crate) fn list(&self) -> Vec<WebhookRecord> {
        self.0.read().unwrap().iter().map(|(w, _)| w.clone()).collect()
    }

    pub(crate) fn addr(&self, id: Ulid) -> Option<Addr<WebhookActor>> {
        self.0.read().unwrap().iter().find(|(w, _)| w.id == id).map(|(_, a)| a.clone())
    }

    /// Writes one delivery per endpoint subscribed to the event `m`'s state makes. Call before
    /// writing `m` itself, then [`Outbox::send`] once `m` is written.
    pub(crate) fn emit(&self, store: &Store, m: &MessageRecord, now: DateTime<Utc>) -> Outbox {
        let Some(event) = event_of(m) else { return Outbox(Vec::new()) };
        let subs = self.0.read().unwrap();
        if subs.iter().all(|(w, _)| !w.events.iter().any(|e| e == event)) {
            return Outbox(Vec::new());
        }
        let event_id = pigeon_storage::model::new_id();
        let body = payload(event, event_id, m, now);
        let mut out = Vec::new();
        for (w, addr) in subs.iter().filter(|(w, _)| w.events.iter().any(|e| e == event)) {
            let d = DeliveryRecord {
                id: pigeon_storage::model::new_id(),
                tenant_id: m.tenant_id,
                webhook_id: w.id,
                event_id,
                event: event.into(),
                payload: body.clone(),
                state: DeliveryState::Pending,
                cycle: 0,
                attempts: Vec::new(),
                next_attempt_at: Some(now),
                created_at: now,
            };
            match store.put_delivery(&d) {
                Ok(()) => out.push((addr.clone(), d.id)),
                Err(e) => tracing::error!(error = %e, "cannot write a webhook delivery"),
            }
        }
        Outbox(out)
    }
}

/// Writes a message's new state with the deliveries it causes (deliveries first: the outbox rule),
/// then hands them to their endpoints.
pub(crate) fn write_with_events(
    store: &Store,
    subs: &Subscribers,
    m: &MessageRecord,
    now: DateTime<Utc>,
) -> Result<(), pigeon_storage::StoreError> {
    let outbox = subs.emit(store, m, now);
    store.put_message(m)?;
    outbox.send();
    Ok(())
}

/// Deliveries written and waiting to be handed to their endpoints' actors.
#[must_use]
pub(crate) struct Outbox(Vec<(Addr<WebhookActor>, Ulid)>);

impl Outbox {
    /// Hands the deliveries on; call once the state change that made them is written.
    pub(crate) fn send(self) {
        for (addr, id) in self.0 {
            addr.do_send(Deliver(id));
        }
    }
}

/// One endpoint's deliverer.
pub struct WebhookActor {
    store: Store,
    clock: SharedClock,
    hook: WebhookRecord,
    allow_private: bool,
    client: Option<awc::Client>,
    /// Attempts to make now, oldest first.
    ready: VecDeque<Ulid>,
    /// Retries by due time.
    due: BTreeSet<(DateTime<Utc>, Ulid)>,
    in_flight: HashSet<Ulid>,
}

impl WebhookActor {
    pub(crate) fn new(store: Store, clock: SharedClock, hook: WebhookRecord, allow_private: bool) -> Self {
        Self {
            store,
            clock,
            hook,
            allow_private,
            client: None,
            ready: VecDeque::new(),
            due: BTreeSet::new(),
            in_flight: HashSet::new(),
        }
    }

    fn load(&self, id: Ulid) -> Option<DeliveryRecord> {
        self.store.delivery(self.hook.tenant_id, self.hook.id, id).ok().flatten()
    }

    fn tick(&mut self, ctx: &mut Context<Self>) {
        let now = self.clock.now();
        while let Some(&(at, id)) = self.due.first() {
            if at > now {
                break;
            }
            self.due.pop_first();
            self.ready.push_back(id);
        }
        self.pump(ctx);
    }

    fn schedule(&mut self, d: &DeliveryRecord) {
        match d.next_attempt_at {
            Some(at) if at > self.clock.now() => {
                self.due.insert((at, d.id));
            }
            _ => self.ready.push_back(d.id),
        }
    }

    fn pump(&mut self, ctx: &mut Context<Self>) {
        while self.in_flight.len() < MAX_IN_FLIGHT {
            let Some(id) = self.ready.pop_front() else { break };
            if self.in_flight.contains(&id) {
                continue;
            }
            let Some(d) = self.load(id).filter(|d| d.state == DeliveryState::Pending) else { continue };
            self.in_flight.insert(id);
            let at = self.clock.now();
            let started = Instant::now();
            let fut = self.attempt(d.payload.clone());
            // In flight, the delivery is this actor's alone (a manual retry waits for the
            // outcome), so the record goes along instead of being read again.
            ctx.spawn(fut.into_actor(self).map(move |outcome, act, ctx| {
                act.finish(d, at, started.elapsed(), outcome);
                act.in_flight.remove(&id);
                act.pump(ctx);
            }));
        }
    }

    /// One HTTP attempt: `(status, error kind, snippet)`.
    fn attempt(
        &self,
        body: String,
    ) -> LocalBoxFuture<'static, (Option<u16>, Option<String>, Option<String>)> {
        let literal_private = self
            .hook
            .url
            .parse::<awc::http::Uri>()
            .ok()
            .and_then(|u| u.host().map(|h| h.trim_start_matches('[').trim_end_matches(']').to_owned()))
            .and_then(|h| h.parse::<IpAddr>().ok())
            .is_some_and(|ip| !self.allow_private && !is_public(ip));
        if literal_private {
            return Box::pin(async { (None, Some(PRIVATE_REFUSED.to_string()), None) });
        }
        let client = self.client.clone().expect("started");
        let req = client
            .post(&self.hook.url)
            .insert_header(("content-type", "application/json"))
            .insert_header((SIGNATURE_HEADER, sign(&self.hook.secret, body.as_bytes())))
            .insert_header(("user-agent", "pigeon-webhooks/0.1"));
        Box::pin(async move {
            match req.send_body(body).await {
                Ok(mut res) => {
                    let status = res.status().as_u16();
                    let snippet = res.body().limit(64 * 1024).await.ok().map(|b| {
                        let s = String::from_utf8_lossy(&b);
                        s.chars().take(200).collect::<String>()
                    });
                    (Some(status), None, snippet.filter(|s| !s.is_empty()))
                }
                Err(e) => (None, Some(error_kind(&e)), None),
            }
        })
    }

    fn finish(
        &mut self,
        mut d: DeliveryRecord,
        at: DateTime<Utc>,
        took: Duration,
        outcome: (Option<u16>, Option<String>, Option<String>),
    ) {
        let id = d.id;
        let (status_code, error, response_snippet) = outcome;
        let kind = match (&error, status_code.is_some_and(|s| (200..300).contains(&s))) {
            (Some(kind), _) => kind.clone(),
            (None, true) => "success".into(),
            (None, false) => "http_error".into(),
        };
        metrics::counter!("pigeon_webhook_attempts_total", "outcome" => kind).increment(1);
        d.attempts.push(Attempt {
            at,
            cycle: d.cycle,
            status_code,
            error,
            duration_ms: took.as_millis() as u64,
            response_snippet,
        });
        let ok = status_code.is_some_and(|s| (200..300).contains(&s));
        let made = d.attempts.iter().filter(|a| a.cycle == d.cycle).count();
        let now = self.clock.now();
        if ok {
            d.state = DeliveryState::Succeeded;
            d.next_attempt_at = None;
        } else if let Some(wait) = BACKOFF.get(made - 1) {
            let next = now + chrono::Duration::from_std(*wait).expect("small");
            d.next_attempt_at = Some(next);
            self.due.insert((next, id));
        } else {
            d.state = DeliveryState::Failed;
            d.next_attempt_at = None;
        }
        if let Err(e) = self.store.put_delivery(&d) {
            tracing::error!(error = %e, delivery_id = %id, "cannot record a webhook attempt");
        }
    }
}

fn error_kind(e: &awc::error::SendRequestError) -> String {
    use awc::error::{ConnectError, SendRequestError as E};
    match e {
        E::Timeout => "timeout".into(),
        E::Connect(ConnectError::Resolver(r)) if r.to_string() == PRIVATE_REFUSED => PRIVATE_REFUSED.into(),
        E::Connect(ConnectError::Resolver(_)) => "dns".into(),
        E::Connect(ConnectError::Timeout) => "timeout".into(),
        E::Connect(ConnectError::SslIsNotSupported) => "tls".into(),
        E::Connect(_) => "connect".into(),
        _ => "request".into(),
    }
}

impl Actor for WebhookActor {
    type Context = Context<Self>;

    fn started(&mut self, ctx: &mut Self::Context) {
        let connector = awc::Connector::new()
            .connector(
                actix_tls::connect::Connector::new(Resolver::custom(VettedResolver {
                    allow_private: self.allow_private,
                }))
                .service(),
            )
            .max_http_version(awc::http::Version::HTTP_11)
            .timeout(ATTEMPT_TIMEOUT);
        self.client = Some(
            awc::Client::builder().connector(connector).disable_redirects().timeout(ATTEMPT_TIMEOUT).finish(),
        );
        ctx.run_interval(TICK, |act, ctx| act.tick(ctx));
    }
}

/// A new delivery, already written.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct Deliver(pub Ulid);

impl Handler<Deliver> for WebhookActor {
    type Result = ();
    fn handle(&mut self, msg: Deliver, ctx: &mut Self::Context) {
        self.ready.push_back(msg.0);
        self.pump(ctx);
    }
}

/// Pending deliveries found at start-up: each resumes where its schedule stands.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct Resume(pub Vec<Ulid>);

impl Handler<Resume> for WebhookActor {
    type Result = ();
    fn handle(&mut self, msg: Resume, ctx: &mut Self::Context) {
        for id in msg.0 {
            if let Some(d) = self.load(id).filter(|d| d.state == DeliveryState::Pending) {
                self.schedule(&d);
            }
        }
        self.pump(ctx);
    }
}

/// Start a new cycle of attempts (the tenant's manual retry).
#[derive(Message)]
#[rtype(result = "Result<DeliveryRecord, crate::EngineError>")]
pub(crate) struct Retry(pub Ulid);

impl Handler<Retry> for WebhookActor {
    type Result = Result<DeliveryRecord, crate::EngineError>;
    fn handle(&mut self, msg: Retry, ctx: &mut Self::Context) -> Self::Result {
        let mut d = self.load(msg.0).ok_or(crate::EngineError::NotFound("delivery"))?;
        if d.state == DeliveryState::Pending {
            return Err(crate::EngineError::InvalidTransition(
                "state: the delivery is still pending; retry it once it has succeeded or failed".into(),
            ));
        }
        d.cycle += 1;
        d.state = DeliveryState::Pending;
        d.next_attempt_at = Some(self.clock.now());
        self.store.put_delivery(&d)?;
        self.ready.push_back(d.id);
        self.pump(ctx);
        Ok(d)
    }
}

/// Deliveries not yet settled: ready, in flight or waiting for a retry.
#[derive(Message)]
#[rtype(result = "usize")]
pub(crate) struct Depth;

impl Handler<Depth> for WebhookActor {
    type Result = usize;
    fn handle(&mut self, _: Depth, _: &mut Self::Context) -> usize {
        self.ready.len() + self.in_flight.len() + self.due.len()
    }
}

/// The endpoint is deleted: stop.
#[derive(Message)]
#[rtype(result = "()")]
pub(crate) struct Stop;

impl Handler<Stop> for WebhookActor {
    type Result = ();
    fn handle(&mut self, _: Stop, ctx: &mut Self::Context) {
        ctx.stop();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_are_hmac_sha256_hex() {
        // RFC 4231 test case 2.
        assert_eq!(
            sign("Jefe", b"what do ya want for nothing?"),
            "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }

    #[test]
    fn private_addresses_are_not_public() {
        for ip in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "224.0.0.1",
            "255.255.255.255",
            "::1",
            "::",
            "fc00::1",
            "fd12::1",
            "fe80::1",
            "ff02::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "64:ff9b::a00:1",
            "::127.0.0.1",
        ] {
            assert!(!is_public(ip.parse().unwrap()), "{ip}");
        }
        for ip in ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808"] {
            assert!(is_public(ip.parse().unwrap()), "{ip}");
        }
    }

    #[actix_rt::test]
    async fn registration_refuses_private_hosts_unless_allowed() {
        for url in ["http://127.0.0.1:9/x", "http://[::1]/x", "http://localhost/x", "https://10.0.0.5/hook"] {
            let e = check_url(url, false).await.unwrap_err();
            assert!(e.starts_with("url:"), "{url}: {e}");
        }
        assert!(check_url("http://127.0.0.1:9/x", true).await.is_ok());
        for bad in ["ftp://example.com/x", "/relative", "http://user:pw@example.com/x", "not a url"] {
            assert!(check_url(bad, true).await.is_err(), "{bad}");
        }
    }
}

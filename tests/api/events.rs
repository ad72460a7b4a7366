//! `GET /v1/events`: a tenant's events in the order they became durable, as pages, a long poll
//! and server-sent events; none lost or repeated across `kill -9`; an expired cursor refused.

use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde_json::{json, Value};

use crate::helpers::*;

/// One page of events: `(events, next_cursor)`.
pub(crate) async fn page(api: &Api, key: &str, query: &str) -> (Vec<Value>, String) {
    let r = api.call("GET", &format!("/v1/events{query}"), Some(key), None).await.expect(200, None);
    let v = r.body;
    let cursor = v["next_cursor"].as_str().expect("next_cursor is never null").to_owned();
    (v["data"].as_array().unwrap().clone(), cursor)
}

fn names(events: &[Value]) -> Vec<&str> {
    events.iter().map(|e| e["event"].as_str().unwrap()).collect()
}

pub(crate) fn ids(events: &[Value]) -> Vec<String> {
    events.iter().map(|e| e["event_id"].as_str().unwrap().to_owned()).collect()
}

/// A message taken by an agent and reported `sent` then `delivered`.
async fn delivered(app: &TestApp, key: &str, token: &str, to: &str) -> String {
    let id = app.send_ok(key, to).await;
    assert_eq!(app.poll(token, 5).await.len(), 1);
    for status in ["sent", "delivered"] {
        app.report(token, &id, json!({"status": status})).await.expect(200, None);
    }
    id
}

/// Every event is in the log whether or not a webhook listens, with the `event_id` a webhook
/// got; pages follow the cursor; `types` filters; each key sees its own mode's messages; the end
/// gives a cursor to wait on, and a long poll on it answers as soon as the next event is made.
#[actix_web::test]
async fn the_log_pages_filters_walls_modes_and_long_polls() {
    let app = spawn_app().await;
    let t = app.create_tenant("growth").await;
    let (_, token) = app.agent_phone(&t.id, "+14155550001").await;
    assert!(app.poll(&token, 0).await.is_empty());
    let (none, end) = page(&app, &t.live, "").await;
    assert!(none.is_empty());
    let rx = spawn_receiver().await;
    app.register_webhook(&t.live, &rx.url, json!(["message.delivered"])).await;

    let a = delivered(&app, &t.live, &token, "+14155550100").await;
    let b = delivered(&app, &t.live, &token, "+14155550101").await;
    app.inbound(&token, "+14155550102", "hello").await.expect(201, None);
    let (all, cursor) = page(&app, &t.live, "").await;
    assert_eq!(
        names(&all),
        ["message.sent", "message.delivered", "message.sent", "message.delivered", "message.received"]
    );
    let subjects: Vec<&str> = all[..4].iter().map(|e| e["message_id"].as_str().unwrap()).collect();
    assert_eq!(subjects, [&*a, &*a, &*b, &*b]);
    assert_eq!(all[4]["body"], "hello");
    assert_eq!(cursor, all[4]["event_id"].as_str().unwrap(), "the cursor is the last event's id");
    let hooked: Vec<String> =
        rx.wait_for(2).await.iter().map(|h| h.json()["event_id"].as_str().unwrap().into()).collect();
    assert_eq!(hooked, [ids(&all)[1].clone(), ids(&all)[3].clone()], "the webhook got the same events");
    let (from_start, _) = page(&app, &t.live, &format!("?after={end}")).await;
    assert_eq!(ids(&from_start), ids(&all), "the cursor given before any event reads them all");

    // Pages of two, then the end.
    let (one, c1) = page(&app, &t.live, "?limit=2").await;
    let (two, c2) = page(&app, &t.live, &format!("?limit=2&after={c1}")).await;
    let (three, c3) = page(&app, &t.live, &format!("?limit=2&after={c2}")).await;
    assert_eq!([ids(&one), ids(&two), ids(&three)].concat(), ids(&all));
    let (rest, at_end) = page(&app, &t.live, &format!("?after={c3}")).await;
    assert!(rest.is_empty() && at_end >= c3, "{at_end} after {c3}");
    let (delivered_only, _) = page(&app, &t.live, "?types=message.delivered,message.received").await;
    assert_eq!(names(&delivered_only), ["message.delivered", "message.delivered", "message.received"]);

    // The test key sees its own messages' events only, and the live key never sees them.
    let x = app.send_ok(&t.test, "+14155550103").await;
    app.wait_status(&t.test, &x, "delivered").await;
    let (test_events, _) = page(&app, &t.test, "").await;
    assert!(!test_events.is_empty());
    assert!(
        test_events.iter().all(|e| e["message_id"] == x.as_str() && e["test"] == true),
        "{test_events:?}"
    );
    let (live_after, _) = page(&app, &t.live, &format!("?after={cursor}")).await;
    assert!(live_after.is_empty(), "a live key sees no test message's events: {live_after:?}");

    // A long poll on the end cursor answers with the next event, not at its 10 s.
    let waiting = {
        let (api, key, after) = (app.api.clone(), t.live.clone(), at_end.clone());
        actix_web::rt::spawn(async move {
            let started = Instant::now();
            let got = page(&api, &key, &format!("?after={after}&wait=10")).await;
            (got, started.elapsed())
        })
    };
    actix_web::rt::time::sleep(Duration::from_millis(300)).await;
    app.report(&token, &a, json!({"status": "read"})).await.expect(200, None);
    let ((woke, _), took) = waiting.await.unwrap();
    assert_eq!(names(&woke), ["message.read"]);
    assert!(took < Duration::from_secs(5), "the long poll answered after {took:?}");

    // Refusals, in the usual envelope.
    for bad in ["?types=message.nope", "?after=nope", "?wait=31", "?limit=0", "?since=1"] {
        app.call("GET", &format!("/v1/events{bad}"), Some(&t.live), None)
            .await
            .expect(400, Some("VALIDATION_ERROR"));
    }
    let u = app.create_tenant("growth").await;
    let (theirs, _) = page(&app, &u.live, "").await;
    assert!(theirs.is_empty(), "another tenant's log is its own");
}

/// Server-sent events: frames with `id:` the event's id and `data:` its JSON; a client that
/// comes back with `Last-Event-ID` gets what followed it, and the stream carries new events.
#[actix_web::test]
async fn server_sent_events_resume_from_last_event_id() {
    let app = spawn_app().await;
    let t = app.create_tenant("growth").await;
    let (_, token) = app.agent_phone(&t.id, "+14155550001").await;
    assert!(app.poll(&token, 0).await.is_empty());
    let a = delivered(&app, &t.live, &token, "+14155550100").await;
    let (all, _) = page(&app, &t.live, "").await;

    let mut first = sse(&app, &t.live, "", None).await;
    let frames = first.next_frames(2).await;
    assert_eq!(frames.iter().map(|(id, _)| id.clone()).collect::<Vec<_>>(), ids(&all));
    assert_eq!(frames[1].1, all[1], "each frame's data is the event as the page shows it");
    app.report(&token, &a, json!({"status": "read"})).await.expect(200, None);
    let live = first.next_frames(1).await;
    assert_eq!(live[0].1["event"], "message.read", "the open stream carries the new event");
    drop(first);

    // `Last-Event-ID` wins over the `after` of the URL the client first opened.
    let first_url = format!("?after={}", live[0].0);
    let mut again = sse(&app, &t.live, &first_url, Some(&frames[0].0)).await;
    let resumed = again.next_frames(2).await;
    assert_eq!(resumed[0].0, frames[1].0, "resumed after the Last-Event-ID");
    assert_eq!(resumed[1].0, live[0].0);

    // An error before the stream starts is the usual envelope.
    let res = app
        .client
        .get(format!("{}/v1/events?after=nope", app.base))
        .insert_header(("Authorization", format!("Bearer {}", t.live)))
        .insert_header(("Accept", "text/event-stream"))
        .send()
        .await
        .unwrap();
    assert_eq!(res.status(), 400);
}

/// An open event stream.
pub(crate) struct Sse {
    res: awc::ClientResponse,
    buf: String,
}

pub(crate) async fn sse(api: &Api, key: &str, query: &str, last: Option<&str>) -> Sse {
    let mut req = awc::Client::new()
        .get(format!("{}/v1/events{query}", api.base))
        .insert_header(("Authorization", format!("Bearer {key}")))
        .insert_header(("Accept", "text/event-stream"));
    if let Some(l) = last {
        req = req.insert_header(("Last-Event-ID", l));
    }
    let res = req.send().await.unwrap();
    assert_eq!(res.status(), 200);
    assert_eq!(res.headers().get("content-type").unwrap(), "text/event-stream");
    Sse { res, buf: String::new() }
}

impl Sse {
    /// The next `n` events as `(id, data)`, skipping comments; at most 10 s.
    pub(crate) async fn next_frames(&mut self, n: usize) -> Vec<(String, Value)> {
        let mut out = Vec::new();
        let deadline = Instant::now() + Duration::from_secs(10);
        while out.len() < n {
            while let Some(end) = self.buf.find("\n\n") {
                let frame: String = self.buf.drain(..end + 2).collect();
                let id = frame.lines().find_map(|l| l.strip_prefix("id: "));
                let data = frame.lines().find_map(|l| l.strip_prefix("data: "));
                if let (Some(id), Some(data)) = (id, data) {
                    out.push((id.to_owned(), serde_json::from_str(data).unwrap()));
                }
            }
            if out.len() >= n {
                break;
            }
            let left = deadline.saturating_duration_since(Instant::now());
            let chunk = actix_web::rt::time::timeout(left, self.res.next()).await;
            let chunk = chunk.expect("frames within 10 s").expect("the stream is open").unwrap();
            self.buf.push_str(std::str::from_utf8(&chunk).unwrap());
        }
        out
    }
}

/// Reads the log on from `cursor` with long polls until `until`, or until the node stops
/// answering; returns what it read and the cursor it reached.
async fn follow(
    api: &Api,
    key: &str,
    mut cursor: Option<String>,
    until: Instant,
) -> (Vec<Value>, Option<String>) {
    let client = awc::Client::builder().timeout(Duration::from_secs(5)).finish();
    let mut read = Vec::new();
    while Instant::now() < until {
        let after = cursor.as_ref().map(|c| format!("&after={c}")).unwrap_or_default();
        let res = client
            .get(format!("{}/v1/events?limit=100&wait=1{after}", api.base))
            .insert_header(("Authorization", format!("Bearer {key}")))
            .send()
            .await;
        let Ok(mut res) = res else { break };
        let Ok(v) = res.json::<Value>().limit(1 << 22).await else { break };
        read.extend(v["data"].as_array().unwrap().iter().cloned());
        cursor = Some(v["next_cursor"].as_str().unwrap().to_owned());
    }
    (read, cursor)
}

/// A reader following the log while sends flow and the node is killed: after the restart it goes
/// on from its cursor, and what it read before and after is, in order and without a repeat,
/// exactly the log as read again from the start; every delivered message's event is in it.
#[actix_web::test]
async fn the_log_loses_and_repeats_nothing_across_kill_9() {
    let dir = tempfile::tempdir().unwrap();
    let (data, log) = (dir.path().join("data"), dir.path().join("log"));
    let port = std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port();
    let addr = format!("127.0.0.1:{port}");
    let env = [("PIGEON_ADDR", addr.as_str()), ("PIGEON_LOG", "warn")];
    let server = spawn_binary_with(&data, Some(ADMIN), &log, &env);
    let t = server.create_tenant("scale").await;
    let phone = json!({"tenant_id": t.id, "number": "+14155550999", "driver": "sim",
        "daily_limit": 1_000_000, "sim": {"latency_ms": 0}});
    server.add_phone(phone).await.expect(201, None);

    let senders: Vec<_> = (0..4)
        .map(|n| {
            let (api, key) = (server.api.clone(), t.live.clone());
            actix_web::rt::spawn(async move {
                let mut accepted = Vec::new();
                for i in 0.. {
                    let body = json!({"to": format!("+1415555{:04}", (n * 10 + i) % 40), "body": "hi"});
                    let res = api
                        .client
                        .post(format!("{}/v1/messages", api.base))
                        .insert_header(("Authorization", format!("Bearer {key}")))
                        .timeout(Duration::from_secs(5))
                        .send_json(&body)
                        .await;
                    let Ok(mut res) = res else { break };
                    if res.status() != 202 {
                        break;
                    }
                    let Ok(v) = res.json::<Value>().await else { break };
                    accepted.push(v["data"]["message_id"].as_str().unwrap().to_owned());
                }
                accepted
            })
        })
        .collect();
    let reader = {
        let (api, key) = (server.api.clone(), t.live.clone());
        actix_web::rt::spawn(async move {
            follow(&api, &key, None, Instant::now() + Duration::from_secs(60)).await
        })
    };
    actix_web::rt::time::sleep(Duration::from_millis(1500)).await;
    server.kill9();
    let mut accepted = Vec::new();
    for s in senders {
        accepted.extend(s.await.unwrap());
    }
    let (before, cursor) = reader.await.unwrap();
    assert!(before.len() > 20, "events were read before the kill: {}", before.len());

    let server = spawn_binary_with(&data, Some(ADMIN), &log, &env);
    let mut finals = 0;
    for id in &accepted {
        let m = server.wait_status(&t.live, id, "delivered").await;
        finals += usize::from(m["status"] == "delivered");
    }
    let (after, _) = follow(&server.api, &t.live, cursor, Instant::now() + Duration::from_secs(3)).await;
    let (whole, _) = follow(&server.api, &t.live, None, Instant::now() + Duration::from_secs(3)).await;
    let read: Vec<String> = ids(&before).into_iter().chain(ids(&after)).collect();
    assert_eq!(read, ids(&whole), "read on from the cursor = the log read from its start");
    let mut unique = read.clone();
    unique.dedup();
    assert_eq!(unique.len(), read.len(), "no event twice");
    assert!(read.windows(2).all(|w| w[0] < w[1]), "ids rise in the order read");
    for id in &accepted {
        let has = whole.iter().any(|e| e["message_id"] == id.as_str() && e["event"] == "message.delivered");
        assert!(has, "message {id} is delivered and its event is in the log");
    }
    eprintln!(
        "events across kill -9: {} read before, {} after, {finals} messages delivered",
        before.len(),
        after.len()
    );
    assert!(server.terminate().success());
}

/// Events go after the retention period; a cursor from before what went is refused with 410
/// `CURSOR_EXPIRED`, and a read without a cursor starts at the oldest kept.
#[actix_web::test]
async fn a_cursor_older_than_the_events_kept_is_refused() {
    let app = spawn_app_retaining(Duration::from_secs(3600)).await;
    let t = app.create_tenant("growth").await;
    app.sim_phone(&t.id, "+14155550999", 0).await;
    let old = app.send_ok(&t.live, "+14155550100").await;
    app.wait_status(&t.live, &old, "delivered").await;
    let (first, _) = page(&app, &t.live, "").await;
    let stale = first[0]["event_id"].as_str().unwrap().to_owned();

    app.clock.advance(Duration::from_secs(2 * 3600));
    let new = app.send_ok(&t.live, "+14155550101").await;
    app.wait_status(&t.live, &new, "delivered").await;
    let path = format!("/v1/events?after={stale}");
    for _ in 0..200 {
        if app.call("GET", &path, Some(&t.live), None).await.status == 410 {
            break;
        }
        actix_web::rt::time::sleep(Duration::from_millis(50)).await;
    }
    app.call("GET", &path, Some(&t.live), None).await.expect(410, Some("CURSOR_EXPIRED"));
    let (kept, _) = page(&app, &t.live, "").await;
    assert!(
        kept.iter().all(|e| e["message_id"] == new.as_str()),
        "only the young message's events: {kept:?}"
    );
    assert!(!kept.is_empty());
}

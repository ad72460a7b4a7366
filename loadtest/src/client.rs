//! The harness's calls to the server: set-up, agent polls, readiness and the restart timings.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::server::OwnServer;
use crate::{LoadArgs, Restart};

pub(crate) struct Api {
    pub(crate) base: String,
    pub(crate) client: awc::Client,
}

impl Api {
    async fn call(&self, method: &str, path: &str, token: &str, body: Value) -> Result<Value, String> {
        let req = self
            .client
            .request(
                awc::http::Method::from_bytes(method.as_bytes()).expect("method"),
                format!("{}{path}", self.base),
            )
            .insert_header(("Authorization", format!("Bearer {token}")));
        let mut res = req.send_json(&body).await.map_err(|e| format!("{method} {path}: {e}"))?;
        let v: Value = res.json().limit(1 << 20).await.map_err(|e| format!("{method} {path}: {e}"))?;
        if !res.status().is_success() {
            return Err(format!("{method} {path}: {} {v}", res.status()));
        }
        Ok(v["data"].clone())
    }
}

/// Creates the tenant (scale plan, quiet hours off), phones (sim, or agents with `--backlog`) and
/// the webhook; returns the key and the agent tokens.
pub(crate) async fn setup(
    api: &Api,
    admin: &str,
    args: &LoadArgs,
    sink: &str,
    secret: &Arc<Mutex<String>>,
) -> Result<(String, Vec<String>), String> {
    let t =
        api.call("POST", "/admin/v1/tenants", admin, json!({"name": "loadtest", "plan": "scale"})).await?;
    let tenant = t["id"].as_str().ok_or("no tenant id")?.to_owned();
    let key = t["keys"]["live"]["key"].as_str().ok_or("no key")?.to_owned();
    let quiet_off = json!({"quiet_hours": {"enabled": false, "start": "21:00", "end": "08:00"}, "new_contact_daily_limit": 1_000_000});
    api.call("PATCH", &format!("/admin/v1/tenants/{tenant}"), admin, quiet_off).await?;
    let mut agents = Vec::new();
    for i in 0..args.phones.max(1) {
        let mut phone = json!({
            "tenant_id": tenant, "number": format!("+1555010{:04}", i), "driver": "sim",
            "daily_limit": 100_000_000u64, "sim": {"latency_ms": args.sim_latency_ms}
        });
        if args.backlog {
            phone = json!({
                "tenant_id": tenant, "number": format!("+1555010{:04}", i), "driver": "agent",
                "daily_limit": 100_000_000u64
            });
        }
        let p = api.call("POST", "/admin/v1/phones", admin, phone).await?;
        if let Some(t) = p["agent_token"].as_str() {
            agents.push(t.to_owned());
        }
    }
    if !args.backlog {
        let w = api
            .call("POST", "/v1/webhooks", &key, json!({"url": sink, "events": ["message.delivered"]}))
            .await?;
        *secret.lock().unwrap() = w["secret"].as_str().ok_or("no secret")?.to_owned();
    }
    Ok((key, agents))
}

/// A slow carrier: one poll per agent phone, which keeps it online and takes at most 10 jobs.
pub(crate) async fn poll_agents(api: &Api, agents: &[String]) -> Result<(), String> {
    for t in agents {
        let res = api
            .client
            .get(format!("{}/phone/v1/jobs?wait=0", api.base))
            .insert_header(("Authorization", format!("Bearer {t}")))
            .send()
            .await
            .map_err(|e| format!("GET /phone/v1/jobs: {e}"))?;
        if !res.status().is_success() {
            return Err(format!("GET /phone/v1/jobs: {}", res.status()));
        }
    }
    Ok(())
}

/// Until `check` holds (polled every 10 ms) or `limit` passes; the time it took, if it held.
pub(crate) async fn time_until<F, Fut>(started: Instant, limit: Duration, mut check: F) -> Option<f64>
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = bool>,
{
    while started.elapsed() < limit {
        if check().await {
            return Some(started.elapsed().as_secs_f64());
        }
        actix_web::rt::time::sleep(Duration::from_millis(10)).await;
    }
    None
}

/// Messages queued or in flight, from `/metrics`.
pub(crate) async fn waiting_work(api: &Api) -> Option<u64> {
    let text = metrics(api).await?;
    Some((value(&text, "pigeon_messages_queued")? + value(&text, "pigeon_messages_in_flight")?) as u64)
}

/// The server's `/metrics` text.
pub(crate) async fn metrics(api: &Api) -> Option<String> {
    let mut res = api.client.get(format!("{}/metrics", api.base)).send().await.ok()?;
    let body = res.body().limit(16 << 20).await.ok()?;
    String::from_utf8(body.to_vec()).ok()
}

/// The value of an unlabelled series in `/metrics` text.
pub(crate) fn value(text: &str, name: &str) -> Option<f64> {
    text.lines().find_map(|l| l.strip_prefix(name)?.strip_prefix(' ')?.trim().parse().ok())
}

/// Every series of a family with one label, by the label's value: `name{label="v"} x`.
pub(crate) fn family(text: &str, name: &str, label: &str) -> std::collections::BTreeMap<String, f64> {
    let open = format!("{name}{{{label}=\"");
    text.lines()
        .filter_map(|l| {
            let (value, rest) = l.strip_prefix(open.as_str())?.split_once("\"} ")?;
            Some((value.to_owned(), rest.trim().parse().ok()?))
        })
        .collect()
}

/// Kills the server and starts it again on the same data; times readiness, the first accepted
/// send and, with a backlog, every queued message back in a queue.
pub(crate) async fn restart(
    server: &mut OwnServer,
    api: &mut Api,
    key: &str,
    agents: &[String],
    backlog: Option<u64>,
) -> Result<Restart, String> {
    let (url, started) = server.kill_and_restart()?;
    api.base = url;
    let limit = Duration::from_secs(120);
    let ready_url = format!("{}/readyz", api.base);
    let ready_s = time_until(started, limit, || async {
        api.client.get(&ready_url).send().await.is_ok_and(|r| r.status().is_success())
    })
    .await
    .ok_or("the restarted server never became ready")?;
    // Agents come back online by polling; sim phones are online already.
    poll_agents(api, agents).await?;
    let first_accept_s = time_until(started, limit, || async {
        api.call("POST", "/v1/messages", key, json!({"to": "+14155550199", "body": "after restart"}))
            .await
            .is_ok()
    })
    .await
    .ok_or("the restarted server accepted no message")?;
    let backlog_back_s = match backlog {
        Some(n) => Some(
            time_until(started, limit, || async { waiting_work(api).await.is_some_and(|w| w >= n) })
                .await
                .ok_or("the backlog did not come back within 120 s")?,
        ),
        None => None,
    };
    Ok(Restart { ready_s, first_accept_s, backlog_back_s, rss_mib: server.rss_mib() })
}

#[cfg(test)]
mod tests {
    #[test]
    fn a_family_is_read_by_its_label() {
        let text =
            "# TYPE x counter\nx{thread=\"a\"} 12\nx{thread=\"sled-io\"} 3.5\nxy{thread=\"b\"} 1\nx 7\n";
        let f = super::family(text, "x", "thread");
        assert_eq!(f, [("a".to_owned(), 12.0), ("sled-io".to_owned(), 3.5)].into());
        assert!(super::family(text, "x", "kind").is_empty());
    }
}

//! `--events-reader`: one client follows `GET /v1/events` with long polls while the messages
//! go in, as a receiver without a public URL would, and the report says how far behind it was.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use hdrhistogram::Histogram;
use serde_json::Value;

use crate::client::Api;
use crate::report::{EventsRead, Percentiles};

/// What the task following the log has seen so far.
#[derive(Clone)]
struct Seen {
    lags_us: Histogram<u64>,
    read: u64,
    last_lag_ms: f64,
    cursor: Option<String>,
}

/// The reader's state, shared with the task that follows the log.
pub(crate) struct Reader {
    stop: Arc<AtomicBool>,
    seen: Arc<Mutex<Seen>>,
    task: actix_web::rt::task::JoinHandle<()>,
}

async fn page(api: &Api, key: &str, after: Option<&str>, wait: u32) -> Result<(Vec<Value>, String), String> {
    let after = after.map_or(String::new(), |c| format!("&after={c}"));
    let url = format!("{}/v1/events?limit=100&wait={wait}{after}", api.base);
    let mut res = api
        .client
        .get(url)
        .insert_header(("Authorization", format!("Bearer {key}")))
        .timeout(Duration::from_secs(40))
        .send()
        .await
        .map_err(|e| format!("GET /v1/events: {e}"))?;
    let v: Value = res.json().limit(1 << 22).await.map_err(|e| format!("GET /v1/events: {e}"))?;
    let cursor = v["next_cursor"].as_str().ok_or_else(|| format!("GET /v1/events: {v}"))?.to_owned();
    Ok((v["data"].as_array().cloned().unwrap_or_default(), cursor))
}

/// Starts following the log from its start.
pub(crate) fn start(api: Api, key: String) -> Reader {
    let stop = Arc::new(AtomicBool::new(false));
    let hist = Histogram::new_with_bounds(1, 3_600_000_000, 3).expect("bounds");
    let seen = Arc::new(Mutex::new(Seen { lags_us: hist, read: 0, last_lag_ms: 0.0, cursor: None }));
    let (s, shared) = (stop.clone(), seen.clone());
    let task = actix_web::rt::spawn(async move {
        let mut cursor: Option<String> = None;
        while !s.load(Ordering::Relaxed) {
            let Ok((events, next)) = page(&api, &key, cursor.as_deref(), 1).await else {
                actix_web::rt::time::sleep(Duration::from_millis(100)).await;
                continue;
            };
            let now = chrono::Utc::now();
            let mut g = shared.lock().unwrap();
            for e in &events {
                let at = e["timestamp"].as_str().and_then(|t| chrono::DateTime::parse_from_rfc3339(t).ok());
                let lag_us =
                    at.map_or(0, |t| (now - t.with_timezone(&chrono::Utc)).num_microseconds().unwrap_or(0));
                let _ = g.lags_us.record(lag_us.max(1) as u64);
                g.read += 1;
                g.last_lag_ms = lag_us as f64 / 1000.0;
            }
            g.cursor = Some(next.clone());
            cursor = Some(next);
        }
    });
    Reader { stop, seen, task }
}

impl Reader {
    /// Stops following (after its current long poll) and counts what it left unread.
    pub(crate) async fn finish(self, api: &Api, key: &str) -> EventsRead {
        self.stop.store(true, Ordering::Relaxed);
        let _ = self.task.await;
        let Seen { lags_us, read, last_lag_ms, cursor } = self.seen.lock().unwrap().clone();
        let mut behind = 0;
        let mut after = cursor;
        while let Ok((events, next)) = page(api, key, after.as_deref(), 0).await {
            if events.is_empty() {
                break;
            }
            behind += events.len() as u64;
            after = Some(next);
        }
        EventsRead { read, lag_ms: Percentiles::of(&lags_us), last_lag_ms, behind_at_end: behind }
    }
}

//! The load itself: connections spread over one client thread per core, closed or open loop.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;
use serde_json::{json, Value};

use crate::sink::{histogram, record, Shared};
use crate::LoadArgs;

#[derive(Default)]
pub(crate) struct Phase {
    /// Accepted while measuring.
    pub(crate) accepted: u64,
    /// Accepted in all, warm-up included.
    pub(crate) accepted_all: u64,
    pub(crate) errors: BTreeMap<String, u64>,
    pub(crate) errors_5xx: u64,
    pub(crate) latency: Option<Histogram<u64>>,
    /// When measuring began (after the warm-up).
    pub(crate) measured: Option<Instant>,
    pub(crate) elapsed: Duration,
}

/// A text of `chars` characters: "load test message " over and over.
fn text(chars: usize) -> Arc<str> {
    "load test message ".chars().cycle().take(chars).collect::<String>().into()
}

/// One connection's loop: sends until `end`, at `interval` when open loop.
#[allow(clippy::too_many_arguments)]
pub(crate) async fn connection(
    client: awc::Client,
    c: usize,
    conns: usize,
    base: String,
    path: &'static str,
    key: String,
    interval: Option<Duration>,
    started: Instant,
    measured: Instant,
    end: Instant,
    budget: Option<Budget>,
    tracker: Option<Shared>,
    progress: Option<indicatif::ProgressBar>,
    text: Arc<str>,
) -> Phase {
    let mut p = Phase { latency: Some(histogram()), ..Phase::default() };
    let mut intended = started + interval.map_or(Duration::ZERO, |i| i.mul_f64(c as f64 / conns as f64));
    let mut n = 0u64;
    while Instant::now() < end {
        if Instant::now() >= measured && budget.as_ref().is_some_and(Budget::spent) {
            break;
        }
        if interval.is_some() {
            // The run ends at `end`: a send intended after it is not sent (it was, and counted,
            // which overstated an open loop's rate by up to one send per connection).
            if intended >= end {
                break;
            }
            let now = Instant::now();
            if intended > now {
                actix_web::rt::time::sleep(intended - now).await;
            }
        } else {
            intended = Instant::now();
        }
        let to = format!("+1415555{:04}", (c as u64 * 7919 + n) % 5000);
        n += 1;
        let body = json!({"to": to, "body": &*text});
        let res = client
            .post(format!("{base}{path}"))
            .insert_header(("Authorization", format!("Bearer {key}")))
            .send_json(&body)
            .await;
        let took = intended.elapsed();
        match res {
            Ok(mut r) if r.status().as_u16() == 202 => {
                let v: Value = r.json().await.unwrap_or(Value::Null);
                if let (Some(t), Some(id)) = (&tracker, v["data"]["message_id"].as_str()) {
                    let mut t = t.lock().unwrap();
                    t.sent(id, intended);
                    if intended >= measured {
                        t.window.accepted += 1;
                        record(&mut t.window.accept, took.as_micros().max(1) as u64);
                    }
                }
                p.accepted_all += 1;
                if intended >= measured {
                    p.accepted += 1;
                    record(p.latency.as_mut().expect("set"), took.as_micros().max(1) as u64);
                }
            }
            // Errors count in the warm-up too: nothing may fail, measured or not.
            Ok(mut r) => {
                let status = r.status().as_u16();
                let v: Value = r.json().await.unwrap_or(Value::Null);
                let code = v["code"].as_str().unwrap_or("");
                *p.errors.entry(format!("{status} {code}").trim().to_owned()).or_default() += 1;
                if status >= 500 {
                    p.errors_5xx += 1;
                }
            }
            Err(e) => *p.errors.entry(format!("transport {e}")).or_default() += 1,
        }
        if let Some(pb) = &progress {
            pb.set_position(match &budget {
                Some(b) => b.claimed.load(Ordering::Relaxed),
                None => started.elapsed().as_millis() as u64,
            });
        }
        if let Some(i) = interval {
            intended += i;
        }
    }
    p
}

/// `--messages`: requests claimed so far against the total.
#[derive(Clone)]
pub(crate) struct Budget {
    pub(crate) claimed: Arc<AtomicU64>,
    pub(crate) total: u64,
}

impl Budget {
    /// Claims one request; true when none is left.
    fn spent(&self) -> bool {
        self.claimed.fetch_add(1, Ordering::Relaxed) >= self.total
    }
}

/// Sends for `duration` over `connections` connections; closed loop, or open loop at `rate`. The
/// connections are spread over one client thread per core, so the client is not the bottleneck.
pub(crate) async fn drive(
    base: &str,
    path: &'static str,
    key: &str,
    args: &LoadArgs,
    tracker: Option<Shared>,
    progress: Option<indicatif::ProgressBar>,
) -> Phase {
    let started = Instant::now();
    let measured = started + args.warmup;
    if let Some(t) = &tracker {
        t.lock().unwrap().measured = Some(measured);
    }
    let end = measured + args.duration;
    let conns = args.connections.max(1);
    let interval = args.rate.map(|r| Duration::from_secs_f64(conns as f64 / r.max(1) as f64));
    let budget = args.messages.map(|total| Budget { claimed: Arc::default(), total });
    let threads = std::thread::available_parallelism().map_or(2, |n| n.get()).min(conns);
    let text = text(args.text_chars.into());
    let workers: Vec<_> = (0..threads)
        .map(|w| {
            let (base, key, tracker, progress, budget, text) = (
                base.to_owned(),
                key.to_owned(),
                tracker.clone(),
                progress.clone(),
                budget.clone(),
                text.clone(),
            );
            std::thread::spawn(move || {
                actix_web::rt::System::new().block_on(async move {
                    // One client per thread, its pool opening a connection for each task that
                    // has none (a client per connection once loaded the system's root
                    // certificates per connection, and a run of 2,000 connections sent late).
                    let client = awc::Client::builder()
                        .connector(
                            awc::Connector::new().limit(0).rustls_0_23(pigeon_protocol::tls::client_config()),
                        )
                        .timeout(Duration::from_secs(30))
                        .finish();
                    let tasks: Vec<_> = (w..conns)
                        .step_by(threads)
                        .map(|c| {
                            actix_web::rt::spawn(connection(
                                client.clone(),
                                c,
                                conns,
                                base.clone(),
                                path,
                                key.clone(),
                                interval,
                                started,
                                measured,
                                end,
                                budget.clone(),
                                tracker.clone(),
                                progress.clone(),
                                text.clone(),
                            ))
                        })
                        .collect();
                    let mut out = Vec::new();
                    for t in tasks {
                        if let Ok(p) = t.await {
                            out.push(p);
                        }
                    }
                    out
                })
            })
        })
        .collect();
    let phases = actix_web::rt::task::spawn_blocking(move || {
        workers.into_iter().flat_map(|w| w.join().unwrap_or_default()).collect::<Vec<_>>()
    })
    .await
    .unwrap_or_default();
    let mut total = Phase { latency: Some(histogram()), ..Phase::default() };
    for p in phases {
        total.accepted += p.accepted;
        total.accepted_all += p.accepted_all;
        total.errors_5xx += p.errors_5xx;
        for (k, v) in p.errors {
            *total.errors.entry(k).or_default() += v;
        }
        if let (Some(a), Some(b)) = (total.latency.as_mut(), p.latency.as_ref()) {
            let _ = a.add(b);
        }
    }
    total.measured = Some(measured);
    // With `--messages` the run may end before `--duration`: measure to its real end.
    total.elapsed = measured.elapsed().min(end.saturating_duration_since(measured));
    total.elapsed = total.elapsed.max(Duration::from_millis(1));
    total
}

pub(crate) fn bar(args: &LoadArgs, what: &str) -> Option<indicatif::ProgressBar> {
    if args.quiet {
        return None;
    }
    let (len, template) = match args.messages {
        Some(n) => (n, "{msg:10} [{bar:40}] {pos}/{len} {elapsed_precise}"),
        None => (
            (args.warmup + args.duration).as_millis() as u64,
            "{msg:10} [{bar:40}] {elapsed_precise}/{duration_precise}",
        ),
    };
    let pb = indicatif::ProgressBar::new(len);
    pb.set_style(indicatif::ProgressStyle::with_template(template).expect("template").progress_chars("=> "));
    pb.set_message(what.to_owned());
    Some(pb)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_text_has_the_length_asked_for() {
        assert_eq!(&*text(17), "load test message");
        assert_eq!(text(1000).chars().count(), 1000);
        assert!(text(1000).starts_with("load test message load"));
    }
}

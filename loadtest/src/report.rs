//! What a run measured, as the JSON report and the table show it.

use std::collections::BTreeMap;

use hdrhistogram::Histogram;
use serde::Serialize;

/// Latency percentiles in milliseconds.
#[derive(Serialize, Debug, Default, Clone)]
pub struct Percentiles {
    /// Samples.
    pub count: u64,
    /// Median.
    pub p50: f64,
    /// 90th.
    pub p90: f64,
    /// 99th.
    pub p99: f64,
    /// 99.9th.
    pub p999: f64,
    /// Maximum.
    pub max: f64,
}

impl Percentiles {
    pub(crate) fn of(h: &Histogram<u64>) -> Self {
        let ms = |q: f64| h.value_at_quantile(q) as f64 / 1000.0;
        Self {
            count: h.len(),
            p50: ms(0.5),
            p90: ms(0.9),
            p99: ms(0.99),
            p999: ms(0.999),
            max: h.max() as f64 / 1000.0,
        }
    }
}

/// What a run measured.
#[derive(Serialize, Debug, Default, Clone)]
pub struct Report {
    /// Seconds measured (after the warm-up).
    pub duration_s: f64,
    /// Seconds of warm-up before them.
    pub warmup_s: f64,
    /// Connections.
    pub connections: usize,
    /// Target rate, if open loop.
    pub rate: Option<u64>,
    /// 202 answers.
    pub accepted: u64,
    /// Accepted per second.
    pub accepted_per_s: f64,
    /// Non-202 answers and transport errors, by `status code` (or `transport`).
    pub errors: BTreeMap<String, u64>,
    /// Answers with a 5xx status.
    pub errors_5xx: u64,
    /// Accept latency (request start, or intended start when open loop, to the 202).
    pub accept_latency_ms: Percentiles,
    /// Signed `message.delivered` webhooks received for accepted messages.
    pub delivered: u64,
    /// Webhooks whose signature did not verify.
    pub bad_signatures: u64,
    /// Accepted messages with no `message.delivered` webhook by the end of the drain.
    pub lost: u64,
    /// Send start to webhook arrival.
    pub end_to_end_ms: Percentiles,
    /// End-to-end deliveries per second over the whole run.
    pub delivered_per_s: f64,
    /// Baseline route answers per second (with `--baseline`).
    pub baseline_per_s: Option<f64>,
    /// `accepted_per_s / baseline_per_s`.
    pub ratio_to_baseline: Option<f64>,
    /// Server resident memory at the end, MiB (a server this command started).
    pub server_rss_mib: Option<f64>,
    /// The store's writes (sled inserts and removes) per message accepted in the run, from the
    /// server's `pigeon_store_writes_total`.
    pub store_writes_per_message: Option<f64>,
    /// The store's size on disk per message accepted in the run, from `pigeon_store_size_bytes`.
    pub store_bytes_per_message: Option<f64>,
    /// What `--events-reader` saw.
    pub events: Option<EventsRead>,
    /// The measured phase, window by window (soak mode).
    pub samples: Vec<crate::Sample>,
    /// With `--backlog`: messages left queued (every one accepted, warm-up included).
    pub backlog: Option<u64>,
    /// With `--restart`: what the restart took.
    pub restart: Option<Restart>,
}

/// Timings of a restart after SIGKILL, from the new process's start.
#[derive(Serialize, Debug, Default, Clone)]
pub struct Restart {
    /// Until `/readyz` answered 200.
    pub ready_s: f64,
    /// Until a new send was accepted (202).
    pub first_accept_s: f64,
    /// Until `/metrics` showed the whole backlog queued or in flight again (`--backlog`).
    pub backlog_back_s: Option<f64>,
    /// Resident memory once the backlog was back, MiB.
    pub rss_mib: Option<f64>,
}

/// What the reader saw.
#[derive(Serialize, Debug, Default, Clone)]
pub struct EventsRead {
    /// Events read.
    pub read: u64,
    /// How old each event was when the reader got it (its `timestamp` to the page's arrival).
    pub lag_ms: Percentiles,
    /// How old the last event read was when it arrived: the lag at the end of the run.
    pub last_lag_ms: f64,
    /// Events in the log the reader had not read when it stopped (0: it kept up).
    pub behind_at_end: u64,
}

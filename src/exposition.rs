//! What `/metrics` serves, by Prometheus' conventions (`promtool check metrics` finds nothing):
//! every family described once here with its HELP text, base units, the figures read at scrape
//! time, and the families the `metrics` crate cannot express (counters of seconds, which it keeps
//! as integers; `process_*`; the build).

use std::fmt::Write;

use pigeon_actors::Engine;

use crate::server::overload::Gate;

/// The counters recorded through the `metrics` crate, with their HELP text.
const COUNTERS: &[(&str, &str)] = &[
    ("pigeon_http_requests_total", "HTTP requests answered, by method, route and status."),
    ("pigeon_messages_total", "Messages that reached each final status on this node."),
    ("pigeon_store_flushes_total", "Group-commit flushes of the store."),
    (
        "pigeon_store_commits_total",
        "Commit requests those flushes served (commits per flush is the batching).",
    ),
    ("pigeon_store_slow_flushes_total", "Flushes slower than the committer's slow mark."),
    ("pigeon_store_flushes_over_50ms_total", "Flushes that took longer than 50 ms."),
    ("pigeon_store_flushes_over_250ms_total", "Flushes that took longer than 250 ms."),
    ("pigeon_store_blobs_synced_total", "sled blob files (records over about 128 KiB) synced after a flush."),
    ("pigeon_store_log_syncs_over_50ms_total", "Log fdatasync calls that took longer than 50 ms."),
    ("pigeon_store_writes_total", "Records the store wrote."),
    (
        "pigeon_store_cold_pages_deferred_total",
        "Pages of segments being cleaned that a writer left to the flusher.",
    ),
    ("pigeon_actor_passivations_total", "Tenants whose actors stopped after being idle."),
    ("pigeon_sends_refused_total", "Sends refused before their body was read, by reason."),
    ("pigeon_retention_deleted_total", "Records retention deleted, by kind."),
    ("pigeon_webhook_attempts_total", "Webhook delivery attempts, by outcome."),
];

/// The gauges, with their HELP text.
const GAUGES: &[(&str, &str)] = &[
    ("pigeon_messages_queued", "Messages in phone queues, a backlog still being read back included."),
    ("pigeon_messages_in_flight", "Messages a phone is sending: leased to an agent or in a sim's delay."),
    ("pigeon_messages_held", "Messages held for quiet hours or send_at."),
    ("pigeon_webhook_deliveries_pending", "Webhook deliveries neither succeeded nor given up."),
    ("pigeon_phones_online", "Phones of this node's running tenants that are online now."),
    ("pigeon_tenant_actors", "Tenants whose actors are running."),
    ("pigeon_sends_pending", "Sends in the accept path now."),
    ("pigeon_sends_shedding", "1 while the overload gate sheds sends, else 0."),
    ("pigeon_sends_bound", "The most sends the accept path holds at once while it sheds."),
    ("pigeon_store_size_bytes", "The store's size on disk."),
    ("pigeon_store_cold_pages_waiting", "Deferred cold pages the flusher has not moved yet."),
    ("pigeon_store_segments", "sled log segments, by state."),
    ("pigeon_store_live_bytes", "Bytes of live pages in the active and inactive segments."),
    ("pigeon_store_pages", "sled pages in use."),
];

/// The histograms, with their HELP text.
const HISTOGRAMS: &[(&str, &str)] = &[
    ("pigeon_http_request_duration_seconds", "Time to answer an HTTP request, by method and route."),
    ("pigeon_send_accept_seconds", "Time from a send's body in to its answer."),
];

/// The final statuses `pigeon_messages_total` counts, shown at 0 before the first.
const FINAL_STATUSES: [&str; 5] = ["delivered", "read", "failed", "cancelled", "received"];

/// Gives every family its HELP text, and shows the message counts at 0 before the first: once,
/// at the first scrape (the recorder keeps descriptions apart from values).
fn describe() {
    for (name, help) in COUNTERS {
        metrics::describe_counter!(*name, *help);
    }
    for (name, help) in GAUGES {
        metrics::describe_gauge!(*name, *help);
    }
    for (name, help) in HISTOGRAMS {
        metrics::describe_histogram!(*name, metrics::Unit::Seconds, *help);
    }
    for status in FINAL_STATUSES {
        metrics::counter!("pigeon_messages_total", "status" => status).increment(0);
    }
}

/// The whole exposition: the recorder's families with the figures read now, then the ones
/// written here.
pub async fn scrape(engine: &Engine, gate: &Gate) -> String {
    let handle = crate::telemetry::metrics();
    static DESCRIBED: std::sync::Once = std::sync::Once::new();
    DESCRIBED.call_once(describe);
    let c = engine.commit_stats();
    metrics::counter!("pigeon_store_flushes_total").absolute(c.flushes);
    metrics::counter!("pigeon_store_commits_total").absolute(c.commits);
    metrics::counter!("pigeon_store_slow_flushes_total").absolute(c.slow_flushes);
    metrics::counter!("pigeon_store_flushes_over_50ms_total").absolute(c.flushes_over_50ms);
    metrics::counter!("pigeon_store_flushes_over_250ms_total").absolute(c.flushes_over_250ms);
    metrics::counter!("pigeon_store_blobs_synced_total").absolute(c.blobs_synced);
    metrics::counter!("pigeon_store_log_syncs_over_50ms_total").absolute(c.syncs_over_50ms);
    metrics::gauge!("pigeon_tenant_actors").set(engine.running_tenants() as f64);
    metrics::counter!("pigeon_actor_passivations_total").absolute(engine.passivations());
    metrics::gauge!("pigeon_store_size_bytes").set(engine.store_size() as f64);
    metrics::counter!("pigeon_store_writes_total").absolute(engine.store_writes());
    let cold = engine.store_cold_pages();
    metrics::counter!("pigeon_store_cold_pages_deferred_total").absolute(cold.deferred);
    metrics::gauge!("pigeon_store_cold_pages_waiting").set(cold.waiting as f64);
    let seg = engine.store_segments();
    for (state, n) in
        [("free", seg.free), ("active", seg.active), ("inactive", seg.inactive), ("draining", seg.draining)]
    {
        metrics::gauge!("pigeon_store_segments", "state" => state).set(n as f64);
    }
    metrics::gauge!("pigeon_store_live_bytes").set(seg.live_bytes as f64);
    metrics::gauge!("pigeon_store_pages").set(seg.pages as f64);
    let d = engine.depths().await;
    metrics::gauge!("pigeon_messages_queued").set(d.queued as f64);
    metrics::gauge!("pigeon_messages_in_flight").set(d.in_flight as f64);
    metrics::gauge!("pigeon_messages_held").set(d.held as f64);
    metrics::gauge!("pigeon_webhook_deliveries_pending").set(d.webhook_deliveries as f64);
    metrics::gauge!("pigeon_phones_online").set(d.phones_online as f64);
    metrics::gauge!("pigeon_sends_pending").set(gate.pending() as f64);
    metrics::gauge!("pigeon_sends_shedding").set(if gate.shedding() { 1.0 } else { 0.0 });
    metrics::gauge!("pigeon_sends_bound").set(gate.bound() as f64);
    handle.run_upkeep();
    let mut text = handle.render();
    let micros = |us: u64| us as f64 / 1e6;
    counter(
        &mut text,
        "pigeon_store_flush_seconds_total",
        "Time writers waited on store flushes.",
        &[("", micros(c.flush_micros))],
    );
    counter(
        &mut text,
        "pigeon_store_log_sync_seconds_total",
        "Of that time, the log's fdatasync.",
        &[("", micros(c.sync_micros))],
    );
    let threads = crate::telemetry::thread_times();
    let by_thread = |f: fn(&crate::telemetry::ThreadTime) -> u64| -> Vec<(String, f64)> {
        threads.iter().map(|(name, t)| (format!("thread=\"{}\"", escape(name)), micros(f(t)))).collect()
    };
    let cpu = by_thread(|t| t.cpu_micros);
    let wait = by_thread(|t| t.wait_micros);
    fn labelled(v: &[(String, f64)]) -> Vec<(&str, f64)> {
        v.iter().map(|(l, x)| (l.as_str(), *x)).collect()
    }
    counter(
        &mut text,
        "pigeon_thread_cpu_seconds_total",
        "Time on a core, by thread group (Linux).",
        &labelled(&cpu),
    );
    counter(
        &mut text,
        "pigeon_thread_wait_seconds_total",
        "Time runnable but waiting for a core, by thread group (Linux).",
        &labelled(&wait),
    );
    family(
        &mut text,
        "pigeon_build_info",
        "gauge",
        "The running build; always 1.",
        &[(concat!("version=\"", env!("CARGO_PKG_VERSION"), "\""), 1.0)],
    );
    process(&mut text);
    text
}

/// Appends a counter family.
fn counter(text: &mut String, name: &str, help: &str, samples: &[(&str, f64)]) {
    family(text, name, "counter", help, samples);
}

/// Appends one family: HELP, TYPE, then a sample per `(labels, value)` (labels already
/// written as `k="v",…`; empty for none).
fn family(text: &mut String, name: &str, kind: &str, help: &str, samples: &[(&str, f64)]) {
    let _ = writeln!(text, "# HELP {name} {help}\n# TYPE {name} {kind}");
    for (labels, value) in samples {
        if labels.is_empty() {
            let _ = writeln!(text, "{name} {value}");
        } else {
            let _ = writeln!(text, "{name}{{{labels}}} {value}");
        }
    }
    text.push('\n');
}

/// A label value as the text format quotes it.
fn escape(v: &str) -> String {
    v.replace('\\', "\\\\").replace('"', "\\\"").replace('\n', "\\n")
}

/// The standard `process_*` families, from `/proc/self` (Linux; nothing elsewhere).
fn process(text: &mut String) {
    #[cfg(target_os = "linux")]
    {
        let p = ProcessStat::read();
        let gauge = |text: &mut String, name, help, v: Option<f64>| {
            if let Some(v) = v {
                family(text, name, "gauge", help, &[("", v)]);
            }
        };
        if let Some(cpu) = p.cpu_seconds {
            counter(
                text,
                "process_cpu_seconds_total",
                "User and system CPU time spent, seconds.",
                &[("", cpu)],
            );
        }
        gauge(text, "process_resident_memory_bytes", "Resident memory size, bytes.", p.resident_bytes);
        gauge(text, "process_virtual_memory_bytes", "Virtual memory size, bytes.", p.virtual_bytes);
        gauge(text, "process_start_time_seconds", "Start time since the Unix epoch, seconds.", p.start_time);
        gauge(text, "process_open_fds", "Open file descriptors.", p.open_fds);
        gauge(text, "process_max_fds", "The most file descriptors the process may open.", p.max_fds);
    }
    #[cfg(not(target_os = "linux"))]
    let _ = text;
}

/// What `/proc/self` says of the process; a field it could not read is None.
#[cfg(target_os = "linux")]
#[derive(Debug, Default)]
struct ProcessStat {
    cpu_seconds: Option<f64>,
    resident_bytes: Option<f64>,
    virtual_bytes: Option<f64>,
    start_time: Option<f64>,
    open_fds: Option<f64>,
    max_fds: Option<f64>,
}

#[cfg(target_os = "linux")]
impl ProcessStat {
    fn read() -> Self {
        let mut p = ProcessStat::default();
        let ticks = rustix::param::clock_ticks_per_second() as f64;
        if let Ok(stat) = std::fs::read_to_string("/proc/self/stat") {
            // The command name (field 2) may hold spaces; the fields after its `)` are fixed.
            let rest: Vec<&str> = stat.rsplit_once(')').map_or("", |(_, r)| r).split_whitespace().collect();
            // After `)`: state is [0], so field N of proc(5) is at [N - 3].
            let field = |n: usize| rest.get(n - 3).and_then(|v| v.parse::<f64>().ok());
            p.cpu_seconds = field(14).zip(field(15)).map(|(u, s)| (u + s) / ticks);
            p.virtual_bytes = field(23);
            p.resident_bytes = field(24).map(|pages| pages * rustix::param::page_size() as f64);
            let boot = std::fs::read_to_string("/proc/stat").ok().and_then(|s| {
                s.lines().find_map(|l| l.strip_prefix("btime ")).and_then(|v| v.trim().parse::<f64>().ok())
            });
            p.start_time = boot.zip(field(22)).map(|(b, since_boot)| b + since_boot / ticks);
        }
        p.open_fds = std::fs::read_dir("/proc/self/fd").ok().map(|d| d.count() as f64);
        p.max_fds = std::fs::read_to_string("/proc/self/limits").ok().and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("Max open files"))
                .and_then(|l| l.split_whitespace().nth(3))
                .and_then(|v| v.parse().ok())
        });
        p
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn families_are_written_with_help_type_and_quoted_labels() {
        let mut text = String::new();
        counter(&mut text, "x_seconds_total", "Time.", &[("thread=\"a\\\"b\"", 1.5), ("thread=\"c\"", 0.0)]);
        assert_eq!(
            text,
            "# HELP x_seconds_total Time.\n# TYPE x_seconds_total counter\n\
             x_seconds_total{thread=\"a\\\"b\"} 1.5\nx_seconds_total{thread=\"c\"} 0\n\n"
        );
        assert_eq!(escape("a\"b\\c\nd"), "a\\\"b\\\\c\\nd");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn the_process_figures_are_read_and_plausible() {
        let held = vec![1u8; 64 << 20];
        std::hint::black_box(&held);
        let p = ProcessStat::read();
        // Kernel clocks only: the wall clock may be faked (`.ci/at-hour`).
        let read = |path, at: fn(&str) -> Option<&str>| -> f64 {
            at(&std::fs::read_to_string(path).unwrap()).unwrap().trim().parse().unwrap()
        };
        let boot = read("/proc/stat", |s| s.lines().find_map(|l| l.strip_prefix("btime ")));
        let up = read("/proc/uptime", |s| s.split_whitespace().next());
        assert!(p.resident_bytes.unwrap() >= (64 << 20) as f64, "{p:?}");
        assert!(p.virtual_bytes.unwrap() >= p.resident_bytes.unwrap(), "{p:?}");
        let started = p.start_time.unwrap();
        assert!(started >= boot && started <= boot + up + 1.0, "{p:?} boot {boot} up {up}");
        assert!(p.open_fds.unwrap() >= 3.0 && p.max_fds.unwrap() >= p.open_fds.unwrap(), "{p:?}");
        assert!(p.cpu_seconds.unwrap() >= 0.0, "{p:?}");
    }
}

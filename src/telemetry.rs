//! Logging (`tracing` to stderr, as text or JSON lines, filtered by `PIGEON_LOG`) and metrics
//! (a process-wide Prometheus recorder, rendered by `GET /metrics`).

use std::sync::OnceLock;
use std::time::Duration;

use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;
use tracing_subscriber::{fmt, EnvFilter};

/// Log line format.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum LogFormat {
    /// Human-readable.
    Text,
    /// One JSON object per line.
    Json,
}

/// Installs the global subscriber. Call once, from `main`.
pub fn init(filter: &str, format: LogFormat) {
    // The PostgreSQL client logs every statement with its parameters at debug (records, key
    // hashes): never with a plain `debug`, only when the operator names it.
    let filter = if filter.contains("tokio_postgres") {
        filter.to_owned()
    } else {
        format!("{filter},tokio_postgres=info")
    };
    let filter = EnvFilter::try_new(&filter).unwrap_or_else(|_| EnvFilter::new("info"));
    // Colour only for a person at a terminal: files and journald get plain text.
    use std::io::IsTerminal;
    let ansi = std::io::stderr().is_terminal() && std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty());
    let builder = fmt().with_env_filter(filter).with_writer(std::io::stderr).with_ansi(ansi);
    match format {
        LogFormat::Text => builder.finish().with(ClientFaults).init(),
        LogFormat::Json => builder.json().flatten_event(true).finish().with(ClientFaults).init(),
    }
}

/// Drops the `ERROR` line actix-http's HTTP/1 dispatcher writes when a connection ends in a
/// client's fault (`stream error: …`: a malformed request, a reset, a timeout). `ERROR` is kept
/// for the node's own failures, and anyone could otherwise flood ERROR-keyed alerts with bad
/// requests. The malformed requests themselves are logged at `INFO` where their answer is made
/// (`wire.rs`: "answered before routing"). The dispatcher's level cannot be changed from
/// outside, only its event left out.
struct ClientFaults;

impl<S: tracing::Subscriber> tracing_subscriber::Layer<S> for ClientFaults {
    fn event_enabled(
        &self,
        event: &tracing::Event<'_>,
        _: tracing_subscriber::layer::Context<'_, S>,
    ) -> bool {
        !is_client_fault(event)
    }
}

fn is_client_fault(event: &tracing::Event<'_>) -> bool {
    let meta = event.metadata();
    if *meta.level() != tracing::Level::ERROR || meta.target() != "actix_http::h1::dispatcher" {
        return false;
    }
    struct Message(bool);
    impl tracing::field::Visit for Message {
        fn record_debug(&mut self, field: &tracing::field::Field, value: &dyn std::fmt::Debug) {
            if field.name() == "message" {
                self.0 = format!("{value:?}").starts_with("stream error");
            }
        }
    }
    let mut m = Message(false);
    event.record(&mut m);
    m.0
}

/// Latency buckets, in seconds: fine below 10 ms where the API should live.
const BUCKETS: &[f64] =
    &[0.0002, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0];

/// How often the recorder's histograms are drained into their buckets whether or not anyone
/// scrapes `/metrics` (the exporter's own default).
const UPKEEP_EVERY: Duration = Duration::from_secs(5);

/// The process-wide metrics recorder, installed on first use. One per process: servers started
/// in the same process (tests) share it.
pub fn metrics() -> &'static PrometheusHandle {
    static HANDLE: OnceLock<PrometheusHandle> = OnceLock::new();
    HANDLE.get_or_init(|| {
        let recorder =
            PrometheusBuilder::new().set_buckets(BUCKETS).expect("non-empty buckets").build_recorder();
        let handle = recorder.handle();
        if metrics::set_global_recorder(recorder).is_err() {
            tracing::warn!("another metrics recorder is installed; /metrics will stay empty");
        }
        keep_up(handle.clone(), UPKEEP_EVERY);
        handle
    })
}

/// Drains the histograms every `every` on a thread of its own. The exporter keeps every sample
/// recorded since the last drain, and only a scrape drained them: a node nobody scraped kept
/// ~20 bytes a request for good (81 MiB after 4M requests; 1 GiB an hour at 8,000 sends a second).
fn keep_up(handle: PrometheusHandle, every: Duration) {
    let spawned = std::thread::Builder::new().name("pigeon-metrics".into()).spawn(move || loop {
        std::thread::sleep(every);
        handle.run_upkeep();
    });
    if let Err(e) = spawned {
        tracing::warn!(error = %e, "cannot start the metrics upkeep thread; only scrapes will drain histograms");
    }
}

/// One group of the process's threads: their time on a core and their time runnable but waiting
/// for one (the kernel's `schedstat`, so no sampling error). Rising wait at a steady load means
/// the node is short of cores; rising CPU per message means more work or a slower machine.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct ThreadTime {
    /// Time on a core, µs.
    pub cpu_micros: u64,
    /// Time runnable and waiting for a core, µs.
    pub wait_micros: u64,
}

/// The process's live threads' [`ThreadTime`], summed by name with a trailing `-N` dropped
/// (`sled-io-0` … `sled-io-6` are one group). Threads that have ended are not in it. Linux only;
/// empty elsewhere.
pub fn thread_times() -> std::collections::BTreeMap<String, ThreadTime> {
    let mut out = std::collections::BTreeMap::<String, ThreadTime>::new();
    #[cfg(target_os = "linux")]
    for task in std::fs::read_dir("/proc/self/task").into_iter().flatten().flatten() {
        let path = task.path();
        let (Ok(comm), Ok(stat)) =
            (std::fs::read_to_string(path.join("comm")), std::fs::read_to_string(path.join("schedstat")))
        else {
            continue; // the thread ended meanwhile
        };
        let mut ns = stat.split_whitespace().map(|f| f.parse::<u64>().unwrap_or(0));
        let (cpu, wait) = (ns.next().unwrap_or(0), ns.next().unwrap_or(0));
        let t = out.entry(thread_group(comm.trim_end()).to_owned()).or_default();
        t.cpu_micros += cpu / 1000;
        t.wait_micros += wait / 1000;
    }
    out
}

/// A thread's name without a trailing `-N`.
fn thread_group(name: &str) -> &str {
    match name.rsplit_once('-') {
        Some((group, n)) if !group.is_empty() && !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()) => {
            group
        }
        _ => name,
    }
}

#[cfg(test)]
mod tests {
    use std::alloc::{GlobalAlloc, Layout, System};
    use std::sync::atomic::{AtomicIsize, Ordering::Relaxed};
    use std::time::{Duration, Instant};

    /// Counts the bytes the test binary holds, to see the recorder's samples come and go (the
    /// exporter offers no other view of them). Test-only `unsafe`, as in `benches/actor_bytes.rs`.
    struct Counting;

    static HELD: AtomicIsize = AtomicIsize::new(0);

    #[allow(unsafe_code)]
    unsafe impl GlobalAlloc for Counting {
        unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
            let p = unsafe { System.alloc(layout) };
            if !p.is_null() {
                HELD.fetch_add(layout.size() as isize, Relaxed);
            }
            p
        }

        unsafe fn dealloc(&self, p: *mut u8, layout: Layout) {
            unsafe { System.dealloc(p, layout) };
            HELD.fetch_sub(layout.size() as isize, Relaxed);
        }
    }

    #[global_allocator]
    static COUNTING: Counting = Counting;

    const ALONE: &str = "PIGEON_TEST_UPKEEP_ALONE";

    #[test]
    fn samples_are_drained_though_nobody_scrapes() {
        // In a process of its own: the count is the whole process's, and the other tests here
        // (a panic's backtrace alone caches ~100 MB) would drown it.
        let out = std::process::Command::new(std::env::current_exe().unwrap())
            .args(["--exact", "telemetry::tests::upkeep_alone", "--nocapture"])
            .env(ALONE, "1")
            .output()
            .unwrap();
        let said = String::from_utf8_lossy(&out.stdout) + String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success() && said.contains("1 passed"), "{said}");
    }

    /// The measurement, run only by the test above.
    #[test]
    fn upkeep_alone() {
        if std::env::var_os(ALONE).is_none() {
            return;
        }
        super::metrics();
        let before = HELD.load(Relaxed);
        let h = metrics::histogram!("pigeon_test_upkeep_seconds");
        for i in 0..2_000_000 {
            h.record(f64::from(i % 1000) * 1e-6);
        }
        let grown = HELD.load(Relaxed) - before;
        assert!(grown > 12 << 20, "2M samples should be held until drained, held {grown} bytes");
        // The upkeep thread drains every 5 s; no scrape happens here. The drained blocks are
        // freed once later recordings have moved the exporter's epoch on, as a live node's do.
        let deadline = Instant::now() + Duration::from_secs(15);
        while HELD.load(Relaxed) - before > grown / 4 {
            assert!(Instant::now() < deadline, "never drained: {} bytes held", HELD.load(Relaxed) - before);
            for _ in 0..200 {
                h.record(1e-3);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    #[test]
    fn numbered_threads_are_one_group() {
        assert_eq!(super::thread_group("sled-io-3"), "sled-io");
        assert_eq!(super::thread_group("pigeon-work"), "pigeon-work");
        assert_eq!(super::thread_group("log-"), "log-");
        assert_eq!(super::thread_group("-7"), "-7");
    }

    #[cfg(target_os = "linux")]
    #[test]
    fn a_busy_thread_shows_its_cpu_time_under_its_name() {
        let (done_tx, done) = std::sync::mpsc::channel::<()>();
        let (tx, rx) = std::sync::mpsc::channel::<()>();
        // It spins until its own reading shows 60 ms of CPU, however long a loaded machine
        // takes to give it that: the reading, not the wall clock, is what is tested.
        let busy = std::thread::Builder::new()
            .name("pigeon-tt-1".into())
            .spawn(move || {
                let mut x = 0u64;
                while super::thread_times().get("pigeon-tt").is_none_or(|t| t.cpu_micros < 60_000) {
                    let slice = Instant::now();
                    while slice.elapsed() < Duration::from_millis(2) {
                        x = std::hint::black_box(x.wrapping_mul(31).wrapping_add(7));
                    }
                }
                done_tx.send(()).unwrap();
                rx.recv().unwrap();
            })
            .unwrap();
        done.recv_timeout(Duration::from_secs(60)).expect("60 ms of CPU within a minute");
        let t = super::thread_times()["pigeon-tt"];
        tx.send(()).unwrap();
        busy.join().unwrap();
        // Counted under its name, and not inflated: the spin stopped at 60 ms and a few slices.
        assert!((60_000..1_000_000).contains(&t.cpu_micros), "{t:?}");
    }
}

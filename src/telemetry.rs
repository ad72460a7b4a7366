//! Logging (`tracing` to stderr, as text or JSON lines, filtered by `PIGEON_LOG`) and metrics
//! (a process-wide Prometheus recorder, rendered by `GET /metrics`).

use std::sync::OnceLock;

use metrics_exporter_prometheus::{PrometheusBuilder, PrometheusHandle};
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
    let builder = fmt().with_env_filter(filter).with_writer(std::io::stderr);
    match format {
        LogFormat::Text => builder.init(),
        LogFormat::Json => builder.json().flatten_event(true).init(),
    }
}

/// Latency buckets, in seconds: fine below 10 ms where the API should live.
const BUCKETS: &[f64] =
    &[0.0002, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 10.0];

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
        handle
    })
}

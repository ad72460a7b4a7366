//! Soak mode: every `--sample-every` (10 s by default) of the measured phase, the harness notes
//! the server's RSS, the store's size on disk, accept p50/p99 and end-to-end p99 of that window,
//! so a long run (`--rate R --duration 30m`) shows whether the node levels off. Each window also
//! has the node's CPU time and wait for a core by thread group, and a fixed piece of work timed in
//! the harness: on a shared VM a slow stretch is either the node doing more per message or the
//! machine running the same work slower, and only the two side by side tell which. The samples go
//! into the JSON report, and [`write_chart`] draws them beside it as an SVG.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use hdrhistogram::Histogram;
use plotters::prelude::*;
use serde::Serialize;

use crate::client::{self, Api};
use crate::sink::Shared;

/// One window of a run.
#[derive(Serialize, Debug, Clone, Default, PartialEq)]
pub struct Sample {
    /// Seconds since the measured phase began, at the end of the window.
    pub t_s: f64,
    /// Messages accepted in the window.
    pub accepted: u64,
    /// The server's RSS (only for a server the harness started).
    pub rss_mib: Option<f64>,
    /// The store's size on disk, from `pigeon_store_size_bytes`.
    pub store_mib: Option<f64>,
    /// sled's pages in use, from `pigeon_store_pages`: what a large store's memory follows.
    pub store_pages: Option<f64>,
    /// Accept latency of the window.
    pub accept_p50_ms: f64,
    /// Accept latency of the window.
    pub accept_p99_ms: f64,
    /// Send to webhook of the messages whose webhook came in the window.
    pub end_to_end_p99_ms: f64,
    /// Group-commit flushes over 5 ms in the window (`pigeon_store_slow_flushes_total`).
    pub slow_flushes: Option<f64>,
    /// Time writers waited on the disk in the window (`pigeon_store_flush_seconds_total`).
    pub flush_wait_ms: Option<f64>,
    /// Messages retention deleted in the window (`pigeon_retention_deleted_total`).
    pub retention_deleted: Option<f64>,
    /// Group-commit flushes over 50 ms in the window.
    pub flushes_over_50ms: Option<f64>,
    /// Group-commit flushes over 250 ms in the window.
    pub flushes_over_250ms: Option<f64>,
    /// Of `flush_wait_ms`, the log's `fdatasync` (the device's part).
    pub log_sync_ms: Option<f64>,
    /// Log syncs over 50 ms in the window: a flush over 50 ms without one is the disk completing
    /// no write for that long (sled's own wait), with one its cache flush.
    pub log_syncs_over_50ms: Option<f64>,
    /// The server's CPU time in the window by thread group, ms (`pigeon_thread_cpu_seconds_total`).
    pub cpu_ms: BTreeMap<String, f64>,
    /// Time the server's threads were runnable but waited for a core in the window, ms, by group.
    pub wait_ms: BTreeMap<String, f64>,
    /// The harness's fixed piece of CPU work, µs (the shortest of five runs at the window's end):
    /// it takes longer only when the machine is slower.
    pub probe_us: f64,
}

impl Sample {
    /// The server's CPU a message accepted in the window, µs (all its threads).
    pub fn cpu_us_per_message(&self) -> Option<f64> {
        (self.accepted > 0 && !self.cpu_ms.is_empty())
            .then(|| self.cpu_ms.values().sum::<f64>() * 1000.0 / self.accepted as f64)
    }
}

/// The same work every time: sorting a copy of 32,768 scrambled numbers (allocation, copying,
/// comparisons: the kind of work a send is made of). The shortest of five runs, µs.
fn probe() -> f64 {
    let scrambled: Vec<u32> = (0..32_768u32).map(|i| i.wrapping_mul(2_654_435_761)).collect();
    let run = || {
        let started = Instant::now();
        let mut v = std::hint::black_box(scrambled.clone());
        v.sort_unstable();
        std::hint::black_box(&v);
        started.elapsed()
    };
    (0..5).map(|_| run()).min().unwrap_or_default().as_secs_f64() * 1e6
}

/// Each group's rise since `last`, seconds to ms (a group whose threads ended counts 0), and `last` moved on.
fn rise_by_group(now: BTreeMap<String, f64>, last: &mut BTreeMap<String, f64>) -> BTreeMap<String, f64> {
    let rise = now
        .iter()
        .map(|(group, v)| (group.clone(), ((v - last.get(group).copied().unwrap_or(0.0)) * 1000.0).max(0.0)))
        .collect();
    *last = now;
    rise
}

/// The server's counters behind a sample's per-window store figures.
const COUNTERS: [&str; 7] = [
    "pigeon_store_slow_flushes_total",
    "pigeon_store_flush_seconds_total",
    "pigeon_retention_deleted_total{kind=\"message\"}",
    "pigeon_store_flushes_over_50ms_total",
    "pigeon_store_flushes_over_250ms_total",
    "pigeon_store_log_sync_seconds_total",
    "pigeon_store_log_syncs_over_50ms_total",
];

/// Samples every `every` from `measured` until `done` is set; returns the samples.
pub(crate) async fn sample(
    api: Api,
    pid: Option<u32>,
    tracker: Shared,
    every: Duration,
    measured: Instant,
    done: Arc<AtomicBool>,
) -> Vec<Sample> {
    let mut out = Vec::new();
    let wait = measured.saturating_duration_since(Instant::now());
    actix_web::rt::time::sleep(wait).await;
    // The window starts clean at the start of measuring.
    tracker.lock().unwrap().window = crate::sink::Window::default();
    let mut next = measured + every;
    let read = |text: Option<&str>| COUNTERS.map(|name| text.and_then(|t| client::value(t, name)));
    let first = client::metrics(&api).await;
    let mut last = read(first.as_deref());
    let threads =
        |text: Option<&str>, name| text.map(|t| client::family(t, name, "thread")).unwrap_or_default();
    let (mut last_cpu, mut last_wait) = (
        threads(first.as_deref(), "pigeon_thread_cpu_seconds_total"),
        threads(first.as_deref(), "pigeon_thread_wait_seconds_total"),
    );
    while !done.load(Ordering::Relaxed) {
        actix_web::rt::time::sleep(next.saturating_duration_since(Instant::now())).await;
        if done.load(Ordering::Relaxed) {
            break;
        }
        next += every;
        let t_s = measured.elapsed().as_secs_f64();
        let w = std::mem::take(&mut tracker.lock().unwrap().window);
        let ms = |h: &Histogram<u64>, q: f64| h.value_at_quantile(q) as f64 / 1000.0;
        let text = client::metrics(&api).await;
        // Each counter's rise over the window (a counter the server does not show yet counts 0).
        let now = read(text.as_deref());
        let rise: [Option<f64>; COUNTERS.len()] =
            std::array::from_fn(|i| text.as_ref().map(|_| now[i].unwrap_or(0.0) - last[i].unwrap_or(0.0)));
        last = std::array::from_fn(|i| now[i].or(last[i]));
        let cpu_ms =
            rise_by_group(threads(text.as_deref(), "pigeon_thread_cpu_seconds_total"), &mut last_cpu);
        let wait_ms =
            rise_by_group(threads(text.as_deref(), "pigeon_thread_wait_seconds_total"), &mut last_wait);
        // Off the harness's thread: five runs would hold its sends for a millisecond or more.
        let probe_us = actix_web::rt::task::spawn_blocking(probe).await.unwrap_or_default();
        out.push(Sample {
            t_s,
            accepted: w.accepted,
            rss_mib: pid.and_then(crate::server::rss_mib),
            store_mib: text
                .as_deref()
                .and_then(|t| client::value(t, "pigeon_store_size_bytes"))
                .map(|b| b / (1024.0 * 1024.0)),
            store_pages: text.as_deref().and_then(|t| client::value(t, "pigeon_store_pages")),
            accept_p50_ms: ms(&w.accept, 0.5),
            accept_p99_ms: ms(&w.accept, 0.99),
            end_to_end_p99_ms: ms(&w.end_to_end, 0.99),
            slow_flushes: rise[0],
            flush_wait_ms: rise[1].map(|s| s * 1000.0),
            retention_deleted: rise[2],
            flushes_over_50ms: rise[3],
            flushes_over_250ms: rise[4],
            log_sync_ms: rise[5].map(|s| s * 1000.0),
            log_syncs_over_50ms: rise[6],
            cpu_ms,
            wait_ms,
            probe_us,
        });
    }
    out
}

/// A line of the chart: its name, colour and points.
type Line = (&'static str, RGBColor, Vec<(f64, f64)>);
/// A panel of the chart: its area, title, unit and lines.
type Panel<'a, 'b> =
    (&'a DrawingArea<SVGBackend<'b>, plotters::coord::Shift>, &'static str, &'static str, Vec<Line>);

/// Draws the samples as an SVG: memory and disk at the top, latencies in the middle, and at the
/// bottom the node's CPU a message beside the machine's probe, each as a share of its first
/// window (both rising together is the machine slowing down, not the node).
pub fn write_chart(path: &Path, samples: &[Sample]) -> Result<(), String> {
    let err = |e: &dyn std::fmt::Display| format!("cannot draw {}: {e}", path.display());
    let root = SVGBackend::new(path, (960, 1080)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let areas = root.split_evenly((3, 1));
    let t_max = samples.iter().map(|s| s.t_s).fold(1.0, f64::max);
    let series = |f: &dyn Fn(&Sample) -> Option<f64>| -> Vec<(f64, f64)> {
        samples.iter().filter_map(|s| Some((s.t_s, f(s)?))).collect()
    };
    let cpu_first = samples.iter().find_map(Sample::cpu_us_per_message);
    let probe_first = samples.first().map(|s| s.probe_us).filter(|p| *p > 0.0);
    let indexed = |v: Option<f64>, first: Option<f64>| Some(100.0 * v? / first?);
    let panels: [Panel<'_, '_>; 3] = [
        (
            &areas[0],
            "Memory and disk",
            "MiB",
            vec![
                ("server RSS", RGBColor(0x1f, 0x77, 0xb4), series(&|s| s.rss_mib)),
                ("store on disk", RGBColor(0xff, 0x7f, 0x0e), series(&|s| s.store_mib)),
            ],
        ),
        (
            &areas[1],
            "Latency (per window)",
            "ms",
            vec![
                ("accept p50", RGBColor(0x2c, 0xa0, 0x2c), series(&|s| Some(s.accept_p50_ms))),
                ("accept p99", RGBColor(0xd6, 0x27, 0x28), series(&|s| Some(s.accept_p99_ms))),
                ("end-to-end p99", RGBColor(0x94, 0x67, 0xbd), series(&|s| Some(s.end_to_end_p99_ms))),
            ],
        ),
        (
            &areas[2],
            "Node CPU a message and the machine's probe (first window = 100)",
            "%",
            vec![
                (
                    "node CPU a message",
                    RGBColor(0x8c, 0x56, 0x4b),
                    series(&|s| indexed(s.cpu_us_per_message(), cpu_first)),
                ),
                (
                    "machine probe",
                    RGBColor(0x7f, 0x7f, 0x7f),
                    series(&|s| indexed(Some(s.probe_us), probe_first)),
                ),
            ],
        ),
    ];
    for (area, title, unit, lines) in panels {
        let y_max = lines.iter().flat_map(|(_, _, v)| v.iter().map(|p| p.1)).fold(1.0, f64::max) * 1.1;
        let mut chart = ChartBuilder::on(area)
            .caption(title, ("sans-serif", 20))
            .margin(12)
            .x_label_area_size(36)
            .y_label_area_size(56)
            .build_cartesian_2d(0.0..t_max, 0.0..y_max)
            .map_err(|e| err(&e))?;
        chart.configure_mesh().x_desc("seconds").y_desc(unit).draw().map_err(|e| err(&e))?;
        for (name, color, points) in lines {
            chart
                .draw_series(LineSeries::new(points, color.stroke_width(2)))
                .map_err(|e| err(&e))?
                .label(name)
                .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 18, y)], color.stroke_width(2)));
        }
        chart
            .configure_series_labels()
            .position(SeriesLabelPosition::UpperLeft)
            .background_style(WHITE.mix(0.8))
            .border_style(BLACK)
            .draw()
            .map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))
}

/// `report.json` → `report.svg`.
pub fn chart_path(json: &Path) -> std::path::PathBuf {
    json.with_extension("svg")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_group_rises_by_its_growth_and_an_ended_one_by_nothing() {
        let mut last: BTreeMap<String, f64> = [("pigeon-work".into(), 0.5), ("recover".into(), 9.0)].into();
        let now: BTreeMap<String, f64> = [("pigeon-work".into(), 0.75), ("recover".into(), 0.0)].into();
        let rise = rise_by_group(now.clone(), &mut last);
        assert_eq!(rise, [("pigeon-work".into(), 250.0), ("recover".into(), 0.0)].into());
        assert_eq!(last, now);
    }

    #[test]
    fn cpu_a_message_is_every_group_over_the_window_accepted() {
        let s = Sample {
            accepted: 1_000,
            cpu_ms: [("pigeon-http".into(), 40.0), ("pigeon-work".into(), 60.0)].into(),
            ..Sample::default()
        };
        assert_eq!(s.cpu_us_per_message(), Some(100.0));
        assert_eq!(Sample { accepted: 0, ..s.clone() }.cpu_us_per_message(), None);
        assert_eq!(Sample { cpu_ms: BTreeMap::new(), ..s }.cpu_us_per_message(), None);
    }

    #[test]
    fn the_probe_measures_something() {
        let us = probe();
        assert!(us > 1.0 && us < 1e6, "{us}");
    }
}

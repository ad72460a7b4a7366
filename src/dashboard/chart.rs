//! The Overview's chart: sent, delivered and failed per hour over the last 24 hours, as inline
//! SVG drawn on the server (no script). Each series has its own fill pattern as well as its own
//! colour, so the chart reads without colour, and the same numbers follow in a table.

use maud::{html, Markup};
use pigeon_actors::storage::HourCounts;

/// The plot's size in SVG units; the element scales to the page's width.
const WIDTH: f64 = 720.0;
const HEIGHT: f64 = 180.0;
/// Room for the axis labels.
const LEFT: f64 = 44.0;
const BOTTOM: f64 = 22.0;
const TOP: f64 = 8.0;

/// The series: name, and the fill (a pattern id).
const SERIES: [(&str, &str); 3] = [("sent", "p-sent"), ("delivered", "p-delivered"), ("failed", "p-failed")];

fn values(h: &HourCounts) -> [u64; 3] {
    [h.sent, h.delivered, h.failed]
}

/// The smallest 1, 2 or 5 times a power of ten at or above `max` (the y axis' top).
fn axis_top(max: u64) -> u64 {
    let mut step = 1;
    loop {
        for m in [1, 2, 5] {
            if step * m >= max {
                return step * m;
            }
        }
        step *= 10;
    }
}

/// `hours` oldest first, as [`pigeon_actors::TenantReads::last_day`] gives them.
pub(super) fn last_day(hours: &[HourCounts]) -> Markup {
    let max = hours.iter().flat_map(values).max().unwrap_or(0);
    let top = axis_top(max.max(1));
    let plot_h = HEIGHT - BOTTOM - TOP;
    let group = (WIDTH - LEFT) / hours.len().max(1) as f64;
    let bar = (group - 4.0) / 3.0;
    let y = |v: u64| TOP + plot_h - plot_h * v as f64 / top as f64;
    let total: [u64; 3] = hours.iter().fold([0; 3], |acc, h| {
        let v = values(h);
        [acc[0] + v[0], acc[1] + v[1], acc[2] + v[2]]
    });
    html! {
        figure.chart {
            svg role="img" aria-labelledby="chart-title" viewBox={ "0 0 " (WIDTH) " " (HEIGHT) }
                width="100%" preserveAspectRatio="xMinYMin meet" {
                title id="chart-title" {
                    "Messages per hour, last 24 hours: " (total[0]) " sent, " (total[1]) " delivered, " (total[2]) " failed"
                }
                defs {
                    pattern id="p-sent" width="4" height="4" patternUnits="userSpaceOnUse" {
                        rect width="4" height="4" fill="#1d3557" {}
                    }
                    pattern id="p-delivered" width="6" height="6" patternUnits="userSpaceOnUse" patternTransform="rotate(45)" {
                        rect width="6" height="6" fill="#2a9d8f" {}
                        line x1="0" y1="0" x2="0" y2="6" stroke="#fff" stroke-width="2" {}
                    }
                    pattern id="p-failed" width="5" height="5" patternUnits="userSpaceOnUse" {
                        rect width="5" height="5" fill="#b00020" {}
                        circle cx="2.5" cy="2.5" r="1.2" fill="#fff" {}
                    }
                }
                @for tick in [0, top / 2, top].into_iter().filter(|t| *t == 0 || *t * 2 >= top) {
                    line x1=(LEFT) x2=(WIDTH) y1=(y(tick)) y2=(y(tick)) stroke="#ccc" {}
                    text x=(LEFT - 4.0) y=(y(tick) + 4.0) text-anchor="end" font-size="11" { (tick) }
                }
                @for (i, h) in hours.iter().enumerate() {
                    @let x0 = LEFT + group * i as f64 + 2.0;
                    @for (j, v) in values(h).into_iter().enumerate() {
                        @if v > 0 {
                            rect x=(x0 + bar * j as f64) y=(y(v)) width=(bar) height=(TOP + plot_h - y(v))
                                fill={ "url(#" (SERIES[j].1) ")" } stroke="#333" stroke-width="0.5"
                                data-series=(SERIES[j].0) data-count=(v) {
                                title { (hour_label(h.hour)) " UTC: " (v) " " (SERIES[j].0) }
                            }
                        }
                    }
                    @if i % 3 == 0 {
                        text x=(x0) y=(HEIGHT - 6.0) font-size="11" { (hour_label(h.hour)) }
                    }
                }
            }
            figcaption {
                @for (name, fill) in SERIES {
                    span.legend {
                        svg width="14" height="14" aria-hidden="true" {
                            rect width="14" height="14" fill={ "url(#" (fill) ")" } stroke="#333" {}
                        }
                        " " (name)
                    }
                }
                " · per hour, UTC"
            }
        }
        details {
            summary { "The numbers" }
            table {
                tr { th scope="col" { "Hour (UTC)" } th scope="col" { "Sent" } th scope="col" { "Delivered" } th scope="col" { "Failed" } }
                @for h in hours.iter().rev() {
                    tr { td { (day_and_hour(h.hour)) } td { (h.sent) } td { (h.delivered) } td { (h.failed) } }
                }
            }
        }
    }
}

fn hour_label(hour: u64) -> String {
    format!("{:02}:00", hour % 24)
}

/// `2026-11-22 14:00`: the table's rows span two dates.
fn day_and_hour(hour: u64) -> String {
    chrono::DateTime::from_timestamp(hour as i64 * 3600, 0)
        .map(|t| t.format("%Y-%m-%d %H:00").to_string())
        .unwrap_or_else(|| hour_label(hour))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_axis_ends_on_a_round_number() {
        assert_eq!([1, 2, 3, 7, 10, 11, 480, 501].map(axis_top), [1, 2, 5, 10, 10, 20, 500, 1000]);
    }

    #[test]
    fn bars_are_drawn_to_scale_and_only_where_something_happened() {
        let mut hours: Vec<HourCounts> =
            (0..24).map(|i| HourCounts { hour: 1000 + i, ..Default::default() }).collect();
        hours[23] = HourCounts { hour: 1023, sent: 10, delivered: 5, failed: 0 };
        let svg = last_day(&hours).into_string();
        assert_eq!(svg.matches("data-series=").count(), 2);
        // 10 is the axis top: the full plot height (180 - 22 - 8); 5 is half of it.
        assert!(svg.contains(r#"height="150" fill="url(#p-sent)""#), "{svg}");
        assert!(svg.contains(r#"height="75" fill="url(#p-delivered)""#), "{svg}");
        assert!(svg.contains("15:00 UTC: 10 sent"));
    }
}

//! Media uploads: 100 files of 5 MB over 20 keep-alive connections to the bench-built server on
//! sled, against `dd` writing the same bytes (100 files of 5 MB, each with `conv=fsync`) in the
//! same directory's file system; the server's peak RSS meanwhile. Every file differs (its bytes
//! are kept by hash, so repeats would be stored once and cost nothing).
//!
//! `cargo bench --bench media [-- FILES CONNECTIONS MB]`. The figures go in docs/performance.md;
//! nothing here asserts a speed.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::Command;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

const ADMIN: &str = "svc_admin_media_bench_token_0123456789";

/// One request on a kept-alive connection; the status and body of its answer.
fn request(conn: &mut BufReader<TcpStream>, head: &str, body: &[u8]) -> (u16, Vec<u8>) {
    let s = conn.get_mut();
    s.write_all(head.as_bytes()).unwrap();
    s.write_all(body).unwrap();
    let mut line = String::new();
    conn.read_line(&mut line).unwrap();
    let status: u16 = line.split_whitespace().nth(1).and_then(|c| c.parse().ok()).expect("a status line");
    let mut length = 0;
    loop {
        line.clear();
        conn.read_line(&mut line).unwrap();
        if line == "\r\n" {
            break;
        }
        if let Some((k, v)) = line.split_once(':') {
            if k.eq_ignore_ascii_case("content-length") {
                length = v.trim().parse().unwrap();
            }
        }
    }
    let mut answer = vec![0; length];
    conn.read_exact(&mut answer).unwrap();
    (status, answer)
}

fn connect(addr: &str) -> BufReader<TcpStream> {
    BufReader::new(TcpStream::connect(addr).unwrap())
}

fn rss_kib(pid: u32) -> u64 {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).unwrap_or_default();
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmRSS:"))
        .and_then(|v| v.split_whitespace().next()?.parse().ok())
        .unwrap_or(0)
}

fn main() {
    let args: Vec<usize> = std::env::args().skip(1).filter_map(|a| a.parse().ok()).collect();
    let files = args.first().copied().unwrap_or(100);
    let conns = args.get(1).copied().unwrap_or(20);
    let size = args.get(2).copied().unwrap_or(5) * 1_000_000;
    let dir = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_pigeon"));
    cmd.args(["serve", "--addr", "127.0.0.1:0", "--log", "warn"])
        .env("PIGEON_DATA_DIR", dir.path().join("data"))
        .env("PIGEON_ADMIN_TOKEN", ADMIN);
    let mut server = pigeon_loadtest::server::spawn_listening(cmd).expect("server starts");
    let pid = server.child.id();
    let addr = server.url.trim_start_matches("http://").to_owned();

    let tenant = br#"{"name": "media bench", "plan": "scale"}"#;
    let head = format!(
        "POST /admin/v1/tenants HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {ADMIN}\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\n\r\n",
        tenant.len()
    );
    let (status, answer) = request(&mut connect(&addr), &head, tenant);
    assert_eq!(status, 201, "{}", String::from_utf8_lossy(&answer));
    let answer: serde_json::Value = serde_json::from_slice(&answer).unwrap();
    let key = answer["data"]["keys"]["live"]["key"].as_str().unwrap().to_owned();

    let (peak, done) = (Arc::new(AtomicU64::new(0)), Arc::new(AtomicBool::new(false)));
    let sampler = {
        let (peak, done) = (peak.clone(), done.clone());
        std::thread::spawn(move || {
            while !done.load(Ordering::Relaxed) {
                peak.fetch_max(rss_kib(pid), Ordering::Relaxed);
                std::thread::sleep(Duration::from_millis(20));
            }
        })
    };
    let idle = rss_kib(pid);
    let next = Arc::new(AtomicU64::new(0));
    let started = Instant::now();
    let workers: Vec<_> = (0..conns)
        .map(|_| {
            let (addr, key, next) = (addr.clone(), key.clone(), next.clone());
            std::thread::spawn(move || {
                let mut conn = connect(&addr);
                let mut body = vec![0u8; size];
                body[..8].copy_from_slice(b"\x89PNG\r\n\x1a\n");
                let head = format!(
                    "POST /v1/media HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {key}\r\n\
                     Content-Type: image/png\r\nContent-Length: {size}\r\n\r\n"
                );
                loop {
                    let n = next.fetch_add(1, Ordering::Relaxed);
                    if n >= files as u64 {
                        return;
                    }
                    // Each file its own bytes: a counter in its first block and one in every MB.
                    for at in (8..size).step_by(1_000_000) {
                        body[at..at + 8].copy_from_slice(&n.to_be_bytes());
                    }
                    let (status, answer) = request(&mut conn, &head, &body);
                    assert_eq!(status, 201, "{}", String::from_utf8_lossy(&answer));
                }
            })
        })
        .collect();
    for w in workers {
        w.join().unwrap();
    }
    let took = started.elapsed();
    done.store(true, Ordering::Relaxed);
    sampler.join().unwrap();
    // `Spawned` leaves its process running: stop it before dd has the disk.
    let _ = server.child.kill();
    let _ = server.child.wait();

    // dd: the same bytes, one file at a time, each synced.
    let dd_dir = dir.path().join("dd");
    std::fs::create_dir(&dd_dir).unwrap();
    let dd_started = Instant::now();
    for n in 0..files {
        let ok = Command::new("dd")
            .args([
                "if=/dev/zero",
                &format!("of={}/f{n}", dd_dir.display()),
                &format!("bs={size}"),
                "count=1",
            ])
            .arg("conv=fsync")
            .stderr(std::process::Stdio::null())
            .status()
            .is_ok_and(|s| s.success());
        assert!(ok, "dd runs");
    }
    let dd = dd_started.elapsed();
    let mb = (files * size) as f64 / 1e6;
    println!("files {files} × {} MB over {conns} connections ({mb:.0} MB)", size / 1_000_000);
    println!("pigeon: {:.2} s, {:.0} MB/s", took.as_secs_f64(), mb / took.as_secs_f64());
    println!("dd:     {:.2} s, {:.0} MB/s", dd.as_secs_f64(), mb / dd.as_secs_f64());
    println!("pigeon's time / dd's: {:.2}", took.as_secs_f64() / dd.as_secs_f64());
    println!(
        "server RSS: {:.0} MiB idle, {:.0} MiB peak",
        idle as f64 / 1024.0,
        peak.load(Ordering::Relaxed) as f64 / 1024.0
    );
}

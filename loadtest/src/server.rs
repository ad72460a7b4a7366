//! Starting `pigeon serve` as a child process and reading the address it listens on: the harness
//! starts its own server this way, and the black-box tests the real binary.

use std::io::{BufRead, BufReader};
use std::process::{Child, Command, Stdio};
use std::time::Instant;

/// A started server process.
pub struct Spawned {
    /// The process.
    pub child: Child,
    /// `http://127.0.0.1:PORT`, from its "listening" line.
    pub url: String,
    /// What it printed to stdout before that line (a generated token, the demo's keys).
    pub stdout: Vec<String>,
}

/// Spawns `cmd` (a `pigeon serve` with its flags) with stdout piped, and waits for the line that
/// says where it listens.
pub fn spawn_listening(mut cmd: Command) -> Result<Spawned, String> {
    let mut child =
        cmd.stdout(Stdio::piped()).spawn().map_err(|e| format!("cannot start the server: {e}"))?;
    let stdout = child.stdout.take().expect("piped");
    let mut lines = Vec::new();
    for line in BufReader::new(stdout).lines() {
        let line = line.map_err(|e| e.to_string())?;
        if let Some(url) = line.strip_prefix("pigeon listening on ") {
            return Ok(Spawned { child, url: url.to_owned(), stdout: lines });
        }
        lines.push(line);
    }
    let _ = child.kill();
    let _ = child.wait();
    Err("the server exited before listening".into())
}

/// A server this command started, killed when dropped.
pub(crate) struct OwnServer {
    child: Child,
    dir: tempfile::TempDir,
    token: String,
}

impl Drop for OwnServer {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl OwnServer {
    pub(crate) fn rss_mib(&self) -> Option<f64> {
        rss_mib(self.child.id())
    }

    pub(crate) fn pid(&self) -> u32 {
        self.child.id()
    }
}

pub(crate) fn start_server(token: &str) -> Result<(OwnServer, String), String> {
    let dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let (child, url) = spawn_server(dir.path(), token)?;
    Ok((OwnServer { child, dir, token: token.to_owned() }, url))
}

impl OwnServer {
    /// SIGKILL, then the same data dir again; returns the new URL and when the process started.
    pub(crate) fn kill_and_restart(&mut self) -> Result<(String, Instant), String> {
        let _ = self.child.kill();
        let _ = self.child.wait();
        let started = Instant::now();
        let (child, url) = spawn_server(self.dir.path(), &self.token)?;
        self.child = child;
        Ok((url, started))
    }
}

fn spawn_server(dir: &std::path::Path, token: &str) -> Result<(Child, String), String> {
    let exe = std::env::current_exe().map_err(|e| e.to_string())?;
    let mut cmd = Command::new(exe);
    cmd.args(["serve", "--addr", "127.0.0.1:0", "--bench-routes", "--webhook-allow-private"])
        .env("PIGEON_DATA_DIR", dir)
        .env("PIGEON_ADMIN_TOKEN", token)
        .env("PIGEON_LOG", "warn")
        .stderr(Stdio::inherit());
    let s = spawn_listening(cmd)?;
    Ok((s.child, s.url))
}

/// The server's resident memory, MiB.
pub(crate) fn rss_mib(pid: u32) -> Option<f64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kb: f64 =
        status.lines().find(|l| l.starts_with("VmRSS:"))?.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024.0)
}

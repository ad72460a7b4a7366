//! A throwaway PostgreSQL cluster for tests, from the machine's PostgreSQL binaries (Debian's
//! `postgresql` package): one cluster per test process, started on first use in a temporary
//! directory on a free loopback port with trust authentication, and a fresh database per call of
//! [`database_url`]. PostgreSQL refuses to run as root, so under root the cluster runs as the
//! `postgres` user the package creates. A watchdog shell stops the cluster and removes its
//! directory once the test process is gone, however it ended. A test that stops and starts the
//! database starts a [`Cluster`] of its own.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::OnceLock;

/// A PostgreSQL cluster of this test process.
pub struct Cluster {
    bin: PathBuf,
    port: u16,
    as_postgres: bool,
    data: PathBuf,
    opts: String,
}

static SHARED: OnceLock<Cluster> = OnceLock::new();
static DATABASES: AtomicUsize = AtomicUsize::new(0);
static CLUSTERS: AtomicUsize = AtomicUsize::new(0);

/// The newest `/usr/lib/postgresql/<version>/bin`, or `PIGEON_PG_BIN`.
fn bin_dir() -> PathBuf {
    find_bin_dir().expect("PostgreSQL's server binaries (Debian's `postgresql` package) or PIGEON_PG_BIN")
}

fn find_bin_dir() -> Option<PathBuf> {
    if let Some(dir) = std::env::var_os("PIGEON_PG_BIN") {
        return Some(dir.into());
    }
    let mut versions: Vec<(u32, PathBuf)> = std::fs::read_dir("/usr/lib/postgresql")
        .into_iter()
        .flatten()
        .flatten()
        .filter_map(|e| Some((e.file_name().to_str()?.parse().ok()?, e.path().join("bin"))))
        .filter(|(_, p): &(u32, PathBuf)| p.join("initdb").exists())
        .collect();
    versions.sort();
    versions.pop().map(|(_, p)| p)
}

/// Whether the PostgreSQL half of the tests can run. Without PostgreSQL's server binaries it says
/// so once and the callers skip that half, unless `PIGEON_REQUIRE_POSTGRES` is set (`.ci/run`
/// sets it), where a missing PostgreSQL fails the test instead.
pub fn available() -> bool {
    static SAID: std::sync::Once = std::sync::Once::new();
    if find_bin_dir().is_some() {
        return true;
    }
    assert!(
        std::env::var_os("PIGEON_REQUIRE_POSTGRES").is_none(),
        "PIGEON_REQUIRE_POSTGRES is set and PostgreSQL's server binaries are missing \
         (apt-get install postgresql, or PIGEON_PG_BIN=<its bin directory>)"
    );
    // Past the test harness's capture (it takes only `eprintln!`), so a passing run shows it.
    SAID.call_once(|| {
        use std::io::Write;
        let _ = writeln!(
            std::io::stderr(),
            "PostgreSQL is not installed (apt-get install postgresql, or PIGEON_PG_BIN): \
             the PostgreSQL half of the tests is skipped"
        );
    });
    false
}

fn is_root() -> bool {
    use std::os::unix::fs::MetadataExt;
    std::fs::metadata("/proc/self").map(|m| m.uid() == 0).unwrap_or(false)
}

/// Runs one of PostgreSQL's programs, as `postgres` when we are root.
fn pg(c: &Cluster, program: &str) -> Command {
    let path = c.bin.join(program);
    if c.as_postgres {
        let mut cmd = Command::new("runuser");
        cmd.args(["-u", "postgres", "--"]).arg(path);
        cmd
    } else {
        Command::new(path)
    }
}

fn checked(cmd: &mut Command, what: &str) {
    let out = cmd.stdin(Stdio::null()).output().unwrap_or_else(|e| panic!("{what}: {e}"));
    assert!(
        out.status.success(),
        "{what} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
}

fn free_port() -> u16 {
    std::net::TcpListener::bind("127.0.0.1:0").unwrap().local_addr().unwrap().port()
}

impl Cluster {
    /// A cluster of the test's own, for tests that stop and start it.
    pub fn start() -> Cluster {
        Self::start_with(false)
    }

    /// A cluster of the test's own that takes TLS connections, with a certificate for 127.0.0.1
    /// signed by an authority made for it (`openssl`): [`Cluster::ca_file`].
    pub fn start_with_tls() -> Cluster {
        Self::start_with(true)
    }

    /// The authority that signed a TLS cluster's certificate (PEM).
    pub fn ca_file(&self) -> PathBuf {
        self.data.with_file_name("ca.pem")
    }

    fn start_with(tls: bool) -> Cluster {
        let n = CLUSTERS.fetch_add(1, Ordering::Relaxed);
        let root = std::env::temp_dir().join(format!("pigeon-pg-{}-{n}", std::process::id()));
        let _ = std::fs::remove_dir_all(&root);
        std::fs::create_dir_all(&root).unwrap();
        let port = free_port();
        // Durability of the database itself is not what these tests test (they kill pigeon, not
        // PostgreSQL), so the cluster skips its fsyncs.
        let mut opts = format!(
            "-p {port} -k {} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off \
             -c max_connections=1000 -c shared_buffers=64MB",
            root.display()
        );
        if tls {
            certificates(&root);
            opts += &format!(
                " -c ssl=on -c ssl_cert_file={0}/server.crt -c ssl_key_file={0}/server.key",
                root.display()
            );
        }
        let c = Cluster { bin: bin_dir(), port, as_postgres: is_root(), data: root.join("data"), opts };
        if c.as_postgres {
            checked(
                Command::new("chown").args(["-R", "postgres:", root.to_str().unwrap()]),
                "chown of the cluster's directory",
            );
        }
        checked(
            pg(&c, "initdb")
                .args(["-A", "trust", "-U", "pigeon", "-E", "UTF8", "--locale=C", "--no-sync", "-D"])
                .arg(&c.data),
            "initdb",
        );
        watch(&root, &c.data);
        c.start_again();
        c
    }

    /// Starts the cluster (again), waiting until it takes connections.
    pub fn start_again(&self) {
        checked(
            pg(self, "pg_ctl")
                .args(["start", "-w", "-t", "60", "-D"])
                .arg(&self.data)
                .arg("-l")
                .arg(self.data.with_file_name("log"))
                .args(["-o", &self.opts]),
            "pg_ctl start",
        );
    }

    /// Stops the cluster at once (its clients' connections break), as the loss of the
    /// database's machine looks to them.
    pub fn stop(&self) {
        checked(
            pg(self, "pg_ctl").args(["stop", "-w", "-m", "immediate", "-D"]).arg(&self.data),
            "pg_ctl stop",
        );
    }

    /// The URL of a new, empty database on the cluster.
    pub fn database_url(&self) -> String {
        let name = format!("t{}_{}", std::process::id(), DATABASES.fetch_add(1, Ordering::Relaxed));
        checked(
            pg(self, "createdb").args([
                "-h",
                "127.0.0.1",
                "-p",
                &self.port.to_string(),
                "-U",
                "pigeon",
                &name,
            ]),
            "createdb",
        );
        format!("postgres://pigeon@127.0.0.1:{}/{name}", self.port)
    }
}

/// An authority and a certificate for 127.0.0.1 it signed, in `dir` (`ca.pem`, `server.crt`,
/// `server.key`), valid for two days from now.
fn certificates(dir: &Path) {
    let sh = r#"set -e
cd "$1"
openssl req -x509 -newkey rsa:2048 -nodes -keyout ca.key -out ca.pem -days 2 -subj /CN=pigeon-test-ca
openssl req -newkey rsa:2048 -nodes -keyout server.key -out server.csr -subj /CN=127.0.0.1
printf 'subjectAltName=IP:127.0.0.1\nbasicConstraints=CA:FALSE\n' > ext.cnf
openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -out server.crt -days 2 -extfile ext.cnf
chmod 600 server.key"#;
    checked(Command::new("sh").args(["-c", sh, "certificates"]).arg(dir), "openssl (test certificates)");
}

/// Stops the cluster and removes its directory once this process has ended: a shell left in
/// the background (the one started here returns at once).
fn watch(root: &Path, data: &Path) {
    let script = r#"(while kill -0 "$1" 2>/dev/null; do sleep 1; done
kill -QUIT "$(head -n 1 "$2/postmaster.pid")" 2>/dev/null
sleep 1
rm -rf "$3") &"#;
    Command::new("sh")
        .args(["-c", script, "pigeon-pg-watchdog"])
        .arg(std::process::id().to_string())
        .arg(data)
        .arg(root)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .expect("the cluster's watchdog");
}

/// The URL of a new, empty database on the cluster this process's tests share (started on
/// first use).
pub fn database_url() -> String {
    SHARED.get_or_init(Cluster::start).database_url()
}

/// Runs `sql` on the database at `url` with PostgreSQL's `psql`; panics when it fails.
pub fn psql(url: &str, sql: &str) {
    psql_output(url, sql);
}

/// The same, and what it printed (unaligned, tuples only).
pub fn psql_output(url: &str, sql: &str) -> String {
    let mut cmd = Command::new(bin_dir().join("psql"));
    cmd.args([url, "-v", "ON_ERROR_STOP=1", "-Atc", sql]);
    let out = cmd.stdin(Stdio::null()).output().expect("psql");
    assert!(out.status.success(), "psql failed: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout).into_owned()
}

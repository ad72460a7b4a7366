//! The `pigeon` command.

use std::net::TcpListener;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};
use pigeon::clock::SystemClock;
use pigeon::config::Settings;
use pigeon::startup::Application;
use pigeon::telemetry::{self, LogFormat};
use pigeon_actors::webhook::PrivateNetworks;
use pigeon_actors::Demo;

/// mimalloc instead of glibc's malloc: under load the server spent about a fifth of its CPU in
/// glibc's allocator, much of it on arena locks between the actor and HTTP threads.
#[global_allocator]
static GLOBAL: mimalloc::MiMalloc = mimalloc::MiMalloc;

/// `println!` that survives a closed stdout: a node restarted after a full disk prints its
/// banner again, and whoever read the first one may be gone.
macro_rules! say {
    ($($t:tt)*) => {{
        use std::io::Write;
        let _ = writeln!(std::io::stdout(), $($t)*);
    }};
}

#[derive(Parser)]
#[command(name = "pigeon", version, about = "Multi-tenant messaging API and routing engine")]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Run the server.
    Serve(ServeArgs),
    /// Load-test a server (by default one started on a temp data dir) and report.
    Loadtest(pigeon_loadtest::LoadArgs),
    /// Copy a stopped node's store into a fresh one, giving back the disk space deletions freed.
    Compact(CompactArgs),
    /// Save a backup of a running node (sled) into a file: a tar archive of its store.
    Backup(BackupArgs),
    /// Unpack a backup into a new or empty data directory, for a node to start on.
    Restore(RestoreArgs),
    /// Copy a stopped node's sled store into an empty PostgreSQL database.
    Migrate(MigrateArgs),
    /// Run a phone's agent: take its jobs from a node and send them with a connector.
    Agent(AgentCli),
    /// Print the OpenAPI 3.1 document the server serves at `/openapi.json`, for client generators.
    Openapi,
}

#[derive(Args)]
struct AgentCli {
    #[command(flatten)]
    agent: pigeon_agent::AgentArgs,
    /// Log filter, e.g. `info` or `pigeon_agent=debug`.
    #[arg(long, env = "PIGEON_AGENT_LOG", default_value = "info", global = true)]
    log: String,
}

#[derive(Args)]
struct CompactArgs {
    /// Directory of the sled store (the node must be stopped).
    #[arg(long, env = "PIGEON_DATA_DIR", default_value = "./pigeon-data")]
    data_dir: PathBuf,
}

#[derive(Args)]
struct BackupArgs {
    /// The node, e.g. `http://127.0.0.1:8080`.
    #[arg(long, env = "PIGEON_SERVER")]
    server: String,
    /// The node's operator token.
    #[arg(long, env = "PIGEON_ADMIN_TOKEN", hide_env_values = true)]
    admin_token: String,
    /// The archive to write (replaced only once the new one is whole).
    #[arg(long)]
    out: PathBuf,
    /// PEM file of CA certificates to trust beside the system's (a node with a private CA).
    #[arg(long, env = "PIGEON_CA_FILE")]
    ca_file: Option<PathBuf>,
}

#[derive(Args)]
struct RestoreArgs {
    /// The archive `pigeon backup` saved.
    file: PathBuf,
    /// The data directory to make: it must not exist yet, or be empty.
    #[arg(long, env = "PIGEON_DATA_DIR")]
    data_dir: PathBuf,
}

#[derive(Args)]
struct MigrateArgs {
    /// Directory of the sled store (the node must be stopped).
    #[arg(long, env = "PIGEON_DATA_DIR", default_value = "./pigeon-data")]
    data_dir: PathBuf,
    /// The PostgreSQL database to fill, e.g. `postgres://pigeon:secret@db/pigeon`: it must hold
    /// no pigeon data yet.
    #[arg(long, hide_env_values = true)]
    to: String,
}

#[derive(Args)]
struct ServeArgs {
    /// Address to listen on: `HOST:PORT`, the host an IP address or a name (`localhost:8080`;
    /// the first of its addresses that can be bound is used).
    #[arg(long, env = "PIGEON_ADDR", default_value = "127.0.0.1:8080", value_parser = listen_addr)]
    addr: String,
    /// Directory of the sled store (not used with `--database-url`).
    #[arg(long, env = "PIGEON_DATA_DIR", default_value = "./pigeon-data")]
    data_dir: PathBuf,
    /// Keep everything in this PostgreSQL database instead of the sled directory, e.g.
    /// `postgres://pigeon:secret@db.example.com/pigeon` (the schema is made and migrated at start).
    #[arg(long, env = "PIGEON_DATABASE_URL", hide_env_values = true)]
    database_url: Option<String>,
    /// Connections to the PostgreSQL database: commits and reads share them.
    #[arg(long, env = "PIGEON_DATABASE_POOL", default_value_t = 8, value_parser = clap::value_parser!(u16).range(1..=256))]
    database_pool: u16,
    /// With `--database-url`, how long a node's lease on a tenant lasts unrenewed: when a node
    /// dies, its tenants move to the others after at most this long. Renewed every third of it.
    #[arg(long, env = "PIGEON_LEASE", default_value = "5s", value_parser = lease)]
    lease: std::time::Duration,
    /// With `--database-url`, the URL the other nodes of the fleet forward this node's tenants'
    /// requests to (default: `http://` and `--addr`).
    #[arg(long, env = "PIGEON_ADVERTISE_URL")]
    advertise_url: Option<String>,
    /// With `--database-url`, have the database to this node alone, as a sled directory: no
    /// leases, forwarding or fencing; no other node (of a fleet, or on its own) may use it.
    #[arg(long, env = "PIGEON_SINGLE_NODE", requires = "database_url", conflicts_with = "advertise_url")]
    single_node: bool,
    /// Operator token, at least 24 characters; when unset (or empty) on a fresh store one is
    /// generated and printed once.
    #[arg(long, env = "PIGEON_ADMIN_TOKEN", hide_env_values = true)]
    admin_token: Option<String>,
    /// Webhook URLs that may resolve to non-public addresses: `false`; `true` (loopback and
    /// private ranges, never link-local, where cloud metadata answers); or a comma-separated
    /// list of CIDRs that alone are allowed, e.g. `10.1.0.0/16,fd00::/8`.
    #[arg(long, env = "PIGEON_WEBHOOK_ALLOW_PRIVATE", default_value = "false", num_args = 0..=1,
          default_missing_value = "true", value_parser = private_networks)]
    webhook_allow_private: PrivateNetworks,
    /// Also create, once, a demo tenant with two simulated phones, allow private webhook URLs,
    /// and print its keys and a ready `curl` line.
    #[arg(long, env = "PIGEON_DEMO")]
    demo: bool,
    /// Serve `POST /bench/noop`, the load harness's baseline route.
    #[arg(long, env = "PIGEON_BENCH_ROUTES")]
    bench_routes: bool,
    /// HTTP worker threads (default: half the cores, at least one).
    #[arg(long, env = "PIGEON_WORKERS")]
    workers: Option<usize>,
    /// How long final messages and settled webhook deliveries are kept: `30d`, `12h`, `10m`,
    /// `5s`, or combinations like `1h 30m`.
    #[arg(long, env = "PIGEON_RETENTION", default_value = "30d", value_parser = humantime::parse_duration)]
    retention: std::time::Duration,
    /// Stop a tenant's actors once it has had no work this long (they start again on its next
    /// call, from the store): `10m`, `30s`, …
    #[arg(long, env = "PIGEON_ACTOR_IDLE", default_value = "10m", value_parser = humantime::parse_duration)]
    actor_idle: std::time::Duration,
    /// Sends in the accept path at once, at most; past the bound (under a flood, what the node
    /// answers in 15 ms, if fewer) the next is refused at once with 503 `OVERLOADED` and
    /// `Retry-After`, instead of queueing.
    #[arg(long, env = "PIGEON_MAX_PENDING_SENDS", default_value_t = pigeon::server::overload::DEFAULT_MAX_PENDING_SENDS)]
    max_pending_sends: usize,
    /// The shortest time between two group commits' flushes while sends arrive together: longer
    /// saves CPU (each flush costs the same whatever it carries) for a little latency; `0`
    /// flushes again as soon as the last flush ends.
    #[arg(long, env = "PIGEON_MIN_FLUSH_INTERVAL", default_value = "1ms", value_parser = humantime::parse_duration)]
    min_flush_interval: std::time::Duration,
    /// Page cache of the store, MiB: most of the server's memory.
    #[arg(long, env = "PIGEON_CACHE_MB", default_value_t = pigeon_actors::storage::DEFAULT_CACHE_MB)]
    cache_mb: u64,
    /// Identity provider: its JWKS URL (RS256, ES256, EdDSA keys by `kid`).
    #[arg(long, env = "PIGEON_JWT_JWKS_URL", group = "jwt_key")]
    jwt_jwks_url: Option<String>,
    /// Identity provider: a file holding its one public key, PEM (RSA, EC P-256 or Ed25519).
    #[arg(long, env = "PIGEON_JWT_PUBLIC_KEY_FILE", group = "jwt_key")]
    jwt_public_key_file: Option<PathBuf>,
    /// Identity provider: its shared HS256 secret.
    #[arg(long, env = "PIGEON_JWT_HS256_SECRET", group = "jwt_key", hide_env_values = true)]
    jwt_hs256_secret: Option<String>,
    /// Identity provider: the `iss` its tokens must carry.
    #[arg(long, env = "PIGEON_JWT_ISSUER")]
    jwt_issuer: Option<String>,
    /// Identity provider: the `aud` its tokens must carry.
    #[arg(long, env = "PIGEON_JWT_AUDIENCE")]
    jwt_audience: Option<String>,
    /// Identity provider: the claim that holds the pigeon tenant id.
    #[arg(long, env = "PIGEON_JWT_TENANT_CLAIM", default_value = "tenant_id")]
    jwt_tenant_claim: String,
    /// Where clients reach the node, e.g. `https://sms.example.com`; https makes the dashboard's
    /// session cookie `Secure`.
    #[arg(long, env = "PIGEON_PUBLIC_URL")]
    public_url: Option<String>,
    /// The largest media upload, in bytes (25 MiB by default).
    #[arg(long, env = "PIGEON_MEDIA_MAX_BYTES", default_value_t = pigeon_actors::media::DEFAULT_MAX_BYTES,
        value_parser = clap::value_parser!(u64).range(1..))]
    media_max_bytes: u64,
    /// Serve HTTPS: the certificate chain, PEM, the node's own certificate first.
    #[arg(long, env = "PIGEON_TLS_CERT", requires = "tls_key")]
    tls_cert: Option<PathBuf>,
    /// Serve HTTPS: the certificate's private key, PEM (PKCS#8, PKCS#1 or SEC1).
    #[arg(long, env = "PIGEON_TLS_KEY", requires = "tls_cert")]
    tls_key: Option<PathBuf>,
    /// Log filter, e.g. `info` or `pigeon=debug,actix_web=warn`.
    #[arg(long, env = "PIGEON_LOG", default_value = "info")]
    log: String,
    /// Log format.
    #[arg(long, env = "PIGEON_LOG_FORMAT", value_enum, default_value = "text")]
    log_format: LogFormat,
}

/// Prints what a store command did, or why it failed (exit 1).
fn done(command: &str, res: Result<String, String>) -> ExitCode {
    match res {
        Ok(said) => {
            say!("{said}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("pigeon {command}: {e}");
            ExitCode::FAILURE
        }
    }
}

fn main() -> ExitCode {
    let cli = Cli::parse();
    // Files the node makes (the store's segments, snapshots, blobs) are its own alone: they hold
    // webhook secrets, message bodies and numbers (the data directory itself: `storage::private`).
    #[cfg(unix)]
    rustix::process::umask(rustix::fs::Mode::from_raw_mode(0o077));
    match cli.command {
        Command::Loadtest(args) => {
            let json = args.json.clone();
            match actix_web::rt::System::new().block_on(pigeon_loadtest::run(args)) {
                Ok(report) => {
                    print!("{}", pigeon_loadtest::table(&report));
                    if let Some(path) = json {
                        if let Err(e) = pigeon_loadtest::write_files(&report, &path) {
                            eprintln!("pigeon loadtest: {e}");
                            return ExitCode::FAILURE;
                        }
                    }
                    ExitCode::SUCCESS
                }
                Err(e) => {
                    eprintln!("pigeon loadtest: {e}");
                    ExitCode::FAILURE
                }
            }
        }
        Command::Compact(args) => match pigeon_actors::storage::compact(&args.data_dir) {
            Ok(c) => {
                let mib = |b: u64| b as f64 / (1024.0 * 1024.0);
                if c.swapped {
                    println!(
                        "compacted {}: {:.1} MiB -> {:.1} MiB, {} records, {:.1} s",
                        args.data_dir.display(),
                        mib(c.before),
                        mib(c.after),
                        c.records,
                        c.took.as_secs_f64()
                    );
                } else {
                    println!(
                        "kept {} as it was: {:.1} MiB, and a copy of its {} records took {:.1} MiB",
                        args.data_dir.display(),
                        mib(c.before),
                        c.records,
                        mib(c.after)
                    );
                }
                ExitCode::SUCCESS
            }
            Err(e) => {
                eprintln!("pigeon compact: {e}");
                ExitCode::FAILURE
            }
        },
        Command::Backup(a) => {
            done("backup", pigeon::operate::backup(&a.server, &a.admin_token, &a.out, a.ca_file.as_deref()))
        }
        Command::Restore(a) => done("restore", pigeon::operate::restore(&a.file, &a.data_dir)),
        Command::Migrate(a) => done("migrate", pigeon::operate::migrate(&a.data_dir, &a.to)),
        Command::Agent(a) => {
            telemetry::init(&a.log, LogFormat::Text);
            pigeon_agent::main(a.agent)
        }
        Command::Openapi => {
            say!("{}", pigeon::routes::health::document());
            ExitCode::SUCCESS
        }
        Command::Serve(args) => {
            telemetry::init(&args.log, args.log_format);
            let tls = match (&args.tls_cert, &args.tls_key) {
                (Some(cert), Some(key)) => match pigeon::server::tls::server_config(cert, key) {
                    Ok(config) => Some(config),
                    Err(e) => {
                        eprintln!("pigeon: {e}");
                        return ExitCode::from(2);
                    }
                },
                _ => None,
            };
            match actix_web::rt::System::new().block_on(serve(args, tls)) {
                Ok(()) => ExitCode::SUCCESS,
                // A setting that cannot work: said plainly, nothing touched, exit 2 as for a bad flag.
                Err(e) if e.downcast_ref::<pigeon::startup::StartError>().is_some_and(|e| e.is_config()) => {
                    eprintln!("pigeon: {e}");
                    ExitCode::from(2)
                }
                Err(e) => {
                    tracing::error!(error = %e, "pigeon failed");
                    eprintln!("pigeon: {e}");
                    ExitCode::FAILURE
                }
            }
        }
    }
}

/// `HOST:PORT` that resolves (`std`'s own message says only "invalid socket address").
fn listen_addr(s: &str) -> Result<String, String> {
    use std::net::ToSocketAddrs;
    match s.to_socket_addrs().map(|mut found| found.next()) {
        Ok(Some(_)) => Ok(s.to_owned()),
        Ok(None) => Err(format!("{s} names no address")),
        Err(e) if s.rsplit_once(':').is_none_or(|(_, port)| port.parse::<u16>().is_err()) => {
            Err(format!("expected HOST:PORT, e.g. 127.0.0.1:8080 or localhost:8080 ({e})"))
        }
        Err(e) => Err(format!("cannot resolve {s}: {e}")),
    }
}

fn private_networks(s: &str) -> Result<PrivateNetworks, String> {
    s.parse()
}

/// A lease: a duration of at least a second (renewals run every third of it) and at most an hour.
fn lease(s: &str) -> Result<std::time::Duration, String> {
    let d = humantime::parse_duration(s).map_err(|e| e.to_string())?;
    if !(std::time::Duration::from_secs(1)..=std::time::Duration::from_secs(3600)).contains(&d) {
        return Err("a lease is between 1s and 1h".into());
    }
    Ok(d)
}

async fn serve(
    args: ServeArgs,
    tls: Option<std::sync::Arc<rustls::ServerConfig>>,
) -> Result<(), Box<dyn std::error::Error>> {
    let purge_delay_ms = pigeon::server::memory::tune_for_server();
    let listener = match pigeon::server::restart::inherited_listener() {
        Some(l) => l,
        None => TcpListener::bind(args.addr.as_str())
            .map_err(|e| format!("cannot listen on {}: {e}", args.addr))?,
    };
    let restart_fd = listener.try_clone()?;
    let addr = listener.local_addr()?;
    let identity = identity(&args)?;
    let settings = Settings {
        data_dir: args.data_dir,
        database: args.database_url.map(|url| pigeon::config::Database {
            lease: args.lease,
            advertise_url: args.advertise_url,
            single_node: args.single_node,
            ..pigeon::config::Database::new(url, args.database_pool.into())
        }),
        admin_token: args.admin_token,
        // The demo's receivers run beside it; link-local stays refused.
        webhook_allow_private: match args.webhook_allow_private {
            PrivateNetworks::Refused if args.demo => PrivateNetworks::Allowed,
            chosen => chosen,
        },
        workers: args.workers,
        demo: args.demo,
        bench_routes: args.bench_routes,
        cache_mb: args.cache_mb,
        min_flush_interval: args.min_flush_interval,
        retention: args.retention,
        actor_idle: args.actor_idle,
        identity,
        public_url: args.public_url,
        media_max_bytes: args.media_max_bytes,
        max_pending_sends: args.max_pending_sends,
        tls,
    };
    let scheme = if settings.tls.is_some() { "https" } else { "http" };
    let app = Application::build(settings, listener, SystemClock::shared()).await?;
    pigeon::server::restart::watch(app.engine().store_health(), restart_fd)?;
    if let Some(token) = app.generated_admin_token() {
        // Printed, never logged: the store keeps only its hash, so this is the one chance to copy it.
        say!("Operator token (shown once; only its hash is stored): {token}");
    }
    match app.demo() {
        Some(Demo::Created { tenant, phones }) => {
            let (id, live, test) = (&tenant.tenant.id, &tenant.live.key, &tenant.test.key);
            say!("Demo tenant \"demo\" ({id}), scale plan, sim phones {}.", phones.join(" and "));
            say!("  live key: {live}");
            say!("  test key: {test}");
            say!("Send a text (GET it a moment later to see it delivered):");
            say!(
                "  curl -s {scheme}://{addr}/v1/messages -H 'Authorization: Bearer {live}' \\\n    -H 'Content-Type: application/json' -d '{{\"to\": \"+14155550100\", \"body\": \"Hello from pigeon\"}}'"
            );
            say!("  curl -s {scheme}://{addr}/v1/messages/<message_id> -H 'Authorization: Bearer {live}'");
        }
        Some(Demo::Existing(id)) => {
            say!("Demo tenant exists ({id}); its keys were shown when it was made (only hashes are kept).");
        }
        None => {}
    }
    say!("pigeon listening on {scheme}://{addr}");
    tracing::info!(%addr, purge_delay_ms, "listening");
    app.run_until_stopped().await?;
    Ok(())
}

/// The identity provider of the `--jwt-*` flags, if one is configured.
fn identity(args: &ServeArgs) -> Result<Option<pigeon_actors::identity::IdentityConfig>, String> {
    use pigeon_actors::identity::{IdentityConfig, KeySource};
    let source = if let Some(url) = &args.jwt_jwks_url {
        KeySource::Jwks(url.clone())
    } else if let Some(file) = &args.jwt_public_key_file {
        let pem = std::fs::read_to_string(file)
            .map_err(|e| format!("cannot read PIGEON_JWT_PUBLIC_KEY_FILE {}: {e}", file.display()))?;
        KeySource::Pem(pem)
    } else if let Some(secret) = &args.jwt_hs256_secret {
        KeySource::Hs256(secret.clone())
    } else {
        return Ok(None);
    };
    Ok(Some(IdentityConfig {
        source,
        issuer: args.jwt_issuer.clone(),
        audience: args.jwt_audience.clone(),
        tenant_claim: args.jwt_tenant_claim.clone(),
    }))
}

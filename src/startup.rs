//! Start-up as a function of settings, a listener and a clock, so `main` and the tests build the
//! very same application.

use std::net::TcpListener;

use actix_web::dev::{Server, ServerHandle};
use actix_web::middleware::from_fn;
use actix_web::{web, App};
use pigeon_actors::clock::SharedClock;
use pigeon_actors::storage::Store;
use pigeon_actors::{Engine, EngineConfig};

use crate::config::Settings;
use crate::limits::MAX_BODY;
use crate::{edge, routes};

/// Why the server could not start.
#[derive(Debug, thiserror::Error)]
pub enum StartError {
    /// Filesystem or socket.
    #[error("{0}")]
    Io(#[from] std::io::Error),
    /// The store or the engine.
    #[error("{0}")]
    Engine(#[from] pigeon_actors::EngineError),
    /// Opening the store.
    #[error("{0}")]
    Store(#[from] pigeon_actors::storage::StoreError),
    /// A setting that cannot work (an operator token too short to be safe).
    #[error("{0}")]
    Config(String),
}

impl StartError {
    /// True for a setting the operator must change (a token too short, a data directory another
    /// process holds): nothing was started or written.
    pub fn is_config(&self) -> bool {
        matches!(
            self,
            StartError::Config(_) | StartError::Store(pigeon_actors::storage::StoreError::InUse { .. })
        )
    }
}

/// A built, not yet running, server.
pub struct Application {
    port: u16,
    server: Server,
    engine: Engine,
    generated_admin_token: Option<String>,
    demo: Option<pigeon_actors::Demo>,
}

impl Application {
    /// Opens the store, starts the engine, makes sure an operator token exists, and binds the
    /// HTTP server to `listener`. Must run inside an actix `System`.
    pub async fn build(
        settings: Settings,
        listener: TcpListener,
        clock: SharedClock,
    ) -> Result<Self, StartError> {
        // Before anything is opened: a refused token leaves the stored one as it was.
        pigeon_actors::check_admin_token(settings.admin_token.as_deref()).map_err(StartError::Config)?;
        // This node as others reach it when the operator names no public address.
        let own_url =
            format!("{}://{}", if settings.tls.is_some() { "https" } else { "http" }, listener.local_addr()?);
        let opening = std::time::Instant::now();
        let store = match &settings.database {
            Some(db) => {
                let fleet = match db.single_node {
                    true => None,
                    false => Some(pigeon_actors::storage::fleet::FleetConfig {
                        advertise_url: match &db.advertise_url {
                            Some(u) => u.trim_end_matches('/').to_owned(),
                            None => own_url.clone(),
                        },
                        lease: db.lease,
                        version: env!("CARGO_PKG_VERSION").into(),
                        home: Some(settings.data_dir.clone()),
                    }),
                };
                Store::open_postgres(&db.url, db.pool, settings.cache_mb, clock, fleet)?
            }
            None => {
                std::fs::create_dir_all(&settings.data_dir)?;
                pigeon_actors::storage::private::restrict_or_warn(&settings.data_dir);
                Store::open_with(&settings.data_dir, settings.cache_mb, clock)?
            }
        };
        let opened = opening.elapsed();
        store.set_min_flush_interval(settings.min_flush_interval);
        let backend = store.backend();
        // The recorder first: actors count from their first turn.
        crate::telemetry::metrics();
        let config = EngineConfig {
            webhook_allow_private: settings.webhook_allow_private.clone(),
            retention: settings.retention,
            actor_idle: settings.actor_idle,
            identity: settings.identity.clone(),
            media_base_url: match &settings.public_url {
                Some(u) => u.clone(),
                None => own_url,
            },
            ..EngineConfig::default()
        };
        let engine = Engine::start(store, config)?;
        let generated_admin_token = engine.ensure_admin_token(settings.admin_token.as_deref()).await?;
        tracing::info!(open_ms = opened.as_millis() as u64, backend, "store opened");
        // Work left by the last run is found on its own thread, so start-up (and `/readyz`) does
        // not wait for a large backlog: new sends are served meanwhile. A message both found here
        // and sent anew is harmless: a phone queues it once, older work first (`phone/recover.rs`),
        // and actors act only on a message still in the state they expect.
        let recovering = engine.clone();
        let held = test_recovery_delay();
        std::thread::Builder::new().name("pigeon-recover".into()).spawn(move || {
            if let Some(held) = held {
                std::thread::sleep(held);
            }
            let started = std::time::Instant::now();
            match recovering.recover() {
                Ok(n) => {
                    tracing::info!(resumed = n, ms = started.elapsed().as_millis() as u64, "recovery done")
                }
                Err(e) => tracing::error!(error = %e, "recovery failed; pending work waits for a restart"),
            }
        })?;
        let demo = if settings.demo { Some(engine.ensure_demo().await?) } else { None };
        let port = listener.local_addr()?.port();
        let data = web::Data::new(engine.clone());
        let bench = web::Data::new(crate::routes::health::BenchRoutes(settings.bench_routes));
        let gate = web::Data::from(crate::server::overload::Gate::new(settings.max_pending_sends));
        let secure = web::Data::new(crate::dashboard::SecureCookies(
            settings.tls.is_some()
                || settings.public_url.as_deref().is_some_and(|u| u.starts_with("https://")),
        ));
        let media = web::Data::new(crate::routes::media::MediaSettings {
            max_bytes: settings.media_max_bytes,
            allow_private: settings.webhook_allow_private.clone(),
        });
        let app = move || {
            App::new()
                .app_data(data.clone())
                .app_data(bench.clone())
                .app_data(gate.clone())
                .app_data(secure.clone())
                .app_data(media.clone())
                .app_data(web::PayloadConfig::new(MAX_BODY))
                .wrap(from_fn(crate::fleet::forward))
                .wrap(from_fn(edge::edge))
                .configure(routes::configure)
                .configure(crate::dashboard::configure)
                .default_service(web::to(routes::not_found))
        };
        let server = crate::server::serve(listener, settings.workers, settings.tls.clone(), app)?;
        Ok(Self { port, server, engine, generated_admin_token, demo })
    }

    /// The bound port.
    pub fn port(&self) -> u16 {
        self.port
    }

    /// Stops the server from elsewhere (tests); SIGTERM/SIGINT do the same.
    pub fn handle(&self) -> ServerHandle {
        self.server.handle()
    }

    /// The engine, for in-process tests and benches.
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The operator token generated on a fresh store without a configured one: show it once.
    pub fn generated_admin_token(&self) -> Option<&str> {
        self.generated_admin_token.as_deref()
    }

    /// What `--demo` made or found.
    pub fn demo(&self) -> Option<&pigeon_actors::Demo> {
        self.demo.as_ref()
    }

    /// Serves until SIGTERM/SIGINT or [`ServerHandle::stop`]: stops accepting, lets in-flight
    /// requests finish, then stops the actors and flushes the store.
    pub async fn run_until_stopped(self) -> Result<(), StartError> {
        self.server.await?;
        self.engine.shutdown().await?;
        tracing::info!("stopped cleanly");
        Ok(())
    }
}

/// For tests only: `PIGEON_TEST_RECOVERY_DELAY_MS` holds start-up recovery back this long, so sends
/// made right after a restart are in the `pending` index it reads, every time (`tests/api/agent.rs`).
fn test_recovery_delay() -> Option<std::time::Duration> {
    let ms: u64 = std::env::var("PIGEON_TEST_RECOVERY_DELAY_MS").ok()?.parse().ok()?;
    tracing::warn!(ms, "PIGEON_TEST_RECOVERY_DELAY_MS is set: recovery waits (tests only)");
    Some(std::time::Duration::from_millis(ms))
}

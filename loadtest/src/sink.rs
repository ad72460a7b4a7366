//! The built-in webhook receiver: it checks each signature and notes when each delivery arrived.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use actix_web::{web, App, HttpRequest, HttpResponse, HttpServer};
use serde_json::Value;

use pigeon_actors::webhook::{sign, SIGNATURE_HEADER};

/// Send times and webhook arrivals by message id.
#[derive(Default)]
pub(crate) struct Tracker {
    pub(crate) sent: HashMap<String, Instant>,
    pub(crate) arrived: HashMap<String, Instant>,
    pub(crate) bad_signatures: u64,
    /// The current soak window's figures.
    pub(crate) window: crate::soak::Window,
}

pub(crate) type Shared = Arc<Mutex<Tracker>>;

/// The built-in webhook receiver: checks the signature, notes when each delivery arrived.
pub(crate) fn start_sink(tracker: Shared, secret: Arc<Mutex<String>>) -> std::io::Result<String> {
    let server = HttpServer::new(move || {
        let (tracker, secret) = (tracker.clone(), secret.clone());
        App::new().default_service(web::to(move |req: HttpRequest, body: web::Bytes| {
            let (tracker, secret) = (tracker.clone(), secret.clone());
            async move {
                let now = Instant::now();
                let sig = req.headers().get(SIGNATURE_HEADER).and_then(|v| v.to_str().ok()).unwrap_or("");
                let ok = sig == sign(&secret.lock().unwrap(), &body);
                let id = serde_json::from_slice::<Value>(&body)
                    .ok()
                    .and_then(|v| v["message_id"].as_str().map(str::to_owned));
                let mut t = tracker.lock().unwrap();
                match (ok, id) {
                    (true, Some(id)) => {
                        if let Some(sent) = t.sent.get(&id).copied() {
                            let took = now.saturating_duration_since(sent).as_micros().max(1) as u64;
                            let _ = t.window.end_to_end.record(took);
                        }
                        t.arrived.entry(id).or_insert(now);
                    }
                    _ => t.bad_signatures += 1,
                }
                HttpResponse::Ok().finish()
            }
        }))
    })
    .workers(1)
    .bind("127.0.0.1:0")?;
    let url = format!("http://{}/hook", server.addrs()[0]);
    actix_web::rt::spawn(server.run());
    Ok(url)
}

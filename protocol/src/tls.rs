//! The TLS settings every HTTP client of pigeon shares: webhook deliveries, identity-provider
//! keys, the agent's calls, the fleet's forwarding and the load harness. Made once per process,
//! because reading the system's root certificates (~150 files) takes milliseconds, and a
//! webhook endpoint's client is made each time its tenant wakes.

use std::sync::{Arc, OnceLock};

use rustls::ClientConfig;

/// The system's roots, on ring, offering HTTP/1.1 only (the clients do not speak HTTP/2).
/// Certificates the system holds but rustls cannot read are skipped; with none at all, every
/// `https://` call fails its handshake, and says so.
pub fn client_config() -> Arc<ClientConfig> {
    static CONFIG: OnceLock<Arc<ClientConfig>> = OnceLock::new();
    CONFIG
        .get_or_init(|| {
            let mut roots = rustls::RootCertStore::empty();
            roots.add_parsable_certificates(rustls_native_certs::load_native_certs().certs);
            let mut config =
                ClientConfig::builder_with_provider(Arc::new(rustls::crypto::ring::default_provider()))
                    .with_safe_default_protocol_versions()
                    .expect("ring supports TLS 1.2 and 1.3")
                    .with_root_certificates(roots)
                    .with_no_client_auth();
            config.alpn_protocols = vec![b"http/1.1".to_vec()];
            Arc::new(config)
        })
        .clone()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_settings_are_made_once_and_offer_http_1_1() {
        let (a, b) = (client_config(), client_config());
        assert!(Arc::ptr_eq(&a, &b), "read the roots once per process");
        assert_eq!(a.alpn_protocols, vec![b"http/1.1".to_vec()]);
    }
}

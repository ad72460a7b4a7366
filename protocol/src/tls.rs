//! The TLS settings every HTTP client of pigeon shares: webhook deliveries, identity-provider
//! keys, the agent's calls, the fleet's forwarding and the load harness. Made once per process,
//! because reading the system's root certificates (~150 files) takes milliseconds, and a
//! webhook endpoint's client is made each time its tenant wakes.

use std::path::Path;
use std::sync::{Arc, OnceLock};

use rustls::pki_types::pem::PemObject;
use rustls::pki_types::CertificateDer;
use rustls::ClientConfig;

/// CA certificates trusted beside the system's (`pigeon agent --ca-file`).
static EXTRA_ROOTS: OnceLock<Vec<CertificateDer<'static>>> = OnceLock::new();

/// Trusts the CA certificates in the PEM file `path` as well as the system's, in every client
/// of this process; to be called once, before the first client is made. Returns how many.
pub fn trust_ca_file(path: &Path) -> Result<usize, String> {
    let certs = CertificateDer::pem_file_iter(path)
        .and_then(|found| found.collect::<Result<Vec<_>, _>>())
        .map_err(|e| format!("cannot read the CA file {}: {e}", path.display()))?;
    if certs.is_empty() {
        return Err(format!("{} holds no PEM certificate", path.display()));
    }
    let mut probe = rustls::RootCertStore::empty();
    for cert in &certs {
        probe
            .add(cert.clone())
            .map_err(|e| format!("{}: not a CA certificate rustls can use: {e}", path.display()))?;
    }
    let n = certs.len();
    EXTRA_ROOTS.set(certs).map_err(|_| "CA certificates were already given".to_string())?;
    Ok(n)
}

/// The system's roots, on ring, offering HTTP/1.1 only (the clients do not speak HTTP/2).
/// Certificates the system holds but rustls cannot read are skipped; with none at all, every
/// `https://` call fails its handshake, and says so.
pub fn client_config() -> Arc<ClientConfig> {
    static CONFIG: OnceLock<Arc<ClientConfig>> = OnceLock::new();
    CONFIG
        .get_or_init(|| {
            let mut roots = rustls::RootCertStore::empty();
            roots.add_parsable_certificates(rustls_native_certs::load_native_certs().certs);
            // Once the settings are made, later CA files could not count: none may come after.
            let extra = EXTRA_ROOTS.get_or_init(Vec::new);
            roots.add_parsable_certificates(extra.iter().cloned());
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

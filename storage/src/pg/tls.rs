//! TLS to the database, chosen the way libpq's users write it: `sslmode=require` in the URL turns
//! it on, `sslrootcert=/path/ca.pem` names the authority that signed the server's certificate
//! (besides the system's roots). The certificate is always verified, host name included, so
//! `verify-ca` and `verify-full` mean the same here as `require`. Without `sslmode=require` the
//! connection is plain, as before: a server with a self-signed certificate (Debian's default)
//! still takes a plain URL.

use std::path::PathBuf;

use crate::StoreError;

/// A URL with our TLS options taken out (tokio-postgres knows neither `sslrootcert` nor the
/// `verify-*` modes), and what they said.
pub(super) struct Parsed {
    /// What tokio-postgres reads.
    pub(super) url: String,
    /// `sslrootcert`.
    pub(super) root_cert: Option<PathBuf>,
}

/// Takes `sslrootcert` out of `url` and reads `verify-ca`/`verify-full` as `require`; works on
/// both the URL form and the `key=value` form.
pub(super) fn parse(url: &str) -> Parsed {
    let mut root_cert = None;
    let mut keep = |k: &str, v: &str| -> Option<String> {
        match (k, v) {
            ("sslrootcert", path) => {
                root_cert = Some(PathBuf::from(path));
                None
            }
            ("sslmode", "verify-ca" | "verify-full") => Some("sslmode=require".into()),
            _ => Some(format!("{k}={v}")),
        }
    };
    let url = if url.starts_with("postgres://") || url.starts_with("postgresql://") {
        match url.split_once('?') {
            Some((base, query)) => {
                let rest: Vec<String> = query
                    .split('&')
                    .filter_map(|kv| match kv.split_once('=') {
                        Some((k, v)) => keep(k, v),
                        None => Some(kv.to_owned()),
                    })
                    .collect();
                if rest.is_empty() {
                    base.to_owned()
                } else {
                    format!("{base}?{}", rest.join("&"))
                }
            }
            None => url.to_owned(),
        }
    } else {
        url.split_whitespace()
            .filter_map(|kv| match kv.split_once('=') {
                Some((k, v)) => keep(k, v),
                None => Some(kv.to_owned()),
            })
            .collect::<Vec<_>>()
            .join(" ")
    };
    Parsed { url, root_cert }
}

/// The connector for `sslmode=require`: the system's roots and `root_cert`'s, on ring.
pub(super) fn connector(
    root_cert: Option<&std::path::Path>,
) -> Result<tokio_postgres_rustls::MakeRustlsConnect, StoreError> {
    use rustls::pki_types::pem::PemObject;
    use rustls::pki_types::CertificateDer;
    let mut roots = rustls::RootCertStore::empty();
    for cert in rustls_native_certs::load_native_certs().certs {
        let _ = roots.add(cert);
    }
    if let Some(path) = root_cert {
        let certs = CertificateDer::pem_file_iter(path)
            .and_then(|certs| certs.collect::<Result<Vec<_>, _>>())
            .map_err(|e| StoreError::Database(format!("sslrootcert {}: {e}", path.display())))?;
        if certs.is_empty() {
            return Err(StoreError::Database(format!(
                "sslrootcert {}: no certificate in it",
                path.display()
            )));
        }
        for cert in certs {
            roots
                .add(cert)
                .map_err(|e| StoreError::Database(format!("sslrootcert {}: {e}", path.display())))?;
        }
    }
    let config = rustls::ClientConfig::builder_with_provider(std::sync::Arc::new(
        rustls::crypto::ring::default_provider(),
    ))
    .with_safe_default_protocol_versions()
    .map_err(|e| StoreError::Database(e.to_string()))?
    .with_root_certificates(roots)
    .with_no_client_auth();
    Ok(tokio_postgres_rustls::MakeRustlsConnect::new(config))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn our_options_leave_the_url_and_the_rest_stays() {
        let p = parse("postgres://u:p@h:5/db?sslmode=verify-full&sslrootcert=/etc/ca.pem&application_name=x");
        assert_eq!(p.url, "postgres://u:p@h:5/db?sslmode=require&application_name=x");
        assert_eq!(p.root_cert, Some(PathBuf::from("/etc/ca.pem")));
        let p = parse("postgres://h/db?sslrootcert=/ca.pem");
        assert_eq!((p.url.as_str(), p.root_cert.is_some()), ("postgres://h/db", true));
        let p = parse("host=h dbname=db sslmode=verify-ca sslrootcert=/ca.pem");
        assert_eq!(p.url, "host=h dbname=db sslmode=require");
        assert_eq!(parse("postgres://h/db").url, "postgres://h/db");
    }
}

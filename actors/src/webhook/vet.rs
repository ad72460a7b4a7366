//! The SSRF guard: which addresses a webhook may reach. Checked at registration
//! ([`check_url`]) and at every connection ([`VettedResolver`]), so DNS rebinding cannot slip a
//! private address in after registration.

use std::net::{IpAddr, SocketAddr};

use actix_tls::connect::Resolve;
use futures_util::future::LocalBoxFuture;

/// True for addresses on the public internet; false for loopback, private, link-local, CGNAT,
/// multicast, unspecified, broadcast, documentation and reserved ranges, in IPv4 and IPv6 (mapped
/// and NAT64 forms judged by the IPv4 inside).
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let o = v4.octets();
            !(v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_multicast()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_documentation()
                || o[0] == 0
                || (o[0] == 100 && (o[1] & 0xc0) == 64) // 100.64.0.0/10 CGNAT
                || (o[0] == 198 && (o[1] & 0xfe) == 18) // 198.18.0.0/15 benchmarking
                || (o[0] == 192 && o[1] == 0 && o[2] == 0) // 192.0.0.0/24 protocol assignments
                || o[0] >= 240) // reserved
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_public(IpAddr::V4(v4));
            }
            let s = v6.segments();
            if s[0] == 0x64 && s[1] == 0xff9b && s[2..6] == [0, 0, 0, 0] {
                // NAT64: judged by the IPv4 address inside.
                let o = v6.octets();
                return is_public(IpAddr::V4(std::net::Ipv4Addr::new(o[12], o[13], o[14], o[15])));
            }
            !(v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (s[0] & 0xfe00) == 0xfc00 // unique local
                || (s[0] & 0xffc0) == 0xfe80 // link-local
                || (s[0] == 0x2001 && s[1] == 0x0db8) // documentation
                || (s[0..6] == [0, 0, 0, 0, 0, 0])) // IPv4-compatible (deprecated) and friends
        }
    }
}

/// Checks a webhook URL at registration: absolute `http(s)`, a host, no credentials, and (unless
/// private networks are allowed) every address it resolves to public. The error names `url`.
pub async fn check_url(url: &str, allow_private: bool) -> Result<(), String> {
    let uri: awc::http::Uri = url.parse().map_err(|_| "url: not a valid absolute URL".to_string())?;
    if !matches!(uri.scheme_str(), Some("http" | "https")) {
        return Err("url: must start with http:// or https://".into());
    }
    let auth = uri.authority().ok_or("url: must name a host")?;
    if auth.as_str().contains('@') {
        return Err("url: must not carry credentials".into());
    }
    if url.len() > 2048 {
        return Err("url: at most 2048 characters".into());
    }
    if allow_private {
        return Ok(());
    }
    let port = auth.port_u16().unwrap_or(if uri.scheme_str() == Some("https") { 443 } else { 80 });
    let addrs =
        resolve(auth.host(), port).await.map_err(|e| format!("url: the host does not resolve ({e})"))?;
    if addrs.is_empty() || addrs.iter().any(|a| !is_public(a.ip())) {
        return Err("url: the host is or resolves to a private, loopback or link-local address".into());
    }
    Ok(())
}

async fn resolve(host: &str, port: u16) -> std::io::Result<Vec<SocketAddr>> {
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    if let Ok(ip) = bare.parse::<IpAddr>() {
        return Ok(vec![SocketAddr::new(ip, port)]);
    }
    Ok(tokio::net::lookup_host((bare, port)).await?.collect())
}

/// The resolver every delivery connection uses: only public addresses are ever dialled.
pub(crate) struct VettedResolver {
    pub(crate) allow_private: bool,
}

impl Resolve for VettedResolver {
    fn lookup<'a>(
        &'a self,
        host: &'a str,
        port: u16,
    ) -> LocalBoxFuture<'a, Result<Vec<SocketAddr>, Box<dyn std::error::Error>>> {
        Box::pin(async move {
            let addrs = resolve(host, port).await?;
            let vetted: Vec<_> =
                addrs.into_iter().filter(|a| self.allow_private || is_public(a.ip())).collect();
            if vetted.is_empty() {
                return Err(PRIVATE_REFUSED.into());
            }
            Ok(vetted)
        })
    }
}

pub(crate) const PRIVATE_REFUSED: &str = "refused_private_address";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn private_addresses_are_not_public() {
        for ip in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "224.0.0.1",
            "255.255.255.255",
            "::1",
            "::",
            "fc00::1",
            "fd12::1",
            "fe80::1",
            "ff02::1",
            "::ffff:127.0.0.1",
            "::ffff:10.0.0.1",
            "64:ff9b::a00:1",
            "::127.0.0.1",
        ] {
            assert!(!is_public(ip.parse().unwrap()), "{ip}");
        }
        for ip in ["8.8.8.8", "1.1.1.1", "2606:4700:4700::1111", "::ffff:8.8.8.8", "64:ff9b::808:808"] {
            assert!(is_public(ip.parse().unwrap()), "{ip}");
        }
    }

    #[actix_rt::test]
    async fn registration_refuses_private_hosts_unless_allowed() {
        for url in ["http://127.0.0.1:9/x", "http://[::1]/x", "http://localhost/x", "https://10.0.0.5/hook"] {
            let e = check_url(url, false).await.unwrap_err();
            assert!(e.starts_with("url:"), "{url}: {e}");
        }
        assert!(check_url("http://127.0.0.1:9/x", true).await.is_ok());
        for bad in ["ftp://example.com/x", "/relative", "http://user:pw@example.com/x", "not a url"] {
            assert!(check_url(bad, true).await.is_err(), "{bad}");
        }
    }
}

//! The SSRF guard: which addresses a webhook may reach. Checked at registration
//! ([`check_url`]) and at every connection ([`VettedResolver`]), so DNS rebinding cannot slip a
//! private address in after registration.

use std::net::{IpAddr, Ipv4Addr, SocketAddr};

use actix_tls::connect::Resolve;
use futures_util::future::LocalBoxFuture;

/// IPv4 ranges of the IANA special-purpose address registry that are not globally reachable
/// (`address, prefix length`), and the deprecated 6to4 relay anycast. No maintained crate ships
/// the registries (std's `is_global` is unstable), so the list lives here, with its tests.
const V4_SPECIAL: &[(u32, u8)] = &[
    (0x0000_0000, 8),  // 0.0.0.0/8 "this network"
    (0x0a00_0000, 8),  // 10.0.0.0/8 private
    (0x6440_0000, 10), // 100.64.0.0/10 shared address space (CGNAT)
    (0x7f00_0000, 8),  // 127.0.0.0/8 loopback
    (0xa9fe_0000, 16), // 169.254.0.0/16 link-local
    (0xac10_0000, 12), // 172.16.0.0/12 private
    (0xc000_0000, 24), // 192.0.0.0/24 IETF protocol assignments
    (0xc000_0200, 24), // 192.0.2.0/24 documentation
    (0xc058_6300, 24), // 192.88.99.0/24 6to4 relay anycast (deprecated)
    (0xc0a8_0000, 16), // 192.168.0.0/16 private
    (0xc612_0000, 15), // 198.18.0.0/15 benchmarking
    (0xc633_6400, 24), // 198.51.100.0/24 documentation
    (0xcb00_7100, 24), // 203.0.113.0/24 documentation
    (0xe000_0000, 4),  // 224.0.0.0/4 multicast
    (0xf000_0000, 4),  // 240.0.0.0/4 reserved, and the broadcast address
];

/// The same for IPv6. Forms that carry an IPv4 address (mapped, NAT64, 6to4) are judged by it
/// before this list is consulted.
const V6_SPECIAL: &[(u128, u8)] = &[
    (0, 96),                      // ::/96: unspecified, loopback, IPv4-compatible
    (0x0064_ff9b_0001 << 80, 48), // 64:ff9b:1::/48 local-use NAT64
    (0x0100 << 112, 64),          // 100::/64 discard-only
    (0x2001 << 112, 23),          // 2001::/23 IETF protocol assignments (Teredo, ...)
    (0x2001_0db8 << 96, 32),      // 2001:db8::/32 documentation
    (0x3fff << 112, 20),          // 3fff::/20 documentation
    (0x5f00 << 112, 16),          // 5f00::/16 segment routing (SRv6) SIDs
    (0xfc00 << 112, 7),           // fc00::/7 unique local
    (0xfe80 << 112, 10),          // fe80::/10 link-local
    (0xfec0 << 112, 10),          // fec0::/10 site-local (deprecated)
    (0xff00 << 112, 8),           // ff00::/8 multicast
];

fn in_v4(ip: u32, (net, len): (u32, u8)) -> bool {
    len == 0 || (ip ^ net) >> (32 - u32::from(len)) == 0
}

fn in_v6(ip: u128, (net, len): (u128, u8)) -> bool {
    len == 0 || (ip ^ net) >> (128 - u32::from(len)) == 0
}

/// The IPv4 address an IPv6 form carries: mapped `::ffff:0:0/96`, NAT64 `64:ff9b::/96`, 6to4
/// `2002::/16`.
fn embedded_v4(n: u128) -> Option<Ipv4Addr> {
    if let Some(v4) = std::net::Ipv6Addr::from(n).to_ipv4_mapped() {
        Some(v4)
    } else if in_v6(n, (0x0064_ff9b << 96, 96)) {
        Some(Ipv4Addr::from(n as u32))
    } else if in_v6(n, (0x2002 << 112, 16)) {
        Some(Ipv4Addr::from((n >> 80) as u32))
    } else {
        None
    }
}

/// True for addresses on the public internet: none of the special-purpose ranges above, and for
/// the IPv6 forms that carry an IPv4 address, an IPv4 address that is public itself.
pub fn is_public(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => {
            let n = u32::from(v4);
            !V4_SPECIAL.iter().any(|r| in_v4(n, *r))
        }
        IpAddr::V6(v6) => {
            let n = u128::from(v6);
            match embedded_v4(n) {
                Some(v4) => is_public(IpAddr::V4(v4)),
                None => !V6_SPECIAL.iter().any(|r| in_v6(n, *r)),
            }
        }
    }
}

/// True for link-local addresses (169.254.0.0/16, fe80::/10, and IPv6 forms carrying the
/// former), where cloud metadata services answer.
fn is_link_local(ip: IpAddr) -> bool {
    match ip {
        IpAddr::V4(v4) => in_v4(u32::from(v4), (0xa9fe_0000, 16)),
        IpAddr::V6(v6) => {
            let n = u128::from(v6);
            embedded_v4(n).map_or_else(|| in_v6(n, (0xfe80 << 112, 10)), |v4| is_link_local(IpAddr::V4(v4)))
        }
    }
}

/// An address block, `10.0.0.0/8` or `fd00::/8` (a bare address is a block of one).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cidr {
    net: IpAddr,
    len: u8,
}

impl Cidr {
    fn contains(&self, ip: IpAddr) -> bool {
        match (self.net, ip.to_canonical()) {
            (IpAddr::V4(net), IpAddr::V4(ip)) => in_v4(ip.into(), (net.into(), self.len)),
            (IpAddr::V6(net), IpAddr::V6(ip)) => in_v6(ip.into(), (net.into(), self.len)),
            _ => false,
        }
    }
}

impl std::str::FromStr for Cidr {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let (addr, len) = s.split_once('/').map_or((s, None), |(a, l)| (a, Some(l)));
        let net: IpAddr =
            addr.trim().parse().map_err(|_| format!("{s:?} is not an address block like 10.0.0.0/8"))?;
        let net = net.to_canonical();
        let max = if net.is_ipv4() { 32 } else { 128 };
        let len =
            match len {
                None => max,
                Some(l) => l.trim().parse::<u8>().ok().filter(|l| *l <= max).ok_or_else(|| {
                    format!("{s:?}: the prefix length must be a whole number from 0 to {max}")
                })?,
            };
        Ok(Cidr { net, len })
    }
}

/// Which addresses besides public ones webhooks may reach (`PIGEON_WEBHOOK_ALLOW_PRIVATE`).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub enum PrivateNetworks {
    /// None (the default).
    #[default]
    Refused,
    /// Private and loopback ranges (`true`); link-local, where cloud metadata services answer,
    /// is still refused.
    Allowed,
    /// These blocks alone (a comma-separated list of CIDRs), link-local ones too if listed.
    Only(Vec<Cidr>),
}

impl PrivateNetworks {
    /// Whether a webhook may connect to `ip`.
    pub fn allows(&self, ip: IpAddr) -> bool {
        if is_public(ip) {
            return true;
        }
        match self {
            PrivateNetworks::Refused => false,
            PrivateNetworks::Allowed => !is_link_local(ip),
            PrivateNetworks::Only(blocks) => blocks.iter().any(|b| b.contains(ip)),
        }
    }
}

impl std::str::FromStr for PrivateNetworks {
    type Err = String;

    /// `false` (or empty), `true`, or a comma-separated list of CIDRs.
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim() {
            "" | "false" => Ok(PrivateNetworks::Refused),
            "true" => Ok(PrivateNetworks::Allowed),
            list => list
                .split(',')
                .filter(|b| !b.trim().is_empty())
                .map(str::parse)
                .collect::<Result<Vec<_>, _>>()
                .map(PrivateNetworks::Only),
        }
    }
}

/// Checks a webhook URL at registration: absolute `http(s)`, a host, no credentials, and every
/// address it resolves to one `allowed` lets webhooks reach. The error names `url`.
pub async fn check_url(url: &str, allowed: &PrivateNetworks) -> Result<(), String> {
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
    let port = auth.port_u16().unwrap_or(if uri.scheme_str() == Some("https") { 443 } else { 80 });
    let addrs =
        resolve(auth.host(), port).await.map_err(|e| format!("url: the host does not resolve ({e})"))?;
    if addrs.is_empty() || addrs.iter().any(|a| !allowed.allows(a.ip())) {
        return Err(match allowed {
            PrivateNetworks::Refused => {
                "url: the host is or resolves to a private, loopback or link-local address".into()
            }
            PrivateNetworks::Allowed => "url: the host is or resolves to a link-local address".into(),
            PrivateNetworks::Only(_) => {
                "url: the host is or resolves to a non-public address outside the allowed networks".into()
            }
        });
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

/// A client that dials only what `allowed` lets a webhook reach, whatever the name resolves to
/// when it connects, follows no redirect, and gives up after `timeout`: for webhook deliveries,
/// and for media a send names by URL.
pub fn vetted_client(allowed: PrivateNetworks, timeout: std::time::Duration) -> awc::Client {
    let resolver = actix_tls::connect::Resolver::custom(VettedResolver { allowed });
    let connector = awc::Connector::new()
        .connector(actix_tls::connect::Connector::new(resolver).service())
        .rustls_0_23(pigeon_protocol::tls::client_config())
        .timeout(timeout);
    awc::Client::builder().connector(connector).disable_redirects().timeout(timeout).finish()
}

/// The resolver every delivery connection uses: only public addresses are ever dialled.
pub(crate) struct VettedResolver {
    pub(crate) allowed: PrivateNetworks,
}

impl Resolve for VettedResolver {
    fn lookup<'a>(
        &'a self,
        host: &'a str,
        port: u16,
    ) -> LocalBoxFuture<'a, Result<Vec<SocketAddr>, Box<dyn std::error::Error>>> {
        Box::pin(async move {
            let addrs = resolve(host, port).await?;
            let vetted: Vec<_> = addrs.into_iter().filter(|a| self.allowed.allows(a.ip())).collect();
            if vetted.is_empty() {
                return Err(PRIVATE_REFUSED.into());
            }
            Ok(vetted)
        })
    }
}

/// What the vetted resolver answers for a host it will not dial.
pub const PRIVATE_REFUSED: &str = "refused_private_address";

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
            // NAT64 local use, 6to4 around a private IPv4, Teredo, the 6to4 relay anycast.
            "64:ff9b:1::7f00:1",
            "64:ff9b:1::808:808",
            "2002:7f00:1::",
            "2002:a00:1::1",
            "2001::1",
            "2001:0:4136:e378::1",
            "192.88.99.1",
            "192.0.0.1",
            "198.18.0.1",
            "198.51.100.7",
            "203.0.113.9",
            "240.0.0.1",
            "2001:db8::1",
            "3fff::1",
            "100::1",
            "5f00::1",
            "fec0::1",
        ] {
            assert!(!is_public(ip.parse().unwrap()), "{ip}");
        }
        for ip in [
            "8.8.8.8",
            "1.1.1.1",
            "2606:4700:4700::1111",
            "::ffff:8.8.8.8",
            "64:ff9b::808:808",
            "2002:808:808::1",
            "2a00:1450:4001::1",
            "100.128.0.1",
            "172.32.0.1",
            "192.0.1.1",
        ] {
            assert!(is_public(ip.parse().unwrap()), "{ip}");
        }
    }

    #[actix_rt::test]
    async fn registration_refuses_private_hosts_unless_allowed() {
        let (refused, allowed) = (PrivateNetworks::Refused, PrivateNetworks::Allowed);
        for url in ["http://127.0.0.1:9/x", "http://[::1]/x", "http://localhost/x", "https://10.0.0.5/hook"] {
            let e = check_url(url, &refused).await.unwrap_err();
            assert!(e.starts_with("url:"), "{url}: {e}");
        }
        assert!(check_url("http://127.0.0.1:9/x", &allowed).await.is_ok());
        for bad in ["ftp://example.com/x", "/relative", "http://user:pw@example.com/x", "not a url"] {
            assert!(check_url(bad, &allowed).await.is_err(), "{bad}");
        }
        // `true` still keeps cloud metadata out, in every spelling.
        for metadata in
            ["http://169.254.169.254/latest", "http://[fe80::1]/x", "http://[::ffff:169.254.169.254]/"]
        {
            assert!(check_url(metadata, &allowed).await.is_err(), "{metadata}");
        }
    }

    #[test]
    fn a_list_of_networks_allows_those_alone() {
        let only: PrivateNetworks = "10.1.0.0/16, fd00::/8,169.254.169.254".parse().unwrap();
        for ip in ["10.1.2.3", "::ffff:10.1.9.9", "fd12::1", "169.254.169.254", "8.8.8.8"] {
            assert!(only.allows(ip.parse().unwrap()), "{ip}");
        }
        for ip in ["10.2.0.1", "127.0.0.1", "192.168.1.1", "fe80::1", "169.254.169.253"] {
            assert!(!only.allows(ip.parse().unwrap()), "{ip}");
        }
        assert_eq!("false".parse::<PrivateNetworks>().unwrap(), PrivateNetworks::Refused);
        assert_eq!("true".parse::<PrivateNetworks>().unwrap(), PrivateNetworks::Allowed);
        let allowed = PrivateNetworks::Allowed;
        assert!(allowed.allows("10.0.0.1".parse().unwrap()) && allowed.allows("::1".parse().unwrap()));
        assert!(!allowed.allows("169.254.169.254".parse().unwrap()));
        for bad in ["10.0.0.0/33", "yes", "10.0.0/8", "::/129"] {
            assert!(bad.parse::<PrivateNetworks>().is_err(), "{bad}");
        }
    }
}

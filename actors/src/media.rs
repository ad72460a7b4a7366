//! Media rules: the types the node takes, the first bytes each must begin with, and the signed
//! links a receiver fetches a file by without a key. The HTTP edge streams the bytes; these say
//! whether they may be kept.

use hmac::{Hmac, KeyInit, Mac};
use pigeon_protocol::MEDIA_TYPES;
use pigeon_storage::model::MediaRef;
use serde::Serialize;
use sha2::Sha256;

use crate::EngineError;

/// The most bytes an upload may have unless the operator says otherwise (25 MiB).
pub const DEFAULT_MAX_BYTES: u64 = 25 * 1024 * 1024;

/// How long a signed link stays good.
pub const LINK_TTL_S: i64 = 7 * 24 * 3600;

/// Bytes of a file's start [`check_bytes`] needs to judge every type.
pub const SNIFF: usize = 16;

/// Whether a file's first bytes are those of its type.
type Sniff = fn(&[u8]) -> bool;

/// The test of the first bytes of an allowed type (`None`: text, which has none). Every type of
/// [`MEDIA_TYPES`] but text has one (tested).
fn sniff(allowed: &str) -> Option<Sniff> {
    Some(match allowed {
        "image/jpeg" => |b| b.starts_with(&[0xff, 0xd8, 0xff]),
        "image/png" => |b| b.starts_with(b"\x89PNG\r\n\x1a\n"),
        "image/gif" => |b| b.starts_with(b"GIF87a") || b.starts_with(b"GIF89a"),
        "image/heic" | "image/heif" => heif,
        "image/webp" => |b| b.starts_with(b"RIFF") && b.get(8..12) == Some(b"WEBP"),
        "video/mp4" | "audio/mp4" => iso_media,
        "video/quicktime" => quicktime,
        "audio/mpeg" => |b| b.starts_with(b"ID3") || (b.len() >= 2 && b[0] == 0xff && b[1] & 0xe0 == 0xe0),
        "audio/x-caf" => |b| b.starts_with(b"caff"),
        "audio/aac" => |b| b.starts_with(b"ADIF") || (b.len() >= 2 && b[0] == 0xff && b[1] & 0xf6 == 0xf0),
        "application/pdf" => |b| b.starts_with(b"%PDF-"),
        _ => return None,
    })
}

/// An ISO base media file (MP4, M4A, HEIF): a `ftyp` box first.
fn iso_media(b: &[u8]) -> bool {
    b.get(4..8) == Some(b"ftyp")
}

/// HEIC and HEIF: a `ftyp` box naming one of the HEIF brands.
fn heif(b: &[u8]) -> bool {
    const BRANDS: [&[u8]; 8] = [b"heic", b"heix", b"hevc", b"hevx", b"heim", b"heis", b"mif1", b"msf1"];
    iso_media(b) && b.get(8..12).is_some_and(|brand| BRANDS.contains(&brand))
}

/// QuickTime: a `ftyp` box, or one of the atoms older files begin with.
fn quicktime(b: &[u8]) -> bool {
    const ATOMS: [&[u8]; 5] = [b"moov", b"mdat", b"wide", b"free", b"skip"];
    iso_media(b) || b.get(4..8).is_some_and(|atom| ATOMS.contains(&atom))
}

/// The allowed type `content_type` names (parameters and case set aside), or why it is refused.
pub fn check_type(content_type: Option<&str>) -> Result<&'static str, EngineError> {
    let given = content_type.unwrap_or("").split(';').next().unwrap_or("").trim().to_ascii_lowercase();
    let allowed = MEDIA_TYPES.iter().map(|(t, _)| *t).find(|t| *t == given);
    allowed.ok_or_else(|| {
        let all: Vec<&str> = MEDIA_TYPES.iter().map(|(t, _)| *t).collect();
        EngineError::InvalidMedia(if given.is_empty() {
            format!("Content-Type: required, one of {}", all.join(", "))
        } else {
            format!("Content-Type: {given} is not taken; one of {}", all.join(", "))
        })
    })
}

/// Whether `start` (the file's first [`SNIFF`] bytes, or all of a shorter file) begins as a file
/// of `allowed` does.
pub fn check_bytes(allowed: &'static str, start: &[u8]) -> Result<(), EngineError> {
    match sniff(allowed) {
        Some(test) if !test(start) => Err(EngineError::InvalidMedia(format!(
            "the bytes are not {allowed}: they do not begin as a {allowed} file does"
        ))),
        _ if start.is_empty() => Err(EngineError::InvalidMedia("the file is empty".into())),
        _ => Ok(()),
    }
}

/// The refusal of a file that does not fit in the `left` bytes of the tenant's media bound.
pub fn over_bound(left: u64) -> EngineError {
    EngineError::LimitReached(format!(
        "media: this file would take the account's stored media past its bound; {left} bytes are left"
    ))
}

/// Signs and checks media links: an HMAC over the media id and the link's expiry.
#[derive(Clone)]
pub struct Links {
    key: Vec<u8>,
    /// `PIGEON_PUBLIC_URL`, else the listening address: what links start with.
    base: String,
}

/// An attachment as message records and events show it, with a link a receiver can fetch
/// without a key.
#[derive(Debug, Clone, Serialize)]
pub struct Attachment {
    /// Media id.
    pub media_id: String,
    /// Its type.
    pub content_type: String,
    /// Bytes.
    pub size: u64,
    /// The name given at upload.
    pub filename: Option<String>,
    /// Signed, good for 7 days.
    pub url: String,
}

impl Links {
    /// Links signed with `key` (the store's, or derived from a fleet's secret so every node
    /// signs alike) that start with `base` (no trailing slash).
    pub fn new(key: Vec<u8>, base: &str) -> Self {
        Self { key, base: base.trim_end_matches('/').to_owned() }
    }

    /// A link to `id`'s bytes made at `now` (Unix seconds).
    pub fn url(&self, id: &str, now: i64) -> String {
        format!("{}/v1/media/{id}/content?{}", self.base, self.query(id, now))
    }

    /// A message's attachments with links made at `now`.
    pub fn attachments(&self, media: &[MediaRef], now: i64) -> Vec<Attachment> {
        media
            .iter()
            .map(|m| {
                let media_id = m.id.to_string();
                Attachment {
                    url: self.url(&media_id, now),
                    media_id,
                    content_type: m.content_type.clone(),
                    size: m.size,
                    filename: m.filename.clone(),
                }
            })
            .collect()
    }

    fn mac(&self, id: &str, expires: i64) -> Hmac<Sha256> {
        let mut mac = Hmac::<Sha256>::new_from_slice(&self.key).expect("HMAC takes any key length");
        mac.update(format!("{id}\n{expires}").as_bytes());
        mac
    }

    /// The query of a link to `id` made at `now` (Unix seconds): `expires=…&signature=…`.
    pub fn query(&self, id: &str, now: i64) -> String {
        let expires = now + LINK_TTL_S;
        let signature = hex::encode(self.mac(id, expires).finalize().into_bytes());
        format!("expires={expires}&signature={signature}")
    }

    /// Whether a link's `expires` and `signature` were made by this node's key for `id` and
    /// are still good at `now` (constant-time comparison).
    pub fn verify(&self, id: &str, expires: i64, signature: &str, now: i64) -> bool {
        let Ok(given) = hex::decode(signature) else { return false };
        expires >= now && expires <= now + LINK_TTL_S && self.mac(id, expires).verify_slice(&given).is_ok()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_type_but_text_has_a_test_of_its_first_bytes() {
        for (t, _) in MEDIA_TYPES {
            assert_eq!(sniff(t).is_none(), t.starts_with("text/"), "{t}");
        }
    }

    #[test]
    fn types_are_judged_by_their_first_bytes() {
        let png = check_type(Some("IMAGE/PNG; charset=x")).unwrap();
        assert_eq!(png, "image/png");
        assert!(check_bytes(png, b"\x89PNG\r\n\x1a\n....").is_ok());
        assert!(check_bytes(png, b"GIF89a").is_err());
        assert!(check_type(Some("application/zip")).is_err());
        assert!(check_type(None).is_err());
        let heic = check_type(Some("image/heic")).unwrap();
        assert!(check_bytes(heic, b"\0\0\0\x18ftypheic\0\0\0\0").is_ok());
        assert!(check_bytes(heic, b"\0\0\0\x18ftypisom\0\0\0\0").is_err());
        assert!(check_bytes(check_type(Some("video/mp4")).unwrap(), b"\0\0\0\x18ftypisom").is_ok());
        assert!(check_bytes(check_type(Some("audio/mpeg")).unwrap(), &[0xff, 0xfb, 0x90]).is_ok());
        assert!(check_bytes(check_type(Some("text/vcard")).unwrap(), b"BEGIN:VCARD").is_ok());
        assert!(check_bytes(check_type(Some("text/plain")).unwrap(), b"").is_err());
    }

    #[test]
    fn a_link_is_good_for_its_id_until_it_expires() {
        let links = Links::new(b"k".to_vec(), "http://x/");
        let q = links.query("01ID", 1_000);
        let (expires, sig) = q.split_once('&').unwrap();
        let expires: i64 = expires.trim_start_matches("expires=").parse().unwrap();
        let sig = sig.trim_start_matches("signature=");
        assert!(links.verify("01ID", expires, sig, 1_000));
        assert!(links.verify("01ID", expires, sig, expires));
        assert!(!links.verify("01ID", expires, sig, expires + 1), "expired");
        assert!(!links.verify("01IE", expires, sig, 1_000), "another id");
        assert!(!links.verify("01ID", expires + 1, sig, 1_000), "another expiry");
        assert!(!Links::new(b"j".to_vec(), "http://x").verify("01ID", expires, sig, 1_000), "another key");
        assert!(!links.verify("01ID", expires, "zz", 1_000));
        assert_eq!(links.url("01ID", 1_000), format!("http://x/v1/media/01ID/content?{q}"));
    }
}

//! Secrets: API keys and the operator token are random, shown once, stored only as SHA-256, and
//! compared in constant time.

use rand::distr::Alphanumeric;
use rand::rand_core::UnwrapErr;
use rand::rngs::SysRng;
use rand::RngExt;
use sha2::{Digest, Sha256};
use subtle::ConstantTimeEq;

/// 32 base62 characters from the operating system's CSPRNG.
pub fn random_base62(len: usize) -> String {
    UnwrapErr(SysRng).sample_iter(Alphanumeric).take(len).map(char::from).collect()
}

/// A fresh secret with `prefix`: `svc_live_…`, `svc_test_…`, `svc_admin_…`.
pub fn generate(prefix: &str) -> String {
    let mut s = String::with_capacity(prefix.len() + 32);
    s.push_str(prefix);
    s.push_str(&random_base62(32));
    s
}

/// SHA-256 of a secret, lowercase hex.
pub fn hash(secret: &str) -> String {
    hex::encode(Sha256::digest(secret.as_bytes()))
}

/// Constant-time equality of two hashes.
pub fn hashes_match(a: &str, b: &str) -> bool {
    a.len() == b.len() && bool::from(a.as_bytes().ct_eq(b.as_bytes()))
}

/// True if `s` has the shape of an API key: a known prefix and 32 base62 characters.
pub fn looks_like_api_key(s: &str) -> bool {
    let rest = s.strip_prefix("svc_live_").or_else(|| s.strip_prefix("svc_test_"));
    rest.is_some_and(|r| r.len() == 32 && r.bytes().all(|b| b.is_ascii_alphanumeric()))
}

/// What the key list shows: three dots and the last four characters.
pub fn hint(key: &str) -> String {
    format!("...{}", &key[key.len().saturating_sub(4)..])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_have_the_documented_shape() {
        let k = generate("svc_live_");
        assert!(looks_like_api_key(&k), "{k}");
        assert_eq!(k.len(), 9 + 32);
        assert_ne!(k, generate("svc_live_"));
        assert!(!looks_like_api_key("svc_live_short"));
        assert!(!looks_like_api_key(&format!("svc_prod_{}", random_base62(32))));
        assert_eq!(hint("svc_test_abcdefWXYZ"), "...WXYZ");
    }

    #[test]
    fn hashing_is_sha256_hex() {
        assert_eq!(hash("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
        assert!(hashes_match(&hash("x"), &hash("x")));
        assert!(!hashes_match(&hash("x"), &hash("y")));
    }
}

//! The webhook signature: what a receiver checks, used by the delivery actor, the load harness's
//! sink and the tests alike.

use hmac::{Hmac, KeyInit, Mac};
use sha2::Sha256;

/// Signature header.
pub const SIGNATURE_HEADER: &str = "x-service-signature";

/// `sha256=` and the lowercase hex HMAC-SHA256 of `body` keyed with `secret`.
pub fn sign(secret: &str, body: &[u8]) -> String {
    let mut mac = Hmac::<Sha256>::new_from_slice(secret.as_bytes()).expect("HMAC takes any key length");
    mac.update(body);
    format!("sha256={}", hex::encode(mac.finalize().into_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signatures_are_hmac_sha256_hex() {
        // RFC 4231 test case 2.
        assert_eq!(
            sign("Jefe", b"what do ya want for nothing?"),
            "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }
}

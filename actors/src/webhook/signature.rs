//! The webhook signatures: the spec's `x-service-signature`, and the Standard Webhooks headers
//! (standardwebhooks.com) that receivers verify with one maintained library call in any language,
//! rejecting replays by timestamp. Used by the delivery actor, the load harness's sink and the
//! tests alike.

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

/// Standard Webhooks: the event id, stable across retries.
pub const ID_HEADER: &str = "webhook-id";
/// Standard Webhooks: this attempt's Unix seconds.
pub const TIMESTAMP_HEADER: &str = "webhook-timestamp";
/// Standard Webhooks: `v1,<base64>` entries, space-separated.
pub const STANDARD_SIGNATURE_HEADER: &str = "webhook-signature";

/// The key of a `whsec_` + base64 secret; `None` for any other secret (which signs only the
/// spec's header).
fn standard_key(secret: &str) -> Option<Vec<u8>> {
    use base64::Engine;
    let b64 = secret.strip_prefix("whsec_")?;
    base64::engine::general_purpose::STANDARD
        .decode(b64)
        .or_else(|_| base64::engine::general_purpose::STANDARD_NO_PAD.decode(b64))
        .ok()
        .filter(|k| !k.is_empty())
}

/// `v1,` and the base64 HMAC-SHA256 of `{id}.{timestamp}.{body}`, keyed with the decoded part of
/// a `whsec_` secret; `None` when the secret is not of that form.
pub fn standard_sign(secret: &str, id: &str, timestamp: i64, body: &[u8]) -> Option<String> {
    use base64::Engine;
    let key = standard_key(secret)?;
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).expect("HMAC takes any key length");
    mac.update(format!("{id}.{timestamp}.").as_bytes());
    mac.update(body);
    Some(format!("v1,{}", base64::engine::general_purpose::STANDARD.encode(mac.finalize().into_bytes())))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_signatures_match_the_schemes_example() {
        // The example of the Standard Webhooks specification (and of its libraries' tests).
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        let body = br#"{"test": 2432232314}"#;
        assert_eq!(
            standard_sign(secret, "msg_p5jXN8AQM9LWM0D4loKWxJek", 1614265330, body).as_deref(),
            Some("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        );
        assert_eq!(standard_sign("a plain tenant secret", "id", 1, b"{}"), None);
    }

    #[test]
    fn signatures_are_hmac_sha256_hex() {
        // RFC 4231 test case 2.
        assert_eq!(
            sign("Jefe", b"what do ya want for nothing?"),
            "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }
}

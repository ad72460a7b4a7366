//! Sign-in with an identity provider: a JWT that the tenant's people got from Auth0, Clerk,
//! Supabase or Keycloak works on every `/v1/` route in place of an API key (DESIGN
//! "Identity-provider tokens"). One provider per node: its keys come from a JWKS URL (by `kid`,
//! fetched on first use and again for an unknown `kid`, at most every 30 s), one PEM public key,
//! or an HS256 secret. jsonwebtoken checks the signature and that the token's `alg` is the key's;
//! the claims (`exp` required, `nbf`, `iss`, `aud`) are checked here against the engine's clock,
//! with 60 s of leeway, so tests move time instead of sleeping.

use std::collections::HashMap;
use std::sync::RwLock;
use std::time::Duration;

use chrono::{DateTime, Utc};
use jsonwebtoken::jwk::{AlgorithmParameters, EllipticCurve, JwkSet, KeyAlgorithm};
use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use serde_json::{Map, Value};
use ulid::Ulid;

use crate::EngineError;

/// Leeway on `exp` and `nbf`, for clocks that disagree a little.
pub const LEEWAY_SECS: i64 = 60;

/// Fewest seconds between two JWKS fetches, so a flood of tokens naming unknown keys cannot
/// hammer the provider.
pub const REFETCH_EVERY: Duration = Duration::from_secs(30);

/// Where the provider's keys come from.
#[derive(Debug, Clone)]
pub enum KeySource {
    /// A JWKS URL: RS256, ES256 and EdDSA keys by `kid`.
    Jwks(String),
    /// One public key, PEM (RSA, EC P-256 or Ed25519).
    Pem(String),
    /// A shared HS256 secret (as Supabase uses).
    Hs256(String),
}

/// The provider's settings.
#[derive(Debug, Clone)]
pub struct IdentityConfig {
    /// Its keys.
    pub source: KeySource,
    /// `iss` the tokens must carry, when set.
    pub issuer: Option<String>,
    /// `aud` the tokens must carry (or include), when set.
    pub audience: Option<String>,
    /// The claim naming the pigeon tenant id (default `tenant_id`).
    pub tenant_claim: String,
}

/// Whom a verified token speaks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Principal {
    /// The tenant in the tenant claim (not yet known to exist).
    pub tenant_id: Ulid,
    /// The provider's subject: the rate limit is per `sub`.
    pub sub: String,
    /// The token's `exp` (Unix seconds): a dashboard session it opens ends with it.
    pub exp: i64,
}

/// True for a bearer token shaped like a JWT (three dot-separated parts); our keys never are.
pub fn looks_like_jwt(token: &str) -> bool {
    !token.starts_with("svc_") && token.split('.').count() == 3
}

/// The verifier, shared by every request.
pub struct Identity {
    config: IdentityConfig,
    /// The fixed key of a PEM or HS256 source.
    fixed: Option<(DecodingKey, Algorithm)>,
    jwks: RwLock<Jwks>,
    /// One JWKS fetch at a time; the others wait for its result.
    fetching: tokio::sync::Mutex<()>,
}

#[derive(Default)]
struct Jwks {
    keys: HashMap<String, (DecodingKey, Algorithm)>,
    fetched_at: Option<DateTime<Utc>>,
}

fn refused(why: &'static str) -> EngineError {
    EngineError::InvalidToken(why)
}

impl Identity {
    /// Loads the fixed key, if the source has one; a PEM that is no public key is an error.
    pub fn new(config: IdentityConfig) -> Result<Self, String> {
        let fixed = match &config.source {
            KeySource::Jwks(_) => None,
            KeySource::Hs256(secret) => Some((DecodingKey::from_secret(secret.as_bytes()), Algorithm::HS256)),
            KeySource::Pem(pem) => {
                let pem = pem.as_bytes();
                let key = DecodingKey::from_rsa_pem(pem)
                    .map(|k| (k, Algorithm::RS256))
                    .or_else(|_| DecodingKey::from_ec_pem(pem).map(|k| (k, Algorithm::ES256)))
                    .or_else(|_| DecodingKey::from_ed_pem(pem).map(|k| (k, Algorithm::EdDSA)))
                    .map_err(|_| "the identity provider's PEM file holds no RSA, EC or Ed25519 public key")?;
                Some(key)
            }
        };
        Ok(Self { config, fixed, jwks: RwLock::default(), fetching: tokio::sync::Mutex::new(()) })
    }

    /// The tenant claim of a token, read without verifying it: only where to route it (a fleet's
    /// forwarding); the owner verifies it before anything is done for it.
    pub fn unverified_tenant(&self, token: &str) -> Option<Ulid> {
        use base64::Engine as _;
        let payload = token.split('.').nth(1)?;
        let bytes =
            base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(payload.trim_end_matches('=')).ok()?;
        let claims: Map<String, Value> = serde_json::from_slice(&bytes).ok()?;
        claims.get(&self.config.tenant_claim)?.as_str()?.parse().ok()
    }

    /// Verifies `token` at `now`: signature, algorithm, `exp`, `nbf`, `iss`, `aud`, the tenant
    /// claim and `sub`.
    pub async fn verify(&self, token: &str, now: DateTime<Utc>) -> Result<Principal, EngineError> {
        let header = jsonwebtoken::decode_header(token).map_err(|_| refused("malformed token"))?;
        if names_critical_extensions(token) {
            return Err(refused("critical header extensions not understood"));
        }
        let (key, alg) = match &self.fixed {
            Some(k) => k.clone(),
            None => self.jwk(header.kid.as_deref().unwrap_or(""), now).await?,
        };
        if header.alg != alg {
            return Err(refused("algorithm not allowed for this key"));
        }
        let mut v = Validation::new(alg);
        v.validate_exp = false;
        v.validate_nbf = false;
        v.validate_aud = false;
        v.required_spec_claims.clear();
        let claims = jsonwebtoken::decode::<Map<String, Value>>(token, &key, &v)
            .map_err(|e| match e.kind() {
                jsonwebtoken::errors::ErrorKind::InvalidSignature => refused("bad signature"),
                jsonwebtoken::errors::ErrorKind::InvalidAlgorithm => {
                    refused("algorithm not allowed for this key")
                }
                _ => refused("malformed token"),
            })?
            .claims;
        self.check_claims(&claims, now)
    }

    fn check_claims(&self, c: &Map<String, Value>, now: DateTime<Utc>) -> Result<Principal, EngineError> {
        let now = now.timestamp();
        let exp = c.get("exp").ok_or(refused("no exp claim"))?.as_i64().ok_or(refused("malformed exp"))?;
        // Saturating: an `exp` near `i64::MAX` is far in the future, not an overflow.
        if now > exp.saturating_add(LEEWAY_SECS) {
            return Err(refused("expired"));
        }
        if let Some(nbf) = c.get("nbf") {
            if now.saturating_add(LEEWAY_SECS) < nbf.as_i64().ok_or(refused("malformed nbf"))? {
                return Err(refused("not yet valid"));
            }
        }
        if let Some(iss) = &self.config.issuer {
            if c.get("iss").and_then(Value::as_str) != Some(iss.as_str()) {
                return Err(refused("wrong issuer"));
            }
        }
        if let Some(aud) = &self.config.audience {
            let ok = match c.get("aud") {
                Some(Value::String(a)) => a == aud,
                Some(Value::Array(all)) => all.iter().any(|a| a.as_str() == Some(aud.as_str())),
                _ => false,
            };
            if !ok {
                return Err(refused("wrong audience"));
            }
        }
        let tenant = c
            .get(&self.config.tenant_claim)
            .and_then(Value::as_str)
            .and_then(|t| Ulid::from_string(t).ok())
            .ok_or(refused("unknown tenant"))?;
        let sub =
            c.get("sub").and_then(Value::as_str).filter(|s| !s.is_empty()).ok_or(refused("no sub claim"))?;
        Ok(Principal { tenant_id: tenant, sub: sub.to_owned(), exp })
    }

    /// The JWKS key named `kid`, fetching the set when it is unknown and the last fetch is
    /// older than [`REFETCH_EVERY`] (on the engine's clock, `now`).
    async fn jwk(&self, kid: &str, now: DateTime<Utc>) -> Result<(DecodingKey, Algorithm), EngineError> {
        if let Some(k) = self.jwks.read().unwrap().keys.get(kid) {
            return Ok(k.clone());
        }
        let KeySource::Jwks(url) = &self.config.source else { return Err(refused("unknown signing key")) };
        let _one = self.fetching.lock().await;
        // Fetched meanwhile by the request we waited for?
        let due = {
            let jwks = self.jwks.read().unwrap();
            if let Some(k) = jwks.keys.get(kid) {
                return Ok(k.clone());
            }
            jwks.fetched_at.is_none_or(|at| (now - at).to_std().is_ok_and(|d| d >= REFETCH_EVERY))
        };
        if due {
            let fetched = fetch(url).await;
            let mut jwks = self.jwks.write().unwrap();
            jwks.fetched_at = Some(now);
            match fetched {
                Ok(keys) => {
                    tracing::info!(keys = keys.len(), "fetched the identity provider's keys");
                    jwks.keys = keys;
                }
                Err(e) => {
                    tracing::warn!(error = %e, "cannot fetch the identity provider's keys");
                    if jwks.keys.is_empty() {
                        return Err(EngineError::IdentityUnavailable);
                    }
                }
            }
        }
        self.jwks.read().unwrap().keys.get(kid).cloned().ok_or(refused("unknown signing key"))
    }
}

/// True when the token's header has a `crit` member. RFC 7515 §4.1.11: a recipient must refuse
/// a token naming critical extensions it does not understand, and this node understands none
/// (jsonwebtoken's `Header` drops the member, so the header is read again here).
fn names_critical_extensions(token: &str) -> bool {
    use base64::Engine as _;
    let Some(head) = token.split('.').next() else { return false };
    let Ok(bytes) = base64::engine::general_purpose::URL_SAFE_NO_PAD.decode(head.trim_end_matches('='))
    else {
        return true;
    };
    serde_json::from_slice::<Map<String, Value>>(&bytes).map_or(true, |h| h.contains_key("crit"))
}

/// Fetches a JWKS and keeps the keys it can use, by `kid`.
async fn fetch(url: &str) -> Result<HashMap<String, (DecodingKey, Algorithm)>, String> {
    let client = awc::Client::builder()
        .connector(awc::Connector::new().rustls_0_23(pigeon_protocol::tls::client_config()))
        .timeout(Duration::from_secs(5))
        .finish();
    let mut res = client.get(url).send().await.map_err(|e| e.to_string())?;
    if !res.status().is_success() {
        return Err(format!("status {}", res.status()));
    }
    let body = res.body().limit(1024 * 1024).await.map_err(|e| e.to_string())?;
    let set: JwkSet = serde_json::from_slice(&body).map_err(|e| format!("not a JWKS: {e}"))?;
    let mut keys = HashMap::new();
    for jwk in &set.keys {
        let alg = match (&jwk.common.key_algorithm, &jwk.algorithm) {
            (Some(KeyAlgorithm::RS256), _) | (None, AlgorithmParameters::RSA(_)) => Algorithm::RS256,
            (Some(KeyAlgorithm::ES256), _) => Algorithm::ES256,
            (None, AlgorithmParameters::EllipticCurve(p)) if p.curve == EllipticCurve::P256 => {
                Algorithm::ES256
            }
            (Some(KeyAlgorithm::EdDSA), _) => Algorithm::EdDSA,
            (None, AlgorithmParameters::OctetKeyPair(p)) if p.curve == EllipticCurve::Ed25519 => {
                Algorithm::EdDSA
            }
            _ => continue,
        };
        if let Ok(key) = DecodingKey::from_jwk(jwk) {
            keys.insert(jwk.common.key_id.clone().unwrap_or_default(), (key, alg));
        }
    }
    if keys.is_empty() {
        return Err("the JWKS holds no RS256, ES256 or EdDSA key".into());
    }
    Ok(keys)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn hs(claims: Value) -> String {
        let key = jsonwebtoken::EncodingKey::from_secret(b"s3cret");
        jsonwebtoken::encode(&jsonwebtoken::Header::default(), &claims, &key).unwrap()
    }

    #[actix_rt::test]
    async fn claims_are_checked_against_the_given_clock() {
        let config = IdentityConfig {
            source: KeySource::Hs256("s3cret".into()),
            issuer: Some("https://idp".into()),
            audience: Some("pigeon".into()),
            tenant_claim: "org".into(),
        };
        let id = Identity::new(config).unwrap();
        let now = Utc::now();
        let t = now.timestamp();
        let tenant = Ulid::generate();
        let good = json_claims(t + 600, tenant);
        let p = id.verify(&hs(good.clone()), now).await.unwrap();
        assert_eq!(p, Principal { tenant_id: tenant, sub: "user-1".into(), exp: t + 600 });
        let later = now + chrono::Duration::seconds(600 + LEEWAY_SECS + 1);
        assert_eq!(
            id.verify(&hs(good.clone()), later).await.unwrap_err().to_string(),
            "invalid token: expired"
        );
        let within = now + chrono::Duration::seconds(600 + LEEWAY_SECS);
        assert!(id.verify(&hs(good), within).await.is_ok(), "60 s of leeway");
        let mut aud = json_claims(t + 600, tenant);
        aud["aud"] = serde_json::json!(["other", "pigeon"]);
        assert!(id.verify(&hs(aud), now).await.is_ok(), "an audience list that includes ours");
        assert!(looks_like_jwt("a.b.c") && !looks_like_jwt("svc_live_x") && !looks_like_jwt("a.b"));
    }

    /// The API guide's Auth0 example: a namespaced tenant claim.
    #[actix_rt::test]
    async fn an_auth0_shaped_token() {
        let claim = "https://pigeon.example/tenant_id";
        let id = Identity::new(IdentityConfig {
            source: KeySource::Hs256("s3cret".into()),
            issuer: Some("https://YOUR_TENANT.auth0.com/".into()),
            audience: Some("https://pigeon.example/api".into()),
            tenant_claim: claim.into(),
        })
        .unwrap();
        let token =
            hs(serde_json::json!({"iss": "https://YOUR_TENANT.auth0.com/", "sub": "auth0|6543f0c2e1",
            "aud": "https://pigeon.example/api", "iat": 1795420800, "exp": 1795507200,
            claim: "01M84AE173BRQHZW7D07B2X0CW"}));
        let at = DateTime::from_timestamp(1795420800 + 60, 0).unwrap();
        let p = id.verify(&token, at).await.unwrap();
        assert_eq!(p.tenant_id.to_string(), "01M84AE173BRQHZW7D07B2X0CW");
        assert_eq!(p.sub, "auth0|6543f0c2e1");
    }

    /// An `exp` at the edge of `i64` is far off, not an overflow; `crit` naming anything is
    /// refused (RFC 7515 §4.1.11).
    #[actix_rt::test]
    async fn extreme_exp_and_critical_headers() {
        let id = Identity::new(IdentityConfig {
            source: KeySource::Hs256("s3cret".into()),
            issuer: None,
            audience: None,
            tenant_claim: "org".into(),
        })
        .unwrap();
        let tenant = Ulid::generate();
        let far = hs(json_claims(i64::MAX, tenant));
        assert_eq!(id.verify(&far, Utc::now()).await.unwrap().exp, i64::MAX);
        let header = jsonwebtoken::Header::default();
        let key = jsonwebtoken::EncodingKey::from_secret(b"s3cret");
        let claims = json_claims(Utc::now().timestamp() + 600, tenant);
        // jsonwebtoken cannot write `crit`: the header is made by hand and signed the same way.
        use base64::Engine as _;
        let b64 = |v: &Value| base64::engine::general_purpose::URL_SAFE_NO_PAD.encode(v.to_string());
        let head = b64(&serde_json::json!({"alg": "HS256", "typ": "JWT", "crit": ["exp"], "exp": 1}));
        let signing_input = format!("{head}.{}", b64(&claims));
        let sig = jsonwebtoken::crypto::sign(signing_input.as_bytes(), &key, Algorithm::HS256).unwrap();
        let crit = format!("{signing_input}.{sig}");
        assert_eq!(
            id.verify(&crit, Utc::now()).await.unwrap_err().to_string(),
            "invalid token: critical header extensions not understood"
        );
        let plain = jsonwebtoken::encode(&header, &claims, &key).unwrap();
        assert!(id.verify(&plain, Utc::now()).await.is_ok(), "the same token without crit passes");
    }

    fn json_claims(exp: i64, tenant: Ulid) -> Value {
        serde_json::json!({"exp": exp, "sub": "user-1", "iss": "https://idp", "aud": "pigeon", "org": tenant.to_string()})
    }
}

//! Dashboard sign-in and sessions. Signing in checks the value as the API would (an API key's
//! full hash in constant time, an identity provider's token, or the operator token) but charges
//! no rate or quota. A session is a random id in the browser's cookie and its SHA-256 in the
//! store; every page checks it again, so revoking or deactivating its key, or suspending its
//! tenant, ends it at once, and 12 hours without a page end it too. An operator session is bound
//! to the operator token it was opened with (a new token ends it), and an identity provider's
//! session ends when its token expires, as the API refuses the token then.

use chrono::Duration;
use pigeon_storage::model::{SessionPrincipal, SessionRecord, TenantStatus};
use ulid::Ulid;

use super::Engine;
use crate::{credentials, EngineError};

/// A session ends this long after its last page.
pub const SESSION_IDLE: Duration = Duration::hours(12);

/// How long a sign-in form stays good after it was served.
pub const SIGN_IN_FORM_TTL: Duration = Duration::hours(1);

/// `last_seen_at` is written at most this often (a page view is not worth a write each).
const TOUCH_EVERY: Duration = Duration::minutes(1);

/// A live dashboard session.
#[derive(Debug, Clone)]
pub struct Session {
    /// Who signed in.
    pub principal: SessionPrincipal,
    /// The token its forms carry.
    pub csrf: String,
}

impl Session {
    /// The tenant the session speaks for; `None` for the operator.
    pub fn tenant(&self) -> Option<Ulid> {
        match &self.principal {
            SessionPrincipal::Key { tenant_id, .. } | SessionPrincipal::Subject { tenant_id, .. } => {
                Some(*tenant_id)
            }
            SessionPrincipal::Operator { .. } => None,
        }
    }
}

/// What an operator session keeps of the operator token: a digest of its stored hash, so the
/// session record holds nothing that opens the API.
fn operator_digest(admin_hash: &str) -> String {
    credentials::hash(&format!("pigeon operator session {admin_hash}"))
}

impl Engine {
    /// A sign-in form's pre-session (for a short-lived cookie: its time and a random part) and the
    /// CSRF token bound to it, which the form carries: a page elsewhere cannot sign a browser in
    /// to an account of its choosing (login CSRF). Nothing is stored: the token is an HMAC under
    /// the operator token's stored hash, so every node of a fleet checks it alike.
    pub fn sign_in_form(&self) -> (String, String) {
        let pre = format!("{}.{}", self.inner.clock.now().timestamp(), credentials::generate("pre_"));
        let token = self.sign_in_form_token(&pre);
        (pre, token)
    }

    /// Whether `token` is the CSRF token of the pre-session `pre`, served within
    /// [`SIGN_IN_FORM_TTL`].
    pub fn sign_in_form_ok(&self, pre: &str, token: &str) -> bool {
        let Some(at) = pre.split_once('.').and_then(|(t, _)| t.parse::<i64>().ok()) else { return false };
        let age = self.inner.clock.now().timestamp().saturating_sub(at);
        (-60..=SIGN_IN_FORM_TTL.num_seconds()).contains(&age)
            && credentials::hashes_match(token, &self.sign_in_form_token(pre))
    }

    fn sign_in_form_token(&self, pre: &str) -> String {
        use hmac::{Hmac, KeyInit, Mac};
        let key = self.inner.admin_hash.read().unwrap().clone().unwrap_or_default();
        let mut mac =
            Hmac::<sha2::Sha256>::new_from_slice(key.as_bytes()).expect("HMAC takes any key length");
        mac.update(b"pigeon sign-in form ");
        mac.update(pre.as_bytes());
        hex::encode(mac.finalize().into_bytes())
    }

    /// Signs in with an API key, an identity provider's JWT or the operator token: the new
    /// session's id (for the cookie, never stored) and the session, on disk before it returns.
    pub async fn sign_in(&self, value: &str) -> Result<(String, Session), EngineError> {
        let value = value.trim();
        // Nothing to compare: an empty value must never match anything (an operator token left
        // empty by accident included).
        if value.is_empty() {
            return Err(EngineError::InvalidApiKey);
        }
        let principal = if self.is_admin(value) {
            let hash = self.inner.admin_hash.read().unwrap().clone().ok_or(EngineError::InvalidApiKey)?;
            SessionPrincipal::Operator { token: operator_digest(&hash) }
        } else {
            let located = self.locate(value).await?;
            match located.who {
                crate::tenant::Credential::Key { key_id, hash } => {
                    let key = self.inner.store.keys().get(located.tenant_id, key_id)?;
                    if !key.is_some_and(|k| credentials::hashes_match(&k.hash, &hash)) {
                        return Err(EngineError::InvalidApiKey);
                    }
                    SessionPrincipal::Key { tenant_id: located.tenant_id, key_id }
                }
                crate::tenant::Credential::Subject(sub) => SessionPrincipal::Subject {
                    tenant_id: located.tenant_id,
                    sub,
                    expires: located.expires.unwrap_or(0),
                },
            }
        };
        let now = self.inner.clock.now();
        self.still_valid(&principal)?;
        // Sessions left to idle away are few; clear them out as new ones come.
        self.inner.store.sessions().expire(now - SESSION_IDLE)?;
        let id = credentials::generate("sess_");
        let rec = SessionRecord {
            principal,
            csrf: credentials::generate("csrf_"),
            created_at: now,
            last_seen_at: now,
        };
        self.inner.store.sessions().put(&credentials::hash(&id), &rec)?;
        self.inner.store.commit().await?;
        Ok((id, Session { principal: rec.principal, csrf: rec.csrf }))
    }

    /// The live session of a cookie's id. An unknown, idle, or no longer valid session (its key
    /// revoked or deactivated, its tenant suspended) is refused, and a stale one deleted.
    pub fn session(&self, id: &str) -> Result<Session, EngineError> {
        let hash = credentials::hash(id);
        let sessions = self.inner.store.sessions();
        let mut rec = sessions.get(&hash)?.ok_or(EngineError::InvalidApiKey)?;
        let now = self.inner.clock.now();
        if now - rec.last_seen_at > SESSION_IDLE || self.still_valid(&rec.principal).is_err() {
            sessions.delete(&hash)?;
            return Err(EngineError::InvalidApiKey);
        }
        if now - rec.last_seen_at >= TOUCH_EVERY {
            rec.last_seen_at = now;
            sessions.put(&hash, &rec)?;
        }
        Ok(Session { principal: rec.principal, csrf: rec.csrf })
    }

    /// Ends a session.
    pub async fn sign_out(&self, id: &str) -> Result<(), EngineError> {
        self.inner.store.sessions().delete(&credentials::hash(id))?;
        self.inner.store.commit().await?;
        Ok(())
    }

    /// Whether a principal may still use the dashboard: the operator token it was opened with
    /// still the stored one; its key unrevoked and active, or its identity token unexpired; its
    /// tenant not suspended.
    fn still_valid(&self, p: &SessionPrincipal) -> Result<(), EngineError> {
        let store = &self.inner.store;
        let tenant = match p {
            SessionPrincipal::Operator { token } => {
                // The stored hash, not this node's copy: in a fleet another node may have
                // started with a new token.
                let current = store.meta().admin_token_hash()?.ok_or(EngineError::InvalidApiKey)?;
                if token.is_empty() || !credentials::hashes_match(token, &operator_digest(&current)) {
                    return Err(EngineError::InvalidApiKey);
                }
                return Ok(());
            }
            SessionPrincipal::Key { tenant_id, key_id } => {
                let key = store.keys().get(*tenant_id, *key_id)?.ok_or(EngineError::InvalidApiKey)?;
                if key.revoked_at.is_some() {
                    return Err(EngineError::InvalidApiKey);
                }
                if !key.active {
                    return Err(EngineError::KeyInactive);
                }
                *tenant_id
            }
            SessionPrincipal::Subject { tenant_id, expires, .. } => {
                let now = self.inner.clock.now().timestamp();
                if now > expires.saturating_add(crate::identity::LEEWAY_SECS) {
                    return Err(EngineError::InvalidToken("expired"));
                }
                *tenant_id
            }
        };
        let t = store.tenants().get(tenant)?.ok_or(EngineError::InvalidApiKey)?;
        if t.status == TenantStatus::Suspended {
            return Err(EngineError::TenantSuspended);
        }
        Ok(())
    }
}

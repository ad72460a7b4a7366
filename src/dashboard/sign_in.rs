//! Signing in and out: the form, the session cookie and its flags.

use actix_web::cookie::{Cookie, SameSite};
use actix_web::http::{header, StatusCode};
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup};
use pigeon_actors::Engine;
use serde::Deserialize;

use super::*;

/// The sign-in form's pre-session cookie, which its CSRF token is bound to.
const PRE_COOKIE: &str = "pigeon_sign_in";

fn login_form(message: Option<&str>, csrf: &str) -> Markup {
    page(
        "Sign in",
        None,
        html! {
            @if let Some(m) = message { p.error role="alert" { (m) } }
            form method="post" action="/dashboard/login" {
                input type="hidden" name="csrf" value=(csrf);
                label for="key" { "API key" }
                input id="key" name="key" type="password" autocomplete="off" required;
                div { button type="submit" { "Sign in" } }
            }
            p { "A live or test API key, a token of your identity provider, or the operator token." }
        },
    )
}

/// The form (with `message`, if any) under a fresh pre-session: every form served carries its
/// own token.
fn form_response(engine: &Engine, secure: bool, status: StatusCode, message: Option<&str>) -> HttpResponse {
    let (pre, csrf) = engine.sign_in_form();
    let cookie = Cookie::build(PRE_COOKIE, pre)
        .path("/dashboard/login")
        .http_only(true)
        .same_site(SameSite::Strict)
        .secure(secure)
        .max_age(actix_web::cookie::time::Duration::seconds(pigeon_actors::SIGN_IN_FORM_TTL.num_seconds()))
        .finish();
    let mut res = html_response(status, login_form(message, &csrf));
    let _ = res.add_cookie(&cookie);
    res
}

pub(super) async fn login_page(engine: web::Data<Engine>, secure: web::Data<SecureCookies>) -> HttpResponse {
    form_response(&engine, secure.0, StatusCode::OK, None)
}

#[derive(Deserialize)]
pub(super) struct LoginForm {
    key: String,
    #[serde(default)]
    csrf: String,
}

/// Signs in: throttled by client address (10 failures a minute, then 429 for every attempt
/// until the minute is over), then the form's CSRF token against its pre-session cookie, then
/// the value.
pub(super) async fn login(
    engine: web::Data<Engine>,
    secure: web::Data<SecureCookies>,
    req: HttpRequest,
    form: Result<web::Form<LoginForm>, actix_web::Error>,
) -> HttpResponse {
    let secure = secure.0;
    let Ok(form) = form else {
        return form_response(&engine, secure, StatusCode::BAD_REQUEST, Some("Enter an API key."));
    };
    let ip = crate::extract::client_ip(&req);
    if let Err(e @ EngineError::SignInThrottled { .. }) = engine.sign_in_allowed(ip) {
        return refused(&engine, secure, e);
    }
    let pre = req.cookie(PRE_COOKIE).map(|c| c.value().to_owned()).unwrap_or_default();
    if !engine.sign_in_form_ok(&pre, &form.csrf) {
        let why = "The sign-in form was stale or opened elsewhere; enter your key again.";
        return form_response(&engine, secure, StatusCode::FORBIDDEN, Some(why));
    }
    match engine.sign_in_from(&form.key, ip).await {
        Ok((id, _)) => {
            let cookie = Cookie::build(COOKIE, id)
                .path("/dashboard")
                .http_only(true)
                .same_site(SameSite::Strict)
                .secure(secure)
                .finish();
            let mut res = see_other("/dashboard/");
            let _ = res.add_cookie(&cookie);
            let mut used = Cookie::build(PRE_COOKIE, "").path("/dashboard/login").finish();
            used.make_removal();
            let _ = res.add_cookie(&used);
            res
        }
        Err(e) => refused(&engine, secure, e),
    }
}

/// The form again, saying why the sign-in was refused.
fn refused(engine: &Engine, secure: bool, e: EngineError) -> HttpResponse {
    let (status, why) = match e {
        EngineError::SignInThrottled { retry_after } => {
            let why = format!("Too many failed sign-ins from your address; try again in {retry_after} s.");
            let mut res = form_response(engine, secure, StatusCode::TOO_MANY_REQUESTS, Some(&why));
            res.headers_mut().insert(header::RETRY_AFTER, retry_after.into());
            return res;
        }
        EngineError::KeyInactive => (StatusCode::UNAUTHORIZED, "This key has been deactivated.".to_owned()),
        EngineError::TenantSuspended => {
            (StatusCode::UNAUTHORIZED, "This account has been suspended.".to_owned())
        }
        EngineError::IdentityUnavailable => (
            StatusCode::UNAUTHORIZED,
            "The identity provider cannot be reached; try again shortly.".to_owned(),
        ),
        EngineError::InvalidToken(why) => {
            (StatusCode::UNAUTHORIZED, format!("That token was refused: {why}."))
        }
        EngineError::Store(_) => {
            (StatusCode::UNAUTHORIZED, "The server cannot sign you in right now.".to_owned())
        }
        _ => (StatusCode::UNAUTHORIZED, "That key is not valid.".to_owned()),
    };
    form_response(engine, secure, status, Some(&why))
}

pub(super) async fn logout(
    engine: web::Data<Engine>,
    req: HttpRequest,
    form: Result<web::Form<CsrfForm>, actix_web::Error>,
) -> HttpResponse {
    let Some((id, s)) = session(&engine, &req) else { return see_other("/dashboard/login") };
    let valid = form.is_ok_and(|f| csrf_ok(&s, &f.csrf));
    if !valid {
        return html_response(
            StatusCode::FORBIDDEN,
            page(
                "Refused",
                Some(&s),
                html! { p.error role="alert" { "The form was stale; nothing changed." } },
            ),
        );
    }
    let _ = engine.sign_out(&id).await;
    let mut res = see_other("/dashboard/login");
    let mut gone = Cookie::build(COOKIE, "").path("/dashboard").finish();
    gone.make_removal();
    let _ = res.add_cookie(&gone);
    res
}

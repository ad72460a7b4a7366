//! Signing in and out: the form, the session cookie and its flags.

use actix_web::cookie::{Cookie, SameSite};
use actix_web::http::StatusCode;
use actix_web::{web, HttpRequest, HttpResponse};
use maud::{html, Markup};
use pigeon_actors::Engine;
use serde::Deserialize;

use super::*;

fn login_form(message: Option<&str>) -> Markup {
    page(
        "Sign in",
        None,
        html! {
            @if let Some(m) = message { p.error role="alert" { (m) } }
            form method="post" action="/dashboard/login" {
                label for="key" { "API key" }
                input id="key" name="key" type="password" autocomplete="off" required;
                div { button type="submit" { "Sign in" } }
            }
            p { "A live or test API key, a token of your identity provider, or the operator token." }
        },
    )
}

pub(super) async fn login_page() -> HttpResponse {
    html_response(StatusCode::OK, login_form(None))
}

#[derive(Deserialize)]
pub(super) struct LoginForm {
    key: String,
}

pub(super) async fn login(
    engine: web::Data<Engine>,
    secure: web::Data<SecureCookies>,
    form: Result<web::Form<LoginForm>, actix_web::Error>,
) -> HttpResponse {
    let Ok(form) = form else {
        return html_response(StatusCode::BAD_REQUEST, login_form(Some("Enter an API key.")));
    };
    match engine.sign_in(&form.key).await {
        Ok((id, _)) => {
            let cookie = Cookie::build(COOKIE, id)
                .path("/dashboard")
                .http_only(true)
                .same_site(SameSite::Strict)
                .secure(secure.0)
                .finish();
            let mut res = see_other("/dashboard/");
            let _ = res.add_cookie(&cookie);
            res
        }
        Err(e) => {
            let why = match e {
                EngineError::KeyInactive => "This key has been deactivated.".to_owned(),
                EngineError::TenantSuspended => "This account has been suspended.".to_owned(),
                EngineError::IdentityUnavailable => {
                    "The identity provider cannot be reached; try again shortly.".to_owned()
                }
                EngineError::InvalidToken(why) => format!("That token was refused: {why}."),
                EngineError::Store(_) => "The server cannot sign you in right now.".to_owned(),
                _ => "That key is not valid.".to_owned(),
            };
            html_response(StatusCode::UNAUTHORIZED, login_form(Some(&why)))
        }
    }
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

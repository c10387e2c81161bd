//! Anonymous players: a secret player token, kept in an HttpOnly,
//! SameSite cookie (or sent by scripts in the `X-Tabula-Player` header),
//! ties a person's tables together without an account.

use axum::extract::Request;
use axum::http::{HeaderMap, HeaderValue, header};
use axum::middleware::Next;
use axum::response::Response;

use crate::token::Token;

/// The cookie's name.
pub const COOKIE: &str = "tabula_player";

/// The header scripts may send instead of the cookie.
pub const HEADER: &str = "x-tabula-player";

/// Who is asking: the player token the request presented, or the fresh one
/// it is being given (`fresh`: nobody has it yet, so it claims nothing).
#[derive(Debug, Clone)]
pub struct Presented {
    /// The token; `None` only if the OS random source failed.
    pub token: Option<Token>,
    /// Whether the request came without one.
    pub fresh: bool,
}

impl Presented {
    /// The token, if the request presented one.
    pub fn known(&self) -> Option<&Token> {
        self.token.as_ref().filter(|_| !self.fresh)
    }
}

/// The player token a request presents (header first, then cookie).
pub fn presented(headers: &HeaderMap) -> Option<Token> {
    if let Some(value) = headers.get(HEADER).and_then(|v| v.to_str().ok()) {
        return Token::parse(value.trim());
    }
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .filter_map(|pair| pair.trim().split_once('='))
        .find(|(name, _)| *name == COOKIE)
        .and_then(|(_, value)| Token::parse(value))
}

/// Puts the presented player token in the request's extensions; to a
/// request that presented none it gives a fresh one in a cookie (the page's
/// first visit), valid for a year.
pub async fn identify(mut request: Request, next: Next) -> Response {
    let known = presented(request.headers());
    let fresh = match known {
        Some(_) => None,
        None => Token::generate().ok(),
    };
    request.extensions_mut().insert(Presented {
        fresh: known.is_none(),
        token: known.or_else(|| fresh.clone()),
    });
    let mut response = next.run(request).await;
    if let Some(token) = fresh {
        let cookie = format!(
            "{COOKIE}={}; Path=/; Max-Age=31536000; HttpOnly; SameSite=Lax",
            token.reveal()
        );
        if let Ok(value) = HeaderValue::from_str(&cookie) {
            response.headers_mut().append(header::SET_COOKIE, value);
        }
    }
    response
}

//! The browser page (`web/public`) and the rule books (`docs/rules`), served
//! from the binary.
//!
//! rust-embed embeds the files in release builds; debug builds read them
//! from disk (its `debug-embed` feature is off), so the page can be edited
//! and reloaded without rebuilding. Every answer carries an `ETag` (the
//! file's SHA-256) and `Cache-Control: no-cache`: the browser revalidates
//! each load and gets `304 Not Modified` while the file is unchanged, so a
//! new binary is never hidden behind a stale cache.

use axum::Router;
use axum::extract::Path;
use axum::http::{HeaderMap, HeaderValue, StatusCode, header};
use axum::response::{IntoResponse, Response};
use axum::routing::get;
use rust_embed::{EmbeddedFile, RustEmbed};

/// The page's files.
#[derive(RustEmbed)]
#[folder = "../../web/public"]
struct Page;

/// The project's readings of the rule books, one Markdown file per game.
#[derive(RustEmbed)]
#[folder = "../../docs/rules"]
struct Rules;

/// The page's routes: `/` the lobby, `/t/{id}` a table, `/rules/{game}` a
/// game's rules, `/static/{*path}` the scripts, styles and pictures, and
/// `/rules/{game}.md` the rule text the rules page shows.
pub fn router<S: Clone + Send + Sync + 'static>() -> Router<S> {
    Router::new()
        .route(
            "/",
            get(|h: HeaderMap| async move { page("index.html", &h) }),
        )
        .route(
            "/t/{id}",
            get(|h: HeaderMap| async move { page("table.html", &h) }),
        )
        .route("/rules/{game}", get(rules))
        .route("/static/{*path}", get(file))
}

/// The content type of a file by its extension.
fn content_type(path: &str) -> &'static str {
    match path.rsplit_once('.').map(|(_, ext)| ext) {
        Some("html") => "text/html; charset=utf-8",
        Some("js" | "mjs") => "text/javascript; charset=utf-8",
        Some("css") => "text/css; charset=utf-8",
        Some("svg") => "image/svg+xml",
        Some("png") => "image/png",
        Some("json") => "application/json",
        Some("md") => "text/markdown; charset=utf-8",
        Some("ico") => "image/x-icon",
        Some("txt") => "text/plain; charset=utf-8",
        _ => "application/octet-stream",
    }
}

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "no such page").into_response()
}

/// Answers with `file`, or `304` when the browser's copy is current.
fn answer(file: EmbeddedFile, kind: &'static str, request: &HeaderMap) -> Response {
    let hash = file.metadata.sha256_hash();
    let etag = format!(
        "\"{}\"",
        hash.iter().map(|b| format!("{b:02x}")).collect::<String>()
    );
    let fresh = request
        .get(header::IF_NONE_MATCH)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|v| v.split(',').any(|t| t.trim() == etag));
    let mut headers = HeaderMap::new();
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-cache"));
    if let Ok(value) = HeaderValue::from_str(&etag) {
        headers.insert(header::ETAG, value);
    }
    if fresh {
        return (StatusCode::NOT_MODIFIED, headers).into_response();
    }
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(kind));
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        HeaderValue::from_static("nosniff"),
    );
    (headers, file.data.into_owned()).into_response()
}

fn page(name: &str, request: &HeaderMap) -> Response {
    match Page::get(name) {
        Some(file) => answer(file, content_type(name), request),
        None => not_found(),
    }
}

async fn file(Path(path): Path<String>, request: HeaderMap) -> Response {
    // Pages are served by their routes; only the files beside them here.
    if path.ends_with(".html") {
        return not_found();
    }
    page(&path, &request)
}

/// `/rules/chess` is the rules page; `/rules/chess.md` its text.
async fn rules(Path(game): Path<String>, request: HeaderMap) -> Response {
    match game.strip_suffix(".md") {
        Some(_) => match Rules::get(&game) {
            Some(file) => answer(file, content_type(&game), &request),
            None => not_found(),
        },
        None if Rules::get(&format!("{game}.md")).is_some() => page("rules.html", &request),
        None => not_found(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn content_types_follow_the_extension() {
        assert_eq!(content_type("table.js"), "text/javascript; charset=utf-8");
        assert_eq!(content_type("style.css"), "text/css; charset=utf-8");
        assert_eq!(content_type("pieces/king.svg"), "image/svg+xml");
        assert_eq!(content_type("README"), "application/octet-stream");
    }

    #[test]
    fn every_page_and_rule_book_is_there() {
        for name in ["index.html", "table.html", "rules.html", "app.css"] {
            assert!(Page::get(name).is_some(), "{name} is missing");
        }
        for game in [
            "chess", "epoch", "skirmish", "warrior", "covenant", "lytharia",
        ] {
            assert!(
                Rules::get(&format!("{game}.md")).is_some(),
                "{game}.md is missing"
            );
            let guide = format!("guide/{game}.md");
            assert!(Page::get(&guide).is_some(), "{guide} is missing");
        }
    }
}

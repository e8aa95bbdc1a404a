//! The helpers every integration test shares live in the dev-only `rxw-testkit` crate.

#[allow(unused_imports)]
pub use rxw_testkit::*;

/// A pattern compiled in `flavor` and run over `text`, for a differential test: the regex and
/// its matches, or the answer already made: `{"refused": …}` for what rxw cannot reproduce or
/// what passes its own limits (counted apart, never passed as agreement), `{"error": …}` for a
/// pattern the flavor rejects.
#[allow(dead_code)]
pub fn compile_and_find(
    pattern: &str,
    flavor: rxw_syntax::flavor::Flavor,
    flags: rxw_syntax::flavor::Flags,
    text: &str,
) -> Result<(rxw_engine::Regex, Vec<rxw_engine::Match>), serde_json::Value> {
    use rxw_syntax::ErrorKind;
    use serde_json::json;
    let re = match rxw_engine::Regex::new(pattern, flavor, flags) {
        Ok(re) => re,
        Err(e)
            if matches!(
                e.kind,
                ErrorKind::LimitExceeded | ErrorKind::ConstructUnsupported
            ) =>
        {
            return Err(json!({ "refused": e.message }));
        }
        Err(e) => return Err(json!({ "error": e.message })),
    };
    match re.find_all(text, None) {
        Ok(ms) => Ok((re, ms)),
        Err(e) => Err(json!({ "refused": e.message })),
    }
}

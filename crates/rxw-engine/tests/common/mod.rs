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

/// A match's spans as the project's node oracle writes them: UTF-8 byte offsets, and `-1` for
/// a position between the two halves of a surrogate pair (a JavaScript match without `u` that
/// cuts a pair, which rxw answers in UTF-16 units: [`rxw_engine::Match::pair_cut`]).
#[allow(dead_code)]
pub fn node_spans(m: &rxw_engine::Match, text: &str) -> serde_json::Value {
    let Some(cut) = &m.pair_cut else {
        return group_spans(&m.groups);
    };
    // UTF-16 index -> byte offset, -1 inside a pair (the oracle's byteOffsets).
    let mut bytes = Vec::with_capacity(text.len() + 1);
    let mut b = 0i64;
    for c in text.chars() {
        bytes.push(b);
        if c.len_utf16() == 2 {
            bytes.push(-1);
        }
        b += c.len_utf8() as i64;
    }
    bytes.push(b);
    serde_json::Value::from(
        cut.utf16
            .iter()
            .map(|g| {
                g.map_or(serde_json::Value::Null, |(s, e)| {
                    serde_json::json!([bytes[s], bytes[e]])
                })
            })
            .collect::<Vec<_>>(),
    )
}

/// A ReDoS check whose verdict the step caps decide, not the clock (the 900 ms default is the
/// agent tool's; a debug build in a loaded test run needs more for the same steps).
#[allow(dead_code)]
pub fn steps_decide() -> rxw_engine::redos::RedosOptions<'static> {
    rxw_engine::redos::RedosOptions {
        time: std::time::Duration::from_secs(120),
        ..rxw_engine::redos::RedosOptions::default()
    }
}

/// rxw's verdict on `pattern`, asserted exponential, and the attack it proves it with.
#[allow(dead_code)]
pub fn exponential_attack(
    pattern: &str,
    flavor: rxw_syntax::flavor::Flavor,
) -> rxw_engine::redos::Attack {
    let flags = rxw_syntax::flavor::Flags::default();
    let re = rxw_engine::Regex::new(pattern, flavor, flags).expect("compiles");
    let report = re.redos(steps_decide()).expect("a verdict");
    assert_eq!(
        report.verdict,
        rxw_engine::redos::Verdict::Exponential,
        "{pattern}"
    );
    report.attack.expect("an attack")
}

/// rxw's attack on the exponential `pattern` slows the real C engine `engine` (`pcre2`,
/// `oniguruma`: `tests/oracle/redos_timing.py` under `python`, its work limit lifted) down
/// exponentially: timed at growing n, the slowest search (over 0.3 s) takes at least twice the
/// one two pumps before.
#[allow(dead_code)]
pub fn assert_attack_slows_down(
    python: &std::path::Path,
    engine: &str,
    pattern: &str,
    flavor: rxw_syntax::flavor::Flavor,
) {
    let a = exponential_attack(pattern, flavor);
    let times = redos_timing(python, engine, pattern, &a.prefix, &a.pump, &a.suffix);
    let (n_last, t_last, outcome) = times.last().cloned().expect("a time");
    let (_, t_before, _) = times[times.len().saturating_sub(2)].clone();
    eprintln!("{pattern}: {engine} took {t_last:.3} s at n = {n_last} ({t_before:.3} s at n - 2)");
    assert_eq!(outcome, "no match", "{pattern}: {times:?}");
    assert!(
        t_last > 0.3 && t_last >= 2.0 * t_before,
        "{pattern}: {engine} is not slowed down exponentially by {a:?}: {times:?}"
    );
}

//! Replacement templates in each flavor's own syntax, and replace-all.
//!
//! - Python: `\1`, `\g<1>`, `\g<name>`, `\g<0>`, and the escapes `\n \t \\ …`;
//! - JavaScript: `$1`/`$01`, `$<name>`, `$&`, `` $` ``, `$'`, `$$` (String.prototype.replace);
//! - Rust: `$1`, `$name`, `${name}`, `$$` (the `regex` crate's `Captures::expand`).

use super::{Match, Regex};
use crate::Limits;
use rxw_syntax::Span;
use rxw_syntax::error::{Error, ErrorKind};

use rxw_syntax::rules::Replacement;

/// One piece of a parsed template.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Piece {
    /// Text copied as is.
    Literal(String),
    /// A group's text (0 = whole match); empty when the group did not participate.
    Group(usize),
    /// ECMAScript's `$<name>` where several groups have the name (node 24 and later): the text
    /// of the one that took part (at most one can under the standard; node 24 accepts
    /// patterns where two can, and its replacement of every match joins their texts in
    /// order), else empty.
    FirstOf(Vec<usize>),
    /// JS `` $` ``: the text before the match.
    Before,
    /// JS `$'`: the text after the match.
    After,
}

/// A template parsed for a pattern.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Template {
    /// The pieces in order.
    pub pieces: Vec<Piece>,
}

/// The result of a replace.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Replaced {
    /// The text with replacements made.
    pub result: String,
    /// How many matches were replaced.
    pub replaced: usize,
    /// JavaScript without `u`/`v`: the result's exact UTF-16 code units when it holds a lone
    /// surrogate (a match that cut a surrogate pair), which `result` writes as U+FFFD.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub utf16: Option<Vec<u16>>,
}

fn push_lit(pieces: &mut Vec<Piece>, s: &str) {
    if let Some(Piece::Literal(l)) = pieces.last_mut() {
        l.push_str(s);
    } else {
        pieces.push(Piece::Literal(s.to_string()));
    }
}

/// Appends the literal text before a reference, then the reference's piece (a literal one,
/// such as `$$` or an empty unknown group, joins its neighbours).
fn push_piece(pieces: &mut Vec<Piece>, before: &str, piece: Piece) {
    push_lit(pieces, before);
    match piece {
        Piece::Literal(s) => push_lit(pieces, &s),
        p => pieces.push(p),
    }
}

/// A template whose references start with `$` (JavaScript's, the regex crate's, Go's): at each
/// `$` with something after it, `reference` reads the reference that starts there, its piece
/// and its length, or `None` (that `$` is literal); the text around the references is literal.
fn dollar_template(t: &str, reference: impl Fn(usize) -> Option<(Piece, usize)>) -> Template {
    let mut pieces = Vec::new();
    let b = t.as_bytes();
    let (mut i, mut lit_start) = (0, 0);
    while i < b.len() {
        if b[i] != b'$' || i + 1 >= b.len() {
            i += 1;
            continue;
        }
        match reference(i) {
            Some((p, len)) => {
                push_piece(&mut pieces, &t[lit_start..i], p);
                i += len;
                lit_start = i;
            }
            None => i += 1,
        }
    }
    push_lit(&mut pieces, &t[lit_start..]);
    Template { pieces }
}

impl Template {
    /// Parses `template` in the syntax of `re`'s flavor.
    ///
    /// # Errors
    /// Python only (the others keep unknown references literally or expand them to nothing):
    /// `invalid group reference N`, `unknown group name 'x'`, `bad escape \q`, with the span in
    /// the template.
    pub fn parse(template: &str, re: &Regex) -> Result<Template, Error> {
        match re.flavor().rules().replacement {
            Replacement::Backslash => parse_python(template, re),
            Replacement::Ecma => Ok(parse_js(template, re)),
            Replacement::Dollar => Ok(parse_rust(template, re, false)),
            Replacement::GoExpand => Ok(parse_rust(template, re, true)),
            Replacement::Rewrite => parse_rewrite(template, re),
            Replacement::Java => parse_java(template, re),
            Replacement::Ruby => parse_ruby(template, re),
            Replacement::Pcre2 => parse_pcre2(template, re),
            Replacement::Dotnet => parse_dotnet(template, re),
        }
    }

    /// Appends the expansion for match `m` of `text` to `out` (a lone surrogate, where `m`
    /// cuts a surrogate pair, written as U+FFFD; [`Regex::replace`] keeps the exact units).
    pub fn expand(&self, text: &str, m: &Match, out: &mut String) {
        for p in &self.pieces {
            match p {
                Piece::Literal(s) => out.push_str(s),
                Piece::Group(k) => {
                    if let Some(s) = m.text(text, *k) {
                        out.push_str(&s);
                    }
                }
                Piece::FirstOf(ks) => {
                    // The texts of those that took part, in order: at most one does under the
                    // standard; node 24, which accepts two taking part, joins them in a
                    // replacement of every match (`g`), though its groups object names the last.
                    for s in ks.iter().filter_map(|k| m.text(text, *k)) {
                        out.push_str(&s);
                    }
                }
                // A match that cuts a pair leaves a lone half before or after it (U+FFFD).
                Piece::Before => {
                    out.push_str(&text[..m.start()]);
                    if m.start_units_past_byte() == 1 {
                        out.push('\u{FFFD}');
                    }
                }
                Piece::After => match &m.pair_cut {
                    Some(c) if c.end_inside => {
                        out.push('\u{FFFD}');
                        // An empty match's end is the split character's first byte.
                        let empty = c.utf16[0].is_some_and(|(s, e)| s == e);
                        let skip = if empty {
                            text[m.end()..].chars().next().map_or(0, char::len_utf8)
                        } else {
                            0
                        };
                        out.push_str(&text[m.end() + skip..]);
                    }
                    _ => out.push_str(&text[m.end()..]),
                },
            }
        }
    }
}

impl Template {
    /// Appends the expansion for one match to `out` in UTF-16 code units: `units` are the code
    /// units the match's `spans` index, `before` and `after` write what `` $` `` and `$'` stand
    /// for.
    fn expand_units(
        &self,
        units: &[u16],
        spans: &[Option<(usize, usize)>],
        before: impl Fn(&mut Vec<u16>),
        after: impl Fn(&mut Vec<u16>),
        out: &mut Vec<u16>,
    ) {
        let group = |k: usize| {
            spans
                .get(k)
                .copied()
                .flatten()
                .map(|(s, e)| &units[s..e.max(s)])
        };
        for p in &self.pieces {
            match p {
                Piece::Literal(l) => out.extend(l.encode_utf16()),
                Piece::Group(k) => out.extend_from_slice(group(*k).unwrap_or_default()),
                Piece::FirstOf(ks) => {
                    // Those that took part, joined, as `expand`.
                    for g in ks.iter().filter_map(|k| group(*k)) {
                        out.extend_from_slice(g);
                    }
                }
                Piece::Before => before(out),
                Piece::After => after(out),
            }
        }
    }
}

/// A replacement made over part of a text, for a preview: see [`Template::replace_window`].
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WindowReplaced {
    /// The part's text after replacement (a lone surrogate written as U+FFFD, as
    /// [`Replaced::result`] writes it).
    pub text: String,
    /// The byte ranges of `text` each expansion produced, in order.
    pub changed: Vec<std::ops::Range<usize>>,
    /// How many matches were replaced.
    pub replaced: usize,
}

impl Template {
    /// The replacement of `matches` (in the order the search gave them, their spans in bytes
    /// of `text`) over `text[window]` and on to the end of the last match, as
    /// [`Regex::replace`] makes it over the whole text: a match starting before the window
    /// or before the end of the previous one is left out. When a match cuts a surrogate pair
    /// (JavaScript, [`Match::pair_cut`]) the replacement is made on UTF-16 code units, so
    /// that two matches on the two halves of one character are both replaced and a lone half
    /// left between them is kept (as U+FFFD).
    pub fn replace_window(
        &self,
        text: &str,
        window: std::ops::Range<usize>,
        matches: &[Match],
    ) -> WindowReplaced {
        if matches.iter().any(|m| m.pair_cut.is_some()) {
            return self.replace_window_units(text, window, matches);
        }
        let mut out = WindowReplaced::default();
        let mut at = window.start.min(text.len());
        let mut end = window.end.min(text.len());
        for m in matches {
            if m.start() < at {
                continue;
            }
            out.text.push_str(&text[at..m.start()]);
            let before = out.text.len();
            self.expand(text, m, &mut out.text);
            out.changed.push(before..out.text.len());
            out.replaced += 1;
            at = m.end();
            end = end.max(at);
        }
        out.text.push_str(&text[at.min(end)..end]);
        out
    }

    /// [`Template::replace_window`] on UTF-16 code units: the part of the text the window
    /// and the matches' spans cover is encoded once; the text around it only for `` $` ``
    /// and `$'`.
    fn replace_window_units(
        &self,
        text: &str,
        window: std::ops::Range<usize>,
        matches: &[Match],
    ) -> WindowReplaced {
        let start = window.start.min(text.len());
        let kept: Vec<&Match> = matches.iter().filter(|m| m.start() >= start).collect();
        let spans = kept.iter().flat_map(|m| m.groups.iter().flatten());
        let lo = spans.clone().map(|g| g.0).fold(start, usize::min);
        let hi = spans
            .map(|g| g.1.max(g.0))
            .fold(window.end.min(text.len()), usize::max);
        // The code unit of every byte of text[lo..=hi] that starts a character.
        let mut unit_at = vec![0usize; hi - lo + 1];
        let mut part: Vec<u16> = Vec::with_capacity(hi - lo);
        for (i, c) in text[lo..hi].char_indices() {
            unit_at[i] = part.len();
            let mut buf = [0u16; 2];
            part.extend_from_slice(c.encode_utf16(&mut buf));
        }
        unit_at[hi - lo] = part.len();
        let unit = |b: usize| unit_at[b - lo];
        let mut out: Vec<u16> = Vec::new();
        let mut changed = Vec::new();
        let mut replaced = 0;
        let mut at = unit(start);
        let mut end = unit(window.end.min(text.len()));
        for m in kept {
            let first = unit(m.start());
            let spans: Vec<Option<(usize, usize)>> = match &m.pair_cut {
                Some(cut) => cut
                    .utf16
                    .iter()
                    .map(|g| {
                        g.map(|(s, e)| {
                            (
                                (first + s).saturating_sub(cut.base),
                                (first + e).saturating_sub(cut.base),
                            )
                        })
                    })
                    .collect(),
                None => m
                    .groups
                    .iter()
                    .map(|g| g.map(|(s, e)| (unit(s), unit(e.max(s)))))
                    .collect(),
            };
            let Some((s, e)) = spans[0] else { continue };
            if s < at {
                continue;
            }
            out.extend_from_slice(&part[at..s]);
            let before = out.len();
            self.expand_units(
                &part,
                &spans,
                |out| {
                    out.extend(text[..lo].encode_utf16());
                    out.extend_from_slice(&part[..s]);
                },
                |out| {
                    out.extend_from_slice(&part[e..]);
                    out.extend(text[hi..].encode_utf16());
                },
                &mut out,
            );
            changed.push(before..out.len());
            replaced += 1;
            at = e;
            end = end.max(at);
        }
        out.extend_from_slice(&part[at.min(end)..end]);
        // The output's byte offset at each of its code units (a low half of a pair that
        // decodes whole counts as the pair's start).
        let mut byte_at = Vec::with_capacity(out.len() + 1);
        let mut result = String::with_capacity(out.len());
        for c in char::decode_utf16(out.iter().copied()) {
            byte_at.push(result.len());
            let c = c.unwrap_or(char::REPLACEMENT_CHARACTER);
            if c.len_utf16() == 2 {
                byte_at.push(result.len());
            }
            result.push(c);
        }
        byte_at.push(result.len());
        WindowReplaced {
            text: result,
            changed: changed
                .into_iter()
                .map(|r: std::ops::Range<usize>| byte_at[r.start]..byte_at[r.end])
                .collect(),
            replaced,
        }
    }
}

/// Ruby's `gsub` template: `\\0` and `\\&` (the match), `\\1`–`\\9` (a group, empty when it
/// did not take part or does not exist), `\\k<name>`, `` \\` `` and `\\'` (the text before and
/// after the match), `\\\\` (a backslash); any other `\\x` stays as written, both characters.
///
/// # Errors
/// `\\k<name>` for a name no group has, in Ruby's words (an `IndexError`); `\\+` (the last
/// group that took part), which rxw does not reproduce.
fn parse_ruby(t: &str, re: &Regex) -> Result<Template, Error> {
    let mut pieces = Vec::new();
    let b = t.as_bytes();
    let (mut i, mut lit_start) = (0, 0);
    while i < b.len() {
        if b[i] != b'\\' || i + 1 >= b.len() {
            i += 1;
            continue;
        }
        let start = i;
        let piece = match b[i + 1] {
            b'0' | b'&' => Piece::Group(0),
            // With named groups, gsub leaves numbered references empty.
            b'1'..=b'9' if re.group_names().iter().any(Option::is_some) => {
                Piece::Literal(String::new())
            }
            d @ b'1'..=b'9' => Piece::Group(usize::from(d - b'0')),
            b'`' => Piece::Before,
            b'\'' => Piece::After,
            b'\\' => Piece::Literal("\\".into()),
            b'+' => {
                return Err(Error::new(
                    ErrorKind::ConstructUnsupported,
                    "ruby: \\+ (the last group that took part) is not reproduced by rxw",
                )
                .with_span_in(t, Some(Span::new(i, i + 2))));
            }
            b'k' if b.get(i + 2) == Some(&b'<') && t[i + 3..].contains('>') => {
                let close = i + 3 + t[i + 3..].find('>').expect("a '>'");
                let name = &t[i + 3..close];
                let Some(g) = group_by_name(re, name) else {
                    return Err(Error::new(
                        ErrorKind::ReplacementInvalid,
                        format!("undefined group name reference: {name}"),
                    )
                    .with_span_in(t, Some(Span::new(i, close + 1))));
                };
                i = close + 1 - 2;
                Piece::Group(g)
            }
            _ => {
                i += 1;
                continue;
            }
        };
        let group_beyond = matches!(piece, Piece::Group(n) if n > re.group_count());
        push_piece(
            &mut pieces,
            &t[lit_start..start],
            if group_beyond {
                Piece::Literal(String::new())
            } else {
                piece
            },
        );
        i += 2;
        lit_start = i;
    }
    push_lit(&mut pieces, &t[lit_start..]);
    Ok(Template { pieces })
}

/// RE2's `Rewrite`: `\\0`–`\\9` (the whole match, a group) and `\\\\`; anything else after a
/// `\\` is refused, in `RE2::CheckRewriteString`'s words, and so is a group the pattern does
/// not have.
fn parse_rewrite(t: &str, re: &Regex) -> Result<Template, Error> {
    let mut pieces = Vec::new();
    let err = |msg: String, span: Span| {
        Err(Error::new(ErrorKind::ReplacementInvalid, msg).with_span_in(t, Some(span)))
    };
    let b = t.as_bytes();
    let (mut i, mut lit_start) = (0, 0);
    let mut most: Option<(usize, Span)> = None;
    while i < b.len() {
        if b[i] != b'\\' {
            i += 1;
            continue;
        }
        push_lit(&mut pieces, &t[lit_start..i]);
        match b.get(i + 1) {
            None => {
                return err(
                    "Rewrite schema error: '\\' not allowed at end.".into(),
                    Span::new(i, i + 1),
                );
            }
            Some(b'\\') => push_lit(&mut pieces, "\\"),
            Some(d) if d.is_ascii_digit() => {
                let n = usize::from(d - b'0');
                if most.is_none_or(|(m, _)| n > m) {
                    most = Some((n, Span::new(i, i + 2)));
                }
                pieces.push(Piece::Group(n));
            }
            Some(_) => {
                let end = i + 1 + t[i + 1..].chars().next().map_or(0, char::len_utf8);
                return err(
                    "Rewrite schema error: '\\' must be followed by a digit or '\\'.".into(),
                    Span::new(i, end),
                );
            }
        }
        i += 2;
        lit_start = i;
    }
    push_lit(&mut pieces, &t[lit_start..]);
    // The largest group asked for is checked once the whole template has been read, as
    // `CheckRewriteString` does.
    if let Some((n, span)) = most
        && n > re.group_count()
    {
        return err(
            format!(
                "Rewrite schema requests {n} matches, but the regexp only has {} \
                 parenthesized subexpressions.",
                re.group_count()
            ),
            span,
        );
    }
    Ok(Template { pieces })
}

/// Java's `Matcher.appendReplacement`: `$n` (the first digit always, more while the number
/// stays a group), `${name}` (ASCII letters and digits), and `\x` for any `x`. The errors are
/// Java's exceptions, as `<class>: <message>`; Java throws them at the first match only
/// ([`Regex::replace`] says them only then).
fn parse_java(t: &str, re: &Regex) -> Result<Template, Error> {
    let mut pieces = Vec::new();
    let err = |class: &str, msg: String, span: Span| {
        Err(
            Error::new(ErrorKind::ReplacementInvalid, format!("{class}: {msg}"))
                .with_span_in(t, Some(span)),
        )
    };
    let illegal = "IllegalArgumentException";
    let count = re.group_count();
    let b = t.as_bytes();
    let (mut i, mut lit_start) = (0, 0);
    while i < b.len() {
        match b[i] {
            b'\\' => {
                push_lit(&mut pieces, &t[lit_start..i]);
                let Some(c) = t[i + 1..].chars().next() else {
                    return err(
                        illegal,
                        "character to be escaped is missing".into(),
                        Span::new(i, i + 1),
                    );
                };
                push_lit(&mut pieces, c.encode_utf8(&mut [0; 4]));
                i += 1 + c.len_utf8();
                lit_start = i;
            }
            b'$' => {
                push_lit(&mut pieces, &t[lit_start..i]);
                let start = i;
                i += 1;
                let Some(&next) = b.get(i) else {
                    return err(
                        illegal,
                        "Illegal group reference: group index is missing".into(),
                        Span::new(start, i),
                    );
                };
                let group = if next == b'{' {
                    i += 1;
                    let name_start = i;
                    while b.get(i).is_some_and(u8::is_ascii_alphanumeric) {
                        i += 1;
                    }
                    let name = &t[name_start..i];
                    let span = Span::new(start, (i + 1).min(t.len()));
                    if name.is_empty() {
                        return err(
                            illegal,
                            "named capturing group has 0 length name".into(),
                            span,
                        );
                    }
                    if b.get(i) != Some(&b'}') {
                        return err(
                            illegal,
                            "named capturing group is missing trailing '}'".into(),
                            span,
                        );
                    }
                    i += 1;
                    if name.as_bytes()[0].is_ascii_digit() {
                        return err(
                            illegal,
                            format!("capturing group name {{{name}}} starts with digit character"),
                            span,
                        );
                    }
                    match group_by_name(re, name) {
                        Some(g) => g,
                        None => {
                            return err(illegal, format!("No group with name {{{name}}}"), span);
                        }
                    }
                } else if next.is_ascii_digit() {
                    let mut n = usize::from(next - b'0');
                    i += 1;
                    while let Some(d) = b.get(i).filter(|d| d.is_ascii_digit()) {
                        let more = n * 10 + usize::from(d - b'0');
                        if more > count {
                            break;
                        }
                        n = more;
                        i += 1;
                    }
                    if n > count {
                        return err(
                            "IndexOutOfBoundsException",
                            format!("No group {n}"),
                            Span::new(start, i),
                        );
                    }
                    n
                } else {
                    return err(
                        illegal,
                        "Illegal group reference".into(),
                        Span::new(start, i),
                    );
                };
                pieces.push(Piece::Group(group));
                lit_start = i;
            }
            _ => i += 1,
        }
    }
    push_lit(&mut pieces, &t[lit_start..]);
    Ok(Template { pieces })
}

/// .NET's `Regex.Replace` template (`RegexParser.ScanReplacement`): `$` and all the digits
/// after it, when that group exists (else the text as it is); `${1}`, `${name}` of a group the
/// pattern has; `$&`, `` $` ``, `$'`, `$_` (the whole text), `$+` (the last group), `$$`;
/// everything else literal.
///
/// # Errors
/// A number past `Int32.MaxValue` (Mono's error, whether or not anything matches).
fn parse_dotnet(t: &str, re: &Regex) -> Result<Template, Error> {
    let mut pieces = Vec::new();
    let count = re.group_count();
    let b = t.as_bytes();
    let digits = |i: usize| -> Result<(usize, usize), Error> {
        let mut k = i;
        let mut n: u64 = 0;
        while let Some(d) = b.get(k).filter(|d| d.is_ascii_digit()) {
            n = n * 10 + u64::from(d - b'0');
            if n > i32::MAX as u64 {
                return Err(Error::new(
                    ErrorKind::ReplacementInvalid,
                    "Capture group numbers must be less than or equal to Int32.MaxValue.",
                )
                .with_span_in(t, Some(Span::new(i, k + 1))));
            }
            k += 1;
        }
        Ok((n as usize, k))
    };
    let word = |c: char| c.is_alphanumeric() || c == '_';
    let (mut i, mut lit_start) = (0, 0);
    while i < b.len() {
        if b[i] != b'$' {
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        let piece: Option<(Vec<Piece>, usize)> = match b.get(i) {
            None => None,
            Some(b'{') if i + 1 < b.len() => {
                let inner = i + 1;
                if b[inner].is_ascii_digit() {
                    let (n, k) = digits(inner)?;
                    (b.get(k) == Some(&b'}') && n <= count).then(|| (vec![Piece::Group(n)], k + 1))
                } else {
                    let name_len: usize = t[inner..]
                        .chars()
                        .take_while(|c| word(*c))
                        .map(char::len_utf8)
                        .sum();
                    let k = inner + name_len;
                    match group_by_name(re, &t[inner..k]) {
                        Some(g) if name_len > 0 && b.get(k) == Some(&b'}') => {
                            Some((vec![Piece::Group(g)], k + 1))
                        }
                        _ => None,
                    }
                }
            }
            Some(d) if d.is_ascii_digit() => {
                let (n, k) = digits(i)?;
                (n <= count).then(|| (vec![Piece::Group(n)], k))
            }
            Some(b'$') => Some((vec![Piece::Literal("$".into())], i + 1)),
            Some(b'&') => Some((vec![Piece::Group(0)], i + 1)),
            Some(b'`') => Some((vec![Piece::Before], i + 1)),
            Some(b'\'') => Some((vec![Piece::After], i + 1)),
            Some(b'_') => Some((vec![Piece::Before, Piece::Group(0), Piece::After], i + 1)),
            // `$+` is the group with the highest number (`Match.LastGroupToStringImpl`),
            // whether it took part or not; the whole match when there is none.
            Some(b'+') => Some((vec![Piece::Group(count)], i + 1)),
            _ => None,
        };
        if let Some((ps, end)) = piece {
            push_lit(&mut pieces, &t[lit_start..start]);
            for p in ps {
                push_piece(&mut pieces, "", p);
            }
            i = end;
            lit_start = i;
        }
    }
    push_lit(&mut pieces, &t[lit_start..]);
    pieces.retain(|p| !matches!(p, Piece::Literal(l) if l.is_empty()));
    Ok(Template { pieces })
}

fn group_by_name(re: &Regex, name: &str) -> Option<usize> {
    re.group_names()
        .iter()
        .position(|n| n.as_deref() == Some(name))
        .map(|i| i + 1)
}

fn parse_python(t: &str, re: &Regex) -> Result<Template, Error> {
    let mut pieces = Vec::new();
    let err = |msg: String, span: Span| {
        Err(Error::new(ErrorKind::ReplacementInvalid, msg).with_span_in(t, Some(span)))
    };
    let b = t.as_bytes();
    let mut i = 0;
    let mut lit_start = 0;
    while i < b.len() {
        if b[i] != b'\\' {
            i += 1;
            continue;
        }
        push_lit(&mut pieces, &t[lit_start..i]);
        let start = i;
        let Some(&c) = b.get(i + 1) else {
            return err("bad escape (end of pattern)".into(), Span::new(i, i + 1));
        };
        i += 2;
        match c {
            b'g' => {
                if b.get(i) != Some(&b'<') {
                    return err("missing <".into(), Span::new(start, i));
                }
                let Some(close) = t[i..].find('>') else {
                    return err(
                        "missing >, unterminated name".into(),
                        Span::new(start, t.len()),
                    );
                };
                let name = &t[i + 1..i + close];
                i += close + 1;
                let span = Span::new(start, i);
                if name.is_empty() {
                    return err("missing group name".into(), span);
                }
                let index = if name.bytes().all(|d| d.is_ascii_digit()) {
                    let n: usize = name.parse().unwrap_or(usize::MAX);
                    if n > re.group_count() {
                        return err(format!("invalid group reference {n}"), span);
                    }
                    n
                } else {
                    match group_by_name(re, name) {
                        Some(n) => n,
                        None if name
                            .chars()
                            .next()
                            .is_some_and(|c| c == '_' || c.is_alphabetic())
                            && name.chars().all(|c| c == '_' || c.is_alphanumeric()) =>
                        {
                            return Err(Error::new(
                                ErrorKind::ReplacementInvalid,
                                format!("unknown group name '{name}'"),
                            )
                            .with_span_in(t, Some(span)));
                        }
                        None => return err(format!("bad character in group name '{name}'"), span),
                    }
                };
                pieces.push(Piece::Group(index));
            }
            b'0' => {
                // Octal: \0, \0d, \0dd.
                let mut v = 0u32;
                let mut n = 0;
                while n < 2 && b.get(i).is_some_and(|d| (b'0'..=b'7').contains(d)) {
                    v = v * 8 + (b[i] - b'0') as u32;
                    i += 1;
                    n += 1;
                }
                push_lit(&mut pieces, &char::from_u32(v).unwrap().to_string());
            }
            b'1'..=b'9' => {
                // Three octal digits: an octal escape; otherwise one or two digits: a group.
                let octal3 = c <= b'7'
                    && b.get(i).is_some_and(|d| (b'0'..=b'7').contains(d))
                    && b.get(i + 1).is_some_and(|d| (b'0'..=b'7').contains(d));
                if octal3 {
                    let v = ((c - b'0') as u32) * 64
                        + ((b[i] - b'0') as u32) * 8
                        + (b[i + 1] - b'0') as u32;
                    i += 2;
                    if v > 0o377 {
                        return err(
                            format!(
                                "octal escape value {} outside of range 0-0o377",
                                &t[start..i]
                            ),
                            Span::new(start, i),
                        );
                    }
                    push_lit(&mut pieces, &char::from_u32(v).unwrap().to_string());
                } else {
                    let mut n = (c - b'0') as usize;
                    if b.get(i).is_some_and(u8::is_ascii_digit) {
                        n = n * 10 + (b[i] - b'0') as usize;
                        i += 1;
                    }
                    if n > re.group_count() {
                        return err(format!("invalid group reference {n}"), Span::new(start, i));
                    }
                    pieces.push(Piece::Group(n));
                }
            }
            b'n' => push_lit(&mut pieces, "\n"),
            b't' => push_lit(&mut pieces, "\t"),
            b'r' => push_lit(&mut pieces, "\r"),
            b'f' => push_lit(&mut pieces, "\u{c}"),
            b'v' => push_lit(&mut pieces, "\u{b}"),
            b'a' => push_lit(&mut pieces, "\u{7}"),
            b'b' => push_lit(&mut pieces, "\u{8}"),
            b'\\' => push_lit(&mut pieces, "\\"),
            c if c.is_ascii_alphabetic() => {
                return err(format!("bad escape \\{}", c as char), Span::new(start, i));
            }
            _ => {
                // Unknown non-letter escapes are kept, backslash included. Step back so a
                // multi-byte character is copied whole.
                i = start + 1;
                push_lit(&mut pieces, "\\");
            }
        }
        lit_start = i;
    }
    push_lit(&mut pieces, &t[lit_start..]);
    Ok(Template { pieces })
}

fn parse_js(t: &str, re: &Regex) -> Template {
    let b = t.as_bytes();
    let m = re.group_count();
    dollar_template(t, |i| {
        let next = b[i + 1];
        match next {
            b'$' => Some((Piece::Literal("$".into()), 2)),
            b'&' => Some((Piece::Group(0), 2)),
            b'`' => Some((Piece::Before, 2)),
            b'\'' => Some((Piece::After, 2)),
            b'0'..=b'9' => {
                let d1 = (next - b'0') as usize;
                let two = b
                    .get(i + 2)
                    .filter(|d| d.is_ascii_digit())
                    .map(|d| d1 * 10 + (d - b'0') as usize);
                match two {
                    Some(nn) if (1..=m).contains(&nn) => Some((Piece::Group(nn), 3)),
                    _ if (1..=m).contains(&d1) => Some((Piece::Group(d1), 2)),
                    _ => None,
                }
            }
            b'<' if re.has_named_groups() => t[i + 2..].find('>').map(|close| {
                let name = &t[i + 2..i + 2 + close];
                let all: Vec<usize> = re
                    .group_names()
                    .iter()
                    .enumerate()
                    .filter(|(_, n)| n.as_deref() == Some(name))
                    .map(|(i, _)| i + 1)
                    .collect();
                let piece = match all.as_slice() {
                    [] => Piece::Literal(String::new()),
                    [k] => Piece::Group(*k),
                    _ => Piece::FirstOf(all),
                };
                (piece, close + 3)
            }),
            _ => None,
        }
    })
}

/// The regex crate's `$name` / `${name}` templates, or Go's `Regexp.Expand` (`go`): names of
/// Unicode letters, digits and `_`, in braces too; a number with a leading zero is a name.
fn parse_rust(t: &str, re: &Regex, go: bool) -> Template {
    let b = t.as_bytes();
    let name_len = |s: &str| -> usize {
        if go {
            s.chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .map(char::len_utf8)
                .sum()
        } else {
            s.bytes()
                .take_while(|c| c.is_ascii_alphanumeric() || *c == b'_')
                .count()
        }
    };
    let resolve = |name: &str| -> Piece {
        let number = name.bytes().all(|c| c.is_ascii_digit())
            && !(go && name.len() > 1 && name.starts_with('0'));
        if let Some(n) = number.then(|| name.parse::<usize>().ok()).flatten() {
            if n <= re.group_count() {
                Piece::Group(n)
            } else {
                Piece::Literal(String::new())
            }
        } else {
            group_by_name(re, name).map_or(Piece::Literal(String::new()), Piece::Group)
        }
    };
    dollar_template(t, |i| {
        if b[i + 1] == b'$' {
            Some((Piece::Literal("$".into()), 2))
        } else if b[i + 1] == b'{' {
            match t[i + 2..].find('}') {
                Some(close) if close > 0 && (!go || name_len(&t[i + 2..]) == close) => {
                    Some((resolve(&t[i + 2..i + 2 + close]), close + 3))
                }
                _ => None,
            }
        } else {
            let n = name_len(&t[i + 1..]);
            if n == 0 {
                None
            } else {
                Some((resolve(&t[i + 1..i + 1 + n]), n + 1))
            }
        }
    })
}

/// `pcre2_substitute`'s template (no extended syntax): `$$`, `$N` (every digit), `$name` (the
/// longest run of letters, digits and `_`), `${N}`, `${name}`; everything else is literal.
///
/// # Errors
/// In PCRE2's words: `invalid replacement string` (a `$` before anything else, `${}`),
/// `expected closing curly bracket in replacement string`, `unknown substring` (a group the
/// pattern does not have); `$*MARK`, which rxw does not reproduce. A group that did not take
/// part in a match is `requested value is not set`, said when that match is expanded
/// ([`Regex::replace`]).
fn parse_pcre2(t: &str, re: &Regex) -> Result<Template, Error> {
    let err = |msg: &str, start: usize, end: usize| {
        Err(Error::new(ErrorKind::ReplacementInvalid, msg)
            .with_span_in(t, Some(Span::new(start, end.min(t.len())))))
    };
    let word = |c: &u8| c.is_ascii_alphanumeric() || *c == b'_';
    let b = t.as_bytes();
    let mut pieces = Vec::new();
    let (mut i, mut lit_start) = (0, 0);
    while i < b.len() {
        if b[i] != b'$' {
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        let braced = b.get(i) == Some(&b'{');
        if braced {
            i += 1;
        }
        enum Reference<'t> {
            Dollar,
            Number(usize),
            Name(&'t str),
        }
        let reference = match b.get(i) {
            Some(b'$') if !braced => {
                i += 1;
                Reference::Dollar
            }
            Some(b'*') => {
                return Err(Error::new(
                    ErrorKind::ConstructUnsupported,
                    "pcre2: $*MARK (the name of a backtracking verb) is not reproduced by rxw",
                )
                .with_span_in(t, Some(Span::new(start, i + 1))));
            }
            Some(c) if c.is_ascii_digit() => {
                let from = i;
                while b.get(i).is_some_and(u8::is_ascii_digit) {
                    i += 1;
                }
                Reference::Number(t[from..i].parse::<usize>().unwrap_or(usize::MAX))
            }
            Some(c) if word(c) => {
                let from = i;
                while b.get(i).is_some_and(word) {
                    i += 1;
                }
                Reference::Name(&t[from..i])
            }
            _ => return err("invalid replacement string", start, i + 1),
        };
        if braced {
            if b.get(i) != Some(&b'}') {
                return err(
                    "expected closing curly bracket in replacement string",
                    start,
                    i + 1,
                );
            }
            i += 1;
        }
        let piece = match reference {
            Reference::Dollar => Piece::Literal("$".into()),
            Reference::Number(n) if n <= re.group_count() => Piece::Group(n),
            Reference::Name(name) if group_by_name(re, name).is_some() => {
                Piece::Group(group_by_name(re, name).unwrap_or(0))
            }
            _ => return err("unknown substring", start, i),
        };
        push_piece(&mut pieces, &t[lit_start..start], piece);
        lit_start = i;
    }
    push_lit(&mut pieces, &t[lit_start..]);
    Ok(Template { pieces })
}

impl Regex {
    /// Replaces every match (at most `count` when given) with `template`, in the flavor's
    /// replacement syntax.
    ///
    /// # Errors
    /// An invalid template (Python), an output over `limits.max_output`, or a matching error.
    pub fn replace(
        &self,
        text: &str,
        template: &str,
        count: Option<usize>,
        limits: &Limits,
    ) -> Result<Replaced, Error> {
        limits.check_replacement(template)?;
        let tpl = match Template::parse(template, self) {
            Ok(tpl) => tpl,
            // Java throws a template's error when it expands the first match: with none, the
            // text comes back as it was.
            Err(e)
                if matches!(
                    self.flavor().rules().replacement,
                    Replacement::Java | Replacement::Pcre2
                ) && e.kind == ErrorKind::ReplacementInvalid =>
            {
                let options = crate::MatchOptions::within(limits);
                if self.matches(text, options).next().transpose()?.is_some() {
                    return Err(e);
                }
                return Ok(Replaced {
                    result: text.to_string(),
                    replaced: 0,
                    utf16: None,
                });
            }
            Err(e) => return Err(e),
        };
        if self.searches_code_units(text) || self.may_cut_a_pair_in(text) {
            return self.replace_code_units(text, &tpl, count, limits);
        }
        let mut out = String::with_capacity(text.len());
        let mut last = 0;
        let mut replaced = 0;
        let options = crate::MatchOptions::within(limits);
        for m in self.matches(text, options) {
            if count.is_some_and(|c| replaced >= c) {
                break;
            }
            let m = m?;
            if let Some(e) = self.unset_in_template(&tpl, &m, template) {
                return Err(e);
            }
            out.push_str(&text[last..m.start()]);
            tpl.expand(text, &m, &mut out);
            last = m.end();
            replaced += 1;
            limits.check_output(out.len())?;
        }
        out.push_str(&text[last..]);
        limits.check_output(out.len())?;
        Ok(Replaced {
            result: out,
            replaced,
            utf16: None,
        })
    }

    /// JavaScript without `u`/`v` on a text with characters outside the BMP: the replacement
    /// made on UTF-16 code units, as node's `String.prototype.replace` makes it, so that a
    /// match that cuts a surrogate pair leaves its other half (a lone surrogate) in place.
    fn replace_code_units(
        &self,
        text: &str,
        tpl: &Template,
        count: Option<usize>,
        limits: &Limits,
    ) -> Result<Replaced, Error> {
        let units = crate::units::CodeUnits::of(text);
        let all = &units.units;
        let mut out: Vec<u16> = Vec::with_capacity(all.len());
        let (mut last, mut replaced) = (0, 0);
        let options = crate::MatchOptions::within(limits);
        for m in self.matches(text, options) {
            if count.is_some_and(|c| replaced >= c) {
                break;
            }
            let m = m?;
            let spans: Vec<Option<(usize, usize)>> = match &m.pair_cut {
                Some(cut) => cut.utf16.clone(),
                None => m
                    .groups
                    .iter()
                    .map(|g| g.map(|(s, e)| (units.unit_of_byte(s), units.unit_of_byte(e))))
                    .collect(),
            };
            let (start, end) = spans[0].unwrap_or((last, last));
            out.extend_from_slice(&all[last.min(start)..start]);
            tpl.expand_units(
                all,
                &spans,
                |out| out.extend_from_slice(&all[..start]),
                |out| out.extend_from_slice(&all[end..]),
                &mut out,
            );
            last = end;
            replaced += 1;
            limits.check_output(out.len() * 2)?;
        }
        out.extend_from_slice(&all[last.min(all.len())..]);
        limits.check_output(out.len() * 2)?;
        let lone = char::decode_utf16(out.iter().copied()).any(|c| c.is_err());
        Ok(Replaced {
            result: String::from_utf16_lossy(&out),
            replaced,
            utf16: lone.then_some(out),
        })
    }
}

impl Regex {
    /// PCRE2's `requested value is not set`: a template naming a group that did not take part
    /// in match `m` (`pcre2_substitute` without PCRE2_SUBSTITUTE_UNSET_EMPTY); `None` for other
    /// flavors, whose unset groups are the empty text.
    fn unset_in_template(&self, tpl: &Template, m: &Match, template: &str) -> Option<Error> {
        if self.flavor().rules().replacement != Replacement::Pcre2 {
            return None;
        }
        tpl.pieces.iter().find_map(|p| match p {
            Piece::Group(g) if m.groups.get(*g).is_none_or(Option::is_none) => Some(
                Error::new(ErrorKind::ReplacementInvalid, "requested value is not set")
                    .with_span_in(template, Some(Span::new(0, template.len()))),
            ),
            _ => None,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rxw_syntax::Flags;
    use rxw_syntax::flavor::Flavor;

    fn rep(p: &str, flavor: Flavor, text: &str, t: &str) -> Result<String, Error> {
        let re = Regex::new(p, flavor, Flags::default()).unwrap();
        re.replace(text, t, None, &Limits::human())
            .map(|r| r.result)
    }

    #[test]
    fn python_template() {
        assert_eq!(
            rep(
                r"(?P<a>\w+) (\w+)",
                Flavor::PYTHON,
                "hello world",
                r"\2 \g<a> \g<0>"
            )
            .unwrap(),
            "world hello hello world"
        );
        assert_eq!(
            rep(r"(a)", Flavor::PYTHON, "a", r"\2").unwrap_err().message,
            "invalid group reference 2"
        );
        assert_eq!(
            rep(r"(a)", Flavor::PYTHON, "a", r"\q").unwrap_err().message,
            r"bad escape \q"
        );
        assert_eq!(rep(r"(a)", Flavor::PYTHON, "a", r"[\n]").unwrap(), "[\n]");
    }

    #[test]
    fn js_template() {
        assert_eq!(
            rep(r"(b)", Flavor::JS, "abc", "[$0|$00|$01|$1|$2|$10]").unwrap(),
            "a[$0|$00|b|b|$2|b0]c"
        );
        assert_eq!(
            rep(r"(?<x>b)", Flavor::JS, "abc", "[$<foo>|$<x>|$&|$`|$'|$$]").unwrap(),
            "a[|b|b|a|c|$]c"
        );
        assert_eq!(
            rep(r"(b)", Flavor::JS, "abc", "[$<x>]").unwrap(),
            "a[$<x>]c"
        );
    }

    #[test]
    fn rust_template() {
        assert_eq!(
            rep(r"(?P<x>b)(c)", Flavor::Rust, "abc", "[$x|${2}|$2x|$$|$9]").unwrap(),
            "a[b|c||$|]"
        );
    }

    #[test]
    fn output_limit_is_enforced() {
        let re = Regex::new("a", Flavor::JS, Flags::default()).unwrap();
        let text = "a".repeat(1000);
        let e = re
            .replace(&text, &"$`".repeat(10), None, &Limits::tool())
            .unwrap_err();
        assert_eq!(e.message, "result/output exceeds 1000000 bytes");
    }
}

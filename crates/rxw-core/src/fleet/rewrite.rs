//! The split rewrite: a look-ahead end `…(?P<g>.*?)(?=SEP|\Z)` where the engine has no
//! look-ahead.
//!
//! Such a pattern's hits all start with SEP (when the pattern itself starts with it) and
//! end just before the next SEP or at the end of the text, so cutting the text before every
//! SEP and matching the rest of the pattern, with a greedy `.*` in place of the lazy run, at
//! the start of each piece gives the same hits — when SEP occurrences cannot overlap and
//! cannot occur inside a hit's fixed part. Those conditions are not proved here: the rewrite
//! is run with the `regex` crate on the preset's examples and counter-examples and the
//! verification corpus, and offered only when every hit agrees with rxw's.

use super::verify::{self, Row};
use super::{Definition, Form, Target, fields, spell_for};
use crate::codegen::Lang;
use crate::codegen::emit::{Parsed, Quirks, translate_in_dialect};
use crate::error::Error;
use crate::presets::Entry;
use crate::syntax::ast::{AnchorKind, Greed, GroupKind, Node, NodeKind};

/// The source pieces of a pattern of the rewrite's shape.
struct Shape {
    /// The pattern without its look-ahead, the lazy run made greedy (source syntax).
    segment: String,
    /// The separator the look-ahead waits for (source syntax).
    separator: String,
    /// The look-ahead's span (what the engine refused).
    lookahead: crate::Span,
}

/// Reads the rewrite's shape off the tree: the last item a look-ahead `(?=SEP|\Z)`, the one
/// before it a lazy dot-all `.*?`, alone or as the whole of a group.
fn shape(pattern: &str, root: &Node) -> Option<Shape> {
    let NodeKind::Concat(items) = &root.kind else {
        return None;
    };
    let [.., before, last] = items.as_slice() else {
        return None;
    };
    let NodeKind::Group {
        kind: GroupKind::Lookahead,
        child,
    } = &last.kind
    else {
        return None;
    };
    let NodeKind::Alternation(branches) = &child.kind else {
        return None;
    };
    let is_end = |n: &Node| {
        matches!(
            n.kind,
            NodeKind::Anchor {
                kind: AnchorKind::TextEnd,
                ..
            }
        )
    };
    let [a, b] = branches.as_slice() else {
        return None;
    };
    let sep = match (is_end(a), is_end(b)) {
        (false, true) => a,
        (true, false) => b,
        _ => return None,
    };
    if sep.nullable() {
        return None;
    }
    let run = match &before.kind {
        NodeKind::Group {
            kind: GroupKind::Capture { .. },
            child,
        } => child.as_ref(),
        _ => before,
    };
    let NodeKind::Repeat {
        min: 0,
        max: None,
        greed: Greed::Lazy,
        op_span,
        child,
    } = &run.kind
    else {
        return None;
    };
    if !matches!(child.kind, NodeKind::Dot { dotall: true }) {
        return None;
    }
    let segment = format!(
        "{}*{}",
        &pattern[..op_span.start],
        &pattern[op_span.end..last.span.start]
    );
    Some(Shape {
        segment,
        separator: pattern[sep.span.start..sep.span.end].to_string(),
        lookahead: last.span,
    })
}

/// Translates a piece of a preset's pattern (source syntax, the preset's flavor and flags).
fn piece(entry: &Entry, text: &str, lang: Lang, dialect: Quirks) -> Result<String, Error> {
    let p = &entry.preset;
    let ast = crate::syntax::parse::parse(text, p.flavor, entry.flags())?;
    let src = Parsed::new(text, p.flavor, entry.flags(), &ast);
    Ok(translate_in_dialect(src, lang, dialect)?.pattern)
}

/// The split rewrite of `entry` for `target`, when the pattern has the shape, `refusal` is
/// about its look-ahead, and the rewrite gives rxw's hits on the preset's own cases and on
/// `rows`. `Ok(None)`: no rewrite applies (the refusal stands as it is).
///
/// # Errors
/// The refusal, with what the tried rewrite got wrong, when the rewrite gives other hits.
pub(super) fn split(
    entry: &Entry,
    target: Target,
    rows: &[Row],
    refusal: &Error,
) -> Result<Option<Definition>, Error> {
    let ast = entry.ast()?;
    let Some(shape) = shape(&entry.preset.pattern, &ast.root) else {
        return Ok(None);
    };
    if refusal.span != Some(shape.lookahead) {
        return Ok(None);
    }
    let (lang, dialect) = target.dialect();
    let (Ok(separator), Ok(segment)) = (
        piece(entry, &shape.separator, lang, dialect),
        piece(entry, &shape.segment, lang, dialect),
    ) else {
        return Ok(None);
    };
    let Ok(fields) = fields(entry, target) else {
        return Ok(None);
    };
    let mut cases = verify::own_cases(entry);
    cases.extend_from_slice(rows);
    if let Some(difference) = check(entry, &shape, &cases)? {
        let mut e = refusal.clone();
        e.message = format!(
            "{}; the split rewrite on {} was tried and gives other hits: {difference}",
            e.message, shape.separator
        );
        return Err(e);
    }
    Ok(Some(Definition {
        key: entry.preset.key.clone(),
        purpose: entry.preset.purpose.clone(),
        form: Form::Split {
            separator: spell_for(target, &separator),
            segment: spell_for(target, &format!("\\A({segment})")),
            note: format!(
                "rewrite: the look-ahead {} is a split before every {}, and the rest of the pattern is matched at the start of each piece; run with the regex crate it gives rxw's hits on all {} verification texts",
                &entry.preset.pattern[shape.lookahead.start..shape.lookahead.end],
                shape.separator,
                cases.len()
            ),
        },
        match_group: true,
        group_count: entry.group_names().len() + 1,
        rows: super::rows_for(target, ast),
        spans_lines: !super::line_local(&ast.root),
        fields: fields
            .into_iter()
            .map(|f| super::Field {
                index: f.index + 1,
                ..f
            })
            .collect(),
    }))
}

/// Runs the rewrite with the `regex` crate (the separator and the anchored segment written
/// for it) on every case; the first line whose hits differ from rxw's, if any.
fn check(entry: &Entry, shape: &Shape, cases: &[Row]) -> Result<Option<String>, Error> {
    let (lang, dialect) = Target::Vector.dialect();
    let (Ok(sep), Ok(seg)) = (
        piece(entry, &shape.separator, lang, dialect),
        piece(entry, &shape.segment, lang, dialect),
    ) else {
        return Ok(Some(
            "the pieces cannot be written for the regex crate to check them".to_string(),
        ));
    };
    let compile = |p: &str| {
        regex::Regex::new(p).map_err(|e| {
            Error::new(
                crate::ErrorKind::ConstructUnsupported,
                format!("the rewrite's pattern does not compile: {e}"),
            )
        })
    };
    let sep = compile(&sep)?;
    let seg = compile(&format!("\\A(?:{seg})"))?;
    let names: Vec<Option<&str>> = seg.capture_names().collect();
    for (i, row) in cases.iter().enumerate() {
        let text = row.text.as_str();
        let mut got = Vec::new();
        let starts: Vec<usize> = sep.find_iter(text).map(|m| m.start()).collect();
        for (k, &start) in starts.iter().enumerate() {
            let end = starts.get(k + 1).copied().unwrap_or(text.len());
            if let Some(c) = seg.captures(&text[start..end]) {
                let fields = names
                    .iter()
                    .enumerate()
                    .filter_map(|(g, n)| {
                        n.map(|n| (n.to_string(), c.get(g).map(|m| m.as_str().to_string())))
                    })
                    .collect();
                got.push(verify::Hit {
                    line_no: i + 1,
                    text: Some(c[0].to_string()),
                    fields,
                });
            }
        }
        let want = verify::rxw_hits_on(entry, text, i + 1, super::HitScope::All)?;
        if want != got {
            return Ok(Some(format!(
                "on {:?}, rxw has {} hit(s), the rewrite {}",
                row.text,
                want.len(),
                got.len()
            )));
        }
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_result_preset_has_the_split_shape() {
        let all = crate::presets::builtin();
        let result = all.iter().find(|e| e.preset.key == "result").unwrap();
        let s = shape(&result.preset.pattern, &result.ast().unwrap().root).unwrap();
        assert_eq!(s.separator, r"\[RESULT\s");
        assert!(s.segment.ends_with(r"(?P<summary>.*)"), "{}", s.segment);
        for other in all.iter().filter(|e| e.preset.key != "result") {
            assert!(shape(&other.preset.pattern, &other.ast().unwrap().root).is_none());
        }
    }

    #[test]
    fn the_rewrite_is_offered_for_sql_with_its_note() {
        let all = crate::presets::builtin();
        let result = all.iter().find(|e| e.preset.key == "result").unwrap();
        let d = super::super::export_entry(result, Target::DuckDb, &[]).unwrap();
        let Form::Split {
            separator, note, ..
        } = &d.form
        else {
            panic!("not a rewrite: {d:?}")
        };
        assert!(separator.starts_with(r"\[RESULT["), "{separator}");
        crate::testing::assert_starts(note, "rewrite:");
    }

    #[test]
    fn a_rewrite_that_gives_other_hits_is_refused_with_the_difference() {
        // The separator can occur inside the hit's fixed part (`x` after the id), so a
        // split there cuts a hit in two.
        let toml = r#"
[[preset]]
key = "cut"
flavor = "python"
flags = "s"
pattern = '''x(?P<id>[0-9]+)x(?P<rest>.*?)(?=x|\Z)'''
[[preset.examples]]
text = "x12x tail"
groups = { id = "12", rest = " tail" }
"#;
        let entries = crate::presets::load_str(
            toml,
            crate::presets::Format::Toml,
            "cut.toml",
            crate::presets::Origin::BuiltIn,
        )
        .unwrap();
        let e = super::super::export_entry(&entries[0], Target::ClickHouse, &[]).unwrap_err();
        crate::testing::assert_message_has(&e, "was tried and gives other hits");
        assert!(e.span.is_some());
    }
}

//! Printing a [`Report`]: the audit's markdown table, JSON, and CSV; booleans or counts.
//!
//! The table is byte for byte the audit tool's reference rendering (`| Path | name… |`, `|---|…`,
//! `` | `path` | ✅ | ❌ | ⚠️ | ``), followed by what the reference returns beside it: one line per
//! row that could not be read, and the usage line. In counts mode the cells are numbers.

use super::{CellMode, Report};
use serde::Serialize;
use std::io::{self, Write};

/// Text for one line of the table: a `|` would end the cell and a line break the row, so `|`
/// is escaped and control characters are written as escapes (`\n`, `\t`, `\u{1b}`), as are
/// bidirectional controls (`\u{202e}`), which would reorder the row on a terminal.
fn table_text(s: &str) -> String {
    crate::codegen::escape_line(s, &[('|', "\\|")], |c| {
        c.is_control() || crate::error::is_bidi_control(c)
    })
}

/// A markdown code span around `s` that stays one span whatever backticks `s` holds: the
/// fence is one backtick longer than the longest run inside, and a space pads a text that
/// starts or ends with a backtick (CommonMark strips one such space on each side).
fn code_span(s: &str) -> String {
    let longest = s.split(|c| c != '`').map(str::len).max().unwrap_or(0);
    let fence = "`".repeat(longest + 1);
    let pad = s.starts_with('`')
        || s.ends_with('`')
        || (s.starts_with(' ') && s.ends_with(' ') && !s.trim().is_empty());
    if pad {
        format!("{fence} {s} {fence}")
    } else {
        format!("{fence}{s}{fence}")
    }
}

/// A path as a table cell or reason line: escaped for the table, in a code span.
fn table_path(path: &str) -> String {
    code_span(&table_text(path))
}

/// The usage line printed under the table.
pub fn usage_line(report: &Report) -> String {
    let u = &report.usage;
    let what = match report.mode {
        CellMode::Presence => "✅ cells",
        CellMode::Counts => "occurrences",
    };
    format!(
        "usage: files_scanned={} patterns_evaluated={} matches_total={} ({what})",
        u.files_scanned, u.patterns_evaluated, u.matches_total
    )
}

/// Writes the markdown table, the error lines and the usage line.
///
/// # Errors
/// When writing fails.
pub fn table(report: &Report, out: &mut impl Write) -> io::Result<()> {
    let names: Vec<String> = report.names.iter().map(|n| table_text(n)).collect();
    let row_end = |cells: &[String]| {
        if cells.is_empty() {
            String::new()
        } else {
            format!(" {} |", cells.join(" | "))
        }
    };
    writeln!(out, "| Path |{}", row_end(&names))?;
    writeln!(out, "|{}", "---|".repeat(names.len() + 1))?;
    for row in &report.rows {
        let cells: Vec<String> = row
            .cells
            .iter()
            .map(|c| match (c, report.mode) {
                (None, _) => "⚠️".to_string(),
                (Some(n), CellMode::Presence) => if *n > 0 { "✅" } else { "❌" }.to_string(),
                (Some(n), CellMode::Counts) => n.to_string(),
            })
            .collect();
        writeln!(out, "| {} |{}", table_path(&row.path), row_end(&cells))?;
    }
    let errors: Vec<_> = report
        .rows
        .iter()
        .filter_map(|r| r.error.as_ref().map(|e| (r, e)))
        .collect();
    if !errors.is_empty() || !report.pattern_errors.is_empty() {
        writeln!(out)?;
        for p in &report.pattern_errors {
            writeln!(out, "⚠️ pattern `{}`: {}", table_text(&p.name), p.message)?;
        }
        for (row, e) in errors {
            writeln!(out, "⚠️ {}: {}", table_path(&row.path), e.message)?;
        }
    }
    writeln!(out)?;
    writeln!(out, "{}", usage_line(report))
}

/// Writes the JSON (indented, as Python's `json.dumps(indent=2)`), then a newline:
/// `{"rows":[{"path","path_escaped"?,"matches":{name: bool|count|null},"error"?,"error_kind"?}],
/// "usage","pattern_errors"?,"warnings"?}` ([`AuditDoc`]).
///
/// Serde streams it row by row, so the output never exists twice in memory.
///
/// # Errors
/// When writing fails.
pub fn json(report: &Report, out: &mut impl Write) -> io::Result<()> {
    serde_json::to_writer_pretty(&mut *out, &AuditDoc::new(report))?;
    writeln!(out)
}

/// The audit matrix as JSON (`rxw audit --format json`, the `grep_audit` tool's `json` output):
/// `{"rows":[{"path","path_escaped"?,"matches":{name: bool|count|null},"error"?,"error_kind"?}],
/// "usage","pattern_errors"?,"warnings"?}`. Borrows the report; rows are serialized one by one.
#[derive(Serialize)]
pub struct AuditDoc<'r> {
    rows: AuditRows<'r>,
    usage: &'r super::Usage,
    #[serde(skip_serializing_if = "Option::is_none")]
    pattern_errors: Option<PatternErrors<'r>>,
    #[serde(skip_serializing_if = "<[String]>::is_empty")]
    warnings: &'r [String],
}

impl<'r> AuditDoc<'r> {
    /// The document of `report`.
    pub fn new(report: &'r Report) -> AuditDoc<'r> {
        AuditDoc {
            rows: AuditRows(report),
            usage: &report.usage,
            pattern_errors: (!report.pattern_errors.is_empty())
                .then_some(PatternErrors(&report.pattern_errors)),
            warnings: &report.warnings,
        }
    }
}

struct AuditRows<'r>(&'r Report);

impl Serialize for AuditRows<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        let report = self.0;
        s.collect_seq(report.rows.iter().map(|row| AuditRow::new(report, row)))
    }
}

/// One row: `{"path","path_escaped"?,"matches","error"?,"error_kind"?}`.
#[derive(Serialize)]
struct AuditRow<'r> {
    path: &'r str,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    path_escaped: bool,
    matches: AuditCells<'r>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<&'r str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error_kind: Option<super::RowErrorKind>,
}

impl<'r> AuditRow<'r> {
    fn new(report: &'r Report, row: &'r super::Row) -> AuditRow<'r> {
        AuditRow {
            path: &row.path,
            path_escaped: row.path_escaped,
            matches: AuditCells { report, row },
            error: row.error.as_ref().map(|e| e.message.as_str()),
            error_kind: row.error.as_ref().map(|e| e.kind),
        }
    }
}

struct AuditCells<'r> {
    report: &'r Report,
    row: &'r super::Row,
}

impl Serialize for AuditCells<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap;
        let mut map = s.serialize_map(Some(self.row.cells.len()))?;
        for (name, cell) in self.report.names.iter().zip(&self.row.cells) {
            match (cell, self.report.mode) {
                (None, _) => map.serialize_entry(name, &())?,
                (Some(n), CellMode::Presence) => map.serialize_entry(name, &(*n > 0))?,
                (Some(n), CellMode::Counts) => map.serialize_entry(name, n)?,
            }
        }
        map.end()
    }
}

struct PatternErrors<'r>(&'r [super::PatternError]);

impl Serialize for PatternErrors<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|p| (&p.name, &p.message)))
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n', '\r']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

/// Writes CSV (RFC 4180): `path,<names…>,error,path_escaped`; cells `true`/`false` or
/// counts, empty when unknown; `path_escaped` is `true` when `path` is the escaped form of a
/// name that is not UTF-8, else empty.
///
/// # Errors
/// When writing fails.
pub fn csv(report: &Report, out: &mut impl Write) -> io::Result<()> {
    let mut header = vec!["path".to_string()];
    header.extend(report.names.iter().map(|n| csv_field(n)));
    header.push("error".into());
    header.push("path_escaped".into());
    write!(out, "{}\r\n", header.join(","))?;
    for row in &report.rows {
        let mut fields = vec![csv_field(&row.path)];
        for c in &row.cells {
            fields.push(match (c, report.mode) {
                (None, _) => String::new(),
                (Some(n), CellMode::Presence) => (*n > 0).to_string(),
                (Some(n), CellMode::Counts) => n.to_string(),
            });
        }
        fields.push(
            row.error
                .as_ref()
                .map(|e| csv_field(&e.message))
                .unwrap_or_default(),
        );
        fields.push(if row.path_escaped { "true" } else { "" }.to_string());
        write!(out, "{}\r\n", fields.join(","))?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::audit::{Row, RowErrorKind};
    use serde_json::{Map, Value};

    fn report(mode: CellMode) -> Report {
        let rows = vec![
            Row::new("a|b.md", vec![Some(2), Some(0)], None),
            Row::failed(
                "gone, \"really\"",
                2,
                RowErrorKind::PathMissing,
                "No such file".into(),
            ),
        ];
        Report::new(vec!["x".into(), "y".into()], rows, mode)
    }

    fn render(f: impl Fn(&Report, &mut Vec<u8>) -> io::Result<()>, r: &Report) -> String {
        let mut v = Vec::new();
        f(r, &mut v).unwrap();
        String::from_utf8(v).unwrap()
    }

    #[test]
    fn table_is_the_seed_shape() {
        let t = render(table, &report(CellMode::Presence));
        assert_eq!(
            t,
            "| Path | x | y |\n|---|---|---|\n| `a\\|b.md` | ✅ | ❌ |\n| `gone, \"really\"` | ⚠️ | ⚠️ |\n\n⚠️ `gone, \"really\"`: No such file\n\nusage: files_scanned=2 patterns_evaluated=2 matches_total=1 (✅ cells)\n"
        );
        let c = render(table, &report(CellMode::Counts));
        assert!(c.contains("| `a\\|b.md` | 2 | 0 |"));
        assert!(c.ends_with("matches_total=2 (occurrences)\n"));
    }

    #[test]
    fn csv_quotes_fields() {
        let t = render(csv, &report(CellMode::Presence));
        assert_eq!(
            t,
            "path,x,y,error,path_escaped\r\na|b.md,true,false,,\r\n\"gone, \"\"really\"\"\",,,No such file,\r\n"
        );
    }

    /// Regression: a newline split the row, a backtick broke the code span.
    #[test]
    fn table_escapes_newlines_and_fences_backticks_in_names() {
        let rows = vec![
            Row::failed("a\nb.md", 1, RowErrorKind::PathMissing, "gone".into()),
            Row {
                path: "x`y.md".into(),
                path_escaped: false,
                cells: vec![Some(1)],
                error: None,
            },
            Row {
                path: "`z".into(),
                path_escaped: false,
                cells: vec![Some(0)],
                error: None,
            },
        ];
        let t = render(
            table,
            &Report::new(vec!["p".into()], rows, CellMode::Presence),
        );
        let lines: Vec<&str> = t.lines().collect();
        assert_eq!(lines[2], "| `a\\nb.md` | ⚠️ |");
        assert_eq!(lines[3], "| ``x`y.md`` | ✅ |");
        assert_eq!(lines[4], "| `` `z `` | ❌ |");
        crate::testing::assert_has(&t, "⚠️ `a\\nb.md`: gone");
        let empty = render(table, &Report::new(vec![], vec![], CellMode::Presence));
        crate::testing::assert_starts(&empty, "| Path |\n|---|\n");
    }

    #[test]
    fn escaped_paths_are_flagged_in_json_and_csv() {
        let rows = vec![Row {
            path: "caf\\xE9.md".into(),
            path_escaped: true,
            cells: vec![Some(1)],
            error: None,
        }];
        let r = Report::new(vec!["p".into()], rows, CellMode::Presence);
        let v: Value = serde_json::from_str(&render(json, &r)).unwrap();
        assert_eq!(v["rows"][0]["path_escaped"], true);
        assert_eq!(v["rows"][0]["path"], "caf\\xE9.md");
        assert!(render(csv, &r).ends_with("caf\\xE9.md,true,,true\r\n"));
    }

    /// The reference: the document built as a value, key by key. `{"rows":[{"path","matches":{name: bool|count|null},"error"?}],"usage"}`.
    fn json_value(report: &Report) -> Value {
        let rows: Vec<Value> = report
            .rows
            .iter()
            .map(|row| {
                let mut matches = Map::new();
                for (name, cell) in report.names.iter().zip(&row.cells) {
                    let v = match (cell, report.mode) {
                        (None, _) => Value::Null,
                        (Some(n), CellMode::Presence) => Value::Bool(*n > 0),
                        (Some(n), CellMode::Counts) => Value::from(*n),
                    };
                    matches.insert(name.clone(), v);
                }
                let mut obj = Map::new();
                obj.insert("path".into(), Value::from(row.path.clone()));
                if row.path_escaped {
                    obj.insert("path_escaped".into(), Value::Bool(true));
                }
                obj.insert("matches".into(), Value::Object(matches));
                if let Some(e) = &row.error {
                    obj.insert("error".into(), Value::from(e.message.clone()));
                    obj.insert("error_kind".into(), serde_json::json!(e.kind));
                }
                Value::Object(obj)
            })
            .collect();
        let mut top = Map::new();
        top.insert("rows".into(), Value::Array(rows));
        top.insert("usage".into(), serde_json::json!(report.usage));
        if !report.pattern_errors.is_empty() {
            let errors: Map<String, Value> = report
                .pattern_errors
                .iter()
                .map(|p| (p.name.clone(), Value::from(p.message.clone())))
                .collect();
            top.insert("pattern_errors".into(), Value::Object(errors));
        }
        if !report.warnings.is_empty() {
            top.insert("warnings".into(), serde_json::json!(report.warnings));
        }
        Value::Object(top)
    }

    #[test]
    fn streamed_json_equals_the_value_pretty_printed() {
        // Column names that need escaping, an escaped path, and no columns at all: the keys
        // are escaped once for all rows.
        let mut odd = report(CellMode::Presence);
        odd.names = vec!["q\"".into(), "é\n\u{1F600}".into()];
        odd.rows[0].path_escaped = true;
        let mut none = report(CellMode::Counts);
        none.names.clear();
        for row in &mut none.rows {
            row.cells.clear();
        }
        for r in [odd, none] {
            let want = serde_json::to_string_pretty(&json_value(&r)).unwrap() + "\n";
            assert_eq!(render(json, &r), want);
        }
        for mode in [CellMode::Presence, CellMode::Counts] {
            let mut r = report(mode);
            for rows in [r.rows.clone(), vec![]] {
                r.rows = rows;
                for errors in [
                    vec![],
                    vec![crate::audit::PatternError {
                        name: "p\"".into(),
                        message: "bad \u{1F600}".into(),
                    }],
                ] {
                    r.pattern_errors = errors;
                    r.warnings = if r.rows.is_empty() {
                        vec!["skipped registry: u.toml:1:1: \"x\"".into()]
                    } else {
                        vec![]
                    };
                    let streamed = render(json, &r);
                    let want = serde_json::to_string_pretty(&json_value(&r)).unwrap() + "\n";
                    assert_eq!(streamed, want);
                }
            }
        }
    }
}

//! The registry on a fleet's own engines: presets exported to ClickHouse, DuckDB, Vector,
//! Loki, Elasticsearch and Spark, exact or refused.
//!
//! Every translation goes through [`crate::codegen`]'s emitter, on the registry load's own
//! tree, in the dialect the engine reads ([`Target::dialect`]): RE2 as Go writes it
//! (ClickHouse, DuckDB, Loki), the `regex` crate without fancy-regex (Vector's VRL),
//! Oniguruma (Elasticsearch's grok) and Java (Spark). What the engine would mean differently
//! is refused with the emitter's error, whose span points at the construct.
//!
//! One rewrite is offered, and only where it gives the same hits ([`rewrite`]): a pattern
//! that ends in a lazy dot-all run stopped by a look-ahead `(?=SEP|\Z)` (the `result`
//! preset) becomes, in SQL, a split of the line on SEP and the rest of the pattern anchored
//! at the start of each piece. The rewrite is run with the `regex` crate on the registry's
//! examples and the verification corpus ([`verify::corpus`]) before it is offered; a
//! difference refuses it.
//!
//! What an exported definition gives, with the fields named as the registry names its
//! groups: in ClickHouse and DuckDB, `rxw parse` on each source's whole log (a line-local
//! preset, [`line_local`], searches each row of `logs`; any other the `messages` view of the
//! lines joined, with the line each hit starts on); on the other targets, rxw's hits on each
//! row's or event's text, all of them (Vector, Spark) or the first (Loki's `| regexp`,
//! grok). [`verify`] checks it hit by hit.

pub mod engines;
pub mod render;
pub mod rewrite;
pub mod schema;
pub mod verify;

use crate::codegen::Lang;
use crate::codegen::emit::{Parsed, Quirks, translate_in_dialect};
use crate::error::{Error, ErrorKind};
use crate::presets::Entry;
use crate::syntax::ast::{GroupKind, Node, NodeKind};
use std::fmt;
use std::str::FromStr;

/// An engine the registry is exported to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Target {
    /// ClickHouse SQL: `extractAllGroups` views over a `logs` table (RE2).
    ClickHouse,
    /// DuckDB SQL: `regexp_extract_all` views over a `logs` table (RE2).
    DuckDb,
    /// Vector: a `remap` transform whose VRL calls `parse_regex_all!` (the `regex` crate).
    Vector,
    /// Loki: LogQL queries with a `| regexp` stage (Go's regexp, RE2 syntax).
    Loki,
    /// Elasticsearch / OpenSearch: ingest pipelines with a `grok` processor (Oniguruma).
    Elasticsearch,
    /// Spark SQL: `regexp_extract_all` views (java.util.regex).
    Spark,
}

/// Which hits of a row an engine gives.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum HitScope {
    /// Every non-overlapping hit, left to right.
    All,
    /// The first hit only (Loki's `| regexp`, grok).
    First,
}

impl Target {
    /// Every target, in the order of the command line's help.
    pub const ALL: [Target; 6] = [
        Target::ClickHouse,
        Target::DuckDb,
        Target::Vector,
        Target::Loki,
        Target::Elasticsearch,
        Target::Spark,
    ];

    /// The lower-case name used on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Target::ClickHouse => "clickhouse",
            Target::DuckDb => "duckdb",
            Target::Vector => "vector",
            Target::Loki => "loki",
            Target::Elasticsearch => "elasticsearch",
            Target::Spark => "spark",
        }
    }

    /// The engine and its regex dialect, for people ("ClickHouse (RE2)").
    pub fn title(self) -> &'static str {
        match self {
            Target::ClickHouse => "ClickHouse (RE2)",
            Target::DuckDb => "DuckDB (RE2)",
            Target::Vector => "Vector (VRL, regex crate)",
            Target::Loki => "Loki (LogQL, RE2)",
            Target::Elasticsearch => "Elasticsearch grok (Oniguruma)",
            Target::Spark => "Spark SQL (java.util.regex)",
        }
    }

    /// The usual extension of the exported file.
    pub fn extension(self) -> &'static str {
        match self {
            Target::ClickHouse | Target::DuckDb | Target::Spark => "sql",
            Target::Vector => "toml",
            Target::Loki => "logql",
            Target::Elasticsearch => "json",
        }
    }

    /// Grammars to highlight the exported file with, the exact one first, then the closest
    /// (see [`crate::codegen::highlight::highlight_as`]): syntect has no TOML grammar (YAML
    /// reads its comments, strings and `key = value` lines alike) and no LogQL one (the
    /// shell's reads its `#` comments, `|` stages and quoted strings).
    pub fn grammars(self) -> &'static [&'static str] {
        match self {
            Target::ClickHouse | Target::DuckDb | Target::Spark => &["sql"],
            Target::Vector => &["toml", "yaml"],
            Target::Loki => &["logql", "sh"],
            Target::Elasticsearch => &["json"],
        }
    }

    /// Which hits of a row the exported definition gives.
    pub fn scope(self) -> HitScope {
        match self {
            Target::Loki | Target::Elasticsearch => HitScope::First,
            _ => HitScope::All,
        }
    }

    /// Whether an unset group and a group that matched the empty string look the same on
    /// this engine (the RE2 and Java extract functions give `''` for both; Loki drops an
    /// empty label).
    pub fn unset_reads_as_empty(self) -> bool {
        !matches!(self, Target::Vector | Target::Elasticsearch)
    }

    /// The flavor that reproduces the engine's own matching, where rxw has one: ClickHouse and
    /// DuckDB run RE2, Loki Go's `regexp`, Vector's VRL the `regex` crate, Elasticsearch's
    /// grok Oniguruma (joni, its Java port). An exported pattern loaded in it shows the
    /// matches the engine itself finds.
    pub fn flavor(self) -> Option<crate::Flavor> {
        match self {
            Target::ClickHouse | Target::DuckDb => Some(crate::Flavor::Re2),
            Target::Loki => Some(crate::Flavor::GO),
            Target::Vector => Some(crate::Flavor::Rust),
            // Spark SQL runs java.util.regex on the JVM it is given: 17 here (and in the
            // verification's pyspark).
            Target::Spark => Some(crate::Flavor::Java(crate::flavor::JavaVersion::V17)),
            // Grok runs joni, the Java port of Oniguruma.
            Target::Elasticsearch => Some(crate::Flavor::Oniguruma),
        }
    }

    /// The language whose syntax the engine reads, and how the engine differs from it.
    pub fn dialect(self) -> (Lang, Quirks) {
        let base = Quirks {
            title: Some(self.title()),
            ..Quirks::default()
        };
        match self {
            Target::ClickHouse | Target::DuckDb => (Lang::Go, base),
            Target::Loki => (
                Lang::Go,
                Quirks {
                    names_required: true,
                    ..base
                },
            ),
            Target::Vector => (
                Lang::Rust,
                Quirks {
                    linear_only: true,
                    names_required: true,
                    ..base
                },
            ),
            Target::Elasticsearch => (
                Lang::Java,
                Quirks {
                    oniguruma: true,
                    names_required: true,
                    ..base
                },
            ),
            Target::Spark => (Lang::Java, base),
        }
    }
}

impl fmt::Display for Target {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for Target {
    type Err = String;
    fn from_str(s: &str) -> Result<Target, String> {
        match s.to_ascii_lowercase().as_str() {
            "clickhouse" | "ch" | "chdb" => Ok(Target::ClickHouse),
            "duckdb" => Ok(Target::DuckDb),
            "vector" | "vrl" => Ok(Target::Vector),
            "loki" | "logql" => Ok(Target::Loki),
            "elasticsearch" | "opensearch" | "es" | "grok" => Ok(Target::Elasticsearch),
            "spark" => Ok(Target::Spark),
            _ => Err(format!(
                "unknown target {s:?} (expected clickhouse, duckdb, vector, loki, elasticsearch or spark)"
            )),
        }
    }
}

/// The column (or field) every export adds for the whole hit.
pub const MATCH_COLUMN: &str = "match_text";
/// The columns the SQL views take from the `logs` table.
pub const ROW_COLUMNS: [&str; 2] = ["source", "line_no"];

/// A named group as the export carries it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Field {
    /// The registry's name for the group (the column, label or field name).
    pub name: String,
    /// The group's number in the exported pattern (after the whole-hit group, when the
    /// export adds one).
    pub index: usize,
    /// Whether the group can be left unset by a hit (inside an optional part or one branch
    /// of an alternation).
    pub optional: bool,
}

/// How a preset is written for its target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Form {
    /// The pattern, translated one to one: `pattern` is run on each row.
    Exact {
        /// The pattern in the target's syntax; group 1 is the whole hit where the target
        /// needs one (see [`Definition::match_group`]).
        pattern: String,
    },
    /// The look-ahead end rewritten as a split (see [`rewrite`]): each row is cut before
    /// every occurrence of `separator`, and `segment` is matched at the start of each piece.
    Split {
        /// The separator the look-ahead waited for, in the target's syntax.
        separator: String,
        /// The pattern without its look-ahead, anchored (`\A`), group 1 the whole hit.
        segment: String,
        /// Why it is a rewrite and what was checked, for the export's comment.
        note: String,
    },
}

/// What an SQL view searches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rows {
    /// Each row of `logs` alone: the preset is line-local ([`line_local`]), so its hits in a
    /// log are the hits in its lines.
    Lines,
    /// Each source's lines joined with `\n` (the `messages` view): a hit can span lines, or
    /// the pattern has a text anchor; `line_no` is the line where the hit starts.
    Messages,
}

/// One preset, written for one target.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Definition {
    /// The preset key.
    pub key: String,
    /// The preset's purpose (one line, for comments).
    pub purpose: String,
    /// The pattern (or the split rewrite).
    pub form: Form,
    /// Whether group 1 of the exported pattern is the whole hit (added by the export).
    pub match_group: bool,
    /// How many capturing groups the exported pattern has (named or not, the whole-hit
    /// group included).
    pub group_count: usize,
    /// What the view searches (SQL targets with a `logs` table; the event targets search
    /// each event, [`Rows::Lines`]).
    pub rows: Rows,
    /// Whether a hit can span lines or depends on where the text starts or ends: on a target
    /// that searches each row alone, a multi-line message must be one row.
    pub spans_lines: bool,
    /// The named groups, in the pattern's order.
    pub fields: Vec<Field>,
}

impl Definition {
    /// The name of the view, transform field or pipeline: `rxw_<key>`.
    pub fn view_name(&self) -> String {
        format!("rxw_{}", self.key)
    }

    /// Whether the definition is a rewrite rather than a one-to-one translation.
    pub fn is_rewrite(&self) -> bool {
        matches!(self.form, Form::Split { .. })
    }
}

/// One preset's export: the definition, or the refusal.
#[derive(Debug, Clone)]
pub struct PresetExport {
    /// The preset key.
    pub key: String,
    /// The preset's purpose.
    pub purpose: String,
    /// What was written, or why nothing could be.
    pub outcome: Result<Definition, Error>,
}

impl PresetExport {
    /// The export's record (`rxw registry export --json`, the `registry_export` tool): its
    /// form, the rewrite's note or the refusal's reason with its caret.
    pub fn record(&self, target: Target) -> crate::wire::ExportRecord {
        let (note, reason, caret) = match &self.outcome {
            Ok(Definition {
                form: Form::Split { note, .. },
                ..
            }) => (Some(note.clone()), None, None),
            Ok(_) => (None, None, None),
            Err(err) => (None, Some(err.message.clone()), err.caret()),
        };
        crate::wire::ExportRecord {
            preset: self.key.clone(),
            target: target.name().to_string(),
            form: self.form_name().to_string(),
            note,
            reason,
            caret,
        }
    }

    /// `exact`, `rewrite` or `refused`.
    pub fn form_name(&self) -> &'static str {
        match &self.outcome {
            Ok(d) if d.is_rewrite() => "rewrite",
            Ok(_) => "exact",
            Err(_) => "refused",
        }
    }
}

/// Exports each entry to `target`: one [`PresetExport`] per entry, in order.
pub fn export(entries: &[&Entry], target: Target) -> Vec<PresetExport> {
    let rows = verify::corpus(entries);
    entries
        .iter()
        .map(|e| PresetExport {
            key: e.preset.key.clone(),
            purpose: e.preset.purpose.clone(),
            outcome: export_entry(e, target, &rows),
        })
        .collect()
}

/// Writes one preset for `target`; a look-ahead end the target cannot say is rewritten
/// only when the rewrite gives rxw's hits on `rows` (the verification corpus).
///
/// # Errors
/// [`ErrorKind::ConstructUnsupported`] with the construct's span in the preset's pattern.
pub fn export_entry(
    entry: &Entry,
    target: Target,
    rows: &[verify::Row],
) -> Result<Definition, Error> {
    let def = export_unchecked(entry, target, rows)?;
    within_limits(&def, target)?;
    Ok(def)
}

/// Most capturing groups ClickHouse's regex functions take (`Too many groups in regexp: 128,
/// max: 127`, measured on chDB).
pub const CLICKHOUSE_MAX_GROUPS: usize = 127;

/// Longest view name this export writes for ClickHouse: its limit is 255 bytes less what the
/// database's directory takes (212 for a database named `d`, measured on chDB), so the
/// export keeps well under it for any database name.
pub const CLICKHOUSE_MAX_VIEW_NAME: usize = 160;

/// Refuses a definition the target's engine would refuse although its pattern translates:
/// what `verify` would find, said at export.
fn within_limits(def: &Definition, target: Target) -> Result<(), Error> {
    if target != Target::ClickHouse {
        return Ok(());
    }
    if def.group_count > CLICKHOUSE_MAX_GROUPS {
        return Err(Error::new(
            ErrorKind::ConstructUnsupported,
            format!(
                "{} capturing groups: ClickHouse's regex functions take at most {CLICKHOUSE_MAX_GROUPS}",
                def.group_count
            ),
        ));
    }
    let name = def.view_name();
    if name.len() > CLICKHOUSE_MAX_VIEW_NAME {
        return Err(Error::new(
            ErrorKind::ConstructUnsupported,
            format!(
                "the view name {}… is {} bytes: ClickHouse refuses table names past about 200 bytes (a shorter key exports)",
                name.chars().take(24).collect::<String>(),
                name.len()
            ),
        ));
    }
    Ok(())
}

/// [`export_entry`] without the target's limits.
fn export_unchecked(
    entry: &Entry,
    target: Target,
    rows: &[verify::Row],
) -> Result<Definition, Error> {
    match exact(entry, target) {
        Ok(d) => Ok(d),
        Err(refusal) => {
            if matches!(target, Target::ClickHouse | Target::DuckDb)
                && let Some(d) = rewrite::split(entry, target, rows, &refusal)?
            {
                return Ok(d);
            }
            Err(refusal)
        }
    }
}

/// The one-to-one translation, with the fields the target shows.
fn exact(entry: &Entry, target: Target) -> Result<Definition, Error> {
    let p = &entry.preset;
    let ast = entry.ast()?;
    let (lang, dialect) = target.dialect();
    let src = Parsed::new(&p.pattern, p.flavor, entry.flags(), ast);
    let t = translate_in_dialect(src, lang, dialect)?;
    let fields = fields(entry, target)?;
    let (pattern, match_group) = wrap(target, &t.pattern, !fields.is_empty());
    let shift = usize::from(match_group);
    Ok(Definition {
        key: p.key.clone(),
        purpose: p.purpose.clone(),
        form: Form::Exact {
            pattern: spell_for(target, &pattern),
        },
        match_group,
        group_count: entry.group_names().len() + shift,
        rows: rows_for(target, ast),
        spans_lines: !line_local(&ast.root),
        fields: fields
            .into_iter()
            .map(|f| Field {
                index: f.index + shift,
                ..f
            })
            .collect(),
    })
}

/// What a view searches on `target`: the `messages` view for a preset that is not
/// line-local, on the SQL targets that define it (ClickHouse, DuckDB).
pub(crate) fn rows_for(target: Target, ast: &crate::syntax::ast::Ast) -> Rows {
    if matches!(target, Target::ClickHouse | Target::DuckDb) && !line_local(&ast.root) {
        Rows::Messages
    } else {
        Rows::Lines
    }
}

/// Whether the pattern's hits in a text are exactly its hits in the text's lines: nothing
/// in it can match or look at a `\n` (a set that holds it, dot-all `.`, `\s`, a negated
/// class without it), and no anchor depends on where the whole text starts or ends. A line
/// break is not a word character, so `\b` and `\B` read the same at a line's edge as at
/// a text's. Conservative: what it cannot decide (properties, nested classes) spans.
pub fn line_local(root: &Node) -> bool {
    use crate::syntax::ast::{AnchorKind, ClassItem, PerlKind};
    fn perl_has_newline(kind: PerlKind, negated: bool) -> bool {
        (kind == PerlKind::Space) != negated
    }
    fn class_has_newline(c: &crate::syntax::ast::Class) -> bool {
        let mut has = false;
        for item in &c.items {
            has |= match item {
                ClassItem::Char(ch, _) => *ch == '\n',
                ClassItem::Range(a, b, _) => (*a..=*b).contains(&'\n'),
                ClassItem::Perl(kind, negated, _) => perl_has_newline(*kind, *negated),
                ClassItem::Posix(name, negated, _) => {
                    matches!(name.as_str(), "space" | "cntrl" | "ascii") != *negated
                }
                // Undecided here: counted as holding it (both ways, so a negation cannot
                // turn it into "cannot").
                ClassItem::Property(..)
                | ClassItem::Nested(_)
                | ClassItem::SetOp(..)
                | ClassItem::Strings(..) => {
                    return true;
                }
            };
        }
        has != c.negated
    }
    let mut local = true;
    root.walk(|n, _| {
        let spans = match &n.kind {
            NodeKind::Literal { ch, .. } => *ch == '\n',
            NodeKind::Dot { dotall } => *dotall,
            NodeKind::Perl { kind, negated } => perl_has_newline(*kind, *negated),
            NodeKind::Property { .. } => true,
            NodeKind::Class(c) => class_has_newline(c),
            NodeKind::Anchor { kind, multiline } => match kind {
                AnchorKind::TextStart | AnchorKind::TextEnd => true,
                AnchorKind::LineStart | AnchorKind::LineEnd => !multiline,
                _ => false,
            },
            NodeKind::Backref { .. } => true,
            _ => false,
        };
        local &= !spans;
    });
    local
}

/// Adds the whole-hit group where the target reads hits through groups: always in SQL's
/// group extractors and Vector, in Loki only when no group is named (a label per hit would
/// be a label per line), never in grok and Spark (Spark reads group 0).
pub(crate) fn wrap(target: Target, pattern: &str, named: bool) -> (String, bool) {
    match target {
        Target::ClickHouse | Target::DuckDb => (format!("({pattern})"), true),
        Target::Vector => (format!("(?P<{MATCH_COLUMN}>{pattern})"), true),
        Target::Loki if !named => (format!("(?P<{MATCH_COLUMN}>{pattern})"), true),
        Target::Loki | Target::Elasticsearch | Target::Spark => (pattern.to_string(), false),
    }
}

/// Writes the characters that would end the target's string delimiters as escapes the
/// regex reads as the same character: `'` in VRL's `r'…'`, `` ` `` in LogQL's raw strings,
/// `%` where grok would read `%{…}` as one of its own patterns. Outside escapes, the
/// emitter writes these characters bare, and `\x{…}` means the character itself inside and
/// outside a class.
///
/// Vector also reads `$NAME` and `${NAME}` anywhere in its config file as environment
/// variables, the remap program's strings included: there a `$` is never written bare (a
/// literal one as `\x{24}`, the end anchor as `(?:$)`, which no name can follow).
pub(crate) fn spell_for(target: Target, pattern: &str) -> String {
    let special: &[char] = match target {
        Target::Vector => &['\'', '$'],
        Target::Loki => &['`'],
        Target::Elasticsearch => &['%'],
        _ => &[],
    };
    let hex = |c: char| format!("\\x{{{:X}}}", c as u32);
    let mut out = String::with_capacity(pattern.len());
    let mut chars = pattern.chars().peekable();
    // Classes nest in the dialects that have set operations; `[` inside one opens another.
    let mut class_depth = 0usize;
    while let Some(c) = chars.next() {
        if c == '\\' {
            match chars.next() {
                // An escaped special character: the escape says the same.
                Some(n) if special.contains(&n) => out.push_str(&hex(n)),
                Some(n) => {
                    out.push(c);
                    out.push(n);
                }
                None => out.push(c),
            }
            continue;
        }
        match c {
            '[' => class_depth += 1,
            ']' if class_depth > 0 => class_depth -= 1,
            _ => {}
        }
        if c == '$' && target == Target::Vector && class_depth == 0 {
            out.push_str("(?:$)");
        } else if special.contains(&c) {
            out.push_str(&hex(c));
        } else {
            out.push(c);
        }
    }
    out
}

/// The named groups and whether each can be unset; refuses a group the target would show
/// wrongly.
fn fields(entry: &Entry, target: Target) -> Result<Vec<Field>, Error> {
    let p = &entry.preset;
    let found = captures(entry)?.into_iter().filter_map(|c| {
        let name = c.name?;
        Some((
            Field {
                name,
                index: c.index,
                optional: c.optional,
            },
            c.span,
            c.nullable,
        ))
    });
    let reserved: &[&str] = match target {
        Target::ClickHouse | Target::DuckDb | Target::Spark => &["source", "line_no", MATCH_COLUMN],
        Target::Vector | Target::Loki => &[MATCH_COLUMN],
        Target::Elasticsearch => &[MATCH_COLUMN],
    };
    let mut out = Vec::new();
    for (field, span, nullable) in found {
        let refuse = |why: &str| {
            Error::new(
                ErrorKind::ConstructUnsupported,
                format!("cannot write this pattern for {}: {why}", target.title()),
            )
            .with_span_in(&p.pattern, Some(span))
        };
        if reserved.contains(&field.name.as_str()) {
            return Err(refuse(&format!(
                "the group name {:?} is a column the export defines itself",
                field.name
            )));
        }
        // Loki sets no label for an empty group either: there unset and '' are one answer.
        if field.optional && nullable && target.unset_reads_as_empty() && target != Target::Loki {
            return Err(refuse(
                "this group can be left unset and can also match the empty string, and the engine gives '' for both",
            ));
        }
        out.push(field);
    }
    Ok(out)
}

/// A capturing group of a preset, as loaders of its hits see it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Capture {
    /// Its name, when it has one.
    pub name: Option<String>,
    /// Its number in the preset's pattern (from 1).
    pub index: usize,
    /// Whether a hit can leave it unset (inside an optional part or one branch of an
    /// alternation).
    pub optional: bool,
    /// Whether it can match the empty string.
    pub nullable: bool,
    /// Where it is in the pattern.
    pub span: crate::Span,
}

/// Every capturing group of `entry`'s pattern, in the pattern's order.
///
/// # Errors
/// When the pattern does not parse.
pub fn captures(entry: &Entry) -> Result<Vec<Capture>, Error> {
    let mut out = Vec::new();
    collect_groups(&entry.ast()?.root, false, &mut out);
    Ok(out)
}

/// Walks the tree for captures: `optional` when a quantifier that allows zero or an
/// alternation stands between the group and the root.
fn collect_groups(node: &Node, optional: bool, out: &mut Vec<Capture>) {
    // An explicit stack: registry patterns can be deep.
    let mut stack = vec![(node, optional)];
    let mut seen = Vec::new();
    while let Some((n, optional)) = stack.pop() {
        match &n.kind {
            NodeKind::Group { kind, child } => {
                if let GroupKind::Capture { index, name } = kind {
                    seen.push(Capture {
                        name: name.clone(),
                        index: *index as usize,
                        optional,
                        nullable: child.nullable(),
                        span: n.span,
                    });
                }
                stack.push((child, optional));
            }
            NodeKind::Repeat { min, child, .. } => stack.push((child, optional || *min == 0)),
            NodeKind::Concat(items) => stack.extend(items.iter().map(|i| (i, optional))),
            NodeKind::Alternation(branches) => {
                stack.extend(branches.iter().map(|b| (b, optional || branches.len() > 1)));
            }
            _ => {}
        }
    }
    seen.sort_by_key(|c| c.index);
    out.extend(seen);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn netvm() -> Vec<Entry> {
        crate::presets::builtin()
    }

    /// An exact export, loaded in the flavor of its engine's library (the Presets tab's
    /// Ctrl-N), finds on every row of the verification corpus what the preset finds in its
    /// own flavor: the export's "exact" holds in rxw's model of that engine too.
    #[test]
    fn an_exact_export_in_its_engines_flavor_finds_what_the_preset_finds() {
        let entries = netvm();
        let refs: Vec<&Entry> = entries.iter().collect();
        let rows = verify::corpus(&refs);
        let (mut checked, mut refused, mut texts_refused) = (0, 0, 0);
        for target in Target::ALL {
            let Some(flavor) = target.flavor() else {
                continue;
            };
            for entry in &entries {
                let Ok(def) = export_entry(entry, target, &rows) else {
                    continue;
                };
                let Form::Exact { pattern } = &def.form else {
                    continue;
                };
                let ours = entry.regex().unwrap();
                let compiled = crate::Regex::new(pattern, flavor, crate::Flags::default());
                let theirs = match compiled.map_err(crate::Error::from) {
                    Ok(re) => re,
                    // rxw's model of the engine refuses it (the Java reader's surrogate
                    // ranges, which the Spark export writes for Python's `\b`): said, not run.
                    Err(e) if e.kind == ErrorKind::ConstructUnsupported => {
                        refused += 1;
                        continue;
                    }
                    Err(e) => panic!("{target:?} {}: {pattern}: {e}", entry.preset.key),
                };
                for row in &rows {
                    let want: Vec<&str> = ours
                        .find_all(&row.text, None)
                        .unwrap()
                        .iter()
                        .map(|m| &row.text[m.start()..m.end()])
                        .collect();
                    let got = match theirs.find_all(&row.text, None) {
                        Ok(got) => got,
                        // A text the flavor's model refuses for this pattern (Oniguruma's
                        // Unicode classes on a text outside ASCII): said, not compared.
                        Err(e) if e.kind == rxw_syntax::ErrorKind::InputUnsupported => {
                            texts_refused += 1;
                            continue;
                        }
                        Err(e) => panic!("{target:?} {}: {e}", entry.preset.key),
                    };
                    let got: Vec<&str> =
                        got.iter().map(|m| &row.text[m.start()..m.end()]).collect();
                    assert_eq!(
                        got, want,
                        "{} for {target:?} as {flavor} on {:?}",
                        entry.preset.key, row.text
                    );
                    checked += 1;
                }
            }
        }
        eprintln!(
            "{checked} rows checked, {refused} exports refused by rxw's model, \
             {texts_refused} rows refused for their text"
        );
        assert!(checked > 1000, "{checked} rows checked");
        assert!(
            refused < 10,
            "{refused} exports refused by rxw's model of their engine"
        );
        assert_eq!(Target::Spark.flavor().map(|f| f.name()), Some("java@17"));
        assert_eq!(
            Target::Elasticsearch.flavor().map(|f| f.name()),
            Some("oniguruma")
        );
    }

    #[test]
    fn targets_parse_by_name() {
        for t in Target::ALL {
            assert_eq!(t.name().parse::<Target>().unwrap(), t);
        }
        assert!("mysql".parse::<Target>().is_err());
    }

    #[test]
    fn a_quote_in_the_pattern_is_spelled_as_an_escape() {
        assert_eq!(
            spell_for(Target::Vector, r"'a'[^'\n]"),
            r"\x{27}a\x{27}[^\x{27}\n]"
        );
        // An escaped backslash followed by the quote: the quote is still bare.
        assert_eq!(spell_for(Target::Loki, r"\\`"), r"\\\x{60}");
        assert_eq!(spell_for(Target::Elasticsearch, "a%b"), r"a\x{25}b");
        assert_eq!(spell_for(Target::ClickHouse, "'"), "'");
    }

    /// Regression: a pattern for a literal `$HOME` was written `\$HOME` into the Vector
    /// config, where Vector reads `$HOME` as the environment variable.
    #[test]
    fn no_dollar_reaches_the_vector_config_bare() {
        assert_eq!(spell_for(Target::Vector, r"\$HOME"), r"\x{24}HOME");
        assert_eq!(spell_for(Target::Vector, r"a$"), r"a(?:$)");
        assert_eq!(spell_for(Target::Vector, r"[$a]b"), r"[\x{24}a]b");
        assert_eq!(
            spell_for(Target::Vector, r"[[$]&&[^a]]$"),
            r"[[\x{24}]&&[^a]](?:$)"
        );
        // An escaped backslash before the anchor.
        assert_eq!(spell_for(Target::Vector, r"\\$"), r"\\(?:$)");
        assert_eq!(spell_for(Target::Loki, r"\$x$"), r"\$x$");
        for p in [r"\$HOME", r"\$\{HOME\}", "a$", r"[$]"] {
            let re = regex::Regex::new(&spell_for(Target::Vector, p)).unwrap();
            let want = regex::Regex::new(p).unwrap();
            for text in ["$HOME", "${HOME}", "a", "$", "xa"] {
                assert_eq!(
                    re.find(text).map(|m| m.range()),
                    want.find(text).map(|m| m.range()),
                    "{p} on {text}"
                );
            }
        }
    }

    #[test]
    fn the_result_look_ahead_is_refused_with_its_span_where_no_rewrite_is_allowed() {
        let all = netvm();
        let result = all.iter().find(|e| e.preset.key == "result").unwrap();
        for target in [Target::Loki, Target::Vector] {
            let e = export_entry(result, target, &[]).unwrap_err();
            assert_eq!(e.kind, ErrorKind::ConstructUnsupported);
            let span = e.span.unwrap();
            assert_eq!(
                &result.preset.pattern[span.start..span.end],
                r"(?=\[RESULT\s|\Z)"
            );
            assert!(e.message.contains(target.title()), "{}", e.message);
        }
        // Java and Oniguruma have look-ahead: exact.
        for target in [Target::Spark, Target::Elasticsearch] {
            assert!(!export_entry(result, target, &[]).unwrap().is_rewrite());
        }
    }

    #[test]
    fn only_presets_that_cannot_see_a_line_break_are_line_local() {
        let local: Vec<String> = netvm()
            .iter()
            .filter(|e| line_local(&e.ast().unwrap().root))
            .map(|e| e.preset.key.clone())
            .collect();
        // `\s` matches a line break, so `[ACK:x]` and `[from y]` on two lines are one hit.
        assert_eq!(local, ["uuid", "short_hex"]);
        let parse = |p: &str| {
            crate::syntax::parse::parse(p, crate::Flavor::PYTHON, crate::Flags::default()).unwrap()
        };
        assert!(line_local(&parse(r"a[^\n]b(?m:^x$)").root));
        assert!(!line_local(&parse(r"a[^x]b").root));
        assert!(!line_local(&parse(r"a$").root));
        assert!(!line_local(&parse(r"\Aa").root));
    }

    #[test]
    fn oniguruma_backreferences_go_by_name() {
        let load = |pattern: &str| {
            let toml =
                format!("[[preset]]\nkey = \"k\"\nflavor = \"python\"\npattern = '{pattern}'\n");
            crate::presets::load_str(
                &toml,
                crate::presets::Format::Toml,
                "k.toml",
                crate::presets::Origin::BuiltIn,
            )
            .unwrap()
            .remove(0)
        };
        // Regression: `\1` with named groups is an error in Oniguruma.
        let named = load(r#"(?P<q>["x])(?P<s>[^"x]*)(?P=q)"#);
        let d = export_entry(&named, Target::Elasticsearch, &[]).unwrap();
        let Form::Exact { pattern } = &d.form else {
            panic!()
        };
        assert!(pattern.ends_with(r"(?:\k<q>)"), "{pattern}");
        let unnamed = load(r"(a)(?P<n>b)\1");
        let e = export_entry(&unnamed, Target::Elasticsearch, &[]).unwrap_err();
        assert_eq!(e.span, Some(crate::Span::new(11, 13)));
        // A group that can be unset or empty: the SQL extractors give '' for both.
        let optional_empty = load("x(?P<e>a*)?y");
        let e = export_entry(&optional_empty, Target::DuckDb, &[]).unwrap_err();
        assert_eq!(e.span, Some(crate::Span::new(1, 10)));
        for fine in [Target::Vector, Target::Loki, Target::Elasticsearch] {
            assert!(export_entry(&optional_empty, fine, &[]).is_ok(), "{fine}");
        }
    }

    #[test]
    fn optional_groups_are_marked() {
        let all = netvm();
        let result = all.iter().find(|e| e.preset.key == "result").unwrap();
        let d = exact(result, Target::Spark).unwrap();
        let status = d.fields.iter().find(|f| f.name == "status").unwrap();
        assert!(status.optional);
        assert!(
            d.fields
                .iter()
                .filter(|f| f.name != "status")
                .all(|f| !f.optional)
        );
    }
}

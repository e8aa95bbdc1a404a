//! The static explain tree: what a pattern means, node by node, without running it.
//!
//! [`explain`] turns the parser's [`Ast`] into a tree of [`ExplainNode`]s. Every node keeps the
//! exact source slice and byte span it stands for, a `kind` (a stable, lower-case name), and a
//! `meaning`: one plain sentence that depends on the flavor and on the flags in force where the
//! node stands (`\d` is any Unicode digit in Rust and Python, ASCII 0-9 in JavaScript; `$`
//! says exactly where it matches).
//!
//! Shape of the tree, and why:
//! - Runs of two or more adjacent plain characters inside a sequence are merged into one
//!   `literal` node (`RESULT` is one node, not six). The run's span is the union of the
//!   characters' spans, so spans still tile the pattern. Escaped characters stay separate
//!   `escape` nodes, because each one deserves its own explanation.
//! - A quantifier node (`quantifier`) spans its operand and its operator (`\d{4}`); its only
//!   child is the operand.
//! - A bracketed class (`class`) has one child per item (`range`, `class-char`, …).
//! - Children are inside their parent and in source order; what lies between them is the
//!   parent's own syntax (parentheses, `|`, the quantifier operator, `[`, `^`, `]`).
//!
//! The tree is built with an explicit stack and freed without recursion, so a pattern nested
//! thousands of groups deep cannot overflow the call stack. More than `max_nodes` nodes is an
//! [`ErrorKind::ExplainTooComplex`] error.

use super::ast::*;
use super::lint::{self, Lint};
use crate::error::{Error, ErrorKind, is_bidi_control};
use crate::flavor::{Flags, Flavor};
use crate::highlight::Kind;
use crate::rules::Grammar;
use serde::Serialize;
use std::borrow::Cow;
use std::fmt::Write as _;

/// Phrases longer than this (in characters) are cut with `…` when quoted in a parent's meaning.
const PHRASE_MAX: usize = 120;

/// One node of the explain tree.
///
/// Kinds: `literal`, `escape`, `dot`, `perl-class`, `property`, `class`, `class-char`,
/// `range`, `posix-class`, `set-operation`, `group`, `named-group`, `non-capturing-group`,
/// `flag-group`, `lookahead`, `negative-lookahead`, `lookbehind`, `negative-lookbehind`,
/// `atomic-group`, `flags`, `quantifier`, `sequence`, `alternation`, `empty`, `anchor`,
/// `boundary`, `backreference`, `comment`, `whitespace`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExplainNode {
    /// What the node is (see the list above).
    pub kind: String,
    /// The exact source slice.
    pub text: String,
    /// The byte range in the pattern.
    pub span: Span,
    /// One plain sentence saying what it matches.
    pub meaning: String,
    /// Sub-nodes in source order.
    pub children: Vec<ExplainNode>,
    /// How to colour the node (data; the front ends map it to a style).
    #[serde(skip)]
    pub highlight: Kind,
}

impl Drop for ExplainNode {
    /// Frees deep trees without recursion.
    fn drop(&mut self) {
        let mut stack = std::mem::take(&mut self.children);
        while let Some(mut n) = stack.pop() {
            stack.append(&mut n.children);
        }
    }
}

/// The flat form of a node: the agent tool's `{"kind","text","meaning","span"}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct FlatNode<'a> {
    /// What the node is.
    pub kind: &'a str,
    /// The exact source slice.
    pub text: &'a str,
    /// One plain sentence.
    pub meaning: &'a str,
    /// The byte range in the pattern.
    pub span: Span,
}

/// An explained pattern: the tree and the lints.
///
/// Building, dropping, [`Explanation::nodes`], [`Explanation::to_json`] and
/// [`Explanation::render_text`] never recurse. The derived `Clone`, `Debug`, `PartialEq` and
/// `Serialize` do, which is safe within the default node budget (4,096) but not for a tree
/// built with a much larger `max_nodes`; use `to_json` for those.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Explanation {
    /// The root node; its span is the whole pattern.
    pub tree: ExplainNode,
    /// Static warnings, ordered by position.
    pub lints: Vec<Lint>,
}

/// One line of the text rendering.
#[derive(Debug, Clone, PartialEq)]
pub struct TreeLine<'a> {
    /// Nesting depth (0 for the root).
    pub depth: usize,
    /// The node.
    pub node: &'a ExplainNode,
}

impl Explanation {
    /// All nodes in pre-order (a parent before its children), without recursion.
    pub fn nodes(&self) -> Vec<&ExplainNode> {
        self.lines().into_iter().map(|l| l.node).collect()
    }

    /// The flat pre-order sequence in the agent tool's shape.
    pub fn flat(&self) -> Vec<FlatNode<'_>> {
        self.nodes()
            .into_iter()
            .map(|n| FlatNode {
                kind: &n.kind,
                text: &n.text,
                meaning: &n.meaning,
                span: n.span,
            })
            .collect()
    }

    /// Nodes in pre-order with their depth.
    pub fn lines(&self) -> Vec<TreeLine<'_>> {
        let mut out = Vec::new();
        let mut stack = vec![(&self.tree, 0usize)];
        while let Some((node, depth)) = stack.pop() {
            out.push(TreeLine { depth, node });
            for c in node.children.iter().rev() {
                stack.push((c, depth + 1));
            }
        }
        out
    }

    /// The JSON form `{"tree":NODE,"nodes":[…],"lints":[…]}`, written without recursion so
    /// that deep trees serialize safely.
    pub fn to_json(&self) -> String {
        let mut s = String::from("{\"tree\":");
        write_node_json(&self.tree, &mut s);
        s.push_str(",\"nodes\":");
        s.push_str(&serde_json::to_string(&self.flat()).unwrap_or_else(|_| "[]".into()));
        s.push_str(",\"lints\":");
        s.push_str(&serde_json::to_string(&self.lints).unwrap_or_else(|_| "[]".into()));
        s.push('}');
        s
    }

    /// The text form: an indented tree with source slices and meanings aligned in two
    /// columns, then the lints with a caret under their span. `paint` styles a piece of text
    /// by highlight kind (pass `|s, _| s.to_string()` for plain text).
    pub fn render_text(&self, pattern: &str, paint: &dyn Fn(&str, Kind) -> String) -> String {
        const COLUMN_MAX: usize = 44;
        let lines = self.lines();
        let shown: Vec<String> = lines.iter().map(|l| show_slice(&l.node.text)).collect();
        let width = lines
            .iter()
            .zip(&shown)
            .map(|(l, s)| 2 * l.depth + s.chars().count())
            .filter(|w| *w <= COLUMN_MAX)
            .max()
            .unwrap_or(0);
        let mut out = String::new();
        for (l, s) in lines.iter().zip(&shown) {
            let left = 2 * l.depth + s.chars().count();
            let pad = width.saturating_sub(left) + 2;
            let _ = writeln!(
                out,
                "{}{}{}{}",
                "  ".repeat(l.depth),
                paint(s, l.node.highlight),
                " ".repeat(pad),
                l.node.meaning
            );
        }
        for lint in &self.lints {
            out.push('\n');
            out.push_str(&lint.render(pattern, paint));
        }
        out
    }
}

fn write_node_json(root: &ExplainNode, s: &mut String) {
    enum Step<'a> {
        Open(&'a ExplainNode),
        Comma,
        Close,
    }
    let mut stack = vec![Step::Open(root)];
    while let Some(step) = stack.pop() {
        match step {
            Step::Comma => s.push(','),
            Step::Close => s.push_str("]}"),
            Step::Open(n) => {
                let q = |v: &str| serde_json::to_string(v).unwrap_or_default();
                let _ = write!(
                    s,
                    "{{\"kind\":{},\"text\":{},\"span\":{{\"start\":{},\"end\":{}}},\"meaning\":{},\"children\":[",
                    q(&n.kind),
                    q(&n.text),
                    n.span.start,
                    n.span.end,
                    q(&n.meaning)
                );
                stack.push(Step::Close);
                for (i, c) in n.children.iter().enumerate().rev() {
                    stack.push(Step::Open(c));
                    if i > 0 {
                        stack.push(Step::Comma);
                    }
                }
            }
        }
    }
}

/// A source slice on one line: control characters escaped, long slices cut.
fn show_slice(text: &str) -> String {
    const MAX: usize = 40;
    let mut out = String::new();
    for (i, c) in text.chars().enumerate() {
        if i == MAX - 1 && text.chars().count() > MAX {
            out.push('…');
            break;
        }
        push_shown(&mut out, c);
    }
    out
}

/// Writes `c` as explain shows it: a control or bidirectional control as a `\u{1b}` escape
/// (newline, carriage return and tab as `\n`, `\r`, `\t`), any other character as itself.
fn push_shown(out: &mut String, c: char) {
    match c {
        '\n' => out.push_str("\\n"),
        '\r' => out.push_str("\\r"),
        '\t' => out.push_str("\\t"),
        c if c.is_control() || is_bidi_control(c) => {
            let _ = write!(out, "\\u{{{:x}}}", c as u32);
        }
        c => out.push(c),
    }
}

/// Literal text inside a meaning: controls and bidirectional controls as `\u{1b}` escapes
/// (newline, carriage return and tab as `\n`, `\r`, `\t`), so that a description never
/// carries a character a terminal would act on.
fn show_literal(text: &str) -> Cow<'_, str> {
    if text.chars().any(|c| c.is_control() || is_bidi_control(c)) {
        let mut out = String::new();
        for c in text.chars() {
            push_shown(&mut out, c);
        }
        Cow::Owned(out)
    } else {
        Cow::Borrowed(text)
    }
}

/// Explains a parsed pattern.
///
/// `pattern` must be the text `ast` was parsed from; `ast.flags` are the flags in force at
/// the start.
///
/// # Errors
/// [`ErrorKind::ExplainTooComplex`] (`explain: pattern too complex`) when the tree would have
/// more than `max_nodes` nodes.
pub fn explain(
    ast: &Ast,
    pattern: &str,
    flavor: Flavor,
    max_nodes: usize,
) -> Result<Explanation, Error> {
    let tree = Builder {
        ast,
        pattern,
        flavor,
        max_nodes,
        count: 0,
    }
    .build()?;
    let lints = lint::lint(ast, pattern, flavor);
    Ok(Explanation { tree, lints })
}

/// Parses and explains in one step.
///
/// # Errors
/// Parse errors (with their span) and [`ErrorKind::ExplainTooComplex`].
pub fn explain_pattern(
    pattern: &str,
    flavor: Flavor,
    flags: Flags,
    max_nodes: usize,
) -> Result<Explanation, Error> {
    let ast = super::parse::parse(pattern, flavor, flags)?;
    explain(&ast, pattern, flavor, max_nodes)
}

/// The flags that change meanings, as they stand at one place in the pattern.
#[derive(Debug, Clone, Copy)]
struct Mode {
    ignore_case: bool,
    /// Python `a`, Rust `(?-u)`: ASCII-only classes.
    ascii: bool,
    swap_greed: bool,
    crlf: bool,
}

impl Mode {
    fn new(flags: Flags) -> Mode {
        Mode {
            ignore_case: flags.ignore_case,
            ascii: flags.ascii,
            swap_greed: flags.swap_greed,
            crlf: flags.crlf,
        }
    }

    fn apply(&mut self, change: &FlagChange, flavor: Flavor) {
        for (letters, on) in [(&change.on, true), (&change.off, false)] {
            for c in letters.chars() {
                match c {
                    'i' => self.ignore_case = on,
                    'a' => self.ascii = on,
                    'u' if flavor.is_rust() => self.ascii = !on,
                    'u' => self.ascii = false,
                    'U' => self.swap_greed = on,
                    'R' => self.crlf = on,
                    _ => {}
                }
            }
        }
    }
}

/// A short noun phrase for a node, used inside its parent's meaning.
#[derive(Debug, Clone)]
enum Phrase {
    /// Zero-width and says nothing (comments, flags).
    Silent,
    /// Literal characters, merged with neighbours into one quoted string.
    Lit(String),
    /// Anything else.
    Text(String),
}

impl Phrase {
    fn render(&self) -> String {
        match self {
            Phrase::Silent => String::new(),
            Phrase::Lit(s) => format!("`{}`", show_literal(s)),
            Phrase::Text(t) => t.clone(),
        }
    }
}

fn cap(mut s: String) -> String {
    if s.chars().count() > PHRASE_MAX {
        s = s.chars().take(PHRASE_MAX - 1).collect();
        s.push('…');
    }
    s
}

fn join_and(parts: &[String]) -> String {
    match parts {
        [] => "nothing".to_string(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and {last}", init.join(", ")),
    }
}

fn sequence_phrase(phrases: &[Phrase]) -> Phrase {
    let mut merged: Vec<Phrase> = Vec::new();
    for p in phrases {
        match (merged.last_mut(), p) {
            (_, Phrase::Silent) => {}
            (Some(Phrase::Lit(acc)), Phrase::Lit(s)) => acc.push_str(s),
            _ => merged.push(p.clone()),
        }
    }
    match merged.as_slice() {
        [] => Phrase::Text("nothing".into()),
        [one] => one.clone(),
        _ => Phrase::Text(cap(join_and(
            &merged.iter().map(Phrase::render).collect::<Vec<_>>(),
        ))),
    }
}

enum Piece<'a> {
    Node(&'a Node),
    /// Two or more adjacent plain characters.
    Run(&'a [Node]),
    ClassItem(&'a ClassItem),
}

struct Frame<'a> {
    item: Piece<'a>,
    /// Flags for the children (and, after a `(?i)`, for later siblings).
    mode: Mode,
    /// Mode where the node itself stands.
    own_mode: Mode,
    pending: Vec<Piece<'a>>,
    children: Vec<ExplainNode>,
    phrases: Vec<Phrase>,
    is_group: bool,
}

struct Builder<'a> {
    ast: &'a Ast,
    pattern: &'a str,
    flavor: Flavor,
    max_nodes: usize,
    count: usize,
}

fn is_plain(n: &Node) -> bool {
    matches!(
        n.kind,
        NodeKind::Literal {
            form: LiteralForm::Verbatim,
            ..
        }
    )
}

/// The children of a sequence, with plain-character runs grouped.
fn sequence_items(v: &[Node]) -> Vec<Piece<'_>> {
    let mut items = Vec::new();
    let mut i = 0;
    while i < v.len() {
        let mut j = i;
        while j + 1 < v.len()
            && is_plain(&v[j])
            && is_plain(&v[j + 1])
            && v[j].span.end == v[j + 1].span.start
        {
            j += 1;
        }
        if j > i {
            items.push(Piece::Run(&v[i..=j]));
        } else {
            items.push(Piece::Node(&v[i]));
        }
        i = j + 1;
    }
    items
}

impl<'a> Builder<'a> {
    fn build(mut self) -> Result<ExplainNode, Error> {
        let mode = Mode::new(self.ast.flags);
        let first = self.open(Piece::Node(&self.ast.root), mode)?;
        let mut stack = vec![first];
        loop {
            let Some(top) = stack.last_mut() else {
                unreachable!("the root frame is popped only at the end")
            };
            if let Some(item) = top.pending.pop() {
                let m = top.mode;
                let frame = self.open(item, m)?;
                stack.push(frame);
                continue;
            }
            let Some(frame) = stack.pop() else {
                unreachable!()
            };
            let set_flags = match frame.item {
                Piece::Node(n) => match &n.kind {
                    NodeKind::SetFlags(change) => Some(change),
                    _ => None,
                },
                _ => None,
            };
            let (node, phrase) = self.close(frame);
            let Some(parent) = stack.last_mut() else {
                return Ok(node);
            };
            parent.children.push(node);
            parent.phrases.push(phrase);
            if let Some(change) = set_flags {
                // `(?i)` holds until the end of the enclosing group.
                for f in stack.iter_mut().rev() {
                    f.mode.apply(change, self.flavor);
                    if f.is_group {
                        break;
                    }
                }
            }
        }
    }

    fn open(&mut self, item: Piece<'a>, mode: Mode) -> Result<Frame<'a>, Error> {
        // A sequence that is one run of plain characters is shown as that run alone.
        let item = match item {
            Piece::Node(n) => match &n.kind {
                NodeKind::Concat(v) if v.len() > 1 && v.iter().all(is_plain) => {
                    let items = sequence_items(v);
                    match items.as_slice() {
                        [Piece::Run(run)]
                            if run[0].span.start == n.span.start
                                && run[run.len() - 1].span.end == n.span.end =>
                        {
                            Piece::Run(run)
                        }
                        _ => Piece::Node(n),
                    }
                }
                _ => Piece::Node(n),
            },
            other => other,
        };
        self.count += 1;
        if self.count > self.max_nodes {
            return Err(Error::new(
                ErrorKind::ExplainTooComplex,
                "explain: pattern too complex",
            ));
        }
        let mut child_mode = mode;
        let mut is_group = false;
        let mut pending: Vec<Piece<'a>> = match &item {
            Piece::Node(n) => match &n.kind {
                NodeKind::Concat(v) => sequence_items(v),
                NodeKind::Alternation(v) => v.iter().map(Piece::Node).collect(),
                NodeKind::Group { kind, child } => {
                    is_group = true;
                    if let GroupKind::Flags(change) = kind {
                        child_mode.apply(change, self.flavor);
                    }
                    vec![Piece::Node(child)]
                }
                NodeKind::Repeat { child, .. } => vec![Piece::Node(child)],
                NodeKind::Class(c) => c.items.iter().map(Piece::ClassItem).collect(),
                _ => Vec::new(),
            },
            Piece::Run(_) => Vec::new(),
            Piece::ClassItem(ClassItem::Nested(c)) => {
                c.items.iter().map(Piece::ClassItem).collect()
            }
            Piece::ClassItem(_) => Vec::new(),
        };
        pending.reverse();
        Ok(Frame {
            item,
            mode: child_mode,
            own_mode: mode,
            pending,
            children: Vec::new(),
            phrases: Vec::new(),
            is_group,
        })
    }

    fn text(&self, span: Span) -> &'a str {
        self.pattern.get(span.start..span.end).unwrap_or("")
    }

    fn close(&self, frame: Frame<'a>) -> (ExplainNode, Phrase) {
        let mode = frame.own_mode;
        let (span, kind, highlight, meaning, phrase) = match frame.item {
            Piece::Run(run) => {
                let span = run[0].span.to(run[run.len() - 1].span);
                let s: String = run
                    .iter()
                    .filter_map(|n| match n.kind {
                        NodeKind::Literal { ch, .. } => Some(ch),
                        _ => None,
                    })
                    .collect();
                let meaning = format!(
                    "the text `{}`{}",
                    show_literal(&s),
                    case_note(mode, s.chars())
                );
                (span, "literal", Kind::Literal, meaning, Phrase::Lit(s))
            }
            Piece::Node(n) => self.describe_node(n, mode, &frame.phrases),
            Piece::ClassItem(ci) => self.describe_class_item(ci, mode),
        };
        let meaning = capitalize(meaning);
        let node = ExplainNode {
            kind: kind.to_string(),
            text: self.text(span).to_string(),
            span,
            meaning,
            children: frame.children,
            highlight,
        };
        (node, phrase)
    }

    fn describe_node(
        &self,
        n: &Node,
        mode: Mode,
        phrases: &[Phrase],
    ) -> (Span, &'static str, Kind, String, Phrase) {
        let flavor = self.flavor;
        let child_phrase = || {
            phrases
                .first()
                .map(Phrase::render)
                .unwrap_or_else(|| "nothing".into())
        };
        let span = n.span;
        match &n.kind {
            NodeKind::Empty => (
                span,
                "empty",
                Kind::Literal,
                "nothing: matches the empty string".into(),
                Phrase::Text("nothing".into()),
            ),
            NodeKind::Literal { ch, form } => {
                let text = self.text(span);
                // A reader flavor (Java, Ruby, PCRE2) may write a plain character as an escape
                // in its sre text (`-` as `\-`): what the user wrote decides.
                let form = if text.starts_with('\\') {
                    form
                } else {
                    &LiteralForm::Verbatim
                };
                let (kind, hl) = if *form == LiteralForm::Verbatim {
                    ("literal", Kind::Literal)
                } else {
                    ("escape", Kind::Escape)
                };
                let note = case_note(mode, std::iter::once(*ch));
                let meaning = match form {
                    LiteralForm::Verbatim => format!("{}{note}", char_the(*ch)),
                    LiteralForm::Escaped if text == "\\" => {
                        // JS Annex B: a `\` before a non-letter that starts no escape.
                        "a literal backslash (`\\c` not followed by a letter is not a control escape)".into()
                    }
                    LiteralForm::Escaped if ch.is_ascii_alphanumeric() => format!(
                        "{} (an identity escape: the backslash changes nothing here)",
                        char_the(*ch)
                    ),
                    LiteralForm::Escaped => {
                        format!(
                            "{} itself (escaped, so it is not special){note}",
                            char_the(*ch)
                        )
                    }
                    LiteralForm::Control => format!("{} (a control escape)", char_desc(*ch)),
                    LiteralForm::Hex => format!("{}, written as a hex escape{note}", char_the(*ch)),
                    LiteralForm::Octal => {
                        format!("{}, written as an octal escape{note}", char_the(*ch))
                    }
                    LiteralForm::Named => {
                        format!("{}, written by its Unicode name{note}", char_the(*ch))
                    }
                };
                let phrase = if is_quotable(*ch) && surrogate_unit(*ch).is_none() {
                    Phrase::Lit(ch.to_string())
                } else {
                    Phrase::Text(char_short(*ch))
                };
                (span, kind, hl, meaning, phrase)
            }
            NodeKind::Dot { dotall } => {
                let (m, p) = dot_meaning(flavor, *dotall, mode);
                (span, "dot", Kind::Class, m, Phrase::Text(p))
            }
            NodeKind::Perl { kind, negated } => {
                let (m, p) = perl_meaning(flavor, *kind, *negated, mode);
                (span, "perl-class", Kind::Class, m, Phrase::Text(p))
            }
            NodeKind::Property { name, negated } => {
                let (m, p) = property_meaning(name, *negated);
                (span, "property", Kind::Class, m, Phrase::Text(p))
            }
            NodeKind::Class(c) => {
                let (m, p) = self.describe_class(c, mode);
                (span, "class", Kind::Class, m, p)
            }
            NodeKind::Anchor { kind, multiline } => {
                let (m, p) = anchor_meaning(flavor, *kind, *multiline, mode);
                let k = match kind {
                    AnchorKind::LineStart
                    | AnchorKind::LineEnd
                    | AnchorKind::TextStart
                    | AnchorKind::TextEnd => "anchor",
                    _ => "boundary",
                };
                (span, k, Kind::Anchor, m, Phrase::Text(p))
            }
            NodeKind::Group { kind, child } => {
                let mut inner = child_phrase();
                let lookaround = matches!(
                    kind,
                    GroupKind::Lookahead
                        | GroupKind::NegativeLookahead
                        | GroupKind::Lookbehind
                        | GroupKind::NegativeLookbehind
                );
                if lookaround && matches!(child.kind, NodeKind::Alternation(_)) {
                    // "followed by X, or Y" reads better than "followed by either X, or Y".
                    if let Some(bare) = inner.strip_prefix("either ") {
                        inner = bare.to_string();
                    }
                }
                let (k, m, p) = match kind {
                    GroupKind::Capture { index, name: None } => (
                        "group",
                        format!(
                            "capturing group {index}: matches {inner} and remembers it as group {index}"
                        ),
                        inner.clone(),
                    ),
                    GroupKind::Capture {
                        index,
                        name: Some(name),
                    } => (
                        "named-group",
                        format!(
                            "named capturing group `{name}` (group {index}): matches {inner} and remembers it as `{name}`"
                        ),
                        inner.clone(),
                    ),
                    GroupKind::NonCapture => (
                        "non-capturing-group",
                        format!("a group that does not capture: {inner}"),
                        inner.clone(),
                    ),
                    GroupKind::Flags(change) => (
                        "flag-group",
                        format!("{inner}, with {}", flag_change_words(change, flavor)),
                        inner.clone(),
                    ),
                    GroupKind::Lookahead => (
                        "lookahead",
                        format!("followed by {inner}, without consuming it"),
                        format!("(followed by {inner})"),
                    ),
                    GroupKind::NegativeLookahead => (
                        "negative-lookahead",
                        format!("not followed by {inner} (checked without consuming anything)"),
                        format!("(not followed by {inner})"),
                    ),
                    GroupKind::Lookbehind => (
                        "lookbehind",
                        format!("preceded by {inner}, without consuming it"),
                        format!("(preceded by {inner})"),
                    ),
                    GroupKind::NegativeLookbehind => (
                        "negative-lookbehind",
                        format!("not preceded by {inner} (checked without consuming anything)"),
                        format!("(not preceded by {inner})"),
                    ),
                    GroupKind::Conditional { index, name } => (
                        "conditional",
                        format!(
                            "if group {} matched, {inner}",
                            name.clone().map_or(index.to_string(), |n| format!("{n:?}")),
                        ),
                        format!("(if group {index} matched: {inner})"),
                    ),
                    GroupKind::Atomic => (
                        "atomic-group",
                        format!(
                            "an atomic group: matches {inner} once and never backtracks into it"
                        ),
                        inner.clone(),
                    ),
                };
                (span, k, Kind::Group0, m, Phrase::Text(cap(p)))
            }
            NodeKind::SetFlags(change) => {
                let scope = match flavor {
                    Flavor::Python(_) => "for the whole pattern",
                    _ => "from here to the end of the enclosing group",
                };
                (
                    span,
                    "flags",
                    Kind::Comment,
                    format!("sets flags {scope}: {}", flag_change_words(change, flavor)),
                    Phrase::Silent,
                )
            }
            NodeKind::Repeat {
                min, max, greed, ..
            } => {
                let greed = match (greed, mode.swap_greed && flavor.is_rust()) {
                    (Greed::Greedy, true) => Greed::Lazy,
                    (Greed::Lazy, true) => Greed::Greedy,
                    (g, _) => *g,
                };
                let count = count_words(*min, *max);
                let greed_words = if Some(*min) == *max {
                    String::new()
                } else {
                    match greed {
                        Greed::Greedy => {
                            ", as many as possible, giving back as needed (greedy)".into()
                        }
                        Greed::Lazy => {
                            ", as few as possible, taking more only as needed (lazy)".into()
                        }
                        Greed::Possessive => {
                            ", as many as possible, never giving any back (possessive)".into()
                        }
                    }
                };
                let inner = child_phrase();
                (
                    span,
                    "quantifier",
                    Kind::Quantifier,
                    format!("{inner}, {count}{greed_words}"),
                    Phrase::Text(cap(format!("{inner} {count}"))),
                )
            }
            NodeKind::Concat(_) => {
                let p = sequence_phrase(phrases);
                (
                    span,
                    "sequence",
                    Kind::Literal,
                    format!("in sequence: {}", p.render()),
                    p,
                )
            }
            NodeKind::Alternation(_) => {
                let parts: Vec<String> = phrases.iter().map(Phrase::render).collect();
                let p = cap(format!("either {}", parts.join(", or ")));
                let m = format!(
                    "{p} (tried left to right: the first alternative that lets the rest match wins)"
                );
                (span, "alternation", Kind::Alternation, m, Phrase::Text(p))
            }
            NodeKind::Backref { index, name } => {
                let index = if *index == 0 {
                    // JS forward references by name are resolved after parsing.
                    name.as_deref()
                        .and_then(|nm| {
                            self.ast
                                .groups
                                .iter()
                                .find(|g| g.name.as_deref() == Some(nm))
                        })
                        .map_or(0, |g| g.index)
                } else {
                    *index
                };
                let who = match name {
                    Some(nm) => format!("group `{nm}` (group {index})"),
                    None => match self
                        .ast
                        .groups
                        .get((index as usize).wrapping_sub(1))
                        .and_then(|g| g.name.clone())
                    {
                        Some(nm) => format!("group {index} (`{nm}`)"),
                        None => format!("group {index}"),
                    },
                };
                let ci = if mode.ignore_case {
                    ", ignoring case"
                } else {
                    ""
                };
                let unset = match flavor {
                    Flavor::Js(_) => "; matches the empty string if the group has not matched",
                    _ => "; fails if the group has not matched",
                };
                (
                    span,
                    "backreference",
                    Kind::Backref,
                    format!("the same text that {who} matched{ci}{unset}"),
                    Phrase::Text(format!("the text of {who}")),
                )
            }
            NodeKind::Comment => (
                span,
                "comment",
                Kind::Comment,
                "a comment, ignored".into(),
                Phrase::Silent,
            ),
            NodeKind::Whitespace => (
                span,
                "whitespace",
                Kind::Comment,
                "whitespace, ignored in verbose mode".into(),
                Phrase::Silent,
            ),
        }
    }

    fn describe_class(&self, c: &Class, mode: Mode) -> (String, Phrase) {
        let has_setop = c.items.iter().any(|i| matches!(i, ClassItem::SetOp(..)));
        let items: Vec<String> = c.items.iter().map(|i| self.class_item_short(i)).collect();
        let list = cap(join_or(&items));
        let ci = if mode.ignore_case {
            " (either case)"
        } else {
            ""
        };
        if has_setop {
            let m = format!(
                "one character from the set expression {}{ci}",
                show_slice(self.text(c.span))
            );
            return (
                m.clone(),
                Phrase::Text(format!("a character in {}", self.text(c.span))),
            );
        }
        if c.items.is_empty() {
            return if c.negated {
                (
                    "any character at all (an empty negated class)".into(),
                    Phrase::Text("any character".into()),
                )
            } else {
                (
                    "nothing: an empty class never matches".into(),
                    Phrase::Text("nothing".into()),
                )
            };
        }
        if c.negated {
            let nl = match self.flavor {
                Flavor::Js(_) => ", line terminators included",
                _ => ", a newline included",
            };
            (
                format!("any one character except {list}{ci} (anything else matches{nl})"),
                Phrase::Text(format!("a character other than {list}")),
            )
        } else {
            (
                format!("one character: {list}{ci}"),
                Phrase::Text(format!("one of {list}")),
            )
        }
    }

    fn class_item_short(&self, item: &ClassItem) -> String {
        match item {
            ClassItem::Char(c, _) => char_short(*c),
            ClassItem::Range(a, b, _) => format!("{} to {}", char_short(*a), char_short(*b)),
            ClassItem::Perl(k, neg, _) => {
                perl_meaning(self.flavor, *k, *neg, Mode::new(Flags::default())).1
            }
            ClassItem::Property(name, neg, _) => property_meaning(name, *neg).1,
            ClassItem::Posix(name, neg, _) => posix_meaning(name, *neg),
            ClassItem::Nested(c) => format!("a character in {}", self.text(c.span)),
            ClassItem::SetOp(op, _) => op.clone(),
            ClassItem::Strings(alternatives, _) => strings_phrase(alternatives),
        }
    }

    fn describe_class_item(
        &self,
        item: &ClassItem,
        mode: Mode,
    ) -> (Span, &'static str, Kind, String, Phrase) {
        let span = item.span();
        match item {
            ClassItem::Char(c, _) => {
                let text = self.text(span);
                let hl = if text.starts_with('\\') {
                    Kind::Escape
                } else {
                    Kind::Literal
                };
                let how = if text == format!("\\{c}") {
                    " (escaped)"
                } else {
                    ""
                };
                (
                    span,
                    "class-char",
                    hl,
                    format!(
                        "{}{how}{}",
                        char_the(*c),
                        case_note(mode, std::iter::once(*c))
                    ),
                    Phrase::Text(char_short(*c)),
                )
            }
            ClassItem::Range(a, b, _) => {
                let n = (*b as u32).saturating_sub(*a as u32) + 1;
                let mut m = format!(
                    "any character from {} to {} ({} character{}, by code point)",
                    char_desc(*a),
                    char_desc(*b),
                    n,
                    if n == 1 { "" } else { "s" }
                );
                if a.is_ascii_uppercase() && b.is_ascii_lowercase() {
                    m.push_str("; this includes the punctuation [ \\ ] ^ _ ` between Z and a");
                }
                m.push_str(&case_note(mode, [*a, *b].into_iter()));
                (
                    span,
                    "range",
                    Kind::Class,
                    m,
                    Phrase::Text(format!("{} to {}", char_short(*a), char_short(*b))),
                )
            }
            ClassItem::Perl(k, neg, _) => {
                let (m, p) = perl_meaning(self.flavor, *k, *neg, mode);
                (span, "perl-class", Kind::Class, m, Phrase::Text(p))
            }
            ClassItem::Property(name, neg, _) => {
                let (m, p) = property_meaning(name, *neg);
                (span, "property", Kind::Class, m, Phrase::Text(p))
            }
            ClassItem::Posix(name, neg, _) => {
                let p = posix_meaning(name, *neg);
                (
                    span,
                    "posix-class",
                    Kind::Class,
                    format!("POSIX class: {p}"),
                    Phrase::Text(p),
                )
            }
            ClassItem::Nested(c) => {
                let (m, p) = self.describe_class(c, mode);
                (
                    c.span,
                    "class",
                    Kind::Class,
                    format!("a nested class: {m}"),
                    p,
                )
            }
            ClassItem::Strings(alternatives, _) => {
                let list = strings_phrase(alternatives);
                (
                    span,
                    "class-strings",
                    Kind::Literal,
                    format!("one of the strings {list} (longest first)"),
                    Phrase::Text(list),
                )
            }
            ClassItem::SetOp(op, _) => {
                let m = match op.as_str() {
                    "&&" => {
                        "intersection: only characters in both the part before and the part after"
                    }
                    "--" => "difference: characters in the part before but not in the part after",
                    _ => "symmetric difference: characters in exactly one of the two parts",
                };
                (
                    span,
                    "set-operation",
                    Kind::Alternation,
                    m.into(),
                    Phrase::Text(op.clone()),
                )
            }
        }
    }
}

/// A `\q{…}` literal's alternatives as a list: "`ab`, `c` or the empty string".
fn strings_phrase(alternatives: &[String]) -> String {
    let parts: Vec<String> = alternatives
        .iter()
        .map(|a| {
            if a.is_empty() {
                "the empty string".to_string()
            } else {
                format!("`{a}`")
            }
        })
        .collect();
    join_or(&parts)
}

fn join_or(parts: &[String]) -> String {
    match parts {
        [] => "nothing".into(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} or {last}", init.join(", ")),
    }
}

fn capitalize(mut s: String) -> String {
    // Meanings start with ASCII (a word or a backtick); upper-case it in place.
    if let Some(first) = s.get_mut(..1) {
        first.make_ascii_uppercase();
    }
    s
}

fn is_quotable(c: char) -> bool {
    !c.is_control() && (c == ' ' || !c.is_whitespace()) && c != '`'
}

/// A long description of a character: "`A`", "a newline (U+000A)", "`—` (U+2014 EM DASH)".
fn char_desc(c: char) -> String {
    if let Some(unit) = surrogate_unit(c) {
        return format!(
            "the UTF-16 code unit U+{unit:04X} (a {} surrogate: half of a character outside the BMP)",
            if unit < 0xDC00 { "high" } else { "low" }
        );
    }
    if let Some(name) = control_name(c) {
        return format!("{name} (U+{:04X})", c as u32);
    }
    if c == ' ' {
        return "a space (U+0020)".into();
    }
    if !c.is_ascii() {
        let name = unicode_names2::name(c)
            .map(|n| format!(" {n}"))
            .unwrap_or_default();
        if c.is_whitespace() || c.is_control() || is_bidi_control(c) {
            return format!("U+{:04X}{name}", c as u32);
        }
        return format!("`{c}` (U+{:04X}{name})", c as u32);
    }
    if c.is_control() {
        return format!("the control character U+{:04X}", c as u32);
    }
    format!("`{c}`")
}

/// "the character `a`", or "a newline (U+000A)" for a named control character.
fn char_the(c: char) -> String {
    if control_name(c).is_some() || c == ' ' || surrogate_unit(c).is_some() {
        char_desc(c)
    } else {
        format!("the character {}", char_desc(c))
    }
}

/// A short description of a character for lists: "`a`", "a newline".
/// The surrogate code unit a JavaScript `\uD83D` (without `u`) stands for: the parser keeps
/// it as a plane-15 private-use stand-in, since a `char` cannot hold a surrogate.
fn surrogate_unit(c: char) -> Option<u32> {
    let v = c as u32;
    (0xF0000..0xF0800)
        .contains(&v)
        .then(|| 0xD800 + (v - 0xF0000))
}

fn char_short(c: char) -> String {
    if let Some(unit) = surrogate_unit(c) {
        return format!("code unit U+{unit:04X}");
    }
    if let Some(name) = control_name(c) {
        return name.to_string();
    }
    if c == ' ' {
        return "a space".into();
    }
    if c.is_control() || c.is_whitespace() || is_bidi_control(c) {
        return format!("U+{:04X}", c as u32);
    }
    format!("`{c}`")
}

fn control_name(c: char) -> Option<&'static str> {
    Some(match c {
        '\n' => "a newline",
        '\t' => "a tab",
        '\r' => "a carriage return",
        '\u{c}' => "a form feed",
        '\u{b}' => "a vertical tab",
        '\u{7}' => "a bell",
        '\u{8}' => "a backspace",
        '\0' => "a NUL character",
        '\u{1b}' => "an escape character",
        _ => return None,
    })
}

fn case_note(mode: Mode, mut chars: impl Iterator<Item = char>) -> String {
    if mode.ignore_case && chars.any(|c| c.is_lowercase() || c.is_uppercase()) {
        " (ignoring case)".into()
    } else {
        String::new()
    }
}

fn count_words(min: u32, max: Option<u32>) -> String {
    let times = |n: u32| {
        if n == 1 {
            "once".to_string()
        } else {
            format!("{n} times")
        }
    };
    match (min, max) {
        (0, None) => "zero or more times".into(),
        (1, None) => "one or more times".into(),
        (0, Some(1)) => "optionally (zero or one time)".into(),
        (n, None) => format!("at least {}", times(n)),
        (n, Some(m)) if n == m => format!("exactly {}", times(n)),
        (n, Some(m)) => format!("between {n} and {m} times"),
    }
}

fn flag_name(c: char, flavor: Flavor) -> String {
    match c {
        'i' => "case-insensitive matching (i)".into(),
        'm' => "multi-line mode, ^ and $ at line breaks (m)".into(),
        's' => "dot-all mode, . matches a newline (s)".into(),
        'x' => "verbose mode, whitespace and # comments ignored (x)".into(),
        'a' => "ASCII-only \\w \\d \\s \\b (a)".into(),
        'u' if flavor.is_rust() => "Unicode-aware classes (u)".into(),
        'u' => "Unicode matching (u)".into(),
        'L' => "locale-dependent matching (L)".into(),
        'U' => "swapped greediness: x* lazy, x*? greedy (U)".into(),
        'R' => "CRLF mode, \\r\\n line endings (R)".into(),
        c => format!("flag {c}"),
    }
}

fn flag_change_words(change: &FlagChange, flavor: Flavor) -> String {
    let on: Vec<String> = change.on.chars().map(|c| flag_name(c, flavor)).collect();
    let off: Vec<String> = change.off.chars().map(|c| flag_name(c, flavor)).collect();
    match (on.is_empty(), off.is_empty()) {
        (false, true) => format!("{} on", join_and(&on)),
        (true, false) => format!("{} off", join_and(&off)),
        (false, false) => format!("{} on and {} off", join_and(&on), join_and(&off)),
        (true, true) => "no flag changed".into(),
    }
}

fn dot_meaning(flavor: Flavor, dotall: bool, mode: Mode) -> (String, String) {
    if dotall {
        return (
            "any character at all, a newline included (dot-all mode)".into(),
            "any character".into(),
        );
    }
    match flavor.rules().grammar {
        _ if mode.crlf => (
            "any character except \\r and \\n (CRLF mode; no dot-all)".into(),
            "any character but a line break".into(),
        ),
        Grammar::Sre | Grammar::Re2 | Grammar::Pcre2 | Grammar::Dotnet => (
            "any character except a newline (\\n); turn on s to include it".into(),
            "any character but a newline".into(),
        ),
        Grammar::Ecma => (
            "any character except a line terminator (\\n, \\r, U+2028, U+2029); turn on s to include them".into(),
            "any character but a line break".into(),
        ),
        Grammar::Java => (
            "any character except a line terminator (\\n, \\r, U+0085, U+2028, U+2029); turn on s to include them".into(),
            "any character but a line break".into(),
        ),
        Grammar::Onig => (
            "any character except a newline (\\n); turn on m to include it".into(),
            "any character but a newline".into(),
        ),
    }
}

fn perl_meaning(flavor: Flavor, kind: PerlKind, negated: bool, mode: Mode) -> (String, String) {
    let ascii = match flavor.rules().perl_classes {
        crate::rules::PerlClasses::Js | crate::rules::PerlClasses::Ascii => true,
        _ => mode.ascii,
    };
    let (long, short) = match (kind, ascii, flavor) {
        (PerlKind::Digit, true, _) => ("an ASCII digit 0-9", "a digit 0-9"),
        (PerlKind::Digit, false, _) => (
            "any Unicode decimal digit (0-9, and also digits of other scripts such as ٣ or ३)",
            "a Unicode digit",
        ),
        (PerlKind::Word, true, _) => (
            "an ASCII word character: a letter A-Z or a-z, a digit 0-9, or _",
            "a word character",
        ),
        (PerlKind::Word, false, Flavor::Rust | Flavor::Fancy) => (
            "a Unicode word character: a letter, mark, digit, connector punctuation such as _, or join control",
            "a word character",
        ),
        (PerlKind::Word, false, _) => (
            "a Unicode word character: a letter or digit of any script, or _",
            "a word character",
        ),
        (PerlKind::Space, true, Flavor::Js(_)) => (
            "a whitespace character: space, tab, a line break, form feed, vertical tab, no-break space or another Unicode space",
            "a whitespace character",
        ),
        (PerlKind::Space, true, _) => (
            "an ASCII whitespace character: space, \\t, \\n, \\r, \\f or \\v",
            "a whitespace character",
        ),
        (PerlKind::Space, false, _) => (
            "a whitespace character: space, tab, a line break, or any other Unicode whitespace",
            "a whitespace character",
        ),
    };
    if negated {
        (
            format!("any character that is not {long}"),
            format!("a character that is not {short}"),
        )
    } else {
        (long.to_string(), short.to_string())
    }
}

fn property_meaning(name: &str, negated: bool) -> (String, String) {
    let what = match name {
        "L" | "Letter" => "a letter".to_string(),
        "Lu" | "Uppercase_Letter" => "an uppercase letter".to_string(),
        "Ll" | "Lowercase_Letter" => "a lowercase letter".to_string(),
        "N" | "Number" => "a number character".to_string(),
        "Nd" | "Decimal_Number" => "a decimal digit".to_string(),
        "P" | "Punctuation" => "a punctuation character".to_string(),
        "S" | "Symbol" => "a symbol".to_string(),
        "Z" | "Separator" => "a separator".to_string(),
        _ if crate::js_unicode::is_property_of_strings(name) => {
            format!(
                "one of the strings of {name} (longest first; a string may be several code points)"
            )
        }
        _ => format!("a character with the Unicode property {name}"),
    };
    if negated {
        (
            format!("any character that is not {what} (\\P{{{name}}})"),
            format!("a character that is not {what}"),
        )
    } else {
        (format!("{what} (Unicode property {name})"), what)
    }
}

fn posix_meaning(name: &str, negated: bool) -> String {
    let what = match name {
        "alnum" => "an ASCII letter or digit",
        "alpha" => "an ASCII letter",
        "ascii" => "an ASCII character",
        "blank" => "a space or tab",
        "cntrl" => "an ASCII control character",
        "digit" => "an ASCII digit",
        "graph" => "a visible ASCII character",
        "lower" => "an ASCII lowercase letter",
        "print" => "a printable ASCII character",
        "punct" => "ASCII punctuation",
        "space" => "ASCII whitespace",
        "upper" => "an ASCII uppercase letter",
        "word" => "an ASCII word character",
        "xdigit" => "a hex digit",
        _ => "a POSIX class",
    };
    if negated {
        format!("not {what}")
    } else {
        what.to_string()
    }
}

fn anchor_meaning(
    flavor: Flavor,
    kind: AnchorKind,
    multiline: bool,
    mode: Mode,
) -> (String, String) {
    let unicode_words = match flavor {
        Flavor::Js(_) => "ASCII word characters",
        _ if mode.ascii => "ASCII word characters",
        _ => "Unicode word characters",
    };
    let (m, p): (String, &str) = match kind {
        AnchorKind::LineStart if multiline => (
            match flavor {
                Flavor::Js(_) => "the start of a line: the start of the text or just after a line terminator (multi-line mode)".into(),
                Flavor::Rust | Flavor::Fancy if mode.crlf => "the start of a line: the start of the text or just after \\n or \\r (multi-line, CRLF mode)".into(),
                _ => "the start of a line: the start of the text or just after a newline (multi-line mode)".into(),
            },
            "the start of a line",
        ),
        AnchorKind::LineStart => (
            "the start of the text only (multi-line mode is off)".into(),
            "the start of the text",
        ),
        AnchorKind::LineEnd if multiline => (
            match flavor {
                Flavor::Js(_) => "the end of a line: just before a line terminator (\\n, \\r, U+2028, U+2029) or at the end of the text (multi-line mode)".into(),
                Flavor::Rust | Flavor::Fancy if mode.crlf => "the end of a line: just before \\r or \\n, or at the end of the text (multi-line, CRLF mode)".into(),
                _ => "the end of a line: just before any newline, or at the end of the text (multi-line mode)".into(),
            },
            "the end of a line",
        ),
        AnchorKind::LineEnd => match flavor {
            Flavor::Python(_) => (
                "the end of the text, or just before a newline that ends the text (multi-line mode is off)".into(),
                "the end of the text (or before a final newline)",
            ),
            _ => (
                "the very end of the text only, not before a final newline (multi-line mode is off)".into(),
                "the end of the text",
            ),
        },
        AnchorKind::TextStart => (
            "the very start of the text, whatever the flags".into(),
            "the start of the text",
        ),
        AnchorKind::TextEnd => (
            "the absolute end of the text, not before a final newline, whatever the flags".into(),
            "the absolute end of the text",
        ),
        AnchorKind::WordBoundary => (
            format!("a word boundary: between a word character and a non-word character or the edge of the text ({unicode_words})"),
            "a word boundary",
        ),
        AnchorKind::NotWordBoundary => (
            format!("not a word boundary: both sides are word characters, or both are not ({unicode_words})"),
            "a non-boundary",
        ),
        AnchorKind::WordStart => ("the start of a word: a non-word character or the start of the text on the left, a word character on the right".into(), "the start of a word"),
        AnchorKind::WordEnd => ("the end of a word: a word character on the left, a non-word character or the end of the text on the right".into(), "the end of a word"),
        AnchorKind::WordStartHalf => ("a half word-start boundary: a non-word character or the start of the text on the left".into(), "a half word-start boundary"),
        AnchorKind::WordEndHalf => ("a half word-end boundary: a non-word character or the end of the text on the right".into(), "a half word-end boundary"),
    };
    (format!("{m} (zero-width: consumes nothing)"), p.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ex(pat: &str, flavor: Flavor, flags: &str) -> Explanation {
        explain_pattern(pat, flavor, Flags::parse(flags, flavor).unwrap(), 4096).unwrap()
    }

    fn meaning_of<'a>(e: &'a Explanation, text: &str) -> &'a str {
        &e.nodes()
            .into_iter()
            .find(|n| n.text == text)
            .unwrap_or_else(|| panic!("no node {text:?}"))
            .meaning
    }

    #[test]
    fn digit_is_flavor_aware() {
        assert!(meaning_of(&ex(r"\d", Flavor::Rust, ""), r"\d").contains("Unicode decimal digit"));
        assert!(
            meaning_of(&ex(r"\d", Flavor::PYTHON, ""), r"\d").contains("Unicode decimal digit")
        );
        assert!(meaning_of(&ex(r"\d", Flavor::PYTHON, "a"), r"\d").contains("ASCII digit 0-9"));
        assert!(meaning_of(&ex(r"\d", Flavor::JS, ""), r"\d").contains("ASCII digit 0-9"));
        assert!(meaning_of(&ex(r"(?-u:\d)", Flavor::Rust, ""), r"\d").contains("ASCII digit 0-9"));
    }

    #[test]
    fn dollar_says_where_it_matches() {
        let py = ex("a$", Flavor::PYTHON, "");
        assert!(meaning_of(&py, "$").contains("just before a newline that ends the text"));
        let pym = ex("a$", Flavor::PYTHON, "m");
        assert!(meaning_of(&pym, "$").contains("just before any newline"));
        assert!(meaning_of(&ex("a$", Flavor::JS, ""), "$").contains("not before a final newline"));
        assert!(meaning_of(&ex("(?m)a$", Flavor::Rust, ""), "$").contains("end of a line"));
    }

    #[test]
    fn lookahead_reads_as_a_sentence() {
        let e = ex(r"(?=\[RESULT\s|\Z)", Flavor::PYTHON, "s");
        assert_eq!(
            meaning_of(&e, r"(?=\[RESULT\s|\Z)"),
            "Followed by `[RESULT` and a whitespace character, or the absolute end of the text, without consuming it"
        );
    }

    #[test]
    fn named_group_says_name_and_number() {
        let e = ex(r"(a)(?P<wo_id>b)", Flavor::PYTHON, "");
        let m = meaning_of(&e, "(?P<wo_id>b)");
        assert!(m.contains("`wo_id`") && m.contains("group 2"), "{m}");
        let e = ex(r"(?<y>\d{4})\k<y>", Flavor::JS, "");
        assert!(meaning_of(&e, r"\k<y>").contains("group `y` (group 1)"));
    }

    #[test]
    fn literal_runs_are_merged_and_tile() {
        let e = ex(r"abc\.de", Flavor::Rust, "");
        let kinds: Vec<(&str, &str)> = e
            .tree
            .children
            .iter()
            .map(|n| (n.kind.as_str(), n.text.as_str()))
            .collect();
        assert_eq!(
            kinds,
            [("literal", "abc"), ("escape", r"\."), ("literal", "de")]
        );
        assert_eq!(e.tree.children[0].span, Span::new(0, 3));
    }

    #[test]
    fn too_many_nodes_is_an_error() {
        let pat = "a|".repeat(5000);
        let e = explain_pattern(&pat, Flavor::Rust, Flags::default(), 4096).unwrap_err();
        assert_eq!(e.kind, ErrorKind::ExplainTooComplex);
        assert_eq!(e.message, "explain: pattern too complex");
        assert!(explain_pattern(&pat, Flavor::Rust, Flags::default(), 20_000).is_ok());
    }

    #[test]
    fn deep_nesting_explains_without_overflow() {
        let pat = "(".repeat(8192) + &")".repeat(8192);
        assert_eq!(pat.len(), 16 * 1024);
        let e = explain_pattern(&pat, Flavor::JS, Flags::default(), usize::MAX).unwrap();
        assert_eq!(e.nodes().len(), 8193);
        assert!(e.to_json().starts_with("{\"tree\":{\"kind\":\"group\""));
        let err = explain_pattern(&pat, Flavor::JS, Flags::default(), 4096).unwrap_err();
        assert_eq!(err.kind, ErrorKind::ExplainTooComplex);
    }

    #[test]
    fn inline_flags_reach_later_siblings() {
        let e = ex("a(?i)b", Flavor::Rust, "");
        assert!(meaning_of(&e, "b").contains("ignoring case"));
        assert!(!meaning_of(&e, "a").contains("ignoring case"));
    }

    #[test]
    fn json_matches_serde() {
        let e = ex(r"(?P<x>a|b)+\d", Flavor::PYTHON, "");
        let mine: serde_json::Value = serde_json::from_str(&e.to_json()).unwrap();
        assert_eq!(mine["tree"], serde_json::to_value(&e.tree).unwrap());
        assert_eq!(mine["nodes"].as_array().unwrap().len(), e.nodes().len());
    }
}

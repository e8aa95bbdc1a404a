//! The abstract syntax tree of a pattern, with the byte span of every node.
//!
//! The tree mirrors the source: every node knows the exact slice of the pattern it came from,
//! so explain, lints, pattern colouring and error carets all point at the same bytes.

use serde::Serialize;

/// A half-open byte range `[start, end)` in the pattern (or in a text).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Default)]
pub struct Span {
    /// First byte.
    pub start: usize,
    /// One past the last byte.
    pub end: usize,
}

impl Span {
    /// A span from `start` to `end`.
    pub fn new(start: usize, end: usize) -> Span {
        Span { start, end }
    }

    /// The number of bytes covered.
    pub fn len(&self) -> usize {
        self.end - self.start
    }

    /// True when the span covers no byte.
    pub fn is_empty(&self) -> bool {
        self.start == self.end
    }

    /// The smallest span covering both.
    pub fn to(self, other: Span) -> Span {
        Span::new(self.start.min(other.start), self.end.max(other.end))
    }
}

impl From<std::ops::Range<usize>> for Span {
    fn from(r: std::ops::Range<usize>) -> Span {
        Span::new(r.start, r.end)
    }
}

/// A parsed pattern: the tree plus what the whole pattern knows about its groups.
#[derive(Debug, Clone)]
pub struct Ast {
    /// The root node; its span covers the whole pattern.
    pub root: Node,
    /// Capturing groups in index order (group 1 first).
    pub groups: Vec<GroupInfo>,
    /// Flags in force at the start, after leading inline flags are applied.
    pub flags: crate::flavor::Flags,
}

/// A capturing group's index, optional name and span.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GroupInfo {
    /// 1-based group number.
    pub index: u32,
    /// The group's name, when it has one.
    pub name: Option<String>,
    /// The span of the whole group, parentheses included.
    pub span: Span,
    /// The group's width in characters when it is fixed (known once the group closes): a
    /// Python look-behind may hold a backreference to such a group.
    #[serde(skip)]
    pub width: Option<u32>,
}

/// One node of the tree.
#[derive(Debug, Clone, PartialEq)]
pub struct Node {
    /// What the node is.
    pub kind: NodeKind,
    /// The source bytes it covers.
    pub span: Span,
}

/// How a literal character was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum LiteralForm {
    /// The character itself.
    Verbatim,
    /// A backslash before a punctuation character (`\.`).
    Escaped,
    /// A control escape such as `\n`, `\t`, `\cJ`.
    Control,
    /// `\xHH`, `\x{…}`, `\uHHHH`, `\u{…}`, `\UHHHHHHHH`.
    Hex,
    /// An octal escape (`\0`, `\012`).
    Octal,
    /// `\N{NAME}`.
    Named,
}

/// Perl-style shorthand classes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum PerlKind {
    /// `\d`
    Digit,
    /// `\w`
    Word,
    /// `\s`
    Space,
}

/// Zero-width assertions.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum AnchorKind {
    /// `^`
    LineStart,
    /// `$`
    LineEnd,
    /// `\A`
    TextStart,
    /// Python `\Z`, Rust `\z`: the absolute end.
    TextEnd,
    /// `\b`
    WordBoundary,
    /// `\B`
    NotWordBoundary,
    /// Rust `\b{start}`, `\<`
    WordStart,
    /// Rust `\b{end}`, `\>`
    WordEnd,
    /// Rust `\b{start-half}`
    WordStartHalf,
    /// Rust `\b{end-half}`
    WordEndHalf,
}

/// Quantifier greediness.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub enum Greed {
    /// Takes as much as it can, gives back on demand.
    Greedy,
    /// Takes as little as it can.
    Lazy,
    /// Takes as much as it can and never gives back.
    Possessive,
}

/// The kinds of groups.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GroupKind {
    /// `( … )` or a named group.
    Capture {
        /// 1-based index.
        index: u32,
        /// Name for `(?P<n>…)` / `(?<n>…)`.
        name: Option<String>,
    },
    /// `(?: … )`
    NonCapture,
    /// `(?flags: … )`
    Flags(FlagChange),
    /// `(?= … )`
    Lookahead,
    /// `(?! … )`
    NegativeLookahead,
    /// `(?<= … )`
    Lookbehind,
    /// `(?<! … )`
    NegativeLookbehind,
    /// `(?> … )`
    Atomic,
    /// Python `(?(id)yes|no)`: the child is `yes`, or an alternation of `yes` and `no`.
    Conditional {
        /// The group tested.
        index: u32,
        /// The name used, when by name.
        name: Option<String>,
    },
}

/// Flags switched on and off by an inline group.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FlagChange {
    /// Letters switched on.
    pub on: String,
    /// Letters switched off.
    pub off: String,
}

/// A class item.
#[derive(Debug, Clone, PartialEq)]
pub enum ClassItem {
    /// A single character.
    Char(char, Span),
    /// `a-z`.
    Range(char, char, Span),
    /// `\d`, `\W` …
    Perl(PerlKind, bool, Span),
    /// `\p{…}` / `\P{…}`.
    Property(String, bool, Span),
    /// `[:alpha:]` (Rust).
    Posix(String, bool, Span),
    /// A nested class (Rust).
    Nested(Box<Class>),
    /// A Rust set operation `&&`, `--`, `~~` between the items before and after (and the
    /// JavaScript `v` flag's `&&`, `--`).
    SetOp(String, Span),
    /// JavaScript `v`: a `\q{…}` string literal, its alternatives in source order (each a
    /// sequence of code points; possibly empty or a single character).
    Strings(Vec<String>, Span),
}

impl ClassItem {
    /// The source span of the item.
    pub fn span(&self) -> Span {
        match self {
            ClassItem::Char(_, s)
            | ClassItem::Range(_, _, s)
            | ClassItem::Perl(_, _, s)
            | ClassItem::Property(_, _, s)
            | ClassItem::Posix(_, _, s)
            | ClassItem::SetOp(_, s)
            | ClassItem::Strings(_, s) => *s,
            ClassItem::Nested(c) => c.span,
        }
    }
}

/// A bracketed character class.
#[derive(Debug, Clone, PartialEq)]
pub struct Class {
    /// `[^…]`
    pub negated: bool,
    /// Items in source order.
    pub items: Vec<ClassItem>,
    /// The class, brackets included.
    pub span: Span,
}

impl Class {
    /// ECMAScript's `MayContainStrings` (the `v` flag): whether the class may match a sequence
    /// of other than one code point. A union may when any operand may, an intersection when
    /// every operand may, a difference when its first operand may. False in the other
    /// flavors, whose classes always match one character.
    pub fn may_contain_strings(&self) -> bool {
        self.may_hold(&|item| match item {
            ClassItem::Strings(alternatives, _) => {
                alternatives.iter().any(|s| s.chars().count() != 1)
            }
            ClassItem::Property(name, false, _) => crate::js_unicode::is_property_of_strings(name),
            ClassItem::Nested(inner) => !inner.negated && inner.may_contain_strings(),
            _ => false,
        })
    }

    /// Whether the class may match the empty string (a `v`-flag `\q{}` alternative).
    pub fn may_match_empty(&self) -> bool {
        self.may_hold(&|item| match item {
            ClassItem::Strings(alternatives, _) => alternatives.iter().any(String::is_empty),
            ClassItem::Nested(inner) => !inner.negated && inner.may_match_empty(),
            _ => false,
        })
    }

    /// Whether an item `item_may` picks may reach the class's value through its set
    /// operations: a union's any operand, an intersection's every operand, a difference's
    /// first.
    fn may_hold(&self, item_may: &dyn Fn(&ClassItem) -> bool) -> bool {
        let op = self.items.iter().find_map(|i| match i {
            ClassItem::SetOp(op, _) => Some(op.as_str()),
            _ => None,
        });
        let mut operands = self
            .items
            .split(|i| matches!(i, ClassItem::SetOp(..)))
            .map(|operand| operand.iter().any(item_may));
        match op {
            None => self.items.iter().any(item_may),
            Some("&&") => operands.all(|may| may),
            Some(_) => operands.next().unwrap_or(false),
        }
    }
}

/// What a node is.
#[derive(Debug, Clone, PartialEq)]
pub enum NodeKind {
    /// Matches the empty string (an empty branch or pattern).
    Empty,
    /// One character.
    Literal {
        /// The character.
        ch: char,
        /// How it was written.
        form: LiteralForm,
    },
    /// `.`; `dotall` says whether it matches a newline here.
    Dot {
        /// DOTALL in force.
        dotall: bool,
    },
    /// `\d \w \s` and their negations.
    Perl {
        /// Which shorthand.
        kind: PerlKind,
        /// Upper-case form (`\D`).
        negated: bool,
    },
    /// `\p{…}` / `\P{…}`.
    Property {
        /// Property text between the braces (or the single letter).
        name: String,
        /// `\P`.
        negated: bool,
    },
    /// `[…]`.
    Class(Class),
    /// A zero-width assertion; `multiline` is the state of `m` where it stands.
    Anchor {
        /// Which assertion.
        kind: AnchorKind,
        /// MULTILINE in force.
        multiline: bool,
    },
    /// A group.
    Group {
        /// Which group.
        kind: GroupKind,
        /// What is inside.
        child: Box<Node>,
    },
    /// A flag setting that applies to the rest of the enclosing group: `(?i)`.
    SetFlags(FlagChange),
    /// A quantified node.
    Repeat {
        /// Minimum count.
        min: u32,
        /// Maximum count; `None` is unbounded.
        max: Option<u32>,
        /// Greediness.
        greed: Greed,
        /// The quantifier's own source (`{2,3}?`).
        op_span: Span,
        /// What is repeated.
        child: Box<Node>,
    },
    /// Nodes one after another.
    Concat(Vec<Node>),
    /// Branches separated by `|`.
    Alternation(Vec<Node>),
    /// `\1`, `(?P=name)`, `\k<name>`.
    Backref {
        /// Resolved 1-based group index.
        index: u32,
        /// The name used, when by name.
        name: Option<String>,
    },
    /// `(?#…)` or a `#…` comment in verbose mode.
    Comment,
    /// Whitespace ignored in verbose mode.
    Whitespace,
}

impl Node {
    /// Whether the node is a JavaScript `v`-flag class or property that may match a sequence
    /// of other than one code point (`[\q{ab}]`, `\p{RGI_Emoji}`).
    pub fn may_match_strings(&self) -> bool {
        match &self.kind {
            NodeKind::Class(c) => c.may_contain_strings(),
            NodeKind::Property {
                name,
                negated: false,
            } => crate::js_unicode::is_property_of_strings(name),
            _ => false,
        }
    }

    /// Children in source order.
    pub fn children(&self) -> Vec<&Node> {
        match &self.kind {
            NodeKind::Group { child, .. } | NodeKind::Repeat { child, .. } => vec![child],
            NodeKind::Concat(v) | NodeKind::Alternation(v) => v.iter().collect(),
            _ => vec![],
        }
    }

    /// True when the node can match the empty string.
    pub fn nullable(&self) -> bool {
        match &self.kind {
            NodeKind::Empty
            | NodeKind::Anchor { .. }
            | NodeKind::SetFlags(_)
            | NodeKind::Comment
            | NodeKind::Whitespace
            | NodeKind::Backref { .. } => true,
            // A `v`-flag class of strings may hold the empty string.
            NodeKind::Class(c) => c.may_match_empty(),
            NodeKind::Literal { .. }
            | NodeKind::Dot { .. }
            | NodeKind::Perl { .. }
            | NodeKind::Property { .. } => false,
            NodeKind::Group { kind, child } => match kind {
                GroupKind::Lookahead
                | GroupKind::NegativeLookahead
                | GroupKind::Lookbehind
                | GroupKind::NegativeLookbehind => true,
                _ => child.nullable(),
            },
            NodeKind::Repeat { min, child, .. } => *min == 0 || child.nullable(),
            NodeKind::Concat(v) => v.iter().all(Node::nullable),
            NodeKind::Alternation(v) => v.iter().any(Node::nullable),
        }
    }

    /// Visits the node and all descendants in pre-order, without recursion.
    pub fn walk<'a>(&'a self, mut f: impl FnMut(&'a Node, usize)) {
        let mut stack: Vec<(&Node, usize)> = vec![(self, 0)];
        while let Some((n, depth)) = stack.pop() {
            f(n, depth);
            for c in n.children().into_iter().rev() {
                stack.push((c, depth + 1));
            }
        }
    }
}

impl Drop for Node {
    /// Drops deep trees without recursion, so a pattern of thousands of nested groups cannot
    /// overflow the stack when its tree is freed.
    fn drop(&mut self) {
        let mut stack: Vec<Node> = Vec::new();
        take_children(&mut self.kind, &mut stack);
        while let Some(mut n) = stack.pop() {
            take_children(&mut n.kind, &mut stack);
        }
    }
}

fn take_children(kind: &mut NodeKind, out: &mut Vec<Node>) {
    match kind {
        NodeKind::Group { child, .. } | NodeKind::Repeat { child, .. }
            if !matches!(child.kind, NodeKind::Empty) =>
        {
            let taken = std::mem::replace(
                &mut **child,
                Node {
                    kind: NodeKind::Empty,
                    span: Span::default(),
                },
            );
            out.push(taken);
        }
        NodeKind::Concat(v) | NodeKind::Alternation(v) => out.append(v),
        _ => {}
    }
}

/// An event of a non-recursive walk over the tree.
#[derive(Debug, Clone, Copy)]
pub enum Visit<'a> {
    /// Before the node's children.
    Enter(&'a Node),
    /// Between two children: `index` is the child about to be visited (1 or more).
    Between(&'a Node, usize),
    /// After the node's children.
    Exit(&'a Node),
}

impl Node {
    /// Walks the tree depth-first with enter / between / exit events, without recursion.
    pub fn visit<'a>(&'a self, mut f: impl FnMut(Visit<'a>)) {
        // Each entry keeps its node's children, listed once: re-listing them at every step
        // made a sequence of n items cost n² (a 16 KB pattern took milliseconds to lint).
        f(Visit::Enter(self));
        let mut stack: Vec<(&'a Node, Vec<&'a Node>, usize)> = vec![(self, self.children(), 0)];
        while let Some((node, children, i)) = stack.last_mut() {
            let node: &'a Node = node;
            if *i < children.len() {
                if *i > 0 {
                    f(Visit::Between(node, *i));
                }
                let child = children[*i];
                *i += 1;
                f(Visit::Enter(child));
                stack.push((child, child.children(), 0));
            } else {
                f(Visit::Exit(node));
                stack.pop();
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flavor::{Flags, Flavor};

    #[test]
    fn visit_reports_enter_between_exit_in_order() {
        let ast = crate::parse::parse("a(b|c)d", Flavor::Rust, Flags::default()).unwrap();
        let mut events = Vec::new();
        ast.root.visit(|v| {
            events.push(match v {
                Visit::Enter(n) => format!("E{}..{}", n.span.start, n.span.end),
                Visit::Between(n, i) => format!("B{}:{i}", n.span.start),
                Visit::Exit(n) => format!("X{}..{}", n.span.start, n.span.end),
            })
        });
        assert_eq!(
            events,
            [
                "E0..7", "E0..1", "X0..1", "B0:1", "E1..6", "E2..5", "E2..3", "X2..3", "B2:1",
                "E4..5", "X4..5", "X2..5", "X1..6", "B0:2", "E6..7", "X6..7", "X0..7"
            ]
        );
    }
}

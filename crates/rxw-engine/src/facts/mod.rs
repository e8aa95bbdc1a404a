//! Facts about a pattern's tree, computed in one place and asked by everyone who needs them:
//! where its matches can start (literal prefixes, a literal at a fixed offset: [`Starts`]),
//! how many bytes a match can take (`max_len`) or an attempt can examine (`extent`,
//! `examined`), how far it looks behind where it starts (`look_behind`), whether it can
//! match empty and whether its matches stay inside one line.
//!
//! The hit scanner ([`crate::set`]), growth ([`crate::growth`]), the workbench's follow logic
//! and the preset registry's parse ask this module; none of them walks the tree for these
//! facts itself. Every function is conservative: `None` (unbounded, unknown) or `false` when
//! unsure, and a tree nested deeper than the depth bound is unknown.

pub mod literal;

use literal::Piece;
use rxw_syntax::ast::{AnchorKind, Ast, ClassItem, GroupKind, Node, NodeKind, PerlKind};

/// Most bytes one character occupies (a literal may match another case of another length).
const CHAR_BYTES: usize = 4;

/// Deepest nesting [`examined`] looks at; deeper patterns are unbounded.
const MAX_GROWTH_DEPTH: usize = 64;

const MAX_LITERALS: usize = 64;
/// Deepest nesting looked at; a start buried deeper is treated as unknown.
const MAX_DEPTH: usize = 32;

/// The literals one of which every match of `node` starts with, or `None` when there is no
/// such finite set (a class, a dot, an optional start, case-insensitive matching...).
pub fn first_literals(node: &Node, ignore_case: bool) -> Option<Vec<String>> {
    if ignore_case {
        return None;
    }
    let set = literals(node, 0)?;
    if set.strings.iter().any(String::is_empty) {
        return None;
    }
    Some(set.strings)
}

/// A set of strings; `complete` when each covers the whole node (so what follows may extend
/// it), else each is only a prefix.
struct LiteralSet {
    strings: Vec<String>,
    complete: bool,
}

fn literals(node: &Node, depth: usize) -> Option<LiteralSet> {
    if depth > MAX_DEPTH {
        return None;
    }
    let empty = || LiteralSet {
        strings: vec![String::new()],
        complete: true,
    };
    match &node.kind {
        NodeKind::Literal { ch, .. } => Some(LiteralSet {
            strings: vec![ch.to_string()],
            complete: true,
        }),
        NodeKind::Empty | NodeKind::Anchor { .. } | NodeKind::Comment | NodeKind::Whitespace => {
            Some(empty())
        }
        NodeKind::Group { kind, child } => match kind {
            GroupKind::Capture { .. } | GroupKind::NonCapture | GroupKind::Atomic => {
                literals(child, depth + 1)
            }
            GroupKind::Lookahead
            | GroupKind::NegativeLookahead
            | GroupKind::Lookbehind
            | GroupKind::NegativeLookbehind => Some(empty()),
            GroupKind::Flags(_) | GroupKind::Conditional { .. } => None,
        },
        NodeKind::Repeat { min, child, .. } if *min >= 1 => {
            let inner = literals(child, depth + 1)?;
            Some(LiteralSet {
                strings: inner.strings,
                complete: false,
            })
        }
        NodeKind::Alternation(branches) => {
            let mut strings = Vec::new();
            let mut complete = true;
            for b in branches {
                let s = literals(b, depth + 1)?;
                complete &= s.complete;
                strings.extend(s.strings);
                if strings.len() > MAX_LITERALS {
                    return None;
                }
            }
            strings.sort();
            strings.dedup();
            Some(LiteralSet { strings, complete })
        }
        NodeKind::Concat(items) => {
            let mut acc = empty();
            for item in items {
                if !acc.complete {
                    break;
                }
                let Some(next) = literals(item, depth + 1) else {
                    acc.complete = false;
                    break;
                };
                if acc.strings.len() * next.strings.len() > MAX_LITERALS {
                    acc.complete = false;
                    break;
                }
                acc.strings = acc
                    .strings
                    .iter()
                    .flat_map(|a| next.strings.iter().map(move |b| format!("{a}{b}")))
                    .collect();
                acc.complete = next.complete;
            }
            Some(acc)
        }
        _ => None,
    }
}

/// A literal that every match of `root` contains at a fixed byte offset from its start, e.g.
/// `-4` at offset 13 in a UUID v4 pattern: the items before it must each match a fixed number
/// of bytes (ASCII classes, literals, bounded exact repeats of those, zero-width assertions).
/// The longest such run of two or more literal bytes wins ([`literal::fixed_offset_literal`]).
pub fn fixed_offset_literal(root: &Node) -> Option<(usize, String)> {
    let NodeKind::Concat(items) = &root.kind else {
        return None;
    };
    let ascii_width = |n: &Node| -> Option<usize> {
        match &n.kind {
            NodeKind::Class(c) if !c.negated => c
                .items
                .iter()
                .all(|it| match it {
                    ClassItem::Char(ch, _) => ch.is_ascii(),
                    ClassItem::Range(a, b, _) => a.is_ascii() && b.is_ascii(),
                    _ => false,
                })
                .then_some(1),
            NodeKind::Literal { ch, .. } => Some(ch.len_utf8()),
            _ => None,
        }
    };
    let pieces = items.iter().map(|item| match &item.kind {
        NodeKind::Literal { ch, .. } => Piece::Literal(ch.to_string().into_bytes()),
        NodeKind::Anchor { .. } | NodeKind::Comment | NodeKind::Whitespace => Piece::Width(0),
        NodeKind::Repeat {
            min,
            max: Some(max),
            child,
            ..
        } if min == max => ascii_width(child)
            .and_then(|w| w.checked_mul(*min as usize))
            .map_or(Piece::Varying, Piece::Width),
        _ => ascii_width(item).map_or(Piece::Varying, Piece::Width),
    });
    let (offset, bytes) = literal::fixed_offset_literal(pieces)?;
    // A run of whole literal characters is UTF-8.
    Some((offset, String::from_utf8(bytes).ok()?))
}

/// Where a member's matches can start, read off its tree when it is parsed (no engine
/// built): the shared literal prefilter of a `HitScanner` runs on these.
#[derive(Debug, Clone, Default)]
pub struct Starts {
    /// Literals one of which every match starts with ([`first_literals`]).
    pub first: Option<Vec<String>>,
    /// A literal every match holds at a fixed byte offset ([`fixed_offset_literal`]).
    pub at_offset: Option<(usize, String)>,
}

impl Starts {
    /// The starts of a pattern parsed into `ast`, matched case-insensitively when
    /// `ignore_case` (a flag given beside the pattern; a leading inline flag is read here).
    pub fn of(ast: &Ast, ignore_case: bool) -> Starts {
        let ignore_case = ignore_case || ast.flags.ignore_case;
        let first = first_literals(&ast.root, ignore_case);
        let at_offset = if first.is_some() || ignore_case {
            None
        } else {
            fixed_offset_literal(&ast.root)
        };
        Starts { first, at_offset }
    }
}

/// The most bytes a node can match, when bounded (no unbounded repeat, no backreference).
pub(crate) fn max_len(node: &Node, depth: usize) -> Option<usize> {
    extent(node, depth, false)
}

/// The most bytes a node can match, or with `ahead` examine from where it starts (its
/// look-aheads' contents counted too), when bounded.
pub(crate) fn extent(node: &Node, depth: usize, ahead: bool) -> Option<usize> {
    if depth > MAX_DEPTH {
        return None;
    }
    match &node.kind {
        NodeKind::Empty
        | NodeKind::Anchor { .. }
        | NodeKind::Comment
        | NodeKind::Whitespace
        | NodeKind::SetFlags(_) => Some(0),
        NodeKind::Literal { ch, .. } => Some(ch.len_utf8()),
        // A `v`-flag class of strings (its longest string is not looked up here).
        _ if node.may_match_strings() => None,
        NodeKind::Dot { .. }
        | NodeKind::Perl { .. }
        | NodeKind::Property { .. }
        | NodeKind::Class(_) => Some(4),
        NodeKind::Group { kind, child } => match kind {
            GroupKind::Lookahead | GroupKind::NegativeLookahead if ahead => {
                extent(child, depth + 1, ahead)
            }
            GroupKind::Lookahead
            | GroupKind::NegativeLookahead
            | GroupKind::Lookbehind
            | GroupKind::NegativeLookbehind => Some(0),
            _ => extent(child, depth + 1, ahead),
        },
        NodeKind::Repeat {
            max: Some(k),
            child,
            ..
        } => extent(child, depth + 1, ahead)?.checked_mul(*k as usize),
        NodeKind::Concat(items) if ahead => {
            // Each item examines from where the items before it stopped consuming.
            let mut consumed = 0usize;
            let mut reach = 0usize;
            for n in items {
                reach = reach.max(consumed.checked_add(extent(n, depth + 1, true)?)?);
                consumed = consumed.checked_add(max_len(n, depth + 1)?)?;
            }
            Some(reach)
        }
        NodeKind::Concat(items) => items.iter().try_fold(0usize, |acc, n| {
            acc.checked_add(extent(n, depth + 1, ahead)?)
        }),
        NodeKind::Alternation(branches) => branches
            .iter()
            .map(|n| extent(n, depth + 1, ahead))
            .try_fold(0usize, |acc, m| Some(acc.max(m?))),
        _ => None,
    }
}

/// The most bytes a node looks behind where it starts (look-behinds, and one character for
/// a word boundary or a line start); `None` when unbounded.
pub(crate) fn look_behind(node: &Node, depth: usize) -> Option<usize> {
    if depth > MAX_DEPTH {
        return None;
    }
    match &node.kind {
        NodeKind::Anchor { .. } => Some(4),
        NodeKind::Group { kind, child } => match kind {
            GroupKind::Lookbehind | GroupKind::NegativeLookbehind => {
                let own = max_len(child, depth + 1)?;
                Some(own.max(look_behind(child, depth + 1)?))
            }
            _ => look_behind(child, depth + 1),
        },
        NodeKind::Repeat { child, .. } => look_behind(child, depth + 1),
        NodeKind::Concat(items) | NodeKind::Alternation(items) => items
            .iter()
            .try_fold(0usize, |acc, n| Some(acc.max(look_behind(n, depth + 1)?))),
        _ => Some(0),
    }
}

/// Whether every match of the pattern lies inside one line, whatever follows the line: no
/// part can match a line feed (`\n`, `.` under DOTALL, `\s`, `\W`, `\D`, negated classes and
/// properties count as able to), and no anchor looks at the end of the text (`$` without
/// MULTILINE, `\Z`). Conservative: `false` when unsure.
pub fn stays_in_lines(ast: &Ast) -> bool {
    let mut local = true;
    ast.root.walk(|n, _| {
        local &= match &n.kind {
            NodeKind::Literal { ch, .. } => *ch != '\n',
            NodeKind::Dot { dotall } => !dotall,
            NodeKind::Perl { kind, negated } => match kind {
                PerlKind::Space => *negated,
                PerlKind::Word | PerlKind::Digit => !negated,
            },
            NodeKind::Property { .. } => false,
            NodeKind::Class(c) => {
                // Whether an item surely holds a line feed, and whether it may.
                let holds = |item: &ClassItem| match item {
                    ClassItem::Char(ch, _) => *ch == '\n',
                    ClassItem::Range(lo, hi, _) => *lo <= '\n' && '\n' <= *hi,
                    ClassItem::Perl(kind, negated, _) => match kind {
                        PerlKind::Space => !negated,
                        PerlKind::Word | PerlKind::Digit => *negated,
                    },
                    _ => false,
                };
                let unsure = c.items.iter().any(|item| {
                    matches!(
                        item,
                        ClassItem::Property(..)
                            | ClassItem::Posix(..)
                            | ClassItem::Nested(_)
                            | ClassItem::SetOp(..)
                    )
                });
                if c.negated {
                    !unsure && c.items.iter().any(holds)
                } else {
                    !unsure && !c.items.iter().any(holds)
                }
            }
            NodeKind::Anchor { kind, multiline } => match kind {
                AnchorKind::LineEnd => *multiline,
                AnchorKind::TextEnd => false,
                _ => true,
            },
            _ => true,
        };
    });
    local
}

/// The most bytes an attempt at `node` can examine forward from where it stands: what it can
/// consume, with a look-ahead counted as if it consumed what it reads (an over-estimate, which
/// is safe). `None` when unbounded (a repeat without a maximum, a backreference, a
/// conditional).
pub(crate) fn examined(node: &Node, depth: usize) -> Option<usize> {
    if depth > MAX_GROWTH_DEPTH {
        return None;
    }
    match &node.kind {
        NodeKind::Empty
        | NodeKind::Anchor { .. }
        | NodeKind::Comment
        | NodeKind::Whitespace
        | NodeKind::SetFlags(_) => Some(0),
        NodeKind::Literal { .. }
        | NodeKind::Dot { .. }
        | NodeKind::Perl { .. }
        | NodeKind::Property { .. }
        | NodeKind::Class(_) => Some(CHAR_BYTES),
        NodeKind::Group { kind, child } => match kind {
            // Look-behind reads only text before where it stands, which growth never changes.
            GroupKind::Lookbehind | GroupKind::NegativeLookbehind => Some(0),
            GroupKind::Conditional { .. } => None,
            _ => examined(child, depth + 1),
        },
        NodeKind::Repeat {
            max: Some(k),
            child,
            ..
        } => examined(child, depth + 1)?.checked_mul(*k as usize),
        NodeKind::Repeat { max: None, .. } | NodeKind::Backref { .. } => None,
        NodeKind::Concat(items) => items
            .iter()
            .try_fold(0usize, |acc, n| acc.checked_add(examined(n, depth + 1)?)),
        NodeKind::Alternation(branches) => branches
            .iter()
            .try_fold(0usize, |acc, n| Some(acc.max(examined(n, depth + 1)?))),
    }
}

/// The most bytes before where a match attempt begins that it can examine (look-behinds,
/// and a character for `\b` or a line start); `None` when unbounded (a look-behind of
/// unbounded length). A scan resumed at a byte keeps at least this much text before it.
pub fn look_behind_of(ast: &Ast) -> Option<usize> {
    look_behind(&ast.root, 0)
}

/// Whether a pattern parsed into `ast` can match the empty string (then a scan begun where a
/// match ended could report an empty match there that the whole scan skips).
pub fn can_match_empty(ast: &Ast) -> bool {
    ast.root.nullable()
}

//! From a pattern's tree to a [`Program`], with the flavor's meaning of every construct.
//!
//! [`compile`] lays the program out: sre's search filter first where CPython has one, the
//! pattern between the saves of the whole match, then what the search reads before running
//! it (the guards after single-character loops, the first bytes). `Compiler::node` sends each
//! construct to the file that compiles it: characters in `chars`, sets in `class`, `v`-flag
//! classes in `unicode_sets`, alternations in `alternation`, groups and anchors in `groups`,
//! repeats in `repeat`; the facts the search uses are computed in `search`.

mod alternation;
mod chars;
mod class;
mod groups;
mod repeat;
mod search;
mod unicode_sets;
mod width;

pub(crate) use alternation::sre_makes_one_set;
pub(crate) use search::python_search_prefix;

use super::charset::{CharSet, Fold};
use super::{Inst, Program, Test};
use rxw_syntax::Span;
use rxw_syntax::ast::*;
use rxw_syntax::error::{Error, ErrorKind};
use rxw_syntax::flavor::{Flags, Flavor};
use rxw_syntax::rules::{CaseFold, Rewrites};
use search::{byte_table, continuation_first, first_set, starts_anchored, test_chars};

/// Deepest nesting compiled; deeper patterns are refused rather than risking the stack.
const MAX_DEPTH: usize = 400;

/// Instructions at most (counted repeats are compiled as loops, so this bounds the pattern's
/// own size, not its counts).
const MAX_INSTS: usize = 1 << 20;

struct Compiler<'a> {
    pattern: &'a str,
    /// The pattern's groups (a Python look-behind's width counts a backreference as its
    /// group's width; JavaScript references to a duplicated name).
    groups: &'a [GroupInfo],
    flavor: Flavor,
    insts: Vec<Inst>,
    spans: Vec<Span>,
    sets: Vec<CharSet>,
    regs: u32,
    /// JavaScript without `u`/`v`: code units.
    code_units: bool,
    /// Loops (other than single-character ones) around the node being compiled.
    repeat_depth: u32,
    /// The alternations' splits inside such a loop (see [`Program::mark_restoring`]).
    mark_restoring: Vec<u32>,
    /// node 24 and 25 on a text of Latin-1 characters only: a literal beyond U+00FF made
    /// case-insensitive by a modifier group (the pattern's own flags without `i`) matches only
    /// itself, as V8's one-byte code has it (see [`compile_for_latin1_text`]).
    latin1_text: bool,
    /// The pattern's own `i` flag.
    global_ignore_case: bool,
    /// node 18 with `u` on a text with a character outside the BMP: a negated class that
    /// V8 10.2 keeps in a run of text reads one code unit (see [`compile_node18_units`]).
    unit_classes: bool,
}

/// The Unicode data of the node version a JavaScript flavor stands for.
pub(crate) fn js_data(flavor: Flavor) -> rxw_syntax::js_unicode::NodeUnicode {
    rxw_syntax::js_unicode::NodeUnicode::of(flavor)
}

/// The engine's generated Unicode tables (Go's release, RE2's); the newest Go release's for
/// a flavor that has none.
pub(crate) fn go_data(flavor: Flavor) -> rxw_syntax::engine_tables::EngineTables {
    flavor.tables().unwrap_or_else(|| {
        rxw_syntax::engine_tables::EngineTables::Go(rxw_syntax::go_unicode::GoUnicode::nth(
            rxw_syntax::go_unicode::GoUnicode::RELEASES.len() - 1,
        ))
    })
}

/// Compiles a parsed pattern for the matcher.
///
/// # Errors
/// A construct the matcher cannot run (an unknown property name, a pattern nested too deeply
/// or too large), with its span.
pub fn compile(ast: &Ast, pattern: &str, flavor: Flavor) -> Result<Program, Error> {
    compile_with(ast, pattern, flavor, false, false)
}

/// [`compile`] for a text whose characters are all Latin-1 (U+0000–U+00FF), as node 24 and 25
/// run a pattern with `u`/`v` on one (a V8 one-byte string): a literal beyond U+00FF that a
/// modifier group `(?i:…)` makes case-insensitive matches only itself there, so nothing
/// (`/(?i:ſ)/u` finds nothing in `S`, finds `S` in `SĀ`). Other flavors compile as [`compile`].
///
/// # Errors
/// As [`compile`].
pub fn compile_for_latin1_text(ast: &Ast, pattern: &str, flavor: Flavor) -> Result<Program, Error> {
    compile_with(ast, pattern, flavor, true, false)
}

/// [`compile`] as node 18 (V8 10.2) runs a pattern with `u` and without `i` on a text with a
/// character outside the BMP: searched on UTF-16 code units ([`Program::unit_classes`]),
/// where V8's parser puts a class that needs no Unicode rewriting into a run of text with its
/// neighbours, and decides that from the characters the class *lists*: a negated class
/// listing only BMP characters (`[^b]`, `[^\w]`, `[^\p{ASCII}]`) next to a literal (`😂` too,
/// not a lone surrogate escape) or another such class or class escape (`\d`, `\s`, `\w`,
/// `\p{ASCII}`) in the same sequence then reads one code unit, half of a pair included
/// ([`Inst::ConsumeUnit`]), forward and in a look-behind. Alone (in a group of its own,
/// quantified, beside `.`, a group, an assertion), or listing a surrogate or a character
/// outside the BMP (`[^😂]`, `[^\D]`), or `[^]`, it reads whole characters.
///
/// # Errors
/// As [`compile`].
pub fn compile_node18_units(ast: &Ast, pattern: &str, flavor: Flavor) -> Result<Program, Error> {
    compile_with(ast, pattern, flavor, false, true)
}

fn compile_with(
    ast: &Ast,
    pattern: &str,
    flavor: Flavor,
    latin1_text: bool,
    unit_classes: bool,
) -> Result<Program, Error> {
    let code_units = flavor.is_js() && !ast.flags.unicode_mode();
    let unit_classes = unit_classes && !code_units && !ast.flags.ignore_case;
    let latin1_text = latin1_text
        && flavor
            .node_version()
            .is_some_and(|v| (24..=25).contains(&v.major()))
        && ast.flags.unicode_mode();
    let mut c = Compiler {
        latin1_text,
        global_ignore_case: ast.flags.ignore_case,
        unit_classes,
        ..Compiler::new(pattern, &ast.groups, flavor, code_units)
    };
    let root = ast.root.span;
    c.push(Inst::Save(0), Span::new(root.start, root.start));
    if let Some(prefix) = python_search_prefix(ast, flavor) {
        // sre's search filter: a match may start only on a character of this set.
        let here = Span::new(root.start, root.start);
        let start = c.push(
            Inst::LookStart {
                negative: false,
                back_chars: 0,
                next: 0,
            },
            here,
        );
        let set = c.add_set(prefix);
        c.push(
            Inst::Consume {
                test: Test::Set {
                    set,
                    fold: Fold::None,
                    negated: false,
                },
                back: false,
            },
            here,
        );
        c.push(Inst::LookEnd, here);
        let next = c.pc();
        c.insts[start as usize] = Inst::LookStart {
            negative: false,
            back_chars: 0,
            next,
        };
    }
    c.node(&ast.root, ast.flags, false, 0)?;
    c.push(Inst::Save(1), Span::new(root.end, root.end));
    c.push(Inst::Match, Span::new(root.end, root.end));
    let anchored_start = starts_anchored(&ast.root);
    let guards = if code_units || unit_classes {
        vec![None; c.insts.len()]
    } else {
        (0..c.insts.len())
            .map(|pc| match &c.insts[pc] {
                Inst::RepeatOne {
                    test, back: false, ..
                } => continuation_first(&c.insts, &c.sets, pc as u32 + 1).map(|(mut g, next)| {
                    // Disjoint on characters, not on first bytes (which overlap for
                    // multi-byte sets).
                    g.disjoint = test_chars(test, &c.sets)
                        .is_some_and(|taken| taken.intersect(&next).is_empty());
                    Box::new(g)
                }),
                _ => None,
            })
            .collect()
    };
    let first_bytes = if code_units || unit_classes {
        None
    } else {
        first_set(&c, &ast.root, ast.flags).map(|s| byte_table(&s))
    };
    Ok(Program {
        insts: c.insts,
        spans: c.spans,
        sets: c.sets,
        slots: (ast.groups.len() + 1) * 2,
        regs: c.regs as usize * 2,
        flavor,
        code_units,
        unit_classes,
        anchored_start,
        first_byte_list: first_bytes.as_ref().and_then(|t| {
            let list: Vec<u8> = (0..=255u8).filter(|b| t[*b as usize]).collect();
            (list.len() <= 3).then_some(list)
        }),
        first_bytes,
        guards,
        mark_restoring: c.mark_restoring,
        min_chars: match flavor {
            Flavor::Python(v) if flavor.rules().rewrites == Rewrites::Sre => {
                width::sre_min_width(ast, v)
            }
            _ => 0,
        },
        short_repeat_fails: flavor.rules().rewrites == Rewrites::Sre,
    })
}

/// The characters one single-character node accepts, exactly as the matcher tests them (the
/// flavor's case folding under `flags` included): a literal, a shorthand, a property or a
/// bracketed class. `None` for any other node, and for a JavaScript literal outside the BMP
/// without `u`/`v` (two code units, not one character).
///
/// The translation to the `regex` crate and the code generator write case-insensitive sets
/// out with this, so every program shares one definition of what a folded set holds.
///
/// # Errors
/// As [`compile`] for the node (an unknown property name, a range the flavor cannot express).
pub fn accepted_chars(
    node: &Node,
    flags: Flags,
    flavor: Flavor,
    pattern: &str,
) -> Result<Option<CharSet>, Error> {
    let mut c = Compiler::new(
        pattern,
        &[],
        flavor,
        flavor.is_js() && !flags.unicode_mode(),
    );
    let test = match &node.kind {
        NodeKind::Literal { ch, .. } if c.code_units && (*ch as u32) > 0xFFFF => return Ok(None),
        NodeKind::Literal { ch, .. } => {
            let cp = c.literal_code(*ch, node.span);
            c.literal_test(cp, flags)
        }
        _ if node.may_match_strings() => return Ok(None),
        NodeKind::Perl { .. } | NodeKind::Property { .. } | NodeKind::Class(_) => {
            c.set_test(node, flags)?
        }
        _ => return Ok(None),
    };
    Ok(Some(match test {
        Test::Char(ch) => CharSet::from_chars([ch]),
        Test::Set { set, fold, negated } => {
            let accepted = fold.preimage(&c.sets[set as usize]);
            if negated { accepted.negate() } else { accepted }
        }
        Test::Any | Test::AnyNotNewline | Test::AnyNotJsLineTerminator => return Ok(None),
    }))
}

impl<'a> Compiler<'a> {
    /// A compiler with nothing compiled yet, for `pattern` (its `groups`) in `flavor`, on code
    /// units or not; no Latin-1 text, no node 18 unit classes, no global `i`.
    fn new(pattern: &'a str, groups: &'a [GroupInfo], flavor: Flavor, code_units: bool) -> Self {
        Compiler {
            pattern,
            groups,
            flavor,
            insts: Vec::new(),
            spans: Vec::new(),
            sets: Vec::new(),
            regs: 0,
            code_units,
            repeat_depth: 0,
            mark_restoring: Vec::new(),
            latin1_text: false,
            global_ignore_case: false,
            unit_classes: false,
        }
    }
}

impl Compiler<'_> {
    fn push(&mut self, inst: Inst, span: Span) -> u32 {
        self.insts.push(inst);
        self.spans.push(span);
        (self.insts.len() - 1) as u32
    }

    fn pc(&self) -> u32 {
        self.insts.len() as u32
    }

    fn error(&self, kind: ErrorKind, msg: impl Into<String>, span: Span) -> Error {
        Error::new(kind, msg).with_span_in(self.pattern, Some(span))
    }

    /// node 18 ([`Compiler::unit_classes`]): which of a sequence's items read one code unit:
    /// a negated class in a run of two or more text elements, as V8 10.2's parser builds them
    /// (see [`compile_node18_units`]).
    fn unit_items(&mut self, items: &[Node], flags: Flags) -> Result<Vec<bool>, Error> {
        let mut text = Vec::with_capacity(items.len());
        for item in items {
            text.push(self.text_element(item, flags)?);
        }
        Ok((0..items.len())
            .map(|k| {
                matches!(&items[k].kind, NodeKind::Class(c) if c.negated)
                    && text[k]
                    && ((k > 0 && text[k - 1]) || text.get(k + 1) == Some(&true))
            })
            .collect())
    }

    /// Whether V8 10.2 (with `u`, without `i`) keeps `node` in a run of text: a literal (not a
    /// lone surrogate escape), or
    /// a class or class escape whose listed characters (a class's before its negation, a
    /// negated escape's complement) are all in the BMP and none a surrogate; `[^]` is not.
    fn text_element(&mut self, node: &Node, flags: Flags) -> Result<bool, Error> {
        Ok(match &node.kind {
            // A character outside the BMP is an atom of two code units; a lone surrogate
            // escape is rewritten.
            NodeKind::Literal { .. } => rxw_syntax::escaped_surrogate(
                self.pattern
                    .get(node.span.start..node.span.end)
                    .unwrap_or(""),
            )
            .is_none(),
            NodeKind::Class(c) if c.negated && c.items.is_empty() => false,
            _ if node.may_match_strings() => false,
            NodeKind::Perl { .. } | NodeKind::Property { .. } | NodeKind::Class(_) => {
                let Test::Set { set, negated, .. } = self.set_test(node, flags)? else {
                    return Ok(false);
                };
                let set = &self.sets[set as usize];
                let listed = if negated && !matches!(node.kind, NodeKind::Class(_)) {
                    set.negate()
                } else {
                    set.clone()
                };
                listed
                    .ranges()
                    .iter()
                    .all(|&(a, b)| b <= 0xFFFF && !(a <= 0xDFFF && b >= 0xD800))
            }
            _ => false,
        })
    }

    fn add_set(&mut self, set: CharSet) -> u32 {
        if let Some(i) = self.sets.iter().position(|s| *s == set) {
            return i as u32;
        }
        self.sets.push(set);
        (self.sets.len() - 1) as u32
    }

    fn node(&mut self, node: &Node, flags: Flags, back: bool, depth: usize) -> Result<(), Error> {
        if depth > MAX_DEPTH {
            return Err(self.error(
                ErrorKind::LimitExceeded,
                format!("the pattern nests deeper than {MAX_DEPTH} levels"),
                node.span,
            ));
        }
        if self.insts.len() > MAX_INSTS {
            return Err(self.error(
                ErrorKind::LimitExceeded,
                "the pattern compiles to more than a million instructions",
                node.span,
            ));
        }
        let span = node.span;
        match &node.kind {
            NodeKind::Empty | NodeKind::Comment | NodeKind::Whitespace | NodeKind::SetFlags(_) => {}
            NodeKind::Literal { ch, .. } => self.literal(*ch, flags, back, span),
            NodeKind::Dot { dotall } => {
                let test = self.dot(*dotall);
                self.push(Inst::Consume { test, back }, span);
            }
            NodeKind::Property { .. } | NodeKind::Class(_) if node.may_match_strings() => {
                self.string_class(node, flags, back)?
            }
            NodeKind::Perl { .. } | NodeKind::Property { .. } | NodeKind::Class(_) => {
                let test = self.set_test(node, flags)?;
                self.push(Inst::Consume { test, back }, span);
            }
            NodeKind::Anchor { kind, multiline } => {
                let a = self.anchor(*kind, *multiline, flags);
                self.push(Inst::Assert(a), span);
            }
            NodeKind::Concat(items) if self.unit_classes => {
                let units = self.unit_items(items, flags)?;
                let order: Vec<usize> = if back {
                    (0..items.len()).rev().collect()
                } else {
                    (0..items.len()).collect()
                };
                for k in order {
                    let from = self.insts.len();
                    self.node(&items[k], flags, back, depth + 1)?;
                    if units[k] {
                        match &self.insts[from..] {
                            [Inst::Consume { test, back }] => {
                                self.insts[from] = Inst::ConsumeUnit {
                                    test: test.clone(),
                                    back: *back,
                                }
                            }
                            _ => {
                                return Err(self.error(
                                    ErrorKind::ConstructUnsupported,
                                    "js@node18: this class, read by V8 10.2 as one UTF-16 code unit, is not compiled by rxw as one",
                                    items[k].span,
                                ));
                            }
                        }
                    }
                }
            }
            NodeKind::Concat(items) => {
                let mut flags = flags;
                let order: Vec<&Node> = if back {
                    // Inline flags apply to what follows them in the source; resolve them in
                    // source order first.
                    let mut with_flags = Vec::with_capacity(items.len());
                    for n in items {
                        if let NodeKind::SetFlags(ch) = &n.kind {
                            flags = apply(flags, ch);
                        }
                        with_flags.push((n, flags));
                    }
                    for (n, f) in with_flags.into_iter().rev() {
                        self.node(n, f, back, depth + 1)?;
                    }
                    return Ok(());
                } else {
                    items.iter().collect()
                };
                for n in order {
                    if let NodeKind::SetFlags(ch) = &n.kind {
                        flags = apply(flags, ch);
                    }
                    self.node(n, flags, back, depth + 1)?;
                }
            }
            NodeKind::Alternation(branches) if self.sre_rewrites() => {
                self.sre_alternation(branches, flags, back, span, depth)?
            }
            NodeKind::Alternation(branches) => {
                self.alternation(branches, flags, back, span, depth)?
            }
            NodeKind::Group { kind, child } => self.group(kind, child, flags, back, span, depth)?,
            NodeKind::Repeat {
                min,
                max,
                greed,
                child,
                ..
            } => self.repeat(*min, *max, *greed, child, flags, back, span, depth)?,
            NodeKind::Backref { index, name } => {
                let fold = match (self.flavor.rules().case_fold, self.flavor) {
                    _ if !flags.ignore_case => Fold::None,
                    (_, Flavor::Python(_)) if flags.ascii => Fold::PythonAsciiLower,
                    (_, Flavor::Python(v)) => Fold::PythonLower(v),
                    (CaseFold::Js, _) if !self.code_units => Fold::JsSimple(js_data(self.flavor)),
                    (CaseFold::Js, _) => Fold::JsCanonical(js_data(self.flavor)),
                    // RE2 has no backreferences: nothing folds here.
                    (CaseFold::Orbits, _) => Fold::None,
                    _ => Fold::Lower,
                };
                // JavaScript duplicate names (node 24 and later): V8 reads a reference to every
                // group of that name, the last first (in a look-behind too), a group that did
                // not take part matching empty. At most one takes part under the standard, so
                // that is the reference to the one that did; node 24 also accepts patterns
                // where two can (`(?<a>x)(?:|(?<a>y))\k<a>` reads `y` then `x`).
                let same_name: Vec<u32> = match (&name, self.flavor) {
                    (Some(name), Flavor::Js(_)) => self
                        .groups
                        .iter()
                        .filter(|g| g.name.as_deref() == Some(name.as_str()))
                        .map(|g| g.index)
                        .collect(),
                    _ => Vec::new(),
                };
                if same_name.len() > 1 {
                    for &group in same_name.iter().rev() {
                        self.push(
                            Inst::Backref {
                                group,
                                fold,
                                back,
                                unset_matches_empty: true,
                            },
                            span,
                        );
                    }
                } else {
                    self.push(
                        Inst::Backref {
                            group: *index,
                            fold,
                            back,
                            unset_matches_empty: self.flavor.is_js(),
                        },
                        span,
                    );
                }
            }
        }
        Ok(())
    }
}

/// The flags in force after an inline flag change (`(?i)`, `(?-i:…)`); the matcher and the
/// translation to the `regex` crate read inline flags through this one function.
pub(crate) fn apply(mut flags: Flags, change: &FlagChange) -> Flags {
    for c in change.on.chars() {
        flags.set(c, true);
    }
    for c in change.off.chars() {
        flags.set(c, false);
    }
    // Python's `(?u)` only says what is already true for str patterns; `(?a)` and `(?u)`
    // exclude each other.
    if change.on.contains('u') {
        flags.ascii = false;
        flags.unicode = false;
    }
    flags
}

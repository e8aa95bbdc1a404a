//! A flavor-aware pattern parser that keeps the byte span of every node.
//!
//! It follows each flavor's own grammar (CPython 3.11 `sre_parse`, ECMAScript with Annex B
//! when `u`/`v` is off, and `regex-syntax` for Rust) closely enough that what it rejects the
//! real engine rejects too, and what it accepts means the same thing. Groups are parsed with
//! an explicit stack, so deep nesting cannot overflow the call stack.

use super::ast::*;
use crate::error::{Error, ErrorKind};
use crate::flavor::{Flags, Flavor};
use crate::rules::{Escapes, Grammar, GroupNames, Rules, Texts};

/// Deepest class nesting accepted (Rust nested classes recurse).
const MAX_CLASS_DEPTH: usize = 64;

/// Parses `pattern` in `flavor` with the initial `flags`.
///
/// # Errors
/// [`ErrorKind::PatternInvalid`] with the span of the offending construct, in the words of the
/// flavor's own engine where practical (`unterminated character set`, `nothing to repeat`), or
/// [`ErrorKind::ConstructUnsupported`] for valid syntax rxw cannot reproduce.
pub fn parse(pattern: &str, flavor: Flavor, flags: Flags) -> Result<Ast, Error> {
    // The grammars with a reader of their own: it hands the parser sre text, whose tree is
    // then mapped back onto the pattern.
    // The parser is handed to the reader (`ParseSre`) rather than called back by it.
    let sre: crate::reader::ParseSre = |out, flags| parse(out, crate::reader::sre_flavor(), flags);
    match flavor {
        Flavor::Java(version) => return crate::java::parse(pattern, version, flags, sre),
        Flavor::Pcre2 => return crate::pcre2::parse(pattern, flags, sre),
        Flavor::Dotnet => return crate::dotnet::parse(pattern, flags, sre),
        Flavor::Ruby(_) | Flavor::Oniguruma => {
            return crate::onig::parse(pattern, flavor, flags, sre);
        }
        _ => {}
    }
    let mut flags = flags;
    let mut parser = Parser::new(pattern, flavor, flags);
    let mut result = parser.parse();
    // Python before 3.11: global flags not at the start apply to the whole pattern (with a
    // DeprecationWarning). CPython starts again when one turns on verbose mode, and compiles
    // the whole pattern with the flags gathered; parsing again with them from the start is
    // both. Each round adds a flag, so this ends.
    while let Some(late) = parser.late_flags.take() {
        for c in late.chars() {
            flags.set(c, true);
        }
        parser = Parser::new(pattern, flavor, flags);
        result = parser.parse();
    }
    let ast = result?;
    if matches!(
        flavor,
        Flavor::Python(crate::flavor::PyVersion::V3_8 | crate::flavor::PyVersion::V3_9)
    ) && let Some(cond) = crate::sre_code::refused_conditional(&ast.root)
    {
        // CPython's own message (a RuntimeError of its code validator).
        return Err(err(
            ErrorKind::PatternInvalid,
            "invalid SRE code",
            pattern,
            cond.span,
        ));
    }
    if let Some(limit) = flavor.rules().syntax.max_nesting
        && go_height(&ast.root) > limit
    {
        return Err(err(
            ErrorKind::PatternInvalid,
            Texts::fill(flavor.rules().texts.nesting_too_deep, pattern),
            pattern,
            Span::new(0, pattern.len()),
        ));
    }
    crate::program_size::check(&ast.root, flavor, flags, pattern)?;
    if flavor.rules().syntax.byte_escape && ast.root.nullable() && has_not_word_boundary(&ast.root)
    {
        // RE2's unanchored search moves byte by byte, and `\B` holds between two bytes of one
        // character: an empty match can then end inside a character, at an offset rxw, which
        // matches whole characters, cannot report.
        return Err(err(
            ErrorKind::ConstructUnsupported,
            "a pattern that can match the empty text with \\B cannot be reproduced: RE2's \
             search stops between the bytes of a character there",
            pattern,
            Span::new(0, pattern.len()),
        ));
    }
    let counted = parser.js_total_groups;
    if flavor.is_js() && ast.groups.len() as u32 != counted {
        // The up-front count (which decides whether `\1` is a backreference or, by Annex B,
        // an octal escape) saw a `(` the parser did not take as a group, one inside an rxw
        // `x`-mode comment, say: parse again with the true count.
        let mut again = Parser::new(pattern, flavor, flags);
        again.js_total_groups = ast.groups.len() as u32;
        return again.parse();
    }
    Ok(ast)
}

struct Frame {
    /// Where `(` is.
    open: usize,
    kind: GroupKind,
    /// Flags to restore when the group closes.
    saved_flags: Flags,
    branches: Vec<Node>,
    concat: Vec<Node>,
    /// Start of the current branch.
    branch_start: usize,
}

/// A group's frame, opened at `open`, restoring `saved_flags` when it closes.
fn new_frame(open: usize, kind: GroupKind, saved_flags: Flags, branch_start: usize) -> Frame {
    Frame {
        open,
        kind,
        saved_flags,
        branches: Vec::new(),
        concat: Vec::new(),
        branch_start,
    }
}

struct Parser<'p> {
    pat: &'p str,
    pos: usize,
    flavor: Flavor,
    /// The flavor's rules ([`Flavor::rules`]).
    rules: &'static Rules,
    flags: Flags,
    initial_flags: Flags,
    groups: Vec<GroupInfo>,
    /// Indices of groups that are still open.
    open_groups: Vec<u32>,
    /// JS: total number of capturing groups and whether any is named (decided up front).
    js_total_groups: u32,
    js_has_named: bool,
    /// Named backreferences to resolve at the end (JS allows forward references).
    pending_names: Vec<(String, Span, usize)>,
    /// Python conditional groups' numbers, checked against the group count at the end.
    pending_conditionals: Vec<(u32, Span)>,
    /// Where the parser stands among alternatives: for the whole pattern and each open
    /// group, its serial number and the branch being read (JavaScript duplicate names).
    alternatives: Vec<(u32, u32)>,
    /// Groups opened so far, for the serial numbers in `alternatives`.
    frames_opened: u32,
    /// Each named group's place among alternatives when it opened.
    named_at: Vec<(String, Vec<(u32, u32)>)>,
    /// node 24's own rule for a repeated group name (V8 13.6's parser state): for the whole
    /// pattern and each open group, the number of capturing groups opened when it opened
    /// (itself included), and the interval of group numbers a repeated name may reuse.
    node24_intervals: Vec<(u32, (u32, u32))>,
    /// node 24: the named groups closed so far (V8 registers a name when its group closes).
    node24_closed: Vec<(String, u32)>,
    /// How many groups are open around the current position.
    depth: usize,
    /// Python: where the outermost look-behind being parsed opens, and the number of groups
    /// opened before it (references from inside it may not reach groups it defines or groups
    /// still open).
    lookbehind_groups: Option<(usize, u32)>,
    /// Python before 3.11: letters of global flags found after the start that are not yet
    /// in force; the pattern is parsed again with them (see [`parse`]).
    late_flags: Option<String>,
    /// Python: where a global `(?u)` was given (it excludes the `a` flag).
    global_unicode: Option<Span>,
}

fn err(kind: ErrorKind, msg: impl Into<String>, pat: &str, span: Span) -> Error {
    Error::new(kind, msg).with_span_in(pat, Some(span))
}

impl<'p> Parser<'p> {
    fn new(pat: &'p str, flavor: Flavor, flags: Flags) -> Parser<'p> {
        let (js_total_groups, js_has_named) = if flavor.is_js() {
            count_js_groups(pat)
        } else {
            (0, false)
        };
        Parser {
            pat,
            pos: 0,
            flavor,
            rules: flavor.rules(),
            flags,
            initial_flags: flags,
            groups: Vec::new(),
            open_groups: Vec::new(),
            pending_conditionals: Vec::new(),
            js_total_groups,
            js_has_named,
            pending_names: Vec::new(),
            alternatives: vec![(0, 0)],
            frames_opened: 0,
            named_at: Vec::new(),
            node24_intervals: vec![(0, (0, 0))],
            node24_closed: Vec::new(),
            depth: 0,
            lookbehind_groups: None,
            late_flags: None,
            global_unicode: None,
        }
    }

    /// The CPython release's minor number (`11` for 3.11); 0 for the other flavors.
    fn py_minor(&self) -> u8 {
        self.flavor.py_version().map_or(0, |v| v.minor())
    }

    /// The flavor's text for a case, with the piece its engine quotes.
    fn text(&self, case: fn(&Texts) -> &'static str, piece: &str) -> String {
        Texts::fill(case(self.rules.texts), piece)
    }

    /// Whether the pattern is read by RE2's grammar (the regex crate's and Go's).
    fn re2(&self) -> bool {
        self.rules.grammar == Grammar::Re2
    }

    fn invalid(&self, msg: impl Into<String>, span: Span) -> Error {
        err(ErrorKind::PatternInvalid, msg, self.pat, span)
    }

    fn unsupported(&self, msg: impl Into<String>, span: Span) -> Error {
        err(ErrorKind::ConstructUnsupported, msg, self.pat, span)
    }

    fn peek(&self) -> Option<char> {
        self.pat[self.pos..].chars().next()
    }

    fn peek_at(&self, offset: usize) -> Option<char> {
        self.pat.get(self.pos + offset..)?.chars().next()
    }

    fn rest(&self) -> &'p str {
        &self.pat[self.pos..]
    }

    /// The pattern from `start` to its end.
    fn rest_from(&self, start: usize) -> &'p str {
        &self.pat[start..]
    }

    fn bump(&mut self) -> char {
        let c = self.peek().expect("bump at end");
        self.pos += c.len_utf8();
        c
    }

    /// The text from here to the next `close`, which is read too; `unclosed` (an error from
    /// `start` to the end) where none follows.
    fn until(
        &mut self,
        close: char,
        unclosed: impl Into<String>,
        start: usize,
    ) -> Result<&'p str, Error> {
        let Some(at) = self.rest().find(close) else {
            return Err(self.invalid(unclosed, Span::new(start, self.pat.len())));
        };
        let text = &self.pat[self.pos..self.pos + at];
        self.pos += at + 1;
        Ok(text)
    }

    fn eat(&mut self, s: &str) -> bool {
        if self.rest().starts_with(s) {
            self.pos += s.len();
            true
        } else {
            false
        }
    }

    fn js_unicode(&self) -> bool {
        self.flavor.is_js() && self.flags.unicode_mode()
    }

    /// A JavaScript group name decoded by the spec's `RegExpIdentifierName`: ID_Start, `$` or
    /// `_` first, then ID_Continue, `$`, ZWNJ or ZWJ, each written as itself or as a `\u`
    /// escape (`\u03C0`, `\u{3C0}`, a pair of surrogate escapes; with or without `u`).
    /// `None` when the name is not one.
    fn js_group_name(&self, raw: &str) -> Option<String> {
        let data = self.js_data();
        let (start, cont) = (data.property("ID_Start")?, data.property("ID_Continue")?);
        let has = |set: &[(u32, u32)], c: char| {
            let c = c as u32;
            set.binary_search_by(|&(a, b)| {
                if b < c {
                    std::cmp::Ordering::Less
                } else if a > c {
                    std::cmp::Ordering::Greater
                } else {
                    std::cmp::Ordering::Equal
                }
            })
            .is_ok()
        };
        let hex4 = |s: &str| {
            s.get(..4)
                .filter(|h| h.chars().all(|c| c.is_ascii_hexdigit()))
                .and_then(|h| u32::from_str_radix(h, 16).ok())
        };
        let mut out = String::new();
        let mut rest = raw;
        while !rest.is_empty() {
            let c = if let Some(esc) = rest.strip_prefix("\\u") {
                if let Some(braced) = esc.strip_prefix('{') {
                    let close = braced.find('}')?;
                    let body = &braced[..close];
                    if body.is_empty() || !body.chars().all(|c| c.is_ascii_hexdigit()) {
                        return None;
                    }
                    rest = &braced[close + 1..];
                    char::from_u32(u32::from_str_radix(body, 16).ok()?)?
                } else {
                    let unit = hex4(esc)?;
                    rest = &esc[4..];
                    if (0xD800..0xDC00).contains(&unit) {
                        let lo = rest.strip_prefix("\\u").and_then(hex4)?;
                        if !(0xDC00..0xE000).contains(&lo) {
                            return None;
                        }
                        rest = &rest[6..];
                        char::from_u32(0x10000 + ((unit - 0xD800) << 10) + (lo - 0xDC00))?
                    } else {
                        char::from_u32(unit)?
                    }
                }
            } else {
                let c = rest.chars().next()?;
                rest = &rest[c.len_utf8()..];
                c
            };
            let ok = if out.is_empty() {
                c == '$' || c == '_' || has(start, c)
            } else {
                c == '$' || c == '\u{200C}' || c == '\u{200D}' || has(cont, c)
            };
            if !ok {
                return None;
            }
            out.push(c);
        }
        (!out.is_empty()).then_some(out)
    }

    /// Whether the node version accepts pattern modifiers `(?i:…)` (node 24).
    fn js_modifiers(&self) -> bool {
        self.flavor.node_version().is_some_and(|v| v.major() >= 24)
    }

    /// Whether the node version accepts one name on groups in different alternatives
    /// (node 24).
    fn js_duplicate_names(&self) -> bool {
        self.flavor.node_version().is_some_and(|v| v.major() >= 24)
    }

    /// Whether the pattern is read for node 24, whose V8 has a rule of its own for a name
    /// given to several groups.
    fn node24_names(&self) -> bool {
        self.flavor.node_version().is_some_and(|v| v.major() == 24)
    }

    /// node 24 (V8 13.6) on closing a group: a named group's name may repeat when every group
    /// of that name closed before lies in the group's parser-state interval (the interval
    /// inherited when the group opened, made at the first `|` of a group from the count of
    /// groups opened with it, and extended by each later `|`). That accepts the standard's
    /// alternatives and also groups that can take part together (`(?<a>x)(?:|(?<a>y))`,
    /// `(?<a>(?<a>x)|y)`); node 25 follows the standard.
    fn node24_name_clash(&mut self, kind: &GroupKind, open: usize) -> Result<(), Error> {
        let GroupKind::Capture {
            index,
            name: Some(name),
        } = kind
        else {
            return Ok(());
        };
        let (lo, hi) = self.node24_intervals.last().map_or((0, 0), |l| l.1);
        let clash = self
            .node24_closed
            .iter()
            .any(|(n, i)| n == name && !(lo..=hi).contains(i));
        if clash {
            let head = &self.pat[open..];
            let end = head.find('>').map_or(self.pat.len(), |k| open + k + 1);
            let span = Span::new(open, end);
            return Err(self.invalid(
                self.text(|t| t.duplicate_group_name, &self.pat[open..end]),
                span,
            ));
        }
        self.node24_closed.push((name.clone(), *index));
        Ok(())
    }

    /// The Unicode data of the node version the pattern is read for.
    fn js_data(&self) -> crate::js_unicode::NodeUnicode {
        crate::js_unicode::NodeUnicode::of(self.flavor)
    }

    fn parse(&mut self) -> Result<Ast, Error> {
        let mut stack: Vec<Frame> = Vec::new();
        let mut cur = Frame {
            open: 0,
            kind: GroupKind::NonCapture,
            saved_flags: self.flags,
            branches: Vec::new(),
            concat: Vec::new(),
            branch_start: 0,
        };
        // Python: leading global flags, possibly several groups of them.
        while self.pos < self.pat.len() {
            if self.flags.verbose && self.skip_verbose(&mut cur.concat) {
                continue;
            }
            let start = self.pos;
            let c = self.peek().unwrap();
            match c {
                '|' => {
                    self.bump();
                    let branch =
                        concat_node(std::mem::take(&mut cur.concat), cur.branch_start, start);
                    cur.branches.push(branch);
                    cur.branch_start = self.pos;
                    if let Some(last) = self.alternatives.last_mut() {
                        last.1 += 1;
                    }
                    let started = self.groups.len() as u32;
                    if let Some((opened, interval)) = self.node24_intervals.last_mut() {
                        // V8 13.6: the first `|` makes the interval from the group's own
                        // count (not one past it: the groups before a non-capturing group's
                        // first branch count as other branches), later ones extend it.
                        if interval.1 != 0 {
                            interval.1 = started;
                        } else {
                            *interval = (*opened, started);
                        }
                    }
                }
                '(' => {
                    if let Some(frame) = self.parse_group_open(&mut cur)? {
                        stack.push(std::mem::replace(&mut cur, frame));
                        self.frames_opened += 1;
                        self.alternatives.push((self.frames_opened, 0));
                        let inherited = self.node24_intervals.last().map_or((0, 0), |l| l.1);
                        self.node24_intervals
                            .push((self.groups.len() as u32, inherited));
                        self.depth = stack.len();
                    }
                }
                ')' => {
                    self.bump();
                    let Some(parent) = stack.pop() else {
                        return Err(self.invalid(
                            self.text(|t| t.unopened_group, self.pat),
                            Span::new(start, self.pos),
                        ));
                    };
                    if self.node24_names() {
                        self.node24_name_clash(&cur.kind, cur.open)?;
                    }
                    self.alternatives.pop();
                    self.node24_intervals.pop();
                    self.depth = stack.len();
                    let done = std::mem::replace(&mut cur, parent);
                    let node = self.close_group(done, self.pos)?;
                    cur.concat.push(node);
                }
                '*' | '+' | '?' | '{' => {
                    self.parse_quantifier(&mut cur.concat, cur.branch_start)?;
                }
                '[' => {
                    let class = self.parse_class(0)?;
                    let span = class.span;
                    cur.concat.push(Node {
                        kind: NodeKind::Class(class),
                        span,
                    });
                }
                '\\' if self.rules.syntax.quote_escapes && self.rest().starts_with("\\Q") => {
                    // `\Q…\E`: everything up to `\E` (or the end) is literal text, each
                    // character an atom of its own (a quantifier after `\E` takes the last).
                    self.pos += 2;
                    let body_start = self.pos;
                    let (body_end, end) = match self.rest().find("\\E") {
                        Some(i) => (body_start + i, body_start + i + 2),
                        None => (self.pat.len(), self.pat.len()),
                    };
                    for (i, ch) in self.pat[body_start..body_end].char_indices() {
                        cur.concat.push(Node {
                            kind: NodeKind::Literal {
                                ch,
                                form: LiteralForm::Verbatim,
                            },
                            span: Span::new(body_start + i, body_start + i + ch.len_utf8()),
                        });
                    }
                    self.pos = end;
                }
                '\\' => {
                    let node = self.parse_escape()?;
                    cur.concat.push(node);
                }
                '.' => {
                    self.bump();
                    cur.concat.push(Node {
                        kind: NodeKind::Dot {
                            dotall: self.flags.dotall,
                        },
                        span: Span::new(start, self.pos),
                    });
                }
                '^' | '$' => {
                    self.bump();
                    let kind = if c == '^' {
                        AnchorKind::LineStart
                    } else {
                        AnchorKind::LineEnd
                    };
                    cur.concat.push(Node {
                        kind: NodeKind::Anchor {
                            kind,
                            multiline: self.flags.multiline,
                        },
                        span: Span::new(start, self.pos),
                    });
                }
                _ => {
                    if self.js_unicode() && (c == ']' || c == '}') {
                        return Err(
                            self.invalid("Lone quantifier brackets", Span::new(start, start + 1))
                        );
                    }
                    self.bump();
                    cur.concat.push(Node {
                        kind: NodeKind::Literal {
                            ch: c,
                            form: LiteralForm::Verbatim,
                        },
                        span: Span::new(start, self.pos),
                    });
                }
            }
        }
        if let Some(open) = stack.last().map(|_| cur.open) {
            return Err(self.invalid(
                self.text(|t| t.unclosed_group, self.pat),
                Span::new(open, self.pat.len()),
            ));
        }
        let end = self.pat.len();
        let mut root = finish_branches(cur.branches, cur.concat, cur.branch_start, 0, end);
        self.resolve_pending()?;
        patch_forward_references(&mut root, &self.groups);
        if let Some((n, span)) = self
            .pending_conditionals
            .iter()
            .find(|(n, _)| *n as usize > self.groups.len())
        {
            // CPython 3.8 has no such check: the compiled code refers to a group that does
            // not exist and sre's validator refuses it.
            if self.py_minor() == 8 {
                return Err(self.invalid("invalid SRE code", *span));
            }
            return Err(self.invalid(format!("invalid group reference {n}"), *span));
        }
        let flags = self.initial_flags_after_leading();
        Ok(Ast {
            root,
            groups: std::mem::take(&mut self.groups),
            flags,
        })
    }

    /// Python's leading `(?i)` changes the flags for the whole pattern.
    fn initial_flags_after_leading(&self) -> Flags {
        self.initial_flags
    }

    fn resolve_pending(&mut self) -> Result<(), Error> {
        // Named references are resolved in place during parsing when possible; JS forward
        // references were recorded and are checked here.
        for (name, span, _) in &self.pending_names {
            if !self.groups.iter().any(|g| g.name.as_deref() == Some(name)) {
                return Err(self.invalid("Invalid named capture referenced", *span));
            }
        }
        Ok(())
    }

    /// In verbose mode, skips whitespace and `#` comments, pushing nodes for them.
    fn skip_verbose(&mut self, concat: &mut Vec<Node>) -> bool {
        let start = self.pos;
        let c = self.peek().unwrap();
        if c.is_whitespace()
            && (!self.flavor.is_python() || c.is_ascii_whitespace() || c == '\u{b}')
        {
            while self.peek().is_some_and(char::is_whitespace) {
                self.bump();
            }
            concat.push(Node {
                kind: NodeKind::Whitespace,
                span: Span::new(start, self.pos),
            });
            return true;
        }
        if c == '#' {
            while let Some(c) = self.peek() {
                self.bump();
                if c == '\n' {
                    break;
                }
            }
            concat.push(Node {
                kind: NodeKind::Comment,
                span: Span::new(start, self.pos),
            });
            return true;
        }
        false
    }

    /// Parses what follows `(`; returns a new frame, or `None` when the construct was
    /// complete (a flag setting or a comment) and was pushed onto `cur`.
    fn parse_group_open(&mut self, cur: &mut Frame) -> Result<Option<Frame>, Error> {
        let open = self.pos;
        self.bump();
        let saved = self.flags;
        if !self.rest().starts_with('?') {
            if self.flavor.is_python() && self.rest().starts_with('*') {
                // `(*` is fine in Python: it is a group whose body starts with `*` — an error
                // reported by the quantifier parser below.
            }
            let index = self.new_group(None, open);
            return Ok(Some(new_frame(
                open,
                GroupKind::Capture { index, name: None },
                saved,
                self.pos,
            )));
        }
        self.bump(); // '?'
        let after_q = self.pos;
        if let Some(frame) = self.open_assertion(open, saved)? {
            return Ok(Some(frame));
        }
        if let Some(frame) = self.open_named_group(open, saved)? {
            return Ok(Some(frame));
        }
        if let Some(done) = self.open_python_extension(open, saved, cur)? {
            return Ok(done);
        }
        self.open_flag_group(open, after_q, saved, cur)
    }

    /// `(?:`, look-around and atomic groups (refused where the grammar has none).
    fn open_assertion(&mut self, open: usize, saved: Flags) -> Result<Option<Frame>, Error> {
        let simple: &[(&str, GroupKind)] = &[
            (":", GroupKind::NonCapture),
            ("=", GroupKind::Lookahead),
            ("!", GroupKind::NegativeLookahead),
            ("<=", GroupKind::Lookbehind),
            ("<!", GroupKind::NegativeLookbehind),
            (">", GroupKind::Atomic),
        ];
        for (tok, kind) in simple {
            if !self.rules.syntax.backtracking_constructs
                && *kind != GroupKind::NonCapture
                && self.rest().starts_with(tok)
            {
                // RE2 and Go: `(?=`, `(?<=`, `(?>` are Perl syntax they refuse (Go from 1.22
                // reads `(?<` as a name first, and `=` cannot start one).
                let end = self.pos + tok.len();
                if tok.starts_with('<') {
                    let syntax = self.rules.syntax;
                    if syntax.lookbehind_reads_as_name {
                        // Go from 1.22 reads `(?<` as a group name, up to a `>`.
                        let end =
                            self.pos + self.rest().find('>').map_or(self.rest().len(), |i| i + 1);
                        return Err(self.invalid(
                            self.text(|t| t.bad_group_name, &self.pat[open..end]),
                            Span::new(open, end),
                        ));
                    }
                    if syntax.opener_needs_more
                        && syntax.angle_named_groups
                        && self.rest().len() == tok.len()
                    {
                        // RE2: `(?<=` with nothing after is a group name without its `>`.
                        return Err(self.invalid(
                            self.text(|t| t.unclosed_group_name, self.rest_from(open)),
                            Span::new(open, self.pat.len()),
                        ));
                    }
                    // Go before 1.22 knows no `(?<` at all; RE2 names the look-behind.
                    let end = self.pos
                        + if syntax.angle_named_groups {
                            tok.len()
                        } else {
                            1
                        };
                    return Err(self.invalid(
                        self.text(|t| t.lookaround, &self.pat[open..end]),
                        Span::new(open, end),
                    ));
                }
                let text = if *kind == GroupKind::Atomic {
                    self.text(|t| t.unsupported_perl, &self.pat[open..end])
                } else {
                    self.text(|t| t.lookaround, &self.pat[open..end])
                };
                return Err(self.invalid(text, Span::new(open, end)));
            }
            if self.eat(tok) {
                if *kind == GroupKind::Atomic && self.flavor.is_js() {
                    return Err(self.invalid("Invalid group", Span::new(open, self.pos)));
                }
                if *kind == GroupKind::Atomic && self.flavor.is_python() && self.py_minor() < 11 {
                    // Atomic groups are new in 3.11.
                    return Err(self.invalid("unknown extension ?>", Span::new(open, self.pos)));
                }
                if matches!(kind, GroupKind::Lookbehind | GroupKind::NegativeLookbehind)
                    && self.flavor.is_python()
                    && self.lookbehind_groups.is_none()
                {
                    self.lookbehind_groups = Some((open, self.groups.len() as u32));
                }
                return Ok(Some(new_frame(open, kind.clone(), saved, self.pos)));
            }
        }
        Ok(None)
    }

    /// `(?P<name>…)` and `(?<name>…)`, as the flavor spells them.
    fn open_named_group(&mut self, open: usize, saved: Flags) -> Result<Option<Frame>, Error> {
        // Named groups.
        let syntax = self.rules.syntax;
        let named = (syntax.p_named_groups && self.eat("P<"))
            || (syntax.angle_named_groups && self.eat("<"));
        if !named {
            return Ok(None);
        }
        if syntax.opener_needs_more && self.rest().is_empty() {
            // RE2 and Go read `(?P<` and `(?<` with nothing after as flags, failing at `P` or
            // `<`.
            let end = open + 3;
            return Err(self.invalid(
                self.text(|t| t.unknown_flag, &self.pat[open..end]),
                Span::new(open, end),
            ));
        }
        let name_start = self.pos;
        let Some(close) = self.rest().find('>') else {
            return Err(self.invalid(
                self.text(|t| t.unclosed_group_name, self.rest_from(open)),
                Span::new(open, self.pat.len()),
            ));
        };
        let raw = &self.pat[name_start..name_start + close];
        let name_span = Span::new(name_start, name_start + close);
        self.pos = name_start + close + 1;
        let decoded = match self.flavor {
            Flavor::Js(_) => self.js_group_name(raw),
            _ => Some(raw.to_string()),
        };
        let name = decoded.as_deref().unwrap_or(raw);
        if decoded.is_none() || !valid_group_name(name, self.flavor) {
            let piece = if self.flavor.is_python() {
                name
            } else {
                &self.pat[open..self.pos]
            };
            if let Some(v) = self.flavor.py_version() {
                // sre quotes the name with the release's `repr()`.
                return Err(self.invalid(
                    format!(
                        "bad character in group name {}",
                        crate::python_names::repr(v, name)
                    ),
                    name_span,
                ));
            }
            return Err(self.invalid(self.text(|t| t.bad_group_name, piece), name_span));
        }
        let clash = if self.rules.syntax.duplicate_names {
            false
        } else if self.node24_names() {
            // Decided when the group closes, as V8 13.6 does (see `node24_name_clash`).
            false
        } else if self.flavor.is_js() && self.js_duplicate_names() {
            // Allowed when the two groups sit in different branches of one alternation
            // (they can never both take part in a match).
            self.named_at
                .iter()
                .any(|(other, at)| other == name && !exclusive(at, &self.alternatives))
        } else {
            self.groups.iter().any(|g| g.name.as_deref() == Some(name))
        };
        self.named_at
            .push((name.to_string(), self.alternatives.clone()));
        if clash {
            let piece = if self.flavor.is_python() {
                name
            } else {
                &self.pat[open..self.pos]
            };
            return Err(self.invalid(self.text(|t| t.duplicate_group_name, piece), name_span));
        }
        let index = self.new_group(Some(name.to_string()), open);
        Ok(Some(new_frame(
            open,
            GroupKind::Capture {
                index,
                name: Some(name.to_string()),
            },
            saved,
            self.pos,
        )))
    }

    /// Python's `(?P=name)` backreference, `(?#…)` comment and `(?(id)yes|no)` conditional:
    /// `Some(None)` when the construct was a node of its own (pushed to `cur`), `Some(frame)`
    /// for a conditional's group, `None` when it is none of them.
    fn open_python_extension(
        &mut self,
        open: usize,
        saved: Flags,
        cur: &mut Frame,
    ) -> Result<Option<Option<Frame>>, Error> {
        if self.flavor.is_python() && self.eat("P=") {
            let name_start = self.pos;
            let Some(close) = self.rest().find(')') else {
                return Err(self.invalid(
                    "missing ), unterminated name",
                    Span::new(open, self.pat.len()),
                ));
            };
            let name = self.pat[name_start..name_start + close].to_string();
            self.pos = name_start + close + 1;
            let span = Span::new(open, self.pos);
            let index = self.resolve_name(&name, span)?;
            cur.concat.push(Node {
                kind: NodeKind::Backref {
                    index,
                    name: Some(name),
                },
                span,
            });
            return Ok(Some(None));
        }
        if self.flavor.is_python() && self.eat("#") {
            let Some(close) = self.rest().find(')') else {
                return Err(self.invalid(
                    "missing ), unterminated comment",
                    Span::new(open, self.pat.len()),
                ));
            };
            self.pos += close + 1;
            cur.concat.push(Node {
                kind: NodeKind::Comment,
                span: Span::new(open, self.pos),
            });
            return Ok(Some(None));
        }
        if self.flavor.is_python() && self.rest().starts_with('(') {
            let Some(close) = self.rest().find(')') else {
                return Err(self.invalid(
                    "missing ), unterminated name",
                    Span::new(open, self.pat.len()),
                ));
            };
            let id = &self.rest()[1..close];
            let id_span = Span::new(self.pos + 1, self.pos + close);
            let (index, name) = if valid_group_name(id, self.flavor) {
                match self.groups.iter().find(|g| g.name.as_deref() == Some(id)) {
                    Some(g) => (g.index, Some(id.to_string())),
                    None => {
                        return Err(
                            self.invalid(format!("unknown group name {}", py_repr(id)), id_span)
                        );
                    }
                }
            } else {
                // A number: ASCII digits from 3.12; up to 3.11 whatever `int()` reads (`+1`,
                // ` 1`, `١`, `1_0`), with a DeprecationWarning in 3.11.
                let n = if !id.is_empty() && id.bytes().all(|b| b.is_ascii_digit()) {
                    Some(id.parse::<u32>().unwrap_or(u32::MAX))
                } else if self.py_minor() <= 11 {
                    python_int(id)
                } else {
                    None
                };
                match n {
                    None => {
                        return Err(self.invalid(
                            format!("bad character in group name {}", py_repr(id)),
                            id_span,
                        ));
                    }
                    Some(0) => return Err(self.invalid("bad group number", id_span)),
                    Some(n) => (n, None),
                }
            };
            self.pos += close + 1;
            // Inside a look-behind a reference past the groups defined so far is an open group;
            // elsewhere it is checked against the group count at the end.
            self.check_lookbehind_ref(index, id_span)?;
            self.pending_conditionals.push((index, id_span));
            return Ok(Some(Some(new_frame(
                open,
                GroupKind::Conditional { index, name },
                saved,
                self.pos,
            ))));
        }
        Ok(None)
    }

    /// Inline flags, scoped `(?i:…)` or to the end of the group `(?i)`.
    fn open_flag_group(
        &mut self,
        open: usize,
        after_q: usize,
        saved: Flags,
        cur: &mut Frame,
    ) -> Result<Option<Frame>, Error> {
        // Flags.
        let letters_ok: &str = self.rules.syntax.inline_flags;
        let mut change = FlagChange::default();
        let mut negating = false;
        loop {
            let Some(c) = self.peek() else {
                return Err(self.invalid(
                    self.text(|t| t.unclosed_flag_group, self.rest_from(open)),
                    Span::new(open, self.pat.len()),
                ));
            };
            let here = Span::new(self.pos, self.pos + c.len_utf8());
            match c {
                ')' | ':'
                    if negating
                        && self.rules.syntax.empty_negation_refused
                        && self.pat[..self.pos].ends_with('-') =>
                {
                    // Go: a `-` must be followed by a flag.
                    return Err(self.invalid(
                        self.text(|t| t.unknown_flag, &self.pat[open..here.end]),
                        Span::new(open, here.end),
                    ));
                }
                ')' | ':' => break,
                '-' if !negating => {
                    negating = true;
                    self.bump();
                }
                c if letters_ok.contains(c) => {
                    if self.flavor.is_python() && c == 'L' {
                        return Err(self.invalid(
                            "bad inline flags: cannot use 'L' flag with a str pattern",
                            here,
                        ));
                    }
                    if self.flavor.is_python() && negating && "aLu".contains(c) {
                        return Err(self.invalid(
                            "bad inline flags: cannot turn off flags 'a', 'u' and 'L'",
                            here,
                        ));
                    }
                    if (change.on.contains(c) || change.off.contains(c))
                        && !self.rules.syntax.duplicate_flags
                    {
                        return Err(match self.flavor {
                            Flavor::Js(_) if !self.js_modifiers() => {
                                self.invalid("Invalid group", Span::new(open, here.end))
                            }
                            Flavor::Js(_) => self.invalid("Repeated flag in flag group", here),
                            _ => self.invalid(format!("duplicate flag {c:?}"), here),
                        });
                    }
                    if negating {
                        change.off.push(c);
                    } else {
                        change.on.push(c);
                    }
                    self.bump();
                }
                _ => {
                    if after_q == self.pos {
                        let piece = if self.flavor.is_python() {
                            c.to_string()
                        } else {
                            self.pat[open..here.end].to_string()
                        };
                        return Err(self.invalid(
                            self.text(|t| t.unknown_group_letter, &piece),
                            Span::new(open, here.end),
                        ));
                    }
                    return Err(self.invalid(
                        self.text(|t| t.unknown_flag, &self.pat[open..here.end]),
                        here,
                    ));
                }
            }
        }
        let scoped = self.bump() == ':';
        let span = Span::new(open, self.pos);
        if self.flavor.is_python() {
            if change.on.contains('a') && change.on.contains('u') {
                return Err(self.invalid(
                    "bad inline flags: flags 'a', 'u' and 'L' are incompatible",
                    span,
                ));
            }
            if !scoped {
                if !change.off.is_empty() {
                    return Err(self.invalid("missing :", span));
                }
                if open != 0 && !self.only_flags_before(cur, open) {
                    if self.py_minor() >= 11 {
                        return Err(
                            self.invalid("global flags not at the start of the expression", span)
                        );
                    }
                    // Before 3.11 a DeprecationWarning: the flags apply to the whole pattern,
                    // which is parsed again with them (at once for verbose mode, which
                    // changes how the rest reads, as CPython does).
                    let new: String = change
                        .on
                        .chars()
                        .filter(|&c| c != 'u' && !self.initial_flags.get(c))
                        .collect();
                    if !new.is_empty() {
                        let late = self.late_flags.get_or_insert_with(String::new);
                        late.push_str(&new);
                        if new.contains('x') {
                            return Err(self.invalid("verbose mode starts again", span));
                        }
                    }
                }
                // `(?u)` and the `a` flag (given or global) exclude each other.
                if (change.on.contains('u') && self.initial_flags.ascii)
                    || (change.on.contains('a') && self.global_unicode.is_some())
                {
                    return Err(self.invalid("ASCII and UNICODE flags are incompatible", span));
                }
                if change.on.contains('u') {
                    self.global_unicode.get_or_insert(span);
                }
            }
        }
        if self.flavor.is_js() && !self.js_modifiers() {
            // Regexp modifiers `(?i:…)` are ES2025 (node 24 here); older versions reject them,
            // as every version rejects global inline flags.
            return Err(self.invalid(
                "Invalid group (inline flags are not supported by JavaScript before node 24; pass flags instead)",
                span,
            ));
        }
        if self.flavor.is_js() {
            if !scoped {
                return Err(self.invalid("Invalid group", span));
            }
            if change.on.is_empty() && change.off.is_empty() && negating {
                return Err(self.invalid("Invalid flag group", span));
            }
        }
        for c in change.on.chars() {
            set_flag(&mut self.flags, self.flavor, c);
        }
        for c in change.off.chars() {
            self.flags.set(c, false);
        }
        if scoped {
            Ok(Some(new_frame(
                open,
                GroupKind::Flags(change),
                saved,
                self.pos,
            )))
        } else {
            if self.flavor.is_python() {
                // Global flags apply to the whole pattern.
                for c in change.on.chars() {
                    set_flag(&mut self.initial_flags, self.flavor, c);
                }
            }
            cur.concat.push(Node {
                kind: NodeKind::SetFlags(change),
                span,
            });
            Ok(None)
        }
    }

    /// Python accepts several leading flag groups: `(?i)(?m)x`, at the top level only.
    fn only_flags_before(&self, cur: &Frame, _open: usize) -> bool {
        self.depth == 0
            && cur.branches.is_empty()
            && cur.open == 0
            && cur.concat.iter().all(|n| {
                matches!(
                    n.kind,
                    NodeKind::SetFlags(_) | NodeKind::Whitespace | NodeKind::Comment
                )
            })
    }

    fn new_group(&mut self, name: Option<String>, open: usize) -> u32 {
        let index = self.groups.len() as u32 + 1;
        self.groups.push(GroupInfo {
            index,
            name,
            span: Span::new(open, open),
            width: None,
        });
        self.open_groups.push(index);
        index
    }

    /// CPython's rule for a reference inside a look-behind (a backreference or a
    /// conditional): it may reach only groups that closed before the look-behind began.
    fn check_lookbehind_ref(&self, gid: u32, span: Span) -> Result<(), Error> {
        let Some((_, before)) = self.lookbehind_groups else {
            return Ok(());
        };
        if gid as usize > self.groups.len() || self.open_groups.contains(&gid) {
            return Err(self.invalid("cannot refer to an open group", span));
        }
        if gid > before {
            return Err(self.invalid(
                "cannot refer to group defined in the same lookbehind subpattern",
                span,
            ));
        }
        Ok(())
    }

    fn resolve_name(&mut self, name: &str, span: Span) -> Result<u32, Error> {
        if let Some(g) = self.groups.iter().find(|g| g.name.as_deref() == Some(name)) {
            let index = g.index;
            if self.flavor.is_python() && self.open_groups.contains(&index) {
                return Err(self.invalid("cannot refer to an open group", span));
            }
            self.check_lookbehind_ref(index, span)?;
            return Ok(index);
        }
        match self.rules.grammar {
            // (Java's and Onigmo's readers hand this parser sre text.)
            Grammar::Sre | Grammar::Java | Grammar::Onig | Grammar::Pcre2 | Grammar::Dotnet => {
                let release = self.flavor.matcher_flavor().py_version();
                let quoted =
                    release.map_or(format!("'{name}'"), |v| crate::python_names::repr(v, name));
                if !valid_group_name(name, self.flavor.matcher_flavor()) {
                    Err(self.invalid(format!("bad character in group name {quoted}"), span))
                } else {
                    Err(self.invalid(format!("unknown group name {quoted}"), span))
                }
            }
            Grammar::Ecma => {
                self.pending_names.push((name.to_string(), span, 0));
                Ok(0)
            }
            Grammar::Re2 => Err(self.invalid(
                format!("invalid backref: unknown group name '{name}'"),
                span,
            )),
        }
    }

    fn close_group(&mut self, frame: Frame, end: usize) -> Result<Node, Error> {
        let body_end = end - 1;
        let body_start = frame.branch_start_of_body();
        let child = finish_branches(
            frame.branches,
            frame.concat,
            frame.branch_start,
            body_start,
            body_end,
        );
        if let GroupKind::Capture { index, .. } = frame.kind {
            // Groups close in reverse order of opening, so this is the last one: popping keeps
            // deep nesting linear (a `retain` here made 8,000 nested groups quadratic).
            if self.open_groups.last() == Some(&index) {
                self.open_groups.pop();
            } else {
                self.open_groups.retain(|i| *i != index);
            }
            // Only a Python look-behind asks for a group's width.
            let width = if self.flavor.is_python() && self.pat.contains("(?<") {
                fixed_width_in(&child, &self.groups)
            } else {
                None
            };
            if let Some(g) = self.groups.get_mut(index as usize - 1) {
                g.span = Span::new(frame.open, end);
                g.width = width;
            }
        }
        if self
            .lookbehind_groups
            .is_some_and(|(open, _)| open == frame.open)
        {
            self.lookbehind_groups = None;
        }
        let is_lookbehind = matches!(
            frame.kind,
            GroupKind::Lookbehind | GroupKind::NegativeLookbehind
        );
        if matches!(frame.kind, GroupKind::Conditional { .. })
            && let NodeKind::Alternation(b) = &child.kind
            && b.len() > 2
        {
            return Err(self.invalid(
                "conditional backref with more than two branches",
                Span::new(frame.open, end),
            ));
        }
        if is_lookbehind
            && self.flavor.is_python()
            && fixed_width_in(&child, &self.groups).is_none()
        {
            return Err(self.invalid(
                "look-behind requires fixed-width pattern",
                Span::new(frame.open, end),
            ));
        }
        self.flags = frame.saved_flags;
        Ok(Node {
            kind: GroupKind::into_node(frame.kind, child),
            span: Span::new(frame.open, end),
        })
    }

    fn parse_quantifier(
        &mut self,
        concat: &mut Vec<Node>,
        branch_start: usize,
    ) -> Result<(), Error> {
        let start = self.pos;
        let c = self.peek().unwrap();
        let (min, max) = match c {
            '*' => {
                self.bump();
                (0, None)
            }
            '+' => {
                self.bump();
                (1, None)
            }
            '?' => {
                self.bump();
                (0, Some(1))
            }
            _ => match self.parse_counted()? {
                Some(bounds) => bounds,
                None => {
                    // Not a quantifier: a literal `{`.
                    self.bump();
                    concat.push(Node {
                        kind: NodeKind::Literal {
                            ch: '{',
                            form: LiteralForm::Verbatim,
                        },
                        span: Span::new(start, self.pos),
                    });
                    return Ok(());
                }
            },
        };
        let brace_end = self.pos;
        let mut greed = Greed::Greedy;
        if self.peek() == Some('?') {
            self.bump();
            greed = Greed::Lazy;
        } else if self.peek() == Some('+') && self.flavor.is_python() {
            if self.py_minor() < 11 {
                // Possessive quantifiers are new in 3.11: before, a second repeat.
                return Err(self.invalid("multiple repeat", Span::new(self.pos, self.pos + 1)));
            }
            self.bump();
            greed = Greed::Possessive;
        }
        let op_span = Span::new(start, self.pos);
        // Find the target: the last node that is not verbose whitespace or a comment.
        let mut idx = concat.len();
        while idx > 0
            && matches!(
                concat[idx - 1].kind,
                NodeKind::Whitespace | NodeKind::Comment
            )
        {
            // Python skips `#…` and `(?#…)` comments before a quantifier just like
            // whitespace (`a(?#x)+` is `a+`), and so does Rust in verbose mode.
            idx -= 1;
        }
        let nothing = |p: &Parser| {
            p.invalid(
                p.text(|t| t.nothing_to_repeat, &p.pat[start..brace_end]),
                op_span,
            )
        };
        if idx == 0 {
            let _ = branch_start;
            return Err(nothing(self));
        }
        let target = &concat[idx - 1];
        match &target.kind {
            NodeKind::Repeat {
                op_span: earlier, ..
            } if self.rules.syntax.nested_repetition_refused => {
                let piece = &self.pat[earlier.start..self.pos];
                return Err(self.invalid(self.text(|t| t.nested_repetition, piece), op_span));
            }
            NodeKind::Anchor { .. } if !self.re2() => {
                return Err(nothing(self));
            }
            // `(?i)*`: a flag group is nothing to repeat in every grammar (RE2's, Go's and the
            // regex crate's say so too).
            NodeKind::SetFlags(_) => return Err(nothing(self)),
            NodeKind::Group { kind, .. } if self.flavor.is_js() && self.js_unicode() => {
                if matches!(
                    kind,
                    GroupKind::Lookahead
                        | GroupKind::NegativeLookahead
                        | GroupKind::Lookbehind
                        | GroupKind::NegativeLookbehind
                ) {
                    return Err(self.invalid("Invalid quantifier", op_span));
                }
            }
            NodeKind::Group { kind, .. } if self.flavor.is_js() => {
                if matches!(kind, GroupKind::Lookbehind | GroupKind::NegativeLookbehind) {
                    return Err(self.invalid("Invalid quantifier", op_span));
                }
            }
            NodeKind::Comment | NodeKind::Whitespace => return Err(nothing(self)),
            _ => {}
        }
        if let Some(m) = max
            && m < min
        {
            let piece = if self.flavor.is_js() {
                "{}"
            } else {
                &self.pat[start..brace_end]
            };
            return Err(self.invalid(self.text(|t| t.repeat_range_order, piece), op_span));
        }
        let target = concat.remove(idx - 1);
        if c == '{' && self.rules.syntax.repeat_product_limited && (min >= 2 || max >= Some(2)) {
            // RE2 and Go: nested counted repetitions may not multiply past the limit
            // (`(a{1000}){2}`), said at the outer count.
            if !repeat_product_within(min, max, &target, self.pat, self.rules.syntax.max_repeat) {
                return Err(self.invalid(
                    self.text(|t| t.repeat_too_large, &self.pat[start..brace_end]),
                    op_span,
                ));
            }
        }
        let span = target.span.to(op_span);
        // Whitespace and comments between the atom and its quantifier lie inside the
        // repeat's span; kept as siblings they would overlap it, so they are dropped.
        concat.truncate(idx - 1);
        concat.push(Node {
            kind: NodeKind::Repeat {
                min,
                max,
                greed,
                op_span,
                child: Box::new(target),
            },
            span,
        });
        Ok(())
    }

    /// Parses `{n}`, `{n,}`, `{n,m}` (and Python's `{,m}`). Returns `None` when the brace is
    /// a literal in this flavor.
    fn parse_counted(&mut self) -> Result<Option<(u32, Option<u32>)>, Error> {
        let start = self.pos;
        let rest = self.rest();
        let close = rest.find('}');
        let body = close.map(|c| &rest[1..c]);
        let parsed = body.and_then(|b| parse_bounds(b, self.flavor));
        match parsed {
            Some((min, max)) => {
                let limit = u64::from(self.rules.syntax.max_repeat);
                let span = Span::new(start, start + close.unwrap() + 1);
                if self.flavor.is_js() {
                    // ECMAScript counts are unbounded integers (node accepts `a{4294967296}`);
                    // a count past u32 is as unreachable as u32::MAX on any text rxw holds.
                    self.pos = span.end;
                    let clamp = |n: u64| n.min(limit) as u32;
                    return Ok(Some((clamp(min), max.map(clamp))));
                }
                if min > limit || max.is_some_and(|m| m > limit) {
                    return Err(self.invalid(
                        self.text(|t| t.repeat_too_large, &self.pat[span.start..span.end]),
                        span,
                    ));
                }
                if max.is_some_and(|m| m < min) && self.rules.syntax.literal_brace && self.re2() {
                    // Go: `{2,1}` is an invalid count, said with the braces.
                    return Err(self.invalid(
                        self.text(|t| t.repeat_range_order, &self.pat[span.start..span.end]),
                        span,
                    ));
                }
                self.pos = span.end;
                Ok(Some((min as u32, max.map(|m| m as u32))))
            }
            None => {
                let span = Span::new(start, start + close.map_or(1, |c| c + 1));
                match self.rules.grammar {
                    _ if self.js_unicode() => Err(self.invalid("Incomplete quantifier", span)),
                    _ if self.rules.syntax.literal_brace => Ok(None),
                    _ => Err(self.invalid(
                        if close.is_none() {
                            "unclosed counted repetition"
                        } else {
                            "repetition quantifier expects a valid decimal"
                        },
                        span,
                    )),
                }
            }
        }
    }

    /// The rest of `\k<name>` after the `<`: the name up to `>` as a backreference to that
    /// group (the escape began at `start`); `unclosed` is the flavor's error for a missing `>`.
    fn named_backref(&mut self, start: usize, unclosed: &str) -> Result<Node, Error> {
        let raw = self.until('>', unclosed, start)?;
        let span = Span::new(start, self.pos);
        let name = if self.flavor.is_js() {
            self.js_group_name(raw)
                .ok_or_else(|| self.invalid("Invalid capture group name", span))?
        } else {
            raw.to_string()
        };
        let index = self.resolve_name(&name, span)?;
        Ok(Node {
            kind: NodeKind::Backref {
                index,
                name: Some(name),
            },
            span,
        })
    }

    fn parse_escape(&mut self) -> Result<Node, Error> {
        let start = self.pos;
        self.bump(); // '\'
        let Some(c) = self.peek() else {
            return Err(self.invalid(
                self.text(|t| t.trailing_backslash, ""),
                Span::new(start, self.pos),
            ));
        };
        let node = |kind: NodeKind, end: usize| Node {
            kind,
            span: Span::new(start, end),
        };
        // Shared shorthands.
        if let Some((kind, negated)) = perl_of(c) {
            self.bump();
            return Ok(node(NodeKind::Perl { kind, negated }, self.pos));
        }
        let anchor = |p: &Parser, kind: AnchorKind| NodeKind::Anchor {
            kind,
            multiline: p.flags.multiline,
        };
        let re2 = self.re2();
        let syntax = self.rules.syntax;
        match (self.flavor, c) {
            (_, 'b') => {
                self.bump();
                // regex-syntax reads `\b{` as a special boundary only when a letter or `-`
                // follows; otherwise (`\b{2}`) the brace starts a repetition of `\b`.
                if syntax.extended_word_boundaries
                    && self.peek() == Some('{')
                    && self
                        .peek_at(1)
                        .is_some_and(|c| c.is_ascii_alphabetic() || c == '-')
                {
                    let rest = self.rest();
                    for (tok, kind) in [
                        ("{start}", AnchorKind::WordStart),
                        ("{end}", AnchorKind::WordEnd),
                        ("{start-half}", AnchorKind::WordStartHalf),
                        ("{end-half}", AnchorKind::WordEndHalf),
                    ] {
                        if rest.starts_with(tok) {
                            self.pos += tok.len();
                            return Ok(node(anchor(self, kind), self.pos));
                        }
                    }
                    return Err(self.invalid(
                        "unrecognized word boundary assertion",
                        Span::new(start, self.pos + 1),
                    ));
                }
                return Ok(node(anchor(self, AnchorKind::WordBoundary), self.pos));
            }
            (_, 'B') => {
                self.bump();
                return Ok(node(anchor(self, AnchorKind::NotWordBoundary), self.pos));
            }
            (_, 'A') if re2 || self.flavor.is_python() => {
                self.bump();
                return Ok(node(anchor(self, AnchorKind::TextStart), self.pos));
            }
            (Flavor::Python(_), 'Z') | (_, 'z') if re2 || self.flavor.is_python() && c == 'Z' => {
                self.bump();
                return Ok(node(anchor(self, AnchorKind::TextEnd), self.pos));
            }
            (Flavor::Python(_), 'z') if self.py_minor() >= 14 => {
                // 3.14 added `\z`, the same as `\Z`.
                self.bump();
                return Ok(node(anchor(self, AnchorKind::TextEnd), self.pos));
            }
            (_, 'Z') if re2 && syntax.extended_word_boundaries => {
                return Err(self.invalid(
                    "unrecognized escape sequence (\\Z is not Rust regex syntax: use \\z for the \
                     end of the text)",
                    Span::new(start, self.pos + 1),
                ));
            }
            (_, '<') if syntax.extended_word_boundaries => {
                self.bump();
                return Ok(node(anchor(self, AnchorKind::WordStart), self.pos));
            }
            (_, '>') if syntax.extended_word_boundaries => {
                self.bump();
                return Ok(node(anchor(self, AnchorKind::WordEnd), self.pos));
            }
            (Flavor::Js(_), 'k') if self.js_unicode() || self.js_has_named => {
                self.bump();
                if !self.eat("<") {
                    return Err(self.invalid("Invalid named reference", Span::new(start, self.pos)));
                }
                return self.named_backref(start, "Invalid named reference");
            }
            (_, 'k') if re2 && syntax.backtracking_constructs => {
                self.bump();
                if self.eat("<") {
                    return self.named_backref(start, "unclosed backreference name");
                }
                return Err(
                    self.invalid("unrecognized escape sequence", Span::new(start, self.pos))
                );
            }
            (_, 'p' | 'P') if re2 || self.js_unicode() => {
                let (name, negated) = self.parse_property(start)?;
                return Ok(node(NodeKind::Property { name, negated }, self.pos));
            }
            (_, '0'..='7') if re2 && syntax.octal_escapes => {
                let (ch, form) = self.perl_octal(start, c)?;
                return Ok(node(NodeKind::Literal { ch, form }, self.pos));
            }
            (_, '1'..='9') if re2 && !syntax.backtracking_constructs => {
                // Go quotes the one digit it could not read; the regex crate the reference.
                let digits = if syntax.octal_escapes {
                    1
                } else {
                    self.rest().chars().take_while(char::is_ascii_digit).count()
                };
                let end = self.pos + digits;
                return Err(self.invalid(
                    self.text(|t| t.backreference, &self.pat[start..end]),
                    Span::new(start, end),
                ));
            }
            (_, '1'..='9') => {
                if let Some(n) = self.parse_backref_digits(start)? {
                    return Ok(n);
                }
            }
            _ => {}
        }
        let (ch, form) = self.parse_char_escape(start, false)?;
        Ok(node(NodeKind::Literal { ch, form }, self.pos))
    }

    /// RE2 and Go: `\0` and `\1`–`\7` followed by an octal digit start an octal escape of up
    /// to three digits (in a class too); a lone `\1`–`\7` would be a backreference, refused.
    /// `first` is the digit after the backslash, not yet read.
    fn perl_octal(&mut self, start: usize, first: char) -> Result<(char, LiteralForm), Error> {
        let digits: String = self
            .rest()
            .chars()
            .take(3)
            .take_while(|d| ('0'..='7').contains(d))
            .collect();
        if first != '0' && digits.len() < 2 {
            self.bump();
            return Err(self.invalid(
                self.text(|t| t.bad_escape, &self.pat[start..self.pos]),
                Span::new(start, self.pos),
            ));
        }
        self.pos += digits.len();
        let value = u32::from_str_radix(&digits, 8).unwrap_or(0);
        Ok((char::from_u32(value).unwrap_or('\0'), LiteralForm::Octal))
    }

    /// Digits after a backslash outside a class: a backreference, or (Python/JS) an octal
    /// escape. Returns `None` to let the char-escape parser take it.
    fn parse_backref_digits(&mut self, start: usize) -> Result<Option<Node>, Error> {
        let digits: String = self
            .rest()
            .chars()
            .take_while(|c| c.is_ascii_digit())
            .collect();
        match self.rules.grammar {
            Grammar::Sre | Grammar::Java | Grammar::Onig | Grammar::Pcre2 | Grammar::Dotnet => {
                // Three octal digits make an octal escape.
                let b = digits.as_bytes();
                if b.len() >= 3 && b[..3].iter().all(|d| (b'0'..=b'7').contains(d)) {
                    return Ok(None);
                }
                let take = digits.len().min(2);
                let n: u32 = digits[..take].parse().unwrap();
                self.pos += take;
                let span = Span::new(start, self.pos);
                if n as usize > self.groups.len() {
                    return Err(self.invalid(format!("invalid group reference {n}"), span));
                }
                if self.open_groups.contains(&n) {
                    return Err(self.invalid("cannot refer to an open group", span));
                }
                self.check_lookbehind_ref(n, span)?;
                Ok(Some(Node {
                    kind: NodeKind::Backref {
                        index: n,
                        name: None,
                    },
                    span,
                }))
            }
            Grammar::Ecma => {
                let n: u64 = digits.parse().unwrap_or(u64::MAX);
                if n <= self.js_total_groups as u64 {
                    self.pos += digits.len();
                    return Ok(Some(Node {
                        kind: NodeKind::Backref {
                            index: n as u32,
                            name: None,
                        },
                        span: Span::new(start, self.pos),
                    }));
                }
                if self.js_unicode() {
                    return Err(
                        self.invalid("Invalid escape", Span::new(start, start + 1 + digits.len()))
                    );
                }
                Ok(None)
            }
            Grammar::Re2 => {
                let n: u32 = digits.parse().unwrap_or(u32::MAX);
                self.pos += digits.len();
                let span = Span::new(start, self.pos);
                if n as usize > self.groups.len() {
                    return Err(
                        self.invalid(format!("invalid backref: group {n} does not exist"), span)
                    );
                }
                Ok(Some(Node {
                    kind: NodeKind::Backref {
                        index: n,
                        name: None,
                    },
                    span,
                }))
            }
        }
    }

    fn parse_property(&mut self, start: usize) -> Result<(String, bool), Error> {
        if let Some(tables) = self.rules.tables {
            return self.tables_property(start, tables);
        }
        let negated = self.bump() == 'P';
        if self.eat("{") {
            let Some(close) = self.rest().find('}') else {
                return Err(self.invalid(
                    if self.flavor.is_js() {
                        "Invalid property name"
                    } else {
                        "unclosed unicode class"
                    },
                    Span::new(start, self.pat.len()),
                ));
            };
            let name = self.pat[self.pos..self.pos + close].to_string();
            self.pos += close + 1;
            let span = Span::new(start, self.pos);
            if name.is_empty() {
                return Err(self.invalid("Invalid property name", span));
            }
            if self.flavor.is_js() {
                // ECMAScript's tables are the exact list: no loose matching, no `Is` prefix,
                // no other Unicode properties. A property of strings needs `v` and cannot be
                // negated.
                let of_strings = crate::js_unicode::is_property_of_strings(&name);
                let known = if of_strings {
                    self.flags.unicode_sets
                        && !negated
                        && self.js_data().property_of_strings(&name).is_some()
                } else {
                    self.js_data().property(&name).is_some()
                };
                if !known {
                    return Err(self.invalid("Invalid property name", span));
                }
                return Ok((name, negated));
            }
            if regex_syntax::Parser::new()
                .parse(&format!("\\p{{{name}}}"))
                .is_err()
            {
                return Err(self.invalid(
                    if self.flavor.is_js() {
                        "Invalid property name".to_string()
                    } else {
                        "Unicode property not found".to_string()
                    },
                    span,
                ));
            }
            Ok((name, negated))
        } else if self.flavor.is_rust() {
            match self.peek() {
                Some(c) if c.is_ascii_alphabetic() => {
                    self.bump();
                    Ok((c.to_string(), negated))
                }
                _ => Err(self.invalid("incomplete escape sequence", Span::new(start, self.pos))),
            }
        } else {
            Err(self.invalid("Invalid property name", Span::new(start, self.pos)))
        }
    }

    /// `\pN`, `\p{Name}`, `\p{^Name}` (and `\P…`, negated again by `^`), checked against the
    /// engine's generated tables (Go's release, RE2); the name is kept with its negation
    /// folded in.
    fn tables_property(
        &mut self,
        start: usize,
        tables: crate::engine_tables::EngineTables,
    ) -> Result<(String, bool), Error> {
        let mut negated = self.bump() == 'P';
        let bad = |p: &Parser, end: usize| {
            p.invalid(
                p.text(|t| t.unknown_property, &p.pat[start..end]),
                Span::new(start, end),
            )
        };
        let name = if self.eat("{") {
            let Some(close) = self.rest().find('}') else {
                return Err(bad(self, self.pat.len()));
            };
            let raw = &self.pat[self.pos..self.pos + close];
            self.pos += close + 1;
            match raw.strip_prefix('^') {
                Some(n) => {
                    negated = !negated;
                    n.to_string()
                }
                None => raw.to_string(),
            }
        } else {
            match self.peek() {
                Some(c) => {
                    self.bump();
                    c.to_string()
                }
                None => return Err(bad(self, self.pos)),
            }
        };
        if tables.property(&name).is_none() {
            return Err(bad(self, self.pos));
        }
        Ok((name, negated))
    }

    /// Parses a character escape after the backslash. `in_class` selects the class rules.
    /// The code point a class character stands for: a lone surrogate escape (`\ud800`) parses
    /// to a private-use stand-in, which orders as the surrogate it stands for.
    fn written_code(&self, ch: char, span: Span) -> u32 {
        let c = ch as u32;
        match crate::escaped_surrogate(&self.pat[span.start..span.end]) {
            Some(s) if self.flavor.is_js() && (0xF0000..0xF0800).contains(&c) => s,
            _ => c,
        }
    }

    /// `v` mode: a range's end is a class set character, as its start is: not a syntax
    /// character (`[a-}]`, `[a-(]`) nor a doubled reserved punctuator (`[a-&&b]`).
    fn v_mode_range_end(&self) -> Result<(), Error> {
        let Some(c) = self.peek() else {
            return Ok(());
        };
        if "&!#$%*+,.:;<=>?@^`~".contains(c) && self.peek_at(1) == Some(c) {
            return Err(self.invalid(
                "Invalid set operation in character class",
                Span::new(self.pos, self.pos + 2),
            ));
        }
        if "()[{}/-|".contains(c) {
            return Err(self.invalid(
                if c == '[' {
                    "Invalid character class"
                } else {
                    "Invalid character in character class"
                },
                Span::new(self.pos, self.pos + 1),
            ));
        }
        Ok(())
    }

    fn parse_char_escape(
        &mut self,
        start: usize,
        in_class: bool,
    ) -> Result<(char, LiteralForm), Error> {
        let c = self.bump();
        let span_here = |p: &Parser| Span::new(start, p.pos);
        let control = |ch: char| Ok((ch, LiteralForm::Control));
        match c {
            'n' => return control('\n'),
            't' => return control('\t'),
            'r' => return control('\r'),
            'f' => return control('\u{c}'),
            'v' => return control('\u{b}'),
            'a' if !self.flavor.is_js() => return control('\u{7}'),
            'b' if in_class && !self.re2() => return control('\u{8}'),
            _ => {}
        }
        match self.rules.escapes {
            Escapes::Sre => match c {
                'x' => self.hex_fixed(start, 2, "incomplete escape \\x"),
                'u' => self.hex_fixed(start, 4, "incomplete escape \\u"),
                'U' => {
                    let (ch, f) = self.hex_fixed(start, 8, "incomplete escape \\U")?;
                    Ok((ch, f))
                }
                'N' => {
                    if !self.eat("{") {
                        return Err(self.invalid("missing {", span_here(self)));
                    }
                    let name = self.until('}', "missing }, unterminated name", start)?;
                    // The release's own `unicodedata.lookup` (its names, aliases and rules).
                    let release = self.flavor.matcher_flavor().py_version();
                    let found = match release {
                        Some(v) => crate::python_names::lookup(v, name),
                        None => unicode_names2::character(name),
                    };
                    // 3.8 hands a named sequence to `ord()`, which raises TypeError.
                    if let Some(n) =
                        release.and_then(|v| crate::python_names::sequence_length(v, name))
                    {
                        return Err(self.invalid(
                            format!("ord() expected a character, but string of length {n} found"),
                            span_here(self),
                        ));
                    }
                    match found {
                        Some(ch) if !name.is_empty() => Ok((ch, LiteralForm::Named)),
                        _ => Err(self.invalid(
                            format!(
                                "undefined character name {}",
                                release.map_or(format!("'{name}'"), |v| {
                                    crate::python_names::repr(v, name)
                                })
                            ),
                            span_here(self),
                        )),
                    }
                }
                '0'..='7' => {
                    // `\0dd` and `\ddd` octal; in a class any 1-3 octal digits.
                    let mut value = c.to_digit(8).unwrap();
                    let mut n = 1;
                    while n < 3 && self.peek().is_some_and(|d| d.is_digit(8)) {
                        value = value * 8 + self.bump().to_digit(8).unwrap();
                        n += 1;
                    }
                    if !in_class && c != '0' && n < 3 {
                        // Outside a class, non-zero 1-2 digits are a backreference (handled
                        // before); reaching here means a class-free octal of 3 digits only.
                        return Err(self.invalid("invalid group reference", span_here(self)));
                    }
                    if value > 0o377 {
                        return Err(self.invalid(
                            format!(
                                "octal escape value {} outside of range 0-0o377",
                                &self.pat[start..self.pos]
                            ),
                            span_here(self),
                        ));
                    }
                    Ok((char::from_u32(value).unwrap(), LiteralForm::Octal))
                }
                c if c.is_ascii_alphanumeric() => {
                    Err(self.invalid(format!("bad escape \\{c}"), span_here(self)))
                }
                c => Ok((c, LiteralForm::Escaped)),
            },
            Escapes::Ecma => {
                let unicode = self.js_unicode();
                match c {
                    'c' => match self.peek() {
                        Some(l) if l.is_ascii_alphabetic() => {
                            self.bump();
                            Ok((char::from_u32(l as u32 % 32).unwrap(), LiteralForm::Control))
                        }
                        Some(d) if in_class && !unicode && (d.is_ascii_digit() || d == '_') => {
                            self.bump();
                            Ok((char::from_u32(d as u32 % 32).unwrap(), LiteralForm::Control))
                        }
                        _ if unicode => {
                            Err(self.invalid("Invalid unicode escape", span_here(self)))
                        }
                        // Annex B: `\c` not followed by a letter is a literal backslash;
                        // the `c` is parsed again as a literal.
                        _ => {
                            self.pos -= 1;
                            Ok(('\\', LiteralForm::Escaped))
                        }
                    },
                    '0' if !self.peek().is_some_and(|d| d.is_ascii_digit()) => {
                        Ok(('\0', LiteralForm::Octal))
                    }
                    '0'..='7' if !unicode => {
                        // Legacy octal: up to 3 digits, value <= 0o377.
                        let mut value = c.to_digit(8).unwrap();
                        let max_digits = if c <= '3' { 3 } else { 2 };
                        let mut n = 1;
                        while n < max_digits && self.peek().is_some_and(|d| d.is_digit(8)) {
                            value = value * 8 + self.bump().to_digit(8).unwrap();
                            n += 1;
                        }
                        Ok((char::from_u32(value).unwrap(), LiteralForm::Octal))
                    }
                    'x' => match self.hex_exact(2) {
                        Some(ch) => Ok((ch, LiteralForm::Hex)),
                        None if unicode => Err(self.invalid("Invalid escape", span_here(self))),
                        None => Ok(('x', LiteralForm::Escaped)),
                    },
                    'u' => {
                        if unicode && self.peek() == Some('{') {
                            let close = self.rest().find('}');
                            let body = close.map(|cl| &self.rest()[1..cl]);
                            let value = body
                                .filter(|b| {
                                    !b.is_empty() && b.chars().all(|h| h.is_ascii_hexdigit())
                                })
                                .and_then(|b| u32::from_str_radix(b, 16).ok())
                                .filter(|v| *v <= 0x10FFFF);
                            return match value {
                                Some(v) => {
                                    self.pos += close.unwrap() + 1;
                                    // A lone surrogate code point: kept as its stand-in,
                                    // it never matches UTF-8 text (node's answer there).
                                    Ok((
                                        char::from_u32(v)
                                            .unwrap_or_else(|| crate::surrogate_stand_in(v)),
                                        LiteralForm::Hex,
                                    ))
                                }
                                None => {
                                    Err(self.invalid("Invalid Unicode escape", span_here(self)))
                                }
                            };
                        }
                        match self.hex_exact(4) {
                            Some(ch) => Ok((ch, LiteralForm::Hex)),
                            None => {
                                // A surrogate pair written as two \u escapes.
                                let save = self.pos;
                                let hi =
                                    u32::from_str_radix(self.rest().get(..4).unwrap_or(""), 16)
                                        .ok();
                                if !unicode
                                    && let Some(unit) = hi.filter(|h| (0xD800..0xE000).contains(h))
                                {
                                    // Without `u` a surrogate escape is one UTF-16 code unit
                                    // (a pair is two atoms: `\uD83D\uDE00+` repeats the second);
                                    // the engine matches code units through stand-ins.
                                    self.pos += 4;
                                    return Ok((crate::surrogate_stand_in(unit), LiteralForm::Hex));
                                }
                                if let Some(hi) = hi.filter(|h| (0xD800..0xDC00).contains(h)) {
                                    self.pos += 4;
                                    if self.eat("\\u") {
                                        let lo = u32::from_str_radix(
                                            self.rest().get(..4).unwrap_or(""),
                                            16,
                                        )
                                        .ok();
                                        if let Some(lo) =
                                            lo.filter(|l| (0xDC00..0xE000).contains(l))
                                        {
                                            self.pos += 4;
                                            let cp =
                                                0x10000 + ((hi - 0xD800) << 10) + (lo - 0xDC00);
                                            return Ok((
                                                char::from_u32(cp).unwrap(),
                                                LiteralForm::Hex,
                                            ));
                                        }
                                    }
                                    self.pos = save + 4;
                                    return Ok((crate::surrogate_stand_in(hi), LiteralForm::Hex));
                                }
                                if let Some(lo) = hi.filter(|h| (0xDC00..0xE000).contains(h)) {
                                    // A lone trail surrogate under `u`.
                                    self.pos += 4;
                                    return Ok((crate::surrogate_stand_in(lo), LiteralForm::Hex));
                                }
                                if unicode {
                                    Err(self.invalid("Invalid Unicode escape", span_here(self)))
                                } else {
                                    Ok(('u', LiteralForm::Escaped))
                                }
                            }
                        }
                    }
                    c if unicode => {
                        // In a `v` class the reserved punctuators may be escaped as well.
                        let v_punctuator =
                            in_class && self.flags.unicode_sets && "&-!#%,:;<=>@`~".contains(c);
                        if "^$\\.*+?()[]{}|/".contains(c) || (in_class && c == '-') || v_punctuator
                        {
                            Ok((c, LiteralForm::Escaped))
                        } else {
                            Err(self.invalid("Invalid escape", span_here(self)))
                        }
                    }
                    c => Ok((c, LiteralForm::Escaped)),
                }
            }
            Escapes::Perl => match c {
                'x' => self.go_hex(start),
                '0'..='7' if in_class && self.rules.syntax.octal_escapes => {
                    // Outside a class the digits were read by `parse_escape`.
                    self.pos -= 1;
                    self.perl_octal(start, c)
                }
                'C' if self.rules.syntax.byte_escape && !in_class => Err(self.unsupported(
                    "\\C (one byte, even inside a character) cannot be reproduced: rxw matches \
                     whole characters",
                    span_here(self),
                )),
                c if c.is_ascii() && !c.is_ascii_alphanumeric() => Ok((c, LiteralForm::Escaped)),
                _ => Err(self.invalid(
                    self.text(|t| t.bad_escape, &self.pat[start..self.pos]),
                    span_here(self),
                )),
            },
            Escapes::RegexSyntax => match c {
                'x' => self.rust_hex(start, 2),
                'u' => self.rust_hex(start, 4),
                'U' => self.rust_hex(start, 8),
                c if is_rust_escapable(c) => Ok((c, LiteralForm::Escaped)),
                _ => Err(self.invalid("unrecognized escape sequence", span_here(self))),
            },
        }
    }

    fn hex_exact(&mut self, n: usize) -> Option<char> {
        let digits = self.rest().get(..n)?;
        if !digits.chars().all(|c| c.is_ascii_hexdigit()) {
            return None;
        }
        let ch = char::from_u32(u32::from_str_radix(digits, 16).ok()?)?;
        self.pos += n;
        Some(ch)
    }

    fn hex_fixed(
        &mut self,
        start: usize,
        n: usize,
        msg: &str,
    ) -> Result<(char, LiteralForm), Error> {
        let digits = self
            .rest()
            .chars()
            .take(n)
            .take_while(|c| c.is_ascii_hexdigit())
            .count();
        if digits < n {
            self.pos += digits;
            return Err(self.invalid(
                format!("{msg}{}", &self.pat[start + 2..self.pos]),
                Span::new(start, self.pos),
            ));
        }
        let value = u32::from_str_radix(&self.rest()[..n], 16).unwrap();
        self.pos += n;
        match char::from_u32(value) {
            Some(ch) => Ok((ch, LiteralForm::Hex)),
            None if (0xD800..0xE000).contains(&value) => Err(self.unsupported(
                "a lone surrogate cannot be matched in UTF-8 text",
                Span::new(start, self.pos),
            )),
            None => Err(self.invalid(
                format!("bad escape {}", &self.pat[start..self.pos]),
                Span::new(start, self.pos),
            )),
        }
    }

    /// Go's `\xFF` (two digits) and `\x{10FFFF}` (any number of digits up to the largest code
    /// point); anything else is an invalid escape, quoted up to where Go stopped reading.
    fn go_hex(&mut self, start: usize) -> Result<(char, LiteralForm), Error> {
        let bad = |p: &mut Parser, end: usize| {
            p.pos = end.min(p.pat.len());
            Err(p.invalid(
                p.text(|t| t.bad_escape, &p.pat[start..p.pos]),
                Span::new(start, p.pos),
            ))
        };
        if self.eat("{") {
            if self.rest().is_empty() {
                // `\x{` at the very end (RE2 finds no character to decode there).
                return Err(self.invalid(
                    self.text(|t| t.truncated_hex, &self.pat[start..]),
                    Span::new(start, self.pos),
                ));
            }
            // As Go reads it: hex digits up to `}`, stopping at the first other character or
            // at the digit that passes the largest code point (the error quotes up to there).
            let mut value: u32 = 0;
            let mut end = self.pos;
            for (digits, ch) in self.rest().chars().enumerate() {
                end += ch.len_utf8();
                if ch == '}' {
                    if digits == 0 {
                        return bad(self, end);
                    }
                    self.pos = end;
                    return match char::from_u32(value) {
                        Some(ch) => Ok((ch, LiteralForm::Hex)),
                        None => Err(self.unsupported(
                            "a lone surrogate cannot be matched in UTF-8 text",
                            Span::new(start, self.pos),
                        )),
                    };
                }
                let Some(v) = ch.to_digit(16) else {
                    return bad(self, end);
                };
                value = value * 16 + v;
                if value > 0x10FFFF {
                    return bad(self, end);
                }
            }
            bad(self, end)
        } else {
            let mut end = self.pos;
            for ch in self.rest().chars().take(2) {
                end += ch.len_utf8();
                if !ch.is_ascii_hexdigit() {
                    return bad(self, end);
                }
            }
            if end - self.pos < 2 {
                return bad(self, end);
            }
            let value = u32::from_str_radix(&self.pat[self.pos..end], 16).unwrap_or(0);
            self.pos = end;
            Ok((char::from_u32(value).unwrap_or('\0'), LiteralForm::Hex))
        }
    }

    fn rust_hex(&mut self, start: usize, n: usize) -> Result<(char, LiteralForm), Error> {
        let text = if self.eat("{") {
            self.until('}', "unclosed hexadecimal literal", start)?
        } else {
            let t = self.rest().get(..n).unwrap_or(self.rest());
            self.pos += t.len();
            t
        };
        let span = Span::new(start, self.pos);
        if text.is_empty() || !text.chars().all(|c| c.is_ascii_hexdigit()) {
            return Err(self.invalid("invalid hexadecimal digit", span));
        }
        u32::from_str_radix(text, 16)
            .ok()
            .and_then(char::from_u32)
            .map(|c| (c, LiteralForm::Hex))
            .ok_or_else(|| self.invalid("hexadecimal literal is not a Unicode scalar value", span))
    }

    fn parse_class(&mut self, depth: usize) -> Result<Class, Error> {
        let start = self.pos;
        if depth > MAX_CLASS_DEPTH {
            return Err(self.invalid("class nesting too deep", Span::new(start, start + 1)));
        }
        self.bump(); // '['
        let negated = self.eat("^");
        let mut items: Vec<ClassItem> = Vec::new();
        let unterminated = |p: &Parser| {
            p.invalid(
                p.text(|t| t.unclosed_class, p.rest_from(start)),
                Span::new(start, p.pat.len()),
            )
        };
        let set_operations = self.rules.syntax.class_set_operations;
        let mut first = true;
        loop {
            let Some(c) = self.peek() else {
                return Err(unterminated(self));
            };
            if c == ']' && (!first || self.flavor.is_js()) {
                self.bump();
                break;
            }
            first = false;
            let item_start = self.pos;
            if self.re2() {
                if self.flags.verbose && c.is_whitespace() {
                    self.bump();
                    continue;
                }
                if c == '['
                    && let Some(posix) = self.try_posix()?
                {
                    items.push(posix);
                    continue;
                }
            }
            if set_operations {
                if c == '[' {
                    let nested = self.parse_class(depth + 1)?;
                    items.push(ClassItem::Nested(Box::new(nested)));
                    continue;
                }
                if let Some(op) = ["&&", "--", "~~"]
                    .iter()
                    .find(|op| self.rest().starts_with(**op))
                {
                    self.pos += 2;
                    items.push(ClassItem::SetOp(
                        op.to_string(),
                        Span::new(item_start, self.pos),
                    ));
                    continue;
                }
            }
            if self.flavor.is_js() && self.flags.unicode_sets {
                // `v` mode: nested classes and the `&&` / `--` operators; a `-` that is not a
                // range and the other syntax characters must be escaped.
                if c == '[' {
                    let nested = self.parse_class(depth + 1)?;
                    items.push(ClassItem::Nested(Box::new(nested)));
                    continue;
                }
                if let Some(op) = ["&&", "--"].iter().find(|op| self.rest().starts_with(**op)) {
                    self.pos += 2;
                    let span = Span::new(item_start, self.pos);
                    let prev_op = items.iter().rev().find_map(|i| match i {
                        ClassItem::SetOp(o, _) => Some(o.clone()),
                        _ => None,
                    });
                    // An operator right after another: `[a&&&&b]`, `[a&&--b]`, `[a----b]`.
                    let after_op = match items.last() {
                        Some(ClassItem::SetOp(prev, _)) => Some(prev.as_str()),
                        _ => None,
                    };
                    if after_op.is_some() && (*op == "--" || after_op == Some(*op)) {
                        return Err(self.invalid("Invalid character in character class", span));
                    }
                    // A range is not an operand: `[a-z--a]`.
                    let mixes_union = (items.len() != 1
                        || matches!(items.first(), Some(ClassItem::Range(..))))
                        && !items.iter().any(|i| matches!(i, ClassItem::SetOp(..)));
                    if items.is_empty()
                        || mixes_union
                        || prev_op.is_some_and(|o| o != *op)
                        || matches!(self.peek(), None | Some(']'))
                    {
                        return Err(self.invalid("Invalid set operation in character class", span));
                    }
                    items.push(ClassItem::SetOp(op.to_string(), span));
                    continue;
                }
                if items.iter().any(|i| matches!(i, ClassItem::SetOp(..)))
                    && !matches!(items.last(), Some(ClassItem::SetOp(..)))
                {
                    return Err(self.invalid(
                        "Invalid set operation in character class",
                        Span::new(item_start, item_start + c.len_utf8()),
                    ));
                }
                // A doubled reserved punctuator is kept for future set syntax.
                if "&!#$%*+,.:;<=>?@^`~".contains(c) && self.peek_at(1) == Some(c) {
                    return Err(self.invalid(
                        "Invalid set operation in character class",
                        Span::new(item_start, item_start + 2),
                    ));
                }
                // `&&` is never followed by `&` (`[a&&&b]`).
                let after_and = matches!(items.last(), Some(ClassItem::SetOp(o, _)) if o == "&&");
                if "()[{}/-|".contains(c) || (c == '&' && after_and) {
                    return Err(self.invalid(
                        "Invalid character in character class",
                        Span::new(item_start, item_start + c.len_utf8()),
                    ));
                }
                if self.rest().starts_with("\\q{") {
                    items.push(self.parse_class_strings()?);
                    continue;
                }
            }
            let item = self.parse_class_atom()?;
            if self.re2() && !set_operations && !matches!(item, ClassItem::Char(..)) {
                // Go: a class escape (`\d`, `\pL`) is never a range's start; a `-` after it
                // is a character.
                items.push(item);
                continue;
            }
            // A range?
            let v_mode_op =
                self.flavor.is_js() && self.flags.unicode_sets && self.rest().starts_with("--");
            if self.peek() == Some('-') && self.peek_at(1).is_some_and(|n| n != ']') && !v_mode_op {
                let dash = self.pos;
                self.bump();
                if set_operations && self.rest().starts_with('-') {
                    self.pos = dash;
                    items.push(item);
                    continue;
                }
                if self.flavor.is_js() && self.flags.unicode_sets {
                    self.v_mode_range_end()?;
                }
                let hi = self.parse_class_atom()?;
                let span = Span::new(item_start, self.pos);
                match (&item, &hi) {
                    (ClassItem::Char(lo, lo_span), ClassItem::Char(h, h_span)) => {
                        if self.written_code(*lo, *lo_span) > self.written_code(*h, *h_span) {
                            return Err(self.invalid(
                                self.text(|t| t.class_range_order, &self.pat[span.start..span.end]),
                                span,
                            ));
                        }
                        // A range is not an operand of a set operation: `[a--b-c]`.
                        if self.flavor.is_js()
                            && self.flags.unicode_sets
                            && matches!(items.last(), Some(ClassItem::SetOp(..)))
                        {
                            return Err(
                                self.invalid("Invalid set operation in character class", span)
                            );
                        }
                        items.push(ClassItem::Range(*lo, *h, span));
                    }
                    _ => {
                        if self.flavor.is_js() && !self.js_unicode() {
                            // Annex B: `[\w-a]` is \w, '-', 'a'.
                            items.push(item);
                            items.push(ClassItem::Char('-', Span::new(dash, dash + 1)));
                            items.push(hi);
                        } else {
                            // Go quotes the escape it could not read as a character.
                            let piece = if self.re2() && !set_operations {
                                let hi_start = dash + 1;
                                let end = self.pat[hi_start..]
                                    .char_indices()
                                    .nth(2)
                                    .map_or(self.pat.len(), |(i, _)| hi_start + i);
                                &self.pat[hi_start..end]
                            } else {
                                &self.pat[span.start..span.end]
                            };
                            return Err(
                                self.invalid(self.text(|t| t.class_range_boundary, piece), span)
                            );
                        }
                    }
                }
                continue;
            }
            items.push(item);
        }
        let class = Class {
            negated,
            items,
            span: Span::new(start, self.pos),
        };
        if negated && self.flavor.is_js() && class.may_contain_strings() {
            return Err(self.invalid("Negated character class may contain strings", class.span));
        }
        Ok(class)
    }

    /// A `v`-mode `\q{…}` string literal: alternatives separated by `|`, each a sequence of
    /// class set characters (syntax characters and doubled punctuators escaped).
    fn parse_class_strings(&mut self) -> Result<ClassItem, Error> {
        let start = self.pos;
        self.pos += 3; // `\q{`
        let mut alternatives = vec![String::new()];
        loop {
            let item_start = self.pos;
            let Some(c) = self.peek() else {
                return Err(self.invalid("Invalid escape", Span::new(start, self.pat.len())));
            };
            match c {
                '}' => {
                    self.bump();
                    break;
                }
                '|' => {
                    self.bump();
                    alternatives.push(String::new());
                }
                '\\' => {
                    if self.peek_at(1) == Some('q') {
                        self.pos += 2;
                        return Err(self.invalid("Invalid escape", Span::new(item_start, self.pos)));
                    }
                    let ch = match self.peek_at(1) {
                        Some('b') => {
                            self.pos += 2;
                            '\u{8}'
                        }
                        Some(p) if "&-!#%,:;<=>@`~".contains(p) => {
                            self.pos += 2;
                            p
                        }
                        _ => {
                            self.bump();
                            self.parse_char_escape(item_start, true)?.0
                        }
                    };
                    alternatives.last_mut().expect("one alternative").push(ch);
                }
                _ if "()[]{}/-".contains(c) => {
                    return Err(self.invalid(
                        "Invalid character in character class",
                        Span::new(item_start, item_start + 1),
                    ));
                }
                _ if "&!#$%*+,.:;<=>?@^`~".contains(c) && self.peek_at(1) == Some(c) => {
                    return Err(self.invalid(
                        "Invalid set operation in character class",
                        Span::new(item_start, item_start + 2),
                    ));
                }
                _ => {
                    self.bump();
                    alternatives.last_mut().expect("one alternative").push(c);
                }
            }
        }
        Ok(ClassItem::Strings(alternatives, Span::new(start, self.pos)))
    }

    /// `[:name:]` inside a class. An unknown name is an error where the engine says so (Go),
    /// and not a POSIX class at all elsewhere.
    fn try_posix(&mut self) -> Result<Option<ClassItem>, Error> {
        let rest = self.rest();
        if !rest.starts_with("[:") {
            return Ok(None);
        }
        let Some(close) = rest.find(":]") else {
            return Ok(None);
        };
        let body = &rest[2..close];
        let (negated, name) = match body.strip_prefix('^') {
            Some(n) => (true, n),
            None => (false, body),
        };
        const NAMES: &[&str] = &[
            "alnum", "alpha", "ascii", "blank", "cntrl", "digit", "graph", "lower", "print",
            "punct", "space", "upper", "word", "xdigit",
        ];
        if !NAMES.contains(&name) {
            if self.rules.syntax.class_set_operations {
                return Ok(None);
            }
            let span = Span::new(self.pos, self.pos + close + 2);
            return Err(self.invalid(
                self.text(|t| t.unknown_posix_class, &self.pat[span.start..span.end]),
                span,
            ));
        }
        let start = self.pos;
        self.pos += close + 2;
        Ok(Some(ClassItem::Posix(
            name.to_string(),
            negated,
            Span::new(start, self.pos),
        )))
    }

    fn parse_class_atom(&mut self) -> Result<ClassItem, Error> {
        let start = self.pos;
        let c = self.bump();
        if c != '\\' {
            return Ok(ClassItem::Char(c, Span::new(start, self.pos)));
        }
        let Some(e) = self.peek() else {
            return Err(self.invalid(
                self.text(|t| t.class_trailing_backslash, ""),
                Span::new(start, self.pos),
            ));
        };
        if let Some((kind, negated)) = perl_of(e) {
            self.bump();
            return Ok(ClassItem::Perl(kind, negated, Span::new(start, self.pos)));
        }
        if (e == 'p' || e == 'P') && (self.re2() || self.js_unicode()) {
            let (name, negated) = self.parse_property(start)?;
            return Ok(ClassItem::Property(
                name,
                negated,
                Span::new(start, self.pos),
            ));
        }
        match (self.flavor, e) {
            (Flavor::Python(_), 'A' | 'Z' | 'B' | '8' | '9') => {
                self.bump();
                return Err(self.invalid(format!("bad escape \\{e}"), Span::new(start, self.pos)));
            }
            (Flavor::Js(_), 'B') if self.js_unicode() => {
                self.bump();
                return Err(self.invalid("Invalid class escape", Span::new(start, self.pos)));
            }
            (Flavor::Js(_), '1'..='9') if self.js_unicode() => {
                self.bump();
                return Err(self.invalid("Invalid class escape", Span::new(start, self.pos)));
            }
            (Flavor::Js(_), 'k') if self.js_unicode() => {
                self.bump();
                return Err(self.invalid("Invalid escape", Span::new(start, self.pos)));
            }
            (Flavor::Js(_), '8' | '9') => {
                self.bump();
                return Ok(ClassItem::Char(e, Span::new(start, self.pos)));
            }
            (Flavor::Js(_), '-') if self.js_unicode() => {
                self.bump();
                return Ok(ClassItem::Char('-', Span::new(start, self.pos)));
            }
            _ => {}
        }
        let (ch, _) = self.parse_char_escape(start, true)?;
        Ok(ClassItem::Char(ch, Span::new(start, self.pos)))
    }
}

impl Frame {
    fn branch_start_of_body(&self) -> usize {
        // The first branch starts after the group opener; `branch_start` is updated at each
        // `|`, so the body starts at the earliest recorded branch.
        self.branches
            .first()
            .map_or(self.branch_start, |b| b.span.start)
    }
}

impl GroupKind {
    fn into_node(kind: GroupKind, child: Node) -> NodeKind {
        NodeKind::Group {
            kind,
            child: Box::new(child),
        }
    }
}

fn concat_node(mut nodes: Vec<Node>, start: usize, end: usize) -> Node {
    match nodes.len() {
        0 => Node {
            kind: NodeKind::Empty,
            span: Span::new(start, end),
        },
        1 if nodes[0].span == Span::new(start, end) => nodes.pop().unwrap(),
        _ => Node {
            kind: NodeKind::Concat(nodes),
            span: Span::new(start, end),
        },
    }
}

fn finish_branches(
    mut branches: Vec<Node>,
    concat: Vec<Node>,
    branch_start: usize,
    body_start: usize,
    end: usize,
) -> Node {
    let last = concat_node(concat, branch_start, end);
    if branches.is_empty() {
        return last;
    }
    branches.push(last);
    Node {
        kind: NodeKind::Alternation(branches),
        span: Span::new(body_start, end),
    }
}

fn perl_of(c: char) -> Option<(PerlKind, bool)> {
    Some(match c {
        'd' => (PerlKind::Digit, false),
        'D' => (PerlKind::Digit, true),
        'w' => (PerlKind::Word, false),
        'W' => (PerlKind::Word, true),
        's' => (PerlKind::Space, false),
        'S' => (PerlKind::Space, true),
        _ => return None,
    })
}

fn is_rust_escapable(c: char) -> bool {
    // regex-syntax: meta characters and any ASCII non-alphanumeric, non-whitespace char.
    c.is_ascii() && !c.is_ascii_alphanumeric() && !c.is_ascii_whitespace() && c != '<' && c != '>'
        || c == ' '
}

/// Turns on one inline flag letter. Python's `u` only says that `\w` and case folding are
/// Unicode (the default for a str pattern): it turns the `a` flag off, and is not JavaScript's
/// `u`.
fn set_flag(flags: &mut Flags, flavor: Flavor, c: char) {
    if flavor.is_python() && c == 'u' {
        flags.ascii = false;
    } else {
        flags.set(c, true);
    }
}

/// Python's `repr()` of a string, as CPython's messages quote names: single quotes unless the
/// text holds one and no double quote; control characters escaped.
fn py_repr(s: &str) -> String {
    crate::python_names::repr_where(s, |c| {
        !((c as u32) < 0x20 || (0x7F..0xA0).contains(&(c as u32)))
    })
}

/// What Python's `int()` reads from a group reference before 3.12: surrounding white space,
/// a sign, decimal digits of any script with single underscores between them. `None` for
/// what it refuses and for negative numbers (CPython reports both as a bad character).
fn python_int(s: &str) -> Option<u32> {
    let space = |c: char| c.is_whitespace() || ('\u{1c}'..='\u{1f}').contains(&c);
    let s = s.trim_matches(space);
    let (negative, digits) = match s.as_bytes().first() {
        Some(b'+') => (false, &s[1..]),
        Some(b'-') => (true, &s[1..]),
        _ => (false, s),
    };
    if digits.is_empty()
        || digits.starts_with('_')
        || digits.ends_with('_')
        || digits.contains("__")
    {
        return None;
    }
    let mut n: u64 = 0;
    for c in digits.chars().filter(|&c| c != '_') {
        n = n
            .saturating_mul(10)
            .saturating_add(u64::from(decimal_value(c)?));
    }
    if negative && n != 0 {
        return None;
    }
    Some(u32::try_from(n).unwrap_or(u32::MAX))
}

/// The value of a decimal digit of any script (Unicode `Nd`, whose ranges are runs of ten
/// from zero).
fn decimal_value(c: char) -> Option<u32> {
    if let Some(d) = c.to_digit(10) {
        return Some(d);
    }
    static ND: std::sync::OnceLock<Vec<(char, char)>> = std::sync::OnceLock::new();
    let nd = ND.get_or_init(
        || match regex_syntax::parse(r"\p{Nd}").map(|h| h.into_kind()) {
            Ok(regex_syntax::hir::HirKind::Class(regex_syntax::hir::Class::Unicode(c))) => {
                c.ranges().iter().map(|r| (r.start(), r.end())).collect()
            }
            _ => Vec::new(),
        },
    );
    nd.iter()
        .find(|&&(lo, hi)| (lo..=hi).contains(&c))
        .map(|&(lo, _)| (c as u32 - lo as u32) % 10)
}

fn valid_group_name(name: &str, flavor: Flavor) -> bool {
    let mut chars = name.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    let rules = flavor.rules();
    match rules.group_names {
        // CPython's `str.isidentifier()`, of the release's own Unicode data.
        GroupNames::Identifier if flavor.is_python() => flavor
            .py_version()
            .is_some_and(|v| crate::python_names::is_identifier(v, name)),
        GroupNames::Identifier => {
            (first == '_' || first.is_alphabetic())
                && chars.all(|c| c == '_' || c.is_alphanumeric())
        }
        // Decoded and checked by `js_group_name`.
        GroupNames::Ecma => true,
        // Go's `isValidCaptureName`, RE2's `IsValidCaptureName`: the tables' characters,
        // anywhere (a digit first included).
        GroupNames::Tables => rules.tables.is_some_and(|t| {
            std::iter::once(first)
                .chain(chars)
                .all(|c| t.capture_name_char(c))
        }),
        GroupNames::RegexSyntax => {
            (first == '_' || first.is_alphabetic())
                && chars
                    .all(|c| c == '_' || c == '.' || c == '[' || c == ']' || c.is_alphanumeric())
        }
    }
}

fn parse_bounds(body: &str, flavor: Flavor) -> Option<(u64, Option<u64>)> {
    let zeros = flavor.rules().syntax.leading_zeros_in_counts;
    let num = |s: &str| -> Option<u64> {
        if s.is_empty()
            || !s.chars().all(|c| c.is_ascii_digit())
            || (!zeros && s.len() > 1 && s.starts_with('0'))
        {
            None
        } else {
            Some(s.parse::<u64>().unwrap_or(u64::MAX))
        }
    };
    let spaces = flavor.rules().syntax.spaces_in_counts;
    let body = if spaces { body.trim() } else { body };
    match body.split_once(',') {
        None => num(body).map(|n| (n, Some(n))),
        Some((lo, hi)) => {
            let (lo, hi) = if spaces {
                (lo.trim(), hi.trim())
            } else {
                (lo, hi)
            };
            let min = if lo.is_empty() && flavor.is_python() {
                Some(0)
            } else {
                num(lo)
            }?;
            if hi.is_empty() {
                Some((min, None))
            } else {
                Some((min, Some(num(hi)?)))
            }
        }
    }
}

/// The height of the tree as Go's `regexp/syntax` counts it for its nesting limit: a capture,
/// a repetition, an alternation and a sequence of several items are levels; a non-capturing
/// group is none.
fn go_height(root: &Node) -> u32 {
    let mut tallest = 0;
    let mut stack = vec![(root, 1u32)];
    while let Some((node, height)) = stack.pop() {
        tallest = tallest.max(height);
        let level = match &node.kind {
            NodeKind::Group { kind, .. } => u32::from(matches!(kind, GroupKind::Capture { .. })),
            NodeKind::Concat(items) => u32::from(items.len() > 1),
            _ => 1,
        };
        for child in node.children() {
            stack.push((child, height + level));
        }
    }
    tallest
}

/// Whether the tree holds a `\B`.
fn has_not_word_boundary(root: &Node) -> bool {
    let mut found = false;
    root.walk(|n, _| {
        found |= matches!(
            n.kind,
            NodeKind::Anchor {
                kind: AnchorKind::NotWordBoundary,
                ..
            }
        );
    });
    found
}

/// Go's `repeatIsValid`: whether a counted repetition `{min,max}` of `child` and the counted
/// repetitions inside it multiply to at most `limit`. Each `{n,m}` divides what is left by its
/// largest count (`{0}` ends the check below it); `*`, `+` and `?` count for nothing.
fn repeat_product_within(min: u32, max: Option<u32>, child: &Node, pat: &str, limit: u32) -> bool {
    fn divide(min: u32, max: Option<u32>, budget: u32) -> Option<Option<u32>> {
        if max == Some(0) {
            return Some(None);
        }
        let m = max.unwrap_or(min);
        if m > budget {
            return None;
        }
        Some(Some(budget.checked_div(m).unwrap_or(budget)))
    }
    let Some(Some(budget)) = divide(min, max, limit) else {
        return divide(min, max, limit).is_some();
    };
    let mut stack = vec![(child, budget)];
    while let Some((node, budget)) = stack.pop() {
        let mut budget = budget;
        if let NodeKind::Repeat {
            min, max, op_span, ..
        } = &node.kind
            && pat[op_span.start..].starts_with('{')
        {
            match divide(*min, *max, budget) {
                None => return false,
                Some(None) => continue,
                Some(Some(left)) => budget = left,
            }
        }
        for child in node.children() {
            stack.push((child, budget));
        }
    }
    true
}

/// Gives JavaScript's forward named references (`\k<n>(?<n>a)`, recorded with index 0 while
/// the group was not yet seen) the index of the group they name. Iterative, so deep trees are
/// fine.
fn patch_forward_references(root: &mut Node, groups: &[GroupInfo]) {
    let mut stack: Vec<&mut Node> = vec![root];
    while let Some(n) = stack.pop() {
        match &mut n.kind {
            NodeKind::Backref {
                index,
                name: Some(name),
            } if *index == 0 => {
                if let Some(g) = groups.iter().find(|g| g.name.as_deref() == Some(name)) {
                    *index = g.index;
                }
            }
            NodeKind::Group { child, .. } | NodeKind::Repeat { child, .. } => stack.push(child),
            NodeKind::Concat(v) | NodeKind::Alternation(v) => stack.extend(v.iter_mut()),
            _ => {}
        }
    }
}

/// The fixed width in characters of a node, or `None` when it varies (a backreference
/// counts as varying).
pub fn fixed_width(node: &Node) -> Option<u32> {
    fixed_width_in(node, &[])
}

/// As [`fixed_width`], with a backreference as wide as its group when that group's width is
/// fixed (`groups` as in [`Ast::groups`]), as CPython measures a look-behind. A capturing
/// group that has closed is taken at its recorded width. Evaluated with an explicit stack, so
/// deep nesting is safe.
pub fn fixed_width_in(node: &Node, groups: &[GroupInfo]) -> Option<u32> {
    enum Step<'n> {
        Enter(&'n Node),
        Exit(&'n Node, usize),
    }
    let group = |index: u32| groups.get((index as usize).checked_sub(1)?);
    let mut work = vec![Step::Enter(node)];
    let mut widths: Vec<Option<u32>> = Vec::new();
    while let Some(step) = work.pop() {
        match step {
            Step::Enter(n) => match &n.kind {
                NodeKind::Empty
                | NodeKind::Anchor { .. }
                | NodeKind::SetFlags(_)
                | NodeKind::Comment
                | NodeKind::Whitespace => widths.push(Some(0)),
                // A v-flag class that may match a string of several characters.
                _ if n.may_match_strings() => widths.push(None),
                NodeKind::Literal { .. }
                | NodeKind::Dot { .. }
                | NodeKind::Perl { .. }
                | NodeKind::Property { .. }
                | NodeKind::Class(_) => widths.push(Some(1)),
                NodeKind::Backref { index, .. } => widths.push(group(*index).and_then(|g| g.width)),
                NodeKind::Group { kind, child } => match kind {
                    GroupKind::Lookahead
                    | GroupKind::NegativeLookahead
                    | GroupKind::Lookbehind
                    | GroupKind::NegativeLookbehind => widths.push(Some(0)),
                    GroupKind::Capture { index, .. }
                        if group(*index).is_some_and(|g| g.span.end > g.span.start) =>
                    {
                        widths.push(group(*index).and_then(|g| g.width));
                    }
                    _ => {
                        work.push(Step::Exit(n, 1));
                        work.push(Step::Enter(child));
                    }
                },
                NodeKind::Repeat { child, .. } => {
                    work.push(Step::Exit(n, 1));
                    work.push(Step::Enter(child));
                }
                NodeKind::Concat(v) | NodeKind::Alternation(v) => {
                    work.push(Step::Exit(n, v.len()));
                    work.extend(v.iter().rev().map(Step::Enter));
                }
            },
            Step::Exit(n, count) => {
                let parts = widths.split_off(widths.len() - count);
                let w = match &n.kind {
                    NodeKind::Repeat { min, max, .. } => match parts[0] {
                        // A repeated zero-width node is zero-width whatever the counts
                        // (CPython accepts `(?<!(^)*)`).
                        Some(0) => Some(0),
                        Some(w) if Some(*min) == *max => w.checked_mul(*min),
                        _ => None,
                    },
                    NodeKind::Concat(_) => {
                        parts.iter().try_fold(0u32, |acc, w| acc.checked_add((*w)?))
                    }
                    NodeKind::Alternation(_) => {
                        let first = parts.first().copied().flatten();
                        if parts.iter().all(|w| *w == first) {
                            first
                        } else {
                            None
                        }
                    }
                    _ => parts[0],
                };
                widths.push(w);
            }
        }
    }
    widths.pop().flatten()
}

/// Counts JS capturing groups and whether any is named, skipping escapes and classes.
/// Whether two places among alternatives are in different branches of one alternation.
fn exclusive(a: &[(u32, u32)], b: &[(u32, u32)]) -> bool {
    a.iter()
        .zip(b)
        .take_while(|(x, y)| x.0 == y.0)
        .any(|(x, y)| x.1 != y.1)
}

fn count_js_groups(pat: &str) -> (u32, bool) {
    let b = pat.as_bytes();
    let (mut i, mut n, mut named, mut in_class) = (0, 0u32, false, false);
    while i < b.len() {
        match b[i] {
            b'\\' => i += 1,
            b'[' => in_class = true,
            b']' => in_class = false,
            b'(' if !in_class => {
                if b.get(i + 1) != Some(&b'?') {
                    n += 1;
                } else if b.get(i + 2) == Some(&b'<')
                    && !matches!(b.get(i + 3), Some(b'=') | Some(b'!'))
                {
                    n += 1;
                    named = true;
                }
            }
            _ => {}
        }
        i += 1;
    }
    (n, named)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flavor::PyVersion;

    fn p(pat: &str, flavor: Flavor) -> Result<Ast, Error> {
        parse(pat, flavor, Flags::default())
    }

    fn py(v: PyVersion) -> Flavor {
        Flavor::Python(v)
    }

    /// Asserts that each pattern is refused in `flavor` with its message.
    fn assert_errors(flavor: Flavor, cases: &[(&str, &str)]) {
        for (pat, message) in cases {
            let e = p(pat, flavor).expect_err(pat);
            assert_eq!(e.message, *message, "{pat} in {flavor}");
        }
    }

    /// The items of a pattern's top-level concatenation.
    fn items(ast: &Ast) -> &[Node] {
        let NodeKind::Concat(v) = &ast.root.kind else {
            panic!("not a concatenation: {:?}", ast.root.kind)
        };
        v
    }

    fn py_err(pat: &str, v: PyVersion) -> String {
        match p(pat, py(v)) {
            Ok(_) => format!("accepted by {v}"),
            Err(e) => e.message,
        }
    }

    /// 3.11 made global flags after the start an error; before, they were a warning and
    /// applied to the whole pattern.
    #[test]
    fn global_flags_after_the_start_are_an_error_from_3_11_and_global_before() {
        for pat in [r"(?i)x(?i)", "a(?i)b", "(?:(?i)x)", "a|(?i)b", "((?s).)"] {
            for v in [PyVersion::V3_11, PyVersion::V3_12, PyVersion::V3_13] {
                assert_eq!(
                    py_err(pat, v),
                    "global flags not at the start of the expression",
                    "{pat} {v}"
                );
            }
            for v in [PyVersion::V3_8, PyVersion::V3_9, PyVersion::V3_10] {
                assert!(p(pat, py(v)).is_ok(), "{pat} {v}");
            }
        }
        // The whole pattern is case-insensitive, and a late `x` makes all of it verbose.
        let ast = p("a(?i)b", py(PyVersion::V3_8)).unwrap();
        assert!(ast.flags.ignore_case);
        let ast = p("a b(?x)", py(PyVersion::V3_9)).unwrap();
        assert!(ast.flags.verbose);
        let NodeKind::Concat(items) = &ast.root.kind else {
            panic!("{:?}", ast.root)
        };
        assert!(matches!(items[1].kind, NodeKind::Whitespace), "{items:?}");
        // Leading flags stay fine everywhere.
        assert!(p("(?i)(?m)a", py(PyVersion::V3_13)).is_ok());
    }

    /// Regression: `(?:(?i)x)` was accepted as if the group's start were the pattern's.
    #[test]
    fn regression_global_flags_inside_a_group_at_the_start_are_not_at_the_start() {
        assert_eq!(
            py_err("(?:(?i)x)", PyVersion::V3_11),
            "global flags not at the start of the expression"
        );
    }

    #[test]
    fn atomic_groups_and_possessive_quantifiers_are_new_in_3_11() {
        for v in [PyVersion::V3_8, PyVersion::V3_9, PyVersion::V3_10] {
            assert_eq!(py_err("(?>a)", v), "unknown extension ?>");
            for pat in ["a++", "a*+", "a?+", "a{1,2}+"] {
                let e = p(pat, py(v)).unwrap_err();
                assert_eq!(e.message, "multiple repeat", "{pat}");
                assert_eq!(e.span.map(|s| s.start), Some(pat.len() - 1), "{pat}");
            }
        }
        for pat in ["(?>a)", "a++", "a{1,2}+"] {
            assert!(p(pat, py(PyVersion::V3_11)).is_ok(), "{pat}");
        }
    }

    /// Up to 3.11 a conditional's group number is whatever `int()` reads; 3.12 wants ASCII
    /// digits. Regression: `()(?(+1)a|b)` was refused as 3.12 does, for every release.
    #[test]
    fn conditional_group_numbers_are_read_as_int_up_to_3_11() {
        for pat in [
            r"()(?(+1)a|b)",
            r"(a)(?( 1)a|b)",
            r"(a)(?(1 )a|b)",
            r"(a)(?(١)a|b)",
        ] {
            for v in [PyVersion::V3_8, PyVersion::V3_11] {
                assert!(p(pat, py(v)).is_ok(), "{pat} {v}");
            }
            assert!(
                py_err(pat, PyVersion::V3_12).starts_with("bad character in group name '"),
                "{pat}"
            );
        }
        assert_errors(
            py(PyVersion::V3_11),
            &[
                (r"(a)(?(1_0)a|b)", "invalid group reference 10"),
                (r"(a)(?(-1)a|b)", "bad character in group name '-1'"),
            ],
        );
        assert_errors(
            py(PyVersion::V3_8),
            &[(r"(a)(?(1_0)a|b)", "invalid SRE code")],
        );
    }

    /// Regression: a look-behind holding a backreference was refused; CPython measures the
    /// backreference as its group when the group's width is fixed.
    #[test]
    fn regression_lookbehind_holds_a_backreference_to_a_fixed_width_group() {
        for pat in [r"(a)a(?<=\1)c", r"(?P<n>ab)(?<=(?P=n))c", r"(a)(?<!\1\1)x"] {
            assert!(p(pat, Flavor::PYTHON).is_ok(), "{pat}");
        }
        for pat in [r"(a+)a(?<=\1)c", r"(a|bc)(?<=\1)"] {
            assert_eq!(
                py_err(pat, PyVersion::V3_11),
                "look-behind requires fixed-width pattern",
                "{pat}"
            );
        }
    }

    /// Regression: references from inside a look-behind to a group still open or defined in
    /// the same look-behind were accepted.
    #[test]
    fn regression_lookbehind_references_reach_only_groups_closed_before_it() {
        assert_errors(
            py(PyVersion::V3_11),
            &[
                (r"(a)b(?<=(?(2)b|x))(c)", "cannot refer to an open group"),
                (
                    r"(a)b(?<=(a)(?(2)b|x))(c)",
                    "cannot refer to group defined in the same lookbehind subpattern",
                ),
                (
                    r"(a)(?<=(b)\2)c",
                    "cannot refer to group defined in the same lookbehind subpattern",
                ),
            ],
        );
        assert!(p(r"(a)(?<=(?(1)b|x))c", Flavor::PYTHON).is_ok());
    }

    /// Regression: `(?u)` was accepted with the `a` flag; CPython refuses the pair.
    #[test]
    fn regression_global_u_and_the_a_flag_exclude_each_other() {
        let a = Flags::parse("a", Flavor::PYTHON).unwrap();
        let e = parse(r"(?u)\w", Flavor::PYTHON, a).unwrap_err();
        assert_eq!(e.message, "ASCII and UNICODE flags are incompatible");
        assert_eq!(
            py_err(r"(?a)(?u)x", PyVersion::V3_11),
            "ASCII and UNICODE flags are incompatible"
        );
        // Scoped `(?u:…)` under `a` is fine (and turns ASCII off inside).
        assert!(parse(r"(?u:\w)", Flavor::PYTHON, a).is_ok());
    }

    /// Regression: a `v`-mode class with a doubled reserved punctuator (`[..]`) parsed, where
    /// node rejects it.
    #[test]
    fn js_v_mode_rejects_doubled_reserved_punctuators() {
        let v = Flags::parse("v", Flavor::JS).unwrap();
        for pat in ["[..]", "[ж..]", "[a!!b]", "[^^^a]", "[a~~]", "[a,,]"] {
            let err = parse(pat, Flavor::JS, v).unwrap_err();
            assert_eq!(err.kind, ErrorKind::PatternInvalid, "{pat}");
            assert_eq!(err.message, "Invalid set operation in character class");
        }
        for pat in ["[.]", "[.a.]", "[^a]", "[a&&b]"] {
            assert!(parse(pat, Flavor::JS, v).is_ok(), "{pat}");
        }
        assert!(parse("[..]", Flavor::JS, Flags::parse("u", Flavor::JS).unwrap()).is_ok());
    }

    /// Regression: `[\!]` and the other escaped reserved punctuators were refused in a `v`
    /// class, where node accepts them (outside a class they stay invalid escapes).
    #[test]
    fn regression_js_v_class_accepts_escaped_reserved_punctuators() {
        for c in "&-!#%,:;<=>@`~".chars() {
            assert!(js(&format!("[\\{c}]"), "v").is_ok(), "[\\{c}]");
            assert!(js(&format!("[\\q{{\\{c}}}]"), "v").is_ok(), "\\q{{\\{c}}}");
            assert!(
                js(&format!("[\\{c}]"), "u").is_err() || c == '-',
                "[\\{c}] under u"
            );
            assert_eq!(
                js(&format!("\\{c}"), "v").unwrap_err().message,
                "Invalid escape",
                "\\{c}"
            );
        }
        assert!(js(r"[\_]", "v").is_err());
    }

    /// Regression: a `v`-mode range ending in a syntax character (`[a-}]`) parsed, where node
    /// refuses it as it refuses the same character alone.
    #[test]
    fn regression_js_v_class_range_end_is_a_class_set_character() {
        for (pat, message) in [
            ("[a-}]", "Invalid character in character class"),
            ("[a-{]", "Invalid character in character class"),
            ("[a-(]", "Invalid character in character class"),
            ("[a-)]", "Invalid character in character class"),
            ("[a-/]", "Invalid character in character class"),
            ("[a-|]", "Invalid character in character class"),
            (r"[\bd-}]", "Invalid character in character class"),
            ("[a-[]", "Invalid character class"),
            ("[a-&&b]", "Invalid set operation in character class"),
        ] {
            assert_eq!(js(pat, "v").unwrap_err().message, message, "{pat}");
        }
        for pat in [r"[a-\}]", "[!-!]", "[&-&]", "[a-z]"] {
            assert!(js(pat, "v").is_ok(), "{pat}");
        }
        // Without `v` the same ranges are fine.
        assert!(js("[(-}]", "u").is_ok());
    }

    /// Regression: `v`-mode set operations with a range as an operand (`[a-z--a]`) or an
    /// operator right after another (`[a&&&&b]`, `[a&&&b]`) parsed, where node refuses them.
    #[test]
    fn regression_js_v_set_operations_take_no_ranges_and_no_doubled_operators() {
        for (pat, message) in [
            ("[a-z--a]", "Invalid set operation in character class"),
            (r"[\cn-9--a]", "Invalid set operation in character class"),
            ("[a--b-c]", "Invalid set operation in character class"),
            ("[a&&b-c]", "Invalid set operation in character class"),
            ("[a--&&b]", "Invalid set operation in character class"),
            ("[a&&&&b]", "Invalid character in character class"),
            (r"[[0-9]&&&&\d]", "Invalid character in character class"),
            ("[a----b]", "Invalid character in character class"),
            ("[a&&--b]", "Invalid character in character class"),
            ("[a&&&b]", "Invalid character in character class"),
            ("[a---b]", "Invalid character in character class"),
        ] {
            assert_eq!(js(pat, "v").unwrap_err().message, message, "{pat}");
        }
        for pat in [
            "[[a-z]--a]",
            "[a--b--c]",
            "[a&&b&&c]",
            "[a-z&]",
            "[&a]",
            r"[a&&\&]",
        ] {
            assert!(js(pat, "v").is_ok(), "{pat}");
        }
    }

    fn js(pat: &str, flags: &str) -> Result<Ast, Error> {
        parse(pat, Flavor::JS, Flags::parse(flags, Flavor::JS).unwrap())
    }

    #[test]
    fn regression_js_group_names_follow_regexp_identifier_name() {
        for (pat, flags, name) in [
            (r"(?<\u{03C0}>a)", "u", "π"),
            (r"(?<\u{03C0}>a)", "", "π"),
            (r"(?<\u03C0>a)", "", "π"),
            (r"(?<_\u200C\u200D>a)", "u", "_\u{200C}\u{200D}"),
            (r"(?<a\uD801\uDCA4>.)", "u", "a𐒤"),
            ("(?<𝒜>a)", "", "𝒜"),
            ("(?<$𝒜>a)", "u", "$𝒜"),
        ] {
            let ast = js(pat, flags).unwrap_or_else(|e| panic!("{pat}: {e}"));
            assert_eq!(ast.groups[0].name.as_deref(), Some(name), "{pat}");
        }
        // The reference is decoded the same way.
        assert!(js(r"(?<\u{03C0}>a)\k<π>", "u").is_ok());
        for bad in [
            r"(?<a\uD801>.)",
            r"(?<\u{110000}>.)",
            "(?<1a>.)",
            r"(?<\u0031>.)",
        ] {
            assert!(js(bad, "u").is_err(), "{bad}");
        }
    }

    #[test]
    fn regression_js_lone_surrogate_escapes_under_u_parse() {
        for pat in [r"^|\udf06", r"\ud800", r"\u{dc00}", r"[\udf06]"] {
            assert!(js(pat, "u").is_ok(), "{pat}");
        }
        assert_eq!(crate::escaped_surrogate(r"\udf06"), Some(0xDF06));
        assert_eq!(crate::escaped_surrogate(r"\u{D800}"), Some(0xD800));
        assert_eq!(crate::escaped_surrogate("\u{F0000}"), None);
    }

    #[test]
    fn regression_js_property_names_are_ecmascripts_exact_spellings() {
        for bad in [
            r"\p{ascii}",
            r"\p{ General_Category=Uppercase_Letter }",
            r"\p{gc=uppercaseletter}",
            r"\p{IsScript=Adlam}",
            r"\p{General_Category:Letter}",
            r"\p{Hyphen}",
            r"\p{Other_Alphabetic}",
            r"\p{Grapheme_Link}",
        ] {
            let e = js(bad, "u").unwrap_err();
            assert_eq!(e.message, "Invalid property name", "{bad}");
        }
        for good in [
            r"\p{Script=Unknown}",
            r"\p{sc=Zzzz}",
            r"\p{gc=Cs}",
            r"\p{Surrogate}",
            r"\p{CWKCF}",
        ] {
            assert!(js(good, "u").is_ok(), "{good}");
        }
    }

    #[test]
    fn spans_of_a_simple_concat() {
        let ast = p("ab*", Flavor::PYTHON).unwrap();
        let v = items(&ast);
        assert_eq!(v[0].span, Span::new(0, 1));
        assert_eq!(v[1].span, Span::new(1, 3));
    }

    #[test]
    fn python_errors_name_the_problem() {
        assert_errors(
            Flavor::PYTHON,
            &[
                ("(a", "missing ), unterminated subpattern"),
                ("[a", "unterminated character set"),
                ("a**", "multiple repeat"),
                ("*", "nothing to repeat"),
                (r"\q", r"bad escape \q"),
                (r"(a)\2", "invalid group reference 2"),
                (r"a(?i)", "global flags not at the start of the expression"),
                (r"(?<=a+)", "look-behind requires fixed-width pattern"),
            ],
        );
    }

    #[test]
    fn error_span_points_at_the_construct() {
        let e = p("ab(cd", Flavor::PYTHON).unwrap_err();
        assert_eq!(e.span, Some(Span::new(2, 5)));
        let e = p("a{3,1}", Flavor::JS).unwrap_err();
        assert_eq!(e.span, Some(Span::new(1, 6)));
    }

    #[test]
    fn python_brace_is_literal_when_not_a_quantifier() {
        let ast = p("a{x}", Flavor::PYTHON).unwrap();
        let v = items(&ast);
        assert_eq!(v.len(), 4);
        let ast = p("a{,3}", Flavor::PYTHON).unwrap();
        assert!(matches!(
            ast.root.kind,
            NodeKind::Repeat {
                min: 0,
                max: Some(3),
                ..
            }
        ));
    }

    #[test]
    fn python_possessive_and_named() {
        let ast = p("(?P<x>a)++(?P=x)", Flavor::PYTHON).unwrap();
        assert_eq!(ast.groups[0].name.as_deref(), Some("x"));
        let v = items(&ast);
        assert!(matches!(
            v[0].kind,
            NodeKind::Repeat {
                greed: Greed::Possessive,
                ..
            }
        ));
        assert!(matches!(v[1].kind, NodeKind::Backref { index: 1, .. }));
    }

    #[test]
    fn js_octal_versus_backref() {
        let ast = p(r"(a)\1\2", Flavor::JS).unwrap();
        let v = items(&ast);
        assert!(matches!(v[1].kind, NodeKind::Backref { index: 1, .. }));
        assert!(matches!(v[2].kind, NodeKind::Literal { ch: '\u{2}', .. }));
    }

    #[test]
    fn named_escape_in_python() {
        let ast = p(r"\N{EM DASH}", Flavor::PYTHON).unwrap();
        assert!(matches!(
            ast.root.kind,
            NodeKind::Literal {
                ch: '—',
                form: LiteralForm::Named
            }
        ));
    }

    #[test]
    fn regression_comment_before_quantifier_is_skipped_in_python() {
        // CPython: `a(?#x)+` and (verbose) `a #c\n+` both mean `a+`.
        for (pat, flags) in [("a(?#x)+", ""), ("a #c\n+", "x")] {
            let ast = parse(
                pat,
                Flavor::PYTHON,
                Flags::parse(flags, Flavor::PYTHON).unwrap(),
            )
            .unwrap();
            assert!(matches!(ast.root.kind, NodeKind::Repeat { .. }), "{pat:?}");
            assert_eq!(ast.root.span, Span::new(0, pat.len()));
        }
    }

    #[test]
    fn regression_verbose_space_before_quantifier_does_not_overlap() {
        // The space in `a +b` used to stay a sibling after the repeat whose span covers it.
        let ast = parse(
            "a +b",
            Flavor::Rust,
            Flags::parse("x", Flavor::Rust).unwrap(),
        )
        .unwrap();
        let v = items(&ast);
        assert_eq!(v.len(), 2);
        assert_eq!(v[0].span, Span::new(0, 3));
        assert_eq!(v[1].span, Span::new(3, 4));
    }

    #[test]
    fn regression_rust_word_boundary_then_counted_repetition() {
        // regex-syntax accepts `a\b{2}` as `a` then `\b` repeated twice.
        let ast = p(r"a\b{2}", Flavor::Rust).unwrap();
        let v = items(&ast);
        assert!(matches!(v[1].kind, NodeKind::Repeat { min: 2, .. }));
        assert!(p(r"\b{start}", Flavor::Rust).is_ok());
        assert!(p(r"\b{bogus}", Flavor::Rust).is_err());
    }

    #[test]
    fn regression_js_paren_in_a_verbose_comment_does_not_make_a_backreference() {
        // A fuzzing find: the up-front group count saw the `(` in the comment, so `\1` became
        // a reference to a group that does not exist.
        let flags = Flags::parse("x", Flavor::JS).unwrap();
        let ast = parse(r"\1\w#(?(1)", Flavor::JS, flags).unwrap();
        assert!(ast.groups.is_empty());
        let mut backrefs = 0;
        ast.root.walk(|n, _| {
            if matches!(n.kind, NodeKind::Backref { .. }) {
                backrefs += 1;
            }
        });
        assert_eq!(backrefs, 0);
    }

    #[test]
    fn deep_nesting_does_not_overflow() {
        let pat = "(".repeat(20_000) + &")".repeat(20_000);
        assert!(p(&pat, Flavor::JS).is_ok());
    }
}

//! The reader of PCRE2 syntax (the `pcre2` flavor: PCRE2 10.42 in UTF mode, as Debian ships
//! it).
//!
//! PCRE2's grammar is read here left to right, as `pcre2_compile`'s parse pass reads it, with
//! the texts of `pcre2_get_error_message` (`missing closing parenthesis`, `quantifier does not
//! follow a repeatable item`). What rxw reproduces exactly is written out as sre constructs of
//! the same meaning, with no flags: the reader carries PCRE2's flags itself, so a `(?i)` in
//! the middle of a group reaches every later branch of it as PCRE2's does. Under `i` a letter
//! is the class of its caseless set, from PCRE2's own table ([`crate::pcre2_unicode::fold`]);
//! `\d \w \s \b` and the POSIX classes are ASCII, as PCRE2 without UCP has them; `.` is not
//! LF, `^` under `m` is not after a final newline, `$` is sre's, `\Z` `\z` `\R` `\h` `\v` are
//! written out; a look-behind of several branches is one look-behind a branch (PCRE2 lets
//! each branch have its own fixed length). The sre text is read by the sre grammar
//! (python@3.11) and every span is mapped back onto the PCRE2 text, so the tree describes
//! what was written and the matcher runs it.
//!
//! What rxw cannot reproduce exactly is refused with [`ErrorKind::ConstructUnsupported`],
//! saying what: recursion and subroutine calls (`(?R)`, `(?1)`, `(?&n)`, `\g<n>`), `\K`,
//! backtracking verbs but `(*FAIL)`, branch reset `(?|…)`, `\p{…}` and `\X` (PCRE2's Unicode
//! properties), UCP's classes (`u` with `\d \w \s \b` or a POSIX class), `\G`, `\C`, callouts,
//! the `n`, `U`, `J` and `xx` options, and what the sre grammar reads differently (a
//! backreference to a later group).

use crate::ast::{Ast, Span};
use crate::error::{Error, ErrorKind};
use crate::flavor::Flags;
use crate::fold_table::normalize;
use crate::reader::ascii::{self, DIGIT, SPACE, WORD};
use crate::reader::{self, Cursor, Piece, Switches, refusal};

/// A PCRE2 pattern read: the sre text of the same meaning, and where each piece came from.
pub(crate) struct Read {
    /// The sre text, to be parsed as [`crate::reader::sre_flavor`] with no flags.
    pub out: String,
    pieces: Vec<Piece>,
    /// A reference to a group that does not exist: PCRE2's error once the look-behinds are
    /// checked.
    pending: Option<(Error, bool)>,
}

/// Parses a PCRE2 pattern: its sre text carries no flags (the reader wrote them out).
pub(crate) fn parse(
    pattern: &str,
    flags: Flags,
    parse_sre: reader::ParseSre,
) -> Result<Ast, Error> {
    let read = read(pattern, flags)?;
    let parsed = parse_sre(&read.out, Flags::default());
    finish(pattern, read, parsed)
}

/// Reads a PCRE2 pattern into sre text.
///
/// # Errors
/// [`ErrorKind::PatternInvalid`] with PCRE2's text, or [`ErrorKind::ConstructUnsupported`]
/// for what rxw does not reproduce.
pub(crate) fn read(pattern: &str, flags: Flags) -> Result<Read, Error> {
    let mut r = Reader::new(pattern, flags);
    r.read()?;
    let Some((missing, in_lookbehind)) = r.missing_reference() else {
        return Ok(Read {
            out: r.cur.out,
            pieces: r.cur.pieces,
            pending: None,
        });
    };
    // PCRE2 checks its look-behinds before it finds a reference to a group that does not
    // exist: read again with such references failing, so the sre parser can say whether a
    // look-behind has no fixed length, and keep the reference's error for after it.
    let groups = std::mem::take(&mut r.groups);
    let mut again = Reader::new(pattern, flags);
    again.final_groups = Some(groups);
    again.read()?;
    Ok(Read {
        out: again.cur.out,
        pieces: again.cur.pieces,
        pending: Some((missing, in_lookbehind)),
    })
}

/// The tree of the sre text `parsed`, mapped back onto the PCRE2 `pattern`.
///
/// # Errors
/// PCRE2's `lookbehind assertion is not fixed length` when the sre parser found a look-behind
/// of no fixed width, else [`ErrorKind::ConstructUnsupported`] for what the sre parser
/// refused (what PCRE2 reads differently from rxw's matcher).
pub(crate) fn finish(pattern: &str, read: Read, parsed: Result<Ast, Error>) -> Result<Ast, Error> {
    let whole = Span::new(0, pattern.len());
    let not_fixed = || {
        Error::new(
            ErrorKind::PatternInvalid,
            "lookbehind assertion is not fixed length",
        )
        .with_span_in(pattern, Some(whole))
    };
    if let Some((e, in_lookbehind)) = read.pending {
        return Err(match parsed {
            // PCRE2 measures a look-behind left to right and says the first of the two it
            // meets there: rxw does not measure, so it cannot say which.
            Err(p) if p.message.contains("look-behind") && in_lookbehind => unsupported(
                pattern,
                "which error PCRE2 gives first for a look-behind of no fixed length holding a \
                 reference to a group that does not exist",
                whole,
            ),
            Err(p) if p.message.contains("look-behind") => not_fixed(),
            _ => e,
        });
    }
    reader::finish(pattern, read.pieces, parsed, ("pcre2", "PCRE2"), |e| {
        (e.message.contains("look-behind") && !e.message.contains("group reference"))
            .then(not_fixed)
    })
}

fn unsupported(pattern: &str, what: &str, span: Span) -> Error {
    refusal("pcre2", pattern, what, span)
}

/// The texts of `pcre2_get_error_message` this reader gives (PCRE2 10.42's numbering).
mod text {
    pub const BACKSLASH_END: &str = "\\ at end of pattern";
    pub const C_END: &str = "\\c at end of pattern";
    pub const BAD_ESCAPE: &str = "unrecognized character follows \\";
    pub const COUNT_ORDER: &str = "numbers out of order in {} quantifier";
    pub const COUNT_BIG: &str = "number too big in {} quantifier";
    pub const CLASS_UNCLOSED: &str = "missing terminating ] for character class";
    pub const CLASS_ESCAPE: &str = "escape sequence is invalid in character class";
    pub const RANGE_ORDER: &str = "range out of order in character class";
    pub const NOTHING_TO_REPEAT: &str = "quantifier does not follow a repeatable item";
    pub const BAD_OPENER: &str = "unrecognized character after (? or (?-";
    pub const POSIX_OUTSIDE: &str = "POSIX named classes are supported only within a class";
    pub const POSIX_COLLATING: &str = "POSIX collating elements are not supported";
    pub const MISSING_PAREN: &str = "missing closing parenthesis";
    pub const NO_SUCH_GROUP: &str = "reference to non-existent subpattern";
    pub const COMMENT_UNCLOSED: &str = "missing ) after (?# comment";
    pub const UNMATCHED_PAREN: &str = "unmatched closing parenthesis";
    pub const COND_UNCLOSED: &str = "missing closing parenthesis for condition";
    pub const RELATIVE_ZERO: &str = "a relative value of zero is not allowed";
    pub const COND_BRANCHES: &str = "conditional subpattern contains more than two branches";
    pub const COND_ASSERTION: &str = "assertion expected after (?( or (?(?C)";
    pub const POSIX_UNKNOWN: &str = "unknown POSIX class name";
    pub const CODE_POINT_BIG: &str = "character code point value in \\x{} or \\o{} is too large";
    pub const PERL_ONLY: &str = "PCRE2 does not support \\F, \\L, \\l, \\N{name}, \\U, or \\u";
    pub const AFTER_P: &str = "unrecognized character after (?P";
    pub const NAME_SYNTAX: &str = "syntax error in subpattern name (missing terminator?)";
    pub const NAME_TWICE: &str =
        "two named subpatterns have the same name (PCRE2_DUPNAMES not set)";
    pub const NAME_DIGIT: &str = "subpattern name must start with a non-digit";
    pub const NAME_LONG: &str = "subpattern name is too long (maximum 32 code units)";
    pub const RANGE_INVALID: &str = "invalid range in character class";
    pub const O_BRACE: &str = "missing opening brace after \\o";
    pub const G_SYNTAX: &str = "\\g is not followed by a braced, angle-bracketed, or quoted name/number or by a plain number";
    pub const VERB_UNKNOWN: &str = "(*VERB) not recognized or malformed";
    pub const NAME_EXPECTED: &str = "subpattern name expected";
    pub const O_DIGITS: &str = "non-octal character in \\o{} (closing brace missing?)";
    pub const X_DIGITS: &str = "non-hex character in \\x{} (closing brace missing?)";
    pub const C_PRINTABLE: &str = "\\c must be followed by a printable ASCII character";
    pub const K_SYNTAX: &str = "\\k is not followed by a braced, angle-bracketed, or quoted name";
    pub const N_IN_CLASS: &str = "\\N is not supported in a class";
    pub const SURROGATE: &str = "disallowed Unicode code point (>= 0xd800 && <= 0xdfff)";
    pub const DIGITS_MISSING: &str = "digits missing in \\x{} or \\o{} or \\N{U+}";
    pub const HYPHEN: &str = "invalid hyphen in option setting";
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum FrameKind {
    Outer,
    Plain,
    LookAhead,
    /// A look-behind: each branch is written as a look-behind of its own.
    LookBehind {
        negative: bool,
    },
    /// A conditional group: how many `|` so far.
    Conditional {
        bars: usize,
    },
}

struct Frame {
    kind: FrameKind,
    saved: Switches,
    /// Where the group's sre text starts.
    out_open: usize,
}

/// What a quantifier would repeat.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Last {
    /// Nothing repeatable: a quantifier is `quantifier does not follow a repeatable item`.
    Nothing,
    /// An atom, whose sre text starts at the offset; `wrap` when sre needs it in a group to
    /// repeat it (a look-ahead).
    Atom { out: usize, wrap: bool },
    /// A quantified atom.
    Quantified,
}

/// A backreference to check once every group is known: a number or a name, and where.
enum Reference {
    Number(usize, usize),
    Name(String, usize),
}

const HSPACE: &[(u32, u32)] = &[
    (0x09, 0x09),
    (0x20, 0x20),
    (0xa0, 0xa0),
    (0x1680, 0x1680),
    (0x180e, 0x180e),
    (0x2000, 0x200a),
    (0x202f, 0x202f),
    (0x205f, 0x205f),
    (0x3000, 0x3000),
];
const VSPACE: &[(u32, u32)] = &[(0x0a, 0x0d), (0x85, 0x85), (0x2028, 0x2029)];
const MAX_CHAR: u32 = 0x10ffff;

fn complement(set: &[(u32, u32)]) -> Vec<(u32, u32)> {
    reader::complement(set, MAX_CHAR)
}

/// A code point as an sre escape.
fn sre_char(c: u32) -> String {
    match char::from_u32(c) {
        Some(ch) if ch.is_ascii_alphanumeric() => ch.to_string(),
        Some(ch) if ch.is_ascii_punctuation() => format!("\\{ch}"),
        _ if c < 0x100 => format!("\\x{c:02x}"),
        _ if c < 0x10000 => format!("\\u{c:04x}"),
        _ => format!("\\U{c:08x}"),
    }
}

/// A set as an sre class.
fn sre_class(set: &[(u32, u32)], negated: bool) -> String {
    let mut s = String::from(if negated { "[^" } else { "[" });
    for &(lo, hi) in set {
        // Surrogates cannot be written in sre text; no UTF-8 text holds one.
        let pieces: Vec<(u32, u32)> = if lo < 0xe000 && hi >= 0xd800 {
            [(lo, 0xd7ff), (0xe000, hi)]
                .into_iter()
                .filter(|(a, b)| a <= b)
                .collect()
        } else {
            vec![(lo, hi)]
        };
        for (a, b) in pieces {
            s.push_str(&sre_char(a));
            if b > a {
                s.push('-');
                s.push_str(&sre_char(b));
            }
        }
    }
    if set.is_empty() {
        // An empty set matches nothing: a class of one surrogate stand-in would be wrong.
        return if negated {
            "(?s:.)".to_string()
        } else {
            "(?!)".to_string()
        };
    }
    s.push(']');
    s
}

/// One item of a class: a character (a possible range end) or a set.
enum ClassAtom {
    Char(u32),
    Set(Vec<(u32, u32)>),
}

struct Reader<'p> {
    cur: Cursor<'p>,
    /// The flags the reader carries (PCRE2's options that change what a construct means).
    flags: Switches,
    /// PCRE2_UCP (`u`, or `(*UCP)` at the start): Unicode classes, refused.
    ucp: bool,
    frames: Vec<Frame>,
    /// The names of the groups opened so far, by number - 1.
    groups: Vec<Option<String>>,
    references: Vec<Reference>,
    last: Last,
    /// Inside `\Q…\E`.
    quoting: bool,
    /// The groups of the whole pattern, when reading it again after a missing reference.
    final_groups: Option<Vec<Option<String>>>,
    /// For each of `references`, whether a look-behind holds it.
    reference_in_lookbehind: Vec<bool>,
    /// Errors PCRE2 finds as it compiles, after parsing: where, and the error.
    late: Vec<(usize, Error)>,
    /// The last atom is `\R`.
    last_is_r: bool,
    /// Where a `\R` is repeated.
    repeated_r: Option<usize>,
    /// A `\s` is written somewhere.
    uses_space: bool,
}

crate::reader::reads_with_cursor!(Reader);

impl<'p> Reader<'p> {
    fn new(pat: &'p str, flags: Flags) -> Reader<'p> {
        let ucp = flags.unicode;
        let flags = Switches::from(flags);
        Reader {
            cur: Cursor::new(pat, "pcre2"),
            flags,
            ucp,
            frames: vec![Frame {
                kind: FrameKind::Outer,
                saved: flags,
                out_open: 0,
            }],
            groups: Vec::new(),
            references: Vec::new(),
            last: Last::Nothing,
            quoting: false,
            final_groups: None,
            reference_in_lookbehind: Vec::new(),
            late: Vec::new(),
            last_is_r: false,
            repeated_r: None,
            uses_space: false,
        }
    }

    fn looking_at(&self, s: &str) -> bool {
        self.pat[self.here()..].starts_with(s)
    }

    /// PCRE2's error `text`, its caret on char `from`.
    fn error(&self, text: &str, from: usize) -> Error {
        self.invalid(text, from, from + 1)
    }

    fn in_lookbehind(&self) -> bool {
        self.frames
            .iter()
            .any(|f| matches!(f.kind, FrameKind::LookBehind { .. }))
    }

    /// Writes an atom a quantifier may follow.
    fn atom(&mut self, text: &str, from: usize, wrap: bool) {
        self.last_is_r = false;
        let out = self.out.len();
        self.emit(text, from);
        self.last = Last::Atom { out, wrap };
    }

    /// Writes an assertion no quantifier may follow.
    fn assertion(&mut self, text: &str, from: usize) {
        self.emit(text, from);
        self.last = Last::Nothing;
    }

    fn literal(&mut self, c: u32, from: usize) -> Result<(), Error> {
        if (0xd800..0xe000).contains(&c) {
            return Err(self.error(text::SURROGATE, from));
        }
        let text = if self.flags.i {
            let orbit = crate::fold_table::orbit(crate::pcre2_unicode::fold::ORBITS, c);
            if orbit.len() > 1 {
                let set: Vec<(u32, u32)> = orbit.into_iter().map(|m| (m, m)).collect();
                sre_class(&normalize(set), false)
            } else {
                sre_char(c)
            }
        } else {
            sre_char(c)
        };
        self.atom(&text, from, false);
        Ok(())
    }

    /// Writes a class of the characters and ranges `cased` (closed under PCRE2's caseless
    /// sets under `i`) and the sets `plain` (`\d`, `[:alpha:]`: PCRE2 folds none of them).
    fn class_set(
        &mut self,
        cased: Vec<(u32, u32)>,
        plain: Vec<(u32, u32)>,
        negated: bool,
        from: usize,
    ) {
        let mut set = normalize(cased);
        if self.flags.i {
            set = crate::fold_table::closure(crate::pcre2_unicode::fold::ORBITS, &set);
        }
        set.extend(plain);
        let set = normalize(set);
        let text = sre_class(&set, negated);
        self.atom(&text, from, false);
    }

    fn skip_extended(&mut self) {
        if self.flags.x && !self.quoting {
            self.skip_blank(is_pattern_space, |c| c == '\n');
        }
    }

    fn read(&mut self) -> Result<(), Error> {
        self.start_options()?;
        loop {
            self.skip_extended();
            let Some(c) = self.peek() else { break };
            let from = self.pos;
            if self.quoting {
                if self.looking_at("\\E") {
                    self.pos += 2;
                    self.quoting = false;
                } else {
                    self.pos += 1;
                    self.literal(c as u32, from)?;
                }
                continue;
            }
            match c {
                '\\' => self.escape()?,
                '(' => self.open()?,
                ')' => self.close()?,
                '|' => {
                    self.pos += 1;
                    self.bar(from)?;
                }
                '[' => self.class()?,
                '*' | '+' | '?' => self.quantifier()?,
                '{' if self.count_at(self.pos).is_some() => self.quantifier()?,
                '.' => {
                    self.pos += 1;
                    let text = if self.flags.s { "(?s:.)" } else { "[^\\n]" };
                    self.atom(text, from, false);
                }
                '^' | '$' => {
                    self.pos += 1;
                    let text = match (c, self.flags.m) {
                        ('^', true) => "(?:\\A|(?<=\\n)(?!\\Z))",
                        ('^', false) => "\\A",
                        (_, true) => "(?=\\n|\\Z)",
                        (_, false) => "(?=\\n?\\Z)",
                    };
                    self.assertion(text, from);
                }
                _ => {
                    self.pos += 1;
                    self.literal(c as u32, from)?;
                }
            }
        }
        if self.frames.len() > 1 {
            return Err(self.error(text::MISSING_PAREN, self.chars.len()));
        }
        if let Some(at) = self.repeated_r
            && self.uses_space
        {
            // PCRE2 10.42 makes a repeated \R possessive before a \s (its auto-possessifying
            // table takes them for disjoint): `\R*\s` does not match "\n".
            return Err(self.refuse(
                "a repeated \\R with a \\s in the pattern (PCRE2 10.42 makes such an \\R \
                 possessive before \\s)",
                at,
            ));
        }
        Ok(())
    }

    /// Whether a reference names a group the whole pattern has (`groups`, or the first
    /// pass's when reading again).
    fn exists(&self, r: &Reference) -> bool {
        let groups = self.final_groups.as_ref().unwrap_or(&self.groups);
        match r {
            Reference::Number(n, _) => *n <= groups.len(),
            Reference::Name(name, _) => groups.iter().any(|g| g.as_deref() == Some(name)),
        }
    }

    /// PCRE2's error for the first reference to a group the pattern does not have.
    /// The first error PCRE2 finds once the whole pattern is parsed (a reference to a group
    /// that does not exist, a conditional of three branches), with whether a look-behind holds
    /// it (PCRE2 then finds it while it measures the look-behind).
    fn missing_reference(&self) -> Option<(Error, bool)> {
        let mut found: Vec<(usize, Error, bool)> = self
            .references
            .iter()
            .zip(&self.reference_in_lookbehind)
            .filter(|(r, _)| !self.exists(r))
            .map(|(r, inside)| {
                let at = match r {
                    Reference::Number(_, at) | Reference::Name(_, at) => *at,
                };
                (at, self.error(text::NO_SUCH_GROUP, at), *inside)
            })
            .collect();
        found.extend(self.late.iter().map(|(at, e)| (*at, e.clone(), false)));
        found.sort_by_key(|f| (!f.2, f.0));
        found.into_iter().next().map(|(_, e, inside)| (e, inside))
    }

    /// Records a reference; whether its group exists.
    fn reference(&mut self, r: Reference) -> bool {
        let exists = self.exists(&r);
        self.references.push(r);
        let inside = self.in_lookbehind();
        self.reference_in_lookbehind.push(inside);
        exists
    }

    /// `(*UTF)`, `(*UCP)` and the other options PCRE2 reads at the very start.
    fn start_options(&mut self) -> Result<(), Error> {
        while self.looking_at("(*") {
            let from = self.pos;
            let rest = &self.pat[self.here() + 2..];
            let Some(end) = rest.find(')') else { break };
            let name = &rest[..end];
            let upper = name.chars().all(|c| c.is_ascii_uppercase() || c == '_');
            if !upper || name.is_empty() {
                break;
            }
            match name {
                "UTF" => {}
                "UCP" => self.ucp = true,
                "F" | "FAIL" | "ACCEPT" | "COMMIT" | "PRUNE" | "SKIP" | "THEN" => break,
                _ => {
                    self.pos += 2 + name.chars().count() + 1;
                    return Err(
                        self.refuse(&format!("the start-of-pattern option (*{name})"), from)
                    );
                }
            }
            self.pos += 2 + name.chars().count() + 1;
        }
        self.frames[0].saved = self.flags;
        Ok(())
    }

    fn bar(&mut self, from: usize) -> Result<(), Error> {
        let kind = self.frames.last().expect("outer").kind;
        match kind {
            FrameKind::LookBehind { negative } => {
                let text = if negative { ")(?<!" } else { ")|(?<=" };
                self.emit(text, from);
            }
            FrameKind::Conditional { bars } => {
                if bars >= 1 && self.final_groups.is_none() {
                    // Found as PCRE2 compiles the group, after the whole pattern is parsed.
                    let e = self.error(text::COND_BRANCHES, from);
                    self.late.push((from, e));
                }
                self.frames.last_mut().expect("frame").kind =
                    FrameKind::Conditional { bars: bars + 1 };
                self.emit("|", from);
            }
            _ => self.emit("|", from),
        }
        self.last = Last::Nothing;
        Ok(())
    }

    /// Opens a group whose opener was just written.
    fn push(&mut self, kind: FrameKind) {
        let out_open = self.pieces.last().map_or(0, |p| p.0);
        self.frames.push(Frame {
            kind,
            saved: self.flags,
            out_open,
        });
        self.last = Last::Nothing;
    }

    fn close(&mut self) -> Result<(), Error> {
        let from = self.pos;
        if self.frames.len() == 1 {
            return Err(self.error(text::UNMATCHED_PAREN, from));
        }
        self.pos += 1;
        let frame = self.frames.pop().expect("a group");
        self.flags = frame.saved;
        let (text, wrap) = match frame.kind {
            FrameKind::LookBehind { .. } => ("))", false),
            FrameKind::LookAhead => (")", true),
            _ => (")", false),
        };
        let out = frame.out_open;
        self.emit(text, from);
        self.last = Last::Atom { out, wrap };
        Ok(())
    }

    /// A group name ending in `end`, read from the current position: PCRE2's name rules.
    fn name(&mut self, end: char) -> Result<String, Error> {
        let start = self.pos;
        if self.peek().is_some_and(|c| c.is_ascii_digit()) {
            return Err(self.error(text::NAME_DIGIT, self.pos));
        }
        let mut name = String::new();
        while let Some(c) = self.peek() {
            if c.is_ascii_alphanumeric() || c == '_' {
                name.push(c);
                self.pos += 1;
            } else if !c.is_ascii() && c.is_alphanumeric() {
                return Err(self.refuse("a group name with a non-ASCII letter", start));
            } else {
                break;
            }
        }
        if name.len() > 32 {
            return Err(self.error(text::NAME_LONG, self.pos));
        }
        if name.is_empty() {
            return Err(self.error(text::NAME_EXPECTED, self.pos));
        }
        if self.peek() != Some(end) {
            return Err(self.error(text::NAME_SYNTAX, self.pos));
        }
        self.pos += 1;
        Ok(name)
    }

    fn open_capture(&mut self, name: Option<String>, from: usize) -> Result<(), Error> {
        if let Some(n) = &name
            && self.groups.iter().any(|g| g.as_ref() == Some(n))
        {
            return Err(self.error(text::NAME_TWICE, self.pos.saturating_sub(1)));
        }
        let text = match &name {
            Some(n) => format!("(?P<{n}>"),
            None => "(".to_string(),
        };
        self.groups.push(name);
        self.emit(&text, from);
        self.push(FrameKind::Plain);
        Ok(())
    }

    fn open(&mut self) -> Result<(), Error> {
        let from = self.pos;
        self.pos += 1;
        match self.peek() {
            Some('*') => return self.verb(from),
            Some('?') => {}
            _ => return self.open_capture(None, from),
        }
        self.pos += 1;
        let Some(c) = self.peek() else {
            return Err(self.error(text::MISSING_PAREN, self.pos));
        };
        match c {
            '#' => {
                while let Some(c) = self.peek() {
                    self.pos += 1;
                    if c == ')' {
                        return Ok(());
                    }
                }
                Err(self.error(text::COMMENT_UNCLOSED, self.pos))
            }
            ':' => {
                self.pos += 1;
                self.emit("(?:", from);
                self.push(FrameKind::Plain);
                Ok(())
            }
            '>' => {
                self.pos += 1;
                self.emit("(?>", from);
                self.push(FrameKind::Plain);
                Ok(())
            }
            '=' | '!' => {
                self.pos += 1;
                self.emit(if c == '=' { "(?=" } else { "(?!" }, from);
                self.push(FrameKind::LookAhead);
                Ok(())
            }
            '|' => {
                self.pos += 1;
                Err(self.refuse("a branch reset group (?|…)", from))
            }
            '<' if matches!(self.peek_at(1), Some('=' | '!')) => {
                let negative = self.peek_at(1) == Some('!');
                self.pos += 2;
                self.emit(if negative { "(?:(?<!" } else { "(?:(?<=" }, from);
                self.push(FrameKind::LookBehind { negative });
                Ok(())
            }
            '<' if self.peek_at(1) == Some('*') => {
                self.pos += 2;
                Err(self.refuse("a non-atomic look-behind (?<*…)", from))
            }
            '*' => {
                self.pos += 1;
                Err(self.refuse("a non-atomic look-ahead (?*…)", from))
            }
            '<' | '\'' => {
                self.pos += 1;
                let name = self.name(if c == '<' { '>' } else { '\'' })?;
                self.open_capture(Some(name), from)
            }
            'P' => {
                self.pos += 1;
                match self.peek() {
                    Some('<') => {
                        self.pos += 1;
                        let name = self.name('>')?;
                        self.open_capture(Some(name), from)
                    }
                    Some('=') => {
                        self.pos += 1;
                        let name = self.name(')')?;
                        self.backref_name(name, from);
                        Ok(())
                    }
                    Some('>') => {
                        self.pos += 1;
                        Err(self.refuse("a subroutine call (?P>name)", from))
                    }
                    _ => Err(self.error(text::AFTER_P, self.pos)),
                }
            }
            '&' => {
                self.pos += 1;
                Err(self.refuse("a subroutine call (?&name)", from))
            }
            'R' if self.peek_at(1) == Some(')') => {
                self.pos += 2;
                Err(self.refuse("recursion (?R)", from))
            }
            '0'..='9' | '+' | '-'
                if c != '-' || self.peek_at(1).is_some_and(|d| d.is_ascii_digit()) =>
            {
                self.pos += 1;
                Err(self.refuse("a subroutine call (?N)", from))
            }
            '(' => self.conditional(from),
            'C' => {
                self.pos += 1;
                Err(self.refuse("a callout (?C…)", from))
            }
            _ => self.option_setting(from),
        }
    }

    fn verb(&mut self, from: usize) -> Result<(), Error> {
        // At `*` after `(`.
        let rest = &self.pat[self.here() + 1..];
        let end = rest.find(')');
        let body = end.map(|e| &rest[..e]).unwrap_or("");
        let name = body.split(':').next().unwrap_or("");
        let Some(end) = end else {
            self.pos = self.chars.len();
            return Err(self.error(text::VERB_UNKNOWN, self.pos));
        };
        let skip = 1 + rest[..end].chars().count() + 1;
        match name {
            "F" | "FAIL" if !body.contains(':') || name == "FAIL" => {
                self.pos += skip;
                if self.in_lookbehind() {
                    return Err(self.refuse("(*FAIL) in a look-behind", from));
                }
                self.assertion("(?!)", from);
                Ok(())
            }
            "ACCEPT" | "COMMIT" | "PRUNE" | "SKIP" | "THEN" | "MARK" | "" => {
                self.pos += skip;
                Err(self.refuse(&format!("the backtracking verb (*{body})"), from))
            }
            _ if name.chars().all(|c| c.is_ascii_lowercase() || c == '_') && body.contains(':') => {
                self.pos += 1 + name.len() + 1;
                Err(self.refuse(&format!("the alphabetic assertion (*{name}:…)"), from))
            }
            _ => {
                self.pos += skip;
                Err(self.error(text::VERB_UNKNOWN, self.pos - 1))
            }
        }
    }

    /// `(?i)`, `(?i-s:`, `(?^x)`: at the first letter after `(?`.
    fn option_setting(&mut self, from: usize) -> Result<(), Error> {
        let mut on = true;
        let mut flags = self.flags;
        if self.peek() == Some('^') {
            self.pos += 1;
            flags.i = false;
            flags.m = false;
            flags.s = false;
            flags.x = false;
        }
        loop {
            let Some(c) = self.peek() else {
                return Err(self.error(text::MISSING_PAREN, self.pos));
            };
            let at = self.pos;
            self.pos += 1;
            match c {
                'i' => flags.i = on,
                'm' => flags.m = on,
                's' => flags.s = on,
                'x' if on && self.peek() == Some('x') => {
                    return Err(self.refuse("the option xx", from));
                }
                'x' => flags.x = on,
                'n' | 'U' | 'J' => {
                    return Err(self.refuse(&format!("the option {c}"), from));
                }
                '-' if on => {
                    if self.chars[from + 2].1 == '^' {
                        return Err(self.error(text::HYPHEN, at));
                    }
                    on = false;
                }
                ')' => {
                    self.flags = flags;
                    // A setting is not an item: a quantifier after it repeats nothing.
                    self.last = Last::Nothing;
                    return Ok(());
                }
                ':' => {
                    self.emit("(?:", from);
                    self.push(FrameKind::Plain);
                    self.flags = flags;
                    return Ok(());
                }
                _ => return Err(self.error(text::BAD_OPENER, at)),
            }
        }
    }

    /// `(?(cond)yes|no)`: at the second `(`.
    fn conditional(&mut self, from: usize) -> Result<(), Error> {
        self.pos += 1;
        let c = self.peek();
        let cond = match c {
            Some('?' | '*') => {
                return Err(self.refuse("a conditional on an assertion", from));
            }
            Some('R') => {
                return Err(self.refuse("a recursion condition (?(R…)", from));
            }
            Some('+' | '-' | '0'..='9') => {
                let sign = c.filter(|c| !c.is_ascii_digit());
                if sign.is_some() {
                    self.pos += 1;
                }
                let at = self.pos;
                let n = self.number();
                let Some(n) = n else {
                    return Err(self.error(text::COND_ASSERTION, at));
                };
                let n = match sign {
                    Some('+') => self.groups.len() + n,
                    Some(_) if n > self.groups.len() || n == 0 => {
                        return Err(self.error(text::NO_SUCH_GROUP, at));
                    }
                    Some(_) => self.groups.len() + 1 - n,
                    None => n,
                };
                if sign.is_some() && n == self.groups.len() && sign == Some('+') {
                    return Err(self.error(text::RELATIVE_ZERO, at));
                }
                self.reference(Reference::Number(n, at));
                n.to_string()
            }
            Some('<' | '\'') => {
                self.pos += 1;
                let at = self.pos;
                let name = self.name(if c == Some('<') { '>' } else { '\'' })?;
                self.reference(Reference::Name(name.clone(), at));
                name
            }
            _ => {
                let at = self.pos;
                let mut name = String::new();
                while let Some(c) = self
                    .peek()
                    .filter(|c| c.is_ascii_alphanumeric() || *c == '_')
                {
                    name.push(c);
                    self.pos += 1;
                }
                if name == "DEFINE" {
                    return Err(self.refuse("a (?(DEFINE)…) group", from));
                }
                if name.starts_with("VERSION") {
                    return Err(self.refuse("a (?(VERSION…) condition", from));
                }
                if name.is_empty() {
                    return Err(self.error(text::COND_ASSERTION, at));
                }
                self.reference(Reference::Name(name.clone(), at));
                name
            }
        };
        if self.peek() != Some(')') {
            return Err(self.error(text::COND_UNCLOSED, self.pos));
        }
        self.pos += 1;
        if self.final_groups.is_some() {
            // Read again after a missing reference or a conditional of three branches: any
            // group will do for the sre parser.
            self.emit("(?:", from);
            self.push(FrameKind::Plain);
            return Ok(());
        }
        self.emit(&format!("(?({cond})"), from);
        self.push(FrameKind::Conditional { bars: 0 });
        Ok(())
    }

    fn number(&mut self) -> Option<usize> {
        let mut n: Option<usize> = None;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            n = Some(n.unwrap_or(0).saturating_mul(10).saturating_add(d as usize));
            self.pos += 1;
        }
        n
    }

    /// The counted repetition `{n}`, `{n,}`, `{n,m}` at char `at`: its bounds and length.
    fn count_at(&self, at: usize) -> Option<(u64, Option<u64>, usize)> {
        let mut i = at + 1;
        let digits = |i: &mut usize| {
            let start = *i;
            let mut n: u64 = 0;
            while let Some(d) = self.chars.get(*i).and_then(|c| c.1.to_digit(10)) {
                n = n.saturating_mul(10).saturating_add(d as u64);
                *i += 1;
            }
            (*i > start).then_some(n)
        };
        let min = digits(&mut i)?;
        let max = match self.chars.get(i).map(|c| c.1) {
            Some('}') => Some(min),
            Some(',') => {
                i += 1;
                digits(&mut i)
            }
            _ => return None,
        };
        if self.chars.get(i).map(|c| c.1) != Some('}') {
            return None;
        }
        Some((min, max, i + 1 - at))
    }

    fn quantifier(&mut self) -> Result<(), Error> {
        let from = self.pos;
        let c = self.peek().expect("a quantifier");
        let (mut text, len) = match c {
            '{' => {
                let (min, max, len) = self.count_at(self.pos).expect("a count");
                let end = from + len - 1;
                if min > 65535 || max.is_some_and(|m| m > 65535) {
                    let digits_end = self.chars[from..end]
                        .iter()
                        .position(|c| !c.1.is_ascii_digit() && c.1 != '{')
                        .map_or(end, |p| from + p);
                    let at = if min > 65535 { digits_end } else { end };
                    return Err(self.error(text::COUNT_BIG, at));
                }
                if max.is_some_and(|m| m < min) {
                    return Err(self.error(text::COUNT_ORDER, end));
                }
                let t = match max {
                    Some(m) if m == min => format!("{{{min}}}"),
                    Some(m) => format!("{{{min},{m}}}"),
                    None => format!("{{{min},}}"),
                };
                (t, len)
            }
            _ => (c.to_string(), 1),
        };
        let Last::Atom { out, wrap } = self.last else {
            return Err(self.error(text::NOTHING_TO_REPEAT, from));
        };
        if self.last_is_r {
            self.repeated_r = Some(from);
        }
        self.pos += len;
        match self.peek() {
            Some('?') => {
                text.push('?');
                self.pos += 1;
            }
            Some('+') => {
                text.push('+');
                self.pos += 1;
            }
            _ => {}
        }
        if wrap {
            self.wrap_from(out);
        }
        self.emit(&text, from);
        self.last = Last::Quantified;
        Ok(())
    }

    /// Puts the sre text from `out` on in a `(?:…)`, so a quantifier can follow it.
    fn wrap_from(&mut self, out: usize) {
        self.out.insert_str(out, "(?:");
        for p in &mut self.pieces {
            if p.0 >= out {
                p.0 += 3;
                p.1 += 3;
            }
        }
        let src = self
            .pieces
            .iter()
            .find(|p| p.0 == out + 3)
            .map_or(self.here(), |p| p.2);
        self.pieces.push((out, out + 3, src, src));
        self.pieces.sort_by_key(|p| p.0);
        let o = self.out.len();
        self.out.push(')');
        let e = self.here();
        self.pieces.push((o, o + 1, e, e));
    }

    fn backref_number(&mut self, n: usize, at: usize, from: usize) {
        let r = Reference::Number(n, at);
        self.backref(r, format!("(?i:\\{n})"), format!("(?:\\{n})"), from);
    }

    fn backref_name(&mut self, name: String, from: usize) {
        // The name is read with its closing character: PCRE2 points at the name.
        let at = self.pos.saturating_sub(name.chars().count() + 1);
        let (caseless, plain) = (format!("(?i:(?P={name}))"), format!("(?P={name})"));
        self.backref(Reference::Name(name, at), caseless, plain, from);
    }

    /// A backreference to the group `r` names, written as `caseless` under `i`, else `plain`;
    /// one that fails where the group does not exist.
    fn backref(&mut self, r: Reference, caseless: String, plain: String, from: usize) {
        let exists = self.reference(r);
        let text = if !exists || self.final_groups.is_some() {
            // (Read again only to check the look-behinds: no reference is needed.)
            "(?!)".to_string()
        } else if self.flags.i {
            caseless
        } else {
            plain
        };
        self.atom(&text, from, false);
    }

    fn set_escape(&mut self, set: &[(u32, u32)], negated: bool, from: usize) {
        self.class_set(Vec::new(), set.to_vec(), negated, from);
    }

    fn escape(&mut self) -> Result<(), Error> {
        let from = self.pos;
        self.pos += 1;
        let Some(c) = self.peek() else {
            return Err(self.error(text::BACKSLASH_END, from + 1));
        };
        self.pos += 1;
        let ucp_refused = |r: &Self| {
            Err(r.refuse(
                &format!("\\{c} under UCP (u), which is PCRE2's Unicode property"),
                from,
            ))
        };
        match c {
            'd' | 'D' | 'w' | 'W' | 's' | 'S' if self.ucp => ucp_refused(self),
            'b' | 'B' if self.ucp => ucp_refused(self),
            'd' | 'D' | 'w' | 'W' | 's' | 'S' | 'h' | 'H' | 'v' | 'V' => {
                let set = match c.to_ascii_lowercase() {
                    'd' => DIGIT,
                    'w' => WORD,
                    's' => {
                        self.uses_space = true;
                        SPACE
                    }
                    'h' => HSPACE,
                    _ => VSPACE,
                };
                self.set_escape(set, c.is_ascii_uppercase(), from);
                Ok(())
            }
            'R' => {
                self.atom("(?>\\r\\n|[\\n-\\r\\x85\\u2028\\u2029])", from, false);
                self.last_is_r = true;
                Ok(())
            }
            'N' if self.peek() == Some('{') && self.count_at(self.pos).is_none() => {
                if self.looking_at("{U+") {
                    self.pos += 3;
                    let c = self.digits_to(16, '}', text::X_DIGITS)?;
                    return self.literal(c, from);
                }
                Err(self.error(text::PERL_ONLY, self.pos))
            }
            'N' => {
                self.atom("[^\\n]", from, false);
                Ok(())
            }
            'b' | 'B' | 'A' | 'z' | 'Z' => {
                let text = match c {
                    'b' => {
                        "(?:(?<=[0-9A-Za-z_])(?![0-9A-Za-z_])|(?<![0-9A-Za-z_])(?=[0-9A-Za-z_]))"
                    }
                    'B' => {
                        "(?:(?<=[0-9A-Za-z_])(?=[0-9A-Za-z_])|(?<![0-9A-Za-z_])(?![0-9A-Za-z_]))"
                    }
                    'A' => "\\A",
                    'z' => "\\Z",
                    _ => "(?=\\n?\\Z)",
                };
                self.assertion(text, from);
                Ok(())
            }
            'G' => Err(self.refuse("\\G", from)),
            'K' => Err(self.refuse("\\K (a reset match start)", from)),
            'X' => Err(self.refuse("\\X (PCRE2's grapheme clusters)", from)),
            'p' | 'P' => {
                if self.peek() == Some('{') {
                    while let Some(c) = self.peek() {
                        self.pos += 1;
                        if c == '}' {
                            break;
                        }
                    }
                } else if self.peek().is_some() {
                    self.pos += 1;
                }
                Err(self.refuse("a Unicode property \\p (PCRE2's Unicode 14 tables)", from))
            }
            'C' => Err(self.refuse("\\C (one code unit)", from)),
            'Q' => {
                self.quoting = true;
                Ok(())
            }
            'E' => Ok(()),
            'g' => self.g_escape(from),
            'k' => {
                let close = match self.peek() {
                    Some('<') => '>',
                    Some('\'') => '\'',
                    Some('{') => '}',
                    _ => return Err(self.error(text::K_SYNTAX, self.pos)),
                };
                self.pos += 1;
                let name = self.name(close)?;
                self.backref_name(name, from);
                Ok(())
            }
            '1'..='9' => {
                self.pos -= 1;
                let start = self.pos;
                let n = self.number().unwrap_or(0);
                let first = c;
                if n < 10 || first == '8' || first == '9' || n <= self.groups.len() {
                    self.backref_number(n, start, from);
                    return Ok(());
                }
                // An octal escape of up to three digits, the rest literal.
                self.pos = start;
                let v = self.digits(8, 3).0;
                self.literal(v, from)
            }
            '0' => {
                let v = self.digits(8, 2).0;
                self.literal(v, from)
            }
            'o' => {
                let c = self.o_brace()?;
                self.literal(c, from)
            }
            'x' => {
                let c = self.x_escape()?;
                self.literal(c, from)
            }
            'c' => {
                let c = self.c_escape()?;
                self.literal(c, from)
            }
            'L' | 'l' | 'U' | 'u' | 'F' => Err(self.error(text::PERL_ONLY, self.pos - 1)),
            _ => match simple_escape(c) {
                Some(v) => self.literal(v, from),
                None if c.is_ascii_alphanumeric() => {
                    Err(self.error(text::BAD_ESCAPE, self.pos - 1))
                }
                None => self.literal(c as u32, from),
            },
        }
    }

    fn g_escape(&mut self, from: usize) -> Result<(), Error> {
        let at = self.pos;
        match self.peek() {
            Some('<' | '\'') => {
                while let Some(c) = self.peek() {
                    self.pos += 1;
                    if c == '>' || (c == '\'' && self.pos > at + 1) {
                        break;
                    }
                }
                Err(self.refuse("a subroutine call \\g<…>", from))
            }
            Some('{') => {
                self.pos += 1;
                let sign = self.peek().filter(|c| *c == '-' || *c == '+');
                if sign.is_some() {
                    self.pos += 1;
                }
                let n_at = self.pos;
                if let Some(n) = self.number() {
                    if self.peek() != Some('}') {
                        return Err(self.error(text::G_SYNTAX, self.pos));
                    }
                    self.pos += 1;
                    return self.g_number(sign, n, n_at, from);
                }
                if sign.is_some() {
                    return Err(self.error(text::G_SYNTAX, self.pos));
                }
                let name = self.name('}')?;
                self.backref_name(name, from);
                Ok(())
            }
            Some('+' | '-' | '0'..='9') => {
                let sign = self.peek().filter(|c| *c == '-' || *c == '+');
                if sign.is_some() {
                    self.pos += 1;
                }
                let n_at = self.pos;
                match self.number() {
                    Some(n) => self.g_number(sign, n, n_at, from),
                    None => Err(self.error(text::G_SYNTAX, self.pos)),
                }
            }
            _ => Err(self.error(text::G_SYNTAX, self.pos)),
        }
    }

    fn g_number(
        &mut self,
        sign: Option<char>,
        n: usize,
        at: usize,
        from: usize,
    ) -> Result<(), Error> {
        match sign {
            Some('+') => Err(self.refuse("a forward relative reference \\g{+n}", from)),
            Some(_) => {
                if n == 0 {
                    return Err(self.error(text::RELATIVE_ZERO, at));
                }
                if n > self.groups.len() {
                    return Err(self.error(text::NO_SUCH_GROUP, self.pos.saturating_sub(1)));
                }
                let number = self.groups.len() + 1 - n;
                self.backref_number(number, at, from);
                Ok(())
            }
            None => {
                if n == 0 {
                    return Err(self.error(text::NO_SUCH_GROUP, at));
                }
                self.backref_number(n, at, from);
                Ok(())
            }
        }
    }

    /// `\o{…}`'s octal digits (at the `{`).
    fn o_brace(&mut self) -> Result<u32, Error> {
        if self.peek() != Some('{') {
            return Err(self.error(text::O_BRACE, self.pos));
        }
        self.pos += 1;
        self.digits_to(8, '}', text::O_DIGITS)
    }

    /// Digits of `radix` up to `close` (already past `{` or `{U+`); `not_digit` is PCRE2's
    /// error for another character.
    fn digits_to(&mut self, radix: u32, close: char, not_digit: &str) -> Result<u32, Error> {
        let mut v: u64 = 0;
        let mut any = false;
        loop {
            match self.peek() {
                Some(c) if c == close && any => {
                    self.pos += 1;
                    break;
                }
                Some(c) if c == close => return Err(self.error(text::DIGITS_MISSING, self.pos)),
                Some(c) if c.is_digit(radix) => {
                    v = v * u64::from(radix) + u64::from(c.to_digit(radix).unwrap_or(0));
                    any = true;
                    self.pos += 1;
                    if v > MAX_CHAR as u64 {
                        return Err(self.error(text::CODE_POINT_BIG, self.pos));
                    }
                }
                _ => return Err(self.error(not_digit, self.pos)),
            }
        }
        Ok(v as u32)
    }

    fn x_escape(&mut self) -> Result<u32, Error> {
        if self.peek() == Some('{') {
            self.pos += 1;
            return self.digits_to(16, '}', text::X_DIGITS);
        }
        Ok(self.digits(16, 2).0)
    }

    fn c_escape(&mut self) -> Result<u32, Error> {
        let Some(c) = self.peek() else {
            return Err(self.error(text::C_END, self.pos));
        };
        if !(' '..='~').contains(&c) {
            return Err(self.error(text::C_PRINTABLE, self.pos));
        }
        self.pos += 1;
        Ok((c.to_ascii_uppercase() as u32) ^ 0x40)
    }

    /// A class `[…]`, at its `[`.
    fn class(&mut self) -> Result<(), Error> {
        let from = self.pos;
        if let Some(kind) = self.posix_at(self.pos) {
            return Err(self.error(
                if kind == ':' {
                    text::POSIX_OUTSIDE
                } else {
                    text::POSIX_COLLATING
                },
                self.pos,
            ));
        }
        self.pos += 1;
        let mut negated = false;
        if self.peek() == Some('^') {
            negated = true;
            self.pos += 1;
        }
        let mut set: Vec<(u32, u32)> = Vec::new();
        let mut plain: Vec<(u32, u32)> = Vec::new();
        let mut first = true;
        let mut quoting = false;
        loop {
            let Some(c) = self.peek() else {
                return Err(self.error(text::CLASS_UNCLOSED, self.chars.len()));
            };
            if quoting {
                if self.looking_at("\\E") {
                    self.pos += 2;
                    quoting = false;
                    continue;
                }
            } else if c == ']' && !first {
                self.pos += 1;
                break;
            }
            first = false;
            let atom = self.class_atom(&mut quoting)?;
            let Some(atom) = atom else { continue };
            // A range?
            let is_range = self.peek() == Some('-') && self.peek_at(1).is_some_and(|n| n != ']');
            match atom {
                ClassAtom::Set(s) => {
                    if is_range && !quoting {
                        return Err(self.error(text::RANGE_INVALID, self.pos));
                    }
                    plain.extend(s);
                }
                ClassAtom::Char(lo) if is_range => {
                    self.pos += 1;
                    let mut q = quoting;
                    let hi = self.class_atom(&mut q)?;
                    quoting = q;
                    match hi {
                        Some(ClassAtom::Char(hi)) => {
                            if hi < lo {
                                return Err(self.error(text::RANGE_ORDER, self.pos - 1));
                            }
                            set.push((lo, hi));
                        }
                        Some(ClassAtom::Set(_)) => {
                            return Err(self.error(text::RANGE_INVALID, self.pos - 1));
                        }
                        None => {
                            // `\E` or the like between: the hyphen is literal.
                            set.push((lo, lo));
                            set.push((0x2d, 0x2d));
                        }
                    }
                }
                ClassAtom::Char(c) => set.push((c, c)),
            }
        }
        self.class_set(set, plain, negated, from);
        Ok(())
    }

    /// `[:name:]` (or `[.`, `[=`) at char `at`: its kind, when the syntax is complete.
    fn posix_at(&self, at: usize) -> Option<char> {
        let kind = self.chars.get(at + 1).map(|c| c.1)?;
        if self.chars.get(at).map(|c| c.1) != Some('[') || !matches!(kind, ':' | '.' | '=') {
            return None;
        }
        let mut i = at + 2;
        while let Some(&(_, c)) = self.chars.get(i) {
            if c == '\\' && matches!(self.chars.get(i + 1).map(|c| c.1), Some(']' | '\\')) {
                i += 2;
                continue;
            }
            if c == '[' && matches!(self.chars.get(i + 1).map(|c| c.1), Some(':' | '.' | '=')) {
                return None;
            }
            if c == ']' {
                return None;
            }
            if c == kind && self.chars.get(i + 1).map(|c| c.1) == Some(']') {
                return Some(kind);
            }
            i += 1;
        }
        None
    }

    /// One item of a class; `None` for what adds nothing (`\E`, `\Q`).
    fn class_atom(&mut self, quoting: &mut bool) -> Result<Option<ClassAtom>, Error> {
        let from = self.pos;
        let c = self.peek().expect("a class item");
        if *quoting {
            self.pos += 1;
            return Ok(Some(ClassAtom::Char(c as u32)));
        }
        if c == '[' {
            if let Some(kind) = self.posix_at(self.pos) {
                if kind != ':' {
                    return Err(self.error(text::POSIX_COLLATING, self.pos));
                }
                self.pos += 2;
                let negated = self.peek() == Some('^');
                if negated {
                    self.pos += 1;
                }
                let mut name = String::new();
                while let Some(c) = self.peek().filter(|c| *c != ':') {
                    name.push(c);
                    self.pos += 1;
                }
                self.pos += 2;
                if self.ucp {
                    return Err(self.refuse("a POSIX class under UCP (u)", from));
                }
                // Caseless, [:upper:] and [:lower:] are [:alpha:], as PCRE2 compiles them.
                let name = if self.flags.i && (name == "upper" || name == "lower") {
                    "alpha".to_string()
                } else {
                    name
                };
                let Some(set) = ascii::posix(&name).map(<[_]>::to_vec) else {
                    return Err(self.error(text::POSIX_UNKNOWN, from + 2));
                };
                // A negated POSIX class is a complement within the first 256 characters, the
                // class's bitmap without UCP.
                let set = if negated {
                    complement(&set)
                        .into_iter()
                        .filter(|r| r.0 <= 0xff)
                        .map(|(lo, hi)| (lo, hi.min(0xff)))
                        .collect()
                } else {
                    set
                };
                return Ok(Some(ClassAtom::Set(set)));
            }
            self.pos += 1;
            return Ok(Some(ClassAtom::Char('[' as u32)));
        }
        if c != '\\' {
            self.pos += 1;
            return Ok(Some(ClassAtom::Char(c as u32)));
        }
        self.pos += 1;
        let Some(e) = self.peek() else {
            return Err(self.error(text::BACKSLASH_END, self.pos));
        };
        self.pos += 1;
        let set = |s: &[(u32, u32)], neg: bool| {
            Ok(Some(ClassAtom::Set(if neg {
                complement(s)
            } else {
                s.to_vec()
            })))
        };
        match e {
            'd' | 'D' | 'w' | 'W' | 's' | 'S' if self.ucp => Err(self.refuse(
                &format!("\\{e} under UCP (u), which is PCRE2's Unicode property"),
                from,
            )),
            'd' | 'D' => set(DIGIT, e == 'D'),
            'w' | 'W' => set(WORD, e == 'W'),
            's' | 'S' => {
                self.uses_space = true;
                set(SPACE, e == 'S')
            }
            'h' | 'H' => set(HSPACE, e == 'H'),
            'v' | 'V' => set(VSPACE, e == 'V'),
            'b' => Ok(Some(ClassAtom::Char(8))),
            'B' | 'R' | 'X' => Err(self.error(text::CLASS_ESCAPE, self.pos - 1)),
            'N' => Err(self.error(text::N_IN_CLASS, self.pos - 1)),
            'p' | 'P' => {
                Err(self.refuse("a Unicode property \\p (PCRE2's Unicode 14 tables)", from))
            }
            'Q' => {
                *quoting = true;
                Ok(None)
            }
            'E' => Ok(None),
            'x' => Ok(Some(ClassAtom::Char(self.x_escape()?))),
            'o' => Ok(Some(ClassAtom::Char(self.o_brace()?))),
            'c' => Ok(Some(ClassAtom::Char(self.c_escape()?))),
            '0'..='7' => {
                self.pos -= 1;
                Ok(Some(ClassAtom::Char(self.digits(8, 3).0)))
            }
            '8' | '9' => Err(self.error(text::BAD_ESCAPE, self.pos - 1)),
            'L' | 'l' | 'U' | 'u' | 'F' => Err(self.error(text::PERL_ONLY, self.pos - 1)),
            _ => match simple_escape(e) {
                Some(v) => Ok(Some(ClassAtom::Char(v))),
                None if e.is_ascii_alphanumeric() => {
                    Err(self.error(text::BAD_ESCAPE, self.pos - 1))
                }
                None => Ok(Some(ClassAtom::Char(e as u32))),
            },
        }
    }
}

/// `\a \e \f \n \r \t` and their code points.
fn simple_escape(c: char) -> Option<u32> {
    Some(match c {
        'a' => 7,
        'e' => 0x1b,
        'f' => 0x0c,
        'n' => 0x0a,
        'r' => 0x0d,
        't' => 0x09,
        _ => return None,
    })
}

/// White space PCRE2_EXTENDED skips in UTF mode: ASCII white space and Unicode's
/// Pattern_White_Space.
fn is_pattern_space(c: char) -> bool {
    matches!(
        c,
        ' ' | '\t'
            | '\n'
            | '\u{b}'
            | '\u{c}'
            | '\r'
            | '\u{85}'
            | '\u{200e}'
            | '\u{200f}'
            | '\u{2028}'
            | '\u{2029}'
    )
}

#[cfg(test)]
mod tests {
    use crate::flavor::{Flags, Flavor};
    use crate::{ErrorKind, Span};

    fn parse(p: &str, flags: Flags) -> Result<crate::ast::Ast, crate::Error> {
        crate::parse::parse(p, Flavor::Pcre2, flags)
    }

    #[test]
    fn errors_are_pcre2s_own_texts_with_the_caret_where_pcre2_says() {
        for (p, text, at) in [
            ("(a", "missing closing parenthesis", 2),
            ("a)", "unmatched closing parenthesis", 1),
            ("a**", "quantifier does not follow a repeatable item", 2),
            ("[a", "missing terminating ] for character class", 2),
            ("[z-a]", "range out of order in character class", 3),
            (
                "(?<n>a)(?<n>b)",
                "two named subpatterns have the same name (PCRE2_DUPNAMES not set)",
                11,
            ),
            ("\\k<x>", "reference to non-existent subpattern", 3),
            ("(?z)", "unrecognized character after (? or (?-", 2),
            ("a{3,2}", "numbers out of order in {} quantifier", 5),
        ] {
            let e = parse(p, Flags::default()).expect_err(p);
            assert_eq!(
                (e.kind, e.message.as_str()),
                (ErrorKind::PatternInvalid, text),
                "{p}"
            );
            assert_eq!(e.span.map(|s| s.start), Some(at), "{p}");
        }
    }

    #[test]
    fn what_rxw_cannot_reproduce_is_refused_saying_what() {
        for (p, said) in [
            ("a\\Kb", "\\K"),
            ("(a|(?R))", "recursion"),
            ("(a)(?1)", "subroutine call"),
            ("(?|(a)|(b))", "branch reset"),
            ("a(*SKIP)(*F)|b", "(*SKIP)"),
            ("\\p{L}", "Unicode property"),
        ] {
            let e = parse(p, Flags::default()).expect_err(p);
            assert_eq!(e.kind, ErrorKind::ConstructUnsupported, "{p}");
            assert!(
                e.message.starts_with("pcre2: ") && e.message.contains(said),
                "{p}: {}",
                e.message
            );
        }
        let ucp = Flags {
            unicode: true,
            ..Flags::default()
        };
        assert_eq!(
            parse("\\w", ucp).unwrap_err().kind,
            ErrorKind::ConstructUnsupported
        );
        assert!(parse("k", ucp).is_ok(), "u changes only the classes");
    }

    #[test]
    fn the_tree_describes_what_was_written() {
        let ast = parse("(?<year>\\d{4})|\\R", Flags::default()).expect("parses");
        assert_eq!(ast.groups[0].name.as_deref(), Some("year"));
        assert_eq!(ast.groups[0].span, Span::new(0, 14));
        assert_eq!(ast.root.span, Span::new(0, 17));
        // `\R` is written out as alternatives of one source span: no lint calls them repeats.
        let lints = crate::lint::lint(&ast, "(?<year>\\d{4})|\\R", Flavor::Pcre2);
        assert!(
            lints.iter().all(|l| l.code != "duplicate-alternative"),
            "{lints:?}"
        );
    }

    #[test]
    fn a_letter_under_i_is_its_caseless_set_from_pcre2s_table() {
        let i = Flags {
            ignore_case: true,
            ..Flags::default()
        };
        assert_eq!(super::read("k", i).expect("reads").out, "[Kk\\u212a]");
        // PCRE2 does not fold `i` with the dotless `ı` as CPython does.
        assert_eq!(super::read("i", i).expect("reads").out, "[Ii]");
    }
}

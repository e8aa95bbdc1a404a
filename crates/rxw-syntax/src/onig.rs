//! The reader of Onigmo's syntax (the `ruby` flavor) and Oniguruma's (the `oniguruma`
//! flavor), built as the Java reader is ([`crate::java`]).
//!
//! The pattern is read left to right as the engine's parser reads it, with its own error texts
//! (`target of repeat operator is not specified`, `premature end of char-class`). What rxw can
//! reproduce exactly is written out as sre constructs of the same meaning and read by the sre
//! grammar with ASCII classes and folding: `^` and `$` as the line anchors they always are
//! (`^` never after a final newline), `\z` and `\Z`, `m` as dot-all, an inline `(?i)` as a
//! group to the end of the enclosing one (its alternatives included, as Onigmo reads
//! `a(?i)b|c`), `\h` as a hex digit, `\R` as its atomic line break, every bracket class (nested
//! classes, `&&`, POSIX brackets, the fold closure under `i`) as one flat set, a look-behind
//! whose alternatives differ in width as one look-behind per alternative, `{n}?` and
//! `{n,m}+` as the repetitions of a repetition they are, a plain group as a non-capturing one
//! when the pattern names a group. Every span is mapped back to the pattern.
//!
//! What rxw cannot reproduce is refused with [`ErrorKind::ConstructUnsupported`], each with its
//! reason: subexpression calls (`\g<name>`), the absent operator `(?~…)`, conditionals, `\X`,
//! `\G`, `\K`, `\p{…}` (rxw has no tables of the engines' Unicode data), backreferences with a
//! level, a name several groups have, a repeated look-around that captures, Oniguruma's
//! look-behinds of varying width.
//! Where the meaning rests on Unicode data rxw does not hold (case folding under `i`, POSIX
//! brackets, and Oniguruma's Unicode `\w \d \s \b`), the pattern is matched on ASCII texts
//! only: [`text_rule`] says why, and the engine refuses other texts with that reason.

use crate::ast::{Ast, Span};
use crate::error::{Error, ErrorKind};
use crate::flavor::{Flags, Flavor};
use crate::reader::ascii::{DIGIT, HEX, SPACE, WORD};
use crate::reader::{self, Cursor, Piece, Switches, WHITE, ascii};
use crate::rules::onig as texts;

/// A pattern read: the sre text of the same meaning, where each piece of it came from, and
/// the reason texts outside ASCII are refused, if they are.
pub(crate) struct Read {
    /// The sre text, to be parsed as [`crate::reader::sre_flavor`] with [`crate::reader::ascii_flags`].
    pub out: String,
    pieces: Vec<Piece>,
    /// Why only ASCII texts are matched as the engine does (`None`: every text is).
    pub ascii_texts: Option<&'static str>,
}

/// Why the engine matches `pattern` as rxw does on ASCII texts only (case folding under `i`,
/// POSIX brackets, Oniguruma's Unicode classes), or `None` when every text is matched exactly
/// (and when the pattern does not read).
pub fn text_rule(pattern: &str, flavor: Flavor, flags: Flags) -> Option<&'static str> {
    read(pattern, flavor, flags)
        .ok()
        .and_then(|r| r.ascii_texts)
}

/// Parses an Onigmo or Oniguruma pattern, as [`crate::java::parse`] a Java one.
pub(crate) fn parse(
    pattern: &str,
    flavor: Flavor,
    flags: Flags,
    parse_sre: reader::ParseSre,
) -> Result<Ast, Error> {
    let read = read(pattern, flavor, flags)?;
    let parsed = parse_sre(&read.out, reader::ascii_flags());
    finish(pattern, flavor, read, parsed)
}

/// Reads an Onigmo or Oniguruma pattern into sre text.
///
/// # Errors
/// [`ErrorKind::PatternInvalid`] with the engine's text, or
/// [`ErrorKind::ConstructUnsupported`] for what rxw does not reproduce.
pub(crate) fn read(pattern: &str, flavor: Flavor, flags: Flags) -> Result<Read, Error> {
    let mut reader = Reader::new(pattern, flavor, flags);
    reader.read()?;
    let Cursor { out, pieces, .. } = reader.cur;
    let ascii_texts = reader.ascii_texts;
    Ok(Read {
        out,
        pieces,
        ascii_texts,
    })
}

/// The tree of the sre text `parsed` (or its error), mapped back onto `pattern`.
///
/// # Errors
/// The engine's look-behind error when the sre parser refused a look-behind's width, else
/// [`ErrorKind::ConstructUnsupported`].
pub(crate) fn finish(
    pattern: &str,
    flavor: Flavor,
    read: Read,
    parsed: Result<Ast, Error>,
) -> Result<Ast, Error> {
    let family = (flavor.family_name(), "the engine");
    reader::finish(pattern, read.pieces, parsed, family, |e| {
        (e.message.contains("look-behind") && matches!(flavor, Flavor::Ruby(_))).then(|| {
            Error::new(ErrorKind::PatternInvalid, texts::LOOK_BEHIND)
                .with_span_in(pattern, Some(Span::new(0, pattern.len())))
        })
    })
}

const CASE_RULE: &str = "case folding under i follows Unicode's full folding (k matches the \
                         Kelvin sign, ss matches ß), which rxw reproduces on ASCII texts only";
const POSIX_RULE: &str = "a POSIX bracket is a Unicode class, which rxw reproduces on ASCII \
                          texts only";
const ONIG_CLASS_RULE: &str = "Oniguruma's \\w \\d \\s \\b are Unicode classes of its own \
                               data, which rxw reproduces on ASCII texts only";

#[derive(Clone, Copy, PartialEq, Eq)]
enum FrameKind {
    Capture,
    Plain,
    Atomic,
    LookAhead,
    /// A look-behind, negative or not: each of its alternatives is written as a look-behind
    /// of its own.
    LookBehind {
        negative: bool,
    },
    /// The rest of a group after `(?i)`: closed with the group around it.
    Implicit,
}

struct Frame {
    kind: FrameKind,
    saved: Switches,
    /// A capture somewhere inside.
    has_capture: bool,
    /// Whether what the group holds so far is only zero-width items (`None`: nothing yet).
    zero_width_only: Option<bool>,
    any_branch_nullable: bool,
    branch_nullable: bool,
    last: Last,
    last_out: usize,
    out_open: usize,
    capture: Option<usize>,
}

impl Frame {
    fn new(kind: FrameKind, saved: Switches, out_open: usize, capture: Option<usize>) -> Frame {
        Frame {
            kind,
            saved,
            has_capture: false,
            zero_width_only: None,
            any_branch_nullable: false,
            branch_nullable: true,
            last: Last::Nothing,
            last_out: out_open,
            out_open,
            capture,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Last {
    Nothing,
    Quantified,
    ZeroWidth,
    /// A look-around: Onigmo repeats it as it repeats an anchor, Oniguruma refuses.
    LookAround {
        has_capture: bool,
    },
    Atom {
        nullable: bool,
        has_capture: bool,
    },
}

const MAX: u32 = 0x10FFFF;

/// A set of code points as sorted, disjoint, non-adjacent ranges.
#[derive(Clone, Default, PartialEq, Eq, Debug)]
struct Set(Vec<(u32, u32)>);

impl Set {
    fn range(a: u32, b: u32) -> Set {
        Set(vec![(a, b)])
    }

    fn of(ranges: &[(u32, u32)]) -> Set {
        let mut s = Set::default();
        for &(a, b) in ranges {
            s.add(a, b);
        }
        s
    }

    fn add(&mut self, a: u32, b: u32) {
        self.0.push((a, b));
        self.0.sort_unstable();
        let mut merged: Vec<(u32, u32)> = Vec::with_capacity(self.0.len());
        for &(a, b) in &self.0 {
            match merged.last_mut() {
                Some(last) if a <= last.1.saturating_add(1) => last.1 = last.1.max(b),
                _ => merged.push((a, b)),
            }
        }
        self.0 = merged;
    }

    fn union(&mut self, other: &Set) {
        for &(a, b) in &other.0 {
            self.add(a, b);
        }
    }

    fn complement(&self) -> Set {
        Set(reader::complement(&self.0, MAX))
    }

    fn intersect(&self, other: &Set) -> Set {
        self.complement().union_of(&other.complement()).complement()
    }

    fn union_of(mut self, other: &Set) -> Set {
        self.union(other);
        self
    }

    fn has_non_ascii(&self) -> bool {
        self.0.iter().any(|r| r.1 >= 0x80)
    }

    /// The ASCII letters' other case added.
    fn fold_ascii(&self) -> Set {
        let mut out = self.clone();
        for &(a, b) in &self.0 {
            for c in a..=b.min(0x7f) {
                let ch = char::from_u32(c).expect("ASCII");
                if ch.is_ascii_lowercase() {
                    out.add(c - 32, c - 32);
                } else if ch.is_ascii_uppercase() {
                    out.add(c + 32, c + 32);
                }
            }
        }
        out
    }

    /// The sre class of the set.
    fn sre(&self) -> String {
        if self.0.is_empty() {
            return r"[^\x00-\U0010ffff]".to_string();
        }
        let mut s = String::from("[");
        for &(a, b) in &self.0 {
            s.push_str(&class_char(a));
            if b > a {
                if b > a + 1 {
                    s.push('-');
                }
                s.push_str(&class_char(b));
            }
        }
        s.push(']');
        s
    }
}

fn class_char(c: u32) -> String {
    match char::from_u32(c) {
        Some(ch) if ch.is_ascii_alphanumeric() => ch.to_string(),
        _ if c < 0x100 => format!("\\x{c:02x}"),
        _ if c < 0x10000 => format!("\\u{c:04x}"),
        _ => format!("\\U{c:08x}"),
    }
}

fn sre_literal(c: char) -> String {
    if c.is_ascii_alphanumeric() || c == '_' {
        c.to_string()
    } else if c.is_ascii_graphic() {
        format!("\\{c}")
    } else {
        class_char(c as u32)
    }
}

/// The ASCII members of a POSIX bracket (its Unicode members are kept out by the text rule).
fn posix(name: &str) -> Option<&'static [(u32, u32)]> {
    match name {
        // Oniguruma's is Unicode's punctuation only, without the ASCII symbols.
        "punct_onig" => Some(&[
            (0x21, 0x23),
            (0x25, 0x2a),
            (0x2c, 0x2f),
            (0x3a, 0x3b),
            (0x3f, 0x40),
            (0x5b, 0x5d),
            (0x5f, 0x5f),
            (0x7b, 0x7b),
            (0x7d, 0x7d),
        ]),
        _ => ascii::posix(name),
    }
}

struct Reader<'p> {
    cur: Cursor<'p>,
    ruby: bool,
    /// The flags the reader tracks: `i`, `x`, and Onigmo's `m` (`.` matches a newline).
    flags: Switches,
    frames: Vec<Frame>,
    /// Capturing groups opened so far: their names.
    groups: Vec<Option<String>>,
    closed: Vec<bool>,
    /// The pattern names a group somewhere: plain groups do not capture.
    named: bool,
    ascii_texts: Option<&'static str>,
}

crate::reader::reads_with_cursor!(Reader);

impl<'p> Reader<'p> {
    fn new(pat: &'p str, flavor: Flavor, flags: Flags) -> Reader<'p> {
        let cur = Cursor::new(pat, flavor.family_name());
        Reader {
            named: names_a_group(&cur.chars),
            cur,
            ruby: matches!(flavor, Flavor::Ruby(_)),
            flags: flags.into(),
            frames: vec![Frame::new(FrameKind::Plain, Switches::default(), 0, None)],
            groups: Vec::new(),
            closed: Vec::new(),
            ascii_texts: None,
        }
    }

    /// The engine's error, pointing at the construct from char `from` to here.
    fn error(&self, text: impl Into<String>, from: usize) -> Error {
        self.invalid(text, from, self.pos.max(from + 1))
    }

    fn needs_ascii(&mut self, why: &'static str) {
        self.ascii_texts.get_or_insert(why);
    }

    fn frame(&mut self) -> &mut Frame {
        self.frames.last_mut().expect("the outer frame")
    }

    fn atom(&mut self, nullable: bool, has_capture: bool) {
        let at = self.last_emit;
        let f = self.frame();
        f.zero_width_only = Some(false);
        f.last_out = at;
        f.branch_nullable &= nullable;
        f.last = Last::Atom {
            nullable,
            has_capture,
        };
    }

    fn zero_width(&mut self) {
        let at = self.last_emit;
        let f = self.frame();
        f.zero_width_only.get_or_insert(true);
        f.last_out = at;
        f.last = Last::ZeroWidth;
    }

    /// A single character, folded under `i`.
    fn emit_char(&mut self, c: char, from: usize) -> Result<(), Error> {
        if self.flags.i {
            if !c.is_ascii() {
                return Err(self.refuse(
                    "a character outside ASCII under i (the engine's full case folding)",
                    from,
                ));
            }
            self.needs_ascii(CASE_RULE);
            if c.is_ascii_alphabetic() {
                let set = Set::range(c as u32, c as u32).fold_ascii();
                self.emit(&set.sre(), from);
                self.atom(false, false);
                return Ok(());
            }
        }
        self.emit(&sre_literal(c), from);
        self.atom(false, false);
        Ok(())
    }

    fn skip_comments(&mut self) {
        if self.flags.x {
            self.skip_blank(|c| WHITE.contains(&c), |c| c == '\n');
        }
    }

    fn read(&mut self) -> Result<(), Error> {
        loop {
            self.skip_comments();
            let start = self.pos;
            let Some(c) = self.peek() else { break };
            if self.frames.len() > 400 {
                return Err(self.refuse("nesting this deep", start));
            }
            match c {
                '\\' => self.escape()?,
                '[' => {
                    let set = self.class()?;
                    self.emit(&set.sre(), start);
                    self.atom(false, false);
                }
                '(' => self.open()?,
                ')' => self.close()?,
                '|' => {
                    self.pos += 1;
                    let text = match self.frame().kind {
                        FrameKind::LookBehind { negative: false } => ")|(?<=",
                        FrameKind::LookBehind { negative: true } => ")(?<!",
                        _ => "|",
                    };
                    self.emit(text, start);
                    let f = self.frame();
                    f.any_branch_nullable |= f.branch_nullable;
                    f.branch_nullable = true;
                    f.last = Last::Nothing;
                }
                '*' | '+' | '?' | '{' => self.quantifier()?,
                '^' => {
                    self.pos += 1;
                    self.emit(r"(?:\A|(?<=\n)(?!\Z))", start);
                    self.zero_width();
                }
                '$' => {
                    self.pos += 1;
                    self.emit(r"(?=\n|\Z)", start);
                    self.zero_width();
                }
                '.' => {
                    self.pos += 1;
                    let dot = if self.flags.m { r"[\s\S]" } else { r"[^\n]" };
                    self.emit(dot, start);
                    self.atom(false, false);
                }
                _ => {
                    self.pos += 1;
                    self.emit_char(c, start)?;
                }
            }
        }
        while self
            .frames
            .last()
            .is_some_and(|f| f.kind == FrameKind::Implicit)
            && self.frames.len() > 1
        {
            self.close_one(self.pos)?;
        }
        if self.frames.len() > 1 {
            return Err(self.error(texts::UNCLOSED_GROUP, self.chars.len()));
        }
        Ok(())
    }

    fn escape(&mut self) -> Result<(), Error> {
        let start = self.pos;
        self.pos += 1;
        let Some(c) = self.peek() else {
            let text = if self.ruby {
                "too short escape sequence"
            } else {
                "end pattern at escape"
            };
            return Err(self.error(text, start));
        };
        self.pos += 1;
        match c {
            '1'..='9' => {
                let mut n = c.to_digit(10).expect("a digit") as usize;
                let mut digits = 1;
                while let Some(d) = self.peek().filter(char::is_ascii_digit) {
                    n = n * 10 + d.to_digit(10).expect("a digit") as usize;
                    digits += 1;
                    self.pos += 1;
                    if digits > 3 {
                        break;
                    }
                }
                if digits > 1 && n > self.groups.len() {
                    return Err(self.refuse(
                        "a number after \\ that is no group (an octal escape or a backreference)",
                        start,
                    ));
                }
                self.backref(n, start)?;
            }
            'k' => {
                let Some(close) = self.name_brackets() else {
                    return Err(self.refuse("\\k not followed by <name> or 'name'", start));
                };
                let name = self.take_name(close, start)?;
                self.named_backref(&name, start)?;
            }
            'g' => {
                return Err(self.refuse(
                    "a subexpression call \\g<…> (rxw's matcher has no calls; write the group \
                     out again)",
                    start,
                ));
            }
            'd' | 'D' | 'w' | 'W' | 's' | 'S' | 'h' | 'H' => {
                let set = self.perl_set(c);
                self.emit(&set.sre(), start);
                self.atom(false, false);
            }
            'b' | 'B' => {
                if !self.ruby {
                    self.needs_ascii(ONIG_CLASS_RULE);
                }
                self.emit(&format!("\\{c}"), start);
                self.zero_width();
            }
            'A' | 'z' | 'Z' => {
                let text = match c {
                    'A' => r"\A",
                    'z' => r"\Z",
                    _ => r"(?=\n?\Z)",
                };
                self.emit(text, start);
                self.zero_width();
            }
            'R' => {
                self.emit(r"(?>\r\n|[\n\x0b\x0c\r\x85\u2028\u2029])", start);
                self.atom(false, false);
            }
            'G' => return Err(self.refuse("\\G (the search's start)", start)),
            'K' => return Err(self.refuse("\\K (keep what was matched before)", start)),
            'X' => return Err(self.refuse("\\X (extended grapheme clusters)", start)),
            'p' | 'P' => {
                return Err(self.refuse(
                    "\\p{…} (rxw has no tables of the engine's Unicode data)",
                    start,
                ));
            }
            'y' | 'Y' | 'O' | 'N' if !(self.ruby && matches!(c, 'y' | 'Y')) => {
                return Err(self.refuse(&format!("\\{c}"), start));
            }
            _ => {
                let ch = self.char_escape(c, start)?;
                self.emit_char(ch, start)?;
            }
        }
        Ok(())
    }

    /// `\d \w \s \h` and their negations: ASCII in Ruby, Unicode (ASCII texts) in Oniguruma.
    fn perl_set(&mut self, c: char) -> Set {
        let base = match c.to_ascii_lowercase() {
            'd' => DIGIT,
            'w' => WORD,
            's' => SPACE,
            _ => HEX,
        };
        if !self.ruby && !c.eq_ignore_ascii_case(&'h') {
            self.needs_ascii(ONIG_CLASS_RULE);
        }
        let set = Set::of(base);
        if c.is_ascii_uppercase() {
            set.complement()
        } else {
            set
        }
    }

    /// After `\k`: the closing bracket of `<name>` or `'name'`, the opening one read.
    fn name_brackets(&mut self) -> Option<char> {
        let close = match self.peek()? {
            '<' => '>',
            '\'' => '\'',
            _ => return None,
        };
        self.pos += 1;
        Some(close)
    }

    /// A group name up to `close` (read).
    fn take_name(&mut self, close: char, start: usize) -> Result<String, Error> {
        let mut name = String::new();
        loop {
            match self.peek() {
                None => return Err(self.error(texts::END_PATTERN_IN_GROUP, start)),
                Some(c) if c == close => {
                    self.pos += 1;
                    break;
                }
                Some(c) => {
                    name.push(c);
                    self.pos += 1;
                }
            }
        }
        if name.is_empty() {
            return Err(self.error(texts::EMPTY_GROUP_NAME, start));
        }
        Ok(name)
    }

    fn named_backref(&mut self, name: &str, start: usize) -> Result<(), Error> {
        if let Some(n) = name.strip_prefix('-').and_then(|d| d.parse::<usize>().ok()) {
            if n == 0 || n > self.groups.len() {
                return Err(self.error(texts::INVALID_BACKREF, start));
            }
            return self.backref(self.groups.len() + 1 - n, start);
        }
        if name.bytes().all(|b| b.is_ascii_digit()) {
            let n: usize = name.parse().unwrap_or(usize::MAX);
            return self.backref(n, start);
        }
        if name.contains(['+', '-']) {
            return Err(self.refuse("a backreference with a nest level", start));
        }
        let found: Vec<usize> = self
            .groups
            .iter()
            .enumerate()
            .filter(|(_, g)| g.as_deref() == Some(name))
            .map(|(i, _)| i + 1)
            .collect();
        match found.as_slice() {
            [] => Err(self.error(
                crate::rules::Texts::fill(texts::UNDEFINED_NAME, name),
                start,
            )),
            [n] => {
                let n = *n;
                self.backref_to(n, start)
            }
            _ => Err(self.refuse("a backreference to a name several groups have", start)),
        }
    }

    /// `\n`: numbered backreferences are refused by the engine when a group is named.
    fn backref(&mut self, n: usize, start: usize) -> Result<(), Error> {
        if self.named {
            return Err(self.error(texts::NUMBERED_BACKREF, start));
        }
        if n == 0 || n > self.groups.len() {
            if n > self.groups.len() && n <= 9 {
                return Err(self.refuse(
                    "a backreference to a group not yet opened (or never)",
                    start,
                ));
            }
            return Err(self.error(texts::INVALID_BACKREF, start));
        }
        self.backref_to(n, start)
    }

    fn backref_to(&mut self, n: usize, start: usize) -> Result<(), Error> {
        if !self.closed[n - 1] {
            return Err(self.refuse("a backreference inside the group it names", start));
        }
        if self
            .frames
            .iter()
            .any(|f| matches!(f.kind, FrameKind::LookBehind { .. }))
        {
            return Err(self.refuse("a backreference in a look-behind", start));
        }
        let text = if self.flags.i {
            self.needs_ascii(CASE_RULE);
            format!("(?i:\\{n})")
        } else {
            format!("(?:\\{n})")
        };
        self.emit(&text, start);
        self.atom(true, false);
        Ok(())
    }

    /// A character escape after `\` (`c` read): `\t`, `\x41`, `\u00e9`, `\0`, `\.` …
    fn char_escape(&mut self, c: char, start: usize) -> Result<char, Error> {
        let hex = |c: Option<char>| {
            c.filter(char::is_ascii_hexdigit)
                .and_then(|c| c.to_digit(16))
        };
        Ok(match c {
            't' => '\t',
            'n' => '\n',
            'r' => '\r',
            'f' => '\u{c}',
            'v' => '\u{b}',
            'a' => '\u{7}',
            'e' => '\u{1b}',
            '0' => {
                let (v, _) = self.digits(8, 2);
                char::from_u32(v).expect("an octal value")
            }
            'x' => {
                if self.peek() == Some('{') && self.ruby {
                    return Err(self.error("invalid hex escape", start));
                }
                if self.peek() == Some('{') {
                    self.pos += 1;
                    let mut v: u32 = 0;
                    let mut n = 0;
                    while let Some(d) = hex(self.peek()) {
                        self.pos += 1;
                        n += 1;
                        v = v.saturating_mul(16).saturating_add(d);
                    }
                    if n == 0 || n > 8 || self.peek() != Some('}') {
                        return Err(self.refuse("this \\x{…} escape", start));
                    }
                    self.pos += 1;
                    match char::from_u32(v) {
                        Some(ch) => ch,
                        None => return Err(self.refuse("a code point that is no character", start)),
                    }
                } else {
                    let mut v = 0;
                    let mut n = 0;
                    while n < 2
                        && let Some(d) = hex(self.peek())
                    {
                        v = v * 16 + d;
                        n += 1;
                        self.pos += 1;
                    }
                    if n == 0 {
                        return Err(self.refuse("\\x without a hex digit", start));
                    }
                    if v >= 0x80 {
                        return Err(self.refuse("a \\x escape of a byte outside ASCII", start));
                    }
                    char::from_u32(v).expect("a byte")
                }
            }
            'u' => {
                if self.peek() == Some('{') {
                    return Err(self.refuse("\\u{…}", start));
                }
                let mut v = 0;
                for _ in 0..4 {
                    let Some(d) = hex(self.peek()) else {
                        return Err(self.refuse("\\u without four hex digits", start));
                    };
                    v = v * 16 + d;
                    self.pos += 1;
                }
                match char::from_u32(v) {
                    Some(ch) => ch,
                    None => return Err(self.refuse("a surrogate escape", start)),
                }
            }
            // Letters that are no escape in either engine are themselves (Onigmo's `\y`
            // too; Oniguruma's is a text-segment boundary).
            'i' | 'j' | 'l' | 'm' | 'o' | 'q' | 'E' | 'F' | 'I' | 'J' | 'L' | 'Q' | 'T' | 'U'
            | 'V' => c,
            'y' | 'Y' if self.ruby => c,
            'c' | 'C' | 'M' => {
                return Err(self.refuse("control and meta escapes", start));
            }
            c if c.is_ascii_alphanumeric() => {
                return Err(self.refuse(&format!("the escape \\{c}"), start));
            }
            c => c,
        })
    }

    /// A bracket class at `[`: its set, with the fold closure under `i`.
    fn class(&mut self) -> Result<Set, Error> {
        let start = self.pos;
        self.pos += 1;
        let negated = self.peek() == Some('^');
        if negated {
            self.pos += 1;
        }
        let mut set = self.class_body(start)?;
        if self.flags.i {
            if set.has_non_ascii() && !(negated && set.0.iter().all(|r| r.1 < 0x80)) {
                return Err(self.refuse(
                    "a class with characters outside ASCII under i (the engine's full case \
                     folding)",
                    start,
                ));
            }
            self.needs_ascii(CASE_RULE);
            set = set.fold_ascii();
        }
        Ok(if negated { set.complement() } else { set })
    }

    /// The items of a class after `[` and `^`, up to and including its `]`: their union, and
    /// the intersections `&&` make.
    fn class_body(&mut self, start: usize) -> Result<Set, Error> {
        let mut result: Option<Set> = None;
        let mut current = Set::default();
        let mut first = true;
        // The last single character, for a range.
        let mut prev: Option<u32> = None;
        let mut any_item = false;
        // The last item was a class escape (`\d`): a `-` after it is an error.
        let mut after_set = false;
        loop {
            let Some(c) = self.peek() else {
                return Err(self.error(texts::UNCLOSED_CLASS, start));
            };
            let at = self.pos;
            if c == ']' && first && !self.has_later_close() {
                self.pos += 1;
                return Err(self.error(texts::EMPTY_CLASS, start));
            }
            if c == ']' && !first {
                self.pos += 1;
                break;
            }
            first = false;
            if c == '-' && after_set && self.peek_at(1).is_some_and(|n| n != ']') {
                self.pos += 1;
                return Err(self.error("unmatched range specifier in char-class", at));
            }
            after_set = c == '\\' && self.peek_at(1).is_some_and(|e| "dDwWsShH".contains(e));
            match c {
                '[' if self.peek_at(1) == Some(':') => {
                    if let Some(set) = self.posix_bracket()? {
                        current.union(&set);
                        prev = None;
                        any_item = true;
                        continue;
                    }
                    self.pos += 1;
                    current.add('[' as u32, '[' as u32);
                    prev = Some('[' as u32);
                }
                '[' => {
                    self.pos += 1;
                    let negated = self.peek() == Some('^');
                    if negated {
                        self.pos += 1;
                    }
                    let inner = self.class_body(at)?;
                    current.union(&if negated { inner.complement() } else { inner });
                    prev = None;
                }
                '&' if self.peek_at(1) == Some('&') => {
                    self.pos += 2;
                    let left = std::mem::take(&mut current);
                    result = Some(match result {
                        Some(r) => r.intersect(&left),
                        None => left,
                    });
                    prev = None;
                    first = false;
                    continue;
                }
                '-' if prev.is_some()
                    && self.peek_at(1).is_some_and(|n| n != ']')
                    && !(self.peek_at(1) == Some('&') && self.peek_at(2) == Some('&')) =>
                {
                    self.pos += 1;
                    let lo = prev.take().expect("a range start");
                    let hi_at = self.pos;
                    let hi = match self.peek() {
                        Some('[') => {
                            return Err(self.refuse("a range that ends in a class", at));
                        }
                        Some('\\') => {
                            self.pos += 1;
                            let Some(e) = self.peek() else {
                                return Err(self.error(texts::UNCLOSED_CLASS, start));
                            };
                            self.pos += 1;
                            if "dDwWsShHpPR".contains(e) {
                                return Err(self.refuse("a range that ends in a class escape", at));
                            }
                            self.class_char_escape(e, hi_at)? as u32
                        }
                        Some(h) => {
                            self.pos += 1;
                            h as u32
                        }
                        None => return Err(self.error(texts::UNCLOSED_CLASS, start)),
                    };
                    if hi < lo {
                        return Err(self.error(texts::CLASS_RANGE_ORDER, at));
                    }
                    current.add(lo, hi);
                }
                '\\' => {
                    self.pos += 1;
                    let Some(e) = self.peek() else {
                        return Err(self.error(texts::UNCLOSED_CLASS, start));
                    };
                    self.pos += 1;
                    if "dDwWsShH".contains(e) {
                        let set = self.perl_set(e);
                        current.union(&set);
                        prev = None;
                    } else if "pPRXgkGKAzZ".contains(e) {
                        return Err(self.refuse(&format!("\\{e} in a class"), at));
                    } else {
                        let ch = self.class_char_escape(e, at)? as u32;
                        current.add(ch, ch);
                        prev = Some(ch);
                    }
                }
                _ => {
                    self.pos += 1;
                    current.add(c as u32, c as u32);
                    prev = Some(c as u32);
                }
            }
            any_item = true;
        }
        let _ = any_item;
        Ok(match result {
            Some(r) => r.intersect(&current),
            None => current,
        })
    }

    /// A `]` first in a class is a literal when another `]` follows somewhere.
    fn has_later_close(&self) -> bool {
        self.chars[self.pos + 1..].iter().any(|c| c.1 == ']')
    }

    fn class_char_escape(&mut self, e: char, at: usize) -> Result<char, Error> {
        match e {
            'b' => Ok('\u{8}'),
            '1'..='9' => Err(self.refuse("a digit escape in a class", at)),
            _ => self.char_escape(e, at),
        }
    }

    /// `[:name:]` or `[:^name:]` at `[`: its set, or `None` when it is no POSIX bracket (its
    /// `[` is then a literal).
    fn posix_bracket(&mut self) -> Result<Option<Set>, Error> {
        let start = self.pos;
        let rest: String = self.chars[self.pos + 2..]
            .iter()
            .map(|c| c.1)
            .take(24)
            .collect();
        let Some(end) = rest.find(":]") else {
            return Ok(None);
        };
        let body = &rest[..end];
        let (negated, name) = match body.strip_prefix('^') {
            Some(n) => (true, n),
            None => (false, body),
        };
        if !name.bytes().all(|b| b.is_ascii_alphabetic()) {
            return Ok(None);
        }
        let lookup = if name == "punct" && !self.ruby {
            "punct_onig"
        } else {
            name
        };
        let Some(base) = posix(lookup).filter(|_| lookup != "punct_onig" || !self.ruby) else {
            self.pos += 2 + body.chars().count() + 2;
            return Err(self.error(texts::BAD_POSIX, start));
        };
        self.pos += 2 + body.chars().count() + 2;
        self.needs_ascii(POSIX_RULE);
        let set = Set::of(base);
        Ok(Some(if negated { set.complement() } else { set }))
    }

    fn open(&mut self) -> Result<(), Error> {
        let start = self.pos;
        self.pos += 1;
        let saved = self.flags;
        let out_open = self.out.len();
        if self.peek() != Some('?') {
            let kind = if self.named {
                self.emit("(?:", start);
                FrameKind::Plain
            } else {
                self.groups.push(None);
                self.closed.push(false);
                self.emit("(", start);
                FrameKind::Capture
            };
            let capture = (kind == FrameKind::Capture).then_some(self.groups.len());
            self.frames.push(Frame::new(kind, saved, out_open, capture));
            return Ok(());
        }
        self.pos += 1;
        let Some(c) = self.peek() else {
            return Err(self.error(texts::END_PATTERN_IN_GROUP, start));
        };
        let (kind, text) = match c {
            ':' => (FrameKind::Plain, "(?:".to_string()),
            '>' => (FrameKind::Atomic, "(?>".to_string()),
            '=' => (FrameKind::LookAhead, "(?=".to_string()),
            '!' => (FrameKind::LookAhead, "(?!".to_string()),
            '<' if matches!(self.peek_at(1), Some('=' | '!')) => {
                let negative = self.peek_at(1) == Some('!');
                self.pos += 1;
                let text = if negative { "(?:(?<!" } else { "(?:(?<=" };
                (FrameKind::LookBehind { negative }, text.to_string())
            }
            '<' | '\'' => {
                let close = if c == '<' { '>' } else { '\'' };
                self.pos += 1;
                let name = self.take_name(close, start)?;
                self.pos -= 1;
                let valid = name
                    .chars()
                    .next()
                    .is_some_and(|f| f.is_ascii_alphabetic() || f == '_')
                    && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
                if !valid {
                    if name.contains(['-', '+']) {
                        return Err(self.refuse("a group name with a sign in it", start));
                    }
                    if name.chars().all(|c| c.is_alphanumeric() || c == '_')
                        && !name.starts_with(|c: char| c.is_ascii_digit())
                    {
                        return Err(self.refuse("a group name outside ASCII", start));
                    }
                    let text = if name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                        texts::TEXTS.bad_group_name
                    } else {
                        "invalid char in group name <{}>"
                    };
                    self.pos += 1;
                    return Err(self.error(crate::rules::Texts::fill(text, &name), start));
                }
                if self.groups.iter().any(|g| g.as_deref() == Some(&name)) {
                    return Err(self.refuse("a name several groups have", start));
                }
                self.groups.push(Some(name.clone()));
                self.closed.push(false);
                (FrameKind::Capture, format!("(?P<{name}>"))
            }
            '#' => {
                while let Some(c) = self.peek() {
                    self.pos += 1;
                    if c == ')' {
                        return Ok(());
                    }
                }
                return Err(self.error(texts::END_PATTERN_IN_GROUP, start));
            }
            '~' => {
                return Err(self.refuse(
                    "the absent operator (?~…) (rxw's matcher has no such operator)",
                    start,
                ));
            }
            '(' => return Err(self.refuse("a conditional (?(…)…)", start)),
            '{' => return Err(self.refuse("a callout (?{…})", start)),
            _ => return self.flag_group(start),
        };
        self.pos += 1;
        let capture = (kind == FrameKind::Capture).then_some(self.groups.len());
        self.emit(&text, start);
        self.frames.push(Frame::new(kind, saved, out_open, capture));
        Ok(())
    }

    /// `(?imx-imx)` or `(?imx-imx:…)` after `(?`.
    fn flag_group(&mut self, start: usize) -> Result<(), Error> {
        let saved = self.flags;
        let mut on = true;
        loop {
            let Some(c) = self.peek() else {
                return Err(self.error(texts::END_PATTERN_IN_GROUP, start));
            };
            self.pos += 1;
            match c {
                'i' => self.flags.i = on,
                'm' => self.flags.m = on,
                'x' => self.flags.x = on,
                '-' if on => on = false,
                ':' => {
                    let out_open = self.out.len();
                    self.emit("(?:", start);
                    self.frames
                        .push(Frame::new(FrameKind::Plain, saved, out_open, None));
                    return Ok(());
                }
                ')' => {
                    // The flags hold to the end of the enclosing group, its alternatives
                    // included: a group of their own around the rest.
                    let out_open = self.out.len();
                    self.emit("(?:", start);
                    let mut f = Frame::new(FrameKind::Implicit, saved, out_open, None);
                    f.last = Last::Nothing;
                    self.frames.push(f);
                    return Ok(());
                }
                'a' | 'u' | 'd' | 'W' | 'D' | 'S' | 'P' | 'y' | 'I' | 'L' | 'C' => {
                    return Err(self.refuse(&format!("the option (?{c})"), start));
                }
                _ => return Err(self.error(texts::UNDEFINED_GROUP_OPTION, start)),
            }
        }
    }

    fn close(&mut self) -> Result<(), Error> {
        let start = self.pos;
        while self
            .frames
            .last()
            .is_some_and(|f| f.kind == FrameKind::Implicit)
        {
            self.close_one(start)?;
        }
        if self.frames.len() == 1 {
            self.pos += 1;
            return Err(self.error(texts::UNMATCHED_CLOSE, start));
        }
        self.pos += 1;
        self.close_one(start)
    }

    /// Closes the innermost frame, its `)` read from char `start` (nothing read for an
    /// implicit frame).
    fn close_one(&mut self, start: usize) -> Result<(), Error> {
        let f = self.frames.pop().expect("an open group");
        let from = if f.kind == FrameKind::Implicit {
            self.pos
        } else {
            start
        };
        let text = if matches!(f.kind, FrameKind::LookBehind { .. }) {
            "))"
        } else {
            ")"
        };
        self.emit(text, from);
        self.flags = f.saved;
        if let Some(n) = f.capture {
            self.closed[n - 1] = true;
        }
        let has_capture = f.has_capture || f.capture.is_some();
        if has_capture {
            self.frame().has_capture = true;
        }
        let nullable = f.any_branch_nullable || f.branch_nullable;
        match f.kind {
            FrameKind::LookAhead | FrameKind::LookBehind { .. } => {
                self.zero_width();
                self.frame().last = Last::LookAround { has_capture };
            }
            FrameKind::Plain | FrameKind::Atomic | FrameKind::Implicit
                if f.zero_width_only == Some(true) =>
            {
                // A group of anchors is an anchor to a repetition.
                self.zero_width();
            }
            _ => self.atom(nullable, has_capture),
        }
        self.frame().last_out = f.out_open;
        Ok(())
    }

    fn quantifier(&mut self) -> Result<(), Error> {
        let start = self.pos;
        let c = self.peek().expect("a quantifier");
        let (text, min, lazy_ok, possessive_ok) = match c {
            '*' => ("*".to_string(), 0, true, true),
            '+' => ("+".to_string(), 1, true, true),
            '?' => ("?".to_string(), 0, true, true),
            _ => match self.interval()? {
                Some((text, min, fixed)) => (text, min, !fixed, false),
                None => {
                    // Not an interval: a literal `{`.
                    self.pos += 1;
                    return self.emit_char('{', start);
                }
            },
        };
        if c != '{' {
            self.pos += 1;
        }
        let last = self.frame().last;
        let (nullable, _) = match last {
            Last::Nothing => return Err(self.error(texts::NOTHING_TO_REPEAT, start)),
            Last::ZeroWidth | Last::LookAround { .. } if !self.ruby => {
                return Err(self.error("target of repeat operator is invalid", start));
            }
            Last::ZeroWidth => {
                // Onigmo repeats an anchor: as a group of it.
                self.wrap_last();
                (true, false)
            }
            Last::LookAround { has_capture: true } => {
                return Err(self.refuse("a repeated look-around that captures", start));
            }
            Last::LookAround { has_capture: false } => {
                self.wrap_last();
                (true, false)
            }
            Last::Quantified => {
                // A repetition of a repetition (`a**`, `a{2}?`, `a{1,2}+`): of a group of it.
                self.wrap_last();
                (true, false)
            }
            Last::Atom {
                nullable,
                has_capture,
            } => (nullable, has_capture),
        };
        let mut suffix = "";
        match self.peek() {
            Some('?') if lazy_ok => {
                self.pos += 1;
                suffix = "?";
            }
            Some('+') if possessive_ok => {
                self.pos += 1;
                suffix = "+";
            }
            _ => {}
        }
        self.emit(&format!("{text}{suffix}"), start);
        let f = self.frame();
        f.branch_nullable &= nullable || min == 0;
        f.last = Last::Quantified;
        Ok(())
    }

    /// `{n}`, `{n,}`, `{,m}`, `{n,m}` at `{`: the sre text, the minimum and whether the count
    /// is fixed (`{n}`, whose `?` is a repetition of its own); `None` when the brace is no
    /// interval (a literal).
    ///
    /// # Errors
    /// A count over 100,000, or a maximum below the minimum.
    fn interval(&mut self) -> Result<Option<(String, u32, bool)>, Error> {
        let body: String = self.chars[self.pos + 1..]
            .iter()
            .map(|c| c.1)
            .take_while(|c| *c != '}')
            .collect();
        if self.pos + 1 + body.chars().count() >= self.chars.len() {
            return Ok(None);
        }
        let (lo, hi, comma) = match body.split_once(',') {
            Some((a, b)) => (a, b, true),
            None => (body.as_str(), "", false),
        };
        let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
        if (!lo.is_empty() && !digits(lo)) || (!hi.is_empty() && !digits(hi)) {
            return Ok(None);
        }
        if lo.is_empty() && hi.is_empty() {
            return Ok(None);
        }
        let number = |s: &str| s.parse::<u64>().unwrap_or(u64::MAX);
        let min = if lo.is_empty() { 0 } else { number(lo) };
        let max = if hi.is_empty() {
            None
        } else {
            Some(number(hi))
        };
        let start = self.pos;
        self.pos += body.chars().count() + 2;
        if min > 100_000 || max.is_some_and(|m| m > 100_000) {
            return Err(self.error(texts::REPEAT_TOO_LARGE, start));
        }
        if max.is_some_and(|m| m < min) {
            if !self.ruby {
                return Err(self.refuse("an interval whose maximum is below its minimum", start));
            }
            return Err(self.error(texts::REPEAT_RANGE_ORDER, start));
        }
        let text = match (comma, max) {
            (false, _) => format!("{{{min}}}"),
            (true, None) => format!("{{{min},}}"),
            (true, Some(m)) => format!("{{{min},{m}}}"),
        };
        Ok(Some((text, min as u32, !comma)))
    }

    /// Puts the last item's sre text (from `last_out`) in a group, for a quantifier to repeat.
    fn wrap_last(&mut self) {
        let from = self.frame().last_out;
        self.group_from(from);
    }
}

/// Whether the pattern names a group (`(?<name>`, `(?'name'`) outside classes and escapes: then
/// its plain groups do not capture.
fn names_a_group(chars: &[(usize, char)]) -> bool {
    let mut i = 0;
    let mut depth = 0usize;
    while i < chars.len() {
        match chars[i].1 {
            '\\' => i += 1,
            '[' => depth += 1,
            ']' if depth > 0 => depth -= 1,
            '(' if depth == 0 => {
                let next = |k: usize| chars.get(i + k).map(|c| c.1);
                if next(1) == Some('?')
                    && (next(2) == Some('\'')
                        || (next(2) == Some('<') && !matches!(next(3), Some('=' | '!'))))
                {
                    return true;
                }
            }
            _ => {}
        }
        i += 1;
    }
    false
}

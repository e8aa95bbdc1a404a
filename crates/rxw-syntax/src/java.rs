//! The reader of `java.util.regex.Pattern` syntax (the Java flavors).
//!
//! Java's grammar is read here, left to right as `Pattern.compile` reads it, with Java's own
//! error descriptions (`Unclosed group`, `Dangling meta character '*'`). What rxw can
//! reproduce exactly is written out as the sre constructs of the same meaning (Java's `$` is a
//! look-ahead for a final line terminator, its `.` a class without the five terminators, an
//! inline `(?i)` a scoped `(?i:…)` around each atom it reaches, `(?<n>…)` a `(?P<n>…)`, a
//! class with nesting and `&&` look-aheads that each test one character, as Java builds it) and
//! read by the sre grammar with ASCII classes and ASCII case folding, which are Java's
//! defaults; every span is then mapped back to the Java text, so the tree describes what was
//! written. What rxw cannot reproduce exactly is refused with
//! [`ErrorKind::ConstructUnsupported`]: `\p{…}` but the ASCII POSIX classes, `\X`, `\b{g}`,
//! `\R`, `\G`, `\N{…}`, UNICODE_CASE, UNICODE_CHARACTER_CLASS, UNIX_LINES, characters outside
//! the BMP in the pattern, captures inside atomic groups, look-around and possessive
//! repetitions (Java keeps what they captured after a later failure). A count with nothing to
//! repeat (`{2}a`, the `{3}` of `a{2}{3}`) repeats the empty text in Java: it is read and
//! written as nothing. Every fact and its probe: `gen/java_notes.md`.

use crate::ast::Ast;
use crate::error::Error;
#[cfg(doc)]
use crate::error::ErrorKind;
use crate::flavor::{Flags, JavaVersion};
use crate::reader::{self, Cursor, Piece, Switches, WHITE};
use crate::rules::java as texts;

/// A Java pattern read: the sre text of the same meaning, and where each piece of it came from.
pub(crate) struct Read {
    /// The sre text, to be parsed as [`crate::reader::sre_flavor`] with
    /// [`crate::reader::ascii_flags`] (Java's defaults).
    pub out: String,
    pieces: Vec<Piece>,
}

/// Parses a Java pattern: read into sre text, parsed with Java's defaults (ASCII classes and
/// folding), the tree mapped back onto the pattern.
pub(crate) fn parse(
    pattern: &str,
    version: JavaVersion,
    flags: Flags,
    parse_sre: reader::ParseSre,
) -> Result<Ast, Error> {
    let read = read(pattern, version, flags)?;
    let parsed = parse_sre(&read.out, reader::ascii_flags());
    finish(pattern, read, parsed)
}

/// Reads a Java pattern into sre text (the parser parses that text, then [`finish`] maps the
/// tree back onto the Java text).
///
/// # Errors
/// [`ErrorKind::PatternInvalid`] with Java's description, or
/// [`ErrorKind::ConstructUnsupported`] for what rxw does not reproduce.
pub(crate) fn read(pattern: &str, version: JavaVersion, flags: Flags) -> Result<Read, Error> {
    let mut reader = Reader::new(pattern, version, flags);
    reader.read()?;
    let Cursor { out, pieces, .. } = reader.cur;
    Ok(Read { out, pieces })
}

/// The tree of the sre text `parsed` (or its error), mapped back onto the Java `pattern`.
///
/// # Errors
/// [`ErrorKind::ConstructUnsupported`] when the sre parser refused the text (what Java reads
/// differently from rxw's matcher).
pub(crate) fn finish(pattern: &str, read: Read, parsed: Result<Ast, Error>) -> Result<Ast, Error> {
    let lookbehind = "Java accepts one with a bounded length";
    reader::finish_refusing_lookbehind(pattern, read.pieces, parsed, ("java", "Java"), lookbehind)
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum FrameKind {
    Capture,
    Plain,
    Atomic,
    LookAhead,
    LookBehind,
}

struct Frame {
    kind: FrameKind,
    saved: Switches,
    open: usize,
    /// A capture somewhere inside.
    has_capture: bool,
    /// A backreference somewhere inside (an error in a look-behind).
    has_backref: bool,
    /// Whether an earlier branch can match empty; whether this one can so far.
    any_branch_nullable: bool,
    branch_nullable: bool,
    /// The atom before, for a quantifier, and where its sre text starts.
    last: Last,
    last_out: usize,
    /// Where the group's own sre text starts.
    out_open: usize,
    /// The capture's number, for a backreference to an open group.
    capture: Option<usize>,
}

/// What a quantifier would repeat.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Last {
    /// Nothing (start of a branch, after `(?i)`): `*` is a dangling meta character.
    Nothing,
    /// A quantified atom: another `*` is dangling, a `{` repeats it again.
    Quantified,
    /// A zero-width item: Java repeats it (`^*`, `(?=a){2}`), as sre repeats a group of it.
    ZeroWidth,
    /// An atom that consumes: `nullable`, `has_capture`.
    Atom { nullable: bool, has_capture: bool },
}

struct Reader<'p> {
    cur: Cursor<'p>,
    version: JavaVersion,
    /// The flags Java's reader tracks (the others are refused where they are set).
    flags: Switches,
    frames: Vec<Frame>,
    /// Groups opened so far: their names.
    groups: Vec<Option<String>>,
    /// Groups closed so far.
    closed: Vec<bool>,
}

const TERMINATORS: &str = "\n\r\u{85}\u{2028}\u{2029}";

crate::reader::reads_with_cursor!(Reader);

impl<'p> Reader<'p> {
    fn new(pat: &'p str, version: JavaVersion, flags: Flags) -> Reader<'p> {
        Reader {
            cur: Cursor::new(pat, "java"),
            version,
            flags: flags.into(),
            frames: vec![Frame::new(FrameKind::Plain, Switches::default(), 0, None)],
            groups: Vec::new(),
            closed: Vec::new(),
        }
    }

    /// Java's error `description`, its caret on char `from`.
    fn error(&self, description: impl Into<String>, from: usize) -> Error {
        self.invalid(description, from, from + 1)
    }

    fn frame(&mut self) -> &mut Frame {
        self.frames.last_mut().expect("the outer frame")
    }

    /// Records an atom that consumes text.
    fn atom(&mut self, nullable: bool, has_capture: bool) {
        let at = self.last_emit;
        let f = self.frame();
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
        f.last_out = at;
        f.last = Last::ZeroWidth;
    }

    /// Writes an atom, wrapped in `(?i:…)` where CASE_INSENSITIVE reaches it.
    fn emit_atom(&mut self, text: &str, from: usize, folds: bool) {
        if self.flags.i && folds {
            self.emit(&format!("(?i:{text})"), from);
        } else if text.chars().count() > 1 && !text.starts_with('[') && !text.starts_with('\\') {
            self.emit(&format!("(?:{text})"), from);
        } else {
            self.emit(text, from);
        }
    }

    fn skip_comments(&mut self) {
        if self.flags.x {
            self.skip_blank(
                |c| WHITE.contains(&c),
                |c| TERMINATORS.contains(c) || c == '\0',
            );
        }
    }

    fn read(&mut self) -> Result<(), Error> {
        loop {
            self.skip_comments();
            let start = self.pos;
            let Some(c) = self.peek() else { break };
            if self.frames.len() > 400 {
                return Err(self.refuse(
                    "nesting this deep (Java's compiler may overflow its stack)",
                    start,
                ));
            }
            match c {
                '\\' => self.escape()?,
                '[' => self.class()?,
                '(' => self.open()?,
                ')' => self.close()?,
                '|' => {
                    self.pos += 1;
                    self.emit("|", start);
                    let f = self.frame();
                    f.any_branch_nullable |= f.branch_nullable;
                    f.branch_nullable = true;
                    f.last = Last::Nothing;
                }
                '*' | '+' | '?' | '{' => self.quantifier()?,
                '^' | '$' => {
                    self.pos += 1;
                    let text = match (c, self.flags.m) {
                        ('^', true) => r"(?:(?!\Z)(?:\A|(?<=[\n\x85\u2028\u2029])|(?<=\r)(?!\n)))",
                        ('^', false) => r"\A",
                        (_, true) => MULTILINE_END,
                        (_, false) => END,
                    };
                    self.emit(text, start);
                    self.zero_width();
                }
                '.' => {
                    self.pos += 1;
                    let text = if self.flags.s {
                        r"[\s\S]"
                    } else {
                        r"[^\n\r\x85\u2028\u2029]"
                    };
                    self.emit(text, start);
                    self.atom(false, false);
                }
                _ => {
                    self.pos += 1;
                    self.literal(c, start)?;
                }
            }
        }
        if self.frames.len() > 1 {
            return Err(self.error(texts::UNCLOSED_GROUP, self.chars.len()));
        }
        Ok(())
    }

    fn literal(&mut self, c: char, start: usize) -> Result<(), Error> {
        if !is_bmp_scalar(c) {
            return Err(self.refuse(
                "a character outside the BMP (Java's search steps by UTF-16 units there)",
                start,
            ));
        }
        let text = sre_literal(c, false);
        self.emit_atom(&text, start, c.is_ascii_alphabetic());
        self.atom(false, false);
        Ok(())
    }

    fn escape(&mut self) -> Result<(), Error> {
        let start = self.pos;
        self.pos += 1;
        let Some(c) = self.peek() else {
            if self.frames.len() > 1 {
                return Err(self.error(texts::UNCLOSED_GROUP, self.chars.len()));
            }
            return Err(self.error(texts::trailing_backslash(self.version), start));
        };
        self.pos += 1;
        match c {
            'Q' => {
                while self.pos < self.chars.len() {
                    if self.peek() == Some('\\') && self.peek_at(1) == Some('E') {
                        self.pos += 2;
                        break;
                    }
                    let at = self.pos;
                    let q = self.peek().expect("a quoted character");
                    self.pos += 1;
                    self.literal(q, at)?;
                }
                // `\Q\E` is nothing: what came before is still what a quantifier repeats.
            }
            '1'..='9' => {
                let mut n = c.to_digit(10).expect("a digit") as usize;
                while let Some(d) = self.peek().and_then(|d| d.to_digit(10)) {
                    let more = n * 10 + d as usize;
                    if more > self.groups.len() {
                        break;
                    }
                    n = more;
                    self.pos += 1;
                }
                self.backref(n, start)?;
            }
            'k' => {
                if self.flags.x {
                    return Err(self.refuse("\\k under COMMENTS", start));
                }
                if self.peek() != Some('<') {
                    return Err(self.error(texts::K_NOT_FOLLOWED, self.pos));
                }
                self.pos += 1;
                let name = self.group_name()?;
                let Some(n) = self.groups.iter().position(|g| g.as_deref() == Some(&name)) else {
                    return Err(self.error(
                        crate::rules::Texts::fill(texts::TEXTS_25.backreference, &name),
                        self.pos - 1,
                    ));
                };
                self.backref(n + 1, start)?;
            }
            'd' | 'D' | 's' | 'S' | 'w' | 'W' => {
                self.emit(&format!("\\{c}"), start);
                self.atom(false, false);
            }
            'h' | 'v' | 'H' | 'V' => {
                let set = if c.eq_ignore_ascii_case(&'h') {
                    HORIZONTAL
                } else {
                    VERTICAL
                };
                let neg = if c.is_ascii_uppercase() { "^" } else { "" };
                self.emit(&format!("[{neg}{set}]"), start);
                self.atom(false, false);
            }
            'b' | 'B' => {
                let skip = if self.flags.x {
                    self.chars[self.pos..]
                        .iter()
                        .take_while(|c| WHITE.contains(&c.1))
                        .count()
                } else {
                    0
                };
                if self.peek_at(skip) == Some('{') {
                    return Err(self.refuse("\\b{…} (grapheme cluster boundaries)", start));
                }
                self.emit(&format!("\\{c}"), start);
                self.zero_width();
            }
            'A' => {
                self.emit(r"\A", start);
                self.zero_width();
            }
            'z' => {
                self.emit(r"\Z", start);
                self.zero_width();
            }
            'Z' => {
                self.emit(END, start);
                self.zero_width();
            }
            'G' => return Err(self.refuse("\\G", start)),
            'R' => return Err(self.refuse("\\R (a line break that backtracks into \\r\\n)", start)),
            'X' => return Err(self.refuse("\\X (grapheme clusters)", start)),
            'N' => return Err(self.refuse("\\N{…} (Java's character names)", start)),
            'p' | 'P' => {
                let set = self.posix_property(c, start)?;
                self.emit_atom(&format!("[{set}]"), start, true);
                self.atom(false, false);
            }
            'E' => return Err(self.error(texts::BAD_ESCAPE, self.pos - 1)),
            _ => {
                let ch = self.char_escape(c, start, false)?;
                let text = sre_literal(ch, false);
                self.emit_atom(&text, start, ch.is_ascii_alphabetic());
                self.atom(false, false);
            }
        }
        Ok(())
    }

    /// A backreference to group `n` (the escape began at `start`).
    fn backref(&mut self, n: usize, start: usize) -> Result<(), Error> {
        if n > self.groups.len() {
            return Err(self.refuse("a backreference to a group that does not exist (Java compiles it; it never matches)", start));
        }
        if !self.closed[n - 1] {
            return Err(self.refuse("a backreference inside the group it names", start));
        }
        for f in &mut self.frames {
            f.has_backref = true;
        }
        self.emit_atom(&format!("(?:\\{n})"), start, true);
        // A backreference matches the empty text when its group did.
        self.atom(true, false);
        Ok(())
    }

    /// A character escape after `\` (`c` read): `\t`, `\x41`, `\0101`, `\cA`, `\.` …; the
    /// errors of the other letters.
    fn char_escape(&mut self, c: char, start: usize, in_class: bool) -> Result<char, Error> {
        let x = self.flags.x;
        let value = match c {
            't' => '\t',
            'n' => '\n',
            'r' => '\r',
            'f' => '\u{c}',
            'a' => '\u{7}',
            'e' => '\u{1b}',
            '0' => {
                if x {
                    return Err(self.refuse("an octal escape under COMMENTS", start));
                }
                let oct = |c: Option<char>| c.and_then(|c| c.to_digit(8));
                let Some(n) = oct(self.peek()) else {
                    return Err(self.error(texts::BAD_OCTAL, self.pos));
                };
                self.pos += 1;
                let mut v = n;
                if let Some(m) = oct(self.peek()) {
                    self.pos += 1;
                    v = n * 8 + m;
                    if let Some(o) = oct(self.peek())
                        && n <= 3
                    {
                        self.pos += 1;
                        v = v * 8 + o;
                    }
                }
                char::from_u32(v).expect("an octal value")
            }
            'x' => {
                if x {
                    return Err(self.refuse("a hexadecimal escape under COMMENTS", start));
                }
                let hex = |c: Option<char>| {
                    c.and_then(|c| c.is_ascii_hexdigit().then(|| c.to_digit(16).expect("hex")))
                };
                if let Some(a) = hex(self.peek()) {
                    self.pos += 1;
                    let Some(b) = hex(self.peek()) else {
                        return Err(self.error(texts::BAD_HEX, self.pos));
                    };
                    self.pos += 1;
                    char::from_u32(a * 16 + b).expect("a byte value")
                } else if self.peek() == Some('{') && hex(self.peek_at(1)).is_some() {
                    self.pos += 1;
                    let mut v: u32 = 0;
                    while let Some(d) = hex(self.peek()) {
                        self.pos += 1;
                        v = (v << 4) + d;
                        if v > 0x10FFFF {
                            return Err(self.error(texts::HEX_TOO_BIG, self.pos - 1));
                        }
                    }
                    if self.peek() != Some('}') {
                        return Err(self.error(texts::UNCLOSED_HEX, self.pos));
                    }
                    self.pos += 1;
                    match char::from_u32(v) {
                        Some(ch) if is_bmp_scalar(ch) => ch,
                        _ => {
                            return Err(
                                self.refuse("a surrogate or a character outside the BMP", start)
                            );
                        }
                    }
                } else {
                    return Err(self.error(texts::BAD_HEX, self.pos));
                }
            }
            'u' => {
                if x {
                    return Err(self.refuse("a Unicode escape under COMMENTS", start));
                }
                let (v, n) = self.digits(16, 4);
                if n < 4 {
                    return Err(self.error(texts::BAD_UNICODE, self.pos));
                }
                match char::from_u32(v) {
                    Some(ch) => ch,
                    None => return Err(self.refuse("a surrogate escape", start)),
                }
            }
            'c' => {
                if x {
                    return Err(self.refuse("a control escape under COMMENTS", start));
                }
                let Some(x) = self.peek() else {
                    return Err(self.error(texts::BAD_CONTROL, self.pos - 1));
                };
                if !x.is_ascii() {
                    return Err(self.refuse("a control escape of a non-ASCII character", start));
                }
                self.pos += 1;
                char::from_u32(x as u32 ^ 64).expect("an ASCII value")
            }
            '1'..='9' if in_class => return Err(self.error(texts::BAD_ESCAPE, self.pos - 1)),
            c if c.is_ascii_alphabetic() => return Err(self.error(texts::BAD_ESCAPE, self.pos - 1)),
            c if !is_bmp_scalar(c) => {
                return Err(self.refuse("a character outside the BMP", start));
            }
            c => c,
        };
        Ok(value)
    }

    /// `\p{Alpha}` and the other ASCII POSIX classes (their meaning without
    /// UNICODE_CHARACTER_CLASS), after `\p` or `\P` (`letter`): sre class items, negated for
    /// `\P`. Java's other properties (categories, scripts, blocks, `\p{IsAlpha}`) need its
    /// own Unicode data and are refused.
    fn posix_property(&mut self, letter: char, start: usize) -> Result<String, Error> {
        let refuse = |r: &Self| r.refuse("\\p{…} (Java's Unicode properties)", start);
        if self.flags.x || self.peek() != Some('{') {
            return Err(refuse(self));
        }
        let rest: String = self.chars[self.pos + 1..]
            .iter()
            .map(|c| c.1)
            .take_while(|c| *c != '}')
            .collect();
        let items = match rest.as_str() {
            "Lower" => "a-z",
            "Upper" => "A-Z",
            "ASCII" => "\\x00-\\x7f",
            "Alpha" => "a-zA-Z",
            "Digit" => "0-9",
            "Alnum" => "a-zA-Z0-9",
            "Punct" => "!-/:-@\\[-`{-~",
            "Graph" => "!-~",
            "Print" => " -~",
            "Blank" => " \\t",
            "Cntrl" => "\\x00-\\x1f\\x7f",
            "XDigit" => "0-9a-fA-F",
            "Space" => " \\t\\n\\x0b\\x0c\\r",
            _ => return Err(refuse(self)),
        };
        if self
            .chars
            .get(self.pos + 1 + rest.chars().count())
            .map(|c| c.1)
            != Some('}')
        {
            return Err(refuse(self));
        }
        self.pos += rest.chars().count() + 2;
        Ok(if letter == 'P' {
            format!("^{items}")
        } else {
            items.to_string()
        })
    }

    /// A group name after `<`, through its `>`.
    fn group_name(&mut self) -> Result<String, Error> {
        let first = self.peek();
        if !first.is_some_and(|c| c.is_ascii_alphabetic()) {
            return Err(self.error(texts::NAME_START, self.pos));
        }
        let mut name = String::new();
        while let Some(c) = self.peek().filter(char::is_ascii_alphanumeric) {
            name.push(c);
            self.pos += 1;
        }
        if self.peek() != Some('>') {
            return Err(self.error(texts::NAME_UNCLOSED, self.pos));
        }
        self.pos += 1;
        Ok(name)
    }

    fn open(&mut self) -> Result<(), Error> {
        let start = self.pos;
        self.pos += 1;
        if self.flags.x && self.peek().is_some_and(|c| WHITE.contains(&c) || c == '#') {
            return Err(self.refuse("space between ( and ? under COMMENTS", start));
        }
        if self.peek() != Some('?') {
            return self.push(FrameKind::Capture, None, start, "(");
        }
        self.pos += 1;
        if self.flags.x
            && self.chars[self.pos..]
                .iter()
                .map(|c| c.1)
                .take_while(|c| !")>:=!".contains(*c))
                .any(|c| WHITE.contains(&c) || c == '#')
        {
            return Err(self.refuse("space inside a group's opener under COMMENTS", start));
        }
        let kind = match self.peek() {
            Some(':') => Some((FrameKind::Plain, 1, "(?:")),
            Some('>') => Some((FrameKind::Atomic, 1, "(?>")),
            Some('=') => Some((FrameKind::LookAhead, 1, "(?=")),
            Some('!') => Some((FrameKind::LookAhead, 1, "(?!")),
            Some('<') if self.peek_at(1) == Some('=') => Some((FrameKind::LookBehind, 2, "(?<=")),
            Some('<') if self.peek_at(1) == Some('!') => Some((FrameKind::LookBehind, 2, "(?<!")),
            _ => None,
        };
        if let Some((kind, len, text)) = kind {
            self.pos += len;
            return self.push(kind, None, start, text);
        }
        match self.peek() {
            Some('<') => {
                self.pos += 1;
                let name = self.group_name()?;
                if self.groups.iter().any(|g| g.as_deref() == Some(&name)) {
                    return Err(self.error(
                        crate::rules::Texts::fill(texts::TEXTS_25.duplicate_group_name, &name),
                        self.pos - 1,
                    ));
                }
                let text = format!("(?P<{name}>");
                self.push(FrameKind::Capture, Some(name), start, &text)
            }
            Some('$' | '@') => Err(self.error(texts::TEXTS_25.unsupported_perl, self.pos)),
            _ => self.inline_flags(start),
        }
    }

    fn inline_flags(&mut self, start: usize) -> Result<(), Error> {
        let mut flags = self.flags;
        let mut on = true;
        loop {
            match self.peek() {
                Some(c @ ('i' | 'm' | 's' | 'x')) => {
                    match c {
                        'i' => flags.i = on,
                        'm' => flags.m = on,
                        's' => flags.s = on,
                        _ => flags.x = on,
                    }
                    self.pos += 1;
                }
                Some('c') => self.pos += 1,
                Some(c @ ('u' | 'U' | 'd')) => {
                    if !on {
                        self.pos += 1;
                        continue;
                    }
                    let what = match c {
                        'u' => "UNICODE_CASE (u)",
                        'U' => "UNICODE_CHARACTER_CLASS (U)",
                        _ => "UNIX_LINES (d)",
                    };
                    return Err(self.refuse(what, start));
                }
                Some('-') if on => {
                    on = false;
                    self.pos += 1;
                }
                _ => break,
            }
        }
        match self.peek() {
            Some(')') => {
                self.pos += 1;
                self.flags = flags;
                self.emit("", start);
                self.frame().last = Last::Nothing;
                Ok(())
            }
            Some(':') => {
                self.pos += 1;
                let saved = self.flags;
                self.push(FrameKind::Plain, None, start, "(?:")?;
                self.frame().saved = saved;
                self.flags = flags;
                Ok(())
            }
            _ => Err(self.error(texts::TEXTS_25.unknown_flag, self.pos)),
        }
    }

    fn push(
        &mut self,
        kind: FrameKind,
        name: Option<String>,
        start: usize,
        text: &str,
    ) -> Result<(), Error> {
        let mut capture = None;
        if kind == FrameKind::Capture {
            if self.frames.iter().any(|f| {
                matches!(
                    f.kind,
                    FrameKind::Atomic | FrameKind::LookAhead | FrameKind::LookBehind
                )
            }) {
                return Err(self.refuse(
                    "a capturing group inside an atomic group or look-around (Java keeps what it captured after a later failure)",
                    start,
                ));
            }
            self.groups.push(name);
            self.closed.push(false);
            capture = Some(self.groups.len());
        }
        let out_open = self.out.len();
        self.emit(text, start);
        let mut frame = Frame::new(kind, self.flags, start, capture);
        frame.out_open = out_open;
        self.frames.push(frame);
        Ok(())
    }

    fn close(&mut self) -> Result<(), Error> {
        let start = self.pos;
        if self.frames.len() == 1 {
            return Err(self.error(texts::TEXTS_25.unopened_group, start.saturating_sub(1)));
        }
        let f = self.frames.pop().expect("an open group");
        if f.kind == FrameKind::LookBehind && f.has_backref {
            return Err(self.error(texts::LOOKBEHIND_LENGTH, start.saturating_sub(1)));
        }
        self.pos += 1;
        self.emit(")", start);
        self.flags = f.saved;
        let _ = f.open;
        if let Some(n) = f.capture {
            self.closed[n - 1] = true;
        }
        let has_capture = f.has_capture || f.capture.is_some();
        if has_capture {
            self.frame().has_capture = true;
        }
        if f.has_backref {
            self.frame().has_backref = true;
        }
        match f.kind {
            FrameKind::LookAhead | FrameKind::LookBehind => self.zero_width(),
            _ => {
                let nullable = f.any_branch_nullable || f.branch_nullable;
                self.atom(nullable, has_capture);
            }
        }
        self.frame().last_out = f.out_open;
        Ok(())
    }

    fn quantifier(&mut self) -> Result<(), Error> {
        let start = self.pos;
        let c = self.peek().expect("a quantifier");
        let mut last = self.frame().last;
        if c != '{' && matches!(last, Last::Nothing | Last::Quantified) {
            return Err(self.error(format!("Dangling meta character '{c}'"), start));
        }
        let (text, min, max) = match c {
            '*' => ("*".to_string(), 0, None),
            '+' => ("+".to_string(), 1, None),
            '?' => ("?".to_string(), 0, Some(1)),
            _ => {
                let counted = self.counted()?;
                if matches!(last, Last::Nothing | Last::Quantified) {
                    // Java repeats the empty text (`{2}a` matches `a`; `a{2}{3}` is `a{2}`),
                    // its suffix included: nothing to write.
                    if self.flags.x && self.peek().is_some_and(|c| WHITE.contains(&c) || c == '#') {
                        return Err(self.refuse("space after a quantifier under COMMENTS", start));
                    }
                    if matches!(self.peek(), Some('?' | '+')) {
                        self.pos += 1;
                    }
                    self.emit("", start);
                    self.frame().last = Last::Quantified;
                    return Ok(());
                }
                counted
            }
        };
        // Java repeats a zero-width item: as a group of it.
        if last == Last::ZeroWidth {
            self.wrap_last();
            last = Last::Atom {
                nullable: true,
                has_capture: false,
            };
        }
        if c != '{' {
            self.pos += 1;
        }
        let Last::Atom {
            nullable,
            has_capture,
        } = last
        else {
            return Err(self.refuse("a repeated zero-width item", start));
        };
        if self.flags.x && self.peek().is_some_and(|c| WHITE.contains(&c) || c == '#') {
            return Err(self.refuse("space after a quantifier under COMMENTS", start));
        }
        let mut suffix = "";
        match self.peek() {
            Some('?') => {
                self.pos += 1;
                suffix = "?";
            }
            Some('+') => {
                self.pos += 1;
                suffix = "+";
                if has_capture {
                    return Err(self.refuse("a capturing group in a possessive repetition (Java keeps what it captured after a later failure)", start));
                }
            }
            _ => {}
        }
        if has_capture && nullable {
            return Err(self.refuse(
                "a repeated capturing group that can match the empty text",
                start,
            ));
        }
        let _ = max;
        self.emit(&format!("{text}{suffix}"), start);
        let f = self.frame();
        f.branch_nullable &= nullable || min == 0;
        f.last = Last::Quantified;
        Ok(())
    }

    /// Puts the last item's sre text (from `last_out`) in a group, for a quantifier to repeat.
    fn wrap_last(&mut self) {
        let from = self.frame().last_out;
        self.group_from(from);
    }

    /// `{n}`, `{n,}`, `{n,m}` at the current `{`.
    fn counted(&mut self) -> Result<(String, u32, Option<u32>), Error> {
        let start = self.pos;
        if self.flags.x {
            let body: String = self.chars[self.pos..]
                .iter()
                .map(|c| c.1)
                .take_while(|c| *c != '}')
                .collect();
            if body.contains(|c: char| WHITE.contains(&c) || c == '#') {
                return Err(self.refuse("a counted repetition with spaces under COMMENTS", start));
            }
        }
        if !self.peek_at(1).is_some_and(|c| c.is_ascii_digit()) {
            return Err(self.error(texts::ILLEGAL_REPETITION, start + 1));
        }
        self.pos += 1;
        let number = |r: &mut Self| -> Result<Option<u32>, Error> {
            let mut v: Option<u32> = None;
            while let Some(d) = r
                .peek()
                .and_then(|c| c.to_digit(10).filter(|_| c.is_ascii_digit()))
            {
                let next = v
                    .unwrap_or(0)
                    .checked_mul(10)
                    .and_then(|n| n.checked_add(d))
                    .filter(|n| *n <= i32::MAX as u32);
                let Some(next) = next else {
                    return Err(r.error(texts::TEXTS_25.repeat_too_large, r.pos));
                };
                v = Some(next);
                r.pos += 1;
            }
            Ok(v)
        };
        let min = number(self)?.expect("a digit");
        let mut max = Some(min);
        if self.peek() == Some(',') {
            self.pos += 1;
            max = if self.peek() == Some('}') {
                None
            } else {
                Some(number(self)?.unwrap_or(0))
            };
        }
        if self.peek() != Some('}') {
            return Err(self.error(texts::UNCLOSED_COUNT, self.pos));
        }
        if max.is_some_and(|m| m < min) {
            return Err(self.error(texts::TEXTS_25.repeat_range_order, self.pos));
        }
        self.pos += 1;
        let text = match max {
            Some(m) if m == min => format!("{{{min}}}"),
            Some(m) => format!("{{{min},{m}}}"),
            None => format!("{{{min},}}"),
        };
        Ok((text, min, max))
    }

    fn class(&mut self) -> Result<(), Error> {
        let start = self.pos;
        if self.flags.x {
            let mut depth = 0;
            for &(_, c) in &self.chars[self.pos..] {
                match c {
                    '[' => depth += 1,
                    ']' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    c if WHITE.contains(&c) || c == '#' => {
                        return Err(self.refuse(
                            "a class with spaces or # under COMMENTS (Java skips them there)",
                            start,
                        ));
                    }
                    _ => {}
                }
            }
        }
        let pred = self.clazz(true)?;
        let text = pred.sre();
        let folds = text.chars().any(|c| c.is_ascii_alphabetic());
        self.emit_atom(&text, start, folds);
        self.atom(false, false);
        Ok(())
    }

    /// The character at char index `i`, NUL past the end (Java's `temp` array).
    fn at(&self, i: usize) -> char {
        self.chars.get(i).map_or('\0', |c| c.1)
    }

    /// Java's `Pattern.clazz`, step for step: `self.pos` stands on the `[` (`consume`) or on
    /// the character before a right side of `&&`. Single characters below U+0100 gather in
    /// the class's bits, which join the union only at `&&` or at the end, as in Java.
    fn clazz(&mut self, consume: bool) -> Result<Pred, Error> {
        let mut prev: Option<Pred> = None;
        let mut curr: Option<Pred> = None;
        let mut bits: Vec<String> = Vec::new();
        let mut has_bits = false;
        self.pos += 1;
        let mut ch = self.at(self.pos);
        let mut negated = false;
        if ch == '^' && self.pos > 0 && self.at(self.pos - 1) == '[' {
            self.pos += 1;
            ch = self.at(self.pos);
            negated = true;
        }
        let union = |a: Option<Pred>, b: Pred| match a {
            None => b,
            Some(a) => Pred::Union(vec![a, b]),
        };
        loop {
            match ch {
                '[' => {
                    let c = self.clazz(true)?;
                    prev = Some(union(prev.take(), c.clone()));
                    curr = Some(c);
                    ch = self.at(self.pos);
                    continue;
                }
                '&' => {
                    self.pos += 1;
                    ch = self.at(self.pos);
                    if ch == '&' {
                        self.pos += 1;
                        ch = self.at(self.pos);
                        let mut right: Option<Pred> = None;
                        while ch != ']' && ch != '&' {
                            if self.pos >= self.chars.len() {
                                let at = self.chars.len().saturating_sub(1);
                                return Err(self.error(texts::TEXTS_25.unclosed_class, at));
                            }
                            let c = if ch == '[' {
                                self.clazz(true)?
                            } else {
                                self.pos -= 1;
                                self.clazz(false)?
                            };
                            right = Some(union(right.take(), c));
                            ch = self.at(self.pos);
                        }
                        if has_bits {
                            let b = Pred::Leaves(bits.clone());
                            prev = Some(union(prev.take(), b.clone()));
                            if prev.as_ref().is_some_and(|p| matches!(p, Pred::Leaves(_))) {
                                curr = Some(b);
                            }
                            has_bits = false;
                        }
                        if let Some(r) = right.clone() {
                            curr = Some(r);
                        }
                        match prev.take() {
                            None => match right {
                                None => return Err(self.error(texts::BAD_CLASS, self.pos)),
                                Some(r) => prev = Some(r),
                            },
                            Some(p) => {
                                let c = curr.clone().unwrap_or(Pred::Leaves(Vec::new()));
                                prev = Some(Pred::And(Box::new(p), Box::new(c)));
                            }
                        }
                    } else {
                        self.pos -= 1;
                        ch = '&';
                        // A lone `&` is a literal, read below.
                        let _ = ch;
                        self.range_item(&mut bits, &mut has_bits, &mut prev, &mut curr)?;
                        ch = self.at(self.pos);
                    }
                    continue;
                }
                ']' if prev.is_some() || has_bits => {
                    if consume {
                        self.pos += 1;
                    }
                    let mut p = match prev {
                        None => Pred::Leaves(bits),
                        Some(p) if has_bits => Pred::Union(vec![p, Pred::Leaves(bits)]),
                        Some(p) => p,
                    };
                    if negated {
                        p = Pred::Not(Box::new(p));
                    }
                    return Ok(p);
                }
                _ if self.pos >= self.chars.len() => {
                    let at = self.chars.len().saturating_sub(1);
                    return Err(self.error(texts::TEXTS_25.unclosed_class, at));
                }
                _ => {}
            }
            self.range_item(&mut bits, &mut has_bits, &mut prev, &mut curr)?;
            ch = self.at(self.pos);
        }
    }

    /// Java's `range`: one character, range or shorthand at `self.pos`.
    fn range_item(
        &mut self,
        bits: &mut Vec<String>,
        has_bits: &mut bool,
        prev: &mut Option<Pred>,
        curr: &mut Option<Pred>,
    ) -> Result<(), Error> {
        let item = self.pos;
        let lo = match self.class_char()? {
            ClassChar::Char(ch) => ch,
            ClassChar::Set(set) => {
                let p = Pred::Leaves(vec![set]);
                *prev = Some(match prev.take() {
                    None => p.clone(),
                    Some(a) => Pred::Union(vec![a, p.clone()]),
                });
                *curr = Some(p);
                return Ok(());
            }
        };
        let mut single = true;
        let mut text = sre_literal(lo, true);
        if self.at(self.pos) == '-' && self.pos < self.chars.len() {
            let end = self.at(self.pos + 1);
            if end != '[' && end != ']' {
                if self.pos + 1 >= self.chars.len() {
                    return Err(self.error(texts::TEXTS_25.class_range_order, self.pos + 1));
                }
                if lo == '-' || end == '-' {
                    return Err(self.refuse("a class range that starts or ends with -", item));
                }
                self.pos += 1;
                let end_at = self.pos;
                let hi = match self.class_char()? {
                    ClassChar::Char(ch) => ch,
                    ClassChar::Set(_) => {
                        return Err(self.error(texts::TEXTS_25.class_range_order, end_at));
                    }
                };
                if hi < lo {
                    return Err(self.error(texts::TEXTS_25.class_range_order, self.pos - 1));
                }
                text = format!("{}-{}", sre_literal(lo, true), sre_literal(hi, true));
                single = false;
            }
        }
        if single && (lo as u32) < 0x100 {
            bits.push(text);
            *has_bits = true;
            return Ok(());
        }
        let p = Pred::Leaves(vec![text]);
        *prev = Some(match prev.take() {
            None => p.clone(),
            Some(a) => Pred::Union(vec![a, p.clone()]),
        });
        *curr = Some(p);
        Ok(())
    }

    /// One member of a class: a character or a shorthand set.
    fn class_char(&mut self) -> Result<ClassChar, Error> {
        if self.pos >= self.chars.len() {
            let at = self.chars.len().saturating_sub(1);
            return Err(self.error(texts::TEXTS_25.unclosed_class, at));
        }
        let start = self.pos;
        let c = self.peek().expect("a class member");
        self.pos += 1;
        if c != '\\' {
            if !is_bmp_scalar(c) {
                return Err(self.refuse("a character outside the BMP", start));
            }
            return Ok(ClassChar::Char(c));
        }
        let Some(e) = self.peek() else {
            return Err(self.error(texts::TEXTS_25.unclosed_class, self.chars.len()));
        };
        self.pos += 1;
        let set = match e {
            'd' | 'D' | 's' | 'S' | 'w' | 'W' => format!("\\{e}"),
            'h' => HORIZONTAL.to_string(),
            'v' => {
                if self.peek() == Some('-')
                    || self
                        .chars
                        .get(start.wrapping_sub(1))
                        .is_some_and(|c| c.1 == '-')
                {
                    return Err(self.refuse(
                        "\\v beside a - in a class (Java reads it as U+000B there)",
                        start,
                    ));
                }
                VERTICAL.to_string()
            }
            'H' | 'V' => return Err(self.refuse("\\H or \\V inside a class", start)),
            'Q' => return Err(self.refuse("\\Q…\\E inside a class", start)),
            'p' => self.posix_property(e, start)?,
            'P' => return Err(self.refuse("\\P{…} inside a class", start)),
            'N' => return Err(self.refuse("\\N{…} (Java's character names)", start)),
            'b' | 'B' | 'A' | 'G' | 'Z' | 'z' | 'R' | 'X' | 'k' | 'E' => {
                return Err(self.error(texts::BAD_ESCAPE, self.pos - 1));
            }
            _ => return Ok(ClassChar::Char(self.char_escape(e, start, true)?)),
        };
        Ok(ClassChar::Set(set))
    }
}

/// A class as Java builds it: sets of characters joined by union, intersection and negation.
#[derive(Clone)]
enum Pred {
    /// Members written as sre class items (`a`, `a-z`, `\d`).
    Leaves(Vec<String>),
    Union(Vec<Pred>),
    And(Box<Pred>, Box<Pred>),
    Not(Box<Pred>),
}

impl Pred {
    /// The sre text that matches one character of the set.
    fn sre(&self) -> String {
        match self {
            Pred::Not(inner) => match inner.leaves() {
                Some(items) if !items.is_empty() => format!("[^{}]", items.concat()),
                _ => format!("(?:(?!{})[\\s\\S])", inner.sre()),
            },
            p => match p.leaves() {
                Some(items) if !items.is_empty() => format!("[{}]", items.concat()),
                // No member: matches nothing.
                Some(_) => "(?!)".to_string(),
                None => match p {
                    Pred::Union(v) => {
                        let parts: Vec<String> = v.iter().map(Pred::sre).collect();
                        format!("(?:{})", parts.join("|"))
                    }
                    Pred::And(a, b) => format!("(?:(?={}){})", a.sre(), b.sre()),
                    _ => unreachable!("leaves and negation are written above"),
                },
            },
        }
    }

    /// The members, when the set is a plain union of them.
    fn leaves(&self) -> Option<Vec<String>> {
        match self {
            Pred::Leaves(v) => Some(v.clone()),
            Pred::Union(v) => {
                let mut all = Vec::new();
                for p in v {
                    all.extend(p.leaves()?);
                }
                Some(all)
            }
            _ => None,
        }
    }
}

enum ClassChar {
    Char(char),
    Set(String),
}

impl Frame {
    fn new(kind: FrameKind, saved: Switches, open: usize, capture: Option<usize>) -> Frame {
        Frame {
            kind,
            saved,
            open,
            has_capture: false,
            has_backref: false,
            any_branch_nullable: false,
            branch_nullable: true,
            last: Last::Nothing,
            last_out: 0,
            out_open: 0,
            capture,
        }
    }
}

/// Java's `$` (and `\Z`): the end, or before a line terminator that ends the text, never
/// between `\r` and `\n`.
const END: &str = r"(?:\Z|(?=(?:\r\n|[\n\r\x85\u2028\u2029])\Z)(?!(?<=\r)\n))";
/// Java's `$` under MULTILINE: before every line terminator (not inside `\r\n`) and at the end.
const MULTILINE_END: &str = r"(?:\Z|(?=[\n\r\x85\u2028\u2029])(?!(?<=\r)\n))";
/// `\h`'s members, as sre class text.
const HORIZONTAL: &str = r" \t\xa0\u1680\u180e\u2000-\u200a\u202f\u205f\u3000";
/// `\v`'s members.
const VERTICAL: &str = r"\n\x0b\x0c\r\x85\u2028\u2029";

fn is_bmp_scalar(c: char) -> bool {
    (c as u32) < 0x10000
}

/// `c` as sre reads it literally (inside a class when `in_class`).
fn sre_literal(c: char, in_class: bool) -> String {
    let _ = in_class;
    if c.is_ascii_alphanumeric() || c == '_' {
        c.to_string()
    } else if c.is_ascii_graphic() {
        format!("\\{c}")
    } else if (c as u32) < 0x100 {
        format!("\\x{:02x}", c as u32)
    } else {
        format!("\\u{:04x}", c as u32)
    }
}

//! The reader of .NET's `System.Text.RegularExpressions` syntax (the `dotnet` flavor, as Mono
//! 6.8 runs it: the .NET Framework parser and interpreter).
//!
//! The pattern is read left to right as `RegexParser.ScanRegex` reads it, with its own
//! descriptions (`Unterminated [] set.`, `Quantifier {x,y} following nothing.`), after a first
//! pass that numbers the groups as .NET does (its `CountCaptures`: a backreference may name a
//! group further on). What rxw reproduces exactly is written out as sre constructs of the same
//! meaning and read by the sre grammar: `^` as `\A` (a line start under `m`), `$` and `\Z` as
//! the end or before a final newline, `\z` as the end, `.` as not a newline (anything under
//! `s`); `\w \d \s`, their negations and `\b`'s word characters as the sets Mono's engine
//! matches (`dotnet_unicode.rs`, asked of Mono by `gen/dotnet_unicode.cs`); IgnoreCase as
//! Mono's (the pattern's and the text's characters lowercased by the invariant culture: a
//! letter is the class of the characters with its lowercase, a class is the set of characters
//! whose lowercase it holds); an inline `(?i)` to the end of the enclosing group, its later
//! alternatives included, as .NET carries options; `(?n)` as groups that do not capture; a
//! class subtraction `[a-z-[aeiou]]` as one set; the quirks of .NET's class scanner kept
//! (`[a\-z]`, `[[:alpha:]]` as `[`, a range into a subtraction). Every span is mapped back to
//! the pattern.
//!
//! What rxw cannot reproduce is refused with [`ErrorKind::ConstructUnsupported`], each with
//! its reason: balancing groups (`(?<a-b>…)`), groups named by a number, a name several groups
//! share, a named group before an unnamed one (.NET numbers the unnamed ones first), a
//! backreference to a group not yet closed, conditionals on an expression, `\G`, a named block
//! beyond ASCII under IgnoreCase,
//! captures and backreferences inside a look-behind (which .NET matches right to left), a
//! repeated anchor, look-around or atomic group, a class range beyond ASCII under IgnoreCase, a
//! character outside the BMP in the pattern. A text with a character outside the BMP is
//! refused for a pattern whose sets hold a surrogate or that matches the empty text ([`reads_units`]:
//! Mono's matcher reads UTF-16 code units); a backreference under IgnoreCase is matched
//! on ASCII texts only ([`text_rule`] says why).

use crate::ast::{Ast, Span};
use crate::dotnet_unicode as tables;
use crate::error::Error;
#[cfg(doc)]
use crate::error::ErrorKind;
use crate::flavor::Flags;
use crate::fold_table::normalize;
use crate::reader::{self, Cursor, Piece, Switches, refusal};
use crate::rules::dotnet as texts;

/// A pattern read: the sre text of the same meaning, where each piece of it came from, and
/// the reason texts outside ASCII are refused, if they are.
pub(crate) struct Read {
    /// The sre text, to be parsed as [`crate::reader::sre_flavor`] with [`crate::reader::ascii_flags`].
    pub out: String,
    pieces: Vec<Piece>,
    /// Why only ASCII texts are matched as Mono does (`None`: every BMP text is).
    pub ascii_texts: Option<&'static str>,
    /// A set of the pattern holds a surrogate ([`reads_units`]).
    pub units: bool,
}

/// Why Mono matches `pattern` as rxw does on ASCII texts only (`\w \d \s \b`, `IgnoreCase`),
/// or `None` when every text of BMP characters is matched exactly (and when the pattern does
/// not read).
pub fn text_rule(pattern: &str, flags: Flags) -> Option<&'static str> {
    read(pattern, flags).ok().and_then(|r| r.ascii_texts)
}

/// Whether a set of `pattern` (`.`, a negated class, `\W`, `\P{…}`, `\p{Cs}`) holds a
/// surrogate, so that Mono could match one half of a pair where rxw reads the character whole
/// (and when the pattern does not read). A pattern that holds none and cannot match the empty
/// text matches a text outside the BMP as Mono does: no match of it can start or end inside a
/// pair.
pub fn reads_units(pattern: &str, flags: Flags) -> bool {
    read(pattern, flags).map_or(true, |r| r.units)
}

/// Why a text with a character outside the BMP is refused, for a pattern that
/// [`reads_units`] or matches the empty text.
pub const ASTRAL_TEXT: &str = "Mono's matcher reads UTF-16 code units (`.` and a negated \
     class match one half of a surrogate pair), which rxw does not reproduce";

/// Parses a .NET pattern, as [`crate::java::parse`] a Java one.
pub(crate) fn parse(
    pattern: &str,
    flags: Flags,
    parse_sre: reader::ParseSre,
) -> Result<Ast, Error> {
    let read = read(pattern, flags)?;
    let parsed = parse_sre(&read.out, reader::ascii_flags());
    finish(pattern, read, parsed)
}

/// Reads a .NET pattern into sre text.
///
/// # Errors
/// [`ErrorKind::PatternInvalid`] with Mono's description, or
/// [`ErrorKind::ConstructUnsupported`] for what rxw does not reproduce.
pub(crate) fn read(pattern: &str, flags: Flags) -> Result<Read, Error> {
    // First pass: the groups, numbered as .NET numbers them.
    let mut count = Reader::new(pattern, flags, None);
    count.read()?;
    let groups = count.groups;
    let mut reader = Reader::new(pattern, flags, Some(groups));
    reader.read()?;
    reader.check_numbering()?;
    Ok(Read {
        out: reader.cur.out,
        pieces: reader.cur.pieces,
        ascii_texts: reader.ascii_texts,
        units: reader.units,
    })
}

/// The tree of the sre text `parsed` (or its error), mapped back onto `pattern`.
///
/// # Errors
/// [`ErrorKind::ConstructUnsupported`] when the sre parser refused the text (a look-behind
/// whose width is not fixed, which .NET accepts).
pub(crate) fn finish(pattern: &str, read: Read, parsed: Result<Ast, Error>) -> Result<Ast, Error> {
    let lookbehind = ".NET matches any look-behind right to left";
    reader::finish_refusing_lookbehind(pattern, read.pieces, parsed, ("dotnet", ".NET"), lookbehind)
}

/// `RegexOptions` the parser tracks inline.
#[derive(Clone, Copy, Default)]
struct Opts {
    i: bool,
    m: bool,
    n: bool,
    s: bool,
    x: bool,
}

/// A group of the pattern, in the order it opens: its name (`None` for an unnamed capture).
#[derive(Clone, Debug)]
struct Group {
    name: Option<String>,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Capture(usize),
    Plain,
    Atomic,
    LookAhead,
    LookBehind,
    /// A conditional: how many `|` so far.
    Cond(usize),
}

struct Frame {
    kind: Kind,
    saved: Opts,
    /// Where the group's sre text starts.
    out_at: usize,
}

/// What a quantifier would repeat.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Last {
    /// Nothing (start of a branch, after `(?i)`).
    Nothing,
    /// A quantified atom: another quantifier is nested.
    Quantified,
    /// An atom, whose sre text starts at this offset of `out`.
    Atom(usize),
    /// A zero-width atom (an anchor, `\b`, a look-around), whose sre text starts here.
    ZeroWidth(usize),
    /// An atomic group, whose sre text starts here.
    Atomic(usize),
}

struct Reader<'p> {
    cur: Cursor<'p>,
    opts: Opts,
    frames: Vec<Frame>,
    last: Last,
    /// Captures opened so far, in order.
    groups: Vec<Group>,
    /// The first pass's groups (`None` in the first pass, which checks no reference).
    known: Option<Vec<Group>>,
    /// Captures closed so far, by their .NET number.
    closed: Vec<usize>,
    ascii_texts: Option<&'static str>,
    /// A set written so far holds a surrogate in Mono's view.
    units: bool,
}

const BACKREF_IGNORE_CASE: &str =
    "a backreference under IgnoreCase compares the two texts by Mono's lowercase";

crate::reader::reads_with_cursor!(Reader);

impl<'p> Reader<'p> {
    fn new(pat: &'p str, flags: Flags, known: Option<Vec<Group>>) -> Reader<'p> {
        let Switches { i, m, s, x } = flags.into();
        let opts = Opts {
            i,
            m,
            n: false,
            s,
            x,
        };
        Reader {
            cur: Cursor::new(pat, "dotnet"),
            opts,
            frames: Vec::new(),
            last: Last::Nothing,
            groups: Vec::new(),
            known,
            closed: Vec::new(),
            ascii_texts: None,
            units: false,
        }
    }

    fn left(&self) -> usize {
        self.chars.len() - self.pos
    }

    /// Mono's error, at the character before the scanner's position (where it stopped).
    fn error(&self, description: impl Into<String>) -> Error {
        self.invalid(description, self.pos.saturating_sub(1), self.pos.max(1))
    }

    /// Writes an atom (one sre atom), under `(?i:…)` where IgnoreCase reaches it and it folds.
    fn atom(&mut self, text: &str, from: usize) {
        let at = self.out.len();
        self.emit(text, from);
        self.last = Last::Atom(at);
    }

    fn zero_width(&mut self, text: &str, from: usize) {
        let at = self.out.len();
        self.emit(text, from);
        self.last = Last::ZeroWidth(at);
    }

    fn is_space(c: char) -> bool {
        matches!(c, ' ' | '\t' | '\n' | '\x0c' | '\r')
    }

    /// `ScanBlank`: white space and `#` comments under `x`, `(?#…)` comments always.
    fn blank(&mut self) -> Result<(), Error> {
        loop {
            if self.opts.x {
                self.skip_blank(Self::is_space, |c| c == '\n');
            }
            if self.peek() == Some('(')
                && self.peek_at(1) == Some('?')
                && self.peek_at(2) == Some('#')
            {
                while self.peek().is_some_and(|c| c != ')') {
                    self.pos += 1;
                }
                if self.peek().is_none() {
                    return Err(self.error(texts::UNTERMINATED_COMMENT));
                }
                self.pos += 1;
                continue;
            }
            return Ok(());
        }
    }

    /// `IsTrueQuantifier`: `*`, `+`, `?`, or `{n}`, `{n,}`, `{n,m}`.
    fn is_quantifier(&self) -> bool {
        match self.peek() {
            Some('*' | '+' | '?') => true,
            Some('{') => {
                let mut k = 1;
                let digits = |k: &mut usize| {
                    let from = *k;
                    while self.peek_at(*k).is_some_and(|c| c.is_ascii_digit()) {
                        *k += 1;
                    }
                    *k > from
                };
                if !digits(&mut k) {
                    return false;
                }
                match self.peek_at(k) {
                    Some('}') => true,
                    Some(',') => {
                        k += 1;
                        digits(&mut k);
                        self.peek_at(k) == Some('}')
                    }
                    _ => false,
                }
            }
            _ => false,
        }
    }

    /// `ScanDecimal`: the digits at the position, or Mono's error past `Int32.MaxValue`.
    fn decimal(&mut self) -> Result<u32, Error> {
        let mut n: u32 = 0;
        while let Some(d) = self.peek().and_then(|c| c.to_digit(10)) {
            self.pos += 1;
            n = n
                .checked_mul(10)
                .and_then(|n| n.checked_add(d))
                .filter(|&n| n <= i32::MAX as u32)
                .ok_or_else(|| self.error(texts::CAPTURE_GROUP_OUT_OF_RANGE))?;
        }
        Ok(n)
    }

    fn read(&mut self) -> Result<(), Error> {
        loop {
            let was_quantified = self.last == Last::Quantified;
            self.blank()?;
            let start = self.pos;
            let Some(c) = self.peek() else { break };
            if self.frames.len() > 400 {
                return Err(self.refuse("nesting this deep", start));
            }
            match c {
                '\\' => {
                    self.pos += 1;
                    self.backslash(start)?;
                }
                '[' => {
                    self.pos += 1;
                    let class = self.class()?;
                    // (The first pass only numbers the groups: no set is made.)
                    let text = if self.known.is_none() {
                        "x".to_string()
                    } else {
                        let folds = class.folds;
                        self.units |=
                            surrogates().any(|x| class.holds(if folds { lower(x) } else { x }));
                        class.sre()
                    };
                    self.atom(&text, start);
                }
                '(' => {
                    self.pos += 1;
                    self.open(start)?;
                    continue;
                }
                ')' => {
                    self.pos += 1;
                    self.close(start)?;
                }
                '|' => {
                    self.pos += 1;
                    if let Some(Frame {
                        kind: Kind::Cond(n),
                        ..
                    }) = self.frames.last_mut()
                    {
                        *n += 1;
                    }
                    self.emit("|", start);
                    self.last = Last::Nothing;
                    continue;
                }
                '^' => {
                    self.pos += 1;
                    let text = if self.opts.m { "(?m:^)" } else { r"\A" };
                    self.zero_width(text, start);
                }
                '$' => {
                    self.pos += 1;
                    let text = if self.opts.m { "(?m:$)" } else { r"(?=\n?\Z)" };
                    self.zero_width(text, start);
                }
                '.' => {
                    self.pos += 1;
                    let text = if self.opts.s { r"[\s\S]" } else { r"[^\n]" };
                    // Any character but a newline holds the surrogates.
                    self.units = true;
                    self.atom(text, start);
                }
                '*' | '+' | '?' => {
                    self.pos += 1;
                    return Err(self.quantifier_error(c, was_quantified));
                }
                '{' if self.is_quantifier() => {
                    self.pos += 1;
                    return Err(self.quantifier_error(c, was_quantified));
                }
                _ => {
                    self.pos += 1;
                    self.literal(c, start)?;
                }
            }
            self.quantifier()?;
        }
        if !self.frames.is_empty() {
            return Err(self.error(texts::NOT_ENOUGH_PARENS));
        }
        Ok(())
    }

    fn quantifier_error(&self, c: char, was_quantified: bool) -> Error {
        if was_quantified {
            self.error(texts::TEXTS.nested_repetition.replace("{}", &c.to_string()))
        } else {
            self.error(texts::QUANTIFY_AFTER_NOTHING)
        }
    }

    fn literal(&mut self, c: char, start: usize) -> Result<(), Error> {
        if !is_bmp(c) {
            return Err(self.refuse(
                "a character outside the BMP in the pattern (.NET reads it as two UTF-16 units)",
                start,
            ));
        }
        // Under IgnoreCase the pattern's character is its lowercase, and so is the text's:
        // every character with the same lowercase matches.
        let set = if self.opts.i {
            fold_set(c as u32)
        } else {
            vec![(c as u32, c as u32)]
        };
        let text = match set.as_slice() {
            [(a, b)] if a == b => sre_char(char::from_u32(*a).unwrap_or(c)),
            _ => sre_set(&set),
        };
        self.atom(&text, start);
        Ok(())
    }

    /// The quantifier after an atom, if there is one (`ScanRegex`'s quantifier loop).
    fn quantifier(&mut self) -> Result<(), Error> {
        let (at, zero_width) = match self.last {
            Last::Atom(at) => (at, false),
            Last::ZeroWidth(at) => (at, true),
            Last::Atomic(at) => (at, false),
            _ => return Ok(()),
        };
        let atomic = matches!(self.last, Last::Atomic(_));
        self.blank()?;
        if !self.is_quantifier() {
            return Ok(());
        }
        if atomic {
            let from = self.pos;
            return Err(self.refuse(
                "a repeated atomic group (.NET backtracks into the repetition differently)",
                from,
            ));
        }
        if zero_width {
            let from = self.pos;
            return Err(self.refuse(
                "a repeated anchor or look-around (.NET's loop over an empty iteration differs)",
                from,
            ));
        }
        let c = self.peek().unwrap_or('*');
        self.pos += 1;
        let (min, max) = match c {
            '*' => (0, None),
            '+' => (1, None),
            '?' => (0, Some(1)),
            _ => {
                let min = self.decimal()?;
                let max = if self.peek() == Some(',') {
                    self.pos += 1;
                    if self.peek() == Some('}') {
                        None
                    } else {
                        Some(self.decimal()?)
                    }
                } else {
                    Some(min)
                };
                self.pos += 1; // `}`
                (min, max)
            }
        };
        self.blank()?;
        let lazy = self.peek() == Some('?');
        if lazy {
            self.pos += 1;
        }
        if max.is_some_and(|max| min > max) {
            return Err(self.error(texts::ILLEGAL_RANGE));
        }
        let atom = self.out.split_off(at);
        let count = match (min, max) {
            (0, None) => "*".to_string(),
            (1, None) => "+".to_string(),
            (0, Some(1)) => "?".to_string(),
            (m, None) => format!("{{{m},}}"),
            (m, Some(n)) if m == n => format!("{{{m}}}"),
            (m, Some(n)) => format!("{{{m},{n}}}"),
        };
        let lazy = if lazy { "?" } else { "" };
        // Every atom is one sre atom (a character, a class, a group) but the empty set, a
        // look-ahead: that one is wrapped in a group, new text; the atom's pieces stay where
        // they were, the repetition is the quantifier's.
        let quant_from = self.pieces.last().map_or(0, |p| p.3);
        let start = self.chars.partition_point(|c| c.0 < quant_from);
        let wrap = atom.starts_with("(?!") || atom.starts_with("(?=");
        if wrap {
            self.out.push_str("(?:");
            for p in self.pieces.iter_mut().filter(|p| p.0 >= at) {
                p.0 += 3;
                p.1 += 3;
            }
        }
        self.out.push_str(&atom);
        let count = if wrap { format!("){count}") } else { count };
        self.emit(&format!("{count}{lazy}"), start);
        self.last = Last::Quantified;
        Ok(())
    }

    fn backslash(&mut self, start: usize) -> Result<(), Error> {
        let Some(c) = self.peek() else {
            return Err(self.error(texts::ILLEGAL_END_ESCAPE));
        };
        match c {
            'b' | 'B' => {
                self.pos += 1;
                // `RegexCharClass.IsWordChar` on each side, by Mono's table (not lowercased).
                let w = word_boundary_set();
                let text = if c == 'b' {
                    format!("(?:(?<={w})(?!{w})|(?<!{w})(?={w}))")
                } else {
                    format!("(?:(?<={w})(?={w})|(?<!{w})(?!{w}))")
                };
                self.zero_width(&text, start);
            }
            'A' => {
                self.pos += 1;
                self.zero_width(r"\A", start);
            }
            'Z' => {
                self.pos += 1;
                self.zero_width(r"(?=\n?\Z)", start);
            }
            'z' => {
                self.pos += 1;
                self.zero_width(r"\Z", start);
            }
            'G' => {
                self.pos += 1;
                return Err(self.refuse("`\\G` (where the previous match ended)", start));
            }
            'w' | 'W' | 's' | 'S' | 'd' | 'D' => {
                self.pos += 1;
                let text = perl_set(c, self.opts.i);
                self.units |= surrogates().any(|x| perl_holds(c, x));
                self.atom(&text, start);
            }
            'p' | 'P' => {
                self.pos += 1;
                let property = self.property(c == 'P', self.opts.i, start)?;
                let folds = self.opts.i;
                self.units |= surrogates().any(|x| property.holds(x));
                let text = if self.known.is_none() {
                    "x".to_string()
                } else if folds {
                    sre_set(&set_of(|t| property.holds(lower(t))))
                } else {
                    sre_set(&property.ranges())
                };
                self.atom(&text, start);
            }
            _ => return self.basic_backslash(start),
        }
        Ok(())
    }

    /// `ParseProperty` and the name's lookup (`AddCategoryFromName`): a general category or a
    /// named block of Mono's tables. Under IgnoreCase `Ll`, `Lu` and `Lt` each stand for the
    /// three, as Mono has it; a block beyond ASCII is refused there (Mono widens its range by a
    /// lowercase table of its own).
    fn property(&mut self, negated: bool, folds: bool, start: usize) -> Result<Property, Error> {
        if self.left() < 3 {
            return Err(self.error(texts::INCOMPLETE_SLASH_P));
        }
        if self.peek() != Some('{') {
            self.pos += 1;
            return Err(self.error(texts::MALFORMED_SLASH_P));
        }
        self.pos += 1;
        let name_from = self.pos;
        while self.peek().is_some_and(|c| is_word_char(c) || c == '-') {
            self.pos += 1;
        }
        if self.peek() != Some('}') {
            self.pos = (self.pos + 1).min(self.chars.len());
            return Err(self.error(texts::INCOMPLETE_SLASH_P));
        }
        let name: String = self.chars[name_from..self.pos]
            .iter()
            .map(|c| c.1)
            .collect();
        self.pos += 1;
        let Ok(k) = tables::PROPERTIES.binary_search_by(|p| p.0.cmp(name.as_str())) else {
            return Err(self.error(texts::TEXTS.unknown_property.replace("{}", &name)));
        };
        let (_, kind, set) = tables::PROPERTIES[k];
        if folds && kind == tables::PropertyKind::Block && set.iter().any(|r| r.1 > 0x7F) {
            return Err(self.refuse(
                "under IgnoreCase, a named block beyond ASCII (Mono widens its range by its own lowercase table)",
                start,
            ));
        }
        let sets = if folds && matches!(name.as_str(), "Ll" | "Lu" | "Lt") {
            ["Ll", "Lu", "Lt"]
                .iter()
                .filter_map(|n| tables::PROPERTIES.iter().find(|p| p.0 == *n))
                .map(|p| p.2)
                .collect()
        } else {
            vec![set]
        };
        Ok(Property { sets, negated })
    }

    /// `ScanBasicBackslash`: backreferences, else a character escape.
    fn basic_backslash(&mut self, start: usize) -> Result<(), Error> {
        let back = self.pos;
        let mut c = self.peek().unwrap_or('\\');
        let mut close = None;
        if c == 'k' {
            if self.left() >= 2 {
                self.pos += 1;
                let next = self.peek().unwrap_or(' ');
                self.pos += 1;
                if next == '<' || next == '\'' {
                    close = Some(if next == '\'' { '\'' } else { '>' });
                }
            }
            if close.is_none() || self.left() == 0 {
                return Err(self.error(texts::MALFORMED_NAME_REF));
            }
            c = self.peek().unwrap_or(' ');
        } else if (c == '<' || c == '\'') && self.left() > 1 {
            close = Some(if c == '\'' { '\'' } else { '>' });
            self.pos += 1;
            c = self.peek().unwrap_or(' ');
        }
        if let Some(close) = close {
            if c.is_ascii_digit() {
                let n = self.decimal()?;
                if self.peek() == Some(close) {
                    self.pos += 1;
                    return self.backref_number(n, start);
                }
            } else if is_word_char(c) {
                let name = self.capname();
                if self.peek() == Some(close) {
                    self.pos += 1;
                    return self.backref_name(&name, start);
                }
            }
        } else if ('1'..='9').contains(&c) {
            let n = self.decimal()?;
            if self.is_slot(n) {
                return self.backref_number(n, start);
            }
            if n <= 9 {
                return Err(self.error(texts::UNDEFINED_BACKREF.replace("{}", &n.to_string())));
            }
        }
        self.pos = back;
        let ch = self.char_escape()?;
        self.literal(ch, start)
    }

    fn capname(&mut self) -> String {
        let from = self.pos;
        while self.peek().is_some_and(is_word_char) {
            self.pos += 1;
        }
        self.chars[from..self.pos].iter().map(|c| c.1).collect()
    }

    /// The groups of the pattern as .NET numbers them: the unnamed ones first, then the names
    /// in the order they first appear.
    fn numbering(&self) -> Vec<Group> {
        let all = self.known.as_ref().unwrap_or(&self.groups);
        let mut out: Vec<Group> = all.iter().filter(|g| g.name.is_none()).cloned().collect();
        for g in all.iter().filter(|g| g.name.is_some()) {
            if !out.iter().any(|o| o.name == g.name) {
                out.push(g.clone());
            }
        }
        out
    }

    /// `IsCaptureSlot`: a group number the pattern has (0 is the whole match).
    fn is_slot(&self, n: u32) -> bool {
        self.known.is_none() || (n as usize) <= self.numbering().len()
    }

    fn slot_of(&self, name: &str) -> Option<usize> {
        if self.known.is_none() {
            return Some(0);
        }
        if let Ok(n) = name.parse::<usize>() {
            return (n <= self.numbering().len()).then_some(n);
        }
        self.numbering()
            .iter()
            .position(|g| g.name.as_deref() == Some(name))
            .map(|i| i + 1)
    }

    fn backref_number(&mut self, n: u32, start: usize) -> Result<(), Error> {
        if self.known.is_none() {
            self.atom("(?:)", start);
            return Ok(());
        }
        if !self.is_slot(n) {
            return Err(self.error(texts::UNDEFINED_BACKREF.replace("{}", &n.to_string())));
        }
        self.backref_slot(n as usize, start)
    }

    fn backref_name(&mut self, name: &str, start: usize) -> Result<(), Error> {
        match self.slot_of(name) {
            None => Err(self.error(texts::UNDEFINED_NAME_REF.replace("{}", name))),
            Some(_) if self.known.is_none() => {
                self.atom("(?:)", start);
                Ok(())
            }
            Some(n) => self.backref_slot(n, start),
        }
    }

    fn backref_slot(&mut self, n: usize, start: usize) -> Result<(), Error> {
        if n == 0 {
            return Err(self.refuse("a backreference to the whole match (group 0)", start));
        }
        if !self.closed.contains(&n) {
            return Err(self.refuse(
                "a backreference to a group not yet closed (.NET matches the text of an earlier iteration, or fails)",
                start,
            ));
        }
        if self.in_lookbehind() {
            return Err(self.refuse(
                "a backreference inside a look-behind (.NET matches a look-behind right to left)",
                start,
            ));
        }
        if self.opts.i {
            // Mono compares the two texts' lowercase, sre its own folding: the same on ASCII
            // texts, which the text rule keeps to.
            self.ascii_texts = Some(BACKREF_IGNORE_CASE);
            self.atom(&format!("(?i:(?:\\{n}))"), start);
        } else {
            self.atom(&format!("(?:\\{n})"), start);
        }
        Ok(())
    }

    fn in_lookbehind(&self) -> bool {
        self.frames.iter().any(|f| f.kind == Kind::LookBehind)
    }

    /// `ScanCharEscape`: the character of an escape (the `\` already read).
    fn char_escape(&mut self) -> Result<char, Error> {
        let Some(c) = self.peek() else {
            return Err(self.error(texts::ILLEGAL_END_ESCAPE));
        };
        self.pos += 1;
        if ('0'..='7').contains(&c) {
            self.pos -= 1;
            let (v, _) = self.digits(8, 3);
            return Ok(char::from((v & 0xFF) as u8));
        }
        Ok(match c {
            'x' => self.hex(2)?,
            'u' => self.hex(4)?,
            'a' => '\u{7}',
            'b' => '\u{8}',
            'e' => '\u{1b}',
            'f' => '\u{c}',
            'n' => '\n',
            'r' => '\r',
            't' => '\t',
            'v' => '\u{b}',
            'c' => {
                let Some(k) = self.peek() else {
                    return Err(self.error(texts::MISSING_CONTROL));
                };
                self.pos += 1;
                let k = k.to_ascii_uppercase() as u32;
                match k.checked_sub('@' as u32) {
                    Some(v) if v < 0x20 => char::from_u32(v).unwrap_or('\0'),
                    _ => return Err(self.error(texts::UNRECOGNIZED_CONTROL)),
                }
            }
            c if is_word_char(c) => {
                return Err(self.error(texts::TEXTS.bad_escape.replace("{}", &c.to_string())));
            }
            c => c,
        })
    }

    fn hex(&mut self, n: usize) -> Result<char, Error> {
        let mut v: u32 = 0;
        let mut got = 0;
        if self.left() >= n {
            while got < n {
                let c = self.peek().unwrap_or(' ');
                self.pos += 1;
                match c.to_digit(16) {
                    Some(d) => {
                        v = v * 16 + d;
                        got += 1;
                    }
                    None => break,
                }
            }
        }
        if got < n {
            return Err(self.error(texts::TEXTS.truncated_hex));
        }
        char::from_u32(v).ok_or_else(|| {
            self.refuse(
                "a lone surrogate escape (.NET matches one half of a pair)",
                self.pos.saturating_sub(n + 2),
            )
        })
    }

    /// `ScanGroupOpen` (the `(` read).
    fn open(&mut self, start: usize) -> Result<(), Error> {
        let saved = self.opts;
        let plain = self.peek() != Some('?') || self.peek_at(1) == Some(')');
        if plain {
            if self.opts.n {
                return self.push(Kind::Plain, saved, "(?:", start);
            }
            self.groups.push(Group { name: None });
            let n = self.groups.iter().filter(|g| g.name.is_none()).count();
            return self.push(Kind::Capture(n), saved, "(", start);
        }
        self.pos += 1; // `?`
        let Some(c) = self.peek() else {
            return Err(self.error(texts::UNRECOGNIZED_GROUPING));
        };
        self.pos += 1;
        match c {
            ':' => self.push(Kind::Plain, saved, "(?:", start),
            '=' => self.push(Kind::LookAhead, saved, "(?=", start),
            '!' => self.push(Kind::LookAhead, saved, "(?!", start),
            '>' => self.push(Kind::Atomic, saved, "(?>", start),
            '<' | '\'' => self.named(c, start, saved),
            '(' => self.conditional(start, saved),
            _ => {
                self.pos -= 1;
                let mut off = false;
                while let Some(c) = self.peek() {
                    match c {
                        '-' => off = true,
                        '+' => off = false,
                        _ => {
                            let on = !off;
                            match c.to_ascii_lowercase() {
                                'i' => self.opts.i = on,
                                'm' => self.opts.m = on,
                                'n' => self.opts.n = on,
                                's' => self.opts.s = on,
                                'x' => self.opts.x = on,
                                _ => break,
                            }
                        }
                    }
                    self.pos += 1;
                }
                match self.peek() {
                    Some(')') => {
                        self.pos += 1;
                        // The options hold to the end of the enclosing group.
                        self.last = Last::Nothing;
                        Ok(())
                    }
                    Some(':') => {
                        self.pos += 1;
                        self.push(Kind::Plain, saved, "(?:", start)
                    }
                    _ => {
                        self.pos = (self.pos + 1).min(self.chars.len());
                        Err(self.error(texts::UNRECOGNIZED_GROUPING))
                    }
                }
            }
        }
    }

    fn push(&mut self, kind: Kind, saved: Opts, text: &str, start: usize) -> Result<(), Error> {
        let out_at = self.out.len();
        self.emit(text, start);
        self.frames.push(Frame {
            kind,
            saved,
            out_at,
        });
        self.last = Last::Nothing;
        Ok(())
    }

    /// `(?<…` and `(?'…`: a look-behind, a named group, a balancing group.
    fn named(&mut self, open: char, start: usize, saved: Opts) -> Result<(), Error> {
        let close = if open == '\'' { '\'' } else { '>' };
        let Some(c) = self.peek() else {
            return Err(self.error(texts::UNRECOGNIZED_GROUPING));
        };
        if open == '<' && (c == '=' || c == '!') {
            self.pos += 1;
            let text = if c == '=' { "(?<=" } else { "(?<!" };
            return self.push(Kind::LookBehind, saved, text, start);
        }
        if open == '\'' && (c == '=' || c == '!') {
            self.pos += 1;
            return Err(self.error(texts::UNRECOGNIZED_GROUPING));
        }
        let mut name = None;
        if c.is_ascii_digit() {
            let n = self.decimal()?;
            if self.peek().is_some_and(|c| c != close && c != '-') {
                self.pos += 1;
                return Err(self.error(texts::INVALID_GROUP_NAME));
            }
            if n == 0 {
                return Err(self.error(texts::CAPNUM_NOT_ZERO));
            }
            if self.peek() == Some(close) {
                self.pos += 1;
                return Err(self.refuse("a group named by a number", start));
            }
        } else if is_word_char(c) {
            let n = self.capname();
            if self.peek().is_some_and(|c| c != close && c != '-') {
                self.pos += 1;
                return Err(self.error(texts::INVALID_GROUP_NAME));
            }
            name = Some(n);
        } else if c != '-' {
            self.pos += 1;
            return Err(self.error(texts::INVALID_GROUP_NAME));
        }
        if self.peek() == Some('-') {
            // A balancing group: check its syntax as .NET does, then refuse it.
            self.pos += 1;
            let c = self.peek().unwrap_or(' ');
            if c.is_ascii_digit() {
                let n = self.decimal()?;
                if !self.is_slot(n) {
                    return Err(self.error(texts::UNDEFINED_BACKREF.replace("{}", &n.to_string())));
                }
            } else if is_word_char(c) {
                let other = self.capname();
                if self.slot_of(&other).is_none() {
                    return Err(self.error(texts::UNDEFINED_NAME_REF.replace("{}", &other)));
                }
            } else {
                self.pos = (self.pos + 1).min(self.chars.len());
                return Err(self.error(texts::INVALID_GROUP_NAME));
            }
            if self.peek().is_some_and(|c| c != close) {
                self.pos += 1;
                return Err(self.error(texts::INVALID_GROUP_NAME));
            }
            if self.peek() == Some(close) {
                self.pos += 1;
                return Err(self.refuse("a balancing group (`(?<a-b>…)`)", start));
            }
            return Err(self.error(texts::UNRECOGNIZED_GROUPING));
        }
        if self.peek() != Some(close) {
            self.pos = (self.pos + 1).min(self.chars.len());
            return Err(self.error(texts::UNRECOGNIZED_GROUPING));
        }
        self.pos += 1;
        let Some(name) = name else {
            return Err(self.error(texts::UNRECOGNIZED_GROUPING));
        };
        if !name.is_ascii() || name.starts_with(|c: char| c.is_ascii_digit()) {
            return Err(self.refuse("a group name outside ASCII", start));
        }
        if self.groups.iter().any(|g| g.name.as_deref() == Some(&name)) {
            return Err(self.refuse(
                "a name several groups share (.NET makes them one group)",
                start,
            ));
        }
        self.groups.push(Group {
            name: Some(name.clone()),
        });
        let n = self.groups.len();
        self.push(Kind::Capture(n), saved, &format!("(?P<{name}>"), start)
    }

    /// `(?(…)yes|no)`: a group's number or name is tested; an expression is refused.
    fn conditional(&mut self, start: usize, saved: Opts) -> Result<(), Error> {
        let paren = self.pos;
        if let Some(c) = self.peek() {
            if c.is_ascii_digit() {
                let n = self.decimal()?;
                let closed = self.peek() == Some(')');
                self.pos = (self.pos + 1).min(self.chars.len());
                if !closed {
                    return Err(
                        self.error(texts::MALFORMED_REFERENCE.replace("{}", &n.to_string()))
                    );
                }
                if !self.is_slot(n) {
                    return Err(
                        self.error(texts::UNDEFINED_REFERENCE.replace("{}", &n.to_string()))
                    );
                }
                return self.push(Kind::Cond(0), saved, &format!("(?({n})"), start);
            }
            if is_word_char(c) {
                let name = self.capname();
                if let Some(n) = self.slot_of(&name)
                    && self.peek() == Some(')')
                {
                    self.pos += 1;
                    return self.push(Kind::Cond(0), saved, &format!("(?({n})"), start);
                }
            }
        }
        // (.NET looks at the condition's own `(?` here, from the `(` after `(?`.)
        self.pos = paren;
        if self.peek() == Some('?') && self.left() >= 2 {
            match self.peek_at(1) {
                Some('#') => {
                    self.pos += 2;
                    return Err(self.error(texts::ALTERNATION_CANT_HAVE_COMMENT));
                }
                Some('\'') => {
                    self.pos += 2;
                    return Err(self.error(texts::ALTERNATION_CANT_CAPTURE));
                }
                Some('<') if self.left() >= 3 && !matches!(self.peek_at(2), Some('!' | '=')) => {
                    self.pos += 2;
                    return Err(self.error(texts::ALTERNATION_CANT_CAPTURE));
                }
                _ => {}
            }
        }
        Err(self.refuse("a conditional on an expression (`(?(expr)yes|no)`)", start))
    }

    fn close(&mut self, start: usize) -> Result<(), Error> {
        let Some(frame) = self.frames.pop() else {
            return Err(self.error(texts::TOO_MANY_PARENS));
        };
        if let Kind::Cond(n) = frame.kind
            && n > 1
        {
            return Err(self.error(texts::TOO_MANY_ALTERNATES));
        }
        if let Kind::Capture(n) = frame.kind {
            if self.in_lookbehind() {
                return Err(self.refuse(
                    "a capture inside a look-behind (.NET matches a look-behind right to left)",
                    start,
                ));
            }
            let number = self.dotnet_number(n);
            self.closed.push(number);
        }
        self.opts = frame.saved;
        self.emit(")", start);
        // The whole group is the atom a quantifier repeats.
        self.last = if matches!(frame.kind, Kind::LookAhead | Kind::LookBehind) {
            Last::ZeroWidth(frame.out_at)
        } else if frame.kind == Kind::Atomic {
            Last::Atomic(frame.out_at)
        } else {
            Last::Atom(frame.out_at)
        };
        Ok(())
    }

    /// The .NET number of the `k`-th capture opened (1-based, in opening order).
    fn dotnet_number(&self, k: usize) -> usize {
        let g = &self.groups[k - 1];
        match &g.name {
            None => self.groups[..k].iter().filter(|g| g.name.is_none()).count(),
            Some(name) => self.slot_of(name).unwrap_or(k),
        }
    }

    /// The sre text numbers captures as they open; .NET numbers the unnamed ones first. The
    /// two agree when no named group comes before an unnamed one.
    fn check_numbering(&self) -> Result<(), Error> {
        let mut named = false;
        for g in &self.groups {
            match g.name {
                Some(_) => named = true,
                None if named => {
                    return Err(refusal(
                        "dotnet",
                        self.pat,
                        "a named group before an unnamed one (.NET numbers the unnamed groups first)",
                        Span::new(0, self.pat.len()),
                    ));
                }
                None => {}
            }
        }
        Ok(())
    }

    /// `ScanCharClass` (the `[` read): the class, with .NET's scanner's quirks.
    fn class(&mut self) -> Result<Class, Error> {
        let mut class = Class {
            folds: self.opts.i,
            ..Class::default()
        };
        if self.peek() == Some('^') {
            self.pos += 1;
            class.negated = true;
        }
        let mut in_range = false;
        let mut prev = '\0';
        let mut first = true;
        loop {
            let Some(mut ch) = self.peek() else {
                return Err(self.error(texts::UNTERMINATED_BRACKET));
            };
            self.pos += 1;
            let mut translated = false;
            if ch == ']' && !first {
                break;
            }
            if ch == '\\' && self.peek().is_some() {
                let e = self.peek().unwrap_or(' ');
                self.pos += 1;
                match e {
                    'd' | 'D' | 's' | 'S' | 'w' | 'W' => {
                        if in_range {
                            return Err(self.error(
                                texts::TEXTS
                                    .class_range_boundary
                                    .replace("{}", &e.to_string()),
                            ));
                        }
                        class.items.push(Item::Perl(e));
                        first = false;
                        continue;
                    }
                    'p' | 'P' => {
                        if in_range {
                            return Err(self.error(
                                texts::TEXTS
                                    .class_range_boundary
                                    .replace("{}", &e.to_string()),
                            ));
                        }
                        let from = self.pos - 2;
                        let property = self.property(e == 'P', class.folds, from)?;
                        class.items.push(Item::Property(property));
                        first = false;
                        continue;
                    }
                    '-' => {
                        class.add(self, '-', '-')?;
                        first = false;
                        continue;
                    }
                    _ => {
                        self.pos -= 1;
                        ch = self.char_escape()?;
                        translated = true;
                    }
                }
            } else if ch == '[' && self.peek() == Some(':') && !in_range {
                let save = self.pos;
                self.pos += 1;
                self.capname();
                let ok =
                    self.left() >= 2 && self.peek() == Some(':') && self.peek_at(1) == Some(']');
                if ok {
                    self.pos += 2;
                } else {
                    self.pos = save;
                }
            }
            if in_range {
                in_range = false;
                if ch == '[' && !translated && !first {
                    class.add(self, prev, prev)?;
                    class.subtract = Some(Box::new(self.class()?));
                    if self.peek().is_some_and(|c| c != ']') {
                        return Err(self.error(texts::SUBTRACTION_MUST_BE_LAST));
                    }
                } else {
                    if prev > ch {
                        return Err(self.error(texts::TEXTS.class_range_order));
                    }
                    class.add(self, prev, ch)?;
                }
            } else if self.left() >= 2 && self.peek() == Some('-') && self.peek_at(1) != Some(']') {
                prev = ch;
                in_range = true;
                self.pos += 1;
            } else if self.left() >= 1
                && ch == '-'
                && !translated
                && self.peek() == Some('[')
                && !first
            {
                self.pos += 1;
                class.subtract = Some(Box::new(self.class()?));
                if self.peek().is_some_and(|c| c != ']') {
                    return Err(self.error(texts::SUBTRACTION_MUST_BE_LAST));
                }
            } else {
                class.add(self, ch, ch)?;
            }
            first = false;
        }
        Ok(class)
    }
}

/// What a class lists.
enum Item {
    /// The characters from one to the other.
    Range(char, char),
    /// `\w \W \d \D \s \S`.
    Perl(char),
    /// `\p{…}`, `\P{…}`.
    Property(Property),
}

/// A `\p{…}`: the sets of Mono's tables it unites, negated or not.
struct Property {
    sets: Vec<&'static [(u16, u16)]>,
    negated: bool,
}

impl Property {
    fn holds(&self, x: u32) -> bool {
        self.sets.iter().any(|set| in_table(set, x)) != self.negated
    }

    fn ranges(&self) -> Vec<(u32, u32)> {
        let set = normalize(
            self.sets
                .iter()
                .flat_map(|s| s.iter().map(|r| (u32::from(r.0), u32::from(r.1))))
                .collect(),
        );
        if self.negated { complement(&set) } else { set }
    }
}

/// A .NET class as its scanner builds it: the items, negated or not, less a subtracted class;
/// under IgnoreCase (`folds`) its single characters are their lowercase and its ranges gain
/// theirs, and the text's character is lowercased before it is tested (`RegexCharClass`).
#[derive(Default)]
struct Class {
    negated: bool,
    folds: bool,
    items: Vec<Item>,
    subtract: Option<Box<Class>>,
}

impl Class {
    fn add(&mut self, r: &Reader, a: char, b: char) -> Result<(), Error> {
        if !is_bmp(a) || !is_bmp(b) {
            return Err(r.refuse(
                "a character outside the BMP in a class (.NET reads it as two UTF-16 units)",
                r.pos.saturating_sub(1),
            ));
        }
        if self.folds && a != b && !(a.is_ascii() && b.is_ascii()) {
            return Err(r.refuse(
                "under IgnoreCase, a class range beyond ASCII (Mono widens it by its own lowercase table)",
                r.pos.saturating_sub(1),
            ));
        }
        self.items.push(Item::Range(a, b));
        Ok(())
    }

    /// Whether `x` (the text's character, lowercased under IgnoreCase) is in the class.
    fn holds(&self, x: u32) -> bool {
        let listed = self.items.iter().any(|item| match *item {
            Item::Range(a, b) if a == b && self.folds => x == lower(a as u32),
            Item::Range(a, b) => {
                let (a, b) = (a as u32, b as u32);
                (a..=b).contains(&x)
                    // An ASCII range gains the lowercase of its capitals.
                    || (self.folds && (0x61..=0x7A).contains(&x) && (a..=b).contains(&(x - 0x20)))
            }
            Item::Perl(k) => perl_holds(k, x),
            Item::Property(ref p) => p.holds(x),
        });
        (listed != self.negated) && !self.subtract.as_ref().is_some_and(|s| s.holds(x))
    }

    /// One sre atom: the set of characters the class matches.
    fn sre(&self) -> String {
        if self.folds {
            return sre_set(&set_of(|t| self.holds(lower(t))));
        }
        sre_set(&self.ranges())
    }

    /// The set the class matches without IgnoreCase, by set operations on ranges.
    fn ranges(&self) -> Vec<(u32, u32)> {
        let mut all: Vec<(u32, u32)> = Vec::new();
        for item in &self.items {
            match *item {
                Item::Range(a, b) => all.push((a as u32, b as u32)),
                Item::Perl(k) => all.extend(perl_ranges(k)),
                Item::Property(ref p) => all.extend(p.ranges()),
            }
        }
        let mut set = normalize(all);
        if self.negated {
            set = complement(&set);
        }
        match &self.subtract {
            Some(sub) => intersect(&set, &complement(&sub.ranges())),
            None => set,
        }
    }
}

/// `\w \W \d \D \s \S` (`k`) as an sre set, under IgnoreCase (`folds`) the characters whose
/// lowercase it holds (made once each).
fn perl_set(k: char, folds: bool) -> String {
    static SETS: std::sync::OnceLock<std::collections::HashMap<(char, bool), String>> =
        std::sync::OnceLock::new();
    let sets = SETS.get_or_init(|| {
        let mut m = std::collections::HashMap::new();
        for k in ['w', 'W', 'd', 'D', 's', 'S'] {
            for folds in [false, true] {
                let set = set_of(|t| perl_holds(k, if folds { lower(t) } else { t }));
                m.insert((k, folds), sre_set(&set));
            }
        }
        m
    });
    sets[&(k, folds)].clone()
}

/// `\b`'s word characters as an sre set.
fn word_boundary_set() -> &'static str {
    static SET: std::sync::OnceLock<String> = std::sync::OnceLock::new();
    SET.get_or_init(|| sre_set(&set_of(in_boundary_word)))
}

/// `\w \W \d \D \s \S` (`k`) as ranges, from Mono's tables.
fn perl_ranges(k: char) -> Vec<(u32, u32)> {
    let table = match k.to_ascii_lowercase() {
        'w' => tables::WORD,
        'd' => tables::DIGIT,
        _ => tables::SPACE,
    };
    let set: Vec<(u32, u32)> = table
        .iter()
        .map(|r| (u32::from(r.0), u32::from(r.1)))
        .collect();
    if k.is_ascii_uppercase() {
        complement(&set)
    } else {
        set
    }
}

/// The BMP characters (surrogates aside) outside `set`.
fn complement(set: &[(u32, u32)]) -> Vec<(u32, u32)> {
    intersect(
        &reader::complement(set, 0xFFFF),
        &[(0, 0xD7FF), (0xE000, 0xFFFF)],
    )
}

fn intersect(x: &[(u32, u32)], y: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let (mut i, mut j) = (0, 0);
    while i < x.len() && j < y.len() {
        let (a, b) = (x[i].0.max(y[j].0), x[i].1.min(y[j].1));
        if a <= b {
            out.push((a, b));
        }
        if x[i].1 < y[j].1 {
            i += 1;
        } else {
            j += 1;
        }
    }
    out
}

/// Whether `\w \W \d \D \s \S` (`k`) holds `x`, by Mono's tables.
fn perl_holds(k: char, x: u32) -> bool {
    let table = match k.to_ascii_lowercase() {
        'w' => tables::WORD,
        'd' => tables::DIGIT,
        _ => tables::SPACE,
    };
    in_table(table, x) != k.is_ascii_uppercase()
}

/// `RegexCharClass.IsWordChar`: `\w`'s characters and the two joiners.
fn in_boundary_word(x: u32) -> bool {
    in_table(tables::WORD, x) || in_table(tables::BOUNDARY_BESIDES_WORD, x)
}

fn in_table(table: &[(u16, u16)], x: u32) -> bool {
    let i = table.partition_point(|r| u32::from(r.1) < x);
    table.get(i).is_some_and(|r| u32::from(r.0) <= x)
}

/// The invariant culture's lowercase of `c` (Mono's `TextInfo.ToLower`).
fn lower(c: u32) -> u32 {
    let i = tables::LOWER.partition_point(|p| u32::from(p.0) < c);
    match tables::LOWER.get(i) {
        Some(p) if u32::from(p.0) == c => u32::from(p.1),
        _ => c,
    }
}

/// The BMP characters (surrogates aside) `holds` says yes to, as ranges.
fn set_of(holds: impl Fn(u32) -> bool) -> Vec<(u32, u32)> {
    let mut out: Vec<(u32, u32)> = Vec::new();
    for c in (0..0xD800).chain(0xE000..0x1_0000) {
        if !holds(c) {
            continue;
        }
        match out.last_mut() {
            Some(r) if r.1 + 1 == c => r.1 = c,
            _ => out.push((c, c)),
        }
    }
    out
}

/// The characters with the same lowercase as `c`: what `c` matches under IgnoreCase.
fn fold_set(c: u32) -> Vec<(u32, u32)> {
    static BY_LOWER: std::sync::OnceLock<std::collections::HashMap<u32, Vec<u32>>> =
        std::sync::OnceLock::new();
    let by_lower = BY_LOWER.get_or_init(|| {
        let mut m: std::collections::HashMap<u32, Vec<u32>> = std::collections::HashMap::new();
        for &(from, to) in tables::LOWER {
            m.entry(u32::from(to)).or_default().push(u32::from(from));
        }
        m
    });
    let l = lower(c);
    let mut all: Vec<u32> = by_lower.get(&l).cloned().unwrap_or_default();
    if lower(l) == l {
        all.push(l);
    }
    all.sort_unstable();
    all.into_iter().map(|c| (c, c)).collect()
}

/// A set as one sre atom: a class of its ranges (`(?!)` when empty).
fn sre_set(set: &[(u32, u32)]) -> String {
    if set.is_empty() {
        return "(?!)".to_string();
    }
    let mut out = String::from("[");
    for &(a, b) in set {
        let ch = |c: u32| sre_class_char(char::from_u32(c).unwrap_or('\0'));
        out.push_str(&ch(a));
        if b > a {
            out.push('-');
            out.push_str(&ch(b));
        }
    }
    out.push(']');
    out
}

/// `RegexCharClass.IsWordChar` (the characters of a name, the letters no escape may be):
/// `\w`'s and the two joiners, `\b`'s word characters in Mono's tables.
fn is_word_char(c: char) -> bool {
    in_boundary_word(c as u32)
}

/// The UTF-16 surrogates, which Mono's sets may hold and a text's characters never are.
fn surrogates() -> std::ops::RangeInclusive<u32> {
    0xD800..=0xDFFF
}

fn is_bmp(c: char) -> bool {
    (c as u32) < 0x1_0000
}

/// A character as sre text outside a class: as written where sre reads it so (the tree's
/// explanation then says what the pattern says), escaped where it is special, in hex where it
/// is a control character, a space or a mark.
fn sre_char(c: char) -> String {
    sre_char_in(c, ".^$*+?{}[]\\|()")
}

/// A character as sre text inside a class.
fn sre_class_char(c: char) -> String {
    sre_char_in(c, "]\\^-[")
}

/// A character outside ASCII that shows as itself (not a space, a control or a format character).
fn visible(c: char) -> bool {
    !c.is_ascii()
        && !c.is_whitespace()
        && !c.is_control()
        && !matches!(c, '\u{200b}'..='\u{200f}' | '\u{2028}'..='\u{202e}' | '\u{2060}'..='\u{206f}' | '\u{feff}')
}

fn sre_char_in(c: char, special: &str) -> String {
    if special.contains(c) {
        format!("\\{c}")
    } else if c.is_alphanumeric() || (c.is_ascii_graphic() && c != '#') || visible(c) {
        c.to_string()
    } else if (c as u32) < 0x100 {
        format!("\\x{:02x}", c as u32)
    } else {
        format!("\\u{:04x}", c as u32)
    }
}

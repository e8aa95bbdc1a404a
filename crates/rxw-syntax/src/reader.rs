//! What the readers of a grammar of their own ([`crate::java`], [`crate::onig`],
//! [`crate::pcre2`], [`crate::dotnet`]) share: a [`Cursor`] over the pattern that writes the sre
//! text of the same meaning and remembers where each piece of it came from, the text's flavor
//! and flags, and the mapping of the sre tree's spans back onto the pattern ([`map_back`]).

use crate::ast::{Ast, ClassItem, Node, NodeKind, Span};
use crate::error::{Error, ErrorKind};
use crate::flavor::{Flags, Flavor, PyVersion};

/// The flags a reader carries itself as the engine's parser does (an inline group sets and
/// clears them, its end restores them): `i`, `m` (each flavor's own meaning of it), `s`, `x`.
#[derive(Clone, Copy, Default)]
pub(crate) struct Switches {
    pub(crate) i: bool,
    pub(crate) m: bool,
    pub(crate) s: bool,
    pub(crate) x: bool,
}

impl From<Flags> for Switches {
    fn from(flags: Flags) -> Switches {
        Switches {
            i: flags.ignore_case,
            m: flags.multiline,
            s: flags.dotall,
            x: flags.verbose,
        }
    }
}

/// Where a piece of the sre text came from: `(out_start, out_end, src_start, src_end)`.
pub(crate) type Piece = (usize, usize, usize, usize);

/// The flavor a reader's sre text is parsed in.
pub(crate) fn sre_flavor() -> Flavor {
    Flavor::Python(PyVersion::V3_11)
}

/// The sre parser a reader's text goes through (as [`sre_flavor`], with the flags given):
/// handed to each reader by the parser, which calls the readers (so a reader does not call
/// back up into the parser's module).
pub(crate) type ParseSre = fn(&str, Flags) -> Result<Ast, Error>;

/// The flags a reader's sre text is parsed with, for the readers that leave classes and case
/// folding to the sre grammar: ASCII classes and folding.
pub(crate) fn ascii_flags() -> Flags {
    Flags {
        ascii: true,
        ..Flags::default()
    }
}

/// Sets of code points as sorted ranges, ASCII as the readers' engines have them by default.
pub(crate) mod ascii {
    pub(crate) const DIGIT: &[(u32, u32)] = &[(0x30, 0x39)];
    pub(crate) const WORD: &[(u32, u32)] =
        &[(0x30, 0x39), (0x41, 0x5a), (0x5f, 0x5f), (0x61, 0x7a)];
    pub(crate) const SPACE: &[(u32, u32)] = &[(0x09, 0x0d), (0x20, 0x20)];
    pub(crate) const HEX: &[(u32, u32)] = &[(0x30, 0x39), (0x41, 0x46), (0x61, 0x66)];

    /// The ASCII members of a POSIX class (`alpha`, `punct`, … and `word`).
    pub(crate) fn posix(name: &str) -> Option<&'static [(u32, u32)]> {
        Some(match name {
            "alnum" => &[(0x30, 0x39), (0x41, 0x5a), (0x61, 0x7a)],
            "alpha" => &[(0x41, 0x5a), (0x61, 0x7a)],
            "ascii" => &[(0, 0x7f)],
            "blank" => &[(0x09, 0x09), (0x20, 0x20)],
            "cntrl" => &[(0, 0x1f), (0x7f, 0x7f)],
            "digit" => DIGIT,
            "graph" => &[(0x21, 0x7e)],
            "lower" => &[(0x61, 0x7a)],
            "print" => &[(0x20, 0x7e)],
            "punct" => &[(0x21, 0x2f), (0x3a, 0x40), (0x5b, 0x60), (0x7b, 0x7e)],
            "space" => SPACE,
            "upper" => &[(0x41, 0x5a)],
            "xdigit" => HEX,
            "word" => WORD,
            _ => return None,
        })
    }
}

/// The code points up to `max` outside `set` (sorted ranges that do not overlap).
pub(crate) fn complement(set: &[(u32, u32)], max: u32) -> Vec<(u32, u32)> {
    let mut out = Vec::new();
    let mut next = 0u32;
    for &(lo, hi) in set {
        if lo > next {
            out.push((next, lo - 1));
        }
        next = next.max(hi + 1);
    }
    if next <= max {
        out.push((next, max));
    }
    out
}

/// The white space Java's COMMENTS and Onigmo's `x` skip.
pub(crate) const WHITE: [char; 6] = [' ', '\t', '\n', '\u{b}', '\u{c}', '\r'];

/// A reader's place in the pattern (`pos`, a char index into `chars`) and the sre text it has
/// written so far, each piece with the source it stands for.
pub(crate) struct Cursor<'p> {
    pub(crate) pat: &'p str,
    pub(crate) chars: Vec<(usize, char)>,
    pub(crate) pos: usize,
    pub(crate) out: String,
    pub(crate) pieces: Vec<Piece>,
    /// Where the last piece written starts in `out`.
    pub(crate) last_emit: usize,
    /// The family named in a refusal.
    family: &'static str,
}

impl<'p> Cursor<'p> {
    pub(crate) fn new(pat: &'p str, family: &'static str) -> Cursor<'p> {
        Cursor {
            pat,
            chars: pat.char_indices().collect(),
            pos: 0,
            out: String::new(),
            pieces: Vec::new(),
            last_emit: 0,
            family,
        }
    }

    pub(crate) fn peek(&self) -> Option<char> {
        self.peek_at(0)
    }

    pub(crate) fn peek_at(&self, k: usize) -> Option<char> {
        self.chars.get(self.pos + k).map(|c| c.1)
    }

    /// The byte offset of char index `i` (the pattern's length past its end).
    pub(crate) fn byte(&self, i: usize) -> usize {
        self.chars.get(i).map_or(self.pat.len(), |c| c.0)
    }

    /// The byte offset of the current position.
    pub(crate) fn here(&self) -> usize {
        self.byte(self.pos)
    }

    /// The engine's own error `text`, its span from char `from` to char `to`.
    pub(crate) fn invalid(&self, text: impl Into<String>, from: usize, to: usize) -> Error {
        let at = self.byte(from);
        Error::new(ErrorKind::PatternInvalid, text)
            .with_span_in(self.pat, Some(Span::new(at, self.byte(to).max(at))))
    }

    /// What rxw does not reproduce, from char `from` to the current position.
    pub(crate) fn refuse(&self, what: &str, from: usize) -> Error {
        let at = self.byte(from);
        refusal(
            self.family,
            self.pat,
            what,
            Span::new(at, self.here().max(at)),
        )
    }

    /// Writes `text` for the source from char `from` to the current position.
    pub(crate) fn emit(&mut self, text: &str, from: usize) {
        let (s, e) = (self.byte(from), self.here());
        let o = self.out.len();
        self.last_emit = o;
        self.out.push_str(text);
        self.pieces.push((o, self.out.len(), s, e.max(s)));
    }

    /// Puts the sre text from `from` on in a `(?:…)`, for a quantifier to repeat (the pieces
    /// after `from` move on; the `)` stands at the end of the last piece's source).
    pub(crate) fn group_from(&mut self, from: usize) {
        self.out.insert_str(from, "(?:");
        for p in &mut self.pieces {
            if p.0 >= from {
                p.0 += 3;
            }
            if p.1 > from {
                p.1 += 3;
            }
        }
        let end = self.pieces.last().map_or(0, |p| p.3);
        let o = self.out.len();
        self.out.push(')');
        self.pieces.push((o, o + 1, end, end));
    }

    /// Reads up to `most` digits of `radix`: their value and how many there were.
    pub(crate) fn digits(&mut self, radix: u32, most: usize) -> (u32, usize) {
        let mut v = 0;
        let mut n = 0;
        while n < most
            && let Some(d) = self.peek().and_then(|c| c.to_digit(radix))
        {
            v = v * radix + d;
            n += 1;
            self.pos += 1;
        }
        (v, n)
    }

    /// Skips white space (`is_space`) and `#` comments, each up to the first character that
    /// `ends_comment` (left to be read).
    pub(crate) fn skip_blank(
        &mut self,
        is_space: impl Fn(char) -> bool,
        ends_comment: impl Fn(char) -> bool,
    ) {
        loop {
            match self.peek() {
                Some(c) if is_space(c) => self.pos += 1,
                Some('#') => {
                    while self.peek().is_some_and(|c| !ends_comment(c)) {
                        self.pos += 1;
                    }
                }
                _ => return,
            }
        }
    }
}

/// Makes a reader `$reader<'p>` (with a field `cur: Cursor<'p>`) read with its cursor: its
/// `self.pos`, `self.peek()`, `self.emit(…)` are the cursor's.
macro_rules! reads_with_cursor {
    ($reader:ident) => {
        impl<'p> std::ops::Deref for $reader<'p> {
            type Target = $crate::reader::Cursor<'p>;
            fn deref(&self) -> &Self::Target {
                &self.cur
            }
        }

        impl std::ops::DerefMut for $reader<'_> {
            fn deref_mut(&mut self) -> &mut Self::Target {
                &mut self.cur
            }
        }
    };
}
pub(crate) use reads_with_cursor;

/// The tree of a reader's sre text `parsed`, mapped back onto `pattern` by the `pieces` the
/// reader wrote. Where the sre parser refused the text, the engine's own answer `own(e)` if it
/// has one (what it says of a look-behind), else `family`'s refusal of a construct `engine`
/// reads differently from rxw's matcher.
///
/// # Errors
/// `own(e)`, or [`ErrorKind::ConstructUnsupported`].
pub(crate) fn finish(
    pattern: &str,
    pieces: Vec<Piece>,
    parsed: Result<Ast, Error>,
    (family, engine): (&str, &str),
    own: impl FnOnce(&Error) -> Option<Error>,
) -> Result<Ast, Error> {
    let ast = parsed.map_err(|e| {
        own(&e).unwrap_or_else(|| {
            let what = format!(
                "a construct {engine} reads differently from rxw's matcher ({})",
                e.message
            );
            refusal(family, pattern, &what, Span::new(0, pattern.len()))
        })
    })?;
    Ok(map_back(pattern, pieces, ast))
}

/// [`finish`] for a reader whose engine accepts a look-behind of no fixed width: the sre
/// parser's error on one is `family`'s refusal, saying `why` the engine reads it.
///
/// # Errors
/// [`ErrorKind::ConstructUnsupported`].
pub(crate) fn finish_refusing_lookbehind(
    pattern: &str,
    pieces: Vec<Piece>,
    parsed: Result<Ast, Error>,
    (family, engine): (&str, &str),
    why: &str,
) -> Result<Ast, Error> {
    finish(pattern, pieces, parsed, (family, engine), |e| {
        e.message.contains("look-behind").then(|| {
            let what = format!("a look-behind whose width is not fixed ({why})");
            refusal(family, pattern, &what, Span::new(0, pattern.len()))
        })
    })
}

/// A reader's refusal: `family: what is not reproduced by rxw`, at `span` of `pattern`.
pub(crate) fn refusal(family: &str, pattern: &str, what: &str, span: Span) -> Error {
    Error::new(
        ErrorKind::ConstructUnsupported,
        format!("{family}: {what} is not reproduced by rxw"),
    )
    .with_span_in(pattern, Some(span))
}

/// The tree of a reader's sre text with every span mapped back onto the `pattern` the reader
/// read, by the `pieces` it wrote.
pub(crate) fn map_back(pattern: &str, pieces: Vec<Piece>, mut ast: Ast) -> Ast {
    let map = SpanMap {
        pieces,
        len: pattern.len(),
    };
    remap(&mut ast.root, &map);
    ast.root.span = Span::new(0, pattern.len());
    for g in &mut ast.groups {
        g.span = map.span(g.span);
    }
    ast
}

/// Where each piece of the sre text came from, in the order written.
struct SpanMap {
    pieces: Vec<Piece>,
    len: usize,
}

impl SpanMap {
    fn piece(&self, at: usize) -> Option<&Piece> {
        let i = self.pieces.partition_point(|p| p.1 <= at);
        self.pieces.get(i)
    }

    fn span(&self, s: Span) -> Span {
        let start = self.piece(s.start).map_or(self.len, |p| p.2);
        let end = if s.end == 0 {
            start
        } else {
            self.piece(s.end - 1).map_or(self.len, |p| p.3)
        };
        Span::new(start.min(end), end.max(start))
    }
}

fn remap(root: &mut Node, map: &SpanMap) {
    let mut stack: Vec<&mut Node> = vec![root];
    while let Some(n) = stack.pop() {
        n.span = map.span(n.span);
        match &mut n.kind {
            NodeKind::Group { child, .. } => stack.push(child),
            NodeKind::Repeat { op_span, child, .. } => {
                *op_span = map.span(*op_span);
                stack.push(child);
            }
            NodeKind::Concat(v) | NodeKind::Alternation(v) => stack.extend(v.iter_mut()),
            NodeKind::Class(c) => {
                c.span = map.span(c.span);
                for item in &mut c.items {
                    match item {
                        ClassItem::Char(_, s)
                        | ClassItem::Range(_, _, s)
                        | ClassItem::Perl(_, _, s)
                        | ClassItem::Property(_, _, s)
                        | ClassItem::Posix(_, _, s)
                        | ClassItem::SetOp(_, s)
                        | ClassItem::Strings(_, s) => *s = map.span(*s),
                        // The readers write no nested class.
                        ClassItem::Nested(_) => {}
                    }
                }
            }
            _ => {}
        }
    }
}

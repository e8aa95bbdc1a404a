//! Writing a parse tree out again in a target language's regex syntax, meanings explicit.

use super::dialect::{Dialect, Engines, Possessive};
use super::{Lang, TargetEngine, Translation, refusal, refusal_for};
use crate::Span;
use crate::error::Error;
use crate::flavor::{Flags, Flavor};
use crate::syntax::ast::{
    AnchorKind, Ast, Class, ClassItem, FlagChange, Greed, GroupKind, LiteralForm, Node, NodeKind,
    PerlKind,
};
use crate::syntax::rules::PerlClasses;

/// Nesting deeper than this is refused rather than walked recursively.
const MAX_DEPTH: usize = 200;

/// How an engine differs from the language whose regex syntax it borrows (the language's own
/// [`Dialect`]): the log engines rxw exports presets to (ClickHouse, DuckDB and Loki speak RE2
/// as Go writes it, Vector's VRL the `regex` crate without fancy-regex, Elasticsearch's grok
/// Oniguruma).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Quirks {
    /// The engine's name for refusals ("ClickHouse (RE2)"); `None`: the language's title.
    pub title: Option<&'static str>,
    /// The engine is the `regex` crate alone: whatever would need fancy-regex (look-around,
    /// backreferences, atomic groups, possessive quantifiers) is refused where it stands.
    pub linear_only: bool,
    /// Oniguruma's Ruby syntax on a Java-like base: `(?m)` is its dot-all (there is no
    /// `(?s)`), names keep underscores, `{n,m}+` is not possessive.
    pub oniguruma: bool,
    /// Every named group must stay named (the engine makes fields of the names): a name the
    /// target cannot spell is refused instead of being dropped.
    pub names_required: bool,
}

/// A pattern as parsed: its text, flavor and flags, and its tree.
#[derive(Clone, Copy)]
pub(crate) struct Parsed<'a> {
    pub(crate) pattern: &'a str,
    pub(crate) flavor: Flavor,
    pub(crate) flags: Flags,
    pub(crate) ast: &'a Ast,
}

impl<'a> Parsed<'a> {
    pub(crate) fn new(pattern: &'a str, flavor: Flavor, flags: Flags, ast: &'a Ast) -> Self {
        Parsed {
            pattern,
            flavor,
            flags,
            ast,
        }
    }
}

pub(super) fn translate_ast(src: Parsed, lang: Lang) -> Result<Translation, Error> {
    if (lang.dialect().native)(src.flavor)
        && let Some(t) = verbatim(src, lang)?
    {
        return Ok(t);
    }
    translate_in_dialect(src, lang, Quirks::default())
}

/// Writes the tree out in `lang`'s syntax as an engine with `quirks` reads it, every meaning
/// explicit (never verbatim: the flags are written into the pattern).
pub(crate) fn translate_in_dialect(
    src: Parsed,
    lang: Lang,
    quirks: Quirks,
) -> Result<Translation, Error> {
    translate_with(src, lang, quirks, false).map(|(t, _)| t)
}

/// The closest translation where an exact one is impossible, with every place it differs
/// (empty when it is exact).
///
/// # Errors
/// As [`translate_in_dialect`], for what cannot be written even approximately (look-around in
/// Go, flags only the source has, …).
pub(crate) fn translate_nearest(
    src: Parsed,
    lang: Lang,
) -> Result<(Translation, Vec<Difference>), Error> {
    translate_with(src, lang, Quirks::default(), true)
}

fn translate_with(
    src: Parsed,
    lang: Lang,
    quirks: Quirks,
    nearest: bool,
) -> Result<(Translation, Vec<Difference>), Error> {
    let (pattern, flavor, flags, ast) = (src.pattern, src.flavor, src.flags, src.ast);
    // A Java tree is sre constructs of Java's meaning, its flags already written into it
    // (`crate::syntax::java`): it is written out as the sre tree it is.
    // Ruby's and Oniguruma's trees are the same (`crate::syntax::onig`), exact on every text
    // unless the reader says otherwise: then no program is exact.
    let text_rule = if flavor.is_onig() {
        crate::syntax::onig::text_rule(pattern, flavor, flags)
    } else if flavor.is_dotnet() {
        crate::syntax::dotnet::text_rule(pattern, flags)
    } else {
        None
    };
    if let Some(why) = text_rule {
        return Err(Error::new(
            crate::ErrorKind::ConstructUnsupported,
            format!(
                "{}: no program matches as the engine does on every text ({why})",
                flavor.family_name()
            ),
        ));
    }
    // PCRE2's tree is the same too (`crate::syntax::pcre2`), its flags written into it.
    let (flavor, flags) =
        if flavor.is_java() || flavor.is_onig() || flavor.is_pcre2() || flavor.is_dotnet() {
            (flavor.matcher_flavor(), ast.flags)
        } else {
            (flavor, flags)
        };
    let mut has_backref = false;
    ast.root
        .walk(|n, _| has_backref |= matches!(n.kind, NodeKind::Backref { .. }));
    let d = lang.dialect();
    let mut e = Emitter {
        pattern,
        src: flavor,
        d,
        unnamed_groups: d.re.backrefs_unname_groups && has_backref,
        quirks,
        group_names: ast.groups.iter().map(|g| g.name.clone()).collect(),
        fancy: false,
        js_code_units: flavor.is_js() && !flags.unicode_mode(),
        inline_unicode_off: false,
        no_inline_unicode_off: false,
        nearest: nearest.then(Default::default),
    };
    e.precheck(flags, ast)?;
    let state = State {
        ascii: match flavor.rules().perl_classes {
            PerlClasses::Js | PerlClasses::Ascii => true,
            PerlClasses::Python => ast.flags.ascii,
            PerlClasses::RegexSyntax => false,
        },
        in_lookbehind: false,
        in_loop: false,
        counted: 1,
        flags: Flags {
            ignore_case: flags.ignore_case || ast.flags.ignore_case,
            ascii: flags.ascii || ast.flags.ascii,
            ..flags
        },
    };
    let mut piece = e.node(&ast.root, state, 0)?;
    if e.fancy && e.inline_unicode_off {
        // fancy-regex rejects `(?-u:…)`: write the ASCII word boundaries as look-around.
        e.no_inline_unicode_off = true;
        piece = e.node(&ast.root, state, 0)?;
    }
    let mut differences = e.nearest.take().map(|d| d.into_inner()).unwrap_or_default();
    differences.sort_by_key(|d| (d.span.start, d.span.end));
    let translation = Translation {
        lang,
        pattern: piece.text,
        flags: String::new(),
        verbatim: false,
        engine: if d.re.engines != Engines::LinearThenBacktracking {
            TargetEngine::Standard
        } else if e.fancy {
            TargetEngine::RustFancy
        } else {
            TargetEngine::RustRegex
        },
    };
    Ok((translation, differences))
}

/// The pattern as written, for the engine that defines its flavor. `None` when the flags
/// cannot be passed on (JS `x`, which node's RegExp does not have), so a rewrite is tried.
fn verbatim(src: Parsed, lang: Lang) -> Result<Option<Translation>, Error> {
    let (pattern, flavor, flags, ast) = (src.pattern, src.flavor, src.flags, src.ast);
    let letters = flags.letters(flavor);
    let mut engine = TargetEngine::Standard;
    match flavor {
        Flavor::Js(_) if flags.verbose => return Ok(None),
        Flavor::Js(_)
        | Flavor::Python(_)
        | Flavor::Go(_)
        | Flavor::Re2
        | Flavor::Java(_)
        | Flavor::Ruby(_)
        | Flavor::Dotnet => {}
        // (No generator runs Oniguruma or PCRE2: never native.)
        Flavor::Oniguruma | Flavor::Pcre2 => return Ok(None),
        Flavor::Rust | Flavor::Fancy => {
            let mut fancy = None;
            ast.root.walk(|n, _| {
                let needs = match &n.kind {
                    NodeKind::Backref { .. } => true,
                    NodeKind::Group { kind, .. } => matches!(
                        kind,
                        GroupKind::Lookahead
                            | GroupKind::NegativeLookahead
                            | GroupKind::Lookbehind
                            | GroupKind::NegativeLookbehind
                            | GroupKind::Atomic
                    ),
                    NodeKind::Repeat { greed, .. } => *greed == Greed::Possessive,
                    _ => false,
                };
                if needs && fancy.is_none() {
                    fancy = Some(n.span);
                }
            });
            engine = TargetEngine::RustRegex;
            if fancy.is_some() {
                // fancy-regex rejects a numbered backreference once a group has a name, and a
                // quantified look-around: the rewrite writes both so that it accepts them.
                let mut named = false;
                let mut backref = false;
                let mut empty_repeat = false;
                ast.root.walk(|n, _| match &n.kind {
                    NodeKind::Group {
                        kind: GroupKind::Capture { name: Some(_), .. },
                        ..
                    } => named = true,
                    NodeKind::Backref { .. } => backref = true,
                    NodeKind::Repeat { child, .. } if only_empty(child) => empty_repeat = true,
                    _ => {}
                });
                if (named && backref) || empty_repeat {
                    return Ok(None);
                }
            }
            if let Some(span) = fancy {
                engine = TargetEngine::RustFancy;
                let mut unicode_switch = None;
                ast.root.walk(|n, _| {
                    let change = match &n.kind {
                        NodeKind::SetFlags(c) => Some(c),
                        NodeKind::Group {
                            kind: GroupKind::Flags(c),
                            ..
                        } => Some(c),
                        _ => None,
                    };
                    if change.is_some_and(|c| c.on.contains('u') || c.off.contains('u'))
                        && unicode_switch.is_none()
                    {
                        unicode_switch = Some(n.span);
                    }
                });
                if let Some(at) = unicode_switch {
                    return Err(refusal(
                        pattern,
                        lang,
                        Some(at),
                        "with look-around or backreferences the pattern runs on fancy-regex, which does not accept switching Unicode mode inline",
                    ));
                }
                if flags.swap_greed || flags.crlf {
                    return Err(refusal(
                        pattern,
                        lang,
                        Some(span),
                        "this construct needs fancy-regex, which has no swap-greed (U) or CRLF (R) mode",
                    ));
                }
            }
        }
    }
    Ok(Some(Translation {
        lang,
        pattern: pattern.to_string(),
        flags: letters,
        verbatim: true,
        engine,
    }))
}

/// What the flags in force mean for the shorthand classes at a node.
#[derive(Debug, Clone, Copy)]
struct State {
    /// `\d \w \s \b` are ASCII-only (JS always; Python `a`; Rust `(?-u)`).
    ascii: bool,
    /// Inside a look-behind (captures and backreferences there are refused).
    in_lookbehind: bool,
    /// Inside a quantifier that can repeat (JS resets the groups in it at each iteration).
    in_loop: bool,
    /// The product of the counted repetitions (`{n,m}`) around this node.
    counted: u32,
    /// The source flags in force here (inline changes applied as the matcher applies them):
    /// under `i` every letter and class is written as the set of characters it matches.
    flags: Flags,
}

/// A rendered piece of pattern and whether it is one atom (can take a quantifier as is).
struct Piece {
    text: String,
    atom: bool,
}

impl Piece {
    fn atom(text: impl Into<String>) -> Piece {
        Piece {
            text: text.into(),
            atom: true,
        }
    }
    fn seq(text: impl Into<String>) -> Piece {
        Piece {
            text: text.into(),
            atom: false,
        }
    }
}

/// One member of a character set, before rendering.
#[derive(Debug, Clone, PartialEq)]
enum SetPart {
    Range(char, char),
    /// A Unicode property the target must name (`Nd`, `L`, `Alphabetic`, …).
    Prop(&'static str, bool),
    /// A whole set, negated, inside another set (`\W` in `[a\W]`).
    NegatedSet(Vec<SetPart>),
}

/// A character set: what a class, `.`, `\d` or `\w` means in the source flavor.
#[derive(Debug, Clone, PartialEq)]
struct CharSet {
    negated: bool,
    parts: Vec<SetPart>,
}

const GENERAL_CATEGORIES: &[&str] = &[
    "L", "Lu", "Ll", "Lt", "Lm", "Lo", "M", "Mn", "Mc", "Me", "N", "Nd", "Nl", "No", "P", "Pc",
    "Pd", "Ps", "Pe", "Pi", "Pf", "Po", "S", "Sm", "Sc", "Sk", "So", "Z", "Zs", "Zl", "Zp", "Cc",
    "Cf", "Co",
];

use crate::engine::vm::charset::CharSet as EngineSet;

use crate::engine::classes::{
    ASCII_SPACE as WHITE_SPACE_ASCII, JS_LINE_TERMINATORS, JS_SPACE as WHITE_SPACE_JS,
};

/// Zero-width assertions, by meaning.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Assertion {
    TextStart,
    TextEnd,
    /// Start, or just after `\n`.
    AfterNewline,
    /// End, or just before `\n`.
    BeforeNewline,
    /// Start, or after any JS line terminator.
    AfterJsTerminator,
    /// End, or before any JS line terminator.
    BeforeJsTerminator,
    /// End, or before a final `\n` (Python's `$`).
    EndOrFinalNewline,
}

struct Emitter<'a> {
    pattern: &'a str,
    src: Flavor,
    /// The target language.
    d: &'static Dialect,
    /// Write every group unnamed (numbered backreferences must stay valid).
    unnamed_groups: bool,
    quirks: Quirks,
    /// Group names by number (index 0 is group 1).
    group_names: Vec<Option<String>>,
    /// Rust target: fancy-regex is needed.
    fancy: bool,
    /// A JS pattern without `u`: it matches UTF-16 code units.
    js_code_units: bool,
    /// Rust target: `(?-u:…)` was written (fancy-regex does not accept it).
    inline_unicode_off: bool,
    /// Rust target: write no `(?-u:…)` (the pattern runs on fancy-regex).
    no_inline_unicode_off: bool,
    /// Write the closest program where an exact one is impossible, recording each
    /// difference here (`None`: refuse instead).
    nearest: Option<std::cell::RefCell<Vec<Difference>>>,
}

/// Where a nearest program (`rxw code --nearest`) differs from the pattern's meaning.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Difference {
    /// The construct in the pattern.
    pub span: Span,
    /// The construct as written.
    pub construct: String,
    /// Which inputs the program answers differently, and how.
    pub inputs: String,
}

impl Emitter<'_> {
    /// In nearest mode, records that the construct at `span` is written approximately and
    /// returns true; otherwise false (the caller refuses).
    fn approximate(&self, span: Span, inputs: impl Into<String>) -> bool {
        let Some(diffs) = &self.nearest else {
            return false;
        };
        let mut diffs = diffs.borrow_mut();
        if !diffs.iter().any(|d| d.span == span) {
            diffs.push(Difference {
                span,
                construct: self.pattern[span.start..span.end].to_string(),
                inputs: inputs.into(),
            });
        }
        true
    }

    fn refuse(&self, span: Span, why: impl AsRef<str>) -> Error {
        refusal_for(self.pattern, self.title(), Some(span), why.as_ref())
    }

    /// The target's name in messages: the engine's when exporting to one.
    fn title(&self) -> &'static str {
        self.quirks.title.unwrap_or(self.d.title)
    }

    /// The construct at `span` needs a backtracking engine: fancy-regex for a Rust program,
    /// a refusal where the engine is the `regex` crate alone.
    fn backtracking(&mut self, span: Span, what: &str) -> Result<(), Error> {
        if self.d.re.engines != Engines::LinearThenBacktracking {
            return Ok(());
        }
        if self.quirks.linear_only {
            return Err(self.refuse(
                span,
                format!("{what} needs a backtracking engine, and this one runs the regex crate (linear time, no look-around or backreferences)"),
            ));
        }
        self.fancy = true;
        Ok(())
    }

    fn whole(&self) -> Span {
        Span::new(0, self.pattern.len())
    }

    fn precheck(&self, flags: Flags, ast: &Ast) -> Result<(), Error> {
        let src = self.src.name();
        let tgt = self.title();
        for (on, letter, why) in [
            (
                flags.swap_greed,
                'U',
                "swap-greed mode (flag U) is Rust's own",
            ),
            (flags.crlf, 'R', "CRLF mode (flag R) is Rust's own"),
            (
                flags.sticky,
                'y',
                "sticky mode (flag y) changes how matches are searched for; only JS has it",
            ),
        ] {
            if on {
                return Err(refusal_for(
                    self.pattern,
                    self.title(),
                    None,
                    &format!("{why} (flag {letter})"),
                ));
            }
        }
        if ast.root.nullable()
            && !self.approximate(
                self.whole(),
                format!(
                    "inputs where an empty match is found next to another match: {src} and {tgt} step past an empty match differently, so the program may report other empty matches"
                ),
            )
        {
            return Err(self.refuse(
                self.whole(),
                format!(
                    "the pattern can match the empty string, and {src} and {tgt} step past an empty match differently"
                ),
            ));
        }
        if self.js_code_units {
            let mut astral = None;
            ast.root.walk(|n, _| {
                let found = match &n.kind {
                    NodeKind::Literal { ch, .. } => (*ch as u32) > 0xFFFF,
                    NodeKind::Class(c) => class_has_astral(c),
                    _ => false,
                };
                if found && astral.is_none() {
                    astral = Some(n.span);
                }
            });
            if let Some(span) = astral {
                return Err(self.refuse(
                    span,
                    "a JS pattern without the u flag matches UTF-16 code units, and this character is two of them",
                ));
            }
        }
        Ok(())
    }

    fn node(&mut self, n: &Node, state: State, depth: usize) -> Result<Piece, Error> {
        if depth > MAX_DEPTH {
            return Err(self.refuse(n.span, "the pattern is nested too deeply to translate"));
        }
        match &n.kind {
            NodeKind::Empty | NodeKind::Comment | NodeKind::Whitespace => Ok(Piece::seq("")),
            NodeKind::Literal { .. }
            | NodeKind::Class(_)
            | NodeKind::Perl { .. }
            | NodeKind::Property { .. }
                if state.flags.ignore_case
                    || self.rust_unicode_perl(n, state)
                    || self.unnamed_in_target(n, state) =>
            {
                self.folded(n, state)
            }
            NodeKind::Literal { ch, form } => self.literal(*ch, *form, n.span),
            NodeKind::Dot { dotall } => {
                let set = if *dotall {
                    CharSet {
                        negated: true,
                        parts: vec![],
                    }
                } else if self.src.is_js() {
                    CharSet {
                        negated: true,
                        parts: ranges(JS_LINE_TERMINATORS),
                    }
                } else {
                    CharSet {
                        negated: true,
                        parts: vec![SetPart::Range('\n', '\n')],
                    }
                };
                self.set(&set, n.span)
            }
            NodeKind::Perl { kind, negated } => {
                let set = CharSet {
                    negated: *negated,
                    parts: self.perl_parts(*kind, state),
                };
                self.set(&set, n.span)
            }
            NodeKind::Property { name, negated } => {
                let prop = self.property(name, n.span)?;
                self.set(
                    &CharSet {
                        negated: false,
                        parts: vec![SetPart::Prop(prop, *negated)],
                    },
                    n.span,
                )
            }
            NodeKind::Class(class) => {
                let set = self.class(class, state)?;
                self.set(&set, n.span)
            }
            NodeKind::Anchor { kind, multiline } => self.anchor(*kind, *multiline, state, n.span),
            NodeKind::SetFlags(change) => {
                self.flag_change(change, n.span, false)?;
                Ok(Piece::seq(""))
            }
            NodeKind::Group { kind, child } => self.group(kind, child, n.span, state, depth),
            NodeKind::Repeat {
                min,
                max,
                greed,
                op_span,
                child,
            } => {
                if only_empty(child) {
                    // A quantified assertion (`(?=b)?`) is a syntax error in JS with `u` and
                    // in fancy-regex: write what it means. Optional, it always holds; required,
                    // once is the same as many times.
                    if has_capture(child) {
                        return Err(self.refuse(
                            n.span,
                            "a repeated part that can only match the empty string holds a group: engines differ on whether an empty repetition sets it",
                        ));
                    }
                    if *min == 0 {
                        return Ok(Piece::seq(""));
                    }
                    return self.node(child, state, depth + 1);
                }
                // `*`, `+` and `?` are not counted; `{n,}` counts n, `{n,m}` counts m.
                let count = match (*min, *max) {
                    (0 | 1, None) | (0, Some(1)) => 1,
                    (n, None) => n,
                    (_, Some(m)) => m,
                };
                let counted = state.counted.saturating_mul(count.max(1));
                if let Some(limit) = self.d.re.repeat_limit
                    && counted > limit
                {
                    return Err(self.refuse(
                        *op_span,
                        format!(
                            "{} allows nested counted repetitions up to {limit} in all, and these multiply to {counted}",
                            self.d.syntax
                        ),
                    ));
                }
                let looping = State {
                    in_loop: state.in_loop || max.is_none_or(|m| m > 1),
                    counted,
                    ..state
                };
                let inner = self.node(child, looping, depth + 1)?;
                self.repeat(inner, *min, *max, *greed, *op_span)
            }
            NodeKind::Concat(items) => {
                let mut state = state;
                let mut out = String::new();
                let mut count = 0;
                let mut atom = false;
                for (i, item) in items.iter().enumerate() {
                    if let NodeKind::SetFlags(change) = &item.kind {
                        // Flags switched in the middle of a sequence would apply to the rest
                        // of the enclosing group, alternatives included: only the harmless
                        // letters are accepted there, the rest only at the very start.
                        let at_start = i == 0 && depth == 0;
                        self.flag_change(change, item.span, !at_start)?;
                        state = self.scoped_state(change, state);
                        continue;
                    }
                    let p = self.node(item, state, depth + 1)?;
                    if !p.text.is_empty() {
                        count += 1;
                        atom = p.atom;
                        out.push_str(&p.text);
                    }
                }
                Ok(Piece {
                    text: out,
                    atom: count == 1 && atom,
                })
            }
            NodeKind::Alternation(branches) => {
                let mut parts = Vec::with_capacity(branches.len());
                for b in branches {
                    parts.push(self.node(b, state, depth + 1)?.text);
                }
                Ok(Piece::seq(parts.join("|")))
            }
            NodeKind::Backref { index, name } => self.backref(*index, name.as_deref(), n, state),
        }
    }

    /// Checks an inline flag change: the letters whose meaning is already in the tree
    /// (`m`, `s`, `x`) pass, and `i` (every letter under it is written as the set it
    /// matches); `U`, `R`, `L` are refused; `a` and `u` (which change the
    /// shorthand classes) only at the start or as a scoped group (`(?a:…)`).
    fn flag_change(&self, change: &FlagChange, span: Span, mid: bool) -> Result<(), Error> {
        for c in change.on.chars().chain(change.off.chars()) {
            match c {
                'm' | 's' | 'x' | 'i' => {}
                'u' if self.src.is_python() => {}
                'a' | 'u' if !mid => {}
                _ => {
                    return Err(self.refuse(
                        span,
                        format!("the inline flag {c:?} has no exact counterpart here"),
                    ));
                }
            }
        }
        Ok(())
    }

    fn scoped_state(&self, change: &FlagChange, mut state: State) -> State {
        if change.on.contains('i') {
            state.flags.ignore_case = true;
        }
        if change.off.contains('i') {
            state.flags.ignore_case = false;
        }
        match self.src {
            Flavor::Python(_) => {
                if change.on.contains('a') {
                    state.ascii = true;
                    state.flags.ascii = true;
                }
                if change.on.contains('u') {
                    state.ascii = false;
                    state.flags.ascii = false;
                }
            }
            Flavor::Rust | Flavor::Fancy => {
                if change.off.contains('u') {
                    state.ascii = true;
                }
                if change.on.contains('u') {
                    state.ascii = false;
                }
            }
            Flavor::Js(_)
            | Flavor::Go(_)
            | Flavor::Re2
            | Flavor::Java(_)
            | Flavor::Ruby(_)
            | Flavor::Oniguruma
            | Flavor::Pcre2
            | Flavor::Dotnet => {}
        }
        state
    }

    /// Whether the node is (or is a class holding) a Rust `\w` or `\d` in Unicode mode: written
    /// as the explicit set of the `regex` crate's tables, since no other engine has the same
    /// definition (Unicode's word characters, at the crate's Unicode version).
    fn rust_unicode_perl(&self, n: &Node, state: State) -> bool {
        if !self.src.is_rust() || state.ascii || (self.d.native)(Flavor::Rust) {
            return false;
        }
        let perl = |k: &PerlKind| matches!(k, PerlKind::Word | PerlKind::Digit);
        match &n.kind {
            NodeKind::Perl { kind, .. } => perl(kind),
            NodeKind::Class(c) => c.items.iter().any(|i| match i {
                ClassItem::Perl(k, _, _) => perl(k),
                ClassItem::Nested(_) | ClassItem::SetOp(..) => true,
                _ => false,
            }),
            _ => false,
        }
    }

    /// Whether the node needs a set the target has no name for: a Unicode property where the
    /// target names none, fewer, or UTF-16 ones (Python, Go, C#), a Unicode shorthand where
    /// the engine matches UTF-16 code units (C#), a negated shorthand inside a class where a
    /// class cannot hold a negated one. Those are written as explicit sets of rxw's tables.
    fn unnamed_in_target(&self, n: &Node, state: State) -> bool {
        let props = !self.d.re.properties_by_name;
        let unicode_perl = |k: &PerlKind| {
            self.d.re.utf16
                && !state.ascii
                && matches!(k, PerlKind::Word | PerlKind::Digit)
                && !self.src.is_js()
        };
        match &n.kind {
            NodeKind::Property { .. } => props,
            NodeKind::Perl { kind, .. } => unicode_perl(kind),
            NodeKind::Class(c) => c.items.iter().any(|i| match i {
                ClassItem::Property(..) => props,
                ClassItem::Perl(k, negated, _) => {
                    unicode_perl(k) || (*negated && !self.d.re.nested_negation)
                }
                ClassItem::Posix(_, negated, _) => *negated && !self.d.re.nested_negation,
                _ => false,
            }),
            _ => false,
        }
    }

    /// A letter, class or shorthand under case-insensitive matching: written as exactly the
    /// characters the source flavor matches with it (`s` as `[Ssſ]` for Rust), so that the
    /// program never depends on how the target folds case.
    fn folded(&mut self, n: &Node, state: State) -> Result<Piece, Error> {
        let set = crate::engine::vm::accepted_chars(n, state.flags, self.src, self.pattern)?
            .ok_or_else(|| {
                self.refuse(
                    n.span,
                    "this character is two UTF-16 code units in a JS pattern without the u flag",
                )
            })?;
        self.explicit(&set, n.span)
    }

    /// Writes a set of code points as one character or a class of ranges, negated when the
    /// complement is shorter. Surrogate code points are left out: no text a program reads
    /// from UTF-8 holds one.
    fn explicit(&mut self, set: &EngineSet, span: Span) -> Result<Piece, Error> {
        let surrogates = EngineSet::from_ranges(vec![(0xD800, 0xDFFF)]);
        let set = set.difference(&surrogates);
        if let [(lo, hi)] = set.ranges()
            && lo == hi
            && let Some(ch) = char::from_u32(*lo)
        {
            return self.literal(ch, LiteralForm::Verbatim, span);
        }
        if self.d.re.utf16 && set.ranges().last().is_some_and(|r| r.1 > 0xFFFF) {
            return Ok(Piece::atom(utf16_alternation(&set)));
        }
        let complement = set.negate().difference(&surrogates);
        let (negated, ranges) = if complement.ranges().len() < set.ranges().len() {
            (true, complement.ranges().to_vec())
        } else {
            (false, set.ranges().to_vec())
        };
        let parts = ranges
            .iter()
            .filter_map(|&(lo, hi)| Some(SetPart::Range(char::from_u32(lo)?, char::from_u32(hi)?)))
            .collect();
        self.set(&CharSet { negated, parts }, span)
    }

    fn literal(&self, ch: char, _form: LiteralForm, span: Span) -> Result<Piece, Error> {
        if self.d.re.utf16 && (ch as u32) > 0xFFFF {
            let (hi, lo) = surrogates(ch);
            return Ok(Piece::seq(format!("\\u{hi:04X}\\u{lo:04X}")));
        }
        // A JavaScript lone surrogate escape is kept by the parser as a private-use stand-in;
        // its source text tells it apart from that character written as itself.
        let escaped_surrogate = self.src.is_js()
            && rxw_syntax::escaped_surrogate(&self.pattern[span.start..span.end]).is_some();
        if (0xD800..=0xDFFF).contains(&(ch as u32)) || escaped_surrogate {
            return Err(self.refuse(span, "a lone surrogate cannot be written in this target"));
        }
        Ok(Piece::atom(self.char_out(ch)))
    }

    /// A character outside a class.
    fn char_out(&self, ch: char) -> String {
        if "\\.+*?()|[]{}^$".contains(ch) {
            return format!("\\{ch}");
        }
        if ch.is_ascii_graphic() || ch == ' ' {
            return ch.to_string();
        }
        (self.d.re.code_escape)(ch as u32)
    }

    /// A character inside a class.
    fn char_in(&self, ch: char) -> String {
        if self.d.re.class_specials.contains(ch) {
            return format!("\\{ch}");
        }
        if ch.is_ascii_graphic() || ch == ' ' {
            return ch.to_string();
        }
        (self.d.re.code_escape)(ch as u32)
    }

    fn perl_parts(&self, kind: PerlKind, state: State) -> Vec<SetPart> {
        let ascii = state.ascii;
        match kind {
            PerlKind::Digit if ascii => vec![SetPart::Range('0', '9')],
            PerlKind::Digit => vec![SetPart::Prop("Nd", false)],
            PerlKind::Word if ascii => word_ascii(),
            PerlKind::Word if self.src.is_python() => vec![
                SetPart::Prop("L", false),
                SetPart::Prop("N", false),
                SetPart::Range('_', '_'),
            ],
            PerlKind::Word => vec![
                SetPart::Prop("Alphabetic", false),
                SetPart::Prop("M", false),
                SetPart::Prop("Nd", false),
                SetPart::Prop("Pc", false),
                SetPart::Prop("Join_Control", false),
            ],
            PerlKind::Space => ranges(match self.src {
                Flavor::Js(_) => WHITE_SPACE_JS,
                // RE2's `\s`: no vertical tab.
                Flavor::Go(_) | Flavor::Re2 => &[('\t', '\n'), ('\x0C', '\r'), (' ', ' ')],
                _ if ascii => WHITE_SPACE_ASCII,
                Flavor::Python(v) => crate::engine::classes::python_space(v),
                Flavor::Rust | Flavor::Fancy => crate::engine::classes::rust_space(),
                // (A Java tree is written as its sre tree, whose classes are ASCII.)
                Flavor::Java(_)
                | Flavor::Ruby(_)
                | Flavor::Oniguruma
                | Flavor::Pcre2
                | Flavor::Dotnet => WHITE_SPACE_ASCII,
            }),
        }
    }

    fn property(&self, name: &str, span: Span) -> Result<&'static str, Error> {
        let short = name
            .strip_prefix("General_Category=")
            .or_else(|| name.strip_prefix("gc="))
            .unwrap_or(name);
        GENERAL_CATEGORIES
            .iter()
            .find(|c| **c == short)
            .copied()
            .ok_or_else(|| {
                self.refuse(
                    span,
                    format!(
                        "only general categories (\\p{{Lu}}, \\p{{Nd}}, …) carry over between engines; {name:?} is named differently or means something else"
                    ),
                )
            })
    }

    fn class(&self, class: &Class, state: State) -> Result<CharSet, Error> {
        if class.items.is_empty() && !class.negated {
            return Err(self.refuse(class.span, "an empty class (it never matches)"));
        }
        let mut parts = Vec::new();
        for item in &class.items {
            match item {
                ClassItem::Char(c, _) => parts.push(SetPart::Range(*c, *c)),
                ClassItem::Range(a, b, _) => parts.push(SetPart::Range(*a, *b)),
                ClassItem::Perl(kind, negated, _) => {
                    let inner = self.perl_parts(*kind, state);
                    if *negated {
                        parts.push(SetPart::NegatedSet(inner));
                    } else {
                        parts.extend(inner);
                    }
                }
                ClassItem::Property(name, negated, span) => {
                    parts.push(SetPart::Prop(self.property(name, *span)?, *negated));
                }
                ClassItem::Posix(name, negated, span) => {
                    let inner = posix(name).ok_or_else(|| {
                        self.refuse(*span, format!("unknown POSIX class {name:?}"))
                    })?;
                    if *negated {
                        parts.push(SetPart::NegatedSet(inner));
                    } else {
                        parts.extend(inner);
                    }
                }
                ClassItem::Nested(c) => {
                    return Err(self.refuse(
                        c.span,
                        "nested classes are written differently in every engine",
                    ));
                }
                ClassItem::SetOp(op, span) => {
                    return Err(self.refuse(
                        *span,
                        format!(
                            "the class set operation {op:?} is written differently in every engine"
                        ),
                    ));
                }
                ClassItem::Strings(_, span) => {
                    return Err(self.refuse(
                        *span,
                        "a v-flag string literal \\q{…} exists in JavaScript only",
                    ));
                }
            }
        }
        Ok(CharSet {
            negated: class.negated,
            parts,
        })
    }

    /// Renders a set as a class (or the target's way of saying "any character").
    fn set(&mut self, set: &CharSet, span: Span) -> Result<Piece, Error> {
        if set.negated && set.parts.is_empty() {
            // Oniguruma's Ruby syntax: `m` is dot-all.
            return Ok(Piece::atom(if self.quirks.oniguruma {
                "(?m:.)"
            } else {
                self.d.re.any_char
            }));
        }
        if self.d.re.utf16 {
            return self.set_utf16(set, span);
        }
        let body = self.parts(&set.parts, span)?;
        Ok(Piece::atom(format!(
            "[{}{body}]",
            if set.negated { "^" } else { "" }
        )))
    }

    fn parts(&self, parts: &[SetPart], span: Span) -> Result<String, Error> {
        let mut out = String::new();
        for p in parts {
            match p {
                SetPart::Range(a, b) if a == b => out.push_str(&self.char_in(*a)),
                SetPart::Range(a, b) => {
                    out.push_str(&self.char_in(*a));
                    out.push('-');
                    out.push_str(&self.char_in(*b));
                }
                SetPart::Prop(name, negated) => out.push_str(&self.prop_out(name, *negated, span)?),
                SetPart::NegatedSet(inner) if self.d.re.nested_negation => {
                    out.push_str(&format!("[^{}]", self.parts(inner, span)?));
                }
                SetPart::NegatedSet(_) => {
                    return Err(self.refuse(
                        span,
                        "a negated shorthand inside a class has no exact form in this target",
                    ));
                }
            }
        }
        Ok(out)
    }

    fn prop_out(&self, name: &str, negated: bool, span: Span) -> Result<String, Error> {
        (self.d.re.property)(name, negated, self.quirks.oniguruma)
            .map_err(|why| self.refuse(span, why))
    }

    /// A set for an engine that matches UTF-16 code units (only BMP members in a class).
    fn set_utf16(&self, set: &CharSet, span: Span) -> Result<Piece, Error> {
        for p in &set.parts {
            match p {
                SetPart::Range(_, b) if (*b as u32) > 0xFFFF => {
                    return Err(self.refuse(
                        span,
                        ".NET matches UTF-16 code units, so a class cannot hold an astral character",
                    ));
                }
                SetPart::Prop(..) | SetPart::NegatedSet(_) => {
                    // prop_out refuses with the reason.
                    self.parts(std::slice::from_ref(p), span)?;
                }
                _ => {}
            }
        }
        let body = self.parts(&set.parts, span)?;
        if set.negated {
            // A surrogate pair is one character that is not in the (BMP-only) class; a single
            // code unit never matches half of a pair.
            Ok(Piece::atom(format!(
                "(?:[\\uD800-\\uDBFF][\\uDC00-\\uDFFF]|[^{body}\\uD800-\\uDFFF])"
            )))
        } else {
            Ok(Piece::atom(format!("[{body}]")))
        }
    }

    fn anchor(
        &mut self,
        kind: AnchorKind,
        multiline: bool,
        state: State,
        span: Span,
    ) -> Result<Piece, Error> {
        let js = self.src.is_js();
        let a = match kind {
            AnchorKind::TextStart => Assertion::TextStart,
            AnchorKind::TextEnd => Assertion::TextEnd,
            AnchorKind::LineStart if !multiline => Assertion::TextStart,
            AnchorKind::LineStart if js => Assertion::AfterJsTerminator,
            AnchorKind::LineStart => Assertion::AfterNewline,
            AnchorKind::LineEnd if multiline && js => Assertion::BeforeJsTerminator,
            AnchorKind::LineEnd if multiline => Assertion::BeforeNewline,
            AnchorKind::LineEnd if self.src.is_python() => Assertion::EndOrFinalNewline,
            AnchorKind::LineEnd => Assertion::TextEnd,
            AnchorKind::WordBoundary | AnchorKind::NotWordBoundary => {
                return self.word_boundary(kind == AnchorKind::WordBoundary, state, span);
            }
            AnchorKind::WordStart
            | AnchorKind::WordEnd
            | AnchorKind::WordStartHalf
            | AnchorKind::WordEndHalf => {
                return Err(
                    self.refuse(span, "Rust's word-start / word-end assertions are its own")
                );
            }
        };
        self.assertion(a, span)
    }

    fn assertion(&mut self, a: Assertion, span: Span) -> Result<Piece, Error> {
        let d = self.d;
        let text = match a {
            Assertion::TextStart => d.re.text_start.to_string(),
            Assertion::TextEnd => d.re.text_end.to_string(),
            Assertion::AfterNewline if d.re.newline_anchors => "(?m:^)".to_string(),
            Assertion::BeforeNewline if d.re.newline_anchors => "(?m:$)".to_string(),
            Assertion::EndOrFinalNewline if let Some(t) = d.re.end_or_final_newline => {
                t.to_string()
            }
            _ if d.re.engines == Engines::Linear => {
                return Err(self.refuse(
                    span,
                    format!(
                        "this anchor needs look-around in {}, which has none",
                        d.syntax_name()
                    ),
                ));
            }
            Assertion::AfterNewline => "(?<![^\\n])".to_string(),
            Assertion::BeforeNewline => "(?![^\\n])".to_string(),
            Assertion::AfterJsTerminator => {
                format!(
                    "(?<![^{}])",
                    self.parts(&ranges(JS_LINE_TERMINATORS), span)?
                )
            }
            Assertion::BeforeJsTerminator => {
                format!("(?![^{}])", self.parts(&ranges(JS_LINE_TERMINATORS), span)?)
            }
            Assertion::EndOrFinalNewline => format!("(?=\\n?{})", d.re.text_end),
        };
        if ["(?<", "(?=", "(?!"].iter().any(|o| text.starts_with(o)) {
            self.backtracking(span, "this anchor (written as look-around)")?;
        }
        Ok(Piece::atom(text))
    }

    fn word_boundary(&mut self, boundary: bool, state: State, span: Span) -> Result<Piece, Error> {
        let d = self.d;
        let spelled =
            d.re.ascii_word_boundary
                .map(|[b, nb]| if boundary { b } else { nb });
        // With two engines, the ASCII spelling switches Unicode off inline, which the
        // backtracking one does not accept.
        let two_engines = d.re.engines == Engines::LinearThenBacktracking;
        if state.ascii
            && let Some(t) = spelled
            && !(two_engines && self.no_inline_unicode_off)
        {
            self.inline_unicode_off |= two_engines;
            return Ok(Piece::atom(t));
        }
        if d.re.engines == Engines::Linear {
            if let Some(t) = spelled
                && self.approximate(
                    span,
                    format!(
                        "inputs with non-ASCII word characters (é, ß, Ω, digits of other scripts, …) next to the boundary: {}'s \\b sees only ASCII word characters",
                        d.title
                    ),
                )
            {
                return Ok(Piece::atom(t));
            }
            return Err(self.refuse(
                span,
                format!(
                    "a Unicode word boundary needs look-around in {} (its \\b is ASCII-only)",
                    d.syntax_name()
                ),
            ));
        }
        let w = if self.src.is_rust() && !(d.native)(Flavor::Rust) {
            self.explicit(crate::engine::vm::charset::rust_word(), span)?
        } else {
            let word = self.perl_parts(PerlKind::Word, state);
            self.set(
                &CharSet {
                    negated: false,
                    parts: word,
                },
                span,
            )?
        };
        let w = w.text;
        let behind = if self.utf16_look_behind() {
            java_behind_body(&w, 1)
        } else {
            w.clone()
        };
        self.backtracking(span, "a Unicode word boundary")?;
        Ok(Piece::seq(if boundary {
            format!("(?:(?<={behind})(?!{w})|(?<!{behind})(?={w}))")
        } else {
            format!("(?:(?<={behind})(?={w})|(?<!{behind})(?!{w}))")
        }))
        .map(|p| Piece::atom(p.text))
    }

    fn group(
        &mut self,
        kind: &GroupKind,
        child: &Node,
        span: Span,
        state: State,
        depth: usize,
    ) -> Result<Piece, Error> {
        let no_lookaround = |e: &Self| {
            e.refuse(
                span,
                format!(
                    "look-around is not in {} (it guarantees linear time)",
                    e.d.syntax_name()
                ),
            )
        };
        // Java's look-behind body, when the target is Java: its width in characters.
        let mut java_behind = None;
        let (open, inner_state) = match kind {
            GroupKind::Capture { name, .. } => {
                if state.in_lookbehind {
                    return Err(self.refuse(
                        span,
                        "a group that captures inside a look-behind (engines fill it differently)",
                    ));
                }
                if state.in_loop
                    && (self.src.is_js() != self.d.re.loop_resets_groups)
                    && !self.approximate(
                        span,
                        "inputs where a later repetition does not reach this group: JS reports it unset, other engines keep the value of the last repetition that set it",
                    )
                {
                    return Err(self.refuse(
                        span,
                        "a group inside a repeated part: JS forgets it at each repetition, other engines keep the last value",
                    ));
                }
                let open = self.capture_open(name.as_deref());
                if self.quirks.names_required && name.is_some() && open == "(" {
                    return Err(self.refuse(
                        span,
                        "the engine makes a field of every group name, and it cannot spell this one (ASCII letters, digits and _ only)",
                    ));
                }
                (open, state)
            }
            GroupKind::NonCapture => ("(?:".to_string(), state),
            GroupKind::Conditional { .. } => {
                return Err(self.refuse(
                    span,
                    "a conditional group (?(id)yes|no) is Python syntax no other target shares exactly",
                ));
            }
            GroupKind::Flags(change) => {
                self.flag_change(change, span, false)?;
                ("(?:".to_string(), self.scoped_state(change, state))
            }
            GroupKind::Lookahead | GroupKind::NegativeLookahead => {
                if self.d.re.engines == Engines::Linear {
                    return Err(no_lookaround(self));
                }
                self.backtracking(span, "a look-ahead")?;
                let open = if *kind == GroupKind::Lookahead {
                    "(?="
                } else {
                    "(?!"
                };
                (open.to_string(), state)
            }
            GroupKind::Lookbehind | GroupKind::NegativeLookbehind => {
                if self.d.re.engines == Engines::Linear {
                    return Err(no_lookaround(self));
                }
                if self.d.re.lookbehind_fixed_width
                    && crate::syntax::parse::fixed_width(child).is_none()
                {
                    return Err(self.refuse(
                        span,
                        format!("{} accepts only fixed-width look-behind", self.title()),
                    ));
                }
                self.backtracking(span, "a look-behind")?;
                if self.utf16_look_behind() {
                    java_behind = crate::syntax::parse::fixed_width(child);
                }
                let open = if *kind == GroupKind::Lookbehind {
                    "(?<="
                } else {
                    "(?<!"
                };
                (
                    open.to_string(),
                    State {
                        in_lookbehind: true,
                        ..state
                    },
                )
            }
            GroupKind::Atomic => {
                if !self.d.re.atomic {
                    if !self.approximate(
                        span,
                        "inputs where the rest of the pattern needs this group to give back characters: the program (a plain group) can match there, the pattern cannot",
                    ) {
                        return Err(
                            self.refuse(span, format!("{} has no atomic groups", self.title()))
                        );
                    }
                    ("(?:".to_string(), state)
                } else {
                    self.backtracking(span, "an atomic group")?;
                    ("(?>".to_string(), state)
                }
            }
        };
        let inner = self.node(child, inner_state, depth + 1)?;
        let body = match java_behind {
            Some(width) => java_behind_body(&inner.text, width),
            None => inner.text,
        };
        Ok(Piece::atom(format!("{open}{body})")))
    }

    fn capture_open(&self, name: Option<&str>) -> String {
        let Some(name) = name.filter(|_| !self.unnamed_groups) else {
            return "(".to_string();
        };
        let ident = name
            .chars()
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
            && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_');
        if ident && self.quirks.oniguruma {
            return format!("(?<{name}>");
        }
        match self.d.re.named_group {
            Some((open, underscore)) if ident && (underscore || !name.contains('_')) => {
                format!("{open}{name}>")
            }
            _ => "(".to_string(),
        }
    }

    fn repeat(
        &mut self,
        inner: Piece,
        min: u32,
        max: Option<u32>,
        greed: Greed,
        op_span: Span,
    ) -> Result<Piece, Error> {
        if let Some(limit) = self.d.re.repeat_limit
            && max.unwrap_or(min).max(min) > limit
        {
            return Err(self.refuse(
                op_span,
                format!(
                    "{} allows repetition counts up to {limit}",
                    self.d.library_name()
                ),
            ));
        }
        let operand = if inner.atom {
            inner.text
        } else {
            format!("(?:{})", inner.text)
        };
        let op = match (min, max) {
            (0, None) => "*".to_string(),
            (1, None) => "+".to_string(),
            (0, Some(1)) => "?".to_string(),
            (n, None) => format!("{{{n},}}"),
            (n, Some(m)) if n == m => format!("{{{n}}}"),
            (n, Some(m)) => format!("{{{n},{m}}}"),
        };
        let text = match greed {
            Greed::Greedy => format!("{operand}{op}"),
            Greed::Lazy => format!("{operand}{op}?"),
            // Oniguruma's Ruby syntax reads `{n,m}+` as a repeat of a repeat.
            Greed::Possessive => match self.d.re.possessive {
                Possessive::Suffix if !self.quirks.oniguruma => format!("{operand}{op}+"),
                Possessive::Suffix | Possessive::Atomic => {
                    self.backtracking(op_span, "a possessive quantifier")?;
                    format!("(?>{operand}{op})")
                }
                Possessive::None => {
                    if !self.approximate(
                        op_span,
                        "inputs where the rest of the pattern needs this repetition to give back characters: the program (a greedy quantifier) can match there, the pattern cannot",
                    ) {
                        return Err(self.refuse(
                            op_span,
                            format!("{} has no possessive quantifiers", self.title()),
                        ));
                    }
                    format!("{operand}{op}")
                }
            },
        };
        // Not an atom: a quantifier on it gets a group (`a{2}{3}` is an error in some engines).
        Ok(Piece::seq(text))
    }

    fn backref(
        &mut self,
        index: u32,
        _name: Option<&str>,
        n: &Node,
        state: State,
    ) -> Result<Piece, Error> {
        if self.d.re.engines == Engines::Linear {
            return Err(self.refuse(
                n.span,
                format!("backreferences are not in {}", self.d.syntax_name()),
            ));
        }
        if (self.src.is_js() || self.d.re.unset_backref_matches_empty)
            && !self.approximate(
                n.span,
                format!(
                    "inputs where group {index} has not taken part when the backreference is reached: JS matches the empty string there, other engines fail"
                ),
            )
        {
            return Err(self.refuse(
                n.span,
                "a backreference to a group that did not take part matches the empty string in JS but fails elsewhere",
            ));
        }
        if state.in_lookbehind {
            return Err(self.refuse(n.span, "a backreference inside a look-behind"));
        }
        if state.flags.ignore_case {
            let ci = format!(
                "inputs where the repeated text differs from group {index} in letters that {} and {} fold differently (ſ, the Kelvin sign, ı, İ, …): the program compares with its own folding",
                self.src.name(),
                self.title()
            );
            // Only targets with scoped inline flags around a backreference.
            if self.d.re.scoped_ignore_case && self.approximate(n.span, ci) {
                self.backtracking(n.span, "a backreference")?;
                return Ok(Piece::atom(format!("(?i:\\{index})")));
            }
            return Err(self.refuse(
                n.span,
                format!(
                    "a case-insensitive backreference compares the text by {}'s case folding, which another engine's cannot be told to use",
                    self.src.name()
                ),
            ));
        }
        self.backtracking(n.span, "a backreference")?;
        if self.quirks.oniguruma && self.group_names.iter().any(Option::is_some) {
            // Once a group is named, Oniguruma captures only the named groups and refuses
            // numbered references: refer to the group by its name.
            return match self.group_names.get(index as usize - 1) {
                Some(Some(name)) if self.capture_open(Some(name)) != "(" => {
                    Ok(Piece::atom(format!("(?:\\k<{name}>)")))
                }
                _ => Err(self.refuse(
                    n.span,
                    "a backreference to an unnamed group: with named groups in the pattern, Oniguruma captures only those",
                )),
            };
        }
        Ok(Piece::atom(format!("(?:\\{index})")))
    }
}

impl Emitter<'_> {
    /// Whether look-behind is measured in UTF-16 code units: Java's `java.util.regex` (a
    /// program, Spark). Oniguruma (Elasticsearch's joni) steps back by whole characters of
    /// UTF-8 text and refuses the widened body.
    fn utf16_look_behind(&self) -> bool {
        self.d.re.utf16_lookbehind && !self.quirks.oniguruma
    }
}

/// The body of a Java look-behind that sees characters outside the BMP as the source does.
///
/// Java measures a look-behind in UTF-16 code units but counts each character of its body as
/// one, so a body of `width` characters is tried only `width` units back: after an astral
/// character it starts on the pair's second half and fails (`(?<=\p{L})x` never matches after
/// `𐐀`). A branch that cannot match (`(?!).{width}`) doubles the distance tried, and a start
/// on a pair's second half is refused, so the body is tried at each character boundary within
/// reach, as in the source.
fn java_behind_body(body: &str, width: u32) -> String {
    if width == 0 {
        return body.to_string();
    }
    format!("(?![\\x{{DC00}}-\\x{{DFFF}}]){body}(?:|(?!).{{{width}}})")
}

/// A set with astral members for .NET, which matches UTF-16 code units: the BMP members as one
/// class, each astral range as its surrogate pairs (a high surrogate, or a run of them, then
/// the low surrogates that complete the range).
fn utf16_alternation(set: &EngineSet) -> String {
    let unit = |u: u32| format!("\\u{u:04X}");
    let class = |lo: u32, hi: u32| {
        if lo == hi {
            unit(lo)
        } else {
            format!("[{}-{}]", unit(lo), unit(hi))
        }
    };
    let mut bmp = String::new();
    let mut pairs: Vec<String> = Vec::new();
    for &(lo, hi) in set.ranges() {
        if lo <= 0xFFFF {
            let h = hi.min(0xFFFF);
            bmp.push_str(&if lo == h {
                unit(lo)
            } else {
                format!("{}-{}", unit(lo), unit(h))
            });
        }
        if hi > 0xFFFF {
            let lo = lo.max(0x10000);
            let (hs_lo, ls_lo) = (
                0xD800 + ((lo - 0x10000) >> 10),
                0xDC00 + ((lo - 0x10000) & 0x3FF),
            );
            let (hs_hi, ls_hi) = (
                0xD800 + ((hi - 0x10000) >> 10),
                0xDC00 + ((hi - 0x10000) & 0x3FF),
            );
            if hs_lo == hs_hi {
                pairs.push(format!("{}{}", unit(hs_lo), class(ls_lo, ls_hi)));
                continue;
            }
            // First partial block, full blocks in between, last partial block.
            let mut first_full = hs_lo;
            if ls_lo != 0xDC00 {
                pairs.push(format!("{}{}", unit(hs_lo), class(ls_lo, 0xDFFF)));
                first_full += 1;
            }
            let mut last_full = hs_hi;
            if ls_hi != 0xDFFF {
                last_full -= 1;
            }
            if first_full <= last_full {
                pairs.push(format!(
                    "{}{}",
                    class(first_full, last_full),
                    class(0xDC00, 0xDFFF)
                ));
            }
            if ls_hi != 0xDFFF {
                pairs.push(format!("{}{}", unit(hs_hi), class(0xDC00, ls_hi)));
            }
        }
    }
    let mut alts = Vec::new();
    if !bmp.is_empty() {
        alts.push(format!("[{bmp}]"));
    }
    alts.extend(pairs);
    format!("(?:{})", alts.join("|"))
}

/// Whether a node can match nothing but the empty string (assertions, look-around, groups
/// of them).
fn only_empty(n: &Node) -> bool {
    let mut depth = 0usize;
    only_empty_at(n, &mut depth)
}

fn only_empty_at(n: &Node, depth: &mut usize) -> bool {
    *depth += 1;
    if *depth > MAX_DEPTH {
        return false;
    }
    let out = match &n.kind {
        NodeKind::Empty
        | NodeKind::Comment
        | NodeKind::Whitespace
        | NodeKind::SetFlags(_)
        | NodeKind::Anchor { .. } => true,
        NodeKind::Literal { .. }
        | NodeKind::Dot { .. }
        | NodeKind::Perl { .. }
        | NodeKind::Property { .. }
        | NodeKind::Class(_)
        | NodeKind::Backref { .. } => false,
        NodeKind::Group { kind, child } => {
            matches!(
                kind,
                GroupKind::Lookahead
                    | GroupKind::NegativeLookahead
                    | GroupKind::Lookbehind
                    | GroupKind::NegativeLookbehind
            ) || (!matches!(kind, GroupKind::Conditional { .. }) && only_empty_at(child, depth))
        }
        NodeKind::Repeat { max, child, .. } => *max == Some(0) || only_empty_at(child, depth),
        NodeKind::Concat(items) => items.iter().all(|i| only_empty_at(i, depth)),
        NodeKind::Alternation(branches) => branches.iter().all(|b| only_empty_at(b, depth)),
    };
    *depth -= 1;
    out
}

/// Whether a node holds a capturing group.
fn has_capture(n: &Node) -> bool {
    let mut found = false;
    n.walk(|c, _| {
        found |= matches!(
            c.kind,
            NodeKind::Group {
                kind: GroupKind::Capture { .. },
                ..
            }
        )
    });
    found
}

fn ranges(list: &[(char, char)]) -> Vec<SetPart> {
    list.iter().map(|(a, b)| SetPart::Range(*a, *b)).collect()
}

fn word_ascii() -> Vec<SetPart> {
    vec![
        SetPart::Range('A', 'Z'),
        SetPart::Range('a', 'z'),
        SetPart::Range('0', '9'),
        SetPart::Range('_', '_'),
    ]
}

/// Rust's POSIX classes, which are always ASCII.
fn posix(name: &str) -> Option<Vec<SetPart>> {
    let r = |list: &[(char, char)]| Some(ranges(list));
    match name {
        "alnum" => r(&[('0', '9'), ('A', 'Z'), ('a', 'z')]),
        "alpha" => r(&[('A', 'Z'), ('a', 'z')]),
        "ascii" => r(&[('\0', '\x7f')]),
        "blank" => r(&[('\t', '\t'), (' ', ' ')]),
        "cntrl" => r(&[('\0', '\x1f'), ('\x7f', '\x7f')]),
        "digit" => r(&[('0', '9')]),
        "graph" => r(&[('!', '~')]),
        "lower" => r(&[('a', 'z')]),
        "print" => r(&[(' ', '~')]),
        "punct" => r(&[('!', '/'), (':', '@'), ('[', '`'), ('{', '~')]),
        "space" => r(&[('\t', '\r'), (' ', ' ')]),
        "upper" => r(&[('A', 'Z')]),
        "word" => Some(word_ascii()),
        "xdigit" => r(&[('0', '9'), ('A', 'F'), ('a', 'f')]),
        _ => None,
    }
}

fn class_has_astral(c: &Class) -> bool {
    c.items.iter().any(|i| match i {
        ClassItem::Char(ch, _) => (*ch as u32) > 0xFFFF,
        ClassItem::Range(_, b, _) => (*b as u32) > 0xFFFF,
        ClassItem::Nested(n) => class_has_astral(n),
        _ => false,
    })
}

fn surrogates(ch: char) -> (u32, u32) {
    let v = ch as u32 - 0x10000;
    (0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ErrorKind;

    fn tr(p: &str, flavor: Flavor, flags: &str, lang: Lang) -> Result<Translation, Error> {
        super::super::translate(p, flavor, Flags::parse(flags, flavor).unwrap(), lang)
    }

    fn pat(p: &str, flavor: Flavor, lang: Lang) -> String {
        tr(p, flavor, "", lang).unwrap().pattern
    }

    #[test]
    fn same_engine_is_verbatim_with_flags() {
        let t = tr(r"^\w+$", Flavor::PYTHON, "ms", Lang::Python).unwrap();
        assert!(t.verbatim);
        assert_eq!((t.pattern.as_str(), t.flags.as_str()), (r"^\w+$", "ms"));
        let t = tr(r"(?<=a)b", Flavor::Fancy, "", Lang::Rust).unwrap();
        assert_eq!(t.engine, TargetEngine::RustFancy);
        let t = tr(r"a+b", Flavor::Rust, "", Lang::Rust).unwrap();
        assert_eq!(t.engine, TargetEngine::RustRegex);
    }

    #[test]
    fn shorthands_become_the_flavors_sets() {
        assert_eq!(pat(r"\d+", Flavor::JS, Lang::Python), "[0-9]+");
        assert_eq!(pat(r"\d+", Flavor::PYTHON, Lang::Js), r"[\p{Nd}]+");
        assert_eq!(pat(r"\w", Flavor::PYTHON, Lang::Go), r"[\p{L}\p{N}_]");
        assert_eq!(pat(r"\w", Flavor::JS, Lang::Go), "[A-Za-z0-9_]");
        // Regression: a leading `(?-u)` was checked but not applied, so `\w` stayed Unicode.
        assert_eq!(pat(r"(?-u)\w", Flavor::Rust, Lang::Js), "[A-Za-z0-9_]");
        assert_eq!(pat(r"(?a)\d", Flavor::PYTHON, Lang::Js), "[0-9]");
        assert_eq!(
            pat(r"\s", Flavor::PYTHON, Lang::Java),
            r"[\x{9}-\x{D}\x{1C}- \x{85}\x{A0}\x{1680}\x{2000}-\x{200A}\x{2028}-\x{2029}\x{202F}\x{205F}\x{3000}]"
        );
        assert_eq!(
            pat("a.b", Flavor::JS, Lang::Python),
            r"a[^\x0A\x0D\u2028-\u2029]b"
        );
        assert_eq!(pat("a.b", Flavor::PYTHON, Lang::Go), r"a[^\x{A}]b");
    }

    #[test]
    fn anchors_keep_their_meaning() {
        // Python's $ allows a final newline; JS's does not, Go cannot say it.
        assert_eq!(pat("a$", Flavor::PYTHON, Lang::Js), r"a(?=\n?$)");
        assert_eq!(pat(r"a\Z", Flavor::PYTHON, Lang::Js), "a$");
        assert_eq!(pat("a$", Flavor::JS, Lang::Python), r"a\Z");
        assert_eq!(
            tr("^a$", Flavor::PYTHON, "m", Lang::Go).unwrap().pattern,
            "(?m:^)a(?m:$)"
        );
        let e = tr("a$", Flavor::PYTHON, "", Lang::Go).unwrap_err();
        assert_eq!(e.kind, ErrorKind::ConstructUnsupported);
        assert_eq!(e.span, Some(Span::new(1, 2)));
        let t = tr("a$", Flavor::PYTHON, "", Lang::Rust).unwrap();
        assert_eq!(t.engine, TargetEngine::RustFancy);
    }

    /// Regression: a quantified look-around was written as is (`a(?=b)?`), a syntax error in
    /// JS with `u` and in fancy-regex; a named group with a numbered backreference was
    /// written for fancy-regex, which refuses that mix; an empty repetition holding a group
    /// was written for engines that disagree on whether it sets the group.
    #[test]
    fn regression_quantified_assertions_and_named_backreferences() {
        for lang in [Lang::Js, Lang::Rust, Lang::Java, Lang::Go, Lang::CSharp] {
            assert_eq!(pat("a(?=b)?", Flavor::PYTHON, lang), "a", "{lang}");
            assert_eq!(pat("a(?:^)*b", Flavor::PYTHON, lang), "ab", "{lang}");
        }
        assert_eq!(pat("a(?=b){2}", Flavor::PYTHON, Lang::Js), "a(?=b)");
        assert_eq!(pat("a(?!b)+", Flavor::PYTHON, Lang::Rust), "a(?!b)");
        let t = tr("a(?=b)?", Flavor::Fancy, "", Lang::Rust).unwrap();
        assert_eq!((t.pattern.as_str(), t.verbatim), ("a", false));
        assert_eq!(
            pat("(?P<n>a)(?P=n)", Flavor::PYTHON, Lang::Rust),
            r"(a)(?:\1)"
        );
        let t = tr(r"(?P<n>a)\1", Flavor::Fancy, "", Lang::Rust).unwrap();
        assert_eq!(t.pattern, r"(a)(?:\1)");
        assert_eq!(t.engine, TargetEngine::RustFancy);
        // Names stay where nothing refers back by number.
        assert_eq!(pat("(?P<n>a)b", Flavor::PYTHON, Lang::Rust), "(?P<n>a)b");
        for lang in [Lang::Java, Lang::Js, Lang::Rust] {
            let e = tr("((?<!a)){0,3}+b", Flavor::PYTHON, "", lang).unwrap_err();
            assert_eq!(e.kind, ErrorKind::ConstructUnsupported, "{lang}");
        }
    }

    #[test]
    fn case_insensitive_letters_are_written_as_the_sets_they_match() {
        // Regression: any `i` was refused, though no letter here folds differently in Python.
        let p = r"(?i)result\s+([0-9a-f]+)";
        for lang in [Lang::Python, Lang::Js, Lang::Java, Lang::Go, Lang::CSharp] {
            let t = tr(p, Flavor::Rust, "", lang).unwrap();
            eprintln!(
                "{lang}: {}",
                t.pattern.chars().take(120).collect::<String>()
            );
        }
        assert!(pat(p, Flavor::Rust, Lang::Python).starts_with(r"[Rr][Ee][Ss\u017F][Uu][Ll][Tt]"));
        // The Kelvin sign folds with k in Rust (simple case folding), not in Python's ASCII mode.
        assert_eq!(pat("(?i)k", Flavor::Rust, Lang::Js), r"[Kk\u{212A}]");
        assert_eq!(pat("(?ai)k", Flavor::PYTHON, Lang::Js), "[Kk]");
        // CPython's `i` also takes the dotless and dotted i.
        assert_eq!(
            pat("(?i)i", Flavor::PYTHON, Lang::Go),
            r"[Ii\x{130}-\x{131}]"
        );
        // Scoped: only the letters under the flag.
        assert_eq!(pat("a(?i:b)c", Flavor::Rust, Lang::Python), "a(?:[Bb])c");
        // A negated class folds before it is negated.
        assert_eq!(pat("(?i)[^k]", Flavor::Rust, Lang::Java), r"[^Kk\x{212A}]");
    }

    #[test]
    fn rust_word_and_digit_are_the_crates_explicit_sets() {
        let w = pat(r"\w", Flavor::Rust, Lang::Python);
        crate::testing::assert_starts(&w, "[0-9A-Z_a-z");
        assert!(w.len() > 2000, "{}", w.len());
        let d = pat(r"\d", Flavor::Rust, Lang::Go);
        crate::testing::assert_starts(&d, "[0-9\\x{660}-\\x{669}");
        // .NET matches code units: astral word characters are written as surrogate pairs.
        let cs = pat(r"\w", Flavor::Rust, Lang::CSharp);
        assert!(cs.starts_with("(?:[") && cs.contains("|\\uD800"), "{cs}");
    }

    #[test]
    fn nearest_translations_list_each_difference() {
        let near = |p: &str, f: Flavor, lang: Lang| {
            let ast = crate::syntax::parse::parse(p, f, Flags::default()).unwrap();
            translate_nearest(Parsed::new(p, f, Flags::default(), &ast), lang)
        };
        let (t, d) = near("(?>ab|a)c", Flavor::PYTHON, Lang::Js).unwrap();
        assert_eq!(t.pattern, "(?:ab|a)c");
        assert_eq!(d.len(), 1);
        assert_eq!((d[0].span.start, d[0].span.end), (0, 8));
        assert!(d[0].inputs.contains("give back"), "{d:?}");
        let (t, d) = near(r"\bé\b", Flavor::Rust, Lang::Go).unwrap();
        assert_eq!(t.pattern, r"\b\x{E9}\b");
        assert_eq!(d.len(), 2, "{d:?}");
        let (_, d) = near("x*", Flavor::PYTHON, Lang::Js).unwrap();
        assert!(d[0].inputs.contains("empty match"), "{d:?}");
        // What no program can approximate is still refused.
        assert!(near("a(?=b)", Flavor::PYTHON, Lang::Go).is_err());
    }

    #[test]
    fn refusals_point_at_the_construct() {
        type Refusal<'a> = (&'a str, Flavor, &'a str, Lang, Option<(usize, usize)>);
        let cases: &[Refusal] = &[
            (r"(?<=a)b", Flavor::PYTHON, "", Lang::Go, Some((0, 6))),
            (r"(a)\1", Flavor::PYTHON, "", Lang::Go, Some((3, 5))),
            (r"a++", Flavor::PYTHON, "", Lang::Js, Some((1, 3))),
            (r"(?>a)b", Flavor::PYTHON, "", Lang::Js, Some((0, 5))),
            (r"(a)\1", Flavor::JS, "", Lang::Python, Some((3, 5))),
            (r"a*", Flavor::PYTHON, "", Lang::Js, Some((0, 2))),
            (r"(?i)(a)\1", Flavor::Fancy, "", Lang::Python, Some((7, 9))),
            (r"\p{Greek}", Flavor::Rust, "", Lang::Js, Some((0, 9))),
            (r"(?<=a+)b", Flavor::JS, "", Lang::Python, Some((0, 7))),
            // Regression: a lone surrogate escape under `u` was written as a private-use
            // character.
            (r"a\udf06", Flavor::JS, "u", Lang::Python, Some((1, 7))),
            (r"[\q{ab}]", Flavor::JS, "v", Lang::Python, Some((1, 7))),
        ];
        for (p, f, flags, lang, span) in cases {
            let e = tr(p, *f, flags, *lang).unwrap_err();
            assert_eq!(e.kind, ErrorKind::ConstructUnsupported, "{p} {lang}");
            assert_eq!(e.span.map(|s| (s.start, s.end)), *span, "{p} {lang}: {e}");
        }
    }

    #[test]
    fn ascii_word_boundaries_avoid_inline_unicode_flags_under_fancy_regex() {
        let t = tr(r"\bCLAIM\b", Flavor::JS, "", Lang::Rust).unwrap();
        assert_eq!(t.pattern, r"(?-u:\b)CLAIM(?-u:\b)");
        assert_eq!(t.engine, TargetEngine::RustRegex);
        let t = tr(r"\bCLAIM(?=\s)", Flavor::JS, "", Lang::Rust).unwrap();
        assert_eq!(t.engine, TargetEngine::RustFancy);
        assert!(!t.pattern.contains("(?-u"), "{}", t.pattern);
        assert!(
            t.pattern
                .starts_with("(?:(?<=[A-Za-z0-9_])(?![A-Za-z0-9_])|"),
            "{}",
            t.pattern
        );
    }

    #[test]
    fn nested_counted_repetitions_over_re2s_limit_are_refused() {
        // Regression: each count was checked alone, and RE2 rejected the product.
        let e = tr("(?:ab{2,30}){40,50}", Flavor::PYTHON, "", Lang::Go).unwrap_err();
        assert_eq!(
            e.span,
            Some(Span::new(5, 11)),
            "where the product passes 1000"
        );
        crate::testing::assert_message_has(&e, "1500");
        assert_eq!(
            pat("(?:ab{2,20}){40,50}", Flavor::PYTHON, Lang::Go),
            "(?:ab{2,20}){40,50}"
        );
        assert!(tr("(?:a+b*){400}", Flavor::PYTHON, "", Lang::Go).is_ok());
    }

    #[test]
    fn a_repeated_repetition_is_grouped() {
        assert_eq!(pat("(?:a{2}){3}", Flavor::PYTHON, Lang::Js), "(?:a{2}){3}");
        assert_eq!(pat("x(?:ab)+", Flavor::PYTHON, Lang::Go), "x(?:ab)+");
    }

    #[test]
    fn csharp_steps_over_surrogate_pairs() {
        assert_eq!(
            pat("a.", Flavor::JS, Lang::CSharp).matches("uD800").count(),
            2
        );
        assert_eq!(pat("😀", Flavor::PYTHON, Lang::CSharp), r"\uD83D\uDE00");
    }
}

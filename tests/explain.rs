//! The explain tree: snapshots of the NetVM registry patterns and of constructs across the
//! three flavors, property tests (no panics, spans tile the pattern), and regex-syntax's AST
//! as an oracle for the Rust flavor.

use proptest::prelude::*;
use rxw::syntax::explain::{ExplainNode, Explanation, explain, explain_pattern};
use rxw::syntax::parse::parse;
use rxw::{Flags, Flavor, Span};
use serde_json::{Value, json};

fn ex(pattern: &str, flavor: Flavor, flags: &str) -> Explanation {
    explain_pattern(pattern, flavor, Flags::parse(flags, flavor).unwrap(), 4096)
        .unwrap_or_else(|e| panic!("{pattern:?} ({flavor}): {e}"))
}

fn plain(s: &str, _: rxw::highlight::Kind) -> String {
    s.to_string()
}

fn pretty_json(e: &Explanation) -> String {
    let v: Value = serde_json::from_str(&e.to_json()).unwrap();
    serde_json::to_string_pretty(&v).unwrap()
}

// The NetVM registry (python flavor), copied verbatim with the flags the registry gives.
const WORK_ORDER: &str = r"^\[WO:(?P<wo_id>[a-f0-9-]+)\]\s+\[from\s+(?P<sender>[a-zA-Z0-9_-]+)\]\s+(?P<title>[^—\n]+?)\s*—\s*(?P<body>.+)$";
const VERB: &str =
    r"\[(?P<verb>ACK|CLAIM|RESULT|DECLINE|NO-ACTION)\s+(?P<job_id>[A-Za-z0-9_/-]+)\]";
const RESULT: &str = r"\[RESULT\s+(?P<job_id>[A-Za-z0-9_/-]+)\]\s*(?P<status>OK|FAIL|DECLINE|SUCCESS|ERROR)?\s*(?P<summary>.*?)(?=\[RESULT\s|\Z)";
const TOOL_CALL: &str = r"\[(?P<engine>TOOL|EXEC)\s+(?P<op>[a-zA-Z0-9_.-]+)\s+(?P<args>\{.*?\})\]";

const REGISTRY: [(&str, &str, &str); 4] = [
    ("work_order", WORK_ORDER, "ms"),
    ("verb", VERB, ""),
    ("result", RESULT, "s"),
    ("tool_call", TOOL_CALL, ""),
];

#[test]
fn registry_patterns_text() {
    for (name, pat, flags) in REGISTRY {
        let e = ex(pat, Flavor::PYTHON, flags);
        insta::assert_snapshot!(format!("registry_text_{name}"), e.render_text(pat, &plain));
    }
}

#[test]
fn registry_patterns_json() {
    for (name, pat, flags) in REGISTRY {
        let e = ex(pat, Flavor::PYTHON, flags);
        insta::assert_snapshot!(format!("registry_json_{name}"), pretty_json(&e));
    }
}

#[test]
fn registry_lints_are_the_documented_ones() {
    let codes = |pat, flags| -> Vec<&'static str> {
        ex(pat, Flavor::PYTHON, flags)
            .lints
            .iter()
            .map(|l| l.code)
            .collect()
    };
    assert_eq!(codes(WORK_ORDER, "ms"), ["greedy-dotall-swallows-lines"]);
    assert_eq!(codes(RESULT, "s"), ["lazy-until-end"]);
    assert!(codes(VERB, "").is_empty());
    assert!(codes(TOOL_CALL, "").is_empty());
}

#[test]
fn result_lookahead_meaning() {
    let e = ex(RESULT, Flavor::PYTHON, "s");
    let la = e
        .nodes()
        .into_iter()
        .find(|n| n.kind == "lookahead")
        .unwrap();
    assert_eq!(
        la.meaning,
        "Followed by `[RESULT` and a whitespace character, or the absolute end of the text, without consuming it"
    );
}

/// Constructs per flavor: (pattern, flags).
const RUST_CONSTRUCTS: &[(&str, &str)] = &[
    ("abc", ""),
    ("a.c", ""),
    (r"\d\D", ""),
    (r"\w+", ""),
    (r"\s*?", ""),
    ("[a-z]", ""),
    ("[^0-9]", ""),
    ("[[:alpha:][:^digit:]]", ""),
    ("[a-z&&[^aeiou]]", ""),
    ("[0-9--5]", ""),
    ("[a-c~~b-d]", ""),
    (r"\p{Greek}", ""),
    (r"\PL", ""),
    ("(a)(b)", ""),
    (r"(?P<year>\d{4})", ""),
    (r"(?<month>\d{2})", ""),
    ("(?:ab)+", ""),
    ("(?i)abc", ""),
    ("(?i:a)b", ""),
    (r"(?-u:\w)", ""),
    ("^abc$", ""),
    ("(?m)^a$", ""),
    (r"\Aa\z", ""),
    (r"\bword\b\B", ""),
    (r"\b{start}a\b{end}", ""),
    (r"\<a\>", ""),
    ("a{2}b{2,}c{2,5}?", ""),
    (r"\x41\x{263A}\u00e9", ""),
    (r"\t\n\r", ""),
    ("cat|dog|bird", ""),
    ("a b # comment\n c", "x"),
    ("(?s).+", ""),
    ("a+", "U"),
    ("^a.$", "mR"),
    ("a|", ""),
];

/// What fancy-regex adds to the regex crate's grammar.
const FANCY_CONSTRUCTS: &[(&str, &str)] = &[("(?=a)b(?!c)", ""), (r"(a)\1", ""), ("(?<=x)y", "")];

const PYTHON_CONSTRUCTS: &[(&str, &str)] = &[
    (r"\d", ""),
    (r"\d\w\s\b", "a"),
    (r"\N{EM DASH}", ""),
    (r"\0\012", ""),
    (r"\x41\u00e9\U0001F600", ""),
    ("(?P<n>a)(?P=n)", ""),
    (r"(a)\1", ""),
    ("(?#note)a", ""),
    ("a{,3}", ""),
    ("a++b*+", ""),
    ("(?>a+)b", ""),
    ("(?<!x)y(?!z)", ""),
    ("a$", ""),
    ("a$", "m"),
    (r"a\Z", ""),
    (r"\Aa", ""),
    (r"[\w.-]+@\w+", ""),
    ("a  # c\n b", "x"),
    ("(?s:.).", ""),
    ("(?i)ß", ""),
    ("[^—\\n]", ""),
    ("a{x}", ""),
    ("(a)|(b)", ""),
    ("(?ims)x", ""),
];

const JS_CONSTRUCTS: &[(&str, &str)] = &[
    (r"\d", ""),
    (r"\w\s", ""),
    (r"\cJ", ""),
    (r"\u{1F600}", "u"),
    (r"\p{L}", "u"),
    (r"(?<y>\d{4})-\k<y>", ""),
    (r"[\b]", ""),
    (r"\0", ""),
    (r"\101", ""),
    (r"\8", ""),
    (r"(?<=\$)\d+", ""),
    ("a$", ""),
    ("a$", "m"),
    (".", "s"),
    (".", ""),
    ("[^]", ""),
    ("(?:ab)+", ""),
    ("x*?", ""),
    ("[A-z]", ""),
    (r"\/path", ""),
    ("a{2,3}", ""),
    (r"\q", ""),
    ("(a)|b|(a)", ""),
];

fn constructs(flavor: Flavor, list: &[(&str, &str)]) -> (String, String) {
    let mut text = String::new();
    let mut all = Vec::new();
    for (pat, flags) in list {
        let e = ex(pat, flavor, flags);
        text.push_str(&format!(
            "== {flavor} flags={flags:?} {}\n",
            serde_json::to_string(pat).unwrap()
        ));
        text.push_str(&e.render_text(pat, &plain));
        text.push('\n');
        let v: Value = serde_json::from_str(&e.to_json()).unwrap();
        all.push(json!({"pattern": pat, "flags": flags, "nodes": v["nodes"], "lints": v["lints"]}));
    }
    (text, serde_json::to_string_pretty(&all).unwrap())
}

#[test]
fn constructs_snapshots() {
    assert!(RUST_CONSTRUCTS.len() + PYTHON_CONSTRUCTS.len() + JS_CONSTRUCTS.len() >= 60);
    for (flavor, list) in [
        (Flavor::Rust, RUST_CONSTRUCTS),
        (Flavor::Fancy, FANCY_CONSTRUCTS),
        (Flavor::PYTHON, PYTHON_CONSTRUCTS),
        (Flavor::JS, JS_CONSTRUCTS),
    ] {
        let (text, json) = constructs(flavor, list);
        insta::assert_snapshot!(format!("constructs_text_{flavor}"), text);
        insta::assert_snapshot!(format!("constructs_json_{flavor}"), json);
    }
}

#[test]
fn every_construct_tiles() {
    for (flavor, list) in [
        (Flavor::Rust, RUST_CONSTRUCTS),
        (Flavor::Fancy, FANCY_CONSTRUCTS),
        (Flavor::PYTHON, PYTHON_CONSTRUCTS),
        (Flavor::JS, JS_CONSTRUCTS),
    ] {
        for (pat, flags) in list {
            let e = ex(pat, flavor, flags);
            check_tiling(pat, &e.tree).unwrap_or_else(|m| panic!("{pat:?}: {m}"));
        }
    }
}

/// Checks that node spans tile the pattern: the root covers it; every node's text is its
/// slice; children lie inside their parent, in order, without overlap; and what lies between
/// them is the parent's own syntax (nothing for a sequence, `|` for an alternation, the
/// operator after a quantifier's operand, the parentheses of a group, the brackets of a class).
fn check_tiling(pattern: &str, root: &ExplainNode) -> Result<(), String> {
    if root.span != Span::new(0, pattern.len()) {
        return Err(format!("root span {:?}", root.span));
    }
    let mut stack = vec![root];
    while let Some(n) = stack.pop() {
        if pattern.get(n.span.start..n.span.end) != Some(n.text.as_str()) {
            return Err(format!("{} text {:?} is not its slice", n.kind, n.text));
        }
        let mut pos = n.span.start;
        let mut gaps: Vec<&str> = Vec::new();
        for c in &n.children {
            if c.span.start < pos || c.span.end > n.span.end {
                return Err(format!(
                    "{} {:?} at {:?} is outside {} {:?} or out of order",
                    c.kind, c.text, c.span, n.kind, n.span
                ));
            }
            gaps.push(&pattern[pos..c.span.start]);
            pos = c.span.end;
            stack.push(c);
        }
        let tail = &pattern[pos..n.span.end];
        let ok = match n.kind.as_str() {
            "sequence" => gaps.iter().all(|g| g.is_empty()) && tail.is_empty(),
            "alternation" => {
                gaps.first() == Some(&"") && gaps[1..].iter().all(|g| *g == "|") && tail.is_empty()
            }
            "quantifier" => gaps == [""] && !tail.is_empty(),
            "group"
            | "named-group"
            | "non-capturing-group"
            | "flag-group"
            | "lookahead"
            | "negative-lookahead"
            | "lookbehind"
            | "negative-lookbehind"
            | "atomic-group" => gaps.len() == 1 && gaps[0].starts_with('(') && tail == ")",
            "class" if n.children.is_empty() => tail == "[]" || tail == "[^]",
            "class" => {
                (gaps[0].trim_end() == "[" || gaps[0].trim_end() == "[^")
                    && gaps[1..].iter().all(|g| g.trim().is_empty())
                    && tail.trim_start() == "]"
            }
            _ => n.children.is_empty(),
        };
        if !ok {
            return Err(format!(
                "{} {:?}: gaps {gaps:?} tail {tail:?} are not its syntax",
                n.kind, n.text
            ));
        }
    }
    Ok(())
}

#[test]
fn verbose_patterns_tile() {
    for (pat, flavor) in [
        ("a +b # c\n (x) * ", Flavor::Rust),
        ("[a - z ]+", Flavor::Rust),
        ("a #c\n+ (?#x)b", Flavor::PYTHON),
    ] {
        let e = ex(pat, flavor, "x");
        check_tiling(pat, &e.tree).unwrap_or_else(|m| panic!("{pat:?}: {m}"));
    }
}

fn flavor_strategy() -> impl Strategy<Value = Flavor> {
    prop_oneof![
        Just(Flavor::Rust),
        Just(Flavor::PYTHON),
        Just(Flavor::JS),
        Just(Flavor::GO),
        Just(Flavor::Re2)
    ]
}

fn flags_for(flavor: Flavor, pick: u8) -> Flags {
    let letters = match flavor {
        Flavor::Rust | Flavor::Fancy => ["", "i", "ms", "x", "U"],
        Flavor::Python(_) => ["", "i", "ms", "x", "a"],
        Flavor::Js(_) => ["", "i", "ms", "u", "v"],
        Flavor::Go(_) => ["", "i", "ms", "U", "is"],
        Flavor::Re2 => ["", "i", "ms", "m", "is"],
        Flavor::Java(_) => ["", "i", "ms", "x", "im"],
        // The other families are not drawn by the strategy above: the patterns as written.
        _ => [""; 5],
    };
    Flags::parse(letters[pick as usize % 5], flavor).unwrap()
}

const META: &str = r"[ab()|*+?{}\[\]^$.\\dDwWsSbBAzZkpPuxcN0-9<>:=!#,&~ iU\n-]{0,24}";

proptest! {
    #![proptest_config(ProptestConfig { cases: 512, ..ProptestConfig::default() })]

    #[test]
    fn parse_and_explain_never_panic_on_any_string(
        pat in prop_oneof![any::<String>(), "\\PC{0,32}", META],
        flavor in flavor_strategy(),
        pick in 0u8..5,
    ) {
        if let Ok(ast) = parse(&pat, flavor, flags_for(flavor, pick))
            && let Ok(e) = explain(&ast, &pat, flavor, 4096)
        {
            let _ = e.render_text(&pat, &plain);
            let _ = e.to_json();
        }
    }

    #[test]
    fn spans_tile_the_pattern(pat in META, flavor in flavor_strategy(), pick in 0u8..5) {
        if let Ok(ast) = parse(&pat, flavor, flags_for(flavor, pick)) {
            let e = explain(&ast, &pat, flavor, 4096).unwrap();
            if let Err(m) = check_tiling(&pat, &e.tree) {
                prop_assert!(false, "{:?} ({}): {}", pat, flavor, m);
            }
            let nodes = e.nodes();
            prop_assert_eq!(nodes.len(), e.flat().len());
            for l in &e.lints {
                if let Some(s) = l.span {
                    prop_assert!(s.end <= pat.len() && pat.is_char_boundary(s.start) && pat.is_char_boundary(s.end));
                }
            }
        }
    }

    #[test]
    fn rust_tree_agrees_with_regex_syntax(pat in r"[ab()|*+?{}\[\]^$.\\dDwWsSbBAzpPLx0-9<>:=?,&~i-]{0,16}") {
        check_oracle(&pat)?;
    }

    #[test]
    fn rust_tree_agrees_with_regex_syntax_on_token_soup(tokens in prop::collection::vec(token(), 0..12)) {
        let pat: String = tokens.concat();
        check_oracle(&pat)?;
        if let Ok(ast) = parse(&pat, Flavor::Rust, Flags::default()) {
            let e = explain(&ast, &pat, Flavor::Rust, 4096).unwrap();
            if let Err(m) = check_tiling(&pat, &e.tree) {
                prop_assert!(false, "{:?}: {}", pat, m);
            }
        }
    }
}

/// Pieces of Rust syntax that often join into valid patterns.
fn token() -> impl Strategy<Value = &'static str> {
    prop::sample::select(vec![
        "a",
        "b",
        "ab",
        "é",
        r"\.",
        r"\d",
        r"\W",
        r"\s",
        ".",
        "^",
        "$",
        r"\b",
        r"\B",
        r"\A",
        r"\z",
        r"\pL",
        r"\p{Greek}",
        r"\x41",
        r"\u{e9}",
        r"\n",
        "[a-c]",
        "[^x]",
        "[[:digit:]]",
        "[a&&b]",
        "(",
        ")",
        "(?:",
        "(?i)",
        "(?i:",
        "(?-u:",
        "(?P<n1>",
        "(?<n2>",
        "|",
        "*",
        "+",
        "?",
        "*?",
        "{2}",
        "{1,3}",
        "{2,}?",
        r"\b{start}",
        r"\<",
    ])
}

/// What the two trees are compared on, in pre-order: `(kind, start, end)` for every node
/// outside bracketed classes except sequences, empties and literals; the bytes covered by
/// literals (rxw merges runs, regex-syntax keeps one node per character); and the capture
/// groups' `(index, start, end)`. Class internals are not compared (regex-syntax nests them
/// differently), nor are concatenation spans (it keeps one-element concatenations).
type Shape = (
    Vec<(String, usize, usize)>,
    Vec<usize>,
    Vec<(u32, usize, usize)>,
);

fn oracle_shape(ast: &regex_syntax::ast::Ast) -> Shape {
    use regex_syntax::ast::{AssertionKind as A, Ast, GroupKind};
    let mut nodes = Vec::new();
    let mut lit = Vec::new();
    let mut groups = Vec::new();
    let mut stack = vec![ast];
    while let Some(a) = stack.pop() {
        let s = a.span();
        let (start, end) = (s.start.offset, s.end.offset);
        let mut push = |k: &str| nodes.push((k.to_string(), start, end));
        match a {
            Ast::Empty(_) | Ast::Concat(_) => {}
            Ast::Literal(_) => lit.extend(start..end),
            Ast::Flags(_) => push("flags"),
            Ast::Dot(_) => push("dot"),
            Ast::Assertion(x) => push(match x.kind {
                A::StartLine | A::EndLine | A::StartText | A::EndText => "anchor",
                _ => "boundary",
            }),
            Ast::ClassUnicode(_) => push("property"),
            Ast::ClassPerl(_) => push("perl-class"),
            Ast::ClassBracketed(_) => push("class"),
            Ast::Repetition(_) => push("quantifier"),
            Ast::Alternation(_) => push("alternation"),
            Ast::Group(g) => {
                push(match &g.kind {
                    GroupKind::CaptureIndex(i) => {
                        groups.push((*i, start, end));
                        "group"
                    }
                    GroupKind::CaptureName { name, .. } => {
                        groups.push((name.index, start, end));
                        "named-group"
                    }
                    GroupKind::NonCapturing(f) if f.items.is_empty() => "non-capturing-group",
                    GroupKind::NonCapturing(_) => "flag-group",
                });
            }
        }
        match a {
            Ast::Repetition(r) => stack.push(&r.ast),
            Ast::Group(g) => stack.push(&g.ast),
            Ast::Alternation(x) => stack.extend(x.asts.iter().rev()),
            Ast::Concat(x) => stack.extend(x.asts.iter().rev()),
            _ => {}
        }
    }
    lit.sort_unstable();
    groups.sort_unstable();
    (nodes, lit, groups)
}

fn rxw_shape(e: &Explanation, ast: &rxw::syntax::ast::Ast) -> Shape {
    let mut nodes = Vec::new();
    let mut lit = Vec::new();
    let mut stack = vec![&e.tree];
    while let Some(n) = stack.pop() {
        let (start, end) = (n.span.start, n.span.end);
        match n.kind.as_str() {
            "sequence" | "empty" => {}
            "literal" | "escape" => lit.extend(start..end),
            k => nodes.push((k.to_string(), start, end)),
        }
        if n.kind != "class" {
            stack.extend(n.children.iter().rev());
        }
    }
    lit.sort_unstable();
    let mut groups: Vec<(u32, usize, usize)> = ast
        .groups
        .iter()
        .map(|g| (g.index, g.span.start, g.span.end))
        .collect();
    groups.sort_unstable();
    (nodes, lit, groups)
}

fn check_oracle(pat: &str) -> Result<(), TestCaseError> {
    // "Accepts" means its AST parser and its translator both do: the AST parser alone lets
    // through patterns such as `\P0` that the translator then rejects.
    let Ok(theirs) = regex_syntax::ast::parse::Parser::new().parse(pat) else {
        return Ok(());
    };
    if regex_syntax::Parser::new().parse(pat).is_err() {
        return Ok(());
    }
    let ast = match parse(pat, Flavor::Rust, Flags::default()) {
        Ok(a) => a,
        Err(e) => {
            return Err(TestCaseError::fail(format!(
                "{pat:?}: regex-syntax accepts it, rxw says {e}"
            )));
        }
    };
    let e = explain(&ast, pat, Flavor::Rust, 4096).unwrap();
    prop_assert_eq!(
        rxw_shape(&e, &ast),
        oracle_shape(&theirs),
        "pattern {:?}",
        pat
    );
    Ok(())
}

#[test]
fn oracle_agrees_on_hand_picked_patterns() {
    for pat in [
        r"(?P<year>\d{4})-(?<m>\d{2})|(?i:x+?)\b",
        r"^[a-z]+(?:\.[a-z]+)*@\w+$",
        r"(?i)a(?-i)b(c|d|)",
        r"\Aa{2,3}\z\pL\p{Greek}",
        r"[[:alpha:]a-c&&[^b]]+",
        r"\x41\u{1F600}.",
    ] {
        check_oracle(pat).unwrap();
    }
}

#[test]
fn deep_16k_pattern_within_budget_explains() {
    // 1024 levels of `(` + 14 letters + `)`: 16 KB and 3071 nodes (group, sequence, literal run per level; the innermost group holds only its run).
    let pat = "(abcdefghijklmn".repeat(1024) + &")".repeat(1024);
    assert_eq!(pat.len(), 16 * 1024);
    let e = ex(&pat, Flavor::PYTHON, "");
    assert_eq!(e.nodes().len(), 3 * 1023 + 2);
    check_tiling(&pat, &e.tree).unwrap();
}

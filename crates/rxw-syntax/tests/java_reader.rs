//! The Java reader through the parser's public entry: Java's error descriptions per JDK,
//! what rxw refuses, and spans that point at the Java text.

use rxw_syntax::ast::*;
use rxw_syntax::flavor::JavaVersion;
use rxw_syntax::{Error, ErrorKind, Flags, Flavor};

fn java(pattern: &str) -> Result<Ast, Error> {
    rxw_syntax::parse::parse(pattern, Flavor::JAVA, Flags::default())
}

#[test]
fn errors_are_javas_descriptions() {
    let e = |p: &str| java(p).unwrap_err().message;
    assert_eq!(e("(a"), "Unclosed group");
    assert_eq!(e("a)"), "Unmatched closing ')'");
    assert_eq!(e("a**"), "Dangling meta character '*'");
    assert_eq!(e("a{x}"), "Illegal repetition");
    assert_eq!(e("a{1,2,3}"), "Unclosed counted closure");
    assert_eq!(e("[z-a]"), "Illegal character range");
    assert_eq!(e("[&&]"), "Bad class syntax");
    assert_eq!(e(r"\q"), "Illegal/unsupported escape sequence");
    assert_eq!(
        e(r"(?<n>a)\k<m>"),
        "named capturing group <m> does not exist"
    );
    let trailing = |v| {
        rxw_syntax::parse::parse("a\\", Flavor::Java(v), Flags::default())
            .unwrap_err()
            .message
    };
    assert_eq!(trailing(JavaVersion::V17), "Unexpected internal error");
    assert_eq!(trailing(JavaVersion::V25), "Unescaped trailing backslash");
}

#[test]
fn what_rxw_cannot_reproduce_is_refused() {
    for p in [r"\p{L}", r"\X", r"(?>(a))", r"(a)*+", r"\G", "(?u)a", "😀"] {
        let e = java(p).unwrap_err();
        assert_eq!(
            e.kind,
            ErrorKind::ConstructUnsupported,
            "{p}: {}",
            e.message
        );
    }
}

#[test]
fn spans_point_at_the_java_text() {
    let p = r"(?<id>a)\Qb.\E$";
    let ast = java(p).unwrap();
    assert_eq!(ast.root.span, Span::new(0, p.len()));
    assert_eq!(ast.groups[0].name.as_deref(), Some("id"));
    assert_eq!(ast.groups[0].span, Span::new(0, 8));
    ast.root.walk(|n, _| {
        assert!(
            n.span.end <= p.len() && p.is_char_boundary(n.span.start),
            "{n:?}"
        );
    });
}

#!/usr/bin/env python3
"""Writes go_cases.jsonl: hand-written (pattern, text) cases of RE2/Go syntax and semantics, for
the differential test that runs each one through rxw's go@<release> and through that release's
own regexp (tests/oracle/go_oracle.go, built by rxw_testkit::go_oracle) and compares live.

Each line is a case exactly as the Go oracle reads it: {"pattern", "text", "replace"
(optional)}. No answer is recorded: the test asks the real engine each time.

The cases cover literals and escapes (`\\Q…\\E`, octal, `\\x{…}`, the escapes Go refuses),
classes (Perl, ASCII/POSIX, `\\p{…}` and `\\P{…}` with the names each release accepts,
negation), anchors with and without `(?m)`, `(?s)`, `(?i)` with Unicode simple folding
(k/K/U+212A, s/S/U+017F, Σσς), `(?U)`, greedy and lazy repeats, counted repeats and their
limits, empty matches on multi-byte text, alternation priority, repeated and nested captures,
the group syntaxes Go has and has not, NetVM-like log lines, and replacement templates.

With --check it also runs every case through the oracle built with each Go toolchain found
(`go` on the PATH and $RXW_GO_CACHE/<version>/go/bin/go, default ~/.cache/rxw/go), checks that
each answers every case, and prints the cases on which releases answer differently.

Usage: record_go_cases.py [--out FILE] [--check]
"""
import json
import shutil
import subprocess
import sys
import tempfile

from record_common import UNI, answers_to, arguments, build_go_oracle, go_toolchains, jsonl, \
    unique_cases, write_cases

ASCII = "abc ABC 123 _-.\txyz\n"
CASES_TEXT = "kK\u212a sSſ σςΣ ßẞ ǅǄǆ µΜμ åÅÅ"
LOG = (
    "[WO:7fce46e0] [from super] Audit — check\n"
    "[RESULT 7fce46e0] OK done\n"
    "[WO:0a1b2c3d] [from relay-2] Déploiement — vérifier\n"
    "[RESULT 0a1b2c3d] FAIL timeout after 30s\n"
)

# (pattern, [texts]); a text list of None means the shared texts.
GROUPS = [
    # Literals and escapes.
    (r"abc", ["abc", "xabcabc", "ab"]),
    (r"a.c", ["abc", "a\nc", "a😀c"]),
    (r"a\.c", ["a.c", "abc"]),
    (r"\Q.*+?\E", [".*+?", "aaa"]),
    (r"\Qa.b\E+", ["a.bbb", "a.ba.b"]),
    (r"x\Q\Ey", ["xy"]),
    (r"\Qab", ["ab", "xab"]),
    (r"\Qa\\E", ["a\\E", "a\\"]),
    (r"[\Q]\E]", ["]x"]),
    (r"\141\142", ["ab", "a"]),
    (r"\0", ["\x00"]),
    (r"\08", ["\x008", "8"]),
    (r"\101\060", ["A0"]),
    (r"\8", ["8"]),
    (r"\x41\x{42}", ["AB"]),
    (r"\x{263a}", ["☺ ☻"]),
    (r"\x{1F600}+", ["😀😀 😁"]),
    (r"\x{10FFFF}", ["\U0010ffff"]),
    (r"\x{110000}", ["x"]),
    (r"\x{}", ["x"]),
    (r"\x4", ["x"]),
    (r"\a\f\t\n\r\v", ["\a\f\t\n\r\v"]),
    (r"\%\_\-\#\ \~", ["%_-# ~"]),
    (r"\e", ["\x1b"]),
    (r"\cA", ["\x01"]),
    (r"\u0041", ["A"]),
    (r"\N{LATIN SMALL LETTER A}", ["a"]),
    (r"\Z", ["a"]),
    (r"\G", ["a"]),
    (r"\X", ["a"]),
    (r"\R", ["\n"]),
    (r"\K", ["a"]),
    (r"\o{141}", ["a"]),
    (r"a\\", ["a\\"]),
    (r"\C", ["a"]),
    ("a\\", ["a"]),
    (r"é+", ["ééé e"]),
    (r"日本", ["日本語 日本"]),
    (r"😀", ["a😀b😀"]),
    # Perl and POSIX classes (ASCII-only in Go).
    (r"\d+", ["abc 123 ١٢٣ ４５"]),
    (r"\D+", ["ab12cd"]),
    (r"\s+", ["a \t\n\v\f\rb\u00a0c\u2003d"]),
    (r"\S+", ["a b\u00a0c"]),
    (r"\w+", ["héllo wörld_1 日本"]),
    (r"\W+", ["héllo, wörld!"]),
    (r"[[:alpha:]]+", ["abc ÀÉ 123"]),
    (r"[[:^alpha:]]+", ["abc ÀÉ 123"]),
    (r"[^[:^digit:]]+", ["ab12 ٣"]),
    (r"[[:word:]]+", ["a_1-b"]),
    (r"[[:space:]]+", ["a \t\n\v\f\rb"]),
    (r"[[:punct:]]+", ["a!-/:@[`{~b"]),
    (r"[[:xdigit:]]+", ["0x1fG"]),
    (r"[[:upper:][:digit:]]+", ["aB3c"]),
    (r"[[:foo:]]", ["f"]),
    (r"[:alpha:]", ["a:"]),
    (r"[[:alpha:]-z]", ["-z"]),
    (r"[\d\s]+", ["1 2\t3"]),
    (r"[^\D]+", ["a12b"]),
    (r"[\w-]+", ["a-b_c d"]),
    (r"[\pL\d]+", ["héllo42 !"]),
    (r"[^\pL]+", ["héllo42 !"]),
    # Unicode classes.
    (r"\pL+", [UNI]),
    (r"\PL+", [UNI]),
    (r"\pN+", ["abc 123 ١٢٣ Ⅻ ½"]),
    (r"\PN+", ["ab12cd"]),
    (r"\pZ+", ["a \u00a0\u2028b"]),
    (r"\pl", ["a"]),
    (r"\p{Greek}+", ["abc αβγ ΑΒΓ Ωμέγα"]),
    (r"\P{Greek}+", ["abc αβγ def"]),
    (r"\p{^Greek}+", ["abc αβγ def"]),
    (r"\P{^Greek}+", ["abc αβγ def"]),
    (r"[\p{Greek}a]+", ["abc αβγ"]),
    (r"[^\p{Greek}\s]+", ["abc αβγ def"]),
    (r"\p{Han}+", ["日本語 テスト"]),
    (r"\p{Latin}+", ["héllo Ωμέγα"]),
    (r"\p{Cyrillic}", ["Жж"]),
    (r"\p{Lu}+", ["aBCdÉ"]),
    (r"\p{Ll}", ["aB"]),
    (r"\p{Lt}", ["ǅ"]),
    (r"\p{Zs}", ["a b\u3000c"]),
    (r"\p{Nd}+", ["12 ١٢"]),
    (r"\p{Sc}", ["$ € ¥"]),
    (r"\p{Common}+", ["abc 123 !?"]),
    (r"\p{Inherited}", ["e\u0301"]),
    (r"\p{Any}+", ["a😀\n"]),
    (r"\p{Letter}+", ["abc 123"]),
    (r"\p{letter}+", ["abc 123"]),
    (r"\p{ASCII}+", ["abc é"]),
    (r"\p{ascii}+", ["abc é"]),
    (r"\p{Assigned}+", ["a\u0378b"]),
    (r"\p{Cn}", ["a\u0378b"]),
    (r"\pC", ["a\u0378b\u0007"]),
    (r"\p{LC}+", ["aB1ǅ"]),
    (r"\p{Cased_Letter}+", ["aB1"]),
    (r"\p{cased letter}+", ["aB1"]),
    (r"\p{Uppercase_Letter}+", ["aBC"]),
    (r"\p{lu}+", ["aBC"]),
    (r"\p{greek}", ["α"]),
    (r"\p{GREEK}", ["α"]),
    (r"\p{Old_Italic}", ["\U00010300"]),
    (r"\p{old italic}", ["\U00010300"]),
    (r"\p{SignWriting}", ["\U0001d800"]),
    (r"\p{Kawi}", ["\U00011f04"]),
    (r"\p{Nag_Mundari}", ["\U0001e4d0"]),
    (r"\p{Sidetic}", ["x"]),
    (r"\p{Garay}", ["x"]),
    (r"\p{Grek}", ["α"]),
    (r"\p{IsGreek}", ["α"]),
    (r"\p{Foo}", ["a"]),
    (r"\p{}", ["a"]),
    (r"\p{Greek", ["a"]),
    (r"\p", ["p"]),
    (r"\pX", ["X"]),
    (r"\p{digit}", ["1"]),
    (r"\p{punct}", ["!"]),
    (r"\p{Other}", ["\u0007a"]),
    # Class syntax.
    (r"[abc]+", ["xabcabx"]),
    (r"[^abc]+", ["xabcabx"]),
    (r"[a-z]+", ["Hello World"]),
    (r"[z-a]", ["a"]),
    (r"[]a]+", ["]a]b"]),
    (r"[^]a]+", ["]a]b"]),
    (r"[a-]+", ["a-b"]),
    (r"[-a]+", ["a-b"]),
    (r"[a-c-e]+", ["abd-e"]),
    (r"[a&&b]+", ["a&b"]),
    (r"[[a]]", ["[]", "a]"]),
    (r"[a[]+", ["a[["]),
    (r"[]", ["a"]),
    (r"[^]", ["a"]),
    (r"[a", ["a"]),
    (r"[\b]", ["\b"]),
    (r"[\]]", ["]"]),
    (r"[\\]", ["\\"]),
    (r"[a-\x{10FFFF}]+", ["`ab😀"]),
    (r"[é-ö]+", ["èéöø"]),
    (r"[😀-😂]+", ["😀😁😂😃"]),
    (r"[\x00-\x{10FFFF}]", ["a"]),
    (r"[^\x00-\x{10FFFF}]", ["a"]),
    (r"[.]", [".a"]),
    (r"[^\n]+", ["a\nb"]),
    (r"[$^]+", ["$^"]),
    # Anchors and flags.
    (r"^a", ["ab", "ba", "a\na"]),
    (r"a$", ["ba", "a\n", "a\na"]),
    (r"(?m)^a", ["a\na\nba"]),
    (r"(?m)a$", ["a\nba\nab"]),
    (r"^$", ["", "\n"]),
    (r"(?m)^$", ["\n\n", "a\n\nb", ""]),
    (r"(?m)^", ["a\nb\n"]),
    (r"(?m)$", ["a\nb\n"]),
    (r"$", ["a\n"]),
    (r"\Aa", ["aa", "\na"]),
    (r"(?m)\Aa", ["a\na"]),
    (r"a\z", ["aa", "a\n"]),
    (r"(?m)a\z", ["a\na"]),
    (r"\A", ["abc"]),
    (r"\z", ["abc"]),
    (r".", ["a\nb"]),
    (r"(?s).", ["a\nb"]),
    (r"(?s:.)+", ["a\nb"]),
    (r".+", ["a\nb\r\nc"]),
    (r"(?s).+", ["a\nb"]),
    (r"(?-s).", ["\n"]),
    (r"(?i)k", [CASES_TEXT]),
    (r"(?i)K+", [CASES_TEXT]),
    (r"(?i)\x{212a}", [CASES_TEXT]),
    (r"(?i)s+", [CASES_TEXT]),
    (r"(?i)ſ", [CASES_TEXT]),
    (r"(?i)σ+", [CASES_TEXT]),
    (r"(?i)Σ", [CASES_TEXT]),
    (r"(?i)ς", [CASES_TEXT]),
    (r"(?i)ß", [CASES_TEXT]),
    (r"(?i)ǅ", [CASES_TEXT]),
    (r"(?i)µ", [CASES_TEXT]),
    (r"(?i)å", [CASES_TEXT]),
    (r"(?i)[k]", [CASES_TEXT]),
    (r"(?i)[k-k]", [CASES_TEXT]),
    (r"(?i)[^k]+", [CASES_TEXT]),
    (r"(?i)[a-z]+", [CASES_TEXT]),
    (r"(?i)[^a-z]+", [CASES_TEXT]),
    (r"(?i)[[:upper:]]+", [CASES_TEXT]),
    (r"(?i)[[:^upper:]]+", [CASES_TEXT]),
    (r"(?i)[[:lower:]]", ["A"]),
    (r"(?i)\p{Lu}+", ["aBc"]),
    (r"(?i)\P{Lu}+", ["aBc1"]),
    (r"(?i)\p{Ll}", ["\u212a"]),
    (r"(?i)\p{Greek}+", ["ΩῳΙ"]),
    (r"(?i)\pL", ["\u0345"]),
    (r"(?i)\p{LC}", ["\u0345"]),
    (r"(?i)\p{ASCII}+", [CASES_TEXT]),
    (r"(?i)\p{Assigned}", ["a"]),
    (r"(?i)\d", ["1"]),
    (r"(?i)\w+", [CASES_TEXT]),
    (r"(?i)hello", ["HeLLo hello HELLO"]),
    (r"(?i)ΣΑΣ", ["σας ΣΑΣ σαΣ"]),
    (r"(?i:a)b", ["Ab AB ab"]),
    (r"(?i)a(?-i)b", ["Ab AB ab"]),
    (r"(?i)(?-i:a)b", ["aB AB"]),
    (r"a(?i)b|c", ["aB C"]),
    (r"(?i:A)x|A[xy]", ["ax ay Ax Ay"]),
    (r"A[xy]|(?i:A)x", ["ax ay Ax Ay"]),
    (r"[Aa]x|A[xy]", ["ay"]),
    (r"(?i:k)x|k[xy]", ["Kx \u212ay ky"]),
    (r"(?U)a+", ["aaa"]),
    (r"(?U)a+?", ["aaa"]),
    (r"(?U)(a+)(a*)", ["aaa"]),
    (r"(?U:a*)b", ["aab"]),
    (r"(?-U)a+", ["aa"]),
    (r"(?imsU)^A.$", ["a\nb"]),
    (r"(?i-s:.)", ["\n"]),
    (r"(?x)a b", ["ab"]),
    (r"(?z)a", ["a"]),
    (r"(?i", ["a"]),
    (r"(?", ["a"]),
    (r"(?i)", ["a"]),
    (r"(?-)", ["a"]),
    (r"(?i-)", ["a"]),
    (r"(?--i)a", ["a"]),
    (r"(?i-i)a", ["A"]),
    # Repeats.
    (r"a*", ["baaa", "", "aaa"]),
    (r"a+", ["baaab"]),
    (r"a?", ["baab"]),
    (r"a*?", ["aaa"]),
    (r"a+?", ["aaa"]),
    (r"a??", ["aaa"]),
    (r"a*?b", ["aaab"]),
    (r"<.*>", ["<a><b>"]),
    (r"<.*?>", ["<a><b>"]),
    (r"a{2}", ["aaaaa"]),
    (r"a{2,}", ["a aa aaaaa"]),
    (r"a{2,5}", ["aaaaaaa"]),
    (r"a{2,5}?", ["aaaaaaa"]),
    (r"a{,3}", ["a{,3} aaa"]),
    (r"a{1,", ["a{1,"]),
    (r"a{", ["a{"]),
    (r"a{x}", ["a{x}"]),
    (r"a{1000}", ["a" * 999, "a" * 1001]),
    (r"a{1001}", ["a"]),
    (r"x{1001}", ["x"]),
    (r"a{2,1}", ["a"]),
    (r"a{0}", ["aaa"]),
    (r"a{0,0}b", ["ab"]),
    (r"(a){0}b", ["ab"]),
    (r"(?:a{2}){3}", ["aaaaaaa"]),
    (r"((a{100}){100}){100}", ["a"]),
    (r"(a{500}){3}", ["a"]),
    ("(" * 1001 + "a" + ")" * 1001, ["a"]),
    ("(?:" * 999 + "a" + ")" * 999, ["a"]),
    # Too large for the compiled program's limit: Go 1.19 says "regexp/syntax: internal error",
    # 1.20 and later "expression too large".
    ("(?:" + "a" * 3400 + "){1000}", ["a"]),
    (r"a**", ["aaa"]),
    (r"a*+", ["aaa"]),
    (r"a++", ["aaa"]),
    (r"a?*", ["aaa"]),
    (r"a{2}*", ["aaaa"]),
    (r"a{2}{3}", ["aaaaaa"]),
    (r"a???", ["aaa"]),
    (r"a*??", ["aaa"]),
    (r"(a*)*", ["b", "aab"]),
    (r"(a*)+", ["b", "aab"]),
    (r"(a+)*", ["aab"]),
    (r"(a*)*?b", ["aab"]),
    (r"(|a)*", ["aa"]),
    (r"(|a)+", ["aa"]),
    (r"(a|)+", ["aa"]),
    (r"(a|)*", ["aab"]),
    (r"(a|b)*", ["abab", "abc"]),
    (r"(a|b)*c", ["ababc"]),
    (r"((a)|b)+", ["ab", "ba"]),
    (r"(a)|(b)", ["ab"]),
    (r"((a)|(b))+", ["abab"]),
    (r"(a|ab)(c|bcd)(d*)", ["abcd"]),
    (r"(a+)(b+)?", ["aab aa"]),
    (r"(a{2})*", ["aaaaa"]),
    (r"(ab|a)(bc|c)?", ["abc"]),
    (r"(.)*", ["abc"]),
    (r"(a*)(a*)", ["aaa"]),
    (r"(a*?)(a*)", ["aaa"]),
    (r"(a??)(a?)", ["aa"]),
    (r"*", ["a"]),
    (r"+a", ["a"]),
    (r"?", ["a"]),
    (r"{2}", ["{2}"]),
    (r"a|*", ["a"]),
    (r"(*)", ["a"]),
    (r"(?:*)", ["a"]),
    (r"^*", ["a"]),
    (r"$+", ["a"]),
    (r"\b*", ["a"]),
    # Alternation priority.
    (r"a|ab", ["ab"]),
    (r"ab|a", ["ab"]),
    (r"a|ab|abc", ["abc"]),
    (r"foo|foobar", ["foobar"]),
    (r"x*|y", ["yx"]),
    (r"|a", ["a"]),
    (r"a|", ["ab"]),
    (r"(?:)", ["😀"]),
    (r"(?:a|b)+", ["abba"]),
    (r"a|b|c|d", ["dcba"]),
    (r"abc|abd|aef", ["abd aef"]),
    (r"(a|ab)(c|bcd)", ["abcd"]),
    (r"a(b|c|)d", ["ad abd"]),
    (r"(?:ab)*?c|ab", ["ababc"]),
    # Groups.
    (r"(a)(b)?", ["a ab"]),
    (r"(?P<n>x)", ["axb"]),
    (r"(?P<first>\w+) (?P<last>\w+)", ["Ada Lovelace"]),
    (r"(?<n>x)", ["axb"]),
    (r"(?<first>\w+)-(?<n2>\d)", ["ab-1"]),
    (r"(?P<n>x)(?P<n>y)", ["xy"]),
    (r"(?<n>x)(?P<n>y)", ["xy"]),
    (r"(?<n>x)(?<n>y)", ["xy"]),
    (r"(?P<n>x)|(?P<n>y)", ["xy", "yx"]),
    (r"(?P<1a>x)", ["x"]),
    (r"(?P<_a1>x)", ["x"]),
    (r"(?P<é>x)", ["x"]),
    (r"(?P<a-b>x)", ["x"]),
    (r"(?P<>x)", ["x"]),
    (r"(?P<n>", ["x"]),
    (r"(?P<n", ["x"]),
    (r"(?P=n)", ["x"]),
    (r"(?P>n)", ["x"]),
    (r"(?'n'x)", ["x"]),
    (r"(?=x)", ["x"]),
    (r"(?!x)", ["x"]),
    (r"(?<=x)y", ["xy"]),
    (r"(?<!x)y", ["xy"]),
    (r"(?#comment)a", ["a"]),
    (r"(?|a)", ["a"]),
    (r"(?>a)", ["a"]),
    (r"\1", ["a"]),
    (r"(a)\1", ["aa"]),
    (r"(a)\g1", ["aa"]),
    (r"(a)\k<n>", ["aa"]),
    (r"(?:a)", ["a"]),
    (r"((((a))))", ["a"]),
    (r"(a)(?:b)(c)", ["abc"]),
    (r"()", ["ab"]),
    (r"(|)", ["a"]),
    (r"(a))", ["a"]),
    (r"((a)", ["a"]),
    (r")", ["a"]),
    (r"(", ["a"]),
    # Word boundaries and empty matches on multi-byte text.
    (r"", ["héllo", "", "😀日"]),
    (r"\b", ["héllo wörld", "a b", ""]),
    (r"\B", ["héllo", "ab", ""]),
    (r"\b\w+\b", ["héllo wörld abc"]),
    (r"x*", ["日本", "xéx"]),
    (r"é*", ["aéé"]),
    (r".", ["é😀\u212a"]),
    (r"..", ["é😀\u212a"]),
    (r"[^a]", ["é😀"]),
    (r"[é]", ["eé"]),
    (r"\x{e9}", ["é"]),
    (r"e\x{301}", ["e\u0301"]),
    (r"(?i)É", ["é"]),
    (r"\w\b", ["aé"]),
    # NetVM-like log lines.
    (r"\[WO:([0-9a-f]+)\] \[from (\w+)\] (.*?) — (\w+)", [LOG]),
    (r"\[WO:(?P<id>[0-9a-f]{8})\] \[from (?P<who>[\w-]+)\] (?P<what>[^—]+?) — (?P<verb>\S+)", [LOG]),
    (r"\[RESULT ([0-9a-f]{8})\] (OK|FAIL)\b(.*)", [LOG]),
    (r"(?m)^\[(\w+)[: ]([0-9a-f]+)\]", [LOG]),
    (r"(?m)^\[RESULT [0-9a-f]+\] OK.*$", [LOG]),
    (r"(?m)(\w+)$", [LOG]),
    (r"—", [LOG]),
    (r"\p{Pd}", [LOG]),
    (r"(?i)audit|vérifier", [LOG]),
    (r"\[from (super|relay-\d)\]", [LOG]),
    (r"(?P<verb>ACK|CLAIM)\s+(?P<id>[0-9a-f]+)", ["[ACK 7fce46e0] [CLAIM  0a1b] ack 1"]),
    (r"timeout after (\d+)s", [LOG]),
    (r"(?s)\[WO.*?done", [LOG]),
    (r"\[[^\]]*\]", [LOG]),
]

# (pattern, text, replacement).
REPLACEMENTS = [
    (r"(a)(b)?", "xaby a", "[$1]"),
    (r"(a)(b)?", "xaby a", "[${1}x]"),
    (r"(a)(b)?", "xaby a", "[$1x]"),
    (r"(a)(b)?", "xaby a", "[$2]"),
    (r"(a)(b)?", "xaby a", "[$0]"),
    (r"(a)(b)?", "xaby a", "[$$]"),
    (r"(a)(b)?", "xaby a", "[$]"),
    (r"(a)(b)?", "xaby a", "[$10]"),
    (r"(a)(b)?", "xaby a", "[${2}${1}]"),
    (r"(a)(b)?", "xaby a", "[${1]"),
    (r"(a)(b)?", "xaby a", "[${}]"),
    (r"(a)(b)?", "xaby a", "[$-1]"),
    (r"(a)(b)?", "xaby a", "[${-1}]"),
    (r"(a)(b)?", "xaby a", "\\1"),
    (r"(?P<name>\w+)@(?P<host>\w+)", "ada@home bob@work", "$name at $host"),
    (r"(?P<name>\w+)@(?P<host>\w+)", "ada@home", "${name}_x $name_x"),
    (r"(?P<name>\w+)@(?P<host>\w+)", "ada@home", "$missing|${missing}"),
    (r"(?P<n>\w+)", "ab", "$nä|${n}ä"),
    (r"(?P<ä>\w+)", "ab", "$ä"),
    (r"(\w+)", "héllo wörld", "<$1>"),
    (r"a*", "baaa", "-"),
    (r"a*", "baaac", "<$0>"),
    (r"", "héllo", "|"),
    (r"\b", "ab cd", "|"),
    (r"(?m)^", "a\nb\n", "> "),
    (r"(?m)$", "a\nb\n", ";"),
    (r"x*", "日本", "-"),
    (r"(a)|(b)", "ab", "[$1|$2]"),
    (r"\[WO:([0-9a-f]+)\]", LOG, "[WO:<$1>]"),
    (r"(?P<id>[0-9a-f]{8})", LOG, "#${id}#"),
    (r"\s+", "a  b \t c", " "),
    (r"(a)", "a", "$1$1$1"),
    (r"(a)", "a", "$$1"),
    (r"(a)", "a", "${1}1"),
    (r"(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)", "abcdefghijk", "$11-$10-${1}1"),
]


def cases():
    return unique_cases(GROUPS, REPLACEMENTS)


def check(all_cases):
    chains = go_toolchains()
    if not chains:
        sys.exit("no Go toolchain found")
    work = tempfile.mkdtemp(prefix="go_cases-")
    body = jsonl(all_cases)
    answers = {}
    try:
        for _, version, go in chains:
            binary = build_go_oracle(go, work, "oracle-" + version)
            out = subprocess.run([binary], input=body, capture_output=True, check=True).stdout
            lines = answers_to(all_cases, out, f"{version}: ")
            answers[version] = lines
            errors = sum(1 for a in lines if "error" in a)
            print(f"{version}: {len(lines)} cases answered ({errors} refused)", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    versions = [v for _, v, _ in chains]
    differing = 0
    for i, case in enumerate(all_cases):
        groups = {}
        for v in versions:
            groups.setdefault(json.dumps(answers[v][i], ensure_ascii=False), []).append(v)
        if len(groups) > 1:
            differing += 1
            print(f"differs: {json.dumps(case, ensure_ascii=False)[:150]}", file=sys.stderr)
            for answer, vs in groups.items():
                print(f"    {', '.join(vs)}: {answer[:150]}", file=sys.stderr)
    print(f"{differing} of {len(all_cases)} cases tell releases apart", file=sys.stderr)


def main():
    ap = arguments("go_cases.jsonl")
    ap.add_argument("--check", action="store_true")
    args = ap.parse_args()
    all_cases = cases()
    write_cases(args.out, all_cases)
    if args.check:
        check(all_cases)


if __name__ == "__main__":
    main()

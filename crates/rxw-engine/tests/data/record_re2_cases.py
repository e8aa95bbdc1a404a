#!/usr/bin/env python3
"""Writes re2_cases.jsonl: hand-written (pattern, text) cases of RE2's syntax and semantics as the
google-re2 package runs them (`import re2`), for the differential test that runs each one
through rxw's re2 flavor and through the real library (tests/oracle/re2_oracle.py, run by
rxw_testkit::re2_oracle_answers) and compares live.

Each line is a case exactly as the oracle reads it: {"pattern", "text", "replace" (optional)}.
No answer is recorded: the test asks the real engine each time.

The cases cover every finding of crates/rxw-syntax/gen/re2_notes.md: the error texts of every
class (missing ), missing ], unexpected ), bad escapes, bad and nested repetition, repeat
sizes, bad ranges and properties, named groups, trailing backslash, look-around and
backreferences, a program too large), the group-name forms and the characters a name may hold,
duplicate names, `\\C`, `\\Q…\\E`, octal, `\\pN`, `\\p{Greek}`, `\\p{^Greek}`, POSIX classes,
`\\z` and the refused `\\Z`, the inline flags, what `\\s \\w \\d \\b . $` mean, `(?i)` with the
orbits of Unicode 15.1 (k/K/U+212A, ſ, Σσς, the three pairs new in 15.1), repeats and their
limits, empty iterations, the find-all loop after an empty match (the package reports an empty
match found after the search's start twice) and `\\B` inside a multi-byte character, NetVM log
lines, multi-byte texts, and the package's replacement templates (`\\1`, `\\g<name>`, escapes,
its errors).

With --check it also runs every case through the oracle (this Python must have google-re2),
checks that each is answered, and prints how many compile; with --go it also builds
tests/oracle/go_oracle.go with the newest Go toolchain found (`go` on the PATH and
$RXW_GO_CACHE/<version>/go/bin/go, default ~/.cache/rxw/go) and prints the cases on which RE2
and Go answer differently (error texts compared without Go's `error parsing regexp: ` and
backquotes; replacements only where the template means the same in both, so never).

Usage: record_re2_cases.py [--out FILE] [--check] [--go]
"""
import os
import re
import shutil
import subprocess
import sys
import tempfile

from record_common import LOG, ROOT, UNI, answers_to, arguments, build_go_oracle, \
    go_toolchains, jsonl, report_differences, unique_cases, write_cases

ORACLE = os.path.join(ROOT, "tests", "oracle", "re2_oracle.py")

FOLD = "kK\u212a sSſ σςΣ ßẞ ǅǄǆ µΜμ åÅÅ \u0390\u1fd3 \u03b0\u1fe3 \ufb05\ufb06"
WO = "[WO:7fce46e0] [from super] Audit — check"
RESULT = "[RESULT 7fce46e0] OK done"
TOOL = "[TOOL op {\"a\": 1}]"

# (pattern, [texts]).
GROUPS = [
    # Literals and escapes.
    (r"abc", ["abc", "xabcabc", "ab"]),
    (r"a.c", ["abc", "a\nc", "a😀c"]),
    (r"a\.c", ["a.c", "abc"]),
    (r"\Q.*+?\E", [".*+?", "aaa"]),
    (r"\Qa.b\E+", ["a.bbb", "a.ba.b"]),
    (r"\Qab", ["ab", "xab"]),
    (r"\Qa\\E", ["a\\E", "a\\"]),
    (r"\Qa\E\Qb\E", ["ab"]),
    (r"a\Q\E*", ["aa"]),
    (r"\Q\E*", ["x"]),
    (r"\Qa\\", ["a\\\\"]),
    (r"[\Q]\E]", ["]x"]),
    (r"\0", ["\x00"]),
    (r"\08", ["\x008", "8"]),
    (r"\12", ["\n"]),
    (r"\141\142", ["ab", "a"]),
    (r"\101\060", ["A0"]),
    (r"\400", ["\u0100"]),
    (r"\777", ["\u01ff"]),
    (r"\1234", ["S4"]),
    (r"[\101-\132]+", ["HELLO world"]),
    (r"\1", ["a"]),
    (r"\18", ["a"]),
    (r"\8", ["8"]),
    (r"\x41\x{42}", ["AB"]),
    (r"\x{263a}", ["☺ ☻"]),
    (r"\x{1F600}+", ["😀😀 😁"]),
    (r"\x{10FFFF}", ["\U0010ffff"]),
    (r"\x{110000}", ["x"]),
    (r"\x{D800}", ["a\ud7ff"]),
    (r"\x{}", ["x"]),
    (r"\x{41", ["A"]),
    (r"\x{", ["x"]),
    (r"\x4", ["x"]),
    (r"\xG", ["x"]),
    (r"\a\f\t\n\r\v", ["\a\f\t\n\r\v"]),
    (r"\%\_\-\#\ \~\<\>\@\"\'\`\=\:\;\,\/\&\!", ["%_-# ~<>@\"'`=:;,/&!"]),
    (r"\é", ["é"]),
    (r"\e", ["\x1b"]),
    (r"\cA", ["\x01"]),
    (r"\u0041", ["A"]),
    (r"\U00000041", ["A"]),
    (r"\N{LATIN SMALL LETTER A}", ["a"]),
    (r"\o{141}", ["a"]),
    (r"\Z", ["a"]),
    (r"\G", ["a"]),
    (r"\X", ["a"]),
    (r"\R", ["\n"]),
    (r"\K", ["a"]),
    (r"\h", ["a"]),
    (r"\V", ["a"]),
    (r"a\\", ["a\\"]),
    ("a\\", ["a"]),
    ("\\", ["a"]),
    (r"é+", ["ééé e"]),
    (r"日本", ["日本語 日本"]),
    (r"😀", ["a😀b😀"]),
    ("a\x00b", ["a\x00b"]),
    # \C: any byte, even inside a character.
    (r"\C", ["aé😀"]),
    (r"a\Cb", ["axb aéb"]),
    (r"\C+", ["é"]),
    (r".\C", ["éa"]),
    (r"\C\C", ["é"]),
    (r"(?s)\C*", ["ab"]),
    (r"[\C]", ["C"]),
    (r"(\C)(\C)", ["éx"]),
    # Perl and POSIX classes (ASCII only).
    (r"\d+", ["abc 123 ١٢٣ ４５"]),
    (r"\D+", ["ab12cd"]),
    (r"\s+", ["a \t\n\v\f\rb\u00a0c\u2003d"]),
    (r"\s", ["\x0b"]),
    (r"[\s]", ["\x0b"]),
    (r"\S+", ["a b\u00a0c"]),
    (r"\w+", ["héllo wörld_1 日本"]),
    (r"\W+", ["héllo, wörld!"]),
    (r"[[:alpha:]]+", ["abc ÀÉ 123"]),
    (r"[[:^alpha:]]+", ["abc ÀÉ 123"]),
    (r"[^[:^digit:]]+", ["ab12 ٣"]),
    (r"[[:word:]]+", ["a_1-b"]),
    (r"[[:space:]]+", ["a \t\n\v\f\rb"]),
    (r"[[:blank:]]+", ["a \t\nb"]),
    (r"[[:punct:]]+", ["a!-/:@[`{~b"]),
    (r"[[:xdigit:]]+", ["0x1fG"]),
    (r"[[:cntrl:]]+", ["a\x00\x1f\x7fb"]),
    (r"[[:print:]]+", ["a b\x7fé"]),
    (r"[[:graph:]]+", ["a b~"]),
    (r"[[:ascii:]]+", ["aé\x7f"]),
    (r"[[:upper:][:digit:]]+", ["aB3c"]),
    (r"[[:foo:]]", ["f"]),
    (r"[:alpha:]+", ["a:lpha"]),
    (r"[[:alpha:]", ["a"]),
    (r"[[=a=]]", ["=a]"]),
    (r"[[.a.]]", [".a"]),
    (r"[\d\s]+", ["1 2\t3"]),
    (r"[^\D]+", ["a12b"]),
    (r"[\w-]+", ["a-b_c d"]),
    (r"[\d-z]+", ["1-z"]),
    (r"[a-\d]", ["a"]),
    (r"[a-\pL]", ["a"]),
    (r"[\pL\d]+", ["héllo42 !"]),
    (r"[^\pL]+", ["héllo42 !"]),
    # Unicode classes.
    (r"\pL+", [UNI]),
    (r"\PL+", [UNI]),
    (r"\pN+", ["abc 123 ١٢٣ Ⅻ ½"]),
    (r"\PN+", ["ab12cd"]),
    (r"\pZ+", ["a \u00a0\u2028b"]),
    (r"\pl", ["a"]),
    (r"\pé", ["a"]),
    (r"\p{Greek}+", ["abc αβγ ΑΒΓ Ωμέγα"]),
    (r"\P{Greek}+", ["abc αβγ def"]),
    (r"\p{^Greek}+", ["abc αβγ def"]),
    (r"\P{^Greek}+", ["abc αβγ def"]),
    (r"\p{^}", ["a"]),
    (r"[\p{^L}]+", ["ab12"]),
    (r"[^\P{L}]+", ["ab1"]),
    (r"[\p{Greek}a]+", ["abc αβγ"]),
    (r"\p{Han}+", ["日本語 テスト \U0002ebf0"]),
    (r"\p{Lo}", ["\U0002ebf0"]),
    (r"\p{Latin}+", ["héllo Ωμέγα"]),
    (r"\p{Cyrillic}", ["Жж"]),
    (r"\p{Lu}+", ["aBCdÉ"]),
    (r"\p{Ll}", ["aB"]),
    (r"\p{Lt}", ["ǅ"]),
    (r"\p{Zs}", ["a b\u3000c\u2028"]),
    (r"\p{Nd}+", ["12 ١٢"]),
    (r"\p{Sc}", ["$ € ¥"]),
    (r"\p{So}", ["\u2ffc a"]),
    (r"\p{Common}+", ["abc 123 !?"]),
    (r"\p{Inherited}", ["e\u0301"]),
    (r"\p{Any}+", ["a😀\n"]),
    (r"\pC", ["a\u0378b\u0007"]),
    (r"\p{Cs}", ["a"]),
    (r"\p{Co}", ["\ue000a"]),
    (r"\p{Cn}", ["a\u0378b"]),
    (r"\p{LC}", ["a"]),
    (r"\p{L&}", ["a"]),
    (r"\p{Letter}", ["a"]),
    (r"\p{letter}", ["a"]),
    (r"\p{ASCII}", ["a"]),
    (r"\p{Assigned}", ["a"]),
    (r"\p{greek}", ["α"]),
    (r"\p{GREEK}", ["α"]),
    (r"\p{Grek}", ["α"]),
    (r"\p{IsGreek}", ["α"]),
    (r"\p{any}", ["a"]),
    (r"\p{lu}", ["A"]),
    (r"\p{ L}", ["a"]),
    (r"\p{Old_Italic}", ["\U00010300"]),
    (r"\p{old italic}", ["\U00010300"]),
    (r"\p{SignWriting}", ["\U0001d800"]),
    (r"\p{Kawi}", ["\U00011f04"]),
    (r"\p{Nag_Mundari}", ["\U0001e4d0"]),
    (r"\p{Garay}", ["x"]),
    (r"\p{Sidetic}", ["x"]),
    (r"\p{Katakana_Or_Hiragana}", ["x"]),
    (r"\p{Foo}", ["a"]),
    (r"\p{}", ["a"]),
    (r"\p{Greek", ["a"]),
    (r"\p", ["p"]),
    (r"\pX", ["X"]),
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
    (r"[]", ["a"]),
    (r"[^]", ["a"]),
    (r"[a", ["a"]),
    (r"[a-", ["a"]),
    (r"[a\\", ["a"]),
    (r"[\b]", ["\b"]),
    (r"[\B]", ["B"]),
    (r"[\z]", ["z"]),
    (r"[\]]", ["]"]),
    (r"[é-ö]+", ["èéöø"]),
    (r"[😀-😂]+", ["😀😁😂😃"]),
    (r"[\x00-\x{10FFFF}]", ["a"]),
    (r"[^\x00-\x{10FFFF}]", ["a"]),
    (r"[\x{D7FF}-\x{E000}]", ["\ud7ff\ue000"]),
    (r"[^\n]+", ["a\nb"]),
    (r"[^a]", ["\n"]),
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
    (r"$", ["a\n", "ab"]),
    (r"\Aa", ["aa", "\na"]),
    (r"(?m)\Aa", ["a\na"]),
    (r"a\z", ["aa", "a\n"]),
    (r"(?m)a\z", ["a\na"]),
    (r"\A", ["abc"]),
    (r"\z", ["abc", "a\n"]),
    (r".", ["a\nb"]),
    (r"(?s).", ["a\nb"]),
    (r".+", ["a\nb\r\nc"]),
    (r"(?-s).", ["\n"]),
    (r"(?U)a+", ["aaa"]),
    (r"(?U)a+?", ["aaa"]),
    (r"(?U)a*?", ["aa"]),
    (r"(?U)(a+)(a*)", ["aaa"]),
    (r"(?U:a*)b", ["aab"]),
    (r"(?imsU)^A.$", ["a\nb"]),
    (r"(?sm)^.$", ["a\n"]),
    (r"(?i-s:.)", ["\n"]),
    (r"(?i:a)b", ["Ab AB ab"]),
    (r"(?i)a(?-i)b", ["Ab AB ab"]),
    (r"(?i)(?-i:a)b", ["aB AB"]),
    (r"a(?i)b|c", ["aB C"]),
    (r"(?)a", ["a"]),
    (r"(?ii)a", ["A"]),
    (r"(?i-i)a", ["A"]),
    (r"(?x)a b", ["ab"]),
    (r"(?a)a", ["a"]),
    (r"(?z)a", ["a"]),
    (r"(?flags)", ["a"]),
    (r"(?i", ["a"]),
    (r"(?", ["a"]),
    (r"(?-)", ["a"]),
    (r"(?i-)", ["a"]),
    (r"(?--i)a", ["a"]),
    (r"(?i:", ["a"]),
    # Word boundaries, and empty matches on multi-byte text.
    (r"\b", ["héllo wörld", "a b", "", "é a"]),
    (r"\B", ["héllo", "ab", "", "éé", "日本"]),
    (r"\B.", ["aé"]),
    (r"$|\B", ["é"]),
    (r"\b\w+\b", ["héllo wörld abc"]),
    (r"\bé", ["é"]),
    (r"a\b", ["aé"]),
    (r"\w\b\W", ["a-"]),
    (r"", ["héllo", "", "😀日"]),
    (r"x*", ["日本", "xéx", "aé"]),
    (r"é*", ["aéé"]),
    (r"(?:)|é", ["é"]),
    (r"é|", ["éa"]),
    (r".", ["é😀\u212a"]),
    (r"..", ["é😀\u212a"]),
    (r"[^a]", ["é😀"]),
    (r"e\x{301}", ["e\u0301"]),
    # Case folding.
    (r"(?i)k", [FOLD]),
    (r"(?i)K+", [FOLD]),
    (r"(?i)\x{212a}", [FOLD]),
    (r"(?i)s+", [FOLD]),
    (r"(?i)ſ", [FOLD]),
    (r"(?i)σ+", [FOLD]),
    (r"(?i)ß", [FOLD]),
    (r"(?i)ǅ", [FOLD]),
    (r"(?i)µ", [FOLD]),
    (r"(?i)å", [FOLD]),
    (r"(?i)\x{390}", [FOLD]),
    (r"(?i)\x{1FE3}", [FOLD]),
    (r"(?i)\x{FB05}", [FOLD]),
    (r"(?i)[\x{FB06}]", [FOLD]),
    (r"(?i)[k]", [FOLD]),
    (r"(?i)[^k]+", [FOLD]),
    (r"(?i)[a-z]+", [FOLD]),
    (r"(?i)[^a-z]+", [FOLD]),
    (r"(?i)[k-m]", [FOLD]),
    (r"(?i)[\x{100}-\x{17F}]+", ["ĀāſsS"]),
    (r"(?i)[[:upper:]]+", [FOLD]),
    (r"(?i)[[:^upper:]]+", [FOLD]),
    (r"(?i)[[:lower:]]", ["A"]),
    (r"(?i)\p{Lu}+", ["aBc"]),
    (r"(?i)\P{Lu}+", ["aBc1", FOLD]),
    (r"(?i)\p{Ll}", ["\u212a"]),
    (r"(?i)\p{Greek}+", ["ΩῳΙ", FOLD]),
    (r"(?i)\pL", ["\u0345"]),
    (r"(?i)\d", ["1"]),
    (r"(?i)\w+", [FOLD]),
    (r"(?i)\W+", [FOLD]),
    (r"(?i)hello", ["HeLLo hello HELLO"]),
    (r"(?i)ΣΑΣ", ["σας ΣΑΣ σαΣ"]),
    (r"(?i)É", ["é"]),
    # Repeats and their limits.
    (r"a*", ["baaa", "", "aaa"]),
    (r"a+", ["baaab"]),
    (r"a?", ["baab"]),
    (r"a*?", ["aaa"]),
    (r"a+?", ["aaa"]),
    (r"a??", ["aaa"]),
    (r"<.*>", ["<a><b>"]),
    (r"<.*?>", ["<a><b>"]),
    (r"a{2}", ["aaaaa"]),
    (r"a{2,}", ["a aa aaaaa"]),
    (r"a{2,5}", ["aaaaaaa"]),
    (r"a{2,5}?", ["aaaaaaa"]),
    (r"a{2}?", ["aaa"]),
    (r"a{,3}", ["a{,3} aaa"]),
    (r"a{1,", ["a{1,"]),
    (r"a{", ["a{"]),
    (r"a{x}", ["a{x}"]),
    (r"a{ 2}", ["a{ 2}"]),
    (r"a{-1}", ["a{-1}"]),
    (r"a{01}", ["a"]),
    (r"a{0}", ["aaa"]),
    (r"(a){0}b", ["ab"]),
    (r"a{1000}", ["a" * 999, "a" * 1000]),
    (r"a{0,1000}", ["a"]),
    (r"a{1001}", ["a"]),
    (r"a{1001,}", ["a"]),
    (r"a{0,1001}", ["a"]),
    (r"a{2,1}", ["a"]),
    (r"(a{2}){500}", ["a"]),
    (r"(a{2}){501}", ["a"]),
    (r"((a{10}){10}){10}", ["a"]),
    (r"((a{10}){10}){11}", ["a"]),
    (r"(a{500}){3}", ["a"]),
    (r"(?:a{1000})?", ["a"]),
    (r"x{2}{,3}", ["xx{,3}"]),
    (r"a**", ["aaa"]),
    (r"a*+", ["aaa"]),
    (r"a++", ["aaa"]),
    (r"a?*", ["aaa"]),
    (r"a*??", ["aaa"]),
    (r"a+?+", ["aaa"]),
    (r"a{2}*", ["aaaa"]),
    (r"a{2}{3}", ["aaaaaa"]),
    (r"a{1,2}{3}", ["aaa"]),
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
    # Programs too large, nesting (RE2 has no nesting limit of its own).
    (r"\pL{500}", ["a"]),
    (r"(?:\pL{100}){10}", ["a"]),
    (r"\pL{446}", ["a"]),
    (r"\pL{447}", ["a"]),
    (r".{1000}", ["a"]),
    (r"\w{1000}", ["a"]),
    ("(" * 1001 + "a" + ")" * 1001, ["a"]),
    ("(?:" * 5000 + "a" + ")" * 5000, ["a"]),
    # Empty iterations and repeated captures.
    (r"(a*)*", ["b", "aab", "aaa"]),
    (r"(a*)+", ["b", "aab", "aaa"]),
    (r"(a+)*", ["aab"]),
    (r"(a?)*", ["aa"]),
    (r"(a*?)*", ["aa"]),
    (r"(|a)*", ["aa", "aaa"]),
    (r"(|a)+", ["aa", "aaa"]),
    (r"(a|)+", ["aa", "aaa"]),
    (r"(a|)*", ["aab"]),
    (r"(a|b)*", ["abab", "abc"]),
    (r"(a|b)*?c", ["abc"]),
    (r"((a)|b)+", ["ab", "ba"]),
    (r"((a)|b)*", ["ba"]),
    (r"(?:(a)|b)*", ["ab"]),
    (r"(?:(a)|(b))+", ["ab", "abab"]),
    (r"(a{0,2})*", ["aaa"]),
    (r"(a{2}|)*", ["aaaaa"]),
    (r"(a{2})*", ["aaaaa"]),
    (r"(.)*", ["abc"]),
    (r"(a*)(a*)", ["aaa"]),
    (r"(a*?)(a*)", ["aaa"]),
    (r"(a??)(a?)", ["aa"]),
    (r"(?:a(b)?)+", ["abaab"]),
    # Alternation priority.
    (r"a|ab", ["ab"]),
    (r"ab|a", ["ab"]),
    (r"a|ab|abc", ["abc"]),
    (r"foo|foobar", ["foobar"]),
    (r"x*|y", ["yx"]),
    (r"|a", ["a"]),
    (r"a|", ["ab"]),
    (r"\b|a", ["a"]),
    (r"b|$", ["ab"]),
    (r"(a|ab)(c|bcd)(d*)", ["abcd"]),
    (r"(a+)(b+)?", ["aab aa"]),
    (r"(ab|a)(bc|c)?", ["abc"]),
    (r"a(b|c|)d", ["ad abd"]),
    (r"(?:ab)*?c|ab", ["ababc"]),
    # Groups and their names.
    (r"(a)(b)?", ["a ab"]),
    (r"(?P<n>x)", ["axb"]),
    (r"(?<n>x)", ["axb"]),
    (r"(?P<first>\w+) (?P<last>\w+)", ["Ada Lovelace"]),
    (r"(?<first>\w+)-(?<n2>\d)", ["ab-1"]),
    (r"(?P<n>a)(?<m>b)(c)", ["abc"]),
    (r"(?P<n>x)(?P<n>y)", ["xy"]),
    (r"(?<n>x)(?P<n>y)", ["xy"]),
    (r"(?P<n>x)|(?P<n>y)", ["xy", "yx"]),
    (r"(?P<n>x)(?P<m>y)(?P<n>z)", ["xyz"]),
    (r"(?P<1a>x)", ["x"]),
    (r"(?P<_a1>x)", ["x"]),
    (r"(?P<é>x)", ["x"]),
    (r"(?P<ǅ>x)", ["x"]),
    (r"(?P<ʰ>x)", ["x"]),
    (r"(?P<٣>x)", ["x"]),
    (r"(?P<Ⅻ>x)", ["x"]),
    (r"(?P<a‿b>x)", ["x"]),
    ("(?P<e\u0301>x)", ["x"]),
    (r"(?P<日本>x)", ["x"]),
    (r"(?P<a·b>x)", ["x"]),
    (r"(?P<½>x)", ["x"]),
    (r"(?P<😀>x)", ["x"]),
    (r"(?P<a-b>x)", ["x"]),
    (r"(?P<a b>x)", ["x"]),
    (r"(?P<a$>x)", ["x"]),
    (r"(?P<>x)", ["x"]),
    (r"(?<>x)", ["x"]),
    (r"(?<a-b>x)", ["x"]),
    (r"(?P<n>", ["x"]),
    (r"(?P<n", ["x"]),
    (r"(?P<n)abc", ["x"]),
    (r"(?<n", ["x"]),
    (r"(?P<", ["x"]),
    (r"(?<", ["x"]),
    (r"(?P", ["x"]),
    (r"(?P=n)", ["x"]),
    (r"(?P>n)", ["x"]),
    (r"(?'n'x)", ["x"]),
    (r"(?:a)", ["a"]),
    (r"((((a))))", ["a"]),
    (r"(a)(?:b)(c)", ["abc"]),
    (r"()", ["ab"]),
    (r"(|)", ["a"]),
    (r"(a))", ["a"]),
    (r"())", ["a"]),
    (r"((a)", ["a"]),
    (r")", ["a"]),
    (r"(", ["a"]),
    (r"(?:", ["a"]),
    # What RE2 refuses: look-around, atomic groups, backreferences, other Perl syntax.
    (r"(?=x)", ["x"]),
    (r"(?!x)", ["x"]),
    (r"(?<=x)y", ["xy"]),
    (r"(?<!x)y", ["xy"]),
    (r"(?<=", ["x"]),
    (r"(?<!", ["x"]),
    (r"(?=", ["x"]),
    (r"(?>a)", ["a"]),
    (r"(?#comment)a", ["a"]),
    (r"(?|a)", ["a"]),
    (r"(a)\1", ["aa"]),
    (r"(a)\g1", ["aa"]),
    (r"(?<n>a)\k<n>", ["aa"]),
    # NetVM log lines.
    (r"\[WO:(?P<id>[0-9a-f]{8})\] \[from (?P<sender>\w+)\] (?P<body>.+)", [WO, LOG]),
    (r"\[RESULT (?P<id>[0-9a-f]{8})\] (?P<status>OK|FAIL)\b", [RESULT, LOG]),
    (r"\[TOOL (?P<op>\w+) (?P<args>\{.*?\})\]", [TOOL, LOG]),
    (r"\[WO:([0-9a-f]+)\] \[from (\w+)\] (.*?) — (\w+)", [LOG]),
    (r"\[WO:(?P<id>[0-9a-f]{8})\] \[from (?P<who>[\w-]+)\] (?P<what>[^—]+?) — (?P<verb>\S+)", [LOG]),
    (r"\[RESULT ([0-9a-f]{8})\] (OK|FAIL)\b(.*)", [LOG]),
    (r"(?m)^\[(\w+)[: ]([0-9a-f]+)\]", [LOG]),
    (r"(?m)^\[RESULT [0-9a-f]+\] OK.*$", [LOG]),
    (r"(?m)(\w+)$", [LOG]),
    (r"(?m)$", [LOG]),
    (r"—", [LOG]),
    (r"— \w+", [LOG]),
    (r"\p{Pd}", [LOG]),
    (r"(?i)audit|vérifier", [LOG]),
    (r"\[from (super|relay-\d)\]", [LOG]),
    (r"\{\"a\": (\d+)\}", [TOOL]),
    (r"\[TOOL (\w+) ([^\]]*)\]", [TOOL]),
    (r"timeout after (\d+)s", [LOG]),
    (r"(?s)\[WO.*?done", [LOG]),
    (r"\[[^\]]*\]", [LOG]),
    (r"\b[0-9a-f]{8}\b", [LOG]),
]

# (pattern, text, replacement): the package's sub templates.
REPLACEMENTS = [
    (r"(a)(b)?", "xaby a", "[\\1]"),
    (r"(a)(b)?", "xaby a", "[\\2]"),
    (r"(a)(b)?", "xaby a", "[\\g<1>]"),
    (r"(a)(b)?", "xaby a", "[\\g<0>]"),
    (r"(a)(b)?", "xaby a", "[\\g<01>]"),
    (r"(a)(b)?", "xaby a", "[\\1\\1]"),
    (r"(a)(b)?", "xaby a", "[\\0]"),
    (r"(a)(b)?", "xaby a", "[\\01]"),
    (r"(a)(b)?", "xaby a", "[\\10]"),
    (r"(a)(b)?", "xaby a", "[\\8]"),
    (r"(a)(b)?", "xaby a", "[\\99]"),
    (r"(a)(b)?", "xaby a", "[\\100]"),
    (r"(a)(b)?", "xaby a", "[\\101]"),
    (r"(a)(b)?", "xaby a", "[\\n\\t]"),
    (r"(a)(b)?", "xaby a", "[\\x41]"),
    (r"(a)(b)?", "xaby a", "[\\u00e9]"),
    (r"(a)(b)?", "xaby a", "[\\N{DIGIT ONE}]"),
    (r"(a)(b)?", "xaby a", "[\\a\\b\\f\\v]"),
    (r"(a)(b)?", "xaby a", "[é\\1ü]"),
    (r"(a)(b)?", "xaby a", "[日\\1]"),
    (r"(a)(b)?", "xaby a", "[\\q]"),
    (r"(a)(b)?", "xaby a", "[\\e]"),
    (r"(a)(b)?", "xaby a", "[\\\\]"),
    (r"(a)(b)?", "xaby a", "[\\\\1]"),
    (r"(a)(b)?", "xaby a", "[$1|${1}|$0|$$]"),
    (r"(a)(b)?", "xaby a", "[\\g< 1>]"),
    (r"(a)(b)?", "xaby a", "[\\g<-1>]"),
    (r"(a)(b)?", "xaby a", "[\\g<>]"),
    (r"(a)(b)?", "xaby a", "[\\g<1]"),
    (r"(a)(b)?", "xaby a", "[\\g1]"),
    (r"(a)(b)?", "xaby a", "\\"),
    (r"(a)(b)?", "xaby a", "a\\"),
    (r"(a)(b)?", "xaby a", "[\\x4]"),
    (r"(?P<name>\w+)@(?P<host>\w+)", "ada@home bob@work", "\\g<name> at \\g<host>"),
    (r"(?P<name>\w+)@(?P<host>\w+)", "ada@home", "\\g<name>_x \\g<2>"),
    (r"(?P<name>\w+)@(?P<host>\w+)", "ada@home", "\\g<missing>"),
    (r"(?P<n>x)(?P<n>y)", "xy", "[\\g<n>|\\2]"),
    (r"(?P<n>x)|(?P<n>y)", "xy", "[\\g<n>]"),
    (r"(?P<é>\w+)", "ab", "<\\g<é>>"),
    (r"(\w+)", "héllo wörld", "<\\1>"),
    (r"a*", "baaa", "-"),
    (r"a*", "baaac", "<\\g<0>>"),
    (r"", "héllo", "|"),
    (r"x*", "日本", "-"),
    (r"\b", "ab cd", "|"),
    (r"\B", "héllo", "|"),
    (r"$", "ab", "-"),
    (r"(?m)^", "a\nb\n", "> "),
    (r"(?m)$", "a\nb\n", ";"),
    (r"a|", "ab", "-"),
    (r"(a)|(b)", "ab", "[\\1|\\2]"),
    (r"\C", "é", "x"),
    (r"\[WO:([0-9a-f]+)\]", LOG, "[WO:<\\1>]"),
    (r"(?P<id>[0-9a-f]{8})", LOG, "#\\g<id>#"),
    (r"\[RESULT (?P<id>[0-9a-f]{8})\] (?P<status>OK|FAIL)", LOG, "\\g<status>:\\g<id>"),
    (r"\[TOOL (\w+) (\{.*?\})\]", TOOL, "\\2 <- \\1"),
    (r"\s+", "a  b \t c", " "),
    (r"(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)(k)", "abcdefghijk", "\\11-\\10-\\g<1>1"),
]


def cases():
    return unique_cases(GROUPS, REPLACEMENTS)


def run_oracle(all_cases):
    out = subprocess.run([sys.executable, ORACLE], input=jsonl(all_cases), capture_output=True,
                         check=True)
    return answers_to(all_cases, out.stdout)


def go_answers(all_cases):
    chains = go_toolchains()
    if not chains:
        sys.exit("no Go toolchain found")
    _, version, go = chains[-1]
    work = tempfile.mkdtemp(prefix="re2_cases-")
    try:
        binary = build_go_oracle(go, work, "go_oracle")
        out = subprocess.run([binary], input=jsonl(all_cases), capture_output=True,
                             check=True).stdout
        return version, answers_to(all_cases, out)
    finally:
        shutil.rmtree(work, ignore_errors=True)


def go_text(e):
    e = e.removeprefix("error parsing regexp: ")
    return re.sub(r"`([^`]*)`$", r"\1", e)


def check(all_cases, with_go):
    answers = run_oracle(all_cases)
    errors = sum(1 for a in answers if "error" in a)
    repl_errors = sum(1 for a in answers if "replace_error" in a)
    print(f"google-re2: {len(answers)} cases answered, {errors} patterns refused, "
          f"{repl_errors} replacements raise", file=sys.stderr)
    if not with_go:
        return
    version, go = go_answers(all_cases)
    kinds = {}
    for case, a, g in zip(all_cases, answers, go):
        if "error" in a or "error" in g:
            if "error" in a and "error" in g:
                kind = "error text" if a["error"] != go_text(g["error"]) else None
            else:
                kind = "RE2 refuses, Go compiles" if "error" in a else "Go refuses, RE2 compiles"
        elif a["matches"] != g["matches"]:
            kind = "matches"
        elif a["names"] != g["names"]:
            kind = "names"
        else:
            kind = None
        if kind:
            kinds.setdefault(kind, []).append((case, a, g))
    report_differences(kinds, version, ("re2", "go "), 150)


def main():
    ap = arguments("re2_cases.jsonl")
    ap.add_argument("--check", action="store_true")
    ap.add_argument("--go", action="store_true")
    args = ap.parse_args()
    all_cases = cases()
    write_cases(args.out, all_cases)
    if args.check or args.go:
        check(all_cases, args.go)


if __name__ == "__main__":
    main()

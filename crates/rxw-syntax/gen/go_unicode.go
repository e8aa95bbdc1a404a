// Command go_unicode dumps what one Go toolchain's regexp/syntax knows about Unicode, as JSON
// on standard output. go_unicode.py runs it under each Go release; every set comes from the
// release's own parser, never from a table of ours.
//
// Two modes:
//
//	go run . -names
//		{"go", "unicode", "names": [...]}: the names the release itself lists (the keys of
//		unicode.Categories, unicode.Scripts and, from Go 1.25, unicode.CategoryAliases).
//	go run . < candidates.json
//		Input: {"names": [candidate, ...]}. Output: {"go", "unicode", "props": {name:
//		[[lo, hi], ...]} for every candidate that regexp/syntax.Parse(`\p{name}`, Perl)
//		accepts, "fold_props": the same for `(?i)\p{name}`, "refused": {name: error text},
//		"fold": [[c, unicode.SimpleFold(c)], ...] for every code point that SimpleFold moves}.
//
// The release's category aliases come from a variable categoryAliases that go_unicode.py
// defines beside this file (unicode.CategoryAliases from Go 1.25, nil before: the variable does
// not exist there). Only the standard library is used, and nothing newer than Go 1.19.
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"regexp/syntax"
	"runtime"
	"sort"
	"unicode"
)

func main() {
	names := flag.Bool("names", false, "print the release's own names and stop")
	flag.Parse()
	out := map[string]interface{}{
		"go":      runtime.Version(),
		"unicode": unicode.Version,
	}
	if *names {
		var list []string
		for n := range unicode.Categories {
			list = append(list, n)
		}
		for n := range unicode.Scripts {
			list = append(list, n)
		}
		for n := range categoryAliases {
			list = append(list, n)
		}
		sort.Strings(list)
		out["names"] = list
		emit(out)
		return
	}
	var in struct {
		Names []string `json:"names"`
	}
	if err := json.NewDecoder(os.Stdin).Decode(&in); err != nil {
		fail("reading the candidates: %v", err)
	}
	props := map[string][][2]rune{}
	foldProps := map[string][][2]rune{}
	refused := map[string]string{}
	for _, name := range in.Names {
		re, err := syntax.Parse(`\p{`+name+`}`, syntax.Perl)
		if err != nil {
			refused[name] = err.Error()
			continue
		}
		props[name] = ranges(re, name)
		re, err = syntax.Parse(`(?i)\p{`+name+`}`, syntax.Perl)
		if err != nil {
			fail("%q parses without (?i) but not with it: %v", name, err)
		}
		foldProps[name] = ranges(re, name)
	}
	var fold [][2]rune
	for c := rune(0); c <= unicode.MaxRune; c++ {
		if f := unicode.SimpleFold(c); f != c {
			fold = append(fold, [2]rune{c, f})
		}
	}
	out["props"] = props
	out["fold_props"] = foldProps
	out["refused"] = refused
	out["fold"] = fold
	emit(out)
}

// ranges gives the code points a parsed one-class regexp matches, as sorted inclusive ranges.
// The parser turns some classes into other operators: a class of one code point into a
// literal, a case pair ([Aa]) into a literal with FoldCase, everything into OpAnyChar.
func ranges(re *syntax.Regexp, name string) [][2]rune {
	var out [][2]rune
	switch re.Op {
	case syntax.OpCharClass:
		for i := 0; i+1 < len(re.Rune); i += 2 {
			out = append(out, [2]rune{re.Rune[i], re.Rune[i+1]})
		}
	case syntax.OpAnyChar:
		out = [][2]rune{{0, unicode.MaxRune}}
	case syntax.OpAnyCharNotNL:
		out = [][2]rune{{0, '\n' - 1}, {'\n' + 1, unicode.MaxRune}}
	case syntax.OpNoMatch:
		out = [][2]rune{}
	case syntax.OpLiteral:
		if len(re.Rune) != 1 {
			fail("%q: a literal of %d runes", name, len(re.Rune))
		}
		r := re.Rune[0]
		members := []rune{r}
		if re.Flags&syntax.FoldCase != 0 {
			for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
				members = append(members, f)
			}
		}
		sort.Slice(members, func(i, j int) bool { return members[i] < members[j] })
		for _, m := range members {
			if n := len(out); n > 0 && out[n-1][1]+1 == m {
				out[n-1][1] = m
			} else {
				out = append(out, [2]rune{m, m})
			}
		}
	default:
		fail("%q parses to %v, not a class", name, re.Op)
	}
	return out
}

func emit(v interface{}) {
	enc := json.NewEncoder(os.Stdout)
	if err := enc.Encode(v); err != nil {
		fail("writing: %v", err)
	}
}

func fail(format string, args ...interface{}) {
	fmt.Fprintf(os.Stderr, "go_unicode: "+format+"\n", args...)
	os.Exit(1)
}

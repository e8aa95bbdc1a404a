// Runs exported LogQL `| regexp` stages on Go's regexp package, the engine Loki's regexp
// parser compiles its pattern with: the first hit of each line, one label per named group
// that captured a non-empty value (an empty label is no label), as Loki sets them.
//
// Input on standard input, one record a line, fields tab-separated and escaped (\\ \t \n \r):
//
//	P <key> <pattern>   (one line per stage)
//	R <text>            (one line per log line)
//
// Output: one JSON object a line: {"key", "line_no", "match", "labels"} per hit, or
// {"key", "error"} for a pattern Go's regexp rejects or a stage Loki would refuse (no
// named group).
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"strings"
)

func unescape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '\\' && i+1 < len(s) {
			i++
			switch s[i] {
			case 't':
				b.WriteByte('\t')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			default:
				b.WriteByte(s[i])
			}
		} else {
			b.WriteByte(c)
		}
	}
	return b.String()
}

type hit struct {
	Key    string            `json:"key"`
	LineNo int               `json:"line_no"`
	Match  string            `json:"match"`
	Labels map[string]string `json:"labels"`
}

type rejected struct {
	Key   string `json:"key"`
	Error string `json:"error"`
}

func main() {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 1<<20), 1<<30)
	var keys, patterns, rows []string
	for in.Scan() {
		f := strings.Split(in.Text(), "\t")
		switch {
		case f[0] == "P" && len(f) >= 3:
			keys = append(keys, unescape(f[1]))
			patterns = append(patterns, unescape(f[2]))
		case f[0] == "R" && len(f) >= 2:
			rows = append(rows, unescape(f[1]))
		}
	}
	if err := in.Err(); err != nil {
		fmt.Fprintln(os.Stderr, "standard input:", err)
		os.Exit(2)
	}
	out := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(out)
	enc.SetEscapeHTML(false)
	for k, pattern := range patterns {
		re, err := regexp.Compile(pattern)
		if err != nil {
			enc.Encode(rejected{keys[k], err.Error()})
			continue
		}
		named := 0
		for _, n := range re.SubexpNames() {
			if n != "" {
				named++
			}
		}
		if named == 0 {
			enc.Encode(rejected{keys[k], "at least one named capture must be supplied"})
			continue
		}
		for i, row := range rows {
			m := re.FindStringSubmatchIndex(row)
			if m == nil {
				continue
			}
			labels := map[string]string{}
			for g, name := range re.SubexpNames() {
				if name == "" || m[2*g] < 0 || m[2*g] == m[2*g+1] {
					continue
				}
				labels[name] = row[m[2*g]:m[2*g+1]]
			}
			enc.Encode(hit{keys[k], i + 1, row[m[0]:m[1]], labels})
		}
	}
	out.Flush()
}

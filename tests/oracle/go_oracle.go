// Differential oracle: runs cases through Go's regexp and prints results as JSON lines.
// Input (stdin): one JSON object a line, {"pattern", "text", "replace" (optional)}.
// Output: one line for each, in order: {"error": err.Error()} when regexp.Compile fails, else
// {"names": re.SubexpNames(), "matches": re.FindAllStringSubmatchIndex(text, -1),
// "replaced": re.ReplaceAllString(text, replace) (only when replace is given)}; offsets are
// UTF-8 byte offsets, -1 for a group that did not take part. Each line is flushed as it is
// written, so a caller may keep the oracle running and ask one case at a time; a blank line is
// skipped and gets no answer.
//
// Built once for each Go release by rxw_testkit::go_oracle; only the standard library, and
// nothing newer than Go 1.19.
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"regexp"
)

type input struct {
	Pattern *string `json:"pattern"`
	Text    *string `json:"text"`
	Replace *string `json:"replace"`
}

func run(in input) interface{} {
	re, err := regexp.Compile(*in.Pattern)
	if err != nil {
		return map[string]interface{}{"error": err.Error()}
	}
	matches := re.FindAllStringSubmatchIndex(*in.Text, -1)
	if matches == nil {
		matches = [][]int{}
	}
	out := map[string]interface{}{
		"names":   re.SubexpNames(),
		"matches": matches,
	}
	if in.Replace != nil {
		out["replaced"] = re.ReplaceAllString(*in.Text, *in.Replace)
	}
	return out
}

func main() {
	r := bufio.NewReaderSize(os.Stdin, 1<<16)
	w := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for n := 1; ; n++ {
		line, err := r.ReadBytes('\n')
		if len(line) > 0 && !blank(line) {
			var in input
			if jerr := json.Unmarshal(line, &in); jerr != nil || in.Pattern == nil || in.Text == nil {
				fmt.Fprintf(os.Stderr, "go_oracle: line %d: want {\"pattern\", \"text\"}: %v\n", n, jerr)
				os.Exit(2)
			}
			if eerr := enc.Encode(run(in)); eerr != nil {
				fmt.Fprintf(os.Stderr, "go_oracle: %v\n", eerr)
				os.Exit(1)
			}
			if ferr := w.Flush(); ferr != nil {
				os.Exit(1)
			}
		}
		if err == io.EOF {
			return
		}
		if err != nil {
			fmt.Fprintf(os.Stderr, "go_oracle: %v\n", err)
			os.Exit(1)
		}
	}
}

func blank(line []byte) bool {
	for _, b := range line {
		if b != ' ' && b != '\t' && b != '\r' && b != '\n' {
			return false
		}
	}
	return true
}

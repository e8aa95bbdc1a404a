// Dumps what one node binary's RegExp knows about Unicode, as JSON on stdout. Run by
// js_unicode.py once per node version; every set comes from node's own answers.
//
// Input (the file named by the first argument): {"props": {"<canonical>": ["<spelling>", ...]},
// "strings": {"<property of strings>": ["<candidate string>", ...]}}.
// Output: {"node", "unicode", "accepted": [spellings node accepts under u], "props":
// {"<canonical>": [[lo, hi], ...]}, "strings": {"<name>": [members]} (node 20 and later),
// "folds": [[cp, ...], ...] (classes of code points equal under /iu), "upper": [[cp, canon],
// ...] (Canonicalize without u where it moves a code point)}.
"use strict";
const fs = require("fs");
const input = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));

// Every code point but the surrogates, in order: U+0000–U+D7FF, U+E000–U+FFFF, then the
// astral planes (two code units each). Surrogates are tested one by one.
const parts = [];
for (let cp = 0; cp < 0xd800; cp++) parts.push(String.fromCharCode(cp));
for (let cp = 0xe000; cp <= 0xffff; cp++) parts.push(String.fromCharCode(cp));
for (let cp = 0x10000; cp <= 0x10ffff; cp++) parts.push(String.fromCodePoint(cp));
const all = parts.join("");
function cpAt(index) {
  if (index < 0xd800) return index;
  if (index < 0xf800) return index + 0x800;
  return 0x10000 + (index - 0xf800) / 2;
}

// The ranges of code points a `\p{…}` matches.
function ranges(spelling) {
  const runs = new RegExp(`\\p{${spelling}}+`, "gu");
  const lone = new RegExp(`^\\p{${spelling}}$`, "u");
  const out = [];
  const push = (lo, hi) => {
    const last = out[out.length - 1];
    if (last && last[1] + 1 >= lo) last[1] = Math.max(last[1], hi);
    else out.push([lo, hi]);
  };
  const found = [];
  for (const m of all.matchAll(runs)) {
    // The run's last code point starts one unit before its end in the BMP part, two in the
    // astral part.
    const end = m.index + m[0].length;
    const last = end - 1 >= 0xf800 ? end - 2 : end - 1;
    found.push([cpAt(m.index), cpAt(last)]);
  }
  const surrogates = [];
  for (let cp = 0xd800; cp <= 0xdfff; cp++) {
    if (lone.test(String.fromCharCode(cp))) surrogates.push([cp, cp]);
  }
  for (const [lo, hi] of [...found, ...surrogates].sort((a, b) => a[0] - b[0])) push(lo, hi);
  return out;
}

const accepted = [];
const props = {};
for (const [canonical, spellings] of Object.entries(input.props)) {
  let first = null;
  for (const s of spellings) {
    try {
      new RegExp(`\\p{${s}}`, "u");
      accepted.push(s);
      if (first === null) first = s;
    } catch (e) {
      // Not a property this node knows.
    }
  }
  if (first !== null) props[canonical] = ranges(first);
}

let strings = null;
try {
  new RegExp("[\\q{a}]", "v");
  strings = {};
} catch (e) {
  // No v flag (node 18).
}
if (strings) {
  for (const [name, candidates] of Object.entries(input.strings)) {
    let re;
    try {
      re = new RegExp(`^\\p{${name}}$`, "v");
    } catch (e) {
      continue;
    }
    accepted.push(name);
    strings[name] = [...new Set(candidates)].filter((s) => re.test(s)).sort();
  }
}

// Case classes under /iu: every code point that changes under some case mapping, or that
// another one maps to, tested against all of them at once.
const cased = [];
const casedRe = /[\p{CWCF}\p{CWCM}\p{Cased}]/u;
for (let cp = 0; cp <= 0x10ffff; cp++) {
  if (cp >= 0xd800 && cp <= 0xdfff) continue;
  if (casedRe.test(String.fromCodePoint(cp))) cased.push(cp);
}
const casedText = cased.map((cp) => String.fromCodePoint(cp)).join("\n");
const seen = new Set();
const folds = [];
for (const cp of cased) {
  if (seen.has(cp)) continue;
  const hex = cp.toString(16);
  const re = new RegExp(`^\\u{${hex}}$`, "gimu");
  const members = [...casedText.matchAll(re)].map((m) => m[0].codePointAt(0));
  for (const m of members) seen.add(m);
  if (members.length > 1) folds.push(members.sort((a, b) => a - b));
}

// Canonicalize without u (ES2015+ 22.2.2.7.3): toUpperCase when that is one code unit and
// does not bring a non-ASCII character into ASCII.
const upper = [];
for (let cp = 0; cp <= 0xffff; cp++) {
  const ch = String.fromCharCode(cp);
  const u = ch.toUpperCase();
  if (u.length !== 1) continue;
  const canon = u.charCodeAt(0);
  if (cp >= 128 && canon < 128) continue;
  if (canon !== cp) upper.push([cp, canon]);
}

process.stdout.write(
  JSON.stringify({
    node: process.version,
    unicode: process.versions.unicode,
    accepted,
    props,
    strings,
    folds,
    upper,
  }),
);

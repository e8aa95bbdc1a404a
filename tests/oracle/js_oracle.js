// Differential oracle: runs cases through node's RegExp and prints results as JSON.
// Input (stdin): a JSON list of {pattern, flags, input, replacement}.
// Output: a JSON list of {error} or {matches: [[[start,end]|null,...],...], replaced};
// offsets are UTF-8 byte offsets (converted from UTF-16 indices). Beside them, as node counts:
// units (the same spans in UTF-16 indices, exact where a match cuts a surrogate pair, which
// byte offsets cannot say), groups (each match's indices.groups, or null) and replaced_units
// (the replacement's result as UTF-16 code units, lone surrogates included).
const fs = require("fs");
const cases = JSON.parse(fs.readFileSync(0, "utf8"));

function byteOffsets(text) {
  // UTF-16 index -> UTF-8 byte offset (a lone surrogate half maps to -1).
  const out = new Array(text.length + 1).fill(-1);
  let b = 0;
  for (let i = 0; i < text.length; ) {
    out[i] = b;
    const cp = text.codePointAt(i);
    const units = cp > 0xffff ? 2 : 1;
    b += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
    i += units;
  }
  out[text.length] = b;
  return out;
}

function run(c) {
  const flags = c.flags.replace("x", "");
  let rx;
  try {
    rx = new RegExp(c.pattern, flags.includes("g") ? flags : flags + "g");
  } catch (e) {
    return { error: String(e.message) };
  }
  const text = c.input;
  const off = byteOffsets(text);
  // Group spans: JS gives texts only (without the d flag); use the d flag for spans.
  let rxd;
  try {
    rxd = new RegExp(c.pattern, (flags.includes("g") ? flags : flags + "g") + (flags.includes("d") ? "" : "d"));
  } catch (e) {
    rxd = null;
  }
  if (rxd) {
    const out = [];
    const units = [];
    const groups = [];
    let md;
    while ((md = rxd.exec(text)) !== null) {
      out.push(md.indices.map((p) => (p === undefined ? null : [off[p[0]], off[p[1]]])));
      units.push(md.indices.map((p) => (p === undefined ? null : [p[0], p[1]])));
      groups.push(md.indices.groups === undefined ? null : md.indices.groups);
      if (md[0].length === 0) {
        const unicode = flags.includes("u") || flags.includes("v");
        if (unicode && rxd.lastIndex < text.length) {
          const cp = text.codePointAt(rxd.lastIndex);
          rxd.lastIndex += cp > 0xffff ? 2 : 1;
        } else rxd.lastIndex += 1;
      }
      if (rxd.lastIndex > text.length) break;
    }
    const res = { matches: out, units, groups };
    if (c.replacement !== null && c.replacement !== undefined) {
      const r = text.replace(new RegExp(c.pattern, flags.includes("g") ? flags : flags + "g"), c.replacement);
      // A result with a split surrogate pair cannot be UTF-8; report it as such (node 18 has
      // no isWellFormed: a lone surrogate is looked for).
      const wellFormed = typeof r.isWellFormed === "function" ? r.isWellFormed() : !/[\uD800-\uDFFF]/.test(r.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]/g, ""));
      res.replaced = wellFormed ? r : { error: "lone surrogate in result" };
      res.replaced_units = Array.from({ length: r.length }, (_, i) => r.charCodeAt(i));
    }
    return res;
  }
  return { error: "cannot compile with the d flag" };
}

process.stdout.write(JSON.stringify(cases.map(run)));

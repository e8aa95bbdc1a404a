//! The static half of the ReDoS check: where in the tree a backtracking matcher can pay more
//! than once for the same text, and which strings make it pay.
//!
//! Every unbounded quantifier is a suspect; its shape says how bad it can be:
//! - **nested**: the quantified body holds another unbounded quantifier, or can match empty
//!   (`(a+)+`, `(\w*)*`): the text can be split between the two loops in exponentially many
//!   ways;
//! - **alternation**: the body is an alternation (`(a|a)*`, `(a|ab)*`): overlapping branches
//!   give each pumped piece more than one parse;
//! - **adjacent**: another unbounded quantifier sits next to it with only optional items
//!   between (`\d+\d+`, `a*a*a*`): a run of common characters is split between them in
//!   polynomially many ways;
//! - **retry**: none of the above; the search retries the quantifier from every start position
//!   in a run it matches (`\s+$`), which costs quadratic time when the match fails at the end.
//!
//! For each suspect the analysis derives the text that leads to it (prefix, from examples of
//! everything before it) and the strings to pump (examples of its body, of the nested loop, of
//! each branch). It proves nothing: every candidate is run on the matcher, and only measured
//! growth makes a verdict.

use crate::Regex;
use rxw_syntax::Span;
use rxw_syntax::ast::{Greed, GroupKind, Node, NodeKind};
use std::collections::HashMap;

/// How a suspect can make the matcher backtrack.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) enum SuspectKind {
    /// A quantifier over a body holding another unbounded quantifier (or matching empty).
    Nested,
    /// A quantifier over an alternation.
    Alternation,
    /// Unbounded quantifiers one after another, with only optional items between.
    Adjacent,
    /// A lone quantifier, retried from every start position of a run it matches.
    Retry,
}

impl SuspectKind {
    /// What the shape is, in words.
    pub(crate) fn describe(self) -> &'static str {
        match self {
            SuspectKind::Nested => "a quantifier nested in a quantifier over the same text",
            SuspectKind::Alternation => "a quantified alternation whose branches overlap",
            SuspectKind::Adjacent => "adjacent quantifiers that match the same characters",
            SuspectKind::Retry => {
                "a quantifier retried from every start position of the run it matches"
            }
        }
    }
}

/// One place that may backtrack, with the strings that may make it.
#[derive(Debug, Clone)]
pub(crate) struct Suspect {
    /// The shape.
    pub kind: SuspectKind,
    /// The quantified node (the culprit).
    pub span: Span,
    /// Text that leads the matcher from the pattern's start to the quantifier.
    pub prefix: String,
    /// Strings to repeat, most promising first, without duplicates.
    pub pumps: Vec<String>,
    /// Strings to repeat with no prefix: each holds the text that leads to the quantifier, so
    /// every repetition is a new start for the search to retry (`username=(.*)&` pumped with
    /// `username=`).
    pub restarts: Vec<String>,
    /// Text that completes a match after the quantifier: with the prefix and some pumps, an
    /// example of the whole pattern that goes through the culprit.
    pub rest: String,
}

/// Quantifiers with a larger maximum than this count as unbounded.
const UNBOUNDED_FROM: u32 = 16;
/// Trees deeper than this are examined only down to it (examples stop there too).
const MAX_DEPTH: usize = 256;
/// Characters kept per class: enough to find where two classes overlap.
const SAMPLES: usize = 6;
/// Most pumps a suspect keeps (the screening tries each with every suffix).
const MAX_PUMPS: usize = 10;
/// Characters tried against a class to find members, after the pattern's own literals.
const ALPHABET: &[char] = &[
    'a', '0', ' ', 'A', '_', '-', '.', '!', '@', '/', ':', 'x', '\t', '\n', '"', '\'', '<', '=',
    '#', ',', ';', 'z', '9', 'Z', '+', '(', ')', '[', ']', '{', '}', '\\', '*', '?', '&', '%', '$',
    '~', '|', '^', '\r', 'é', 'ß', '\u{a0}', '\u{0}', '\u{7f}', '中', '😀',
];

fn unbounded(max: Option<u32>) -> bool {
    max.is_none_or(|m| m > UNBOUNDED_FROM)
}

/// A node with its place in the tree.
struct Slot<'a> {
    node: &'a Node,
    parent: Option<usize>,
    /// Index among the parent's children.
    index: usize,
    depth: usize,
}

/// Every node of the tree with its parent, without recursion.
fn index(root: &Node) -> Vec<Slot<'_>> {
    let mut out = vec![Slot {
        node: root,
        parent: None,
        index: 0,
        depth: 0,
    }];
    let mut i = 0;
    while i < out.len() {
        let (node, depth) = (out[i].node, out[i].depth);
        if depth < MAX_DEPTH {
            for (k, c) in node.children().into_iter().enumerate() {
                out.push(Slot {
                    node: c,
                    parent: Some(i),
                    index: k,
                    depth: depth + 1,
                });
            }
        }
        i += 1;
    }
    out
}

/// How much of an optional part an example takes.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Take {
    /// As little as the pattern allows.
    Least,
    /// Every optional part once.
    Once,
}

/// Finds characters a piece of the pattern matches, by running the piece itself.
pub(crate) struct Sampler<'r> {
    re: &'r Regex,
    cache: HashMap<Span, Vec<char>>,
    verdicts: HashMap<(String, String), bool>,
    groups: HashMap<u32, &'r Node>,
    /// Characters of the pattern's own literals, tried before the fixed alphabet.
    own: Vec<char>,
}

impl<'r> Sampler<'r> {
    pub(crate) fn new(re: &'r Regex) -> Sampler<'r> {
        let mut groups = HashMap::new();
        let mut own = Vec::new();
        re.ast().root.walk(|n, _| match &n.kind {
            NodeKind::Group {
                kind: GroupKind::Capture { index, .. },
                ..
            } => {
                groups.insert(*index, n);
            }
            NodeKind::Literal { ch, .. } if !own.contains(ch) && own.len() < 32 => own.push(*ch),
            _ => {}
        });
        Sampler {
            re,
            cache: HashMap::new(),
            verdicts: HashMap::new(),
            groups,
            own,
        }
    }

    /// Up to [`SAMPLES`] characters the one-character node matches (empty when none was found).
    fn chars(&mut self, node: &Node) -> Vec<char> {
        match &node.kind {
            NodeKind::Literal { ch, .. } => return vec![*ch],
            NodeKind::Dot { dotall } => {
                let mut v = vec!['a', '0', ' '];
                if *dotall {
                    v.push('\n');
                }
                return v;
            }
            _ => {}
        }
        if let Some(v) = self.cache.get(&node.span) {
            return v.clone();
        }
        let source = &self.re.pattern()[node.span.start..node.span.end];
        let mut found = Vec::new();
        // A class's own characters first: they are where two classes overlap.
        let mut own_items = Vec::new();
        if let NodeKind::Class(class) = &node.kind
            && !class.negated
        {
            for item in &class.items {
                match item {
                    rxw_syntax::ast::ClassItem::Char(c, _) => own_items.push(*c),
                    rxw_syntax::ast::ClassItem::Range(a, b, _) => {
                        own_items.push(*a);
                        own_items.push(*b);
                    }
                    _ => {}
                }
            }
        }
        if let Ok(piece) = Regex::new(
            &format!("^(?:{source})$"),
            self.re.flavor(),
            self.re.flags(),
        )
        .or_else(|_| Regex::new(source, self.re.flavor(), self.re.flags()))
        {
            let mut buf = [0u8; 4];
            for &c in own_items.iter().chain(&self.own).chain(ALPHABET) {
                if found.len() >= SAMPLES {
                    break;
                }
                if !found.contains(&c) && piece.is_match(c.encode_utf8(&mut buf)).unwrap_or(false) {
                    found.push(c);
                }
            }
            if found.is_empty()
                && let NodeKind::Class(class) = &node.kind
                && !class.negated
            {
                for item in &class.items {
                    if let rxw_syntax::ast::ClassItem::Char(c, _)
                    | rxw_syntax::ast::ClassItem::Range(c, _, _) = item
                        && piece.is_match(c.encode_utf8(&mut buf)).unwrap_or(false)
                    {
                        found.push(*c);
                        break;
                    }
                }
            }
        }
        self.cache.insert(node.span, found.clone());
        found
    }

    /// Whether the node, run on its own, matches `text` whole (`whole`) or a prefix of it;
    /// `true` when the node cannot run on its own (a backreference, say), so the shape stays
    /// suspect and the measurement decides.
    fn accepts(&mut self, node: &Node, text: &str, whole: bool) -> bool {
        let source = &self.re.pattern()[node.span.start..node.span.end];
        let wrapped = if whole {
            format!("^(?:{source})$")
        } else {
            format!("^(?:{source})")
        };
        let key = (wrapped.clone(), text.to_string());
        if let Some(&v) = self.verdicts.get(&key) {
            return v;
        }
        let v = match Regex::new(&wrapped, self.re.flavor(), self.re.flags()) {
            Ok(piece) => piece.is_match(text).unwrap_or(true),
            Err(_) => true,
        };
        self.verdicts.insert(key, v);
        v
    }

    /// A string the node matches: `variant` picks among each class's members.
    fn example(&mut self, node: &Node, take: Take, variant: usize) -> String {
        let mut out = String::new();
        self.example_into(node, take, variant, 0, &mut Vec::new(), &mut out);
        out
    }

    fn example_into(
        &mut self,
        node: &Node,
        take: Take,
        variant: usize,
        depth: usize,
        open: &mut Vec<u32>,
        out: &mut String,
    ) {
        if depth > MAX_DEPTH {
            return;
        }
        match &node.kind {
            NodeKind::Empty
            | NodeKind::Anchor { .. }
            | NodeKind::SetFlags(_)
            | NodeKind::Comment
            | NodeKind::Whitespace => {}
            NodeKind::Literal { .. }
            | NodeKind::Dot { .. }
            | NodeKind::Perl { .. }
            | NodeKind::Property { .. }
            | NodeKind::Class(_) => {
                let cs = self.chars(node);
                if let Some(c) = cs.get(variant % cs.len().max(1)) {
                    out.push(*c);
                }
            }
            NodeKind::Group { kind, child } => match kind {
                GroupKind::Lookahead
                | GroupKind::NegativeLookahead
                | GroupKind::Lookbehind
                | GroupKind::NegativeLookbehind => {}
                GroupKind::Capture { index, .. } => {
                    open.push(*index);
                    self.example_into(child, take, variant, depth + 1, open, out);
                    open.pop();
                }
                _ => self.example_into(child, take, variant, depth + 1, open, out),
            },
            NodeKind::Repeat { min, child, .. } => {
                let times = match take {
                    Take::Least => *min,
                    Take::Once => (*min).max(1),
                }
                .min(64);
                for _ in 0..times {
                    self.example_into(child, take, variant, depth + 1, open, out);
                }
            }
            NodeKind::Concat(items) => {
                for item in items {
                    self.example_into(item, take, variant, depth + 1, open, out);
                }
            }
            NodeKind::Alternation(branches) => {
                // The first branch that gives something (Once), or the first (Least).
                let mut best = String::new();
                for b in branches {
                    let mut s = String::new();
                    self.example_into(b, take, variant, depth + 1, open, &mut s);
                    if take == Take::Least || !s.is_empty() {
                        best = s;
                        break;
                    }
                }
                out.push_str(&best);
            }
            NodeKind::Backref { index, .. } => {
                // The group's own example: what the reference will have to repeat. A
                // reference inside its own group refers to an earlier iteration: nothing yet.
                if !open.contains(index)
                    && let Some(g) = self.groups.get(index).copied()
                {
                    open.push(*index);
                    self.example_into(g, take, variant, depth + 1, open, out);
                    open.pop();
                }
            }
        }
    }

    /// A short text that holds `opener` and that the loop `node` matches whole (the opener
    /// itself, or with one of the pattern's own characters or a common one before or after
    /// it), if any.
    fn opener_inside(&mut self, node: &Node, opener: &str) -> Option<String> {
        let around: Vec<char> = self.own.iter().copied().chain(['\\', 'a', ' ']).collect();
        let mut tries = vec![opener.to_string()];
        for c in around {
            tries.push(format!("{c}{opener}"));
            tries.push(format!("{opener}{c}"));
        }
        tries.into_iter().find(|t| self.accepts(node, t, true))
    }

    /// The least non-empty example (every optional part once when the least is empty).
    fn pump(&mut self, node: &Node, variant: usize) -> String {
        let least = self.example(node, Take::Least, variant);
        if least.is_empty() {
            self.example(node, Take::Once, variant)
        } else {
            least
        }
    }
}

/// The node under groups that only capture or group (not look-around, not atomic).
fn unwrap_groups(mut node: &Node) -> &Node {
    while let NodeKind::Group {
        kind: GroupKind::Capture { .. } | GroupKind::NonCapture | GroupKind::Flags(_),
        child,
    } = &node.kind
    {
        node = child;
    }
    node
}

/// The unbounded, backtracking quantifiers inside `node` (itself excluded), outside
/// look-around and atomic groups.
fn inner_loops(node: &Node) -> Vec<&Node> {
    let mut out = Vec::new();
    let mut stack: Vec<(&Node, usize)> = node.children().into_iter().map(|c| (c, 0)).collect();
    while let Some((n, depth)) = stack.pop() {
        if depth > MAX_DEPTH {
            continue;
        }
        match &n.kind {
            NodeKind::Group {
                kind:
                    GroupKind::Atomic
                    | GroupKind::Lookahead
                    | GroupKind::NegativeLookahead
                    | GroupKind::Lookbehind
                    | GroupKind::NegativeLookbehind,
                ..
            } => continue,
            NodeKind::Repeat { max, greed, .. }
                if unbounded(*max) && *greed != Greed::Possessive =>
            {
                out.push(n)
            }
            _ => {}
        }
        stack.extend(n.children().into_iter().map(|c| (c, depth + 1)));
    }
    out.reverse();
    out
}

/// True when the node sits in an atomic group or a possessive quantifier: the matcher never
/// goes back into it.
fn sealed(slots: &[Slot<'_>], mut i: usize) -> bool {
    while let Some(p) = slots[i].parent {
        match &slots[p].node.kind {
            NodeKind::Group {
                kind: GroupKind::Atomic,
                ..
            } => return true,
            NodeKind::Repeat {
                greed: Greed::Possessive,
                ..
            } => return true,
            _ => {}
        }
        i = p;
    }
    false
}

/// The first (`forward`) or last item a node starts or ends with, through plain groups and
/// sequences.
fn edge(mut node: &Node, forward: bool) -> &Node {
    for _ in 0..MAX_DEPTH {
        node = unwrap_groups(node);
        match &node.kind {
            NodeKind::Concat(items) if !items.is_empty() => {
                node = if forward {
                    &items[0]
                } else {
                    &items[items.len() - 1]
                };
            }
            _ => break,
        }
    }
    node
}

/// The unbounded quantifier next to slot `i` in its sequence, across optional items, if any.
fn neighbour_loop<'a>(slots: &[Slot<'a>], i: usize) -> Option<&'a Node> {
    // Climb through plain groups to the sequence that holds the quantifier.
    let mut at = i;
    loop {
        let p = slots[at].parent?;
        match &slots[p].node.kind {
            NodeKind::Concat(items) => {
                let k = slots[at].index;
                let look = |range: &mut dyn Iterator<Item = &'a Node>, forward: bool| {
                    for n in range {
                        let inner = edge(n, forward);
                        match &inner.kind {
                            NodeKind::Repeat { max, greed, .. }
                                if unbounded(*max) && *greed != Greed::Possessive =>
                            {
                                return Some(inner);
                            }
                            _ if n.nullable() => continue,
                            _ => return None,
                        }
                    }
                    None
                };
                return look(&mut items[k + 1..].iter(), true)
                    .or_else(|| look(&mut items[..k].iter().rev(), false));
            }
            NodeKind::Group {
                kind: GroupKind::Capture { .. } | GroupKind::NonCapture | GroupKind::Flags(_),
                ..
            } => at = p,
            _ => return None,
        }
    }
}

/// Whether a multi-line `^` (a line start, not the text's) comes before slot `i` in its
/// enclosing sequences.
fn line_anchored_before(slots: &[Slot<'_>], i: usize) -> bool {
    let mut at = i;
    while let Some(p) = slots[at].parent {
        if let NodeKind::Concat(items) = &slots[p].node.kind {
            for n in &items[..slots[at].index] {
                let mut found = false;
                n.walk(|m, _| {
                    found |= matches!(
                        m.kind,
                        NodeKind::Anchor {
                            kind: rxw_syntax::ast::AnchorKind::LineStart,
                            multiline: true
                        }
                    );
                });
                if found {
                    return true;
                }
            }
        }
        at = p;
    }
    false
}

/// Text that completes a match after slot `i`: examples of everything after it in every
/// enclosing sequence, innermost first.
fn rest_of(sampler: &mut Sampler<'_>, slots: &[Slot<'_>], i: usize) -> String {
    let mut out = String::new();
    let mut at = i;
    while let Some(p) = slots[at].parent {
        if let NodeKind::Concat(items) = &slots[p].node.kind {
            for n in &items[slots[at].index + 1..] {
                out.push_str(&sampler.example(n, Take::Least, 0));
            }
        }
        at = p;
    }
    out
}

/// A string two loop bodies share, if any: an example of one (among its classes' sampled
/// characters) that the other matches whole.
fn overlapping(sampler: &mut Sampler<'_>, a: &Node, b: &Node) -> Option<String> {
    (0..SAMPLES).find_map(|v| {
        let pa = sampler.pump(a, v);
        let pb = sampler.pump(b, v);
        if sampler.accepts(b, &pa, true) {
            Some(pa)
        } else if sampler.accepts(a, &pb, true) {
            Some(pb)
        } else {
            None
        }
    })
}

/// Whether two branches of an alternation can start the same way: one branch's example is
/// matched by another branch, whole or at its start.
fn overlapping_branches(sampler: &mut Sampler<'_>, branches: &[Node]) -> bool {
    let examples: Vec<String> = branches.iter().map(|b| sampler.pump(b, 0)).collect();
    for (i, e) in examples.iter().enumerate() {
        for (j, b) in branches.iter().enumerate() {
            if i != j
                && (sampler.accepts(b, e, false)
                    || sampler.accepts(&branches[i], &examples[j], false))
            {
                return true;
            }
        }
    }
    false
}

/// Text that leads from the pattern's start to slot `i`: examples of everything before it in
/// every enclosing sequence.
fn prefix_of(sampler: &mut Sampler<'_>, slots: &[Slot<'_>], i: usize) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut at = i;
    while let Some(p) = slots[at].parent {
        if let NodeKind::Concat(items) = &slots[p].node.kind {
            let mut s = String::new();
            for n in &items[..slots[at].index] {
                s.push_str(&sampler.example(n, Take::Least, 0));
            }
            parts.push(s);
        }
        at = p;
    }
    parts.reverse();
    parts.concat()
}

/// A few strings the whole pattern matches (least, and every optional part once), to compare
/// a rewrite's matches with the original's.
pub(crate) fn examples(re: &Regex) -> Vec<String> {
    let mut sampler = Sampler::new(re);
    let root = &re.ast().root;
    vec![
        sampler.example(root, Take::Least, 0),
        sampler.example(root, Take::Once, 0),
        sampler.example(root, Take::Once, 1),
    ]
}

/// Every suspect of the pattern, the most dangerous shapes first.
pub(crate) fn suspects(re: &Regex) -> Vec<Suspect> {
    let mut sampler = Sampler::new(re);
    let slots = index(&re.ast().root);
    // CPython's parser makes an alternation of single characters one set: no branch to
    // backtrack into (`(\w|_)+` is one loop over one class).
    let sre = re.flavor().rules().rewrites == rxw_syntax::rules::Rewrites::Sre;
    let mut out = Vec::new();
    for (i, slot) in slots.iter().enumerate() {
        let NodeKind::Repeat {
            max, greed, child, ..
        } = &slot.node.kind
        else {
            continue;
        };
        if !unbounded(*max) || *greed == Greed::Possessive || sealed(&slots, i) {
            continue;
        }
        let body = unwrap_groups(child);
        let inner = inner_loops(child);
        let mut pumps: Vec<String> = Vec::new();
        // Only the first MAX_PUMPS distinct pumps are kept (below), so none is collected past
        // them: a wide alternation (`(w0|…|w999)+`) would otherwise pair every branch with
        // every other, a million candidates each checked against all before it.
        let mut add = |s: String| {
            if pumps.len() < MAX_PUMPS && !s.is_empty() && !pumps.contains(&s) {
                pumps.push(s);
            }
        };
        let kind = if !inner.is_empty() || child.nullable() {
            for r in &inner {
                if let NodeKind::Repeat { child: rc, .. } = &r.kind {
                    add(sampler.pump(rc, 0));
                }
            }
            SuspectKind::Nested
        } else if let NodeKind::Alternation(branches) = &body.kind
            && !(sre && crate::vm::sre_makes_one_set(branches))
            && overlapping_branches(&mut sampler, branches)
        {
            let firsts: Vec<String> = branches.iter().map(|b| sampler.pump(b, 0)).collect();
            for f in &firsts {
                add(f.clone());
            }
            // Pairs in the order of their first appearance, among the distinct first pumps
            // alone (no more of them can be kept).
            let mut distinct: Vec<&String> = Vec::new();
            for f in &firsts {
                if distinct.len() < MAX_PUMPS && !distinct.contains(&f) {
                    distinct.push(f);
                }
            }
            for a in &distinct {
                for b in &distinct {
                    if a != b {
                        add(format!("{a}{b}"));
                    }
                }
            }
            SuspectKind::Alternation
        } else if let Some(next) = neighbour_loop(&slots, i)
            && let NodeKind::Repeat { child: nc, .. } = &next.kind
            && let Some(shared) = overlapping(&mut sampler, child, nc)
        {
            add(shared);
            add(sampler.pump(nc, 0));
            SuspectKind::Adjacent
        } else {
            SuspectKind::Retry
        };
        add(sampler.pump(child, 0));
        add(sampler.pump(child, 1));
        add(sampler.example(child, Take::Once, 0));
        // What follows the loop, pumped: each copy is a place where the rest starts and then
        // fails (`.*(<[^>]+>)` pumped with `<`).
        let rest = rest_of(&mut sampler, &slots, i);
        let mut rest_chars = rest.chars();
        if let Some(c) = rest_chars.next() {
            add(c.to_string());
        }
        if rest.chars().count() > 2 {
            let mut most = rest.clone();
            most.pop();
            add(most);
        }
        if pumps.is_empty() {
            continue;
        }
        pumps.truncate(MAX_PUMPS);
        let prefix = prefix_of(&mut sampler, &slots, i);
        let mut restarts = Vec::new();
        if !prefix.is_empty() {
            let body = sampler.pump(child, 0);
            restarts.push(format!("{prefix}{body}"));
            restarts.push(prefix.clone());
            if let Some(c) = rest.chars().next() {
                restarts.push(format!("{prefix}{body}{c}"));
            }
            // The text that leads in, as the loop itself takes it (an escaped quote in an
            // unanchored quoted string, `"(?:[^"\\]|\\.)*"` pumped with `\"`): every copy
            // is a start the search retries, and the loop runs from it to the end.
            if let Some(inside) = sampler.opener_inside(slot.node, &prefix) {
                restarts.insert(0, inside);
            }
        }
        // A line anchor before the loop: every line feed is a new start for the search
        // (`(?m)^\s*#.*$` over empty lines).
        if line_anchored_before(&slots, i) {
            restarts.insert(0, "\n".to_string());
            restarts.insert(1, format!("\n{prefix}{}", sampler.pump(child, 0)));
        }
        out.push(Suspect {
            kind,
            span: slot.node.span,
            prefix,
            pumps,
            restarts,
            rest,
        });
    }
    // Dangerous shapes first; in a shape, the outermost (widest) first.
    out.sort_by(|a, b| {
        a.kind
            .cmp(&b.kind)
            .then(b.span.len().cmp(&a.span.len()))
            .then(a.span.start.cmp(&b.span.start))
    });
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rxw_syntax::flavor::{Flags, Flavor};

    fn of(p: &str) -> Vec<Suspect> {
        suspects(&Regex::new(p, Flavor::PYTHON, Flags::default()).unwrap())
    }

    #[test]
    fn shapes_are_named() {
        assert_eq!(of("(a+)+b")[0].kind, SuspectKind::Nested);
        assert_eq!(of(r"(\w*)*$")[0].kind, SuspectKind::Nested);
        assert_eq!(of("(a|ab)*c")[0].kind, SuspectKind::Alternation);
        assert_eq!(of(r"\d+\.?\d+x")[0].kind, SuspectKind::Adjacent);
        assert_eq!(of(r"\s+$")[0].kind, SuspectKind::Retry);
        assert!(of("a{2,5}b").is_empty());
        assert!(of("(?>a+)+b").iter().all(|s| s.span != Span::new(3, 5)));
    }

    #[test]
    fn pumps_and_prefixes_come_from_the_pattern() {
        let s = &of(r"^x=(\d+)+$")[0];
        assert_eq!(s.prefix, "x=");
        assert_eq!(s.pumps[0], "0");
        let s = &of(r"<(\w+)\1+>")[0];
        assert!(!s.pumps.is_empty());
        let s = &of(r"[^@\s]+@")[0];
        assert_eq!(s.pumps[0], "a");
    }
}

//! Railroad diagrams of a pattern, drawn with box-drawing characters from its tree.
//!
//! A sequence runs left to right; an alternation is parallel tracks; a quantifier is a loop
//! under its body (its counts written on the loop, lazy and possessive marked) and, when the
//! body may be skipped, a bypass over it; a group is a labelled box (number and name);
//! look-around and anchors are marked stations, in the flavor's meaning (a Python `$` reads
//! "end, or before a final newline").

use super::ast::*;
use crate::error::{Error, ErrorKind};
use crate::flavor::Flavor;
use unicode_width::UnicodeWidthStr;

/// Deepest nesting drawn.
const MAX_DEPTH: usize = 200;

/// A drawn block: lines of equal display width; the track enters on the left and leaves on
/// the right at `entry`.
#[derive(Debug, Clone)]
struct Block {
    lines: Vec<String>,
    entry: usize,
    width: usize,
}

impl Block {
    fn pad_to(&mut self, width: usize) {
        for (i, l) in self.lines.iter_mut().enumerate() {
            let fill = if i == self.entry { '─' } else { ' ' };
            let w = UnicodeWidthStr::width(l.as_str());
            for _ in w..width {
                l.push(fill);
            }
        }
        self.width = self.width.max(width);
    }
}

fn terminal(text: &str, rounded: bool) -> Block {
    let w = UnicodeWidthStr::width(text);
    let bar: String = "─".repeat(w + 2);
    let (tl, tr, bl, br) = if rounded {
        ('╭', '╮', '╰', '╯')
    } else {
        ('┌', '┐', '└', '┘')
    };
    Block {
        lines: vec![
            format!("{tl}{bar}{tr}"),
            format!("┤ {text} ├"),
            format!("{bl}{bar}{br}"),
        ],
        entry: 1,
        width: w + 4,
    }
}

fn line(width: usize) -> Block {
    Block {
        lines: vec!["─".repeat(width)],
        entry: 0,
        width,
    }
}

fn sequence(blocks: Vec<Block>) -> Block {
    if blocks.is_empty() {
        return line(2);
    }
    let above = blocks.iter().map(|b| b.entry).max().unwrap();
    let below = blocks
        .iter()
        .map(|b| b.lines.len() - b.entry - 1)
        .max()
        .unwrap();
    let rows = above + below + 1;
    let mut lines = vec![String::new(); rows];
    let mut width = 0;
    for (i, b) in blocks.iter().enumerate() {
        if i > 0 {
            for (r, l) in lines.iter_mut().enumerate() {
                l.push(if r == above { '─' } else { ' ' });
            }
            width += 1;
        }
        let offset = above - b.entry;
        for (r, l) in lines.iter_mut().enumerate() {
            if r >= offset && r < offset + b.lines.len() {
                l.push_str(&b.lines[r - offset]);
            } else {
                l.push_str(&" ".repeat(b.width));
            }
        }
        width += b.width;
    }
    Block {
        lines,
        entry: above,
        width,
    }
}

fn alternation(mut branches: Vec<Block>) -> Block {
    let inner = branches.iter().map(|b| b.width).max().unwrap_or(0);
    for b in &mut branches {
        b.pad_to(inner);
    }
    let mut lines = Vec::new();
    let mut entries = Vec::new();
    for b in &branches {
        entries.push(lines.len() + b.entry);
        for l in &b.lines {
            lines.push(l.clone());
        }
    }
    let first = entries[0];
    let last = *entries.last().unwrap();
    let out: Vec<String> = lines
        .into_iter()
        .enumerate()
        .map(|(r, l)| {
            let l = if l.is_empty() { " ".repeat(inner) } else { l };
            let (left, right) = if r == first && first == last {
                ('─', '─')
            } else if r == first {
                ('┬', '┬')
            } else if r == last {
                ('└', '┘')
            } else if entries.contains(&r) {
                ('├', '┤')
            } else if r > first && r < last {
                ('│', '│')
            } else {
                (' ', ' ')
            };
            let fill = if entries.contains(&r) { '─' } else { ' ' };
            format!("{left}{fill}{l}{fill}{right}")
        })
        .collect();
    Block {
        lines: out,
        entry: first,
        width: inner + 4,
    }
}

fn counts(min: u32, max: Option<u32>, greed: Greed) -> String {
    let range = match (min, max) {
        (0, None) => "0..∞".to_string(),
        (1, None) => "1..∞".to_string(),
        (m, None) => format!("{m}..∞"),
        (m, Some(n)) if m == n => format!("{m}×"),
        (m, Some(n)) => format!("{m}..{n}"),
    };
    match greed {
        Greed::Greedy => range,
        Greed::Lazy => format!("{range} lazy"),
        Greed::Possessive => format!("{range} possessive"),
    }
}

fn repeat(body: Block, min: u32, max: Option<u32>, greed: Greed) -> Block {
    let label = counts(min, max, greed);
    let skip = min == 0;
    let again = max.is_none_or(|m| m > 1);
    let label_w = UnicodeWidthStr::width(label.as_str()) + 4;
    let inner = body.width.max(label_w);
    let mut body = body;
    body.pad_to(inner);
    let mut lines = Vec::new();
    if skip {
        lines.push(format!("┌─{}─┐", "─".repeat(inner)));
    }
    let top = lines.len();
    let entry = top + body.entry;
    for l in &body.lines {
        lines.push(l.clone());
    }
    let loop_row = if again {
        let dashes = inner - UnicodeWidthStr::width(label.as_str()) - 2;
        lines.push(format!(
            "└─◂ {label} {}─┘",
            "─".repeat(dashes.saturating_sub(1))
        ));
        Some(lines.len() - 1)
    } else {
        if !skip {
            // `{1}` and the like: show the count under the body.
            lines.push(format!("  {label}{}  ", " ".repeat(inner - label_w + 2)));
        }
        None
    };
    let out: Vec<String> = lines
        .into_iter()
        .enumerate()
        .map(|(r, l)| {
            if skip && r == 0 {
                return l;
            }
            if loop_row == Some(r) {
                return l;
            }
            let up = skip && r > 0 && r <= entry;
            let down = loop_row.is_some_and(|lr| r >= entry && r < lr);
            let (left, right) = if r == entry {
                match (skip, again) {
                    (true, true) => ('┼', '┼'),
                    (true, false) => ('┴', '┴'),
                    (false, true) => ('┬', '┬'),
                    (false, false) => ('─', '─'),
                }
            } else if up || down {
                ('│', '│')
            } else {
                (' ', ' ')
            };
            let fill = if r == entry { '─' } else { ' ' };
            if UnicodeWidthStr::width(l.as_str()) < inner {
                let mut l = l;
                while UnicodeWidthStr::width(l.as_str()) < inner {
                    l.push(' ');
                }
                format!("{left}{fill}{l}{fill}{right}")
            } else {
                format!("{left}{fill}{l}{fill}{right}")
            }
        })
        .collect();
    Block {
        lines: out,
        entry,
        width: inner + 4,
    }
}

fn boxed(body: Block, label: &str, rounded: bool) -> Block {
    let label_w = UnicodeWidthStr::width(label);
    let inner = body.width.max(label_w + 2);
    let mut body = body;
    body.pad_to(inner);
    let (tl, tr, bl, br, v) = if rounded {
        ('╭', '╮', '╰', '╯', '┆')
    } else {
        ('┌', '┐', '└', '┘', '│')
    };
    let mut lines = vec![format!(
        "{tl} {label} {}{tr}",
        "─".repeat(inner.saturating_sub(label_w))
    )];
    for (r, l) in body.lines.iter().enumerate() {
        if r == body.entry {
            lines.push(format!("┤─{l}─├"));
        } else {
            lines.push(format!("{v} {l} {v}"));
        }
    }
    lines.push(format!("{bl}{}{br}", "─".repeat(inner + 2)));
    Block {
        lines,
        entry: body.entry + 1,
        width: inner + 4,
    }
}

struct Drawer<'a> {
    pattern: &'a str,
    flavor: Flavor,
}

impl Drawer<'_> {
    fn text(&self, span: Span) -> &str {
        self.pattern.get(span.start..span.end).unwrap_or("")
    }

    fn anchor(&self, kind: AnchorKind, multiline: bool) -> String {
        let js = self.flavor.is_js();
        match kind {
            AnchorKind::LineStart if multiline => "◆ line start".into(),
            AnchorKind::LineStart => "◆ text start".into(),
            AnchorKind::LineEnd if multiline && js => "◆ line end (\\n \\r U+2028 U+2029)".into(),
            AnchorKind::LineEnd if multiline => "◆ line end".into(),
            AnchorKind::LineEnd if self.flavor.is_python() => "◆ end, or before a final \\n".into(),
            AnchorKind::LineEnd => "◆ text end".into(),
            AnchorKind::TextStart => "◆ text start".into(),
            AnchorKind::TextEnd => "◆ very end".into(),
            AnchorKind::WordBoundary => "◆ word boundary".into(),
            AnchorKind::NotWordBoundary => "◆ not a word boundary".into(),
            AnchorKind::WordStart | AnchorKind::WordStartHalf => "◆ word start".into(),
            AnchorKind::WordEnd | AnchorKind::WordEndHalf => "◆ word end".into(),
        }
    }

    /// The blocks of a sequence's items, left to right.
    fn items(&self, items: &[Node], depth: usize) -> Result<Vec<Block>, Error> {
        let mut blocks = Vec::new();
        let mut i = 0;
        while i < items.len() {
            // Runs of plain characters draw as one terminal.
            if matches!(items[i].kind, NodeKind::Literal { .. }) {
                let mut j = i;
                while j < items.len() && matches!(items[j].kind, NodeKind::Literal { .. }) {
                    j += 1;
                }
                let span = items[i].span.to(items[j - 1].span);
                blocks.push(terminal(self.text(span), false));
                i = j;
                continue;
            }
            if !matches!(items[i].kind, NodeKind::Comment | NodeKind::Whitespace) {
                blocks.push(self.draw(&items[i], depth + 1)?);
            }
            i += 1;
        }
        Ok(blocks)
    }

    fn draw(&self, node: &Node, depth: usize) -> Result<Block, Error> {
        if depth > MAX_DEPTH {
            return Err(Error::new(
                ErrorKind::ExplainTooComplex,
                format!("the pattern nests deeper than {MAX_DEPTH} levels to draw"),
            ));
        }
        Ok(match &node.kind {
            NodeKind::Empty => line(2),
            NodeKind::Comment | NodeKind::Whitespace | NodeKind::SetFlags(_) => line(1),
            NodeKind::Literal { .. } => terminal(self.text(node.span), false),
            NodeKind::Dot { dotall } => terminal(
                if *dotall {
                    ". any character"
                } else if self.flavor.is_js() {
                    ". any but a line end"
                } else {
                    ". any but \\n"
                },
                false,
            ),
            NodeKind::Perl { .. } | NodeKind::Property { .. } | NodeKind::Class(_) => {
                terminal(self.text(node.span), false)
            }
            NodeKind::Anchor { kind, multiline } => terminal(&self.anchor(*kind, *multiline), true),
            NodeKind::Backref { index, name } => terminal(
                &match name {
                    Some(n) => format!("⟲ same as {n}"),
                    None => format!("⟲ same as #{index}"),
                },
                true,
            ),
            NodeKind::Concat(items) => sequence(self.items(items, depth)?),
            NodeKind::Alternation(branches) => alternation(
                branches
                    .iter()
                    .map(|b| self.draw(b, depth + 1))
                    .collect::<Result<_, _>>()?,
            ),
            NodeKind::Repeat {
                min,
                max,
                greed,
                child,
                ..
            } => repeat(self.draw(child, depth + 1)?, *min, *max, *greed),
            NodeKind::Group { kind, child } => {
                let inner = self.draw(child, depth + 1)?;
                match kind {
                    GroupKind::Capture { index, name } => boxed(
                        inner,
                        &match name {
                            Some(n) => format!("#{index} {n}"),
                            None => format!("#{index}"),
                        },
                        false,
                    ),
                    GroupKind::NonCapture => inner,
                    GroupKind::Flags(change) => {
                        let mut label = String::from("flags");
                        if !change.on.is_empty() {
                            label.push_str(&format!(" +{}", change.on));
                        }
                        if !change.off.is_empty() {
                            label.push_str(&format!(" -{}", change.off));
                        }
                        boxed(inner, &label, false)
                    }
                    GroupKind::Atomic => boxed(inner, "atomic", false),
                    GroupKind::Lookahead => boxed(inner, "◆ followed by", true),
                    GroupKind::NegativeLookahead => boxed(inner, "◆ not followed by", true),
                    GroupKind::Lookbehind => boxed(inner, "◆ preceded by", true),
                    GroupKind::NegativeLookbehind => boxed(inner, "◆ not preceded by", true),
                    GroupKind::Conditional { index, name } => boxed(
                        inner,
                        &format!(
                            "if #{} matched (else the lower track)",
                            name.clone().unwrap_or_else(|| index.to_string())
                        ),
                        false,
                    ),
                }
            }
        })
    }
}

/// Draws the railroad diagram of a parsed pattern: lines of box-drawing text, start and end
/// marked (`├─` … `─┤`).
///
/// # Errors
/// A pattern nested too deeply to draw.
pub fn railroad(ast: &Ast, pattern: &str, flavor: Flavor) -> Result<Vec<String>, Error> {
    let d = Drawer { pattern, flavor };
    let body = d.draw(&ast.root, 0)?;
    let mut lines = Vec::with_capacity(body.lines.len());
    for (r, l) in body.lines.iter().enumerate() {
        let (a, b) = if r == body.entry {
            ("●─", "─●")
        } else {
            ("  ", "  ")
        };
        lines.push(format!("{a}{l}{b}").trim_end().to_string());
    }
    Ok(lines)
}

/// [`railroad`], with the pattern's top-level sequence wrapped to fit `width` columns: the
/// sequence is cut into rows between its items, each row's track turning down at its right
/// end (`─╮`) and coming back in at the next row's left (`╰─`). An item wider than `width` on
/// its own gets a row of its own and stays wider (the caller scrolls it); a pattern whose top
/// level is not a sequence is drawn as [`railroad`] draws it.
///
/// # Errors
/// A pattern nested too deeply to draw.
pub fn railroad_wrapped(
    ast: &Ast,
    pattern: &str,
    flavor: Flavor,
    width: usize,
) -> Result<Vec<String>, Error> {
    let d = Drawer { pattern, flavor };
    let blocks = match &ast.root.kind {
        NodeKind::Concat(items) => d.items(items, 0)?,
        _ => return railroad(ast, pattern, flavor),
    };
    // A row holds its items, one column between two, and two columns at each end.
    let budget = width.saturating_sub(4);
    let mut rows: Vec<Vec<Block>> = vec![Vec::new()];
    let mut used = 0;
    for b in blocks {
        let row = rows.last_mut().expect("a row");
        let need = if row.is_empty() {
            b.width
        } else {
            used + 1 + b.width
        };
        if !row.is_empty() && need > budget {
            used = b.width;
            rows.push(vec![b]);
        } else {
            used = need;
            row.push(b);
        }
    }
    if rows.len() == 1 {
        return railroad(ast, pattern, flavor);
    }
    let last = rows.len() - 1;
    let mut lines = Vec::new();
    for (k, row) in rows.into_iter().enumerate() {
        let mut seq = sequence(row);
        let inner = seq.width;
        seq.pad_to(inner);
        for (r, l) in seq.lines.iter().enumerate() {
            let left = match (k, r.cmp(&seq.entry)) {
                (0, std::cmp::Ordering::Equal) => "●─",
                (0, _) => "  ",
                (_, std::cmp::Ordering::Less) => "│ ",
                (_, std::cmp::Ordering::Equal) => "╰─",
                (_, std::cmp::Ordering::Greater) => "  ",
            };
            let right = match (k == last, r.cmp(&seq.entry)) {
                (true, std::cmp::Ordering::Equal) => "─●",
                (true, _) => "  ",
                (false, std::cmp::Ordering::Less) => "  ",
                (false, std::cmp::Ordering::Equal) => "─╮",
                (false, std::cmp::Ordering::Greater) => " │",
            };
            lines.push(format!("{left}{l}{right}").trim_end().to_string());
        }
        if k != last {
            // Back to the left, to the next row's entry.
            lines.push(format!("╭{}╯", "─".repeat(inner + 2)));
        }
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::flavor::Flags;
    use crate::parse::parse;

    fn draw(p: &str, flavor: Flavor) -> String {
        let ast = parse(p, flavor, Flags::default()).unwrap();
        railroad(&ast, p, flavor).unwrap().join("\n")
    }

    #[test]
    fn sequence_alternation_and_loop() {
        let d = draw("a(b|cd)+", Flavor::PYTHON);
        assert!(d.contains("┤ a ├"), "{d}");
        assert!(d.contains("┤ b ├") && d.contains("┤ cd ├"), "{d}");
        assert!(d.contains("#1"), "{d}");
        assert!(d.contains("1..∞"), "{d}");
        let entry = d.lines().find(|l| l.starts_with('●')).unwrap();
        let full = UnicodeWidthStr::width(entry);
        assert!(d.lines().all(|l| UnicodeWidthStr::width(l) <= full), "{d}");
    }

    #[test]
    fn python_dollar_is_drawn_with_its_meaning() {
        assert!(draw("a$", Flavor::PYTHON).contains("end, or before a final \\n"));
        assert!(draw("a$", Flavor::JS).contains("text end"));
    }

    #[test]
    fn lazy_possessive_and_named_groups_are_marked() {
        let d = draw("(?P<id>x)*?y++", Flavor::PYTHON);
        assert!(d.contains("#1 id"), "{d}");
        assert!(d.contains("lazy"), "{d}");
        assert!(d.contains("possessive"), "{d}");
    }

    fn wrapped(p: &str, width: usize) -> Vec<String> {
        let ast = parse(p, Flavor::PYTHON, Flags::default()).unwrap();
        railroad_wrapped(&ast, p, Flavor::PYTHON, width).unwrap()
    }

    #[test]
    fn a_long_sequence_wraps_to_the_width_and_the_track_runs_on() {
        let p = r"\[(?P<verb>ACK|CLAIM)\s+(?P<job_id>[A-Za-z0-9_/-]+)\]\s*(?P<rest>.*)$";
        let whole = draw(p, Flavor::PYTHON);
        let full = whole.lines().map(UnicodeWidthStr::width).max().unwrap();
        assert!(full > 60, "{whole}");
        let lines = wrapped(p, 60);
        let d = lines.join("\n");
        assert!(
            lines
                .iter()
                .all(|l| UnicodeWidthStr::width(l.as_str()) <= 60),
            "{d}"
        );
        // Every station is still drawn, once.
        for piece in [
            r"┤ \[ ├",
            "┤ ACK ├",
            "#2 job_id",
            "#3 rest",
            r"┤ \] ├",
            "end, or before",
        ] {
            assert_eq!(d.matches(piece).count(), 1, "{piece} in\n{d}");
        }
        // One start, one end; each row that goes on turns down and the next comes back in.
        assert_eq!(d.matches('●').count(), 2, "{d}");
        // Each way back (`╭──╯`) starts under the row's turn down (`─╮`), and the next row
        // comes in at its left (`╰─`).
        let backs: Vec<usize> = (0..lines.len())
            .filter(|&i| lines[i].starts_with('╭'))
            .collect();
        assert!(!backs.is_empty(), "{d}");
        let comebacks = lines.iter().filter(|l| l.starts_with("╰─")).count();
        assert_eq!(comebacks, backs.len(), "{d}");
        for &i in &backs {
            let turn = lines[..i].iter().rev().find(|l| !l.ends_with('│')).unwrap();
            assert!(turn.ends_with("─╮"), "{d}");
            assert_eq!(
                UnicodeWidthStr::width(turn.as_str()),
                UnicodeWidthStr::width(lines[i].as_str()),
                "{d}"
            );
        }
        // Wide enough, nothing changes.
        assert_eq!(wrapped(p, full + 4).join("\n"), whole);
    }

    #[test]
    fn an_item_wider_than_the_pane_keeps_a_row_of_its_own() {
        let lines = wrapped("a(bbbbbbbbbbbbbbbbbbbbbbbbbbbbbb)c", 20);
        let d = lines.join("\n");
        assert!(
            lines
                .iter()
                .any(|l| UnicodeWidthStr::width(l.as_str()) > 20),
            "{d}"
        );
        assert_eq!(d.matches('●').count(), 2, "{d}");
        assert_eq!(
            lines.iter().filter(|l| l.starts_with('╭')).count(),
            2,
            "{d}"
        );
    }

    #[test]
    fn every_line_is_as_wide_as_the_diagram_or_trimmed() {
        let d = draw(r"^\[(?P<verb>ACK|CLAIM)\s+(?=x)\]$", Flavor::PYTHON);
        let widest = d.lines().map(UnicodeWidthStr::width).max().unwrap();
        let first = d.lines().find(|l| l.starts_with('●')).unwrap();
        assert!(first.ends_with('●'), "{d}");
        assert!(UnicodeWidthStr::width(first) == widest, "{d}");
    }
}

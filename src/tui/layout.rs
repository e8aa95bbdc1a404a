//! Where each pane goes: one pure function of the screen size, used by drawing and by mouse
//! hit-testing alike, so a click lands where the pane was drawn.

use super::action::tab_digit;
use ratatui::layout::Rect;

/// Below this size the screen shows only a "terminal too small" notice.
pub const MIN_WIDTH: u16 = 40;
/// See [`MIN_WIDTH`].
pub const MIN_HEIGHT: u16 = 12;

/// The results pane's narrowest width beside the input: its tab bar shows every tab's whole
/// name (with its digit) and its lines have room; a narrower screen stacks the panes.
pub const RESULTS_BESIDE_MIN: u16 = 122;
/// The input pane's narrowest width beside the results.
pub const INPUT_BESIDE_MIN: u16 = 108;

/// The rectangles of one frame.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Areas {
    /// The pattern editor (with its border).
    pub pattern: Rect,
    /// The input editor (with its border).
    pub input: Rect,
    /// The results pane (with its border).
    pub results: Rect,
    /// The tab bar inside the results pane.
    pub tabs: Rect,
    /// The tab's content inside the results pane.
    pub body: Rect,
    /// The status bar.
    pub status: Rect,
    /// The key hints.
    pub footer: Rect,
}

/// Inside of a bordered rectangle.
pub fn inner(r: Rect) -> Rect {
    Rect {
        x: r.x.saturating_add(1),
        y: r.y.saturating_add(1),
        width: r.width.saturating_sub(2),
        height: r.height.saturating_sub(2),
    }
}

/// Whether `size` is too small for the workbench.
pub fn too_small(size: Rect) -> bool {
    size.width < MIN_WIDTH || size.height < MIN_HEIGHT
}

/// The layout for a screen of `size`.
pub fn areas(size: Rect) -> Areas {
    let Rect {
        x,
        y,
        width: w,
        height: h,
    } = size;
    let pattern = Rect::new(x, y, w, 3.min(h));
    let status = Rect::new(x, y + h.saturating_sub(2), w, 1.min(h));
    let footer = Rect::new(x, y + h.saturating_sub(1), w, 1.min(h));
    let mid_y = y + 3;
    let mid_h = h.saturating_sub(5);
    let (input, results) = if w >= RESULTS_BESIDE_MIN + INPUT_BESIDE_MIN {
        // Side by side only where both have room; the results take what they need first.
        let right = (w / 2).max(RESULTS_BESIDE_MIN);
        let left = w - right;
        (
            Rect::new(x, mid_y, left, mid_h),
            Rect::new(x + left, mid_y, w - left, mid_h),
        )
    } else {
        let top = mid_h / 2;
        (
            Rect::new(x, mid_y, w, top),
            Rect::new(x, mid_y + top, w, mid_h - top),
        )
    };
    let ri = inner(results);
    let tabs = Rect::new(ri.x, ri.y, ri.width, 1.min(ri.height));
    let body = Rect::new(
        ri.x,
        ri.y + tabs.height,
        ri.width,
        ri.height.saturating_sub(tabs.height),
    );
    Areas {
        pattern,
        input,
        results,
        tabs,
        body,
        status,
        footer,
    }
}

/// Whether `(col, row)` is inside `r`.
pub fn contains(r: Rect, col: u16, row: u16) -> bool {
    col >= r.x && col < r.x + r.width && row >= r.y && row < r.y + r.height
}

/// The first char of the pattern shown in the pattern pane at `area`, so that the cursor (at
/// char `cursor`) stays visible.
pub fn pattern_scroll(area: Rect, cursor: usize) -> usize {
    let w = inner(area).width as usize;
    (cursor + 1).saturating_sub(w.max(1))
}

/// The tab labels for a bar `width` columns wide: full titles when they fit, else short ones.
pub fn labels(width: u16, titles: &[&str]) -> Vec<String> {
    let key = |i: usize| tab_digit(i).map_or(String::new(), |d| d.to_string());
    let full: Vec<String> = titles
        .iter()
        .enumerate()
        .map(|(i, t)| match tab_digit(i) {
            Some(d) => format!(" {d} {t} "),
            None => format!(" {t} "),
        })
        .collect();
    let need: usize = full.iter().map(|l| l.chars().count() + 1).sum();
    if need <= width as usize + 1 {
        return full;
    }
    titles
        .iter()
        .enumerate()
        .map(|(i, t)| format!("{}{}", key(i), t.chars().take(3).collect::<String>()))
        .collect()
}

/// The index of the tab under column `col` of the bar at `area`, for tabs titled `titles`.
pub fn tab_at(area: Rect, col: u16, titles: &[&str]) -> Option<usize> {
    let mut x = area.x as usize;
    for (i, l) in labels(area.width, titles).into_iter().enumerate() {
        let w = l.chars().count();
        if (col as usize) >= x && (col as usize) < x + w {
            return Some(i);
        }
        x += w + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panes_tile_the_screen_without_overlap() {
        for (w, h) in [
            (40, 12),
            (80, 24),
            (200, 60),
            (229, 30),
            (230, 30),
            (300, 80),
        ] {
            let a = areas(Rect::new(0, 0, w, h));
            assert!(a.pattern.height + a.input.height + 2 <= h);
            assert!(a.status.y > a.pattern.y && a.footer.y == h - 1);
            assert!(a.input.intersection(a.results).area() == 0, "{w}x{h}");
            assert!(a.body.y + a.body.height <= a.results.y + a.results.height);
        }
    }

    #[test]
    fn panes_go_side_by_side_only_where_the_results_have_room() {
        for w in [80, 120, 200, 229] {
            let a = areas(Rect::new(0, 0, w, 40));
            assert_eq!(a.results.width, w, "stacked at {w}");
        }
        for w in [230, 300, 400] {
            let a = areas(Rect::new(0, 0, w, 40));
            assert!(
                a.results.width >= RESULTS_BESIDE_MIN && a.input.width >= INPUT_BESIDE_MIN,
                "{w}"
            );
            assert_eq!(a.input.width + a.results.width, w);
        }
    }

    const TITLES: [&str; 8] = [
        "Matches", "Groups", "Explain", "Replace", "Presets", "Tests", "Code", "Debug",
    ];

    #[test]
    fn clicks_land_on_the_tab_drawn_there() {
        // Full titles (" 1 Matches " and a separator before " 2 Groups ").
        let area = Rect::new(10, 0, 120, 1);
        assert_eq!(tab_at(area, 10, &TITLES), Some(0));
        assert_eq!(tab_at(area, 10 + 12, &TITLES), Some(1));
        assert_eq!(tab_at(area, 9, &TITLES), None);
        // Too narrow for the eight full titles: short ones ("1Mat", "2Gro", …).
        let narrow = Rect::new(10, 0, 60, 1);
        assert_eq!(tab_at(narrow, 10 + 5, &TITLES), Some(1));
        assert_eq!(tab_at(narrow, 10 + 10, &TITLES), Some(2));
    }
}

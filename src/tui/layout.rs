//! Where each pane goes: one pure function of the screen size, used by drawing and by mouse
//! hit-testing alike, so a click lands where the pane was drawn.

use ratatui::layout::Rect;

/// Below this size the screen shows only a "terminal too small" notice.
pub const MIN_WIDTH: u16 = 40;
/// See [`MIN_WIDTH`].
pub const MIN_HEIGHT: u16 = 12;

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
    let (input, results) = if w >= 140 {
        let left = w * 11 / 20;
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn panes_tile_the_screen_without_overlap() {
        for (w, h) in [(40, 12), (80, 24), (200, 60), (139, 30), (140, 30)] {
            let a = areas(Rect::new(0, 0, w, h));
            assert!(a.pattern.height + a.input.height + 2 <= h);
            assert!(a.status.y > a.pattern.y && a.footer.y == h - 1);
            assert!(a.input.intersection(a.results).area() == 0, "{w}x{h}");
            assert!(a.body.y + a.body.height <= a.results.y + a.results.height);
        }
    }
}

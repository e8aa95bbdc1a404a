//! A `Buffer` to SVG renderer: screenshots of real frames without a terminal.

use super::theme::Background;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier};

const CELL_W: f32 = 8.4;
const CELL_H: f32 = 17.0;
const FG: &str = "#d0d0d0";
const BG: &str = "#1c1c1c";
const LIGHT_FG: &str = "#1c1c1c";
const LIGHT_BG: &str = "#fafafa";

fn hex(c: Color, default: &str) -> String {
    let named = |s: &str| s.to_string();
    match c {
        Color::Reset => named(default),
        Color::Black => named("#1c1c1c"),
        Color::Red => named("#d75f5f"),
        Color::Green => named("#87af5f"),
        Color::Yellow => named("#d7af5f"),
        Color::Blue => named("#5f87d7"),
        Color::Magenta => named("#af87d7"),
        Color::Cyan => named("#5fafaf"),
        Color::Gray => named("#bcbcbc"),
        Color::DarkGray => named("#808080"),
        Color::LightRed => named("#ff8787"),
        Color::LightGreen => named("#afd787"),
        Color::LightYellow => named("#ffd787"),
        Color::LightBlue => named("#87afff"),
        Color::LightMagenta => named("#d7afff"),
        Color::LightCyan => named("#87d7d7"),
        Color::White => named("#ffffff"),
        Color::Rgb(r, g, b) => format!("#{r:02x}{g:02x}{b:02x}"),
        Color::Indexed(i) => {
            let (r, g, b) = xterm_256(i);
            format!("#{r:02x}{g:02x}{b:02x}")
        }
    }
}

/// The colour xterm's 256-colour palette gives index `i` (the 16 system colours as drawn here,
/// the cube and the grey ramp as every terminal has them).
fn xterm_256(i: u8) -> (u8, u8, u8) {
    if i >= 16 {
        return crate::codegen::xterm::xterm_rgb(i);
    }
    let named = crate::tui::colour::NAMED[usize::from(i)];
    let h = hex(named, "#000000");
    let v = |k: usize| u8::from_str_radix(&h[k..k + 2], 16).unwrap_or(0);
    (v(1), v(3), v(5))
}

fn escape(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
}

/// Renders `buf` as a standalone SVG document (monospace text on coloured cells), on a dark
/// terminal.
pub fn to_svg(buf: &Buffer) -> String {
    to_svg_on(buf, Background::Dark)
}

/// As [`to_svg`], on a terminal of `background` (its default text and background colours).
pub fn to_svg_on(buf: &Buffer, background: Background) -> String {
    let (default_fg, default_bg) = match background {
        Background::Dark => (FG, BG),
        Background::Light => (LIGHT_FG, LIGHT_BG),
    };
    let area = buf.area;
    let (w, h) = (area.width as f32 * CELL_W, area.height as f32 * CELL_H);
    let mut out = format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"{w:.0}\" height=\"{h:.0}\" viewBox=\"0 0 {w:.1} {h:.1}\">\n<rect width=\"100%\" height=\"100%\" fill=\"{default_bg}\"/>\n<g font-family=\"DejaVu Sans Mono, Menlo, Consolas, monospace\" font-size=\"14\" xml:space=\"preserve\">\n"
    );
    for y in 0..area.height {
        let mut x = 0;
        while x < area.width {
            let cell = &buf[(area.x + x, area.y + y)];
            let reversed = cell.modifier.contains(Modifier::REVERSED);
            let (mut fg, mut bg) = (hex(cell.fg, default_fg), hex(cell.bg, default_bg));
            if reversed {
                std::mem::swap(&mut fg, &mut bg);
            }
            let px = x as f32 * CELL_W;
            let py = y as f32 * CELL_H;
            if bg != default_bg {
                out.push_str(&format!("<rect x=\"{px:.1}\" y=\"{py:.1}\" width=\"{CELL_W:.1}\" height=\"{CELL_H:.1}\" fill=\"{bg}\"/>"));
            }
            let sym = cell.symbol();
            if !sym.trim().is_empty() {
                let mut attrs = format!("fill=\"{fg}\"");
                if cell.modifier.contains(Modifier::BOLD) {
                    attrs.push_str(" font-weight=\"bold\"");
                }
                if cell.modifier.contains(Modifier::DIM) {
                    attrs.push_str(" opacity=\"0.6\"");
                }
                if cell.modifier.contains(Modifier::UNDERLINED) {
                    attrs.push_str(" text-decoration=\"underline\"");
                }
                out.push_str(&format!(
                    "<text x=\"{px:.1}\" y=\"{:.1}\" {attrs}>{}</text>",
                    py + CELL_H * 0.78,
                    escape(sym)
                ));
            } else if cell.modifier.contains(Modifier::UNDERLINED) {
                out.push_str(&format!("<rect x=\"{px:.1}\" y=\"{:.1}\" width=\"{CELL_W:.1}\" height=\"1\" fill=\"{fg}\"/>", py + CELL_H - 2.0));
            }
            x += 1;
        }
        out.push('\n');
    }
    out.push_str("</g>\n</svg>\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression: the heatmap and two lens colours were 24-bit colour, which a terminal
    /// saying only `TERM=xterm` may not draw; they are 256-colour indices now, and the
    /// screenshots draw those indices as xterm's palette does.
    #[test]
    fn palette_indices_are_drawn_as_xterms_palette() {
        assert_eq!(xterm_256(215), (0xff, 0xaf, 0x5f));
        assert_eq!(xterm_256(147), (0xaf, 0xaf, 0xff));
        assert_eq!(xterm_256(52), (0x5f, 0, 0));
        assert_eq!(xterm_256(160), (0xd7, 0, 0));
        assert_eq!(xterm_256(232), (8, 8, 8));
        assert_eq!(xterm_256(1), (0xd7, 0x5f, 0x5f));
        use crate::tui::theme::{Palette, heat};
        for n in [1, 10, 100] {
            let bg = heat(n, 100, Palette::Color).bg;
            assert!(matches!(bg, Some(Color::Indexed(_))), "{bg:?}");
        }
    }
    use ratatui::layout::Rect;
    use ratatui::style::Style;

    #[test]
    fn cells_become_text_and_rects() {
        let mut buf = Buffer::empty(Rect::new(0, 0, 3, 1));
        buf.set_string(0, 0, "a<", Style::new().bg(Color::Yellow).fg(Color::Black));
        let svg = to_svg(&buf);
        assert!(svg.starts_with("<svg"));
        assert!(svg.contains(">a</text>") && svg.contains("&lt;"));
        assert_eq!(svg.matches("fill=\"#d7af5f\"").count(), 2);
    }
}

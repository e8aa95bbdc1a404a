//! Terminal colours for ratatui: the nearest ANSI colour by its name, and the luminance the
//! background and contrast rules use. xterm's palette itself is the core's
//! ([`crate::codegen::xterm`]), shared with `rxw code`'s escapes.

use crate::codegen::xterm;
pub use crate::codegen::xterm::{linear, luminance, nearest_256, xterm_rgb};
use ratatui::style::Color;

/// The named colours in ANSI order (ratatui's names for indices 0–15).
pub const NAMED: [Color; 16] = [
    Color::Black,
    Color::Red,
    Color::Green,
    Color::Yellow,
    Color::Blue,
    Color::Magenta,
    Color::Cyan,
    Color::Gray,
    Color::DarkGray,
    Color::LightRed,
    Color::LightGreen,
    Color::LightYellow,
    Color::LightBlue,
    Color::LightMagenta,
    Color::LightCyan,
    Color::White,
];

/// The ANSI colour nearest to `rgb` in hue ([`xterm::nearest_16`]), by its name.
pub fn nearest_16(rgb: (u8, u8, u8)) -> Color {
    NAMED[usize::from(xterm::nearest_16(rgb))]
}

#[cfg(test)]
mod unit {
    use super::*;

    #[test]
    fn nearest_16_takes_the_named_colour() {
        assert_eq!(nearest_16((250, 10, 10)), Color::LightRed);
        assert_eq!(nearest_16((0xf2, 0x77, 0x7a)), Color::LightRed);
        assert_eq!(nearest_16((0x99, 0xcc, 0x99)), Color::LightGreen);
        assert_eq!(nearest_16((0x80, 0x00, 0x80)), Color::Magenta);
        assert_eq!(nearest_16((0x20, 0x20, 0x20)), Color::Black);
        assert_eq!(nearest_16((0xd0, 0xd0, 0xd0)), Color::Gray);
        assert_eq!(nearest_16((0x90, 0x90, 0x90)), Color::DarkGray);
    }

    #[test]
    fn luminance_runs_from_black_to_white() {
        assert_eq!(luminance((0, 0, 0)), 0.0);
        assert!((luminance((255, 255, 255)) - 1.0).abs() < 1e-9);
        assert!((luminance((0x77, 0x77, 0x77)) - 0.184).abs() < 0.01);
    }
}

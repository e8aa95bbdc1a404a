//! Terminal colours for ratatui: the nearest ANSI colour by its name, and the luminance the
//! background and contrast rules use. xterm's palette itself is the core's
//! ([`crate::codegen::xterm`]), shared with `rxw code`'s escapes.

use crate::codegen::xterm;
pub use crate::codegen::xterm::{nearest_256, xterm_rgb};
use ratatui::style::Color;

/// The named colours in ANSI order (ratatui's names for indices 0–15).
const NAMED: [Color; 16] = [
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

/// The relative luminance of `rgb` (sRGB, 0 for black to 1 for white).
pub fn luminance(rgb: (u8, u8, u8)) -> f64 {
    let [r, g, b] = linear(rgb);
    0.2126 * r + 0.7152 * g + 0.0722 * b
}

/// `rgb` in linear light, each channel 0 to 1.
pub fn linear(rgb: (u8, u8, u8)) -> [f64; 3] {
    let f = |c: u8| {
        let c = f64::from(c) / 255.0;
        if c <= 0.04045 {
            c / 12.92
        } else {
            ((c + 0.055) / 1.055).powf(2.4)
        }
    };
    [f(rgb.0), f(rgb.1), f(rgb.2)]
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

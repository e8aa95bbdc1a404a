//! xterm's colour numbers as red, green and blue, the nearest of them to a 24-bit colour, and
//! how many a terminal draws: the small arithmetic that brings syntect's 24-bit colours to a
//! 256- or 16-colour terminal (the TUI's frames, `rxw code`'s escapes).

/// The six levels of each channel in xterm's 6×6×6 colour cube (indices 16–231).
const CUBE: [u8; 6] = [0, 0x5f, 0x87, 0xaf, 0xd7, 0xff];

/// xterm's default values for the 16 ANSI colours (a terminal's scheme may change them; the
/// cube and the grey ramp are the same everywhere).
const ANSI: [(u8, u8, u8); 16] = [
    (0x00, 0x00, 0x00),
    (0xcd, 0x00, 0x00),
    (0x00, 0xcd, 0x00),
    (0xcd, 0xcd, 0x00),
    (0x00, 0x00, 0xee),
    (0xcd, 0x00, 0xcd),
    (0x00, 0xcd, 0xcd),
    (0xe5, 0xe5, 0xe5),
    (0x7f, 0x7f, 0x7f),
    (0xff, 0x00, 0x00),
    (0x00, 0xff, 0x00),
    (0xff, 0xff, 0x00),
    (0x5c, 0x5c, 0xff),
    (0xff, 0x00, 0xff),
    (0x00, 0xff, 0xff),
    (0xff, 0xff, 0xff),
];

/// How many colours the terminal draws.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Depth {
    /// 24-bit colour: `COLORTERM` is `truecolor` or `24bit`.
    TrueColor,
    /// xterm's 256 colours: the default.
    Ansi256,
    /// The 16 ANSI colours: `TERM` names a 16- or 8-colour terminal (`linux`, `vt100`,
    /// `ansi`, `*-16color`, `*-8color`, `xterm-color`).
    Ansi16,
}

impl Depth {
    /// The depth `COLORTERM` and `TERM` say.
    pub fn from_env() -> Depth {
        let colorterm = std::env::var("COLORTERM").ok();
        let term = std::env::var("TERM").ok();
        Depth::from_vars(colorterm.as_deref(), term.as_deref())
    }

    /// The depth for these values of `COLORTERM` and `TERM`. Only `COLORTERM` says 24-bit
    /// colour (a `TERM` of `xterm-256color` is as often drawn by a terminal that has it as by
    /// one that does not); without it, 256 colours unless `TERM` names a smaller terminal.
    pub fn from_vars(colorterm: Option<&str>, term: Option<&str>) -> Depth {
        let colorterm = colorterm.unwrap_or("").trim().to_ascii_lowercase();
        if colorterm == "truecolor" || colorterm == "24bit" {
            return Depth::TrueColor;
        }
        let term = term.unwrap_or("").trim().to_ascii_lowercase();
        let small = matches!(
            term.as_str(),
            "linux" | "ansi" | "cons25" | "xterm-color" | "vt100" | "vt102" | "vt220" | "vt320"
        ) || term.ends_with("-16color")
            || term.ends_with("-8color");
        if small { Depth::Ansi16 } else { Depth::Ansi256 }
    }
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

/// The colour of xterm's index `i`: the 16 ANSI colours as xterm has them by default, the
/// colour cube, the grey ramp.
pub fn xterm_rgb(i: u8) -> (u8, u8, u8) {
    match i {
        0..=15 => ANSI[usize::from(i)],
        16..=231 => {
            let n = usize::from(i - 16);
            (CUBE[n / 36], CUBE[n / 6 % 6], CUBE[n % 6])
        }
        _ => {
            let v = 8 + 10 * (i - 232);
            (v, v, v)
        }
    }
}

fn distance2(a: (u8, u8, u8), b: (u8, u8, u8)) -> u32 {
    let d = |x: u8, y: u8| (i32::from(x) - i32::from(y)).pow(2) as u32;
    d(a.0, b.0) + d(a.1, b.1) + d(a.2, b.2)
}

/// The index among xterm's 240 fixed colours (16–255: the cube and the grey ramp, never the 16
/// a scheme may change) nearest to `rgb`. A search of all 240: a frame has at most a few
/// thousand 24-bit cells.
pub fn nearest_256(rgb: (u8, u8, u8)) -> u8 {
    (16..=255u8)
        .min_by_key(|&i| distance2(xterm_rgb(i), rgb))
        .unwrap_or(16)
}

/// The ANSI colour (0–15) nearest to `rgb` in hue: a grey by its lightness, else the channels well
/// above the smallest one on (red, yellow, magenta, …), bright for a light or pale colour.
/// (Distance to xterm's 16 defaults would send every pastel to grey.)
pub fn nearest_16(rgb: (u8, u8, u8)) -> u8 {
    let (max, min) = (rgb.0.max(rgb.1).max(rgb.2), rgb.0.min(rgb.1).min(rgb.2));
    let range = max - min;
    if range < 0x30 {
        return match max {
            0..0x40 => 0,
            0x40..0xb0 => 8,
            0xb0..0xf0 => 7,
            _ => 15,
        };
    }
    let on = |c: u8| u8::from(c - min >= range / 2);
    let index = on(rgb.0) | on(rgb.1) << 1 | on(rgb.2) << 2;
    let bright = max >= 0xe0 || min >= 0x80;
    index + if bright { 8 } else { 0 }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cube_and_the_ramp_are_xterms() {
        assert_eq!(xterm_rgb(16), (0, 0, 0));
        assert_eq!(xterm_rgb(215), (0xff, 0xaf, 0x5f));
        assert_eq!(xterm_rgb(147), (0xaf, 0xaf, 0xff));
        assert_eq!(xterm_rgb(231), (0xff, 0xff, 0xff));
        assert_eq!(xterm_rgb(232), (8, 8, 8));
        assert_eq!(xterm_rgb(255), (0xee, 0xee, 0xee));
    }

    #[test]
    fn every_fixed_colour_maps_to_itself_or_its_twin() {
        for i in 16..=255u8 {
            let back = nearest_256(xterm_rgb(i));
            assert_eq!(xterm_rgb(back), xterm_rgb(i), "{i} came back as {back}");
        }
    }

    #[test]
    fn nearest_256_takes_the_neighbour_in_the_cube_or_the_ramp() {
        // syntect's base16-eighties colours.
        assert_eq!(nearest_256((0xf2, 0x77, 0x7a)), 210); // #ff8787
        assert_eq!(nearest_256((0x99, 0xcc, 0x99)), 114); // #87d787
        assert_eq!(nearest_256((0x66, 0x99, 0xcc)), 68); // #5f87d7
        // A grey goes to the ramp, not the cube's coarser greys.
        assert_eq!(nearest_256((0x30, 0x30, 0x30)), 236);
        assert_eq!(nearest_256((0xd3, 0xd0, 0xc8)), 252);
    }

    #[test]
    fn nearest_16_takes_the_colour_of_the_same_hue() {
        assert_eq!(nearest_16((250, 10, 10)), 9);
        assert_eq!(nearest_16((0xf2, 0x77, 0x7a)), 9);
        assert_eq!(nearest_16((0x99, 0xcc, 0x99)), 10);
        assert_eq!(nearest_16((0x80, 0x00, 0x80)), 5);
        assert_eq!(nearest_16((0xd7, 0xaf, 0x00)), 3);
        assert_eq!(nearest_16((0x20, 0x20, 0x20)), 0);
        assert_eq!(nearest_16((0x90, 0x90, 0x90)), 8);
        assert_eq!(nearest_16((0xd0, 0xd0, 0xd0)), 7);
        assert_eq!(nearest_16((0xff, 0xff, 0xfa)), 15);
    }

    #[test]
    fn only_colorterm_says_24_bit_and_term_says_16() {
        use Depth::*;
        for (colorterm, term, want) in [
            (Some("truecolor"), Some("xterm-256color"), TrueColor),
            (Some("24bit"), Some("linux"), TrueColor),
            (Some("TrueColor"), None, TrueColor),
            (None, Some("xterm-256color"), Ansi256),
            (None, Some("xterm"), Ansi256),
            (None, Some("tmux-256color"), Ansi256),
            (Some("yes"), Some("screen"), Ansi256),
            (None, None, Ansi256),
            (None, Some("linux"), Ansi16),
            (None, Some("vt100"), Ansi16),
            (None, Some("rxvt-16color"), Ansi16),
            (Some(""), Some("xterm-color"), Ansi16),
        ] {
            assert_eq!(
                Depth::from_vars(colorterm, term),
                want,
                "{colorterm:?} {term:?}"
            );
        }
    }
}

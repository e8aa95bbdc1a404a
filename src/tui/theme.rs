//! The only place that turns highlight kinds into terminal styles, and the one place every
//! colour passes on its way to the terminal ([`fit`]).
//!
//! Matches and groups use a background with an explicit foreground, so they read the same
//! on dark and light terminals. Text drawn on the terminal's own background (the pattern's
//! colours, errors, borders) uses the terminal's ANSI colours on a dark background and darker
//! 256-colour inks on a light one ([`Palette::Light`]). With `NO_COLOR` set, styles use only
//! modifiers (bold, underline, reverse), never a colour.
//!
//! Styles may hold 24-bit colours (the Code tab's syntax colours); what the terminal can draw
//! is decided at the edge: [`Depth`] from `COLORTERM` and `TERM`, and [`fit_buffer`] over each
//! frame before it is flushed, so no colour reaches a terminal that cannot draw it.

use super::colour::{nearest_16, nearest_256, xterm_rgb};
pub use crate::codegen::xterm::Depth;
use crate::highlight::Kind;
use ratatui::buffer::Buffer;
use ratatui::style::{Color, Modifier, Style};

/// The colours in use: for which background, or none.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Palette {
    /// Colours for a dark background (the default): the terminal's own ANSI colours.
    Color,
    /// Colours for a light background: yellow, cyan and the other light inks are replaced by
    /// darker 256-colour ones that read on white.
    Light,
    /// Modifiers only (`NO_COLOR`).
    Mono,
}

impl Palette {
    /// `Mono` when `NO_COLOR` is set to anything non-empty, else colours for a dark background.
    pub fn from_env() -> Palette {
        Palette::for_background(Background::Dark)
    }

    /// `Mono` when `NO_COLOR` is set to anything non-empty, else colours for `background`.
    pub fn for_background(background: Background) -> Palette {
        match std::env::var_os("NO_COLOR") {
            Some(v) if !v.is_empty() => Palette::Mono,
            _ => match background {
                Background::Dark => Palette::Color,
                Background::Light => Palette::Light,
            },
        }
    }

    /// Whether this palette draws colours at all.
    pub fn is_color(self) -> bool {
        self != Palette::Mono
    }

    /// The background the palette is made for (monochrome: dark, which it does not use).
    pub fn background(self) -> Background {
        match self {
            Palette::Light => Background::Light,
            Palette::Color | Palette::Mono => Background::Dark,
        }
    }
}

/// The terminal's background, as far as colours care: one type with the core's syntax
/// colours, which pick their theme by it.
pub use crate::codegen::highlight::Background;

/// The background of colour `rgb`: light when its CIE lightness L* is above 50 (the
/// perceptual middle, relative luminance 0.184).
pub fn background_of(rgb: (u8, u8, u8)) -> Background {
    if super::colour::luminance(rgb) > 0.184 {
        Background::Light
    } else {
        Background::Dark
    }
}

/// The theme asked for on the command line (`--theme`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ThemeChoice {
    /// From the terminal: its answer to the background query (OSC 11), else `COLORFGBG`,
    /// else dark.
    #[default]
    Auto,
    /// Colours for a light background.
    Light,
    /// Colours for a dark background.
    Dark,
}

/// `c` as a terminal of `depth` can draw it: a 24-bit colour becomes the nearest of xterm's
/// 256 (or of the 16 ANSI colours), a 256-colour index the nearest of the 16 on a 16-colour
/// terminal. The ANSI colours and `Reset` are drawn by every terminal and stay.
pub fn fit(c: Color, depth: Depth) -> Color {
    match (c, depth) {
        (_, Depth::TrueColor) => c,
        (Color::Rgb(r, g, b), Depth::Ansi256) => Color::Indexed(nearest_256((r, g, b))),
        (Color::Rgb(r, g, b), Depth::Ansi16) => nearest_16((r, g, b)),
        (Color::Indexed(i), Depth::Ansi16) if i >= 16 => nearest_16(xterm_rgb(i)),
        _ => c,
    }
}

/// Every colour of a drawn frame through [`fit`]: the last step before the frame is flushed.
pub fn fit_buffer(buf: &mut Buffer, depth: Depth) {
    if depth == Depth::TrueColor {
        return;
    }
    // A frame has a few dozen distinct colours at most (a syntax theme's), and thousands of
    // cells: each colour is fitted once per frame.
    let mut fitted: Vec<(Color, Color)> = Vec::new();
    let mut fit_once = |c: Color| match c {
        Color::Rgb(..) | Color::Indexed(16..) => {
            if let Some(&(_, f)) = fitted.iter().find(|(k, _)| *k == c) {
                return f;
            }
            let f = fit(c, depth);
            fitted.push((c, f));
            f
        }
        _ => c,
    };
    for cell in &mut buf.content {
        cell.fg = fit_once(cell.fg);
        cell.bg = fit_once(cell.bg);
        cell.underline_color = fit_once(cell.underline_color);
    }
}

/// The style of a run of highlighted code (the Code tab, the Presets tab's export): syntect's
/// 24-bit colour, which [`fit`] brings to the terminal's depth.
pub fn syntax(rgb: (u8, u8, u8), bold: bool, italic: bool) -> Style {
    let mut st = Style::new().fg(Color::Rgb(rgb.0, rgb.1, rgb.2));
    if bold {
        st = st.add_modifier(Modifier::BOLD);
    }
    if italic {
        st = st.add_modifier(Modifier::ITALIC);
    }
    st
}

/// A colour for text on the terminal's own background.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Ink {
    Red,
    Green,
    Yellow,
    Blue,
    Magenta,
    Cyan,
    /// The strongest contrast: white on dark, black on light.
    Strong,
}

/// Ink `i` in `palette`: the terminal's own ANSI colour on a dark background; on a light one a
/// darker 256-colour ink with a contrast of at least 4.5:1 on white (WCAG AA).
fn ink(i: Ink, palette: Palette) -> Color {
    if palette != Palette::Light {
        return match i {
            Ink::Red => Color::Red,
            Ink::Green => Color::Green,
            Ink::Yellow => Color::Yellow,
            Ink::Blue => Color::Blue,
            Ink::Magenta => Color::Magenta,
            Ink::Cyan => Color::Cyan,
            Ink::Strong => Color::White,
        };
    }
    Color::Indexed(match i {
        Ink::Red => 160,     // #d70000
        Ink::Green => 28,    // #008700
        Ink::Yellow => 130,  // #af5f00
        Ink::Blue => 25,     // #005faf
        Ink::Magenta => 127, // #af00af
        Ink::Cyan => 23,     // #005f5f
        Ink::Strong => 16,   // #000000
    })
}

/// Group backgrounds, chosen to stay distinct from the match colour and readable with the
/// foreground given by [`on`].
const GROUP_BG: [Color; 6] = [
    Color::Cyan,
    Color::Green,
    Color::Magenta,
    Color::LightBlue,
    Color::LightRed,
    Color::LightGreen,
];

fn on(bg: Color) -> Style {
    Style::new().bg(bg).fg(Color::Black)
}

/// The style of a highlight kind.
pub fn style(kind: Kind, palette: Palette) -> Style {
    if palette == Palette::Mono {
        return match kind {
            Kind::Match => Style::new().add_modifier(Modifier::REVERSED),
            Kind::Group(n) => Style::new().add_modifier(if n % 2 == 0 {
                Modifier::REVERSED | Modifier::UNDERLINED
            } else {
                Modifier::REVERSED | Modifier::BOLD
            }),
            Kind::Location | Kind::Comment => Style::new().add_modifier(Modifier::DIM),
            Kind::Error => Style::new().add_modifier(Modifier::UNDERLINED | Modifier::BOLD),
            Kind::Warning => Style::new().add_modifier(Modifier::UNDERLINED),
            Kind::Group0 | Kind::Quantifier | Kind::Name => {
                Style::new().add_modifier(Modifier::BOLD)
            }
            Kind::Literal
            | Kind::Escape
            | Kind::Class
            | Kind::Anchor
            | Kind::Alternation
            | Kind::Backref => Style::new(),
        };
    }
    let ink = |i: Ink| ink(i, palette);
    match kind {
        Kind::Match => on(Color::Yellow),
        Kind::Group(n) => on(GROUP_BG[n % GROUP_BG.len()]),
        Kind::Location => Style::new().fg(ink(Ink::Green)),
        Kind::Literal => Style::new(),
        Kind::Escape => Style::new().fg(ink(Ink::Magenta)),
        Kind::Class => Style::new().fg(ink(Ink::Cyan)),
        Kind::Group0 => Style::new().fg(ink(Ink::Blue)).add_modifier(Modifier::BOLD),
        Kind::Quantifier => Style::new().fg(ink(Ink::Red)).add_modifier(Modifier::BOLD),
        Kind::Anchor => Style::new()
            .fg(ink(Ink::Green))
            .add_modifier(Modifier::BOLD),
        Kind::Alternation => Style::new()
            .fg(ink(Ink::Yellow))
            .add_modifier(Modifier::BOLD),
        Kind::Backref => Style::new()
            .fg(ink(Ink::Magenta))
            .add_modifier(Modifier::BOLD),
        Kind::Comment => Style::new().add_modifier(Modifier::DIM),
        Kind::Error => Style::new()
            .fg(ink(Ink::Red))
            .add_modifier(Modifier::UNDERLINED | Modifier::BOLD)
            .underline_color(ink(Ink::Red)),
        Kind::Warning => Style::new()
            .fg(ink(Ink::Yellow))
            .add_modifier(Modifier::UNDERLINED),
        Kind::Name => Style::new().fg(ink(Ink::Blue)),
    }
}

/// Emphasis for the current match, layered over its match or group style.
pub fn current(palette: Palette) -> Modifier {
    match palette {
        Palette::Color | Palette::Light => Modifier::BOLD | Modifier::UNDERLINED,
        Palette::Mono => Modifier::BOLD | Modifier::UNDERLINED,
    }
}

/// The style of UI chrome: focused border, dim text, errors, passes.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Chrome {
    /// Border of the focused pane.
    Focused,
    /// Border of other panes.
    Unfocused,
    /// Secondary text.
    Dim,
    /// An error message.
    Error,
    /// A passing test.
    Pass,
    /// A failing test.
    Fail,
    /// The selected row of a list.
    Selected,
    /// Text the replacement produced.
    Changed,
    /// The marked item of a chart (the Timeline's selected bucket): white on a dark
    /// background, black on a light one.
    Marked,
}

/// The text colour of a record of `level` in the input (errors red, warnings yellow, debug
/// and trace dim; info as any text), in the palette's inks, so the light theme's stay
/// readable on white and the colour depth is brought down with every other colour.
pub fn level_style(level: crate::workbench::filters::Level, palette: Palette) -> Style {
    use crate::workbench::filters::Level;
    if palette == Palette::Mono {
        return match level {
            Level::Error | Level::Critical => Style::new().add_modifier(Modifier::BOLD),
            Level::Trace | Level::Debug => Style::new().add_modifier(Modifier::DIM),
            _ => Style::new(),
        };
    }
    match level {
        Level::Critical => Style::new()
            .fg(ink(Ink::Red, palette))
            .add_modifier(Modifier::BOLD),
        Level::Error => Style::new().fg(ink(Ink::Red, palette)),
        Level::Warn => Style::new().fg(ink(Ink::Yellow, palette)),
        Level::Info => Style::new(),
        Level::Debug | Level::Trace => Style::new().add_modifier(Modifier::DIM),
    }
}

/// The style of a chrome element.
pub fn chrome(c: Chrome, palette: Palette) -> Style {
    if palette == Palette::Mono {
        return match c {
            Chrome::Focused => Style::new().add_modifier(Modifier::BOLD),
            Chrome::Unfocused | Chrome::Dim => Style::new().add_modifier(Modifier::DIM),
            Chrome::Error | Chrome::Fail => Style::new().add_modifier(Modifier::BOLD),
            Chrome::Pass => Style::new(),
            Chrome::Selected => Style::new().add_modifier(Modifier::REVERSED),
            Chrome::Changed => Style::new().add_modifier(Modifier::UNDERLINED | Modifier::BOLD),
            Chrome::Marked => Style::new().add_modifier(Modifier::REVERSED),
        };
    }
    let ink = |i: Ink| ink(i, palette);
    match c {
        Chrome::Focused => Style::new().fg(ink(Ink::Cyan)).add_modifier(Modifier::BOLD),
        Chrome::Unfocused => Style::new().add_modifier(Modifier::DIM),
        Chrome::Dim => Style::new().add_modifier(Modifier::DIM),
        Chrome::Error | Chrome::Fail => Style::new().fg(ink(Ink::Red)).add_modifier(Modifier::BOLD),
        Chrome::Pass => Style::new()
            .fg(ink(Ink::Green))
            .add_modifier(Modifier::BOLD),
        Chrome::Selected => Style::new().add_modifier(Modifier::REVERSED),
        Chrome::Changed => on(Color::Green),
        Chrome::Marked => Style::new().fg(ink(Ink::Strong)),
    }
}

/// The heatmap background for a position the matcher visited `n` times (of `max` at the
/// hottest): four steps from dark to bright red, on a log scale so a blow-up stands out.
/// Monochrome: the hottest quarter is underlined.
pub fn heat(n: u64, max: u64, palette: Palette) -> Style {
    let level = if max <= 1 {
        3
    } else {
        let f = (n as f64).ln_1p() / (max as f64).ln_1p();
        ((f * 4.0).ceil() as usize).clamp(1, 4) - 1
    };
    if palette == Palette::Mono {
        return if level == 3 {
            Style::new().add_modifier(Modifier::UNDERLINED)
        } else {
            Style::new()
        };
    }
    // The 256-colour palette's reds (#5f0000 … #d70000), not 24-bit colour: a terminal that
    // says only `TERM=xterm` (no COLORTERM) draws them, and truecolour ones alike.
    const SHADES: [Color; 4] = [
        Color::Indexed(52),
        Color::Indexed(88),
        Color::Indexed(124),
        Color::Indexed(160),
    ];
    Style::new().bg(SHADES[level]).fg(Color::White)
}
/// The lens keys' styles: a background (with black text) and, as a second channel, an
/// underline. Twelve backgrounds for the NetVM registry's twelve keys in registry order, then
/// two for user presets, which are bold as well.
///
/// Twelve colours cannot all be told apart by hue alone by someone with a colour-vision
/// deficiency, so the keys are in two sets, without and with an underline (registry keys
/// alternate between them, so neighbours in the legend differ by the underline too). Within a
/// set every two backgrounds differ by a CIEDE2000 ΔE of at least 10 as seen with
/// deuteranopia, protanopia and tritanopia (simulated); across all fourteen by at least 18 with
/// typical vision. They are xterm's fixed 256-colour indices (a terminal that says only
/// `TERM=xterm` draws them), each with a contrast of at least 7:1 with black text and clearly
/// apart from a white background. The unit tests below measure all of this.
const LENS: [(u8, bool); 14] = [
    (218, false), // work_order       #ffafd7 pink
    (106, true),  // ack              #87af00 olive
    (247, false), // verb             #9e9e9e grey
    (204, true),  // result           #ff5f87 rose
    (220, false), // tool_call        #ffd700 gold
    (87, true),   // job_tag          #5fffff cyan
    (172, false), // nudge            #d78700 orange
    (141, true),  // fleet_alert      #af87ff violet
    (75, false),  // uuid             #5fafff blue
    (191, true),  // short_hex        #d7ff5f lime
    (85, false),  // subagent_update  #5fffaf mint
    (216, true),  // swarm_slot       #ffaf87 peach
    (108, false), // user presets     #87af87 sage
    (37, true),   // user presets     #00afaf teal
];

/// How many of [`LENS`] are the registry's keys; the rest are for user presets.
const LENS_REGISTRY: usize = 12;

/// Key `k`'s place in [`LENS`]: the registry's twelve their own, user presets (`k` ≥ 12)
/// alternating between the last two.
fn lens_slot(k: usize) -> usize {
    if k < LENS_REGISTRY {
        k
    } else {
        LENS_REGISTRY + (k - LENS_REGISTRY) % (LENS.len() - LENS_REGISTRY)
    }
}

/// The style of lens key `k` (its index in the lens, the registry's keys first) for its hits
/// and its swatch in the legend: a background of its own with black text, every other key
/// underlined, user presets bold (the palette and what it is measured against are beside it,
/// in this module's source). Monochrome: reverse, with underline or bold to tell neighbours
/// apart.
pub fn lens_key(k: usize, palette: Palette) -> Style {
    if palette == Palette::Mono {
        return Style::new().add_modifier(match k % 3 {
            0 => Modifier::REVERSED,
            1 => Modifier::REVERSED | Modifier::UNDERLINED,
            _ => Modifier::REVERSED | Modifier::BOLD,
        });
    }
    let slot = lens_slot(k);
    let (index, underlined) = LENS[slot];
    let mut st = Style::new().bg(Color::Indexed(index)).fg(Color::Black);
    if underlined {
        st = st.add_modifier(Modifier::UNDERLINED);
    }
    if slot >= LENS_REGISTRY {
        st = st.add_modifier(Modifier::BOLD);
    }
    st
}

#[cfg(test)]
mod unit {
    //! The palette measured: CIE Lab and the CIEDE2000 colour difference, colour-vision
    //! deficiencies simulated with Machado, Oliveira and Fernandes' matrices (2009, severity
    //! 1), WCAG contrast.
    use super::*;
    use crate::tui::colour::linear;

    /// sRGB (D65) to CIE L*a*b*.
    fn lab_of_linear([r, g, b]: [f64; 3]) -> [f64; 3] {
        let x = 0.412_456_4 * r + 0.357_576_1 * g + 0.180_437_5 * b;
        let y = 0.212_672_9 * r + 0.715_152_2 * g + 0.072_175_0 * b;
        let z = 0.019_333_9 * r + 0.119_192_0 * g + 0.950_304_1 * b;
        let f = |t: f64| {
            if t > 216.0 / 24389.0 {
                t.cbrt()
            } else {
                (24389.0 / 27.0 * t + 16.0) / 116.0
            }
        };
        let (fx, fy, fz) = (f(x / 0.950_47), f(y), f(z / 1.088_83));
        [116.0 * fy - 16.0, 500.0 * (fx - fy), 200.0 * (fy - fz)]
    }

    /// CIEDE2000 (Sharma, Wu and Dalal's formulation).
    fn delta_e2000(p: [f64; 3], q: [f64; 3]) -> f64 {
        let [l1, a1, b1] = p;
        let [l2, a2, b2] = q;
        let c_bar = (a1.hypot(b1) + a2.hypot(b2)) / 2.0;
        let g = 0.5 * (1.0 - (c_bar.powi(7) / (c_bar.powi(7) + 25f64.powi(7))).sqrt());
        let (a1p, a2p) = ((1.0 + g) * a1, (1.0 + g) * a2);
        let (c1p, c2p) = (a1p.hypot(b1), a2p.hypot(b2));
        let hue = |b: f64, a: f64| {
            if b == 0.0 && a == 0.0 {
                0.0
            } else {
                b.atan2(a).to_degrees().rem_euclid(360.0)
            }
        };
        let (h1p, h2p) = (hue(b1, a1p), hue(b2, a2p));
        let dl = l2 - l1;
        let dc = c2p - c1p;
        let dh = if c1p * c2p == 0.0 {
            0.0
        } else if (h2p - h1p).abs() <= 180.0 {
            h2p - h1p
        } else if h2p - h1p > 180.0 {
            h2p - h1p - 360.0
        } else {
            h2p - h1p + 360.0
        };
        let dh_big = 2.0 * (c1p * c2p).sqrt() * (dh / 2.0).to_radians().sin();
        let l_bar = (l1 + l2) / 2.0;
        let cp_bar = (c1p + c2p) / 2.0;
        let hp_bar = if c1p * c2p == 0.0 {
            h1p + h2p
        } else if (h1p - h2p).abs() <= 180.0 {
            (h1p + h2p) / 2.0
        } else if h1p + h2p < 360.0 {
            (h1p + h2p + 360.0) / 2.0
        } else {
            (h1p + h2p - 360.0) / 2.0
        };
        let cos = |deg: f64| deg.to_radians().cos();
        let t = 1.0 - 0.17 * cos(hp_bar - 30.0)
            + 0.24 * cos(2.0 * hp_bar)
            + 0.32 * cos(3.0 * hp_bar + 6.0)
            - 0.20 * cos(4.0 * hp_bar - 63.0);
        let d_theta = 30.0 * (-((hp_bar - 275.0) / 25.0).powi(2)).exp();
        let rc = 2.0 * (cp_bar.powi(7) / (cp_bar.powi(7) + 25f64.powi(7))).sqrt();
        let sl = 1.0 + 0.015 * (l_bar - 50.0).powi(2) / (20.0 + (l_bar - 50.0).powi(2)).sqrt();
        let sc = 1.0 + 0.045 * cp_bar;
        let sh = 1.0 + 0.015 * cp_bar * t;
        let rt = -(2.0 * d_theta).to_radians().sin() * rc;
        ((dl / sl).powi(2)
            + (dc / sc).powi(2)
            + (dh_big / sh).powi(2)
            + rt * (dc / sc) * (dh_big / sh))
            .sqrt()
    }

    /// How a colour is seen.
    #[derive(Debug, Clone, Copy)]
    enum Vision {
        Typical,
        Deuteranopia,
        Protanopia,
        Tritanopia,
    }

    const VISIONS: [Vision; 4] = [
        Vision::Typical,
        Vision::Deuteranopia,
        Vision::Protanopia,
        Vision::Tritanopia,
    ];

    /// `rgb` as seen with `vision`, in Lab: Machado's matrix on linear RGB.
    fn seen(rgb: (u8, u8, u8), vision: Vision) -> [f64; 3] {
        let m: [[f64; 3]; 3] = match vision {
            Vision::Typical => return lab_of_linear(linear(rgb)),
            Vision::Deuteranopia => [
                [0.367_322, 0.860_646, -0.227_968],
                [0.280_085, 0.672_501, 0.047_413],
                [-0.011_820, 0.042_940, 0.968_881],
            ],
            Vision::Protanopia => [
                [0.152_286, 1.052_583, -0.204_868],
                [0.114_503, 0.786_281, 0.099_216],
                [-0.003_882, -0.048_116, 1.051_998],
            ],
            Vision::Tritanopia => [
                [1.255_528, -0.076_749, -0.178_779],
                [-0.078_411, 0.930_809, 0.147_602],
                [0.004_733, 0.691_367, 0.303_900],
            ],
        };
        let c = linear(rgb);
        let row = |r: [f64; 3]| (r[0] * c[0] + r[1] * c[1] + r[2] * c[2]).clamp(0.0, 1.0);
        lab_of_linear([row(m[0]), row(m[1]), row(m[2])])
    }

    fn distance(p: (u8, u8, u8), q: (u8, u8, u8), vision: Vision) -> f64 {
        delta_e2000(seen(p, vision), seen(q, vision))
    }

    /// WCAG's contrast ratio.
    fn contrast(p: (u8, u8, u8), q: (u8, u8, u8)) -> f64 {
        let (a, b) = (
            crate::tui::colour::luminance(p),
            crate::tui::colour::luminance(q),
        );
        (a.max(b) + 0.05) / (a.min(b) + 0.05)
    }

    fn rgb_of(c: Color) -> (u8, u8, u8) {
        match c {
            Color::Indexed(i) => xterm_rgb(i),
            Color::Rgb(r, g, b) => (r, g, b),
            other => panic!("{other:?} is not a fixed colour (a terminal's scheme may move it)"),
        }
    }

    /// Two lens styles are told apart by someone with `vision` when their backgrounds differ
    /// by at least these ΔE, or one is underlined and the other not (the underline is seen on
    /// every cell, hits and swatches alike).
    const TYPICAL_MIN: f64 = 18.0;
    const DEFICIENT_MIN: f64 = 10.0;

    /// Why styles `p` and `q` of the lens cannot be told apart with `vision`, if they cannot.
    fn confusion(p: Style, q: Style, vision: Vision) -> Option<String> {
        let (bp, bq) = (rgb_of(p.bg.unwrap()), rgb_of(q.bg.unwrap()));
        let d = distance(bp, bq, vision);
        let underline = |s: Style| s.add_modifier.contains(Modifier::UNDERLINED);
        let ok = match vision {
            Vision::Typical => d >= TYPICAL_MIN,
            _ => d >= DEFICIENT_MIN || underline(p) != underline(q),
        };
        (!ok).then(|| format!("{bp:?} and {bq:?}: ΔE {d:.1} with {vision:?}"))
    }

    #[test]
    fn ciede2000_agrees_with_sharmas_test_data() {
        for (p, q, want) in [
            ([50.0, 2.6772, -79.7751], [50.0, 0.0, -82.7485], 2.0425),
            ([50.0, 0.0, 0.0], [50.0, -1.0, 2.0], 2.3669),
            ([50.0, 2.5, 0.0], [73.0, 25.0, -18.0], 27.1492),
            (
                [60.2574, -34.0099, 36.2677],
                [60.4626, -34.1751, 39.4387],
                1.2644,
            ),
            (
                [22.7233, 20.0904, -46.6940],
                [23.0331, 14.9730, -42.5619],
                2.0373,
            ),
        ] {
            let got = delta_e2000(p, q);
            assert!((got - want).abs() < 1e-4, "{p:?} {q:?}: {got} not {want}");
        }
        let white = lab_of_linear(linear((255, 255, 255)));
        assert!((white[0] - 100.0).abs() < 1e-3 && white[1].abs() < 1e-3);
    }

    /// The simulation does what it is for: red and green, far apart for typical vision, are
    /// all but one colour with deuteranopia, and the check below would fail them.
    #[test]
    fn the_simulation_confuses_red_and_green() {
        let (red, green) = ((0xd7, 0, 0), (0, 0x87, 0));
        assert!(distance(red, green, Vision::Typical) > 60.0);
        assert!(distance(red, green, Vision::Deuteranopia) < 6.0);
        let on = |i: u8| Style::new().bg(Color::Indexed(i)).fg(Color::Black);
        assert!(confusion(on(160), on(28), Vision::Deuteranopia).is_some());
        assert!(
            confusion(
                on(160),
                on(28).add_modifier(Modifier::UNDERLINED),
                Vision::Deuteranopia
            )
            .is_none()
        );
    }

    /// Every two of the lens's fourteen styles (the registry's twelve keys and the user
    /// presets' two) are told apart with typical vision by colour, and with deuteranopia,
    /// protanopia and tritanopia by colour or by the underline.
    #[test]
    fn every_lens_key_is_told_apart_with_each_kind_of_colour_vision() {
        let styles: Vec<Style> = (0..LENS.len())
            .map(|k| lens_key(k, Palette::Color))
            .collect();
        let mut confusions = Vec::new();
        for (i, p) in styles.iter().enumerate() {
            for (j, q) in styles.iter().enumerate().skip(i + 1) {
                for vision in VISIONS {
                    if let Some(why) = confusion(*p, *q, vision) {
                        confusions.push(format!("keys {i} and {j}: {why}"));
                    }
                }
            }
        }
        assert!(confusions.is_empty(), "{}", confusions.join("\n"));
        // The palette is the same on a light background (its text is black on every one).
        for k in 0..40 {
            assert_eq!(lens_key(k, Palette::Light), lens_key(k, Palette::Color));
        }
    }

    /// User presets look unlike every registry key (bold, on backgrounds of their own), and
    /// past the palette's end they take its user colours in turn.
    #[test]
    fn user_presets_are_set_apart_from_the_registry() {
        let registry: Vec<Style> = (0..12).map(|k| lens_key(k, Palette::Color)).collect();
        for k in 12..30 {
            let user = lens_key(k, Palette::Color);
            assert!(user.add_modifier.contains(Modifier::BOLD), "{k}");
            assert!(!registry.iter().any(|r| r.bg == user.bg), "{k}");
        }
        assert!(
            registry
                .iter()
                .all(|r| !r.add_modifier.contains(Modifier::BOLD))
        );
        assert_ne!(lens_key(12, Palette::Color), lens_key(13, Palette::Color));
        assert_eq!(lens_key(12, Palette::Color), lens_key(14, Palette::Color));
    }

    /// Black text reads on every lens background (contrast at least 7:1, WCAG AAA), and every
    /// background stands out from a white terminal and from a dark one.
    #[test]
    fn lens_backgrounds_carry_black_text_on_light_and_dark_terminals() {
        for k in 0..LENS.len() {
            let st = lens_key(k, Palette::Color);
            assert_eq!(st.fg, Some(Color::Black));
            let bg = rgb_of(st.bg.unwrap());
            assert!(contrast(bg, (0, 0, 0)) >= 7.0, "{k}: {bg:?}");
            for terminal in [(255, 255, 255), (0, 0, 0), (0x1c, 0x1c, 0x1c)] {
                let d = distance(bg, terminal, Vision::Typical);
                assert!(d >= 20.0, "{k}: {bg:?} on {terminal:?}: ΔE {d:.1}");
            }
        }
    }

    /// Regression: ack and short_hex were both cyan, verb and nudge both green, work_order,
    /// swarm_slot and every user preset yellow.
    #[test]
    fn no_two_registry_keys_share_a_background() {
        let bgs: std::collections::HashSet<_> =
            (0..13).map(|k| lens_key(k, Palette::Color).bg).collect();
        assert_eq!(bgs.len(), 13);
    }

    /// On a light background no text is drawn in the light inks (yellow, cyan, white): every
    /// foreground of text on the terminal's own background has a contrast of at least 4.5:1
    /// with white (WCAG AA). Matches and groups keep a background and an explicit foreground.
    #[test]
    fn the_light_palette_reads_on_white() {
        let kinds = [
            Kind::Match,
            Kind::Group(0),
            Kind::Group(1),
            Kind::Group(5),
            Kind::Location,
            Kind::Literal,
            Kind::Escape,
            Kind::Class,
            Kind::Group0,
            Kind::Quantifier,
            Kind::Anchor,
            Kind::Alternation,
            Kind::Backref,
            Kind::Comment,
            Kind::Error,
            Kind::Warning,
            Kind::Name,
        ];
        let chromes = [
            Chrome::Focused,
            Chrome::Unfocused,
            Chrome::Dim,
            Chrome::Error,
            Chrome::Pass,
            Chrome::Fail,
            Chrome::Selected,
            Chrome::Changed,
            Chrome::Marked,
        ];
        let styles = kinds
            .iter()
            .map(|&k| (format!("{k:?}"), style(k, Palette::Light)))
            .chain(
                chromes
                    .iter()
                    .map(|&c| (format!("{c:?}"), chrome(c, Palette::Light))),
            );
        let mut inks = 0;
        for (name, st) in styles {
            match (st.fg, st.bg) {
                (Some(fg), None) => {
                    let c = contrast(rgb_of(fg), (255, 255, 255));
                    assert!(c >= 4.5, "{name}: {fg:?} has {c:.2}:1 on white");
                    inks += 1;
                }
                (Some(_), Some(_)) => {}
                (None, Some(bg)) => panic!("{name}: a background {bg:?} without a foreground"),
                (None, None) => {}
            }
        }
        assert!(inks >= 10, "{inks}");
        // The dark palette keeps the terminal's own ANSI colours.
        assert_eq!(style(Kind::Class, Palette::Color).fg, Some(Color::Cyan));
        assert_eq!(
            style(Kind::Alternation, Palette::Color).fg,
            Some(Color::Yellow)
        );
        assert_eq!(
            chrome(Chrome::Marked, Palette::Color).fg,
            Some(Color::White)
        );
    }

    #[test]
    fn fit_brings_every_colour_to_the_depth() {
        let rgb = Color::Rgb(0xf2, 0x77, 0x7a);
        assert_eq!(fit(rgb, Depth::TrueColor), rgb);
        assert_eq!(fit(rgb, Depth::Ansi256), Color::Indexed(210));
        assert_eq!(fit(rgb, Depth::Ansi16), Color::LightRed);
        assert_eq!(
            fit(Color::Indexed(220), Depth::Ansi256),
            Color::Indexed(220)
        );
        assert_eq!(fit(Color::Indexed(220), Depth::Ansi16), Color::LightYellow);
        assert_eq!(fit(Color::Indexed(3), Depth::Ansi16), Color::Indexed(3));
        for named in [Color::Reset, Color::Cyan, Color::White] {
            assert_eq!(fit(named, Depth::Ansi16), named);
        }
        let mut buf = Buffer::empty(ratatui::layout::Rect::new(0, 0, 3, 1));
        buf[(0, 0)].set_fg(rgb).set_bg(Color::Rgb(0, 0, 0));
        buf[(1, 0)].underline_color = Color::Rgb(255, 255, 255);
        fit_buffer(&mut buf, Depth::Ansi256);
        assert_eq!(buf[(0, 0)].fg, Color::Indexed(210));
        assert_eq!(buf[(0, 0)].bg, Color::Indexed(16));
        assert_eq!(buf[(1, 0)].underline_color, Color::Indexed(231));
    }
}

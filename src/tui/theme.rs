//! The only place that turns highlight kinds into terminal styles.
//!
//! Matches and groups use a background with an explicit foreground, so they read the same
//! on dark and light terminals. With `NO_COLOR` set, styles use only modifiers (bold,
//! underline, reverse), never a colour.

use crate::highlight::Kind;
use ratatui::style::{Color, Modifier, Style};

/// Colour or not.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Palette {
    /// Colours.
    Color,
    /// Modifiers only (`NO_COLOR`).
    Mono,
}

impl Palette {
    /// `Mono` when `NO_COLOR` is set to anything non-empty.
    pub fn from_env() -> Palette {
        match std::env::var_os("NO_COLOR") {
            Some(v) if !v.is_empty() => Palette::Mono,
            _ => Palette::Color,
        }
    }
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
    match kind {
        Kind::Match => on(Color::Yellow),
        Kind::Group(n) => on(GROUP_BG[n % GROUP_BG.len()]),
        Kind::Location => Style::new().fg(Color::Green),
        Kind::Literal => Style::new(),
        Kind::Escape => Style::new().fg(Color::Magenta),
        Kind::Class => Style::new().fg(Color::Cyan),
        Kind::Group0 => Style::new().fg(Color::Blue).add_modifier(Modifier::BOLD),
        Kind::Quantifier => Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
        Kind::Anchor => Style::new().fg(Color::Green).add_modifier(Modifier::BOLD),
        Kind::Alternation => Style::new().fg(Color::Yellow).add_modifier(Modifier::BOLD),
        Kind::Backref => Style::new().fg(Color::Magenta).add_modifier(Modifier::BOLD),
        Kind::Comment => Style::new().add_modifier(Modifier::DIM),
        Kind::Error => Style::new()
            .fg(Color::Red)
            .add_modifier(Modifier::UNDERLINED | Modifier::BOLD)
            .underline_color(Color::Red),
        Kind::Warning => Style::new()
            .fg(Color::Yellow)
            .add_modifier(Modifier::UNDERLINED),
        Kind::Name => Style::new().fg(Color::Blue),
    }
}

/// Emphasis for the current match, layered over its match or group style.
pub fn current(palette: Palette) -> Modifier {
    match palette {
        Palette::Color => Modifier::BOLD | Modifier::UNDERLINED,
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
        };
    }
    match c {
        Chrome::Focused => Style::new().fg(Color::Cyan).add_modifier(Modifier::BOLD),
        Chrome::Unfocused => Style::new().add_modifier(Modifier::DIM),
        Chrome::Dim => Style::new().add_modifier(Modifier::DIM),
        Chrome::Error => Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
        Chrome::Pass => Style::new().fg(Color::Green).add_modifier(Modifier::BOLD),
        Chrome::Fail => Style::new().fg(Color::Red).add_modifier(Modifier::BOLD),
        Chrome::Selected => Style::new().add_modifier(Modifier::REVERSED),
        Chrome::Changed => on(Color::Green),
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
/// Backgrounds of the lens keys, one per preset in registry order (cycling past twelve).
const LENS_BG: [Color; 12] = [
    Color::Yellow,
    Color::Cyan,
    Color::Green,
    Color::Magenta,
    Color::LightBlue,
    Color::LightRed,
    Color::LightGreen,
    // #ffaf5f and #afafff as the 256-colour palette has them (not 24-bit colour).
    Color::Indexed(215),
    Color::LightMagenta,
    Color::LightCyan,
    Color::Indexed(147),
    Color::LightYellow,
];

/// The style of lens key `k`'s hits (and its swatch in the legend). Monochrome: reverse,
/// with underline or bold to tell neighbours apart.
pub fn lens_key(k: usize, palette: Palette) -> Style {
    if palette == Palette::Mono {
        return Style::new().add_modifier(match k % 3 {
            0 => Modifier::REVERSED,
            1 => Modifier::REVERSED | Modifier::UNDERLINED,
            _ => Modifier::REVERSED | Modifier::BOLD,
        });
    }
    on(LENS_BG[k % LENS_BG.len()])
}

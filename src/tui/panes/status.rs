//! The status bar: match count (exact, or counting), engine, scan time, warnings.

use super::super::action::Action;
use super::super::app::App;
use super::super::keymap::key_for;
use super::super::text::thousands;
use super::super::theme::{Chrome, chrome};
use crate::progress::percent;
use crate::progress::rate_text;
use ratatui::Frame;
use ratatui::layout::Rect;
use ratatui::text::{Line, Span};
use ratatui::widgets::Paragraph;

/// The match count as shown: `44 matches`, `1,024+ matches · counting… 37% · 610 MB/s · Esc
/// stops` (the rate once the scan has run 200 ms), or
/// `1,024+ matches · stopped at 37%` (the key from the keymap).
pub fn count_text(app: &App) -> String {
    let text = all_count_text(app);
    match app.shown_matches() {
        // The filters leave matches out: the shown ones first, then the whole count.
        Some(shown) if app.wb.shown_regex().is_some() => {
            let more = if app.filters.complete() { "" } else { "+" };
            format!("{}{more} shown of {text}", thousands(shown.len() as u64))
        }
        _ => text,
    }
}

/// The whole scan's count, as [`count_text`] says it without filters.
fn all_count_text(app: &App) -> String {
    let r = &app.wb.results;
    let n = r.shown_count();
    let noun = if n == 1 { "match" } else { "matches" };
    if app.wb.shown_regex().is_none() {
        return "no pattern".into();
    }
    if app.wb.input.paged_text().is_some_and(|p| !p.complete()) {
        // The input is still being indexed: the count covers the part indexed so far.
        return format!("{n}+ {noun}");
    }
    if app.loading.is_some() {
        // Only the file's first lines are in yet.
        format!("{n}+ {noun} · reading the file…")
    } else if app.wb.count_final() && r.steps > 0 {
        format!("{n} {noun}, {} steps", thousands(r.steps))
    } else if app.wb.count_final() {
        format!("{n} {noun}")
    } else if r.stopped {
        format!(
            "{n}+ {noun} · stopped at {}%",
            percent(r.scanned as u64, r.text_len as u64)
        )
    } else {
        let stop = key_for(&Action::Back)
            .map(|k| format!(" · {k} stops"))
            .unwrap_or_default();
        let rate = rate_text(r.rate());
        format!(
            "{n}+ {noun} · counting… {}%{rate}{stop}",
            percent(r.scanned as u64, app.wb.input.len() as u64)
        )
    }
}

/// The progress of the Lens, Jobs and Timeline passes while they run (`lens 37% · 610 MB/s
/// · Esc stops`, the rate once a pass has run 200 ms); `None` when none runs.
pub fn views_text(app: &App) -> Option<String> {
    use crate::workbench::jobs_view::JobsState;
    use crate::workbench::lens::LensState;
    use crate::workbench::timeline_view::TimelineState;
    let len = app.wb.input.len();
    let rate = rate_text;
    let mut parts = Vec::new();
    if let LensState::Scanning(at) = app.wb.lens.state() {
        parts.push(format!(
            "lens {}%{}",
            percent(at as u64, len as u64).min(99),
            rate(app.wb.lens.rate())
        ));
    }
    if let JobsState::Reading(at) = app.wb.jobs.state() {
        parts.push(format!(
            "jobs {}%{}",
            percent(at as u64, len as u64).min(99),
            rate(app.wb.jobs.rate())
        ));
    }
    if let TimelineState::Computing(at) = app.wb.timeline.state() {
        parts.push(format!(
            "timeline {}%{}",
            percent(at as u64, len as u64).min(99),
            rate(app.wb.timeline.rate())
        ));
    }
    if parts.is_empty() {
        return None;
    }
    if let Some(k) = key_for(&Action::Back) {
        parts.push(format!("{k} stops"));
    }
    Some(parts.join(" · "))
}

/// The progress of indexing a paged input (`indexing 42% · 610 MB/s`, with each log's share
/// for a merged input) and where its spill lives; `None` for an input held in memory.
pub fn paged_text(app: &App) -> Option<String> {
    let paged = app.wb.input.paged_text()?;
    let prog = paged.progress();
    let mut parts = Vec::new();
    // A paged input is searched in chunks of whole lines, and what a chunk leaves unsettled
    // is carried into the next: say so when that could not be done (a look-behind of
    // unbounded length, or more kept than the carry allows), as a match across two chunks is
    // then not seen.
    let unbounded_look_behind = app.wb.compiled().is_ok_and(|re| {
        crate::engine::growth::Reach::of(re) != crate::engine::growth::Reach::Line
            && crate::engine::growth::look_behind(re.ast()).is_none()
    });
    if unbounded_look_behind || app.wb.results.inexact || app.wb.lens.inexact() {
        // Chunks are 4 MiB of lines, or 16 MiB pieces of a longer line.
        parts.push("⚠ matches across two chunks may be missed".into());
    }
    if !prog.done {
        let how_far = match prog.fraction() {
            Some(f) => format!("{:.0}%", f * 100.0),
            None => format!("{} MB", prog.indexed / 1_000_000),
        };
        let rate = prog.indexed as f64 / prog.elapsed.as_secs_f64().max(1e-3) / 1e6;
        parts.push(format!("indexing {how_far} · {rate:.0} MB/s"));
        if prog.sources.len() > 1 {
            let per: Vec<String> = prog
                .sources
                .iter()
                .map(|(name, consumed, size)| {
                    let tag = crate::tui::gutter::short_tag(name);
                    match size {
                        Some(s) if *s > 0 => {
                            format!("{tag} {}%", percent(*consumed, *s))
                        }
                        _ => format!("{tag} {} MB", consumed / 1_000_000),
                    }
                })
                .collect();
            parts.push(per.join(" "));
        }
    } else {
        parts.push(format!(
            "paged: {} MB in {:.1} s",
            prog.indexed / 1_000_000,
            prog.elapsed.as_secs_f64()
        ));
    }
    if let Some((path, bytes)) = paged.spill() {
        parts.push(format!(
            "spill {} MB in {} (unlinked: freed on exit)",
            bytes / 1_000_000,
            path.display()
        ));
    }
    Some(parts.join(" · "))
}

/// The warnings of reading a paged input as one part of the status bar: the one warning, or
/// for several (logs that broke part way, invalid UTF-8) their number and what each is about
/// first, so that a narrow terminal still shows that there are several, then the first in
/// full.
fn warnings_text(warnings: &[String]) -> Option<String> {
    match warnings {
        [] => None,
        [one] => Some(one.clone()),
        [first, ..] => {
            // What each is about: the log it names (the words before the first ": "), or
            // its first words.
            let about: Vec<&str> = warnings
                .iter()
                .map(|w| match w.split_once(": ") {
                    Some((name, _)) if name.len() <= 60 => name,
                    _ => w.split(':').next().unwrap_or(w),
                })
                .collect();
            Some(format!(
                "{} problems reading the input ({}) · the first: {first}",
                warnings.len(),
                about.join(", ")
            ))
        }
    }
}

/// Draws the status bar.
pub fn render(f: &mut Frame, app: &App, area: Rect) {
    let p = app.palette;
    let wb = &app.wb;
    let r = &wb.results;
    let mut spans = vec![Span::styled(
        format!(" {} ", count_text(app)),
        chrome(Chrome::Selected, p),
    )];
    let filters = app.filter_labels();
    if !filters.is_empty() {
        // Each filter on, by name; Alt-k opens the panel that changes or removes each. When
        // the names and the answer to the last action do not both fit, the answer wins and
        // the filters are counted.
        let key = key_for(&Action::Filters).unwrap_or_default();
        let named = format!(" filters: {} ({key}) ", filters.join(" · "));
        let width = |t: &str| t.chars().count();
        let needed = width(&spans[0].content)
            + width(&named)
            + app.message.as_deref().map_or(0, |m| width(m) + 2);
        let text = if app.message.is_some() && needed > area.width as usize {
            let n = filters.len();
            format!(" {n} filter{} ({key}) ", if n == 1 { "" } else { "s" })
        } else {
            named
        };
        spans.push(Span::styled(text, chrome(Chrome::Changed, p)));
    }
    if let Some(fleet) = app.fleet_label() {
        spans.push(Span::styled(
            format!(" {fleet} "),
            chrome(Chrome::Changed, p),
        ));
    }
    // The answer to the user's last action comes before what stays the same (the engine, the
    // scan's time): a long status line is cut at its end, and it must not be cut off.
    if let Some(m) = &app.message {
        spans.push(Span::raw(format!(" {m} ")));
    }
    if let Some(views) = views_text(app) {
        spans.push(Span::styled(format!(" {views} "), chrome(Chrome::Dim, p)));
    }
    if let Some(e) = wb.engine() {
        spans.push(Span::styled(
            format!(" {} ", e.name()),
            chrome(Chrome::Dim, p),
        ));
    }
    if let Some(note) = app.shown_tab().status() {
        spans.push(Span::styled(note, chrome(Chrome::Dim, p)));
    }
    if let Some(t) = r.elapsed {
        spans.push(Span::styled(
            format!(" scan {:.1} ms ", t.as_secs_f64() * 1000.0),
            chrome(Chrome::Dim, p),
        ));
    }
    if let Some(e) = &r.error {
        spans.push(Span::styled(
            format!(" ⚠ {} ", e.message),
            chrome(Chrome::Error, p),
        ));
    }
    if wb.compiling() {
        spans.push(Span::styled(
            " compiling the pattern… ",
            chrome(Chrome::Dim, p),
        ));
    }
    if wb.stale() {
        spans.push(Span::styled(
            " ⚠ pattern invalid: showing the last good matches, dimmed ",
            chrome(Chrome::Error, p),
        ));
    }
    if let Some(path) = app.wb.exporting() {
        spans.push(Span::styled(
            format!(" exporting to {}… ", path.display()),
            chrome(Chrome::Dim, p),
        ));
    }
    if let Some(e) = &app.save_error {
        spans.push(Span::styled(format!(" ⚠ {e} "), chrome(Chrome::Error, p)));
    }
    if let Some(w) = &app.input_warning {
        spans.push(Span::styled(format!(" ⚠ {w} "), chrome(Chrome::Error, p)));
    }
    if let Some(w) = wb
        .input
        .paged_text()
        .and_then(|t| warnings_text(&t.warnings()))
    {
        spans.push(Span::styled(format!(" ⚠ {w} "), chrome(Chrome::Error, p)));
    }
    if let Some(progress) = paged_text(app) {
        spans.push(Span::styled(
            format!(" {progress} "),
            chrome(Chrome::Dim, p),
        ));
    }
    f.render_widget(Paragraph::new(Line::from(spans)), area);
}

#[cfg(test)]
mod unit {
    use super::*;

    /// Regression: several broken archives each took a part of the status bar, so a narrow
    /// terminal showed the first and nothing said there were more.
    #[test]
    fn several_warnings_say_how_many_and_of_what_first() {
        assert_eq!(warnings_text(&[]), None);
        let one = "a.log.gz: the gzip data is truncated; showing what was read".to_string();
        assert_eq!(warnings_text(std::slice::from_ref(&one)), Some(one.clone()));
        let several = [
            one.clone(),
            "logs/b.log.zst: the zstd data is corrupt; showing what was read".to_string(),
            "input is not valid UTF-8: 3 invalid sequences replaced".to_string(),
        ];
        assert_eq!(
            warnings_text(&several).unwrap(),
            format!(
                "3 problems reading the input (a.log.gz, logs/b.log.zst, input is not valid UTF-8) · the first: {one}"
            )
        );
    }
}

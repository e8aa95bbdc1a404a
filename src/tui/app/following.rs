//! The workbench following its input as it grows: one file (`rxw -f LOG`), or several merged
//! in time order (`rxw -f a.log b.log`, a directory or a glob), and a paged input's growth.

use super::App;
use crate::workbench::follow::{FleetFollower, FleetLog, FollowEvent, Follower, Reload};

impl App {
    /// Starts following `follower`'s file (or only keeps it, for Ctrl-F later, when `on` is
    /// false). Following starts with the view at the end.
    pub fn set_follower(&mut self, follower: Follower, on: bool) {
        self.follower = Some(follower);
        self.following = false;
        if on {
            self.toggle_follow();
        }
    }

    /// Follows the merged logs `logs` (opened as one input) from where each stands; the
    /// view goes to the end. `on` false keeps them for Ctrl-F.
    pub fn set_fleet(&mut self, logs: &[FleetLog], on: bool) {
        let names = logs.iter().map(|l| l.path.display().to_string()).collect();
        let shown = logs.iter().filter_map(|l| l.time).max();
        self.fleet = Some((FleetFollower::new(logs, shown), names));
        self.following = false;
        if on {
            self.toggle_follow();
        }
    }

    /// What the status bar says while merged logs are followed: how many, and the rule for
    /// a record stamped before what is shown, with its count.
    pub fn fleet_label(&self) -> Option<String> {
        let (fleet, names) = self.fleet.as_ref().filter(|_| self.following)?;
        Some(format!(
            "following {} logs merged · late records shown at arrival: {}",
            names.len(),
            fleet.late()
        ))
    }

    pub(super) fn toggle_follow(&mut self) {
        let name = match &self.fleet {
            Some((_, names)) => Some(format!("{} logs merged", names.len())),
            None => self
                .follower
                .as_ref()
                .map(|f| f.path().display().to_string()),
        };
        if self.following {
            self.following = false;
            self.message = Some(format!("stopped following {}", name.unwrap_or_default()));
            return;
        }
        if self.loading.is_some() {
            self.message = Some("the file is still being read: Ctrl-F again once it is in".into());
            return;
        }
        let file_input = matches!(self.wb.source, crate::workbench::InputSource::File(_));
        match name {
            Some(name) if file_input && !self.wb.input.edited() => {
                self.following = true;
                self.tail = true;
                self.scroll_to_end();
                self.tick();
                self.message = Some(format!("following {name} (Ctrl-F stops)"));
            }
            Some(_) if file_input || self.wb.input.edited() => {
                self.message =
                    Some("the input was edited: reopen the file to follow it (rxw -f FILE)".into())
            }
            _ => self.message = Some("only a file input can be followed: rxw -f FILE".into()),
        }
    }

    /// The timer's work: reads what a followed file gained (or reloads it after truncation or
    /// rotation, said in the status bar) and matches the new text. Returns whether anything
    /// changed on screen.
    pub fn tick(&mut self) -> bool {
        if !self.following {
            return false;
        }
        if self.fleet.is_some() {
            let changed = self.poll_fleet();
            self.run_deferred();
            return changed;
        }
        let Some(follower) = self.follower.as_mut() else {
            return false;
        };
        let name = follower.path().display().to_string();
        if let Some(paged) = self.wb.input.paged_text().cloned() {
            let changed = self.grow_paged(&paged, &name);
            self.run_deferred();
            return changed;
        }
        let changed = match follower.poll() {
            FollowEvent::Unchanged => false,
            FollowEvent::Appended(text) => {
                // Stick to the end when the view is there now (the user did not scroll up).
                let stick = self.at_end();
                self.tail = stick;
                self.wb.append_input(&text);
                if stick {
                    self.scroll_to_end();
                }
                true
            }
            FollowEvent::Reloaded { text, why } => {
                self.tail = self.at_end();
                self.wb.input.replace_all(text);
                self.reset_selection();
                self.deferred.input = true;
                if self.tail {
                    self.scroll_to_end();
                } else {
                    self.clamp_input_top();
                }
                self.message = Some(match why {
                    Reload::Truncated => {
                        format!("{name} was truncated: reloaded, following from its start")
                    }
                    Reload::Rotated => {
                        format!("{name} was replaced (rotated): following the new file")
                    }
                });
                true
            }
            FollowEvent::Missing => {
                self.message = Some(format!(
                    "{name} is gone (rotated?): waiting for a file at that path"
                ));
                true
            }
            FollowEvent::NotRegular(kind) => {
                self.message = Some(format!(
                    "{name} is {kind} now, not a regular file: not read; waiting for a regular file at that path"
                ));
                true
            }
            FollowEvent::Failed(e) => {
                self.message = Some(format!("cannot read {name}: {e}"));
                true
            }
        };
        self.run_deferred();
        changed
    }

    /// Following merged logs: appends the records they wrote, in the order the
    /// [`FleetFollower`] hands them out (time order; a late one at arrival, said), each
    /// run of lines tagged with its log in the source gutter, so the filters, the Lens, the
    /// Jobs and the Timeline take them in as a followed file's growth.
    pub(super) fn poll_fleet(&mut self) -> bool {
        let Some((fleet, names)) = self.fleet.as_mut() else {
            return false;
        };
        let poll = fleet.poll();
        let mut said: Vec<String> = Vec::new();
        for (k, why) in &poll.reloaded {
            said.push(format!(
                "{} was {}: read again from its start, its lines appended below",
                names[*k],
                match why {
                    Reload::Truncated => "truncated",
                    Reload::Rotated => "replaced (rotated)",
                }
            ));
        }
        for (k, event) in &poll.notices {
            let name = &names[*k];
            said.push(match event {
                FollowEvent::Missing => {
                    format!("{name} is gone (rotated?): waiting for a file at that path")
                }
                FollowEvent::NotRegular(kind) => {
                    format!("{name} is {kind} now, not a regular file: not read")
                }
                FollowEvent::Failed(e) => format!("cannot read {name}: {e}"),
                FollowEvent::Unchanged
                | FollowEvent::Appended(_)
                | FollowEvent::Reloaded { .. } => continue,
            });
        }
        if poll.arrivals.iter().any(|a| a.late) {
            said.push(format!(
                "{} (stamped before what is shown: put at the end, not among the lines above)",
                fleet.late_note().unwrap_or_default()
            ));
        }
        let changed = !said.is_empty() || !poll.arrivals.is_empty();
        if !said.is_empty() {
            self.message = Some(said.join(" · "));
        }
        if poll.arrivals.is_empty() {
            return changed;
        }
        let mut text = String::new();
        if !self.wb.input.is_empty() && !self.wb.input.ends_with_newline() {
            text.push('\n');
        }
        let before = self.wb.input.revision();
        // The merged line (from 0) each arrival starts on, its log and its own line.
        let mut line = self.wb.input.line_of(self.wb.input.len()) + text.len();
        let mut runs = Vec::with_capacity(poll.arrivals.len());
        for a in &poll.arrivals {
            runs.push((line, a.source, a.line));
            line += a.text.matches('\n').count();
            text.push_str(&a.text);
        }
        let stick = self.at_end();
        self.tail = stick;
        self.wb.append_input(&text);
        if let Some(g) = self.sources.as_mut().filter(|g| g.revision == before) {
            g.runs.extend(runs);
            g.revision = self.wb.input.revision();
        }
        if stick {
            self.scroll_to_end();
        }
        true
    }

    /// Following a paged input: indexes what its file gained and scans it from the resume
    /// point (the pages grow in place; nothing is read into memory). A file that shrank is
    /// no longer followed: reopen it.
    pub(super) fn grow_paged(
        &mut self,
        paged: &crate::input::paged::PagedText,
        name: &str,
    ) -> bool {
        use crate::input::paged::Growth;
        match paged.grow() {
            Ok(Growth::Appended) => {
                // Stick to the end when the view is there now (the user did not scroll up).
                let stick = self.at_end();
                self.tail = stick;
                self.wb.refresh_paged_input();
                if stick {
                    self.scroll_to_end();
                }
                true
            }
            Ok(Growth::Unchanged | Growth::NotFollowable) => false,
            Ok(Growth::Shrunk) => {
                self.following = false;
                self.message = Some(format!(
                    "{name} shrank (truncated or replaced): stopped following; reopen it to read it again"
                ));
                true
            }
            Err(e) => {
                self.message = Some(format!("cannot read {name}: {}", e.message));
                true
            }
        }
    }
}

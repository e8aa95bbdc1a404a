//! A real terminal for end-to-end tests: tmux, on a server of the test's own (`tmux -L`), so
//! that tests running at once never share a server (one test's last session ending cannot stop
//! another's server) and a test's end kills only what it started.
//!
//! ```no_run
//! use rxw_testkit::tmux::Terminal;
//! let Some(t) = Terminal::start("demo", 120, 34, "rxw --fresh") else {
//!     return; // tmux is not installed: said by rxw_testkit::missing
//! };
//! t.expect("44 matches");
//! t.keys(&["M-2"]);
//! ```

use std::process::{Command, Output};
use std::time::{Duration, Instant};

/// How long a wait for a screen lasts at most. Generous: under the whole suite's load a debug
/// build has needed more than 20 s for a screen; the wait ends as soon as the screen is there,
/// so it times nothing.
pub const WAIT: Duration = Duration::from_secs(60);

/// Whether tmux runs here; when not, [`crate::missing`] says so with `consequence` (a failure
/// under `RXW_REQUIRE_ORACLES=1`).
pub fn available(consequence: &str) -> bool {
    crate::have("tmux", &["-V"], consequence)
}

/// One tmux session running a command, on a server of its own; the server is killed when this
/// is dropped (also when an assertion fails).
pub struct Terminal {
    socket: String,
    session: String,
    /// The server's socket file, removed at the end (tmux leaves it behind when its last
    /// session ends).
    socket_path: Option<std::path::PathBuf>,
}

impl Terminal {
    /// Starts `command` (run by tmux's shell) in a detached session of `cols` x `rows` cells,
    /// reading no tmux configuration, on the server `rxw-<tag>-<pid>`. `None` when tmux is
    /// missing ([`available`]).
    ///
    /// # Panics
    ///
    /// When tmux is there but does not start the session.
    pub fn start(tag: &str, cols: u16, rows: u16, command: &str) -> Option<Terminal> {
        if !available(&format!("the {tag} terminal test is skipped")) {
            return None;
        }
        let mut t = Terminal {
            socket: format!("rxw-{tag}-{}", std::process::id()),
            session: tag.to_string(),
            socket_path: None,
        };
        let (cols, rows) = (cols.to_string(), rows.to_string());
        let out = t.tmux(&[
            "-f",
            "/dev/null",
            "new-session",
            "-d",
            "-s",
            tag,
            "-x",
            &cols,
            "-y",
            &rows,
            command,
        ]);
        assert!(
            out.status.success(),
            "tmux did not start the session: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let path = t.tmux(&["display-message", "-p", "#{socket_path}"]).stdout;
        let path = String::from_utf8_lossy(&path).trim().to_string();
        t.socket_path = (!path.is_empty()).then(|| path.into());
        Some(t)
    }

    /// Runs `tmux -L <socket> ARGS`: its answer.
    ///
    /// # Panics
    ///
    /// When tmux cannot be run.
    pub fn tmux(&self, args: &[&str]) -> Output {
        Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux runs")
    }

    /// The screen as text, one line a row.
    pub fn screen(&self) -> String {
        String::from_utf8_lossy(
            &self
                .tmux(&["capture-pane", "-p", "-t", &self.session])
                .stdout,
        )
        .into_owned()
    }

    /// Polls the screen until `ready` holds ([`WAIT`] at most): the last screen, and whether
    /// it held.
    pub fn wait(&self, ready: impl Fn(&str) -> bool) -> (String, bool) {
        let deadline = Instant::now() + WAIT;
        loop {
            let s = self.screen();
            if ready(&s) {
                return (s, true);
            }
            if Instant::now() > deadline {
                return (s, false);
            }
            std::thread::sleep(Duration::from_millis(20));
        }
    }

    /// Waits for `what` on screen: the screen.
    ///
    /// # Panics
    ///
    /// When it never shows, with the last screen.
    pub fn expect(&self, what: &str) -> String {
        let (s, ok) = self.wait(|s| s.contains(what));
        assert!(ok, "expected {what:?} on screen:\n{s}");
        s
    }

    /// Sends keys by tmux's names (`"C-u"`, `"M-2"`, `"F1"`, `"BTab"`, `"Up"`).
    pub fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", self.session.as_str()];
        args.extend_from_slice(keys);
        self.tmux(&args);
    }

    /// Sends `keys` ([`Terminal::keys`]), then waits for `then` on screen
    /// ([`Terminal::expect`]): the screen.
    pub fn press(&self, keys: &[&str], then: &str) -> String {
        self.keys(keys);
        self.expect(then)
    }

    /// Types `text` as keys, literally.
    pub fn type_text(&self, text: &str) {
        self.tmux(&["send-keys", "-t", &self.session, "-l", text]);
    }

    /// Pastes `text` as a terminal does when the application asked for bracketed paste (tmux's
    /// `paste-buffer -p`): the text arrives between the paste markers, line breaks and all.
    pub fn paste(&self, text: &str) {
        let buffer = format!("{}-paste", self.session);
        let set = self.tmux(&["set-buffer", "-b", &buffer, "--", text]);
        assert!(
            set.status.success(),
            "{}",
            String::from_utf8_lossy(&set.stderr)
        );
        self.tmux(&[
            "paste-buffer",
            "-p",
            "-d",
            "-b",
            &buffer,
            "-t",
            &self.session,
        ]);
    }

    /// The cursor's cell, `(column, row)` from 0.
    pub fn cursor(&self) -> (u16, u16) {
        let out = self.tmux(&[
            "display-message",
            "-p",
            "-t",
            &self.session,
            "#{cursor_x} #{cursor_y}",
        ]);
        let text = String::from_utf8_lossy(&out.stdout);
        let mut n = text.split_whitespace().map(|v| v.parse().unwrap_or(0));
        (n.next().unwrap_or(0), n.next().unwrap_or(0))
    }

    /// Whether the session still runs (its command has not ended).
    pub fn running(&self) -> bool {
        self.tmux(&["has-session", "-t", &self.session])
            .status
            .success()
    }

    /// Waits ([`WAIT`] at most) for the session's command to end: whether it did.
    pub fn wait_for_exit(&self) -> bool {
        let deadline = Instant::now() + WAIT;
        while self.running() {
            if Instant::now() > deadline {
                return false;
            }
            std::thread::sleep(Duration::from_millis(20));
        }
        true
    }
}

impl Drop for Terminal {
    fn drop(&mut self) {
        let _ = self.tmux(&["kill-server"]);
        if let Some(path) = &self.socket_path {
            let _ = std::fs::remove_file(path);
        }
    }
}

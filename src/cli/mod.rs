//! The command line: clap arguments, and commands that print to any `Write`.
//!
//! Exit codes follow grep: 0 a match (or success), 1 no match, 2 an error. A closed pipe
//! (`rxw find … | head`) ends quietly with 0.

pub mod audit;
pub mod code;
pub mod debug;
pub mod explain;
pub mod find;
mod follow;
pub mod inputs;
pub mod jobs;
pub mod match_line;
pub mod preset;
pub mod progress;
pub mod redos;
pub mod reference;
pub mod registry;
pub mod style;
pub mod timeline;

use crate::error::Error;
use crate::flavor::{Flags, Flavor};
use crate::input::Text;
use clap::{Args, Parser, Subcommand, ValueEnum};
use std::io::{self, IsTerminal, Write};
use std::path::PathBuf;

/// `v` as one line of JSON. The wire types are structs and maps with string keys, which
/// always serialize (as `json!` assumes too).
pub(crate) fn to_json<T: serde::Serialize + ?Sized>(v: &T) -> String {
    serde_json::to_string(v).expect("wire types serialize")
}

/// rxw: a terminal regex workbench.
#[derive(Debug, Parser)]
#[command(name = "rxw", version, about, long_about = None, args_conflicts_with_subcommands = true)]
pub struct Cli {
    /// A subcommand; without one, the interactive workbench opens.
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Options for the interactive workbench.
    #[command(flatten)]
    pub tui: TuiArgs,
}

/// Start state of the workbench.
#[derive(Debug, Args, Default, Clone)]
pub struct TuiArgs {
    /// A file to open in the input pane (default: the embedded demo log, or standard input
    /// when it is piped). gzip, zstd, bzip2 and xz files are decoded.
    pub file: Option<PathBuf>,
    /// More logs: with them, all are opened as one input merged by each line's leading
    /// timestamp (files, directories, globs).
    #[arg(value_name = "MORE")]
    pub more: Vec<PathBuf>,
    /// Start with this pattern.
    #[arg(short = 'e', long = "regexp")]
    pub pattern: Option<String>,
    /// The flavor (help written from the flavor table).
    #[arg(long, help = flavor_help(), value_parser = parse_flavor)]
    pub flavor: Option<Flavor>,
    /// Start with these flag letters.
    #[arg(long)]
    pub flags: Option<String>,
    /// Start with this preset loaded.
    #[arg(long)]
    pub preset: Option<String>,
    /// Do not restore the previous session.
    #[arg(long)]
    pub fresh: bool,
    /// Follow FILE as it grows (as `tail -F`): appended lines are matched as they arrive, and
    /// truncation or rotation is followed to the new file. Ctrl-F toggles it in the workbench.
    /// With MORE logs (files, directories, globs), all are followed merged: new records are
    /// appended in time order, a record stamped before what is shown is appended at arrival
    /// and counted in the status bar, each log's truncation and rotation are followed.
    #[arg(short = 'f', long, requires = "file")]
    pub follow: bool,
    /// Print the pattern on standard output when Enter accepts it in the pattern pane, for
    /// pipelines and `PAT=$(rxw -p)`, as fzf does: `--print=json` prints
    /// `{"pattern", "flavor", "flags"}`; Ctrl-C (or `q` in the results) prints nothing and
    /// exits 130. With standard output redirected this is the default: the workbench draws on
    /// the terminal itself and prints the pattern where the output goes.
    #[arg(short = 'p', long, value_enum, num_args = 0..=1, default_missing_value = "text", require_equals = true)]
    pub print: Option<PrintArg>,
    /// Colours for a light or a dark terminal background. `auto` asks the terminal for its
    /// background colour (OSC 11, answered within 100 ms or not at all), then reads
    /// `COLORFGBG`, else takes dark. 24-bit colours are drawn only when `COLORTERM` is
    /// `truecolor` or `24bit` (256 colours otherwise, 16 for `TERM=linux`); `NO_COLOR` draws
    /// none.
    #[arg(long, value_enum, default_value_t = ThemeArg::Auto)]
    pub theme: ThemeArg,
}

/// `--theme` choices.
#[derive(Debug, Clone, Copy, ValueEnum, Default, PartialEq, Eq)]
pub enum ThemeArg {
    /// From the terminal's answer, else `COLORFGBG`, else dark.
    #[default]
    Auto,
    /// Colours for a light background.
    Light,
    /// Colours for a dark background.
    Dark,
}

/// How `--print` prints the accepted pattern.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum PrintArg {
    /// The pattern, one line.
    Text,
    /// `{"pattern": …, "flavor": …, "flags": …}`, one line.
    Json,
}

impl From<TuiArgs> for crate::tui::Options {
    fn from(a: TuiArgs) -> crate::tui::Options {
        crate::tui::Options {
            file: a.file,
            pattern: a.pattern,
            flavor: a.flavor,
            flags: a.flags,
            preset: a.preset,
            fresh: a.fresh,
            follow: a.follow,
            more: a.more,
            print: a.print.map(|p| match p {
                PrintArg::Text => crate::tui::pipeline::PrintFormat::Text,
                PrintArg::Json => crate::tui::pipeline::PrintFormat::Json,
            }),
            theme: match a.theme {
                ThemeArg::Auto => crate::tui::theme::ThemeChoice::Auto,
                ThemeArg::Light => crate::tui::theme::ThemeChoice::Light,
                ThemeArg::Dark => crate::tui::theme::ThemeChoice::Dark,
            },
        }
    }
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Does the pattern match? Exit 0 when it does, 1 when not.
    Test(TestArgs),
    /// List every match with its line:column and groups.
    Find(FindArgs),
    /// Replace every match, in the flavor's replacement syntax.
    Replace(ReplaceArgs),
    /// Explain what the pattern means, node by node, without running it; lints included.
    Explain(explain::ExplainArgs),
    /// Show how the matcher runs the pattern: a step-by-step trace, or a summary with the
    /// hottest nodes and positions and how the steps grow (linear, polynomial, exponential).
    Debug(debug::DebugArgs),
    /// Does the pattern backtrack catastrophically? A verdict (linear, polynomial,
    /// exponential) proved by the matcher's steps on an attack string; exit 0 linear, 1
    /// polynomial or exponential.
    Redos(redos::RedosArgs),
    /// The N paths x M patterns matrix: which files contain which strings (✅ ❌ ⚠️).
    Audit(audit::AuditArgs),
    /// The preset registry (NetVM patterns and your own): list, show, test, get, check.
    Preset(preset::PresetArgs),
    /// Run every preset over the text in one pass; hits in text order.
    Parse(preset::ParseArgs),
    /// The registry on a fleet's engines: export the presets to ClickHouse, DuckDB, Vector,
    /// Loki, Elasticsearch or Spark (exact, rewritten or refused), and verify them there.
    Registry(registry::RegistryCommandArgs),
    /// A ready program (rust, python, js, go, java, csharp, ruby) that prints every match of the
    /// pattern in standard input; refuses (exit 2) what the target would mean differently.
    Code(code::CodeArgs),
    /// A pattern generated from example lines (arguments, or standard input): at most 1,000
    /// lines of at most 1,000 bytes, 64 KB in all, generated within 10 seconds.
    Generate(code::GenerateArgs),
    /// Run a tests file (exit 0 all pass, 1 a failure, 2 an error), or export it.
    Tests(code::TestsArgs),
    /// One row per job id from the protocol tags (WO, ACK, CLAIM, RESULT, …) of a log.
    Jobs(jobs::JobsArgs),
    /// Matches per time bucket (from the lines' leading timestamps) as a bar chart.
    Timeline(timeline::TimelineArgs),
    /// Serve the regex, regex_parse, grep_audit and regex_redos tools to AI agents over MCP on
    /// stdio.
    #[cfg(feature = "mcp")]
    Mcp(McpArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish) on stdout.
    Completions {
        /// The shell to complete for.
        shell: clap_complete::Shell,
    },
    /// Print a man page (roff) on stdout: `rxw man > rxw.1`, `rxw man find > rxw-find.1`.
    Man {
        /// A subcommand whose own page to print (default: the rxw page, which lists them all).
        subcommand: Option<String>,
    },
}

/// `rxw mcp`.
#[derive(Debug, Args)]
pub struct McpArgs {
    /// A directory grep_audit may read (repeatable; default: the working directory). Paths
    /// outside every root, by `..` or through a link, are warning rows, never read.
    #[arg(long = "root", value_name = "DIR")]
    pub roots: Vec<PathBuf>,
}

/// `--color` choices.
#[derive(Debug, Clone, Copy, ValueEnum, Default, PartialEq, Eq)]
pub enum ColorChoice {
    /// Colour when standard output is a terminal and NO_COLOR is unset.
    #[default]
    Auto,
    /// Always colour.
    Always,
    /// Never colour.
    Never,
}

/// The flavor and its flag letters, as `rxw explain`, `rxw debug` and `rxw redos` take them.
#[derive(Debug, Args, Clone)]
pub struct FlavorArgs {
    /// The flavor (help written from the flavor table).
    #[arg(long, default_value = "python", help = flavor_help(), value_parser = parse_flavor)]
    pub flavor: Flavor,
    /// Flag letters (help written from the flavor table).
    #[arg(long, help = flags_help(), default_value = "")]
    pub flags: String,
}

impl FlavorArgs {
    /// The flag letters read in the flavor.
    ///
    /// # Errors
    /// A letter the flavor has no flag for.
    pub fn flags(&self) -> Result<Flags, Error> {
        flags_for(&self.flags, self.flavor)
    }
}

/// Options shared by the matching commands.
#[derive(Debug, Args, Clone)]
pub struct PatternArgs {
    /// The flavor (help written from the flavor table).
    #[arg(long, default_value = "python", help = flavor_help(), value_parser = parse_flavor)]
    pub flavor: Flavor,
    /// Flag letters (help written from the flavor table).
    #[arg(long, help = flags_help(), default_value = "")]
    pub flags: String,
    /// A file to read, as a PATH after the pattern is (kept for scripts written before paths
    /// were positional; `-`: standard input). Repeat it, or name a directory or a glob, to
    /// read many logs as one, merged by each line's leading timestamp. gzip, zstd, bzip2 and
    /// xz files are decoded (told by their first bytes).
    #[arg(long, value_name = "PATH")]
    pub file: Vec<PathBuf>,
    /// Print JSON.
    #[arg(long)]
    pub json: bool,
    /// When to colour the output.
    #[arg(long, value_enum, default_value_t)]
    pub color: ColorChoice,
    /// Print the engine used, the number of matches and the time on standard error.
    #[arg(long)]
    pub stats: bool,
    /// Most decoded bytes a text read whole may hold in memory (`512M`, `2G`; 0: no cap;
    /// default: a quarter of the memory available). A decompression bomb stops there, said.
    #[arg(long, value_name = "SIZE", value_parser = crate::input::room::parse_size)]
    pub max_decoded: Option<u64>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub budget: BudgetArgs,
}

/// The total budget of one scan: whatever the pattern does at each position, a scan ends
/// with an error naming the budget instead of running on.
#[derive(Debug, Args, Clone)]
pub struct BudgetArgs {
    /// Most backtracking steps for the whole scan, every search attempt included (0: no
    /// limit); each attempt also has its own budget of a million steps.
    #[arg(long, value_name = "N", default_value_t = crate::Limits::HUMAN_TOTAL_STEPS)]
    pub max_total_steps: u64,
    /// Stop the scan after this many seconds (0: no limit).
    #[arg(long, value_name = "SECS", default_value_t = 0.0, value_parser = parse_seconds)]
    pub timeout: f64,
}

fn parse_seconds(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if (0.0..1e9).contains(&v) => Ok(v),
        _ => Err(format!("{s:?} is not a number of seconds (0 or more)")),
    }
}

impl BudgetArgs {
    /// The human limits with this budget.
    pub fn limits(&self) -> crate::Limits {
        let mut limits = crate::Limits::human();
        limits.max_total_steps = (self.max_total_steps > 0).then_some(self.max_total_steps);
        limits.time_budget =
            (self.timeout > 0.0).then(|| std::time::Duration::from_secs_f64(self.timeout));
        limits
    }

    /// A scan's error, with the option that raises the budget it ran out of named.
    pub fn explain(&self, e: impl Into<Error>) -> Error {
        use crate::ErrorKind;
        let e = e.into();
        match e.kind {
            ErrorKind::BacktrackLimit
                if e.message.contains(crate::engine::TOTAL_STEPS_EXCEEDED) =>
            {
                // The engine counts a chunk of the input at a time: say it for the scan (a
                // preset's key before it stays).
                let what = e
                    .message
                    .split(crate::engine::TOTAL_STEPS_EXCEEDED)
                    .next()
                    .unwrap_or("");
                let message = format!(
                    "{what}{}: the scan took more than {} matcher steps over all its search attempts (--max-total-steps {}; raise it, or 0 for no limit)",
                    crate::engine::TOTAL_STEPS_EXCEEDED,
                    self.max_total_steps,
                    self.max_total_steps
                );
                Error { message, ..e }
            }
            ErrorKind::TimedOut if self.timeout > 0.0 => Error {
                message: format!(
                    "the scan ran out of time: --timeout {} s (raise it, or 0 for no limit)",
                    self.timeout
                ),
                ..e
            },
            _ => e,
        }
    }
}

/// `--since` / `--until`: the records of a time range, by each record's time.
#[derive(Debug, Args, Clone, Default)]
pub struct TimeArgs {
    /// Keep only the records at or after TIME (inclusive): an ISO-8601 time
    /// (2026-10-05T00:01:48Z; UTC when it has no zone; the seconds may be left out), a date
    /// (2026-10-05: its midnight UTC), or a time before now (-15m, -2h, -1d, -1w, -1h30m;
    /// now). A record's time is its own (its first line's leading stamp, a JSON or logfmt
    /// time field); a line without one (a continuation, an unstamped line) goes with the
    /// record before it in its log; lines before a log's first time have none and are left
    /// out (counted on standard error).
    #[arg(long, value_name = "TIME", allow_hyphen_values = true)]
    pub since: Option<String>,
    /// Keep only the records before TIME (exclusive: `--since 2026-10-05 --until 2026-10-06`
    /// is the whole 5th); written as for --since.
    #[arg(long, value_name = "TIME", allow_hyphen_values = true)]
    pub until: Option<String>,
}

impl TimeArgs {
    /// The range the options say, relative times taken against now.
    ///
    /// # Errors
    /// [`crate::ErrorKind::ArgumentsInvalid`] for a time that is not one, or an empty range.
    pub fn range(&self) -> Result<crate::input::time_range::TimeRange, Error> {
        crate::input::time_range::TimeRange::parse(
            self.since.as_deref(),
            self.until.as_deref(),
            crate::input::time_range::now_millis(),
        )
    }

    /// The filter of the range for logs read as `forced` (else each log's detected format),
    /// `None` without `--since` and `--until`.
    ///
    /// # Errors
    /// As [`TimeArgs::range`].
    pub fn filter(
        &self,
        forced: Option<crate::input::format::LogFormat>,
    ) -> Result<Option<crate::input::time_filter::TimeFilter>, Error> {
        let range = self.range()?;
        Ok((!range.is_all()).then(|| crate::input::time_filter::TimeFilter::new(range, forced)))
    }
}

/// `rxw test`.
#[derive(Debug, Args)]
pub struct TestArgs {
    /// The pattern.
    pub pattern: String,
    /// Files, directories or globs to read after the pattern, as grep and ripgrep take them
    /// (`-`: standard input; gzip, zstd, bzip2 and xz are decoded; several are merged by
    /// each line's leading timestamp). None: standard input when it is not a terminal. A
    /// path that does not exist is an error, never searched as text.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Match this text instead of reading files or standard input.
    #[arg(long, value_name = "TEXT", conflicts_with_all = ["paths", "file"])]
    pub text: Option<String>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub common: PatternArgs,
}

/// `rxw find`.
#[derive(Debug, Args)]
pub struct FindArgs {
    /// The pattern.
    pub pattern: String,
    /// Files, directories or globs to read after the pattern, as grep and ripgrep take them
    /// (`-`: standard input; gzip, zstd, bzip2 and xz are decoded; several are merged by
    /// each line's leading timestamp). None: standard input when it is not a terminal. A
    /// path that does not exist is an error, never searched as text.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Match this text instead of reading files or standard input.
    #[arg(long, value_name = "TEXT", conflicts_with_all = ["paths", "file"])]
    pub text: Option<String>,
    /// Print the number of matches only.
    #[arg(long)]
    pub count: bool,
    /// Report at most N matches.
    #[arg(long, value_name = "N")]
    pub limit: Option<usize>,
    /// Match on each record's message, as the registry runs on NetVM's messages, instead of
    /// the text as is: `netvm` (`TIME SENDER: message`, indented lines continue it), `jsonl`
    /// (the `msg` or `message` field of each JSON line), `logfmt` (the `msg` value of each
    /// `key=value` line), `syslog` (RFC 3164 or 5424: the text after the header), a format
    /// of the config directory's `formats/` by name, or a format file `FILE.toml`; `lines`,
    /// the default, is the text as is. With a record format `^ $ \A \Z` anchor at the
    /// message, `index`/`end` stay byte offsets in the log (in a decoded message, JSON or
    /// logfmt: in the message, with `"offsets":"message"`) and `char_index` counts from the
    /// message's start.
    #[arg(long, value_name = "FORMAT", value_parser = log_format)]
    pub format: Option<crate::input::format::LogFormat>,
    /// JSON Lines and logfmt records' fields under other keys than their common names:
    /// `--field time=ts2,message=body` (NAME=KEY, NAME one of time, message, sender, level;
    /// a NAME given twice lists its keys in order of preference). The keys given replace
    /// that field's common names (`msg`/`message`, `ts`/`time`/`timestamp`/`@timestamp`,
    /// `agent`/`source`/`logger`, `level`/`severity`); the other fields keep theirs.
    #[arg(long = "field", value_name = "NAME=KEY,…", value_delimiter = ',')]
    pub fields: Vec<String>,
    /// After the matches of the logs' text, go on matching what they append, as `tail -F`
    /// (Ctrl-C stops; with --limit, N matches in all). Several logs, directories and globs
    /// are followed merged: new records are printed in time order, each named by its log; a
    /// record stamped before one already printed is printed at arrival and counted on
    /// standard error ("3 late records shown at arrival"); a truncated or rotated log is
    /// read again from its start, said on standard error. Plain regular files only; the
    /// pattern runs on each new record, so it must keep its matches inside a line unless
    /// --format names a record format.
    #[arg(long, conflicts_with_all = ["text", "count", "json"])]
    pub follow: bool,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub time: TimeArgs,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub common: PatternArgs,
}

/// `rxw replace`.
#[derive(Debug, Args)]
pub struct ReplaceArgs {
    /// The pattern.
    pub pattern: String,
    /// The replacement, in the flavor's syntax (python `\1 \g<name>`, js `$1 $<name> $&`,
    /// rust `$1 ${name}`).
    pub replacement: String,
    /// Files, directories or globs to read after the pattern, as grep and ripgrep take them
    /// (`-`: standard input; gzip, zstd, bzip2 and xz are decoded; several are merged by
    /// each line's leading timestamp). None: standard input when it is not a terminal. A
    /// path that does not exist is an error, never searched as text.
    #[arg(value_name = "PATH")]
    pub paths: Vec<PathBuf>,
    /// Match this text instead of reading files or standard input.
    #[arg(long, value_name = "TEXT", conflicts_with_all = ["paths", "file"])]
    pub text: Option<String>,
    /// Replace at most N matches (default: all).
    #[arg(long, value_name = "N")]
    pub max: Option<usize>,
    #[command(flatten)]
    #[allow(missing_docs)]
    pub common: PatternArgs,
}

/// The `--flavor` help of every command, written once from the flavor table.
pub(crate) fn flavor_help() -> String {
    format!(
        "The dialect of the pattern and its engine release: {}. Each release has its engine's \
         syntax and Unicode data; {}",
        Flavor::spellings(),
        Flavor::defaults_note()
    )
}

/// The `--flags` help of every command, from each flavor's flag letters.
pub(crate) fn flags_help() -> String {
    format!("Flag letters: {}", Flavor::flags_help())
}

pub(crate) fn parse_flavor(s: &str) -> Result<Flavor, String> {
    s.parse()
}

/// Whether to colour, from the choice, `NO_COLOR` and whether stdout is a terminal.
pub fn use_color(choice: ColorChoice) -> bool {
    match choice {
        ColorChoice::Always => true,
        ColorChoice::Never => false,
        ColorChoice::Auto => {
            std::env::var_os("NO_COLOR").is_none_or(|v| v.is_empty()) && io::stdout().is_terminal()
        }
    }
}

/// Loads the text from the argument, `--file` (`-` is standard input), or standard input.
///
/// # Errors
/// When the file or standard input cannot be read.
pub fn load_text(text: Option<&str>, file: Option<&PathBuf>) -> Result<Text, Error> {
    inputs::load_text(text, file.map(std::slice::from_ref).unwrap_or_default())
}

/// Whether the arguments ask for JSON: `--json`, or `--format json` / `--format=json`
/// (audit), before a `--` that ends the options.
pub fn wants_json<I: IntoIterator<Item = std::ffi::OsString>>(args: I) -> bool {
    let mut previous_was_format = false;
    for a in args {
        if a == "--" {
            return false;
        }
        if a == "--json" || a == "--format=json" || (previous_was_format && a == "json") {
            return true;
        }
        previous_was_format = a == "--format";
    }
    false
}

/// Reports a clap error and returns the exit code: help and version print as clap does
/// (exit 0); a usage error is a JSON error object on standard output when the arguments ask
/// for JSON (kind `arguments_invalid`), else clap's text on standard error; exit 2.
pub fn usage_error<I: IntoIterator<Item = std::ffi::OsString>>(e: &clap::Error, args: I) -> i32 {
    use clap::error::ErrorKind as Clap;
    if matches!(
        e.kind(),
        Clap::DisplayHelp | Clap::DisplayVersion | Clap::DisplayHelpOnMissingArgumentOrSubcommand
    ) {
        let _ = e.print();
        return e.exit_code();
    }
    // clap echoes a bad value or an unknown option as given: its controls (an OSC that
    // retitles the terminal, a CSI) are shown inert, never sent to the terminal.
    let text = e.render().to_string();
    let shown = style::inert(&text, style::Layout::Lines);
    if !wants_json(args.into_iter().skip(1)) {
        let _ = write!(io::stderr(), "{shown}");
        return e.exit_code();
    }
    let message = text
        .lines()
        .next()
        .unwrap_or_default()
        .trim_start_matches("error: ")
        .to_string();
    let err = Error::new(crate::ErrorKind::ArgumentsInvalid, message);
    report_error(&err, true, &mut io::stdout(), &mut io::stderr());
    let _ = write!(io::stderr(), "{shown}");
    2
}

/// Parses flags, with the error pointing into the flag letters.
///
/// # Errors
/// Invalid or duplicate flags.
pub fn flags_for(letters: &str, flavor: Flavor) -> Result<Flags, Error> {
    Ok(Flags::parse(letters, flavor)?)
}

/// Prints an error: JSON on stdout with `json`, else a message and a caret on stderr.
pub fn report_error(err: &Error, json: bool, out: &mut dyn Write, errout: &mut dyn Write) {
    if json {
        let doc = crate::wire::ErrorDoc::from(err);
        let _ = writeln!(
            out,
            "{}",
            serde_json::to_string(&doc).expect("an error serializes")
        );
    } else {
        write_error_text(errout, "", err);
    }
}

/// Writes an error as text: `rxw: WHAT: message` (`rxw: message` without a WHAT) and the
/// caret under the pattern. The message may echo a path or a piece of input: it is shown
/// [`style::inert`].
pub(crate) fn write_error_text(errout: &mut dyn Write, what: &str, err: &Error) {
    use style::{Layout, inert};
    let what = if what.is_empty() {
        String::new()
    } else {
        format!("{what}: ")
    };
    let _ = writeln!(errout, "rxw: {what}{}", inert(&err.message, Layout::Lines));
    if let Some(c) = err.caret() {
        for line in c.lines() {
            let _ = writeln!(errout, "  {}", inert(line, Layout::OneLine));
        }
    }
}

/// `--format`'s value: a built-in format's name, a user format's, or a format file (see
/// [`crate::input::format::LogFormat`]'s `FromStr`). An error is its message and the caret
/// under the place in a format file, as clap prints it (exit 2).
pub(crate) fn log_format(s: &str) -> Result<crate::input::format::LogFormat, String> {
    use style::{Layout, inert};
    s.parse().map_err(|e: Error| {
        let mut text = inert(&e.message, Layout::Lines).into_owned();
        if let Some(c) = e.caret() {
            for line in c.lines() {
                text.push_str("\n  ");
                text.push_str(&inert(line, Layout::OneLine));
            }
        }
        text
    })
}

/// The outcome of a command: an exit code.
pub type Outcome = Result<i32, CliError>;

/// An error on its way to the exit code: a library error, or a write that failed.
#[derive(Debug)]
pub enum CliError {
    /// A library error (exit 2, reported).
    Rx(Error),
    /// Writing the output failed (a closed pipe ends quietly).
    Io(io::Error),
}

impl From<Error> for CliError {
    fn from(e: Error) -> Self {
        CliError::Rx(e)
    }
}

impl From<crate::error::RegexError> for CliError {
    /// A regex error, as the product's (same kind name, span and caret).
    fn from(e: crate::error::RegexError) -> Self {
        CliError::Rx(e.into())
    }
}

impl From<io::Error> for CliError {
    fn from(e: io::Error) -> Self {
        CliError::Io(e)
    }
}

/// Runs a parsed command line, writing to `out` and `err`; returns the exit code.
pub fn run(mut command: Command, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    // The paths after the pattern and the `--file` paths are one list of inputs.
    let paths_first = |paths: &mut Vec<PathBuf>, file: &mut Vec<PathBuf>| {
        let mut all = std::mem::take(paths);
        all.append(file);
        *file = all;
    };
    match &mut command {
        Command::Test(a) => paths_first(&mut a.paths, &mut a.common.file),
        Command::Find(a) => paths_first(&mut a.paths, &mut a.common.file),
        Command::Replace(a) => paths_first(&mut a.paths, &mut a.common.file),
        Command::Parse(a) => paths_first(&mut a.paths, &mut a.file),
        _ => {}
    }
    let max_decoded = match &command {
        Command::Test(a) => a.common.max_decoded,
        Command::Find(a) => a.common.max_decoded,
        Command::Replace(a) => a.common.max_decoded,
        Command::Parse(a) => a.max_decoded,
        _ => None,
    };
    if let Some(bytes) = max_decoded {
        crate::input::room::set_max_decoded_in_memory(bytes);
    }
    let fields = match &command {
        Command::Find(a) => a.fields.as_slice(),
        Command::Parse(a) => a.fields.as_slice(),
        Command::Timeline(a) => a.fields.as_slice(),
        _ => &[],
    };
    let fields = crate::input::field_names::Overrides::parse(fields)
        .and_then(crate::input::field_names::set_overrides);
    let json = match &command {
        Command::Test(a) => a.common.json,
        Command::Find(a) => a.common.json,
        Command::Replace(a) => a.common.json,
        Command::Explain(a) => a.json,
        Command::Debug(a) => a.json,
        Command::Redos(a) => a.json,
        Command::Audit(a) => a.format == audit::AuditFormat::Json,
        Command::Preset(a) => a.json(),
        Command::Parse(a) => a.json || a.jsonl,
        Command::Registry(a) => a.json(),
        Command::Code(a) => a.json,
        Command::Generate(_) | Command::Tests(_) => false,
        Command::Jobs(a) => a.json,
        Command::Timeline(a) => a.json,
        #[cfg(feature = "mcp")]
        Command::Mcp(_) => false,
        Command::Completions { .. } | Command::Man { .. } => false,
    };
    if let Err(e) = fields {
        return finish(Err(e.into()), json, out, err);
    }
    let result = match command {
        Command::Test(a) => find::test(&a, out, err),
        Command::Find(a) => find::find(&a, out, err),
        Command::Replace(a) => find::replace(&a, out, err),
        Command::Explain(a) => explain::run(&a, out, err),
        Command::Debug(a) => debug::run(&a, out, err),
        Command::Redos(a) => redos::run(&a, out, err),
        Command::Audit(a) => audit::run(&a, out, err),
        Command::Preset(a) => preset::preset(&a, out, err),
        Command::Parse(a) => preset::parse(&a, out, err),
        Command::Registry(a) => registry::run(&a, out, err),
        Command::Code(a) => code::code(&a, out, err),
        Command::Generate(a) => code::generate(&a, out),
        Command::Tests(a) => code::tests(&a, out),
        Command::Jobs(a) => jobs::run(&a, out, err),
        Command::Timeline(a) => timeline::run(&a, out, err),
        #[cfg(feature = "mcp")]
        Command::Mcp(a) => mcp(&a, err),
        Command::Completions { shell } => completions(shell, out),
        Command::Man { subcommand } => man(subcommand.as_deref(), out),
    };
    finish(result, json, out, err)
}

/// `rxw mcp`: the server, with its roots resolved first (a root that is not a directory is an
/// error before anything is served).
#[cfg(feature = "mcp")]
fn mcp(a: &McpArgs, err: &mut dyn Write) -> Outcome {
    let roots = if a.roots.is_empty() {
        vec![std::env::current_dir().map_err(|e| {
            Error::new(
                crate::ErrorKind::Io,
                format!("mcp: the working directory: {e}"),
            )
        })?]
    } else {
        a.roots.clone()
    };
    let roots = crate::tool::Roots::new(&roots)?;
    let server = crate::mcp::RxwServer::new(roots, crate::mcp::RxwServer::default_workers());
    match crate::mcp::serve_stdio(server) {
        Ok(()) => Ok(0),
        Err(e) => {
            let _ = writeln!(err, "rxw: mcp: {e:#}");
            Ok(2)
        }
    }
}

/// Writes the completion script for `shell`, generated from the clap definitions.
fn completions(shell: clap_complete::Shell, out: &mut dyn Write) -> Outcome {
    use clap::CommandFactory;
    let mut buf = Vec::new();
    clap_complete::generate(shell, &mut Cli::command(), "rxw", &mut buf);
    out.write_all(&buf)?;
    Ok(0)
}

/// Writes a man page generated from the clap definitions: rxw's own (with every subcommand
/// listed), or one subcommand's (`rxw-find(1)`) with all its options.
fn man(subcommand: Option<&str>, out: &mut dyn Write) -> Outcome {
    use clap::CommandFactory;
    let cmd = Cli::command();
    let page = match subcommand {
        None => cmd,
        Some(name) => {
            let Some(sub) = cmd.find_subcommand(name) else {
                let known: Vec<&str> = cmd.get_subcommands().map(|s| s.get_name()).collect();
                return Err(Error::new(
                    crate::ErrorKind::Io,
                    format!("man: no subcommand {name:?} (known: {})", known.join(", ")),
                )
                .into());
            };
            let title = format!("rxw-{name}");
            sub.clone().name(title.clone()).bin_name(title)
        }
    };
    let mut buf = Vec::new();
    clap_mangen::Man::new(page).render(&mut buf)?;
    out.write_all(&buf)?;
    Ok(0)
}

/// Maps an outcome to an exit code, reporting errors.
pub fn finish(result: Outcome, json: bool, out: &mut dyn Write, err: &mut dyn Write) -> i32 {
    match result {
        Ok(code) => {
            let _ = out.flush();
            code
        }
        Err(CliError::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => 0,
        Err(CliError::Io(e)) => {
            let _ = writeln!(
                err,
                "rxw: {}",
                style::inert(&e.to_string(), style::Layout::Lines)
            );
            2
        }
        Err(CliError::Rx(e)) => {
            report_error(&e, json, out, err);
            let _ = out.flush();
            2
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Regression: `rxw generate --help` showed a line break where `{n}` was written: clap
    /// reads `{n}` in a help text as a line break, so no help text may hold it.
    #[test]
    fn no_help_text_holds_clap_line_break_marker() {
        use clap::CommandFactory;
        let mut stack = vec![Cli::command()];
        let mut seen = 0;
        while let Some(cmd) = stack.pop() {
            let texts = cmd
                .get_about()
                .into_iter()
                .chain(cmd.get_long_about())
                .chain(
                    cmd.get_arguments()
                        .flat_map(|a| a.get_help().into_iter().chain(a.get_long_help())),
                );
            for text in texts {
                seen += 1;
                assert!(
                    !text.to_string().contains("{n}"),
                    "rxw {}: {text}",
                    cmd.get_name()
                );
            }
            stack.extend(cmd.get_subcommands().cloned());
        }
        assert!(seen > 100, "only {seen} help texts looked at");
        let help = Cli::command()
            .find_subcommand_mut("generate")
            .expect("generate")
            .render_help()
            .to_string();
        let line = help
            .lines()
            .find(|l| l.contains("--repetitions"))
            .expect("listed");
        assert!(line.contains("{2}"), "{help}");
    }
}

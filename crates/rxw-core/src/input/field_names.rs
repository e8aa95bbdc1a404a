//! The field names a key-value record's fields are found under: JSON Lines and logfmt.
//!
//! By default each field is looked for under its common names ([`FieldNames::json`],
//! [`FieldNames::logfmt`]): a JSON record's message under `msg` or `message`, its time under
//! `ts`, `time`, `timestamp` or `@timestamp`, and so on. A log that names them otherwise is
//! read with `--field NAME=KEY,…` (NAME one of `time`, `message`, `sender`, `level`, the
//! names a user format's groups take; a NAME given several times lists its keys in order of
//! preference): the keys given replace that field's common names, the other fields keep
//! theirs. The front end sets the overrides once for the process ([`set_overrides`]), as
//! the user's formats are a process registry, so [`super::format::LogFormat`] stays `Copy`.

use crate::error::{Error, ErrorKind};
use std::sync::OnceLock;

/// The fields a record has, by the names `--field` and a user format's groups use.
pub const FIELDS: [&str; 4] = ["time", "message", "sender", "level"];

/// The common field names of a JSON record, each field's in order of preference.
pub mod json {
    /// The field names a JSON record's message is found under.
    pub const MESSAGE_FIELDS: [&str; 2] = ["msg", "message"];
    /// The field names of its time.
    pub const TIME_FIELDS: [&str; 4] = ["ts", "time", "timestamp", "@timestamp"];
    /// The field names of its sender.
    pub const SENDER_FIELDS: [&str; 3] = ["agent", "source", "logger"];
    /// The field names of its level.
    pub const LEVEL_FIELDS: [&str; 2] = ["level", "severity"];
}

/// The common field names of a logfmt record, each field's in order of preference.
pub mod logfmt {
    /// The field names a logfmt record's message is found under.
    pub const MESSAGE_FIELDS: [&str; 2] = ["msg", "message"];
    /// The field names of its time.
    pub const TIME_FIELDS: [&str; 3] = ["ts", "time", "t"];
    /// The field names of its level.
    pub const LEVEL_FIELDS: [&str; 2] = ["level", "lvl"];
    /// The field names of its sender.
    pub const SENDER_FIELDS: [&str; 4] = ["logger", "source", "agent", "component"];
}

/// For each field, the keys it is looked for under, in order of preference.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct FieldNames {
    /// The time's keys.
    pub time: Vec<String>,
    /// The message's keys.
    pub message: Vec<String>,
    /// The sender's keys.
    pub sender: Vec<String>,
    /// The level's keys.
    pub level: Vec<String>,
}

/// `--field`'s overrides: for each field, the keys the user named (empty: the common ones).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Overrides(FieldNames);

fn owned(names: &[&str]) -> Vec<String> {
    names.iter().map(|s| (*s).to_string()).collect()
}

impl FieldNames {
    /// A format's common names, with the process's overrides ([`set_overrides`]).
    fn common(time: &[&str], message: &[&str], sender: &[&str], level: &[&str]) -> FieldNames {
        FieldNames {
            time: owned(time),
            message: owned(message),
            sender: owned(sender),
            level: owned(level),
        }
        .with(overrides())
    }

    /// A JSON record's common names, with the process's overrides ([`set_overrides`]).
    pub fn json() -> &'static FieldNames {
        static NAMES: OnceLock<FieldNames> = OnceLock::new();
        NAMES.get_or_init(|| {
            FieldNames::common(
                &json::TIME_FIELDS,
                &json::MESSAGE_FIELDS,
                &json::SENDER_FIELDS,
                &json::LEVEL_FIELDS,
            )
        })
    }

    /// A logfmt record's common names, with the process's overrides ([`set_overrides`]).
    pub fn logfmt() -> &'static FieldNames {
        static NAMES: OnceLock<FieldNames> = OnceLock::new();
        NAMES.get_or_init(|| {
            FieldNames::common(
                &logfmt::TIME_FIELDS,
                &logfmt::MESSAGE_FIELDS,
                &logfmt::SENDER_FIELDS,
                &logfmt::LEVEL_FIELDS,
            )
        })
    }

    /// These names, each field the overrides name replaced by their keys.
    pub fn with(mut self, overrides: &Overrides) -> FieldNames {
        let o = &overrides.0;
        for (mine, theirs) in [
            (&mut self.time, &o.time),
            (&mut self.message, &o.message),
            (&mut self.sender, &o.sender),
            (&mut self.level, &o.level),
        ] {
            if !theirs.is_empty() {
                mine.clone_from(theirs);
            }
        }
        self
    }
}

impl Overrides {
    /// Reads `--field`'s values, each `NAME=KEY` (a value holding several, split at `,` by
    /// the command line, comes one at a time).
    ///
    /// # Errors
    /// [`ErrorKind::ArgumentsInvalid`] for a value that is not `NAME=KEY`, a NAME that is not
    /// a field, an empty KEY.
    pub fn parse<S: AsRef<str>>(values: &[S]) -> Result<Overrides, Error> {
        let mut names = FieldNames::default();
        for v in values {
            let v = v.as_ref().trim();
            let bad = |why: &str| {
                Error::new(
                    ErrorKind::ArgumentsInvalid,
                    format!(
                        "--field {v:?}: {why}; write NAME=KEY, NAME one of {} \
                         (--field time=ts2,message=body)",
                        FIELDS.join(", ")
                    ),
                )
            };
            let (name, key) = v.split_once('=').ok_or_else(|| bad("no `=`"))?;
            let key = key.trim();
            if key.is_empty() {
                return Err(bad("the key is empty"));
            }
            let list = match name.trim().to_ascii_lowercase().as_str() {
                "time" => &mut names.time,
                "message" => &mut names.message,
                "sender" => &mut names.sender,
                "level" => &mut names.level,
                _ => return Err(bad(&format!("{:?} is not a field", name.trim()))),
            };
            if !list.iter().any(|k| k == key) {
                list.push(key.to_string());
            }
        }
        Ok(Overrides(names))
    }

    /// Whether no field is overridden.
    pub fn is_empty(&self) -> bool {
        self.0 == FieldNames::default()
    }
}

static OVERRIDES: OnceLock<Overrides> = OnceLock::new();

fn overrides() -> &'static Overrides {
    OVERRIDES.get_or_init(Overrides::default)
}

/// Sets the process's overrides, before any log is read.
///
/// # Errors
/// [`ErrorKind::ArgumentsInvalid`] when other overrides were set, or records were already
/// read with the common names (the names are fixed for a process once read).
pub fn set_overrides(o: Overrides) -> Result<(), Error> {
    if o.is_empty() {
        return Ok(());
    }
    let wanted = o.clone();
    match OVERRIDES.set(o) {
        Ok(()) => Ok(()),
        Err(_) if *overrides() == wanted => Ok(()),
        Err(_) => Err(Error::new(
            ErrorKind::ArgumentsInvalid,
            "--field: the field names were already fixed for this process",
        )),
    }
}

/// The fields of a JSON Lines or logfmt record, each found under the first of its names
/// ([`FieldNames`]) the record has.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct RecordFields {
    /// The message, decoded.
    pub message: String,
    /// The time, as written.
    pub time: Option<String>,
    /// The sender.
    pub sender: Option<String>,
    /// The level.
    pub level: Option<String>,
}

impl RecordFields {
    /// A record's fields: its `message`, and each other field as `find` finds it under the
    /// keys `names` gives it.
    pub(crate) fn found(
        message: String,
        names: &FieldNames,
        find: impl Fn(&[String]) -> Option<String>,
    ) -> RecordFields {
        RecordFields {
            message,
            time: find(&names.time),
            sender: find(&names.sender),
            level: find(&names.level),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn overrides_replace_only_the_fields_they_name() {
        let o = Overrides::parse(&["time=ts2", "message=body", "message=text"]).unwrap();
        let json = FieldNames {
            time: owned(&super::json::TIME_FIELDS),
            message: owned(&super::json::MESSAGE_FIELDS),
            sender: owned(&["agent"]),
            level: owned(&["level"]),
        }
        .with(&o);
        assert_eq!(json.time, ["ts2"]);
        assert_eq!(json.message, ["body", "text"]);
        assert_eq!(json.sender, ["agent"]);
        assert!(Overrides::parse::<&str>(&[]).unwrap().is_empty());
    }

    #[test]
    fn a_bad_override_says_how_to_write_one() {
        for (bad, says) in [
            ("time", "no `=`"),
            ("when=ts", "\"when\" is not a field"),
            ("time=", "the key is empty"),
        ] {
            let e = Overrides::parse(&[bad]).unwrap_err();
            assert_eq!(e.kind, ErrorKind::ArgumentsInvalid);
            assert!(e.message.contains(says), "{}", e.message);
            assert!(e.message.contains("time, message, sender, level"));
        }
    }
}

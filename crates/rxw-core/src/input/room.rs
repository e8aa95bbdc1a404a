//! How much decoded text rxw may hold: in memory for a read that needs the whole text at
//! once, and on disk for a spill. A 97 KB zstd can decode to a gigabyte (a decompression
//! bomb); these caps are stated and said before they are reached, so nothing aborts on a
//! failed allocation and no spill fills its disk.

use std::path::Path;

/// The environment variable that sets the in-memory cap, in bytes (`512M`, `2G` and `0` for
/// no cap are accepted); the command line's `--max-decoded` sets the same.
pub const MAX_DECODED_ENV: &str = "RXW_MAX_DECODED";

/// The cap the command line set (`--max-decoded`), which outranks the environment.
static OVERRIDE: std::sync::OnceLock<u64> = std::sync::OnceLock::new();

/// Sets the in-memory cap for this process (`--max-decoded`; 0: no cap). The first call wins.
pub fn set_max_decoded_in_memory(bytes: u64) {
    let _ = OVERRIDE.set(bytes);
}

/// The error of a whole read that passed the in-memory cap.
pub fn too_large_for_memory(what: &str, cap: u64) -> crate::error::Error {
    crate::error::Error::new(
        crate::error::ErrorKind::Io,
        format!(
            "{what}: the decoded text passed {} MB, the most a text read whole may hold in memory (a quarter of the memory available; --max-decoded SIZE or {MAX_DECODED_ENV} sets it); a line-by-line search reads any size",
            cap / 1_000_000
        ),
    )
}

/// Free space a spill leaves on its disk: this much, or a twentieth of a smaller disk.
const SPILL_RESERVE_BYTES: u64 = 1 << 30;

/// Reads `512M`, `2G`, `1500000`: a size in bytes (`K`, `M`, `G`, `T` are powers of 1,024).
///
/// # Errors
/// A text that is not a size, said in one sentence.
pub fn parse_size(s: &str) -> Result<u64, String> {
    let t = s.trim();
    let (digits, unit) = match t.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
        Some((i, _)) => t.split_at(i),
        None => (t, ""),
    };
    let shift = match unit
        .trim()
        .to_ascii_uppercase()
        .trim_end_matches(['B', 'I'])
    {
        "" => 0,
        "K" => 10,
        "M" => 20,
        "G" => 30,
        "T" => 40,
        _ => {
            return Err(format!(
                "{s:?} is not a size (a number of bytes, or 512M, 2G)"
            ));
        }
    };
    let n: u64 = digits
        .parse()
        .map_err(|_| format!("{s:?} is not a size (a number of bytes, or 512M, 2G)"))?;
    n.checked_mul(1 << shift)
        .ok_or_else(|| format!("{s:?} is too large a size"))
}

/// The most decoded bytes a whole read holds in memory: `RXW_MAX_DECODED` when set (0: no
/// cap), else a quarter of the memory available, or an eighth of the address space the
/// process may use when that is less (`ulimit -v`): a read may hold twice its text for a
/// moment (a buffer grown, the next piece read to learn there is one), and it must fail with
/// a message before an allocation would abort the process.
pub fn max_decoded_in_memory() -> u64 {
    if let Some(&v) = OVERRIDE.get() {
        return if v == 0 { u64::MAX } else { v };
    }
    if let Some(v) = std::env::var(MAX_DECODED_ENV)
        .ok()
        .and_then(|v| parse_size(&v).ok())
    {
        return if v == 0 { u64::MAX } else { v };
    }
    let mut cap = memory_available().map_or(2 << 30, |m| m / 4);
    if let Some(space) = address_space_limit() {
        cap = cap.min(space / 8);
    }
    cap.max(1 << 20)
}

/// The most bytes a spill may take on the file system at `dir`. Asked for (`asked`, else
/// `RXW_SPILL_ROOM`, a size): that much, or what is free there when less. Else what is free
/// less a reserve: 1 GiB, or a twentieth of a disk smaller than 20 GiB. `None` when it cannot
/// be told (then only a failed write stops the spill).
pub fn spill_room(dir: &Path, asked: Option<u64>) -> Option<u64> {
    let asked = asked.or_else(|| {
        std::env::var("RXW_SPILL_ROOM")
            .ok()
            .and_then(|v| parse_size(&v).ok())
    });
    let told = disk_space(dir).map(|(free, total)| match asked {
        Some(_) => free,
        None => room_left(free, total),
    });
    match (asked, told) {
        (Some(a), Some(t)) => Some(a.min(t)),
        (a, t) => a.or(t),
    }
}

/// What a spill may write on a disk of `total` bytes with `free` bytes free, keeping the
/// reserve: a full disk is not what a regex tool should leave behind, but neither is a
/// refusal on a big disk that is 95% full with gigabytes to spare.
fn room_left(free: u64, total: u64) -> u64 {
    free.saturating_sub(SPILL_RESERVE_BYTES.min(total / 20))
}

/// Bytes free (for this user) and in all on the file system at `dir`.
fn disk_space(dir: &Path) -> Option<(u64, u64)> {
    #[cfg(target_os = "linux")]
    {
        let s = rustix::fs::statvfs(dir).ok()?;
        let block = s.f_frsize.max(1);
        Some((
            s.f_bavail.saturating_mul(block),
            s.f_blocks.saturating_mul(block),
        ))
    }
    #[cfg(not(target_os = "linux"))]
    {
        let _ = dir;
        None
    }
}

/// `MemAvailable` of `/proc/meminfo`, in bytes.
fn memory_available() -> Option<u64> {
    let info = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = info.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb.saturating_mul(1024))
}

/// The soft limit on the process's address space, when there is one.
fn address_space_limit() -> Option<u64> {
    #[cfg(target_os = "linux")]
    {
        rustix::process::getrlimit(rustix::process::Resource::As).current
    }
    #[cfg(not(target_os = "linux"))]
    {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_as_people_write_them() {
        assert_eq!(parse_size("1500000"), Ok(1_500_000));
        assert_eq!(parse_size("512M"), Ok(512 << 20));
        assert_eq!(parse_size("2G"), Ok(2 << 30));
        assert_eq!(parse_size("2GiB"), Ok(2 << 30));
        assert_eq!(parse_size(" 4k "), Ok(4 << 10));
        assert!(parse_size("lots").is_err());
        assert!(parse_size("2X").is_err());
        assert!(parse_size("99999999999T").is_err());
    }

    #[test]
    fn the_caps_are_positive() {
        assert!(max_decoded_in_memory() >= 1 << 20);
        let dir = tempfile::tempdir().unwrap();
        // Room may be zero on a full disk, but it is told on Linux, and what is asked for
        // is never more than what is free.
        if cfg!(target_os = "linux") {
            let free = spill_room(dir.path(), Some(u64::MAX)).unwrap();
            assert_eq!(spill_room(dir.path(), Some(1)), Some(1.min(free)));
            assert!(spill_room(dir.path(), None).unwrap() <= free);
        }
    }

    #[test]
    fn a_spill_keeps_a_gibibyte_or_a_twentieth_of_a_small_disk() {
        const G: u64 = 1 << 30;
        // A big disk 95% full: 12 GiB of 252 free leaves 11 GiB to write.
        assert_eq!(room_left(12 * G, 252 * G), 11 * G);
        // A 10 GiB disk keeps half a gibibyte.
        assert_eq!(room_left(2 * G, 10 * G), 2 * G - G / 2);
        // Less free than the reserve: nothing to write.
        assert_eq!(room_left(G / 2, 252 * G), 0);
    }
}

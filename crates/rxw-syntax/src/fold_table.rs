//! Case folding by orbits, as RE2 and Go's `regexp` fold: a table of every code point that
//! folds with another one and the next member of its orbit (`unicode.SimpleFold`), and what
//! the engines build from it. The per-engine tables (`go_unicode`, `re2_unicode`) hold the
//! data; this module the one way of reading it.

/// The next member of `c`'s orbit in `table` (`c` itself when it folds with nothing).
pub(crate) fn simple_fold(table: &[(u32, u32)], c: u32) -> u32 {
    match table.binary_search_by_key(&c, |&(from, _)| from) {
        Ok(i) => table[i].1,
        Err(_) => c,
    }
}

/// Every member of `c`'s orbit, `c` first, in the table's order.
pub(crate) fn orbit(table: &[(u32, u32)], c: u32) -> Vec<u32> {
    let mut members = vec![c];
    let mut next = simple_fold(table, c);
    while next != c {
        members.push(next);
        next = simple_fold(table, next);
    }
    members
}

/// `ranges` closed under the table's orbits, as sorted, merged inclusive ranges. The set may
/// be of any size: only the code points that fold are looked at.
pub(crate) fn closure(table: &[(u32, u32)], ranges: &[(u32, u32)]) -> Vec<(u32, u32)> {
    let mut out = normalize(ranges.to_vec());
    let mut added = Vec::new();
    for &(lo, hi) in &out {
        let start = table.partition_point(|&(c, _)| c < lo);
        for &(c, _) in table[start..].iter().take_while(|&&(c, _)| c <= hi) {
            added.extend(orbit(table, c).into_iter().map(|m| (m, m)));
        }
    }
    if added.is_empty() {
        return out;
    }
    out.extend(added);
    normalize(out)
}

/// Sorted, merged inclusive ranges.
pub(crate) fn normalize(mut ranges: Vec<(u32, u32)>) -> Vec<(u32, u32)> {
    ranges.sort_unstable();
    let mut out: Vec<(u32, u32)> = Vec::with_capacity(ranges.len());
    for (lo, hi) in ranges {
        match out.last_mut() {
            Some(last) if lo <= last.1.saturating_add(1) => last.1 = last.1.max(hi),
            _ => out.push((lo, hi)),
        }
    }
    out
}

/// Asserts that each set's ranges are in order and apart (neither overlapping nor adjacent),
/// as the generated tables write them.
#[cfg(test)]
pub(crate) fn assert_sorted_apart(sets: &[&[(u32, u32)]]) {
    for set in sets {
        assert!(set.iter().all(|(a, b)| a <= b), "{set:x?}");
        assert!(set.windows(2).all(|w| w[0].1 + 1 < w[1].0), "{set:x?}");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_orbit_closes_a_set_once_each() {
        // k -> K (U+212A) -> K -> k, as SimpleFold orders it.
        let table = [(0x4B, 0x6B), (0x6B, 0x212A), (0x212A, 0x4B)];
        assert_eq!(orbit(&table, 0x6B), vec![0x6B, 0x212A, 0x4B]);
        assert_eq!(
            closure(&table, &[(0x6B, 0x6B), (0x61, 0x62)]),
            vec![(0x4B, 0x4B), (0x61, 0x62), (0x6B, 0x6B), (0x212A, 0x212A)]
        );
        assert_eq!(closure(&table, &[(0x30, 0x39)]), vec![(0x30, 0x39)]);
    }
}

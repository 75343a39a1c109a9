//! Exact duplicate documents: the same text as an earlier document of the same input file.
//! [`ExactDups`] says what becomes of them; [`first_with_text`] finds them, for the writer and
//! for [`super::stream`]. Across files, `cowrex dedup` finds them.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use serde::Serialize;

/// Handling of exact duplicate documents (the same text as an earlier document of the same
/// input file; across files, `cowrex dedup` finds them). Per file, so that an input's outputs
/// do not depend on how a manifest is sharded or on which inputs a resumed run skips.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize)]
pub enum ExactDups {
    /// Written with `duplicate-of="ID"` (XML, VRT) or `"duplicate_of"` (JSONL).
    #[default]
    Mark,
    /// Not written; the record's fate is `skipped.duplicate`.
    Skip,
    /// Not detected.
    Keep,
}

crate::choice::choice!(ExactDups, "exact_dups", [
    ExactDups::Mark, "mark", "written, with duplicate-of naming the first";
    ExactDups::Skip, "skip", "left out, fate skipped.duplicate";
    ExactDups::Keep, "keep", "not detected";
]);

/// The id of the first document of the current input with this text `fingerprint`, or `None`
/// when this one (`id`) is the first, which `seen` then remembers.
pub(crate) fn first_with_text<S: std::hash::BuildHasher>(
    seen: &mut HashMap<u128, String, S>,
    fingerprint: u128,
    id: &str,
) -> Option<String> {
    match seen.entry(fingerprint) {
        Entry::Occupied(e) => Some(e.get().clone()),
        Entry::Vacant(e) => {
            e.insert(id.to_string());
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_first_document_with_a_text_is_remembered_and_named_for_the_later_ones() {
        let mut seen = HashMap::new();
        assert_eq!(first_with_text(&mut seen, 7, "a"), None);
        assert_eq!(first_with_text(&mut seen, 8, "b"), None);
        assert_eq!(first_with_text(&mut seen, 7, "c").as_deref(), Some("a"));
        assert_eq!(first_with_text(&mut seen, 7, "d").as_deref(), Some("a"));
    }
}

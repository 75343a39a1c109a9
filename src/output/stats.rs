//! Per-input statistics (`S.stats.json`): every record appears with its fate.
//!
//! `records` = Σ `records_by_type` = Σ `fates`. Fates are `written`, `skipped.<reason>` or
//! `error.<reason>`. Everything but `time_ms` is deterministic.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::error::{Error, ErrorKind};
use crate::fate::Fate;

/// Statistics of one input file.
#[derive(Debug, Clone, Default, Serialize)]
pub struct FileStats {
    /// The input file's path or URL.
    pub input: String,
    /// Records read.
    pub records: u64,
    /// Records by `WARC-Type`.
    pub records_by_type: BTreeMap<String, u64>,
    /// Records by fate: `written`, `skipped.<reason>`, `error.<reason>`.
    pub fates: BTreeMap<String, u64>,
    /// The bytes of those records' blocks (uncompressed), by fate.
    pub fate_bytes: BTreeMap<String, u64>,
    /// Documents written to the corpus.
    pub documents: u64,
    /// Blocks found by segmentation.
    pub blocks_found: u64,
    /// Blocks written.
    pub blocks_written: u64,
    /// Records whose segmentation stopped at a cap, by cap: written documents and the
    /// `skipped.capped` records that had no text before the cap.
    pub capped: BTreeMap<String, u64>,
    /// Records whose block is incomplete, by reason: the crawler's `WARC-Truncated` reason, or
    /// `end_of_input` when the input ended inside the record (also a `truncated_record`
    /// stream error).
    pub warc_truncated: BTreeMap<String, u64>,
    /// Written documents by how their charset was found (`bom`, `http`, `meta`, `valid_utf8`,
    /// `detected`: [`CharsetEvidence::name`](crate::document::CharsetEvidence::name)).
    pub charset_evidence: BTreeMap<String, u64>,
    /// Written documents by charset (as in `sourcecharset`).
    pub charsets: BTreeMap<String, u64>,
    /// Written documents by identified language (ISO 639-3, `unknown`).
    pub languages: BTreeMap<String, u64>,
    /// With `--split-by`: written documents by the part of the outputs they went to (a
    /// language's ISO 639-3 code, or `und`).
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub parts: BTreeMap<String, u64>,
    /// Written documents by the MLP that scored them (`en`, `de`, `fr`, `sv`, or `custom` for
    /// `--model`).
    pub models: BTreeMap<String, u64>,
    /// Written documents with bytes that were malformed in their charset.
    pub malformed_text: u64,
    /// Written documents whose text equals an earlier document's in the file (marked
    /// `duplicate-of`; with `--exact-dups skip` they are the fate `skipped.duplicate`).
    pub duplicates: u64,
    /// Blocks that repeat an earlier block of their document.
    pub dup_blocks: u64,
    /// Written documents with shingles (enough content tokens).
    pub shingled: u64,
    /// Links written.
    pub links: u64,
    /// Written documents by text-quality class (`bdc`).
    pub text_quality: BTreeMap<String, u64>,
    /// Damaged stretches of the input that were skipped, by reason.
    pub stream_errors: BTreeMap<String, u64>,
    /// Bytes of those damaged stretches.
    pub stream_error_bytes: u64,
    /// Byte counts of the input, its record blocks and the XML written.
    pub bytes: Bytes,
    /// Time per stage in milliseconds (not deterministic).
    pub time_ms: BTreeMap<String, u64>,
}

/// Byte counts.
#[derive(Debug, Clone, Default, Serialize)]
pub struct Bytes {
    /// Size of the input file.
    pub input: u64,
    /// Record blocks read (uncompressed).
    pub records: u64,
    /// Uncompressed XML written (0 without XML output).
    pub xml: u64,
}

impl FileStats {
    /// Count one record's fate and the bytes of its block.
    pub fn fate(&mut self, fate: Fate, block_bytes: u64) {
        Self::bump(&mut self.fates, fate.name(), 1);
        Self::bump(&mut self.fate_bytes, fate.name(), block_bytes);
    }

    /// Add to a counter in a map.
    pub(crate) fn bump(map: &mut BTreeMap<String, u64>, key: &str, by: u64) {
        match map.get_mut(key) {
            Some(n) => *n += by,
            None => {
                map.insert(key.to_string(), by);
            }
        }
    }

    /// Sum of all fates (must equal `records`).
    pub fn fate_total(&self) -> u64 {
        self.fates.values().sum()
    }
}

/// Sum per-file statistics (`cowrex stats merge`): numbers are added, maps merged key by key,
/// and each file's `input` is listed under `inputs`.
pub fn merge(files: &[serde_json::Value]) -> Result<serde_json::Value, Error> {
    use serde_json::{Map, Value};
    fn add(
        into: &mut Map<String, Value>,
        from: &Map<String, Value>,
        path: &str,
    ) -> Result<(), Error> {
        let bad = |m: String| Error::new(ErrorKind::Input, m);
        for (k, v) in from {
            let here = format!("{path}{k}");
            match (into.get_mut(k), v) {
                (None, _) => {
                    into.insert(k.clone(), v.clone());
                }
                (Some(Value::Object(a)), Value::Object(b)) => add(a, b, &format!("{here}."))?,
                (Some(Value::Number(a)), Value::Number(b)) => {
                    *a = match (a.as_u64(), b.as_u64()) {
                        (Some(x), Some(y)) => x.saturating_add(y).into(),
                        _ => serde_json::Number::from_f64(
                            a.as_f64().unwrap_or(0.0) + b.as_f64().unwrap_or(0.0),
                        )
                        .ok_or_else(|| bad(format!("{here}: not a finite number")))?,
                    };
                }
                _ => return Err(bad(format!("{here}: values of different kinds"))),
            }
        }
        Ok(())
    }
    let mut total = Map::new();
    let mut inputs = Vec::new();
    for f in files {
        let Value::Object(m) = f else {
            return Err(Error::new(ErrorKind::Input, "not a stats object"));
        };
        let mut m = m.clone();
        if let Some(i) = m.remove("input") {
            inputs.push(i);
        }
        add(&mut total, &m, "")?;
    }
    total.insert("files".into(), inputs.len().into());
    total.insert("inputs".into(), Value::Array(inputs));
    Ok(Value::Object(total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merging_adds_numbers_and_maps() {
        let a = serde_json::json!({"input": "a", "records": 3, "fates": {"written": 2, "skipped.not_html": 1}, "bytes": {"input": 10}});
        let b = serde_json::json!({"input": "b", "records": 4, "fates": {"written": 4}, "bytes": {"input": 5}});
        let m = merge(&[a, b]).unwrap();
        assert_eq!(
            m,
            serde_json::json!({"files": 2, "inputs": ["a", "b"], "records": 7, "fates": {"written": 6, "skipped.not_html": 1}, "bytes": {"input": 15}})
        );
        assert!(
            merge(&[
                serde_json::json!({"records": 1}),
                serde_json::json!({"records": "x"})
            ])
            .is_err()
        );
    }
}

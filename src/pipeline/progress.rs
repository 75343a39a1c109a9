//! Progress reports of a run ([`Progress`]): a JSON object per line on stderr for log
//! collectors, or a [`Snapshot`] handed to the caller (the command line draws its progress
//! display from them); [`Reporter`] makes them from the writer's [`Summary`].

use std::sync::Arc;
use std::time::{Duration, Instant};

use super::Summary;

/// How a run reports progress.
#[derive(Clone, Default)]
pub enum Progress {
    /// No report.
    #[default]
    Off,
    /// A JSON object per line on stderr every `interval` (for log collectors), and one at the
    /// end.
    Jsonl {
        /// Time between two reports.
        interval: Duration,
    },
    /// `to` is called with a [`Snapshot`] every `interval`, and once at the end.
    Call {
        /// Time between two reports.
        interval: Duration,
        /// What takes the reports (called on the writer thread).
        to: Arc<dyn Fn(&Snapshot) + Send + Sync>,
    },
}

impl std::fmt::Debug for Progress {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Progress::Off => f.write_str("Off"),
            Progress::Jsonl { interval } => {
                f.debug_struct("Jsonl").field("interval", interval).finish()
            }
            Progress::Call { interval, .. } => {
                f.debug_struct("Call").field("interval", interval).finish()
            }
        }
    }
}

/// Where a run stands.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Snapshot {
    /// Time since the run started.
    pub elapsed: Duration,
    /// Inputs of the run.
    pub files_total: usize,
    /// Inputs finished.
    pub files_done: usize,
    /// Inputs that failed.
    pub files_failed: usize,
    /// Records read.
    pub records: u64,
    /// Documents written.
    pub documents: u64,
    /// Input bytes read.
    pub bytes: u64,
    /// Whether this is the run's last report.
    pub last: bool,
}

impl Snapshot {
    /// Input megabytes (10⁶ bytes) read per second.
    pub fn mb_per_s(&self) -> f64 {
        self.bytes as f64 / self.secs() / 1e6
    }

    /// Documents written per second.
    pub fn docs_per_s(&self) -> f64 {
        self.documents as f64 / self.secs()
    }

    fn secs(&self) -> f64 {
        self.elapsed.as_secs_f64().max(1e-3)
    }
}

/// Reports a run's progress.
pub(super) struct Reporter {
    mode: Progress,
    started: Instant,
    last: Instant,
    files_total: usize,
}

impl Reporter {
    /// A reporter for a run of `files_total` inputs, starting now.
    pub(super) fn new(mode: Progress, files_total: usize) -> Reporter {
        let now = Instant::now();
        Reporter {
            mode,
            started: now,
            last: now,
            files_total,
        }
    }

    /// Report if it is time to (`last`: the final report).
    pub(super) fn update(&mut self, s: &Summary, last: bool) {
        let every = match &self.mode {
            Progress::Off => return,
            Progress::Jsonl { interval } | Progress::Call { interval, .. } => *interval,
        };
        if !last && self.last.elapsed() < every {
            return;
        }
        self.last = Instant::now();
        let snap = Snapshot {
            elapsed: self.started.elapsed(),
            files_total: self.files_total,
            files_done: s.files_done,
            files_failed: s.files_failed.len(),
            records: s.records,
            documents: s.documents,
            bytes: s.bytes,
            last,
        };
        match &self.mode {
            Progress::Off => {}
            Progress::Call { to, .. } => to(&snap),
            Progress::Jsonl { .. } => {
                let line = serde_json::json!({
                    "event": if last { "done" } else { "progress" },
                    "elapsed_s": (snap.elapsed.as_secs_f64() * 1000.0).round() / 1000.0,
                    "files_total": snap.files_total,
                    "files_done": snap.files_done,
                    "files_failed": snap.files_failed,
                    "records": snap.records,
                    "documents": snap.documents,
                    "bytes": snap.bytes,
                    "mb_per_s": (snap.mb_per_s() * 100.0).round() / 100.0,
                    "docs_per_s": snap.docs_per_s().round(),
                });
                eprintln!("{line}");
            }
        }
    }
}

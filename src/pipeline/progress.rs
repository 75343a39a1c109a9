//! Progress reports of a run on stderr: a one-line display for terminals, or a JSON object per
//! line for log collectors ([`Progress`]); [`Reporter`] draws them from the writer's
//! [`Summary`].

use std::time::{Duration, Instant};

use super::Summary;

/// How a run reports progress on stderr.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Progress {
    /// No report.
    Off,
    /// A one-line progress display (for terminals).
    Bar,
    /// A JSON object per line every `interval` (for log collectors), and one at the end.
    Jsonl {
        /// Time between two reports.
        interval: Duration,
    },
}

/// Shows a run's progress.
pub(super) struct Reporter {
    mode: Progress,
    bar: Option<indicatif::ProgressBar>,
    started: Instant,
    last: Instant,
    files_total: usize,
}

impl Reporter {
    /// A reporter for a run of `files_total` inputs, starting now.
    pub(super) fn new(mode: Progress, files_total: usize) -> Reporter {
        let bar = (mode == Progress::Bar).then(|| {
            let pb = indicatif::ProgressBar::new_spinner();
            pb.set_style(
                indicatif::ProgressStyle::with_template("{spinner} {elapsed_precise} {msg}")
                    .expect("valid template"),
            );
            pb.enable_steady_tick(Duration::from_millis(200));
            pb
        });
        let now = Instant::now();
        Reporter {
            mode,
            bar,
            started: now,
            last: now,
            files_total,
        }
    }

    /// Report if it is time to (`last`: the final report).
    pub(super) fn update(&mut self, s: &Summary, bytes: u64, last: bool) {
        let every = match self.mode {
            Progress::Off => return,
            Progress::Bar => Duration::from_millis(250),
            Progress::Jsonl { interval } => interval,
        };
        if !last && self.last.elapsed() < every {
            return;
        }
        self.last = Instant::now();
        let secs = self.started.elapsed().as_secs_f64().max(1e-3);
        if let Some(pb) = &self.bar {
            if last {
                pb.finish_and_clear();
            } else {
                pb.set_message(format!(
                    "{}/{} files, {} records, {} documents, {:.1} MB/s, {:.0} docs/s",
                    s.files_done + s.files_failed.len(),
                    self.files_total,
                    s.records,
                    s.documents,
                    bytes as f64 / secs / 1e6,
                    s.documents as f64 / secs
                ));
            }
            return;
        }
        let line = serde_json::json!({
            "event": if last { "done" } else { "progress" },
            "elapsed_s": (secs * 1000.0).round() / 1000.0,
            "files_total": self.files_total,
            "files_done": s.files_done,
            "files_failed": s.files_failed.len(),
            "records": s.records,
            "documents": s.documents,
            "bytes": bytes,
            "mb_per_s": (bytes as f64 / secs / 1e4).round() / 100.0,
            "docs_per_s": (s.documents as f64 / secs).round(),
        });
        eprintln!("{line}");
    }
}

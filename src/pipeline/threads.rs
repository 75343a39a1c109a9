//! The threads of a run and the ordering window between them: [`start`] spawns the reader and
//! the workers; [`Running::next`] gives their results to the one consumer in input order. Every
//! item carries a sequence number, and a window of tokens bounds how far the reader may run
//! ahead: the reader takes one per item, and [`Reorder`] gives it back once the item is
//! consumed in order.

use std::collections::BTreeMap;
use std::sync::Arc;
use std::thread::JoinHandle;

use crossbeam_channel::{Receiver, Sender, bounded};

use super::config::Input;
use super::reader::{Job, reader};
use super::worker::{Done, Work, worker};
use crate::analyze::Config;
use crate::classify::Models;
use crate::document::Document;
use crate::stop::Stop;
use crate::warc::Retry;

/// What the threads of a run need.
pub(super) struct Setup {
    /// The inputs, read in order.
    pub inputs: Arc<Vec<Input>>,
    /// The models the workers score with.
    pub models: Arc<Models>,
    /// Settings of document analysis.
    pub doc: Config,
    /// Worker threads (at least one is started).
    pub threads: usize,
    /// Record blocks above this many bytes are not analysed.
    pub max_payload: u64,
    /// Retries of http(s) inputs.
    pub retry: Retry,
    /// The run's stop.
    pub stop: Stop,
}

/// The reader and the workers, running; their results in input order through [`Running::next`].
/// Dropping it stops the threads (their channels close).
pub(super) struct Running<D> {
    results: Receiver<Vec<(u64, Done<D>)>>,
    order: Reorder<Done<D>>,
    threads: Vec<JoinHandle<()>>,
}

/// Start the reader thread and the worker threads of `setup`; each worker turns an analysed
/// document into what the consumer takes with `make`.
pub(super) fn start<D, M>(setup: Setup, make: M) -> Running<D>
where
    D: Send + 'static,
    M: Fn(Document) -> D + Send + Sync + 'static,
{
    let n = setup.threads.max(1);
    // Batches of jobs from the reader to the workers, batches of results from the workers to
    // the consumer, and the tokens of the window.
    let (job_tx, job_rx) = bounded::<Vec<(u64, Job)>>(2 * n);
    let (done_tx, done_rx) = bounded::<Vec<(u64, Done<D>)>>(2 * n);
    let (token_tx, token_rx) = full_window(n);
    let mut threads = Vec::with_capacity(n + 1);
    let (inputs, max_payload, retry) = (Arc::clone(&setup.inputs), setup.max_payload, setup.retry);
    let stop = setup.stop;
    threads.push(std::thread::spawn(move || {
        reader(&inputs, max_payload, retry, &stop, job_tx, token_rx)
    }));
    let work = Arc::new(Work {
        inputs: setup.inputs,
        models: setup.models,
        cfg: setup.doc,
        max_payload,
        make,
    });
    for _ in 0..n {
        let (rx, tx, work) = (job_rx.clone(), done_tx.clone(), Arc::clone(&work));
        threads.push(std::thread::spawn(move || worker(&work, rx, tx)));
    }
    Running {
        results: done_rx,
        order: Reorder::new(token_tx),
        threads,
    }
}

impl<D> Running<D> {
    /// The next result in input order, waiting for it; `None` once the threads are done.
    pub(super) fn next(&mut self) -> Option<Done<D>> {
        loop {
            if let Some(done) = self.order.pop() {
                return Some(done);
            }
            self.order.extend(self.results.recv().ok()?);
        }
    }

    /// Wait for the threads to end (after [`Running::next`] gave `None`).
    pub(super) fn join(self) {
        for t in self.threads {
            let _ = t.join();
        }
    }
}

/// The window for `threads` workers, full of tokens: the reader takes one per item from the
/// receiver, the consumer gives it back through the sender once the item is consumed in order.
fn full_window(threads: usize) -> (Sender<()>, Receiver<()>) {
    let window = 64 * threads + 64;
    let (token_tx, token_rx) = bounded(window);
    for _ in 0..window {
        token_tx.send(()).expect("fresh channel");
    }
    (token_tx, token_rx)
}

/// The consumer's side of the window: results as they come from the workers, in any order,
/// and the sequence number of the next one in input order.
struct Reorder<D> {
    tokens: Sender<()>,
    pending: BTreeMap<u64, D>,
    next: u64,
}

impl<D> Reorder<D> {
    /// Nothing received yet; tokens go back through `tokens`.
    fn new(tokens: Sender<()>) -> Reorder<D> {
        Reorder {
            tokens,
            pending: BTreeMap::new(),
            next: 0,
        }
    }

    /// Hold a batch of results until their turn.
    fn extend(&mut self, batch: Vec<(u64, D)>) {
        self.pending.extend(batch);
    }

    /// The next result in input order, if it has come; its token goes back to the reader.
    fn pop(&mut self) -> Option<D> {
        let item = self.pending.remove(&self.next)?;
        self.next += 1;
        let _ = self.tokens.try_send(());
        Some(item)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn results_come_out_in_order_and_each_gives_its_token_back() {
        let (token_tx, token_rx) = full_window(1);
        let window = token_rx.len();
        assert_eq!(window, 128);
        for _ in 0..3 {
            token_rx.recv().unwrap();
        }
        let mut order = Reorder::new(token_tx);
        order.extend(vec![(2, "c")]);
        assert_eq!(order.pop(), None, "0 has not come");
        order.extend(vec![(1, "b"), (0, "a")]);
        assert_eq!(order.pop(), Some("a"));
        assert_eq!(order.pop(), Some("b"));
        assert_eq!(order.pop(), Some("c"));
        assert_eq!(order.pop(), None);
        assert_eq!(token_rx.len(), window, "every token back");
    }
}

//! The ordering window: the channels between the reader, the workers and the consumer of their
//! results (the writer, or [`super::stream::Documents`]), and the window of tokens that bounds
//! how far the reader may run ahead. Every item carries a sequence number; [`Reorder`] hands
//! the consumer the items in that order and gives each one's token back to the reader.

use std::collections::BTreeMap;

use crossbeam_channel::{Receiver, Sender, bounded};

use super::reader::Job;

/// The channels between the reader, the workers and the consumer of their results (the
/// writer, or [`super::stream::Documents`]), and the tokens of the window: the reader takes one
/// per item, the consumer gives it back once the item is consumed in order.
pub(crate) struct Channels<D> {
    /// Batches of jobs, from the reader to the workers.
    pub job_tx: Sender<Vec<(u64, Job)>>,
    /// The workers' end of `job_tx`.
    pub job_rx: Receiver<Vec<(u64, Job)>>,
    /// Batches of results, from the workers to the consumer.
    pub done_tx: Sender<Vec<(u64, D)>>,
    /// The consumer's end of `done_tx`.
    pub done_rx: Receiver<Vec<(u64, D)>>,
    /// Where the consumer gives tokens back.
    pub token_tx: Sender<()>,
    /// Where the reader takes a token per item.
    pub token_rx: Receiver<()>,
}

/// [`Channels`] for `threads` workers, the window full of tokens.
pub(crate) fn channels<D>(threads: usize) -> Channels<D> {
    let window = 64 * threads + 64;
    let (job_tx, job_rx) = bounded(2 * threads);
    let (done_tx, done_rx) = bounded(2 * threads);
    let (token_tx, token_rx) = bounded(window);
    for _ in 0..window {
        token_tx.send(()).expect("fresh channel");
    }
    Channels {
        job_tx,
        job_rx,
        done_tx,
        done_rx,
        token_tx,
        token_rx,
    }
}

/// The consumer's side of the window: results as they come from the workers, in any order,
/// and the sequence number of the next one in input order.
pub(crate) struct Reorder<D> {
    tokens: Sender<()>,
    pending: BTreeMap<u64, D>,
    next: u64,
}

impl<D> Reorder<D> {
    /// Nothing received yet; tokens go back through `tokens`.
    pub(crate) fn new(tokens: Sender<()>) -> Reorder<D> {
        Reorder {
            tokens,
            pending: BTreeMap::new(),
            next: 0,
        }
    }

    /// Hold result `seq` until its turn.
    pub(crate) fn insert(&mut self, seq: u64, item: D) {
        self.pending.insert(seq, item);
    }

    /// Hold a batch of results until their turn.
    pub(crate) fn extend(&mut self, batch: Vec<(u64, D)>) {
        self.pending.extend(batch);
    }

    /// The next result in input order, if it has come; its token goes back to the reader.
    pub(crate) fn pop(&mut self) -> Option<D> {
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
        let Channels {
            token_tx, token_rx, ..
        } = channels::<&str>(1);
        let window = token_rx.len();
        assert_eq!(window, 128);
        for _ in 0..3 {
            token_rx.recv().unwrap();
        }
        let mut order = Reorder::new(token_tx);
        order.insert(2, "c");
        assert_eq!(order.pop(), None, "0 has not come");
        order.extend(vec![(1, "b"), (0, "a")]);
        assert_eq!(order.pop(), Some("a"));
        assert_eq!(order.pop(), Some("b"));
        assert_eq!(order.pop(), Some("c"));
        assert_eq!(order.pop(), None);
        assert_eq!(token_rx.len(), window, "every token back");
    }
}

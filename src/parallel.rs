//! One ordered parallel map for the work that is split into independent jobs (pages to
//! analyse, folds to train).

use std::sync::atomic::{AtomicUsize, Ordering};

/// `f(0)`, …, `f(n - 1)`, computed on up to `threads` threads (each takes the next job when
/// it is free), in job order: the result does not depend on the thread count. A panic in `f`
/// is resumed on the caller's thread.
pub(crate) fn map<T: Send>(n: usize, threads: usize, f: impl Fn(usize) -> T + Sync) -> Vec<T> {
    let next = AtomicUsize::new(0);
    let work = || {
        let mut done = Vec::new();
        loop {
            let i = next.fetch_add(1, Ordering::Relaxed);
            if i >= n {
                return done;
            }
            done.push((i, f(i)));
        }
    };
    let mut done: Vec<(usize, T)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads.clamp(1, n.max(1)))
            .map(|_| s.spawn(work))
            .collect();
        workers
            .into_iter()
            .flat_map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p)))
            .collect()
    });
    done.sort_unstable_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, t)| t).collect()
}

/// As [`map`], but the jobs start largest first by `sizes[i]` (ties in job order), so that
/// the last to finish on a few threads is a small one; results are still in job order.
pub(crate) fn map_largest_first<T: Send>(
    sizes: &[u64],
    threads: usize,
    f: impl Fn(usize) -> T + Sync,
) -> Vec<T> {
    let mut order: Vec<usize> = (0..sizes.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(sizes[i]));
    let mut done = map(order.len(), threads, |k| (order[k], f(order[k])));
    done.sort_unstable_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, t)| t).collect()
}

#[cfg(test)]
mod tests {
    #[test]
    fn results_are_in_job_order_at_any_thread_count() {
        let square = |i: usize| i * i;
        let want: Vec<usize> = (0..100).map(square).collect();
        for threads in [0, 1, 3, 200] {
            assert_eq!(super::map(100, threads, square), want);
        }
        assert!(super::map(0, 4, square).is_empty());
    }

    #[test]
    #[should_panic(expected = "job 7")]
    fn a_panic_reaches_the_caller() {
        super::map(10, 2, |i| assert!(i != 7, "job 7"));
    }

    #[test]
    fn largest_first_starts_the_largest_jobs_first_and_returns_job_order() {
        let sizes = [3, 9, 1, 9, 5];
        let started = std::sync::Mutex::new(Vec::new());
        let got = super::map_largest_first(&sizes, 1, |i| {
            started.lock().unwrap().push(i);
            i * 10
        });
        assert_eq!(got, vec![0, 10, 20, 30, 40]);
        assert_eq!(started.into_inner().unwrap(), vec![1, 3, 4, 0, 2]);
        assert_eq!(
            super::map_largest_first(&sizes, 3, |i| i),
            vec![0, 1, 2, 3, 4]
        );
    }
}

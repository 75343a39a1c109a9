//! What the remote inputs share: the retries of their requests ([`Retry`]) and s3:// URLs
//! ([`s3_parts`]). A leaf below `source`, `fetch` and `s3`.

#[cfg(feature = "http")]
use std::io;
use std::time::Duration;

#[cfg(feature = "http")]
use crate::stop::Stop;

/// The bucket and key of an `s3://bucket/key` URL (the key as written, not percent-decoded,
/// as AWS's tools take it); `None` when it is not one, names no bucket, or has a `.` or `..`
/// segment in its key (a path, not a key, as URLs resolve them).
pub fn s3_parts(url: &str) -> Option<(&str, &str)> {
    let rest = url
        .get(..5)
        .filter(|p| p.eq_ignore_ascii_case("s3://"))
        .map(|_| &url[5..])?;
    let (bucket, key) = rest.split_once('/').unwrap_or((rest, ""));
    let bad = bucket.is_empty()
        || bucket.contains(['?', '#', '@', ':'])
        || key.split('/').any(|s| s == "." || s == "..");
    (!bad).then_some((bucket, key))
}

/// Retries of HTTP requests.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Retry {
    /// Attempts after the first one, per failure (the count restarts once bytes arrive).
    pub retries: u32,
    /// Wait before the first retry; it doubles with each further retry, up to `max_wait`.
    pub wait: Duration,
    /// Longest wait between two retries.
    pub max_wait: Duration,
    /// A connection that delivers nothing for this long counts as failed.
    pub timeout: Duration,
}

impl Default for Retry {
    fn default() -> Self {
        Retry {
            retries: 8,
            wait: Duration::from_secs(2),
            max_wait: Duration::from_secs(60),
            timeout: Duration::from_secs(60),
        }
    }
}

impl Retry {
    /// The wait before retry `attempt` (from 1): doubling, capped, plus up to 25 % jitter so
    /// that the tasks of a cluster job do not retry in step.
    #[cfg_attr(not(feature = "http"), allow(dead_code))]
    pub(super) fn wait(&self, attempt: u32) -> Duration {
        let base = self
            .wait
            .saturating_mul(1u32 << (attempt - 1).min(20))
            .min(self.max_wait);
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.subsec_nanos());
        base + base.mul_f64(f64::from(nanos % 1000) / 4000.0)
    }

    /// Say that `failure` (what failed and why) is retried, and sleep before retry `attempt`
    /// (resuming `from_byte` when given) in short steps, so a stop request is not held up: it
    /// ends the wait with an `Interrupted` error.
    #[cfg(feature = "http")]
    pub(super) fn pause(
        &self,
        attempt: u32,
        failure: &str,
        from_byte: Option<u64>,
        stop: &Stop,
    ) -> io::Result<()> {
        let wait = self.wait(attempt);
        let from = from_byte
            .map(|b| format!(" from byte {b}"))
            .unwrap_or_default();
        eprintln!(
            "cowrex: {failure}; retry {attempt}/{}{from} in {:.1} s",
            self.retries,
            wait.as_secs_f64()
        );
        let until = std::time::Instant::now() + wait;
        while std::time::Instant::now() < until {
            stop.check()?;
            std::thread::sleep(Duration::from_millis(50).min(wait));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn s3_urls_split_into_bucket_and_key() {
        assert_eq!(
            s3_parts("s3://cc/a/b c.warc.gz"),
            Some(("cc", "a/b c.warc.gz"))
        );
        assert_eq!(s3_parts("S3://cc"), Some(("cc", "")));
        assert_eq!(s3_parts("s3://cc/"), Some(("cc", "")));
        assert_eq!(s3_parts("s3:///k"), None);
        assert_eq!(s3_parts("s3://cc/a/../k"), None);
        assert_eq!(s3_parts("s3://cc/./k"), None);
        assert_eq!(s3_parts("https://cc/k"), None);
    }

    #[test]
    fn backoff_doubles_up_to_the_cap() {
        let r = Retry {
            retries: 5,
            wait: Duration::from_secs(1),
            max_wait: Duration::from_secs(5),
            timeout: Duration::from_secs(1),
        };
        for (attempt, base) in [(1, 1.0), (2, 2.0), (3, 4.0), (4, 5.0), (30, 5.0)] {
            let w = r.wait(attempt).as_secs_f64();
            assert!(
                (base..=base * 1.25).contains(&w),
                "attempt {attempt}: {w} s"
            );
        }
    }
}

//! Near-duplicate detection over shingle files: texrex's `tender` (reference §1(c)) with
//! external sorting, so memory is bounded by [`DedupConfig::memory`], not by the input.
//!
//! 1. Every shingle line becomes a record (hash, id, size); records are sorted in runs of
//!    bounded size (runs are sorted on worker threads) and merged.
//! 2. For each hash shared by more than one and fewer than `max_redundancy` documents, every
//!    pair of them becomes a record (shorter id, longer id); pairs are sorted the same way.
//! 3. A pair that occurs at least `threshold` times (documents sharing that many min-hashes)
//!    blacklists its shorter document. Unlike texrex, the last pair of the input is evaluated
//!    too. Equal sizes blacklist the document with the greater id, so the result does not
//!    depend on input order.

use std::cmp::Reverse;
use std::collections::{BinaryHeap, HashSet};
use std::fs::{self, File};
use std::io::{self, BufRead, BufReader, BufWriter, Read, Write};
use std::path::{Path, PathBuf};
use std::thread::JoinHandle;

use super::{ID_LEN, LINE_LEN};
use crate::stop::Stop;

/// Settings of a dedup run.
#[derive(Debug, Clone)]
pub struct DedupConfig {
    /// Shared min-hashes from which a pair counts as near-duplicate (texrex's `-l`, 5).
    pub threshold: u32,
    /// Hashes shared by this many documents or more are ignored (texrex's `-m`, 200).
    pub max_redundancy: usize,
    /// Bytes of records held in memory for sorting, over all threads.
    pub memory: usize,
    /// Sorting threads.
    pub threads: usize,
    /// Where a temporary directory for the sorted runs is made (removed afterwards).
    pub tmp_dir: PathBuf,
    /// Ids whose shingles are ignored (blacklists of earlier cycles).
    pub previous: HashSet<[u8; ID_LEN]>,
    /// The run's stop: the run ends with [`crate::stop::stopped`] once it is requested.
    pub stop: Stop,
}

/// What a dedup run did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct DedupStats {
    /// Shingle lines read.
    pub lines: u64,
    /// Lines that are not 68 characters of texrex's layout (skipped).
    pub malformed: u64,
    /// Lines of documents in a previous blacklist (skipped).
    pub previously_blacklisted: u64,
    /// Hashes shared by at least `max_redundancy` documents (ignored).
    pub redundant_hashes: u64,
    /// Document pairs sharing a hash, counted once per shared hash.
    pub pair_records: u64,
    /// Pairs sharing at least `threshold` hashes.
    pub near_duplicate_pairs: u64,
    /// Documents blacklisted (ids written).
    pub blacklisted: u64,
    /// Sorted runs written to disk (both phases).
    pub runs: u64,
}

/// A fixed-size record that can be sorted externally.
trait Rec: Ord + Copy + Send + 'static {
    const SIZE: usize;
    fn put(&self, out: &mut Vec<u8>);
    fn get(b: &[u8]) -> Self;
}

/// One shingle line: a min-hash of a document, its id and its size. Ordered by hash, then
/// id, then size.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Shingle {
    /// The min-hash.
    pub hash: u64,
    /// The document's id.
    pub id: [u8; ID_LEN],
    /// The document's size, bytes of its content (of a near-duplicate pair, the smaller is
    /// blacklisted).
    pub size: u64,
}

impl Rec for Shingle {
    const SIZE: usize = 8 + ID_LEN + 8;
    fn put(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.hash.to_be_bytes());
        out.extend_from_slice(&self.id);
        out.extend_from_slice(&self.size.to_be_bytes());
    }
    fn get(b: &[u8]) -> Self {
        Shingle {
            hash: u64::from_be_bytes(b[..8].try_into().expect("8 bytes")),
            id: b[8..8 + ID_LEN].try_into().expect("id"),
            size: u64::from_be_bytes(b[8 + ID_LEN..].try_into().expect("8 bytes")),
        }
    }
}

/// A pair of documents sharing one hash: (the one to blacklist, the other).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Pair([u8; ID_LEN], [u8; ID_LEN]);

impl Rec for Pair {
    const SIZE: usize = 2 * ID_LEN;
    fn put(&self, out: &mut Vec<u8>) {
        out.extend_from_slice(&self.0);
        out.extend_from_slice(&self.1);
    }
    fn get(b: &[u8]) -> Self {
        Pair(
            b[..ID_LEN].try_into().expect("id"),
            b[ID_LEN..].try_into().expect("id"),
        )
    }
}

/// Most runs merged at once; more are merged in rounds.
const FAN_IN: usize = 64;

/// Sorts records of any number in bounded memory: full buffers are sorted on threads and
/// written as runs, then merged.
struct Sorter<R: Rec> {
    buf: Vec<R>,
    cap: usize,
    dir: PathBuf,
    name: &'static str,
    runs: Vec<PathBuf>,
    pending: Vec<JoinHandle<io::Result<PathBuf>>>,
    threads: usize,
    written: u64,
    stop: Stop,
}

impl<R: Rec> Sorter<R> {
    fn new(cfg: &DedupConfig, dir: &Path, name: &'static str) -> Sorter<R> {
        // One buffer filling and one being sorted per thread.
        let cap = (cfg.memory / (cfg.threads + 1) / R::SIZE).max(1024);
        Sorter {
            buf: Vec::new(),
            cap,
            dir: dir.to_path_buf(),
            name,
            runs: Vec::new(),
            pending: Vec::new(),
            threads: cfg.threads.max(1),
            written: 0,
            stop: cfg.stop.clone(),
        }
    }

    fn push(&mut self, r: R) -> io::Result<()> {
        self.stop.check()?;
        if self.buf.capacity() == 0 {
            self.buf.reserve_exact(self.cap);
        }
        self.buf.push(r);
        if self.buf.len() >= self.cap {
            self.spill()?;
        }
        Ok(())
    }

    fn run_path(&mut self) -> PathBuf {
        self.written += 1;
        self.dir
            .join(format!("{}.{:06}.run", self.name, self.written))
    }

    fn spill(&mut self) -> io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        while self.pending.len() >= self.threads {
            let h = self.pending.remove(0);
            self.runs.push(join(h)?);
        }
        let buf = std::mem::take(&mut self.buf);
        let path = self.run_path();
        self.pending.push(std::thread::spawn(move || {
            let mut buf = buf;
            buf.sort_unstable();
            write_run(&path, buf.into_iter().map(Ok))?;
            Ok(path)
        }));
        Ok(())
    }

    /// All records in order.
    fn finish(mut self) -> io::Result<(Merge<R>, u64)> {
        if self.runs.is_empty() && self.pending.is_empty() {
            // Everything fits in memory: no run files.
            let mut buf = std::mem::take(&mut self.buf);
            buf.sort_unstable();
            return Ok((Merge::memory(buf), 0));
        }
        self.spill()?;
        for h in std::mem::take(&mut self.pending) {
            self.runs.push(join(h)?);
        }
        while self.runs.len() > FAN_IN {
            let group: Vec<PathBuf> = self.runs.drain(..FAN_IN).collect();
            let path = self.run_path();
            write_run(&path, Merge::<R>::files(&group)?)?;
            for p in &group {
                fs::remove_file(p)?;
            }
            self.runs.push(path);
        }
        Ok((Merge::files(&self.runs)?, self.written))
    }
}

fn join(h: JoinHandle<io::Result<PathBuf>>) -> io::Result<PathBuf> {
    h.join()
        .map_err(|_| io::Error::other("a sorting thread panicked"))?
}

fn write_run<R: Rec>(path: &Path, recs: impl Iterator<Item = io::Result<R>>) -> io::Result<()> {
    let mut w = BufWriter::with_capacity(1 << 20, File::create(path)?);
    let mut b = Vec::with_capacity(R::SIZE);
    for r in recs {
        b.clear();
        r?.put(&mut b);
        w.write_all(&b)?;
    }
    w.into_inner().map_err(|e| e.into_error())?.sync_data()
}

/// Sorted records from memory or from a k-way merge of run files.
enum Merge<R: Rec> {
    Memory(std::vec::IntoIter<R>),
    Files {
        readers: Vec<BufReader<File>>,
        heap: BinaryHeap<Reverse<(R, usize)>>,
        buf: Vec<u8>,
    },
}

impl<R: Rec> Merge<R> {
    fn memory(v: Vec<R>) -> Self {
        Merge::Memory(v.into_iter())
    }

    fn files(paths: &[PathBuf]) -> io::Result<Self> {
        let mut readers = Vec::with_capacity(paths.len());
        for p in paths {
            readers.push(BufReader::with_capacity(1 << 16, File::open(p)?));
        }
        let mut m = Merge::Files {
            readers,
            heap: BinaryHeap::new(),
            buf: vec![0; R::SIZE],
        };
        if let Merge::Files { readers, heap, buf } = &mut m {
            for (i, reader) in readers.iter_mut().enumerate() {
                if let Some(r) = read_rec(reader, buf)? {
                    heap.push(Reverse((r, i)));
                }
            }
        }
        Ok(m)
    }
}

fn read_rec<R: Rec>(r: &mut BufReader<File>, buf: &mut [u8]) -> io::Result<Option<R>> {
    match r.read_exact(buf) {
        Ok(()) => Ok(Some(R::get(buf))),
        Err(e) if e.kind() == io::ErrorKind::UnexpectedEof => Ok(None),
        Err(e) => Err(e),
    }
}

impl<R: Rec> Iterator for Merge<R> {
    type Item = io::Result<R>;
    fn next(&mut self) -> Option<io::Result<R>> {
        match self {
            Merge::Memory(it) => it.next().map(Ok),
            Merge::Files { readers, heap, buf } => {
                let Reverse((r, i)) = heap.pop()?;
                match read_rec(&mut readers[i], buf) {
                    Ok(Some(next)) => heap.push(Reverse((next, i))),
                    Ok(None) => {}
                    Err(e) => return Some(Err(e)),
                }
                Some(Ok(r))
            }
        }
    }
}

/// A directory removed with everything in it when dropped.
struct TempDir(PathBuf);

impl TempDir {
    fn new(parent: &Path) -> io::Result<TempDir> {
        for n in 0u32.. {
            let p = parent.join(format!(".cowrex-dedup-{}-{n}", std::process::id()));
            match fs::create_dir(&p) {
                Ok(()) => return Ok(TempDir(p)),
                Err(e) if e.kind() == io::ErrorKind::AlreadyExists => continue,
                Err(e) => {
                    return Err(io::Error::new(
                        e.kind(),
                        format!(
                            "cannot make a temporary directory in {}: {e}",
                            parent.display()
                        ),
                    ));
                }
            }
        }
        unreachable!("some name is free")
    }
}

impl Drop for TempDir {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Parse one shingle line (without its newline); `None` when it is malformed.
pub fn parse_line(line: &[u8]) -> Option<Shingle> {
    if line.len() != LINE_LEN || line[20] != b' ' || line[57] != b' ' {
        return None;
    }
    let num = |b: &[u8]| -> Option<u64> {
        if !b.iter().all(u8::is_ascii_digit) {
            return None;
        }
        std::str::from_utf8(b).ok()?.parse().ok()
    };
    Some(Shingle {
        hash: num(&line[..20])?,
        id: line[21..57]
            .try_into()
            .ok()
            .filter(|id: &[u8; ID_LEN]| is_id(id))?,
        size: num(&line[58..])?,
    })
}

/// Whether bytes are a document id: [`ID_LEN`] hexadecimal digits.
fn is_id(b: &[u8]) -> bool {
    b.len() == ID_LEN && b.iter().all(u8::is_ascii_hexdigit)
}

/// Read a blacklist (one id per line; other lines are an error).
pub fn read_blacklist(path: &Path, into: &mut HashSet<[u8; ID_LEN]>) -> io::Result<()> {
    for (n, line) in crate::output::gz::open(path)?.split(b'\n').enumerate() {
        let line = line?;
        let line = line.trim_ascii_end();
        if line.is_empty() {
            continue;
        }
        let id = <[u8; ID_LEN]>::try_from(line)
            .ok()
            .filter(|id| is_id(id))
            .ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::InvalidData,
                    format!(
                        "{}:{}: not a document id ({ID_LEN} hexadecimal digits)",
                        path.display(),
                        n + 1
                    ),
                )
            })?;
        into.insert(id);
    }
    Ok(())
}

/// The inner error of an input that could not be read (see [`is_input_error`]).
#[derive(Debug)]
struct InputFailure(String);

impl std::fmt::Display for InputFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for InputFailure {}

fn input_failure(path: &Path, e: io::Error) -> io::Error {
    io::Error::new(e.kind(), InputFailure(format!("{}: {e}", path.display())))
}

/// Whether an error of [`dedup`] is about one of its inputs (rather than its temporary files
/// or output).
pub fn is_input_error(e: &io::Error) -> bool {
    e.get_ref().is_some_and(|inner| inner.is::<InputFailure>())
}

/// Find near-duplicate documents in shingle files and write the blacklist (sorted ids, one
/// per line) to `out`. `warn` receives messages about malformed lines.
pub fn dedup(
    inputs: &[PathBuf],
    cfg: &DedupConfig,
    out: &mut impl Write,
    warn: &mut dyn FnMut(String),
) -> io::Result<DedupStats> {
    let mut st = DedupStats::default();
    let tmp = TempDir::new(&cfg.tmp_dir)?;
    let mut shingles = Sorter::<Shingle>::new(cfg, &tmp.0, "shingles");
    for path in inputs {
        let reader = crate::output::gz::open(path).map_err(|e| input_failure(path, e))?;
        for (n, line) in reader.split(b'\n').enumerate() {
            let line = line.map_err(|e| input_failure(path, e))?;
            st.lines += 1;
            let line = line.strip_suffix(b"\r").unwrap_or(&line);
            let Some(s) = parse_line(line) else {
                st.malformed += 1;
                if st.malformed <= 10 {
                    warn(format!(
                        "{}:{}: not a shingle line of {LINE_LEN} characters, skipped",
                        path.display(),
                        n + 1
                    ));
                }
                continue;
            };
            if cfg.previous.contains(&s.id) {
                st.previously_blacklisted += 1;
                continue;
            }
            shingles.push(s)?;
        }
    }
    let (merged, runs) = shingles.finish()?;
    st.runs += runs;

    // Pairs of documents sharing a hash.
    let mut pairs = Sorter::<Pair>::new(cfg, &tmp.0, "pairs");
    let mut group: Vec<Shingle> = Vec::new();
    let mut group_len = 0usize;
    let flush = |group: &mut Vec<Shingle>,
                 len: usize,
                 pairs: &mut Sorter<Pair>,
                 st: &mut DedupStats|
     -> io::Result<()> {
        if len >= cfg.max_redundancy {
            st.redundant_hashes += 1;
        } else if len > 1 {
            // Sorted by id; a document listed twice pairs with no one twice.
            group.dedup_by(|a, b| a.id == b.id);
            for i in 0..group.len() {
                for j in i + 1..group.len() {
                    let (a, b) = (&group[i], &group[j]);
                    let pair = if a.size < b.size {
                        Pair(a.id, b.id)
                    } else {
                        Pair(b.id, a.id)
                    };
                    st.pair_records += 1;
                    pairs.push(pair)?;
                }
            }
        }
        group.clear();
        Ok(())
    };
    for s in merged {
        let s = s?;
        cfg.stop.check()?;
        if group_len > 0 && group[0].hash != s.hash {
            flush(&mut group, group_len, &mut pairs, &mut st)?;
            group_len = 0;
        }
        if group_len == 0 || group_len < cfg.max_redundancy {
            group.push(s);
        }
        group_len += 1;
    }
    if group_len > 0 {
        flush(&mut group, group_len, &mut pairs, &mut st)?;
    }
    let (merged, runs) = pairs.finish()?;
    st.runs += runs;

    // Pairs sharing enough hashes blacklist their shorter document.
    let mut last_written: Option<[u8; ID_LEN]> = None;
    let mut run: Option<(Pair, u32)> = None;
    let mut judge = |p: Pair, count: u32, st: &mut DedupStats| -> io::Result<()> {
        if count >= cfg.threshold {
            st.near_duplicate_pairs += 1;
            if last_written != Some(p.0) {
                out.write_all(&p.0)?;
                out.write_all(b"\n")?;
                st.blacklisted += 1;
                last_written = Some(p.0);
            }
        }
        Ok(())
    };
    for p in merged {
        let p = p?;
        cfg.stop.check()?;
        match &mut run {
            Some((q, c)) if *q == p => *c += 1,
            _ => {
                if let Some((q, c)) = run.replace((p, 1)) {
                    judge(q, c, &mut st)?;
                }
            }
        }
    }
    // texrex never judged the last run.
    if let Some((q, c)) = run {
        judge(q, c, &mut st)?;
    }
    Ok(st)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn id(n: u32) -> String {
        format!("{n:036}")
    }

    fn lines(docs: &[(u32, usize, Vec<u64>)]) -> String {
        let mut v = Vec::new();
        for (n, size, hashes) in docs {
            super::super::write_lines(&mut v, hashes, &id(*n), *size).unwrap();
        }
        String::from_utf8(v).unwrap()
    }

    fn run(text: &str, memory: usize, threshold: u32, max: usize) -> (Vec<String>, DedupStats) {
        static N: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = N.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
        let dir = std::env::temp_dir().join(format!("cowrex-dedup-{}-{n}", std::process::id()));
        fs::create_dir_all(&dir).unwrap();
        let input = dir.join("in.shingles");
        fs::write(&input, text).unwrap();
        let cfg = DedupConfig {
            threshold,
            max_redundancy: max,
            memory,
            threads: 2,
            tmp_dir: dir.clone(),
            previous: HashSet::new(),
            stop: Stop::new(),
        };
        let mut out = Vec::new();
        let st = dedup(&[input], &cfg, &mut out, &mut |_| {}).unwrap();
        // Only the input is left: the runs went with their temporary directory.
        assert_eq!(fs::read_dir(&dir).unwrap().count(), 1);
        fs::remove_dir_all(&dir).unwrap();
        let ids = String::from_utf8(out)
            .unwrap()
            .lines()
            .map(str::to_string)
            .collect();
        (ids, st)
    }

    #[test]
    fn shorter_document_of_a_near_duplicate_pair_is_blacklisted() {
        // Doc 1 and 2 share 6 hashes, 3 and 4 share 4 (under the threshold), 5 shares one
        // hash with many documents (redundant).
        let mut docs = vec![
            (1, 500, (0..10).collect::<Vec<u64>>()),
            (2, 400, (4..14).collect()),
            (3, 100, (100..110).collect()),
            (4, 200, (106..116).collect()),
        ];
        for n in 10..20 {
            docs.push((n, 50, vec![1000, 2000 + n as u64]));
        }
        let text = lines(&docs);
        let (ids, st) = run(&text, 0, 5, 5);
        assert_eq!(ids, vec![id(2)]);
        assert_eq!(st.lines, 60);
        assert_eq!(st.malformed, 0);
        assert_eq!(st.redundant_hashes, 1);
        assert_eq!(st.near_duplicate_pairs, 1);
        // Threshold 4 catches the second pair; the pair is the last one in order (texrex's
        // last-run bug would miss it).
        let (ids, _) = run(&text, 0, 4, 5);
        assert_eq!(ids, vec![id(2), id(3)]);
        // With a higher redundancy limit, documents 10..19 share 1 hash: not enough.
        assert_eq!(run(&text, 0, 1, 100).0.len(), 11);
    }

    #[test]
    fn equal_sizes_blacklist_the_greater_id_and_bad_lines_are_counted() {
        let docs = vec![
            (7, 300, (0..100).collect::<Vec<u64>>()),
            (3, 300, (0..100).collect()),
        ];
        let text = format!("{}garbage\n", lines(&docs));
        let (ids, st) = run(&text, 0, 5, 200);
        assert_eq!(ids, vec![id(7)]);
        assert_eq!(st.malformed, 1);
    }

    #[test]
    fn external_runs_give_the_same_result() {
        // 300 documents, each near-duplicate of the next one; runs of 1024 records force
        // several runs and a multi-round merge.
        let docs: Vec<(u32, usize, Vec<u64>)> = (0..3000u32)
            .map(|n| {
                (
                    n,
                    1000 - (n % 10) as usize,
                    ((n / 10) as u64 * 1000..(n / 10) as u64 * 1000 + 100).collect(),
                )
            })
            .collect();
        let text = lines(&docs);
        let (ids, st) = run(&text, 1, 5, 200);
        assert!(st.runs > FAN_IN as u64, "{} runs", st.runs);
        // In each group of 10 identical fingerprints the largest (n % 10 == 0) survives.
        assert_eq!(ids.len(), 2700);
        assert!(ids.iter().all(|i| i.parse::<u32>().unwrap() % 10 != 0));
    }
}

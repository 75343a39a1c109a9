//! Corpus-level subcommands: `dedup`, `filter` and `stats merge`.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::time::Instant;

use clap::Args;

use super::CliResult;
use cowrex::error::{EXIT_INPUT_FAILED, EXIT_INTERRUPTED, EXIT_OK, Error, ErrorKind};
use cowrex::output::filter::{Filter, FilterStats};
use cowrex::pipeline;
use cowrex::shingle::dedup::{self, DedupConfig};
use cowrex::signals::{Judge, Preset, Requirement};
use cowrex::stop::Stop;

#[derive(Args)]
pub(super) struct DedupArgs {
    /// Shingle files (S.shingles.gz, gzipped or not) or directories (their *.shingles.gz and
    /// *.shingles files, in subdirectories too).
    #[arg(required = true, value_name = "SHINGLES")]
    inputs: Vec<PathBuf>,
    /// Blacklist to write: the ids of the shorter document of every near-duplicate pair.
    #[arg(short, long, value_name = "BLACKLIST")]
    out: PathBuf,
    /// A pair of documents sharing at least this many of their 100 min-hashes is a
    /// near-duplicate (texrex's default; about Jaccard similarity 0.05 and up).
    #[arg(long, default_value_t = 5, value_name = "N")]
    threshold: u32,
    /// Ignore hashes shared by this many documents or more (boilerplate phrases).
    #[arg(long, default_value_t = 200, value_name = "N")]
    max_redundancy: usize,
    /// Memory for sorting, in MiB; more is sorted on disk.
    #[arg(long, default_value_t = 1024, value_name = "MIB")]
    memory: usize,
    /// Sorting threads (default: available cores).
    #[arg(short = 'j', long, value_name = "N")]
    threads: Option<usize>,
    /// Directory for temporary sorted runs (default: the blacklist's directory).
    #[arg(long, value_name = "DIR")]
    tmp_dir: Option<PathBuf>,
    /// Blacklists of earlier rounds: their documents' shingles are ignored.
    #[arg(long, value_name = "FILE")]
    previous: Vec<PathBuf>,
}

#[derive(Args)]
#[command(
    after_help = "Examples:\n  cowrex filter -b blacklist.txt OUT/*.xml.gz -o CLEAN/\n  \
                  cowrex filter --preset fineweb OUT/*.jsonl.gz -o KEPT/\n  \
                  cowrex filter --require 'gopher_words>=100' --require 'fineweb_char_dup_ratio<0.05' OUT/*.jsonl.gz -o KEPT/\n\n\
                  Documents dropped by their signals are listed with the reason in OUT/S.dropped.tsv \
                  (id, tab, reason such as gopher_quality/gopher_short_doc); the signals: docs/formats.md#quality-signals"
)]
pub(super) struct FilterArgs {
    /// Corpus files: XML or VRT (S.xml.gz, S.vrt.gz) or JSONL (S.jsonl.gz).
    #[arg(required = true, value_name = "CORPUS")]
    inputs: Vec<PathBuf>,
    /// Blacklist files (one document id per line), e.g. from `cowrex dedup`.
    #[arg(short, long, value_name = "FILE", required_unless_present_any = ["preset", "require"])]
    blacklist: Vec<PathBuf>,
    /// Drop documents as these filters of datatrove's would, with their defaults, from the
    /// quality signals (`fineweb`: as FineWeb ran them).
    #[arg(long, value_name = "PRESET", value_parser = super::choice::<Preset>())]
    preset: Option<Preset>,
    /// Keep only documents whose signal meets this condition, e.g. 'gopher_words>=100' (OP:
    /// < <= > >= == !=); repeatable, all must hold; applied after --preset.
    #[arg(long, value_name = "CONDITION")]
    require: Vec<String>,
    /// Output directory; each file keeps its name.
    #[arg(short, long, value_name = "DIR")]
    out: PathBuf,
    /// Keep documents whose id was already written (by default ids stay unique).
    #[arg(long)]
    allow_repeated_ids: bool,
}

#[derive(Args)]
pub(super) struct StatsMergeArgs {
    /// S.stats.json files, or directories (searched recursively for *.stats.json).
    #[arg(required = true, value_name = "STATS")]
    inputs: Vec<PathBuf>,
    /// Write the sum here instead of to standard output.
    #[arg(short, long, value_name = "FILE")]
    out: Option<PathBuf>,
}

pub(super) fn stats_merge(a: StatsMergeArgs) -> CliResult {
    let mut files = Vec::new();
    for p in &a.inputs {
        if p.is_dir() {
            collect_stats(p, &mut files)?;
        } else {
            files.push(p.clone());
        }
    }
    files.sort();
    if files.is_empty() {
        return Err(Error::usage("no .stats.json files found"));
    }
    let mut values = Vec::new();
    for f in &files {
        let bytes = std::fs::read(f).map_err(|e| Error::input(f.display(), e))?;
        values.push(serde_json::from_slice(&bytes).map_err(|e| {
            Error::new(ErrorKind::Input, format!("{}: {e}", f.display())).caused_by(e)
        })?);
    }
    let merged = cowrex::output::stats::merge(&values)?;
    let text = serde_json::to_string_pretty(&merged).expect("a JSON value serialises") + "\n";
    match &a.out {
        Some(o) => std::fs::write(o, text).map_err(|e| Error::output(o.display(), e))?,
        None => print!("{text}"),
    }
    Ok(EXIT_OK)
}

fn collect_stats(dir: &Path, out: &mut Vec<PathBuf>) -> Result<(), Error> {
    let entries = std::fs::read_dir(dir)
        .map_err(|e| Error::input(format!("directory {}", dir.display()), e))?;
    for e in entries.flatten() {
        let p = e.path();
        if p.is_dir() {
            collect_stats(&p, out)?;
        } else if p.to_string_lossy().ends_with(".stats.json") {
            out.push(p);
        }
    }
    Ok(())
}

/// Files of the given paths: files as they are, directories' files whose name passes `want`
/// (sorted; with `recursive`, also those of their subdirectories, as a manifest run mirrors
/// its inputs' paths).
pub(super) fn expand(
    paths: &[PathBuf],
    want: impl Fn(&str) -> bool + Copy,
    recursive: bool,
) -> Result<Vec<PathBuf>, Error> {
    let mut out = Vec::new();
    for p in paths {
        if p.is_dir() {
            let mut files = Vec::new();
            let mut subdirs = Vec::new();
            for f in std::fs::read_dir(p)
                .map_err(|e| Error::input(format!("directory {}", p.display()), e))?
                .filter_map(|e| e.ok().map(|e| e.path()))
            {
                if f.is_dir() {
                    subdirs.push(f);
                } else if f.is_file() && f.file_name().is_some_and(|n| want(&n.to_string_lossy())) {
                    files.push(f);
                }
            }
            files.sort();
            out.extend(files);
            if recursive {
                subdirs.sort();
                out.extend(expand(&subdirs, want, true)?);
            }
        } else if p.exists() {
            // Files, and named pipes or devices, which are read as files.
            out.push(p.clone());
        } else {
            return Err(Error::input(p.display(), "no such file or directory"));
        }
    }
    Ok(out)
}

pub(super) fn dedup(a: DedupArgs) -> CliResult {
    let stop = Stop::new();
    let _signals = crate::signals::install(&stop)?;
    let inputs = expand(
        &a.inputs,
        |n| n.ends_with(".shingles.gz") || n.ends_with(".shingles"),
        true,
    )?;
    if inputs.is_empty() {
        return Err(Error::usage("no shingle files found"));
    }
    if a.threshold == 0 {
        return Err(Error::usage("--threshold must be at least 1"));
    }
    let dir = a
        .out
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let mut previous = HashSet::new();
    for p in &a.previous {
        dedup::read_blacklist(p, &mut previous).map_err(|e| Error::input(p.display(), e))?;
    }
    let cfg = DedupConfig {
        threshold: a.threshold,
        max_redundancy: a.max_redundancy,
        memory: a.memory.max(1) << 20,
        threads: super::threads_or_cores(a.threads),
        tmp_dir: a.tmp_dir.unwrap_or_else(|| dir.clone()),
        previous,
        stop,
    };
    let started = Instant::now();
    let tmp = pipeline::tmp_path(&a.out);
    let file = std::fs::File::create(&tmp).map_err(|e| Error::output(tmp.display(), e))?;
    let mut w = std::io::BufWriter::new(file);
    let st = dedup::dedup(&inputs, &cfg, &mut w, &mut |m| {
        eprintln!("cowrex: warning: {m}")
    });
    let st = match st {
        Ok(st) => st,
        Err(e) => {
            drop(w);
            let _ = std::fs::remove_file(&tmp);
            if cowrex::stop::is_stop(&e) {
                eprintln!("cowrex: stopped by a signal; nothing was written");
                return Ok(EXIT_INTERRUPTED);
            }
            if dedup::is_input_error(&e) {
                return Err(Error::new(ErrorKind::Input, e.to_string()));
            }
            return Err(Error::output(tmp.display(), e));
        }
    };
    std::io::Write::flush(&mut w).map_err(|e| Error::output(tmp.display(), e))?;
    drop(w);
    std::fs::rename(&tmp, &a.out).map_err(|e| Error::output(a.out.display(), e))?;
    eprintln!(
        "cowrex: {} shingle lines from {} files ({} malformed, {} of earlier blacklists); \
         {} pair records, {} hashes shared by ≥ {} documents ignored; {} near-duplicate pairs; \
         {} documents blacklisted in {}; {:.1} s",
        st.lines,
        inputs.len(),
        st.malformed,
        st.previously_blacklisted,
        st.pair_records,
        st.redundant_hashes,
        a.max_redundancy,
        st.near_duplicate_pairs,
        st.blacklisted,
        a.out.display(),
        started.elapsed().as_secs_f64()
    );
    Ok(EXIT_OK)
}

/// A file name up to its first `.` (`S` of `S.jsonl.gz`).
fn stem(name: &std::ffi::OsStr) -> String {
    let name = name.to_string_lossy();
    name.split('.').next().unwrap_or(&name).to_string()
}

pub(super) fn filter(a: FilterArgs) -> CliResult {
    let stop = Stop::new();
    let _signals = crate::signals::install(&stop)?;
    let mut blacklist = HashSet::new();
    for p in &a.blacklist {
        dedup::read_blacklist(p, &mut blacklist).map_err(|e| Error::input(p.display(), e))?;
    }
    super::create_out_dir(&a.out)?;
    let mut names = HashSet::new();
    for p in &a.inputs {
        let name = p
            .file_name()
            .ok_or_else(|| Error::input(p.display(), "not a file"))?;
        if !names.insert(name.to_os_string()) {
            return Err(Error::usage(format!(
                "two inputs are named {}",
                name.to_string_lossy()
            )));
        }
        if name.to_string_lossy().ends_with(".parquet") {
            return Err(Error::usage(format!(
                "{}: filter reads XML and JSONL outputs; select a Parquet file's rows by its \
                 `signals` column (datasets, pyarrow, DuckDB)",
                p.display()
            )));
        }
        let out = a.out.join(name);
        let same = |a: &Path, b: &Path| {
            Ok::<_, Error>(
                std::fs::canonicalize(a).map_err(|e| Error::input(a.display(), e))?
                    == std::fs::canonicalize(b).map_err(|e| Error::input(b.display(), e))?,
            )
        };
        if out.exists() && same(&out, p)? {
            return Err(Error::usage(format!(
                "{} would overwrite its input; choose another -o",
                p.display()
            )));
        }
    }
    let judge = Judge {
        preset: a.preset,
        require: a
            .require
            .iter()
            .map(|r| Requirement::parse(r).map_err(Error::usage))
            .collect::<Result<_, _>>()?,
    };
    if judge.is_active() {
        let mut stems = HashSet::new();
        for p in &a.inputs {
            let name = p.file_name().expect("checked");
            if !stems.insert(stem(name)) {
                return Err(Error::usage(format!(
                    "two inputs would write {}.dropped.tsv; filter them in two runs",
                    stem(name)
                )));
            }
        }
    }
    let mut filter = Filter {
        blacklist,
        unique: !a.allow_repeated_ids,
        written: HashSet::new(),
        stop,
        judge,
        reasons: Default::default(),
        dropped: None,
    };
    let mut total = FilterStats::default();
    let mut failed = 0;
    for p in &a.inputs {
        let name = p.file_name().expect("checked");
        let out = a.out.join(name);
        let tmp = pipeline::tmp_path(&out);
        let dropped = a.out.join(format!("{}.dropped.tsv", stem(name)));
        let dropped_tmp = pipeline::tmp_path(&dropped);
        let run = |filter: &mut Filter| -> std::io::Result<FilterStats> {
            if filter.judge.is_active() {
                filter.dropped = Some(Box::new(std::io::BufWriter::new(std::fs::File::create(
                    &dropped_tmp,
                )?)));
            }
            let st = filter.file(p, &tmp)?;
            if let Some(mut w) = filter.dropped.take() {
                w.flush()?;
                drop(w);
                std::fs::rename(&dropped_tmp, &dropped)?;
            }
            std::fs::rename(&tmp, &out)?;
            Ok(st)
        };
        match run(&mut filter) {
            Ok(st) => {
                if st.broken > 0 {
                    eprintln!(
                        "cowrex: warning: {}: {} incomplete documents (or without an id) dropped",
                        p.display(),
                        st.broken
                    );
                }
                total.add(&st);
            }
            Err(e) => {
                filter.dropped = None;
                let _ = std::fs::remove_file(&tmp);
                let _ = std::fs::remove_file(&dropped_tmp);
                if cowrex::stop::is_stop(&e) {
                    eprintln!(
                        "cowrex: stopped by a signal; {} was not written, the files before it were",
                        out.display()
                    );
                    return Ok(EXIT_INTERRUPTED);
                }
                eprintln!("cowrex: {}: {e}", p.display());
                failed += 1;
            }
        }
    }
    eprintln!(
        "cowrex: {} files; {} documents: {} written, {} blacklisted, {} repeated ids, {} broken, {} dropped by their signals",
        a.inputs.len() - failed,
        total.documents,
        total.written,
        total.blacklisted,
        total.repeated_ids,
        total.broken,
        total.judged
    );
    for (reason, n) in &filter.reasons {
        eprintln!("cowrex:   {n:>8}  {reason}");
    }
    Ok(if failed > 0 {
        EXIT_INPUT_FAILED
    } else {
        EXIT_OK
    })
}

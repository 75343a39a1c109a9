//! Batch runs: the task of a sharded run and `cowrex status`.

use std::path::PathBuf;

use clap::Args;

use super::CliResult;
use cowrex::error::{EXIT_OK, Error};
use cowrex::pipeline::{self, manifest};

/// This task's index and the number of tasks: the options, else Slurm's job array variables
/// (`SLURM_ARRAY_TASK_ID` counted from `SLURM_ARRAY_TASK_MIN`, `SLURM_ARRAY_TASK_COUNT`),
/// else task 0 of 1.
pub(super) fn task(index: Option<usize>, count: Option<usize>) -> Result<(usize, usize), Error> {
    let env = |k: &str| -> Result<Option<usize>, Error> {
        match std::env::var(k) {
            Ok(v) => v
                .trim()
                .parse()
                .map(Some)
                .map_err(|_| Error::usage(format!("${k} is not a number: {v:?}"))),
            Err(_) => Ok(None),
        }
    };
    let index = match index {
        Some(i) => i,
        None => match env("SLURM_ARRAY_TASK_ID")? {
            Some(id) => id
                .checked_sub(env("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0))
                .ok_or_else(|| {
                    Error::usage("$SLURM_ARRAY_TASK_ID is below $SLURM_ARRAY_TASK_MIN")
                })?,
            None => 0,
        },
    };
    let count = match count {
        Some(c) => c,
        None => env("SLURM_ARRAY_TASK_COUNT")?.unwrap_or(1),
    };
    if count == 0 || index >= count {
        return Err(Error::usage(format!(
            "task index {index} is not below the task count {count}"
        )));
    }
    Ok((index, count))
}

#[derive(Args)]
pub(super) struct StatusArgs {
    /// The manifest of the run (as given to `process --manifest`).
    #[arg(long, value_name = "FILE")]
    manifest: PathBuf,
    /// As given to `process --input-base`.
    #[arg(long, value_name = "BASE")]
    input_base: Option<String>,
    /// The run's output directory.
    #[arg(long, value_name = "DIR")]
    out: PathBuf,
    /// Write the manifest lines of the inputs not done (failed or missing) to this file, to be
    /// processed by another run.
    #[arg(long, value_name = "FILE")]
    emit_missing: Option<PathBuf>,
}

/// Counts done (an `S.done.json`), failed (statistics but no `S.done.json`: the input could
/// not be read to its end, or the line names nothing cowrex can read) and missing inputs.
pub(super) fn status(a: StatusArgs) -> CliResult {
    let lines = manifest::read(&a.manifest)
        .map_err(|e| Error::input(format!("manifest {}", a.manifest.display()), e))?;
    let (mut done, mut failed, mut missing) = (0, 0, 0);
    let mut left = String::new();
    for line in &lines {
        let state = match manifest::resolve(line, a.input_base.as_deref()) {
            Err(_) => "failed",
            Ok(input) => {
                if pipeline::done_path(&a.out, &input).exists() {
                    "done"
                } else if a.out.join(format!("{}.stats.json", input.stem)).exists() {
                    "failed"
                } else {
                    "missing"
                }
            }
        };
        match state {
            "done" => done += 1,
            "failed" => failed += 1,
            _ => missing += 1,
        }
        if state != "done" {
            left.push_str(line);
            left.push('\n');
        }
    }
    println!(
        "{} inputs: {done} done, {failed} failed, {missing} missing",
        lines.len()
    );
    if let Some(p) = &a.emit_missing {
        std::fs::write(p, left).map_err(|e| Error::output(p.display(), e))?;
    }
    Ok(EXIT_OK)
}

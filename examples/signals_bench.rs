//! The quality signals alone: `signals::compute` on each text of a file, several passes, the
//! seconds per pass on standard error. `scripts/bench/bench_signals.py` runs it.
//!
//! Usage: `signals_bench TEXTS [PASSES] [VALUES]`: TEXTS holds one JSON string a line; VALUES,
//! if given, gets every text's signal values (one line each), to compare two builds.

use std::io::Write;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        return Err("usage: signals_bench TEXTS [PASSES] [VALUES]".into());
    };
    let texts = std::fs::read_to_string(path)?
        .lines()
        .map(serde_json::from_str)
        .collect::<Result<Vec<String>, _>>()?;
    let passes: usize = args.get(2).map_or(Ok(3), |s| s.parse())?;
    let mut values = Vec::new();
    let start = std::time::Instant::now();
    for pass in 0..passes.max(1) {
        for text in &texts {
            let (s, _) = cowrex::signals::compute(text, std::iter::empty());
            if pass == 0 {
                for v in s.values {
                    write!(values, "{v} ")?;
                }
                values.push(b'\n');
            }
        }
    }
    let per_pass = start.elapsed().as_secs_f64() / passes.max(1) as f64;
    eprintln!("{per_pass:.4} s per pass over {} texts", texts.len());
    if let Some(out) = args.get(3) {
        std::fs::write(out, values)?;
    }
    Ok(())
}

//! Language identification alone, as a run reads it: each document's blocks, each block's
//! first `BLOCK_LANGUAGE_BYTES`, a language per block with enough letters and one for the
//! document ([`cowrex::analyze::identify_blocks`]); several passes, the seconds per pass on
//! standard error. `scripts/bench/bench_lid.py` runs it.
//!
//! Usage: `lid_bench DOCS [PASSES] [VALUES]`: DOCS holds one JSON list of block texts a line;
//! VALUES, if given, gets every document's and block's language and score (one line a
//! document), to compare two builds.

use std::io::Write;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().collect();
    let Some(path) = args.get(1) else {
        return Err("usage: lid_bench DOCS [PASSES] [VALUES]".into());
    };
    let docs = std::fs::read_to_string(path)?
        .lines()
        .map(serde_json::from_str)
        .collect::<Result<Vec<Vec<String>>, _>>()?;
    let passes: usize = args.get(2).map_or(Ok(3), |s| s.parse())?;
    let models = cowrex::Models::builtin();
    let id = models.identifier();
    let mut values = Vec::new();
    let start = std::time::Instant::now();
    for pass in 0..passes.max(1) {
        for blocks in &docs {
            let (doc, each) =
                cowrex::analyze::identify_blocks(blocks.iter().map(|b| b.as_str()), id);
            if pass == 0 {
                let show = |l: &Option<cowrex::document::Language>| {
                    l.as_ref()
                        .map_or("-".to_string(), |l| format!("{}:{}", l.code, l.score))
                };
                write!(values, "{}", show(&doc))?;
                for l in &each {
                    write!(values, " {}", show(l))?;
                }
                values.push(b'\n');
            }
        }
    }
    let per_pass = start.elapsed().as_secs_f64() / passes.max(1) as f64;
    eprintln!("{per_pass:.4} s per pass over {} documents", docs.len());
    if let Some(out) = args.get(3) {
        std::fs::write(out, values)?;
    }
    Ok(())
}

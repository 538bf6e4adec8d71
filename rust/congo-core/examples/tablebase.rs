//! Generates, verifies or probes endgame tablebases from Rust:
//!
//! ```text
//! cargo run --release --example tablebase -- generate DIR [MEN] [THREADS]
//! cargo run --release --example tablebase -- probe DIR FEN
//! ```

use std::io::Write;

use congo_core::tablebase::{generate, GenerateOptions, Tablebase};
use congo_core::Position;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match args.iter().map(String::as_str).collect::<Vec<_>>().as_slice() {
        ["generate", dir, rest @ ..] => {
            let men = rest.first().map_or(Ok(4), |s| s.parse())?;
            let threads = rest.get(1).map_or(Ok(2), |s| s.parse())?;
            let tables = rest[2.min(rest.len())..]
                .iter()
                .map(|s| congo_core::tablebase::Material::parse(s))
                .collect::<Result<Vec<_>, _>>()?;
            let force = std::env::var("FORCE").is_ok();
            let options = GenerateOptions { men, threads, force, tables };
            let start = std::time::Instant::now();
            let mut last = usize::MAX;
            let reports = generate(dir.as_ref(), &options, &mut |p| {
                if p.tables_done != last {
                    last = p.tables_done;
                    eprint!(
                        "\r{:5.1}% {}/{} tables {:?}    ",
                        100.0 * p.fraction(),
                        p.tables_done,
                        p.tables_total,
                        p.running
                    );
                    let _ = std::io::stderr().flush();
                }
                true
            })?;
            eprintln!();
            for r in &reports {
                println!(
                    "{:10} {:>10} positions  win {:>9} draw {:>9} loss {:>9}  longest {:>3}  {:6.2} s",
                    r.material.name(),
                    r.positions,
                    r.wins,
                    r.draws,
                    r.losses,
                    r.longest,
                    r.seconds
                );
            }
            println!("total {:.2} s", start.elapsed().as_secs_f64());
        }
        ["simple", dir, rest @ ..] => {
            let men = rest.first().map_or(Ok(4), |s| s.parse())?;
            let threads = rest.get(1).map_or(Ok(2), |s| s.parse())?;
            let options = GenerateOptions { men, threads, force: true, tables: Vec::new() };
            let start = std::time::Instant::now();
            let reports = congo_core::tablebase::simple::generate(dir.as_ref(), &options, &mut |_| true)?;
            println!("{} tables in {:.2} s", reports.len(), start.elapsed().as_secs_f64());
        }
        ["verify", dir, rest @ ..] => {
            let men = rest.first().map_or(Ok(4), |s| s.parse())?;
            let threads = rest.get(1).map_or(Ok(2), |s| s.parse())?;
            let options = congo_core::tablebase::VerifyOptions { men, threads, tables: Vec::new() };
            let start = std::time::Instant::now();
            let reports = congo_core::tablebase::verify(dir.as_ref(), &options, &mut |_| true)?;
            let wrong: u64 = reports.iter().map(|r| r.wrong).sum();
            for r in reports.iter().filter(|r| r.wrong > 0) {
                println!("{} wrong {} {:?}", r.material, r.wrong, r.errors);
            }
            println!(
                "{} tables verified, {wrong} wrong, in {:.2} s",
                reports.len(),
                start.elapsed().as_secs_f64()
            );
        }
        ["probe", dir, fen] => {
            let tb = Tablebase::open(dir)?;
            let pos = Position::from_fen(fen)?;
            println!("{:?}", tb.probe_dtm(&pos));
            if let Some(moves) = tb.root_moves(&pos) {
                for (m, v) in moves {
                    println!("{m} {v}");
                }
            }
        }
        _ => eprintln!("usage: tablebase generate DIR [MEN] [THREADS] | probe DIR FEN"),
    }
    Ok(())
}

//! The protocol server in memory: every command, and what it does with nonsense. (The same over a
//! real pipe, with latencies and fuzzed input, is tested from Python in `tests/test_uci_server.py`.)

use std::time::{Duration, Instant};

use congo_core::uci::{self, Command, Flow, Server, SharedBuffer};

/// Runs a script to the end of its input and returns every line written.
fn run(script: &str) -> Vec<String> {
    let output = SharedBuffer::default();
    uci::run(script.to_owned().into_bytes().leak() as &[u8], output.clone()).unwrap();
    output.text().lines().map(str::to_owned).collect()
}

fn bestmove(lines: &[String]) -> &str {
    lines.iter().rev().find(|l| l.starts_with("bestmove")).map_or("", String::as_str)
}

#[test]
fn the_handshake_lists_every_option() {
    let lines = run("uci\n");
    assert!(lines[0].starts_with("id name congo "));
    assert_eq!(lines[1], "id author the congo developers");
    assert_eq!(lines.last().unwrap(), "uciok");
    for name in ["Threads", "Hash", "MultiPV", "Ponder", "Move Overhead", "Clear Hash", "null_move", "pawn"] {
        assert!(lines.iter().any(|l| l.starts_with(&format!("option name {name} type "))), "{name}");
    }
}

#[test]
fn a_search_reports_infos_and_a_best_move() {
    let lines = run("position startpos moves c2c3\ngo depth 4\n");
    let infos: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth")).collect();
    assert_eq!(infos.len(), 4);
    for info in infos {
        for key in
            [" seldepth ", " multipv 1 ", " score cp ", " nodes ", " nps ", " hashfull ", " time ", " pv "]
        {
            assert!(info.contains(key), "{info} lacks {key}");
        }
    }
    assert!(bestmove(&lines).starts_with("bestmove "));
    assert!(bestmove(&lines).contains(" ponder "));
}

#[test]
fn multipv_and_searchmoves() {
    let lines = run("setoption name MultiPV value 3\nposition fen 7/4l2/7/4c2/7/2p4/1M1L3 w 1\ngo depth 3\n");
    let last: Vec<&String> = lines.iter().filter(|l| l.starts_with("info depth 3 ")).collect();
    assert_eq!(last.len(), 3);
    assert!(last[0].contains(" multipv 1 score mate 1 "));
    assert_eq!(bestmove(&lines), "bestmove b1d3f5d7");
    let lines = run("position fen 7/4l2/7/4c2/7/2p4/1M1L3 w 1\ngo depth 3 searchmoves d1c2 d1e2\n");
    assert!(["bestmove d1c2", "bestmove d1e2"].iter().any(|b| bestmove(&lines).starts_with(b)));
}

#[test]
fn a_decided_position_has_no_move() {
    let lines = run("position fen 7/4l2/7/4c2/7/2p4/1M1L3 w 1 moves b1d3f5d7\ngo depth 3\n");
    assert!(lines.contains(&"info depth 0 score mate 0".to_owned()));
    assert_eq!(bestmove(&lines), "bestmove (none)");
}

#[test]
fn mate_and_clock_limits() {
    // (A `go mate` alone has no bound: the end of the input would stop it.)
    let lines = run("position fen 7/4l2/7/4c2/7/2p4/1M1L3 w 1\ngo mate 1 depth 5\n");
    assert!(lines.iter().any(|l| l.contains("score mate 1")));
    assert_eq!(bestmove(&lines), "bestmove b1d3f5d7");
    let lines = run("position startpos\ngo wtime 500 btime 500 winc 10 binc 10 movestogo 5\n");
    assert!(bestmove(&lines).starts_with("bestmove "));
}

#[test]
fn bad_input_is_answered_and_changes_nothing() {
    let lines = run(concat!(
        "position startpos moves c2c3\n",
        "flibbertigibbet\n",
        "setoption name Threads value lots\n",
        "setoption name Nonsense value 1\n",
        "go depth 0\n",
        "go searchmoves a1a7\n",
        "d\n",
    ));
    let errors = lines.iter().filter(|l| l.starts_with("info string error: ")).count();
    assert_eq!(errors, 5, "{lines:#?}");
    // The position is still the one after c2c3, and the rejected searches still got their bestmove.
    assert!(lines.iter().any(|l| l == "info string fen gmelecz/ppppppp/7/7/2P4/PP1PPPP/GMELECZ b 1"));
    assert_eq!(lines.iter().filter(|l| *l == "bestmove (none)").count(), 2);
}

#[test]
fn a_null_move_in_a_position_command_passes() {
    let lines = run("position fen 3l3/7/7/1p2E2/7/7/3L3 b 5 moves 0000\nd\n");
    assert_eq!(lines[0], "info string fen 3l3/7/7/4E2/7/7/3L3 w 6", "{lines:#?}");
    let lines = run("position startpos moves 0000 0000 c2c3\nd\n");
    assert_eq!(lines[0], "info string fen gmelecz/ppppppp/7/7/2P4/PP1PPPP/GMELECZ b 2", "{lines:#?}");
}

#[test]
fn a_rejected_position_leaves_no_position_to_search() {
    for bad in
        ["position fen not/a/fen w 1", "position startpos moves c2c3 c2c3", "position startpos moves zz9"]
    {
        let lines = run(&format!("position startpos moves c2c3\n{bad}\nd\ngo depth 2\n"));
        assert!(lines[0].starts_with("info string error: position rejected: "), "{lines:#?}");
        assert!(lines.iter().any(|l| l.starts_with("info string no position")), "{lines:#?}");
        assert!(lines.iter().any(|l| l.starts_with("info string error: no position")), "{lines:#?}");
        assert!(!lines.iter().any(|l| l.starts_with("info depth")), "{lines:#?}");
        assert_eq!(bestmove(&lines), "bestmove (none)");
        // The next valid position is searched as usual.
        let lines = run(&format!("{bad}\nposition startpos\ngo depth 2\n"));
        assert!(bestmove(&lines).starts_with("bestmove ") && bestmove(&lines) != "bestmove (none)");
    }
    // A position line too long to read is rejected too, without being held in memory whole.
    let long = format!("position startpos moves {}\ngo depth 2\n", "c2c3 ".repeat(300_000));
    let lines = run(&long);
    assert!(lines[0].starts_with("info string error: position line of "), "{:?}", &lines[..1]);
    assert_eq!(bestmove(&lines), "bestmove (none)");
}

#[test]
fn the_end_of_input_stops_every_search_without_a_limit() {
    for go in ["go", "go infinite", "go searchmoves a2a3", "go mate 50", "go ponder"] {
        let start = std::time::Instant::now();
        let lines = run(&format!("position startpos\n{go}\n"));
        assert!(bestmove(&lines).starts_with("bestmove "), "{go}: {lines:#?}");
        // Not a timing assertion: an unstopped search would run to its maximum depth (minutes).
        assert!(start.elapsed() < std::time::Duration::from_secs(60), "{go}");
    }
}

#[test]
fn the_reader_reads_only_a_few_lines_ahead() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;
    /// Endless lines of 100 kB, counting the bytes handed out.
    struct Lines(Arc<AtomicUsize>);
    impl std::io::Read for Lines {
        fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
            let done = self.0.load(Ordering::SeqCst);
            let n = buf.len().min(4096);
            for (i, b) in buf[..n].iter_mut().enumerate() {
                *b = if (done + i) % 100_000 == 99_999 { b'\n' } else { b'x' };
            }
            self.0.fetch_add(n, Ordering::SeqCst);
            Ok(n)
        }
    }
    let read = Arc::new(AtomicUsize::new(0));
    let receiver = uci::spawn_reader(Lines(Arc::clone(&read)));
    let first = receiver.recv().unwrap();
    assert!(matches!(first, uci::Input::Line(ref l) if l.len() == 99_999));
    std::thread::sleep(std::time::Duration::from_millis(300));
    // Nobody takes the lines: the reader waits with at most INPUT_LINES of them (and the one it
    // holds) read ahead, rather than read 40 MB (or 400 MB) into memory.
    let ahead = read.load(Ordering::SeqCst);
    assert!(ahead <= (uci::INPUT_LINES + 3) * 100_000, "{ahead} bytes read ahead");
    drop(receiver);
}

#[test]
fn an_infinite_search_ends_with_the_input_and_stop_ends_it() {
    let lines = run("go infinite\nisready\nstop\n");
    assert!(lines.contains(&"readyok".to_owned()));
    assert!(bestmove(&lines).starts_with("bestmove "));
    // No controller left: the infinite search stops rather than run forever.
    let lines = run("go infinite\n");
    assert!(bestmove(&lines).starts_with("bestmove "));
}

#[test]
fn a_second_go_while_searching_is_refused() {
    let output = SharedBuffer::default();
    let mut server = Server::new(output.clone()).unwrap();
    assert_eq!(server.handle_line("go infinite"), Flow::Continue);
    server.handle_line("go depth 1");
    server.handle_line("setoption name Hash value 2");
    assert_eq!(server.handle_line("stop"), Flow::Continue);
    assert_eq!(server.handle(Command::Quit), Flow::Quit);
    server.shutdown();
    let text = output.text();
    assert!(text.contains("info string error: already searching"));
    assert!(text.contains("info string error: option Hash cannot be changed during a search"));
    assert_eq!(text.matches("bestmove").count(), 1);
}

#[test]
fn ponder_then_ponderhit() {
    let lines = run("position startpos\ngo ponder movetime 50\nponderhit\n");
    assert!(bestmove(&lines).starts_with("bestmove "));
}

#[test]
fn long_and_binary_lines_are_harmless() {
    let mut script = String::from("uci\n");
    script.push_str(&"x".repeat(uci::MAX_LINE_BYTES + 10));
    script.push('\n');
    script.push_str("\u{0}\u{1}\u{fffd}é\r\nisready\n");
    let lines = run(&script);
    assert!(lines.iter().any(|l| l.contains("bytes ignored")));
    assert_eq!(lines.last().unwrap(), "readyok");
}

#[test]
fn tablebase_path_gives_the_engine_endgame_tables() {
    let dir = std::env::temp_dir().join(format!("congo-uci-tables-{}", std::process::id()));
    let options =
        congo_core::tablebase::GenerateOptions { men: 3, threads: 2, force: true, tables: Vec::new() };
    congo_core::tablebase::generate(&dir, &options, &mut |_| true).unwrap();
    assert!(run("uci\n").iter().any(|l| l == "option name TablebasePath type string default <empty>"));
    // A won three-man position: with the tables the answer is the distance-best move, a mate score
    // and the whole line at once.
    let script = format!(
        "setoption name TablebasePath value {}\nposition fen 7/7/2l4/7/Z6/3L3/7 w 1\ngo depth 1\n",
        dir.display()
    );
    let lines = run(&script);
    assert!(lines.iter().any(|l| l == "info string tablebases: 8 tables, up to 3 men"), "{lines:?}");
    let info = lines.iter().find(|l| l.starts_with("info depth")).unwrap();
    assert!(
        info.contains(" score mate 4 ") && info.ends_with("a3c2 c5c6 d2d1 c6c5 c2b4 c5d5 b4d5"),
        "{info}"
    );
    // A directory that is not one is an error; clearing the option is not.
    let lines =
        run("setoption name TablebasePath value /nonexistent/tables\nsetoption name TablebasePath value\n");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("info string error: TablebasePath: /nonexistent/tables"), "{lines:?}");
    std::fs::remove_dir_all(&dir).unwrap();
}

/// Runs a script line by line on a server, each `go` to its `bestmove` before the next line (the
/// script of [`run`] sends lines while a search runs, when `setoption` is refused).
fn run_each_search_to_its_end(script: &str) -> Vec<String> {
    let output = SharedBuffer::default();
    let mut server = Server::new(output.clone()).unwrap();
    for line in script.lines() {
        let searches = output.text().matches("bestmove").count();
        server.handle_line(line);
        if line.starts_with("go ") {
            let deadline = Instant::now() + Duration::from_secs(120); // a bound, not a latency
            while output.text().matches("bestmove").count() == searches {
                assert!(Instant::now() < deadline, "no bestmove after {line}");
                std::thread::sleep(Duration::from_millis(1));
            }
        }
    }
    server.handle(Command::Quit);
    server.shutdown();
    output.text().lines().map(str::to_owned).collect()
}

#[test]
fn a_weight_the_network_ignores_is_set_with_a_warning() {
    let warnings = |script: &str| -> Vec<String> {
        run_each_search_to_its_end(script)
            .into_iter()
            .filter(|l| l.starts_with("info string warning:"))
            .collect()
    };
    // The default evaluation is the network: the hand-written evaluation's weights change nothing,
    // which the next search says, once (options come in any order: setoption cannot tell yet).
    let warned =
        warnings("setoption name tempo value 0\nsetoption name pst value 50\ngo depth 1\ngo depth 1\n");
    assert_eq!(
        warned,
        ["info string warning: no effect while nnue is on: pst, tempo (weights of the hand-written \
          evaluation; set nnue to 0 to use it)"]
    );
    // The weight first, then the hand-written evaluation: no warning.
    assert!(
        warnings("setoption name tempo value 0\nsetoption name nnue value false\ngo depth 1\n").is_empty()
    );
    // Switching the network back on with such a weight set: a warning at the next search.
    let warned = warnings(
        "setoption name nnue value false\nsetoption name tempo value 0\ngo depth 1\n\
         setoption name nnue value true\ngo depth 1\n",
    );
    assert_eq!(warned.len(), 1, "{warned:?}");
    // A material value (the search reads it too) or a search switch: no warning.
    assert!(warnings("setoption name pawn value 120\nsetoption name null_move value false\ngo depth 1\n")
        .is_empty());
    // The weight is set all the same: with nnue off, it changes the evaluation.
    let score = |script: &str| {
        let lines = run_each_search_to_its_end(script);
        let last = lines.iter().rev().find(|l| l.starts_with("info depth 1 ")).unwrap().clone();
        last.split(" score cp ").nth(1).unwrap().split(' ').next().unwrap().parse::<i32>().unwrap()
    };
    let hand = "setoption name nnue value false\nposition startpos\n";
    assert_ne!(
        score(&format!("{hand}go depth 1\n")),
        score(&format!("setoption name pst value 0\n{hand}go depth 1\n"))
    );
}

#[test]
fn show_wdl_adds_the_models_chances_to_every_scored_info() {
    use congo_core::search::{wdl, Score};
    let script = "position startpos moves c2c3\ngo depth 3\n";
    let off = run(script);
    assert!(off.iter().all(|l| !l.contains(" wdl ")), "{off:?}");
    let on = run(&format!("setoption name UCI_ShowWDL value true\n{script}"));
    let infos: Vec<&String> = on.iter().filter(|l| l.starts_with("info depth")).collect();
    assert_eq!(infos.len(), 3);
    for info in infos {
        let words: Vec<&str> = info.split(' ').collect();
        let at = words.iter().position(|w| *w == "score").unwrap();
        assert_eq!(words[at + 1], "cp", "{info}");
        let cp: i32 = words[at + 2].parse().unwrap();
        // After c2c3 Black is to move at ply 1: the model's chances for that score.
        let w = wdl::wdl(Score::Cp(cp), 1);
        assert_eq!(
            words[at + 3..at + 7],
            ["wdl", &w.wins.to_string(), &w.draws.to_string(), &w.losses.to_string()]
        );
    }
    // A forced result: certain, and the line without a move carries it too.
    let won =
        run("setoption name UCI_ShowWDL value true\nposition fen 7/4l2/7/4c2/7/2p4/1M1L3 w 1\ngo depth 3\n");
    assert!(won.iter().any(|l| l.contains(" score mate 1 wdl 1000 0 0 ")), "{won:?}");
    let lost = run(
        "setoption name UCI_ShowWDL value true\nposition fen 7/4l2/7/4c2/7/2p4/1M1L3 w 1 moves b1d3f5d7\ngo depth 3\n",
    );
    assert!(lost.contains(&"info depth 0 score mate 0 wdl 0 0 1000".to_owned()), "{lost:?}");
    let off_again = run(&format!(
        "setoption name UCI_ShowWDL value true\nsetoption name UCI_ShowWDL value false\n{script}"
    ));
    assert!(off_again.iter().all(|l| !l.contains(" wdl ")), "{off_again:?}");
}

//! Drawing the boards players are posted: each game's picture under the table's band, as
//! the snapshot tests keep them (tests/snapshots/*_game_*.svg: start, middle and end of a
//! whole game of each of the five), turned into PNG the way the bot posts them. Prints the
//! milliseconds per board for each, and beside it the time with the game's picture clipped
//! to its size, as the band nested it before: resvg clips through a mask drawn off the
//! picture, which the band no longer asks for. Run with `cargo bench --bench pictures`;
//! `-- 50` draws each board 50 times instead of 20.

#[path = "shared/machine.rs"]
mod machine;

use machine::load_average;
use referee::picture::png_from_svg;
use std::path::Path;
use std::time::Instant;

/// What the band writes on the nested picture's root so that it is not clipped.
const UNCLIPPED: &str = " overflow=\"visible\"";

/// Milliseconds per drawing of `svg`, over `times` drawings.
fn draw_ms(svg: &str, times: u32) -> f64 {
    let started = Instant::now();
    for _ in 0..times {
        if let Err(error) = png_from_svg(svg) {
            panic!("a snapshot does not draw: {error}");
        }
    }
    started.elapsed().as_secs_f64() * 1e3 / f64::from(times)
}

/// The snapshot at `path`.
fn read(path: &Path) -> String {
    std::fs::read_to_string(path)
        .unwrap_or_else(|error| panic!("{} cannot be read: {error}", path.display()))
}

fn main() {
    let times = std::env::args()
        .skip(1)
        .find_map(|a| a.parse::<u32>().ok())
        .unwrap_or(20)
        .max(1);
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots");
    let mut boards: Vec<_> = std::fs::read_dir(&folder)
        .unwrap_or_else(|error| panic!("{} cannot be read: {error}", folder.display()))
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .collect();
    boards.retain(|path| {
        path.file_name()
            .and_then(|name| name.to_str())
            .is_some_and(|name| name.contains("_game_") && name.ends_with(".svg"))
    });
    boards.sort();
    // The fonts are loaded with the first drawing: not a board's cost.
    if let Some(first) = boards.first() {
        draw_ms(&read(first), 1);
    }
    println!("load average before: {}", load_average());
    let (mut posted, mut clipped) = (0.0, 0.0);
    for path in &boards {
        let svg = read(path);
        assert!(
            svg.contains(UNCLIPPED),
            "{} is not nested unclipped: nothing to compare",
            path.display()
        );
        let as_before = svg.replacen(UNCLIPPED, "", 1);
        let (now, before) = (draw_ms(&svg, times), draw_ms(&as_before, times));
        posted += now;
        clipped += before;
        let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("?");
        println!("{name}: {now:.2} ms a board (clipped as before: {before:.2} ms)");
    }
    println!(
        "{} boards: {:.2} ms a board on average (clipped as before: {:.2} ms)",
        boards.len(),
        posted / boards.len().max(1) as f64,
        clipped / boards.len().max(1) as f64,
    );
    println!("load average after: {}", load_average());
}

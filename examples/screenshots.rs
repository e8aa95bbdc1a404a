//! Renders the screenshots in `docs/src/screenshots/` from the real app through a headless terminal:
//! `cargo run --example screenshots`. PNGs too when `rsvg-convert` is installed. Scene names
//! after `--` render those scenes only (`cargo run --example screenshots -- debug code`).

use rxw::tui::{screens, svg};
use std::path::Path;
use std::process::Command;

fn main() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("docs/src/screenshots");
    std::fs::create_dir_all(&dir).expect("create docs/src/screenshots/");
    let png = Command::new("rsvg-convert")
        .arg("--version")
        .output()
        .is_ok_and(|o| o.status.success());
    let only: Vec<String> = std::env::args().skip(1).collect();
    let scenes = screens::scenes();
    if let Some(unknown) = only.iter().find(|n| !scenes.iter().any(|(s, _)| s == n)) {
        eprintln!("no scene is named {unknown:?}");
        std::process::exit(2);
    }
    for (name, app) in scenes {
        if !only.is_empty() && !only.iter().any(|n| n == name) {
            continue;
        }
        let svg_path = dir.join(format!("{name}.svg"));
        let buf = screens::render_buffer(&app);
        std::fs::write(&svg_path, svg::to_svg_on(&buf, app.palette.background()))
            .expect("write an SVG");
        if png {
            let ok = Command::new("rsvg-convert")
                .arg("-o")
                .arg(dir.join(format!("{name}.png")))
                .arg(&svg_path)
                .status()
                .is_ok_and(|s| s.success());
            if !ok {
                eprintln!("rsvg-convert failed on {name}.svg");
            }
        }
        println!("{}", svg_path.display());
    }
    if !png {
        eprintln!("rsvg-convert not found: SVG only");
    }
}

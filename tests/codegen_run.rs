//! Generated programs, run for real: every registry preset and a set of hand-picked patterns
//! are written as Python, JS, Go, Java, Rust, C# and Ruby programs, run on a sample text given on
//! standard input, and must print exactly rxw's own matches (`codegen::expected_output`, from
//! the engine's `find_all`). A refused translation is fine (it is the conservative answer) but
//! the verbatim ones (a Python pattern to Python, …) must never be refused, and each language
//! must translate a good share of the corpus.
//!
//! Go, Java and C# run when their toolchains are installed (`go`, `javac`, `dotnet`); without
//! one the test says so on standard error and checks generation only. Ruby's programs run on
//! Ruby 3.1 (`rxw_testkit::ruby_oracle`, which calls `missing` when it does not run).

use rxw::codegen::{self, Lang, Program};
use rxw::{Flags, Flavor, Regex};
use rxw_testkit::run_with_stdin;
use std::path::Path;
use std::process::{Command, Stdio};

struct Case {
    pattern: String,
    flavor: Flavor,
    flags: &'static str,
    /// The registry key, for a preset.
    preset: Option<String>,
}

fn case(pattern: &str, flavor: Flavor, flags: &'static str) -> Case {
    Case {
        pattern: pattern.to_string(),
        flavor,
        flags,
        preset: None,
    }
}

/// The registry presets, then patterns picked for the traps between engines.
fn corpus() -> Vec<Case> {
    let mut cases: Vec<Case> = rxw::presets::builtin()
        .into_iter()
        .map(|e| Case {
            pattern: e.preset.pattern.clone(),
            flavor: e.preset.flavor,
            flags: Box::leak(e.preset.flags.clone().into_boxed_str()),
            preset: Some(e.preset.key.clone()),
        })
        .collect();
    use Flavor::{Fancy, Rust};
    // The releases the generated programs run on (CPython 3.11, node 20), named: a program's
    // output is compared with rxw's matches of the release it runs on.
    const PYTHON: Flavor = Flavor::Python(rxw::PyVersion::V3_11);
    const JS: Flavor = Flavor::Js(rxw::NodeVersion::Node20);
    cases.extend([
        case(r"\w+", PYTHON, ""),
        case(r"\w+", PYTHON, "a"),
        case(r"\w+", Rust, ""),
        case(r"\w+", JS, ""),
        case(r"\w+", JS, "u"),
        case(r"\d+", PYTHON, ""),
        case(r"\d+", JS, ""),
        case(r"\d+", Rust, ""),
        case(r"\s+", PYTHON, ""),
        case(r"\s+", Rust, ""),
        case(r"\s+", JS, ""),
        case(r"\S+", PYTHON, "a"),
        case(r"\b\w+\b", PYTHON, ""),
        case(r"\b\w+\b", Rust, ""),
        case(r"\bCLAIM\b", JS, ""),
        case(r"\b[a-z]+\b(?=\s)", PYTHON, ""),
        case(r"\w+$", PYTHON, ""),
        case(r"\w+$", PYTHON, "m"),
        case(r"\w+$", JS, "m"),
        case(r"\w+$", Rust, ""),
        case(r"^\[\w+", PYTHON, "m"),
        case(r"^\S+", JS, "m"),
        case(r"(?m)^\S+", Rust, ""),
        case(r".+", PYTHON, ""),
        case(r".+", JS, ""),
        case(r"(?s)\[RESULT.+?\]", Rust, ""),
        case(r"\[RESULT[^]]*\]", JS, "s"),
        case(r"(?P<k>\w+)=(?P<v>[^,\s]+)", PYTHON, ""),
        case(r"(?<k>[a-z_]+)=(?<v>[^,\s]+)", JS, ""),
        case(r"(a)|(b)", PYTHON, ""),
        case(r"(?:(a)|b)+", PYTHON, ""),
        case(r"(?<=\[)\w+(?=\])", PYTHON, ""),
        case(r"(?<=\[)[A-Z]+(?= )", JS, ""),
        case(r"(?<![A-Z])[A-Z]{3,}", Fancy, ""),
        case(r"([a-f])\1", PYTHON, ""),
        case(r"([a-z])\1", Fancy, ""),
        case(r"x*+y", PYTHON, ""),
        case(r"(?>CLAIM|CL)A", PYTHON, ""),
        case(r"ok\Z", PYTHON, ""),
        case(r"\p{Lu}\p{Ll}+", Rust, ""),
        case(r"\p{Lu}\p{Ll}+", JS, "u"),
        case(r"[[:alpha:]]+", Rust, ""),
        case(r"(?-u:\w)+", Rust, ""),
        case(r"(?-u)\w+ \d", Rust, ""),
        case(r"(?a)\w+ \s", PYTHON, ""),
        case(r"[^\s\d]+", PYTHON, ""),
        case(r"[^\s\d]+", JS, ""),
        case(r"\u{1F600}+", JS, "u"),
        case(r"x.y", Rust, ""),
        case(r"x.y", JS, "u"),
        case(r"[^a-z]x", PYTHON, ""),
        case(r"é+", PYTHON, ""),
        case(r"\t|\\|\n", PYTHON, ""),
        case(r"(?a:\w+) (\w+)", PYTHON, ""),
        case(r"(?x) \[ (ACK | CLAIM) \s ", PYTHON, ""),
        case(r"CLAIM|ACK|RESULT", JS, ""),
        case(r"a{2,3}|b{1000,}", PYTHON, ""),
        // Quantified assertions, named groups referred to by number, an empty repetition
        // holding a group: each must give a program its target accepts, or a refusal.
        case(r"a(?=b)?", PYTHON, ""),
        case(r"\w(?!b){2}", PYTHON, ""),
        case(r"(?P<n>a)(?P=n)", PYTHON, ""),
        case(r"(?P<n>a)\1", Fancy, ""),
        case(r"((?<!a)){0,3}+b", PYTHON, ""),
        // Case-insensitive patterns: every letter is written as the set its flavor matches
        // (Rust's and JS-u's simple case folding, JS's Canonicalize, CPython's lower case),
        // so the targets' own folding never decides; the sample holds the letters they fold
        // differently.
        case(r"(?i)result\s+([0-9a-f]+)", Rust, ""),
        case(r"(?i)[a-z]+", Rust, ""),
        case(r"[a-z]+", PYTHON, "i"),
        case(r"[a-z]+", JS, "iu"),
        case(r"[a-z]+", JS, "i"),
        case(r"k|s|ß|ω|å|i|θ|µ|σ|ﬅ", Rust, "i"),
        case(r"k|s|ß|ω|å|i|θ|µ|σ|ﬅ", PYTHON, "i"),
        case(r"k|s|ß|ω|å|i|θ|µ|σ|ﬅ", JS, "i"),
        case(r"k|s|ß|ω|å|i|θ|µ|σ|ﬅ", JS, "iu"),
        case(r"[^k\s]+", Rust, "i"),
        case(r"(?i)\w+", Rust, ""),
        case(r"(?i)\w+", PYTHON, ""),
        case(r"x(?i:st)ep|\u{10400}", Rust, "i"),
        case(r"[\w&&[^\d]]+", Rust, ""),
        case(r"\d+\b", Rust, ""),
        // Regression (look_behind_over_astral): Java's look-behind started on the second half
        // of a surrogate pair, so it never saw 𐐀 or 😀 before the position (a Unicode `\b`
        // written as look-around too).
        case(r"(?<=\p{L})\S", Fancy, ""),
        case(r"(?<=[^\x{10400}\s])[a-z]", Fancy, ""),
        case(r"(?<![a-z])\w+", Fancy, ""),
        case(r"(?<=x\W)y", PYTHON, ""),
        case(r"\b\w\w", Rust, ""),
    ]);
    // Ruby's and Oniguruma's patterns (carried over verbatim to Ruby, written out with their
    // meanings explicit elsewhere), the quoting's traps among them (`"`, `#{…}`, `#@`, `/`,
    // backslashes, a line break), and PCRE2's: each language translates them exactly or
    // refuses with the reason.
    const RUBY: Flavor = Flavor::RUBY;
    use Flavor::{Oniguruma, Pcre2};
    cases.extend([
        case(r"\h+", RUBY, ""),
        case(r"^\w+$", RUBY, ""),
        case(r"(?<k>\w+)=(?<v>[^,\s]+)", RUBY, ""),
        case(r"(?<k>[a-z_]+)=(\w+)", RUBY, ""),
        case(r"R.+?T", RUBY, "m"),
        case(r"\bok\b|\Aab|ok\Z|done\z", RUBY, ""),
        case(r"[a-z&&[^aeiou]]{3,}", RUBY, ""),
        case(r"(?<=\[)[A-Z]+(?= )", RUBY, ""),
        case(r"x*+y|a{1,2}+b", RUBY, ""),
        case(r"(?i)result", RUBY, ""),
        case(r"[[:upper:]]+", RUBY, ""),
        case(
            r"(?x) \[ (ACK | CLAIM) \s  # a comment with \#{x}",
            RUBY,
            "",
        ),
        case(r##""#{x}"|#@y|#$z|/|\\|'"##, RUBY, ""),
        case("ok\n|é+", RUBY, ""),
        case(r"[0-9a-f]{4}", Oniguruma, ""),
        case(r"(?<n>[a-z])\k<n>", Oniguruma, ""),
        case(r"\w+", Oniguruma, ""),
        case(r"\d+(?=\])", Pcre2, ""),
        case(r"(?i)kelvin|k", Pcre2, ""),
        case(r"^\S+", Pcre2, "m"),
        case(r"\w+$", Pcre2, ""),
        case(r"[[:alpha:]]+\h", Pcre2, ""),
        case(r"x*+y|(?>CLAIM|CL)A", Pcre2, ""),
        case(r"(?<n>[a-z])\k<n>", Pcre2, ""),
        case(r"\w+", Flavor::Dotnet, ""),
        case(r"(?i)kelvin|k|é|ß", Flavor::Dotnet, ""),
        case(r"[a-z-[aeiou]]+", Flavor::Dotnet, ""),
        case(r"^\S+", Flavor::Dotnet, "m"),
        case(r"\b\d+\b|\s+", Flavor::Dotnet, ""),
        case(r"(\w+)=(?<v>[^,\s]+)", Flavor::Dotnet, ""),
        case(r"(?<n>[a-z])\k<n>", Flavor::Dotnet, ""),
        case(r"result\s+(\w+)", Flavor::Dotnet, "i"),
    ]);
    cases
}

/// The sample: the demo log and lines that tell engines apart.
fn sample() -> String {
    let mut s = String::from(rxw::workbench::DEMO_LOG);
    s.push_str(concat!(
        "café naïve ÉCOLE Straße Ωmega\n",
        "digits ٣٤ ５ 42 and 7\n",
        "spaces:\u{a0}x\u{2003}y\u{85}z\u{1c}w\u{feff}v\u{2028}u\u{2029}t\n",
        "kelvin \u{212a} long-s \u{17f} dotted \u{130} ok\n",
        "folds: ı ß ẞ Ω Ω Å Å µ μ ς σ Σ ϑ θ ϴ ﬅ ﬆ K k S s \u{10400}\u{10428} xSTEP xſtep\n",
        "Result 7fce RESULT ABC reſult 12 reſults KİT\n",
        "emoji 😀 x😀y 😀😀😀 x\u{1F600}y\n",
        "crlf line\r\n",
        "tab\there\\back slash aab aaa xxxy y bb\n",
        "key=value, other_key=v2,k3=3\n",
        "[CLAIM 7fce46e0] [ACK 12] [RESULT 9] done ok\n",
        "quotes \"#{x}\" #@y #$z a/b 'q' ok\n",
        "ends here ok\n",
    ));
    s
}

/// The sample a language's programs read (the same for every language: Java's look-behind
/// is written so that it sees characters outside the BMP, see `look_behind_over_astral`).
fn sample_for(_lang: Lang) -> String {
    sample()
}

/// The sample without characters beyond the BMP, for JS patterns without `u` (rxw refuses to
/// match astral text for them, as it cannot be faithful).
fn sample_bmp(lang: Lang) -> String {
    sample_for(lang)
        .chars()
        .filter(|c| (*c as u32) <= 0xFFFF)
        .collect()
}

/// The sample's ASCII characters.
fn sample_ascii(lang: Lang) -> String {
    sample_for(lang).chars().filter(char::is_ascii).collect()
}

struct Prepared {
    label: String,
    program: Program,
    text: String,
    expected: String,
}

/// Generates every program for `lang`; returns the prepared ones and how many were refused.
fn prepare(lang: Lang) -> (Vec<Prepared>, Vec<String>) {
    let mut prepared = Vec::new();
    let mut refused = Vec::new();
    for c in corpus() {
        let flags = Flags::parse(c.flags, c.flavor).unwrap();
        let label = match &c.preset {
            Some(key) => format!(
                "preset {key}: {} /{}/{} -> {lang}",
                c.flavor, c.pattern, c.flags
            ),
            None => format!("{} /{}/{} -> {lang}", c.flavor, c.pattern, c.flags),
        };
        let re = Regex::new(&c.pattern, c.flavor, flags).unwrap_or_else(|e| panic!("{label}: {e}"));
        // The whole sample; without astral characters for JS patterns without `u`; in ASCII
        // for patterns rxw matches as their engine does on ASCII texts only (Ruby's case
        // folding, POSIX brackets, Oniguruma's Unicode classes).
        let (text, expected) = [sample_for(lang), sample_bmp(lang), sample_ascii(lang)]
            .into_iter()
            .find_map(|t| codegen::expected_output(&re, &t).ok().map(|out| (t, out)))
            .unwrap_or_else(|| panic!("{label}: rxw matches none of the samples"));
        match codegen::generate(&c.pattern, c.flavor, flags, lang) {
            Ok(program) => prepared.push(Prepared {
                label,
                program,
                text,
                expected,
            }),
            Err(e) => {
                assert_eq!(e.kind, rxw::ErrorKind::ConstructUnsupported, "{label}: {e}");
                assert_ne!(
                    lang.native_flavor(),
                    Some(c.flavor),
                    "{label}: the flavor's own engine must never be refused: {e}"
                );
                refused.push(format!("{label}: {}", e.message));
            }
        }
    }
    (prepared, refused)
}

fn have(tool: &str, arg: &str) -> bool {
    Command::new(tool)
        .arg(arg)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .is_ok_and(|s| s.success())
}

/// Compares each program's output with rxw's; panics listing every difference.
fn compare(lang: Lang, prepared: &[Prepared], outputs: Vec<String>, refused: &[String]) {
    let mut diffs = Vec::new();
    for (p, got) in prepared.iter().zip(outputs) {
        if got != p.expected {
            let first = got
                .lines()
                .zip(p.expected.lines())
                .find(|(a, b)| a != b)
                .map(|(a, b)| format!("got  {a:?}\nwant {b:?}"))
                .unwrap_or_else(|| {
                    format!(
                        "got {} lines, want {}",
                        got.lines().count(),
                        p.expected.lines().count()
                    )
                });
            diffs.push(format!(
                "{}\n{first}\n{}",
                p.label, p.program.translation.pattern
            ));
        }
    }
    assert!(diffs.is_empty(), "{lang}: {}", diffs.join("\n\n"));
    eprintln!(
        "{lang}: {} programs print rxw's matches, {} refused",
        prepared.len(),
        refused.len()
    );
    for r in refused {
        eprintln!("  refused {r}");
    }
}

/// Runs each program (`run(i, program)`: what the i-th printed on its text) and checks that
/// each printed rxw's matches.
fn each_prints_rxws_matches(
    lang: Lang,
    prepared: &[Prepared],
    refused: &[String],
    mut run: impl FnMut(usize, &Prepared) -> String,
) {
    let outputs = prepared
        .iter()
        .enumerate()
        .map(|(i, p)| run(i, p))
        .collect();
    compare(lang, prepared, outputs, refused);
}

fn min_translated(lang: Lang, prepared: &[Prepared], refused: &[String], min: usize) {
    assert!(
        prepared.len() >= min,
        "{lang}: only {} translated; refused:\n{}",
        prepared.len(),
        refused.join("\n")
    );
    assert!(prepared.iter().all(|p| !p.expected.is_empty()) || !prepared.is_empty());
}

/// Every registry preset is among the programs (none refused).
fn every_preset_translated(prepared: &[Prepared]) {
    let keys = rxw::presets::builtin().len();
    let presets = prepared
        .iter()
        .filter(|p| p.label.starts_with("preset "))
        .count();
    assert_eq!(presets, keys, "a registry preset was refused");
}

/// The programs of a scripting language (at least `min` translated, every registry preset
/// among them), each written to a `p{i}.{extension}` file, run by `interpreter` on its text:
/// each prints rxw's matches. Nothing when there is no interpreter (`None`: said already).
fn scripts_print_rxws_matches(
    lang: Lang,
    min: usize,
    extension: &str,
    interpreter: Option<String>,
) {
    let Some(interpreter) = interpreter else {
        return;
    };
    let (prepared, refused) = prepare(lang);
    min_translated(lang, &prepared, &refused, min);
    every_preset_translated(&prepared);
    let dir = tempfile::tempdir().unwrap();
    each_prints_rxws_matches(lang, &prepared, &refused, |i, p| {
        let path = dir.path().join(format!("p{i}.{extension}"));
        std::fs::write(&path, &p.program.code).unwrap();
        run_with_stdin(Command::new(&interpreter).arg(&path), &p.text)
    });
}

/// What is not checked without the release a language's programs were written for.
fn not_on_their_release(lang: Lang) -> String {
    format!(
        "the generated {} programs are not run on the release they were written for",
        lang.title()
    )
}

/// The programs of `lang` (at least `min` translated) and the refusals, when `tool ARG` runs
/// here to build or run them; `None` once [`rxw_testkit::missing`] has said it does not.
fn programs_for(
    lang: Lang,
    min: usize,
    tool: &str,
    arg: &str,
) -> Option<(Vec<Prepared>, Vec<String>)> {
    let (prepared, refused) = prepare(lang);
    min_translated(lang, &prepared, &refused, min);
    if !have(tool, arg) {
        let consequence = format!("the generated {} programs are not run", lang.title());
        rxw_testkit::missing(tool, &consequence);
        return None;
    }
    Some((prepared, refused))
}

#[test]
#[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
fn python_programs_print_rxws_matches() {
    let python = rxw_testkit::python_release("3.11", &not_on_their_release(Lang::Python));
    scripts_print_rxws_matches(Lang::Python, 50, "py", python);
}

#[test]
#[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
fn js_programs_print_rxws_matches() {
    let node = rxw_testkit::node_release(20, &not_on_their_release(Lang::Js));
    scripts_print_rxws_matches(Lang::Js, 45, "js", node);
}

#[test]
#[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
fn ruby_programs_print_rxws_matches() {
    let ruby = rxw_testkit::ruby_oracle().map(|r| r.to_string_lossy().into_owned());
    scripts_print_rxws_matches(Lang::Ruby, 45, "rb", ruby);
}

#[test]
#[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
fn go_programs_print_rxws_matches() {
    let Some((prepared, refused)) = programs_for(Lang::Go, 25, "go", "version") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("go.mod"), "module rxwgen\n\ngo 1.18\n").unwrap();
    for (i, p) in prepared.iter().enumerate() {
        let d = dir.path().join(format!("p{i}"));
        std::fs::create_dir(&d).unwrap();
        std::fs::write(d.join("main.go"), &p.program.code).unwrap();
    }
    let bin = dir.path().join("bin");
    std::fs::create_dir(&bin).unwrap();
    rxw_testkit::output_ok(
        Command::new("go")
            .args(["build", "-o"])
            .arg(&bin)
            .arg("./...")
            .current_dir(dir.path())
            .env("GOFLAGS", "-mod=mod")
            .env("GOCACHE", dir.path().join("cache"))
            .env("GOPATH", dir.path().join("gopath")),
        "go build failed: ",
    );
    each_prints_rxws_matches(Lang::Go, &prepared, &refused, |i, p| {
        run_with_stdin(&mut Command::new(bin.join(format!("p{i}"))), &p.text)
    });
}

#[test]
#[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
fn java_programs_print_rxws_matches() {
    let Some((prepared, refused)) = programs_for(Lang::Java, 30, "javac", "-version") else {
        return;
    };
    // One javac for all programs (a JVM start per program would take minutes): each is
    // compiled as written under its own class name (`Main` renamed `Main{i}`, nothing else
    // changed), and the first is also compiled verbatim as `Main.java`.
    let dir = tempfile::tempdir().unwrap();
    let fast = [
        "-XX:TieredStopAtLevel=1",
        "-XX:+UseSerialGC",
        "-Xshare:auto",
    ];
    let mut sources = Vec::new();
    for (i, p) in prepared.iter().enumerate() {
        let renamed = p.program.code.replacen(
            "public class Main {",
            &format!("public class Main{i} {{"),
            1,
        );
        assert_ne!(renamed, p.program.code, "{}", p.label);
        let file = dir.path().join(format!("Main{i}.java"));
        std::fs::write(&file, renamed).unwrap();
        sources.push(file);
    }
    let verbatim = dir.path().join("verbatim");
    std::fs::create_dir(&verbatim).unwrap();
    std::fs::write(verbatim.join("Main.java"), &prepared[0].program.code).unwrap();
    sources.push(verbatim.join("Main.java"));
    rxw_testkit::output_ok(
        Command::new("javac")
            .args(fast.iter().map(|f| format!("-J{f}")))
            .arg("-d")
            .arg(dir.path().join("classes"))
            .args(&sources),
        "javac failed: ",
    );
    each_prints_rxws_matches(Lang::Java, &prepared, &refused, |i, p| {
        run_with_stdin(
            Command::new("java")
                .args(fast)
                .arg("-cp")
                .arg(dir.path().join("classes"))
                .arg(format!("Main{i}")),
            &p.text,
        )
    });
}

#[test]
#[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
fn csharp_programs_are_generated_and_run_when_dotnet_or_mono_is_present() {
    let (prepared, refused) = prepare(Lang::CSharp);
    min_translated(Lang::CSharp, &prepared, &refused, 15);
    for p in &prepared {
        assert!(p.program.code.contains("new Regex("), "{}", p.label);
    }
    let dir = tempfile::tempdir().unwrap();
    if have("dotnet", "--version") {
        each_prints_rxws_matches(Lang::CSharp, &prepared, &refused, |i, p| {
            let d = dir.path().join(format!("p{i}"));
            std::fs::create_dir(&d).unwrap();
            std::fs::write(
                    d.join("p.csproj"),
                    "<Project Sdk=\"Microsoft.NET.Sdk\"><PropertyGroup><OutputType>Exe</OutputType><TargetFramework>net8.0</TargetFramework></PropertyGroup></Project>",
                )
                .unwrap();
            std::fs::write(d.join("Program.cs"), &p.program.code).unwrap();
            run_with_stdin(
                Command::new("dotnet")
                    .args(["run", "-v", "q"])
                    .current_dir(&d),
                &p.text,
            )
        });
    } else if have("mcs", "--version") && have("mono", "--version") {
        // Mono's compiler and runtime: its regex engine is the older .NET one, close to
        // .NET's for everything the programs use (numbered groups, \uXXXX, look-around).
        eprintln!("notice: `dotnet` is not installed; C# programs run on mono");
        each_prints_rxws_matches(Lang::CSharp, &prepared, &refused, |i, p| {
            let src = dir.path().join(format!("p{i}.cs"));
            let exe = dir.path().join(format!("p{i}.exe"));
            std::fs::write(&src, &p.program.code).unwrap();
            rxw_testkit::output_ok(
                Command::new("mcs")
                    .arg("-nologo")
                    .arg(format!("-out:{}", exe.display()))
                    .arg(&src),
                &format!("{}: mcs failed: ", p.label),
            );
            run_with_stdin(Command::new("mono").arg(&exe), &p.text)
        });
    } else {
        rxw_testkit::missing(
            "dotnet, or mono with mcs",
            &format!("the {} generated C# programs are not run", prepared.len()),
        );
    }
}

/// The local cargo registry holds `regex` and `fancy-regex` (rxw depends on both), so the
/// programs build offline.
#[test]
#[ignore = "slow tier: run by .ci/run (cargo test -- --include-ignored)"]
fn rust_programs_print_rxws_matches() {
    let (prepared, refused) = prepare(Lang::Rust);
    min_translated(Lang::Rust, &prepared, &refused, 40);
    let dir = tempfile::tempdir().unwrap();
    let lock =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("Cargo.lock")).unwrap();
    // The newest locked version of a crate (the lock may hold older ones for other crates).
    let version = |name: &str| {
        let key = format!("name = \"{name}\"\nversion = \"");
        lock.match_indices(&key)
            .map(|(at, _)| {
                let rest = &lock[at + key.len()..];
                rest[..rest.find('"').unwrap()].to_string()
            })
            .max_by_key(|v| {
                v.split('.')
                    .map(|n| n.parse::<u64>().unwrap_or(0))
                    .collect::<Vec<_>>()
            })
            .unwrap()
    };
    std::fs::write(
        dir.path().join("Cargo.toml"),
        format!(
            "[package]\nname = \"rxwgen\"\nversion = \"0.0.0\"\nedition = \"2021\"\n\n[dependencies]\nregex = \"={}\"\nfancy-regex = \"={}\"\n\n[workspace]\n",
            version("regex"),
            version("fancy-regex")
        ),
    )
    .unwrap();
    // rxw's own lock file pins the versions it was tested with, all in the local cache.
    std::fs::write(dir.path().join("Cargo.lock"), &lock).unwrap();
    let bin_dir = dir.path().join("src/bin");
    std::fs::create_dir_all(&bin_dir).unwrap();
    // The Tests tab's cases exported as `#[test]` functions: one file that passes, one with a
    // wrong case that must fail.
    let tests_dir = dir.path().join("tests");
    std::fs::create_dir_all(&tests_dir).unwrap();
    for (name, extra) in [
        ("exported_good", ""),
        ("exported_bad", "+ [RESULT 9] => verb=ACK\n"),
    ] {
        let suite = rxw::testcases::Suite::parse(&format!("{EXPORT_SUITE}{extra}")).unwrap();
        let export = codegen::export_tests(
            &suite.pattern,
            suite.flavor,
            suite.flags().unwrap(),
            &suite.replacement,
            &suite.cases,
            Lang::Rust,
        )
        .unwrap();
        std::fs::write(tests_dir.join(format!("{name}.rs")), export.code).unwrap();
    }
    for (i, p) in prepared.iter().enumerate() {
        std::fs::write(bin_dir.join(format!("p{i}.rs")), &p.program.code).unwrap();
    }
    let target = dir.path().join("target");
    rxw_testkit::output_ok(
        Command::new(env!("CARGO"))
            .args(["build", "--offline", "--quiet"])
            .current_dir(dir.path())
            .env("CARGO_TARGET_DIR", &target),
        "cargo build failed: ",
    );
    each_prints_rxws_matches(Lang::Rust, &prepared, &refused, |i, p| {
        run_with_stdin(
            &mut Command::new(target.join(format!("debug/p{i}"))),
            &p.text,
        )
    });
    for (name, passes) in [("exported_good", true), ("exported_bad", false)] {
        let out = Command::new(env!("CARGO"))
            .args(["test", "--offline", "--quiet", "--test", name])
            .current_dir(dir.path())
            .env("CARGO_TARGET_DIR", &target)
            .output()
            .unwrap();
        let report = String::from_utf8_lossy(&out.stdout);
        assert_eq!(out.status.success(), passes, "{name}: {report}");
        let want = if passes {
            "4 passed; 0 failed"
        } else {
            "4 passed; 1 failed"
        };
        assert!(report.contains(want), "{name}: {report}");
    }
}

/// A tests file whose Python pattern is rewritten for Rust (Unicode `\w` and `\s` sets), with
/// named groups, positional groups, a counter-example and a replacement case.
const EXPORT_SUITE: &str = r"pattern: \[(?P<verb>ACK|CLAIM|RESULT)\s+(?P<job_id>[\w/-]+)\]
flavor: python
replace: \g<job_id>:\g<verb>
+ [CLAIM 7fce46e0] => verb=CLAIM, job_id=7fce46e0
+ x [ACK 12] y => ACK, 12
- [claim 7fce46e0]
~ go [ACK 12] now => go 12:ACK now
";

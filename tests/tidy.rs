//! Tidy checks over the source tree (as rust-analyzer's): every module says what it is for, the
//! files of every crate stay small enough to read in one sitting, the modules of every crate (and
//! the files of every module directory) depend on each other in one direction only
//! (ARCHITECTURE.md "Code map"), and every HTTP client takes the shared TLS settings.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};

/// A file longer than this holds more than one idea (issue "One idea per file").
const MAX_LINES: usize = 600;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

fn rust_files(dir: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            out.extend(rust_files(&p));
        } else if p.extension().is_some_and(|e| e == "rs") {
            out.push(p);
        }
    }
    out.sort();
    out
}

#[test]
fn every_module_starts_with_a_doc_comment() {
    let dirs =
        ["src", "tests", "benches", "actors/src", "storage/src", "loadtest/src", "agent/src", "protocol/src"];
    let missing: Vec<_> = dirs
        .iter()
        .flat_map(|d| rust_files(&root().join(d)))
        .filter(|p| !std::fs::read_to_string(p).unwrap().starts_with("//!"))
        .collect();
    assert!(missing.is_empty(), "modules without a `//!` line: {missing:?}");
}

/// Every crate's sources.
const CRATES: [&str; 6] = ["src", "actors/src", "storage/src", "loadtest/src", "agent/src", "protocol/src"];

#[test]
fn no_file_of_any_crate_is_too_long() {
    let long: Vec<_> = CRATES
        .iter()
        .flat_map(|d| rust_files(&root().join(d)))
        .map(|p| (std::fs::read_to_string(&p).unwrap().lines().count(), p))
        .filter(|(n, _)| *n > MAX_LINES)
        .collect();
    assert!(long.is_empty(), "files over {MAX_LINES} lines: {long:?}");
}

/// The modules in `dir` (a file, or a directory with its files), leaving out `skip` (the
/// crate root or the directory's own `mod.rs`).
fn modules_in(dir: &Path, skip: &str) -> Vec<(String, Vec<PathBuf>)> {
    let mut out = Vec::new();
    for entry in std::fs::read_dir(dir).unwrap() {
        let p = entry.unwrap().path();
        let name = p.file_stem().unwrap().to_string_lossy().into_owned();
        if name != skip {
            out.push((name, if p.is_dir() { rust_files(&p) } else { vec![p] }));
        }
    }
    out
}

/// Which of `modules` each one names after one of `prefixes` (`crate::x`, `super::x`, or a
/// group: `use crate::{a, b::C}`), outside comments.
fn graph_of(modules: Vec<(String, Vec<PathBuf>)>, prefixes: &[&str]) -> BTreeMap<String, BTreeSet<String>> {
    let mut graph = BTreeMap::new();
    for (name, files) in modules {
        let mut deps = BTreeSet::new();
        for f in files {
            for line in std::fs::read_to_string(f).unwrap().lines() {
                let code = line.split("//").next().unwrap_or("");
                for prefix in prefixes {
                    for (i, _) in code.match_indices(prefix) {
                        let rest = &code[i + prefix.len()..];
                        let named: Vec<&str> = match rest.strip_prefix('{') {
                            Some(group) => group.split('}').next().unwrap_or("").split(',').collect(),
                            None => vec![rest],
                        };
                        for n in named {
                            let n = n.trim();
                            let end = n.find(|c: char| !(c.is_alphanumeric() || c == '_')).unwrap_or(n.len());
                            deps.insert(n[..end].to_owned());
                        }
                    }
                }
            }
        }
        deps.remove(&name);
        graph.insert(name, deps);
    }
    let names: BTreeSet<_> = graph.keys().cloned().collect();
    for deps in graph.values_mut() {
        deps.retain(|d| names.contains(d));
    }
    graph
}

/// The top-level modules of a crate's `dir` that each module names as `crate::…`.
fn module_graph(dir: &str) -> BTreeMap<String, BTreeSet<String>> {
    graph_of(modules_in(&root().join(dir), "lib"), &["crate::"])
}

/// A circle of imports in `graph`, if there is one (depth-first search for a back edge).
fn import_circle(graph: &BTreeMap<String, BTreeSet<String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        graph: &BTreeMap<String, BTreeSet<String>>,
        path: &mut Vec<String>,
        done: &mut BTreeSet<String>,
    ) -> Option<Vec<String>> {
        if let Some(i) = path.iter().position(|p| p == n) {
            let mut cycle = path[i..].to_vec();
            cycle.push(n.to_owned());
            return Some(cycle);
        }
        if done.contains(n) {
            return None;
        }
        path.push(n.to_owned());
        for d in &graph[n] {
            if let Some(c) = visit(d, graph, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.insert(n.to_owned());
        None
    }
    let mut done = BTreeSet::new();
    graph.keys().find_map(|n| visit(n, graph, &mut Vec::new(), &mut done))
}

#[test]
fn the_modules_of_each_crate_import_each_other_in_one_direction() {
    for dir in ["src", "loadtest/src", "storage/src", "agent/src"] {
        if let Some(circle) = import_circle(&module_graph(dir)) {
            panic!("import circle in {dir}/: {}", circle.join(" -> "));
        }
    }
}

/// The files of one module directory (`actors/src/tenant/`, module path `tenant`) and the
/// siblings each names, as `super::x` or `crate::tenant::x`; `mod.rs` is the directory's own
/// module, not a sibling.
fn nested_graph(dir: &Path, module_path: &str) -> BTreeMap<String, BTreeSet<String>> {
    let own = format!("crate::{module_path}::");
    graph_of(modules_in(dir, "mod"), &["super::", &own])
}

/// Every module directory under a crate's `src`, with its module path (`engine`, `pg/fleet`).
fn module_dirs(src: &Path, path: &str, out: &mut Vec<(PathBuf, String)>) {
    for entry in std::fs::read_dir(src).unwrap() {
        let p = entry.unwrap().path();
        if p.is_dir() {
            let name = p.file_name().unwrap().to_string_lossy().into_owned();
            let module = if path.is_empty() { name } else { format!("{path}::{name}") };
            module_dirs(&p, &module, out);
            out.push((p, module));
        }
    }
}

#[test]
fn the_files_of_each_module_directory_import_each_other_in_one_direction() {
    let mut dirs = Vec::new();
    for c in CRATES {
        module_dirs(&root().join(c), "", &mut dirs);
    }
    assert!(dirs.iter().any(|(_, m)| m == "tenant"), "the walk finds actors/src/tenant: {dirs:?}");
    for (dir, module) in dirs {
        if let Some(circle) = import_circle(&nested_graph(&dir, &module)) {
            panic!("import circle in {}: {}", dir.display(), circle.join(" -> "));
        }
    }
}

#[test]
fn a_nested_circle_is_found() {
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("a.rs"), "use super::b::X;\n").unwrap();
    std::fs::write(dir.path().join("b.rs"), "fn f() { crate::m::a::y(); }\n").unwrap();
    std::fs::write(dir.path().join("c.rs"), "use super::{a, b};\n").unwrap();
    let graph = nested_graph(dir.path(), "m");
    assert!(import_circle(&graph).is_some(), "{graph:?}");
    std::fs::write(dir.path().join("b.rs"), "fn f() {}\n").unwrap();
    assert!(import_circle(&nested_graph(dir.path(), "m")).is_none());
}

#[test]
fn the_actor_modules_import_each_other_in_one_direction() {
    let graph = module_graph("actors/src");
    if let Some(circle) = import_circle(&graph) {
        panic!("import circle in actors/: {}", circle.join(" -> "));
    }
    // The layering ARCHITECTURE.md draws: the engine is on top, and the tenant actor, phones,
    // webhooks and the scheduler never reach back up to it.
    for m in ["tenant", "phone", "webhook", "scheduler", "registry"] {
        assert!(!graph[m].contains("engine"), "{m} imports the engine");
    }
    assert!(!graph["scheduler"].contains("tenant"), "the scheduler imports the tenant actor");
}

/// GitHub's anchor for a heading: lower case, spaces to hyphens, other punctuation dropped.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .filter_map(|c| match c {
            ' ' => Some('-'),
            c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c.to_ascii_lowercase()),
            _ => None,
        })
        .collect()
}

/// The lines of a Markdown text outside its fenced code blocks.
fn prose(text: &str) -> impl Iterator<Item = &str> {
    let mut fenced = false;
    text.lines().filter(move |line| {
        if line.starts_with("```") {
            fenced = !fenced;
            return false;
        }
        !fenced
    })
}

/// The anchors of a Markdown file's headings (outside code blocks).
fn anchors(text: &str) -> BTreeSet<String> {
    prose(text).filter(|l| l.starts_with('#')).map(|l| anchor(l.trim_start_matches('#'))).collect()
}

/// The relative link targets of a Markdown file (`[text](target)` outside code blocks).
fn relative_links(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    for line in prose(text) {
        for (i, _) in line.match_indices("](") {
            let rest = &line[i + 2..];
            let target = &rest[..rest.find(')').unwrap_or(rest.len())];
            if !target.contains("://") && !target.starts_with("mailto:") {
                out.push(target.to_owned());
            }
        }
    }
    out
}

#[test]
fn the_links_between_the_readme_and_the_docs_resolve() {
    let mut pages = vec![root().join("README.md"), root().join("ARCHITECTURE.md")];
    for dir in ["docs", "docs/lab", "clients/python", "clients/typescript"] {
        for entry in std::fs::read_dir(root().join(dir)).unwrap() {
            let p = entry.unwrap().path();
            if p.extension().is_some_and(|e| e == "md") {
                pages.push(p);
            }
        }
    }
    let mut broken = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for target in relative_links(&text) {
            let (file, fragment) = target.split_once('#').unwrap_or((&target, ""));
            let path = if file.is_empty() { page.clone() } else { page.parent().unwrap().join(file) };
            // The spec and DESIGN.md live beside the repository (`../shared`), as in CI.
            if !path.exists() {
                broken.push(format!("{}: {target} (no such file)", page.display()));
            } else if !fragment.is_empty() && path.extension().is_some_and(|e| e == "md") {
                let headings = anchors(&std::fs::read_to_string(&path).unwrap());
                if !headings.contains(fragment) {
                    broken.push(format!("{}: {target} (no such heading)", page.display()));
                }
            }
        }
    }
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
    // The README is a front page; the reference lives in docs/.
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap().lines().count();
    assert!(readme <= 200, "README.md has {readme} lines; move the detail to docs/");
}

#[test]
fn an_anchor_is_made_as_github_makes_it() {
    assert_eq!(
        anchor(" Many tenants on one node: idle actors passivate"),
        "many-tenants-on-one-node-idle-actors-passivate"
    );
    assert_eq!(anchor(" `POST /v1/messages` → 202"), "post-v1messages--202");
    assert_eq!(
        anchor(" Phone agent API: `/phone/v1/`, `Authorization: Bearer svc_agent_…`"),
        "phone-agent-api-phonev1-authorization-bearer-svc_agent_"
    );
}

#[test]
fn the_agent_shares_only_the_wire_types_with_the_server() {
    let manifest = std::fs::read_to_string(root().join("agent/Cargo.toml")).unwrap();
    for crate_name in ["pigeon-actors", "pigeon-storage", "sled"] {
        assert!(!manifest.contains(crate_name), "agent/ depends on {crate_name}");
    }
    assert!(manifest.contains("pigeon-protocol"));
}

/// awc is built without roots of its own (Cargo.toml): a client of the product made without the
/// shared TLS settings cannot reach an `https://` address at all, and only fails there. So each
/// connector made takes them, and each client is given a connector.
#[test]
fn every_http_client_of_the_product_takes_the_shared_tls_settings() {
    let dirs = ["src", "actors/src", "loadtest/src", "agent/src"];
    let mut bare = Vec::new();
    for p in dirs.iter().flat_map(|d| rust_files(&root().join(d))) {
        let text = std::fs::read_to_string(&p).unwrap();
        for (made, needs) in [
            ("awc::Connector::new()", "rustls_0_23(pigeon_protocol::tls::client_config())"),
            ("awc::Client::", ".connector("),
        ] {
            for (at, _) in text.match_indices(made) {
                let statement = text[at..].split(';').next().unwrap_or_default();
                if !statement.contains(needs) {
                    bare.push(format!("{}:{} lacks {needs}", p.display(), text[..at].lines().count()));
                }
            }
        }
    }
    assert!(bare.is_empty(), "HTTP clients without the shared TLS settings: {bare:?}");
}

//! The declared minimum Rust (`rust-version` in the workspace manifest) is
//! what every crate of the workspace inherits, and no dependency needs a
//! newer one. (Clippy's `incompatible_msrv` lint, on by default, checks
//! that the workspace's own code uses no newer standard library API.)

use std::process::Command;

fn version(text: &str) -> Vec<u32> {
    text.split('.').map(|p| p.parse().unwrap_or(0)).collect()
}

#[test]
fn rust_version_covers_every_dependency() {
    let out = Command::new(env!("CARGO"))
        .args(["metadata", "--format-version", "1", "--offline"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cargo metadata runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let members: Vec<&str> = meta["workspace_members"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|m| m.as_str())
        .collect();
    let packages = meta["packages"].as_array().unwrap();
    let declared: Vec<&str> = packages
        .iter()
        .filter(|p| members.contains(&p["id"].as_str().unwrap_or("")))
        .map(|p| {
            p["rust_version"]
                .as_str()
                .expect("each crate declares rust-version")
        })
        .collect();
    assert_eq!(declared.len(), members.len());
    assert!(declared.windows(2).all(|w| w[0] == w[1]), "{declared:?}");
    let msrv = version(declared[0]);
    for p in packages {
        if let Some(needed) = p["rust_version"].as_str() {
            assert!(
                version(needed) <= msrv,
                "{} needs Rust {needed}, newer than the declared {}",
                p["name"],
                declared[0]
            );
        }
    }
}

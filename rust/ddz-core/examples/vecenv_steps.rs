//! Fixed work for instruction counts: `steps` steps of 256 envs of a preset
//! (classic unless named), on one thread, the actions a fixed function of
//! the step and env
//! (`valgrind --tool=callgrind target/release/examples/vecenv_steps 100
//! [preset]`).

use ddz_core::vecenv::{Options, VecEnv};
use ddz_core::{Engine, Rules};
use std::sync::Arc;

fn main() {
    let steps: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(100);
    let preset = std::env::args().nth(2).unwrap_or_else(|| "classic".into());
    let rules = Rules::preset(&preset).expect("a preset name");
    let engine = Arc::new(Engine::new(rules).expect("engine"));
    let options = Options {
        threads: 1,
        ..Options::default()
    };
    let mut env = VecEnv::new(engine, 256, 1, options).expect("env");
    let mut actions = vec![0i64; 256];
    for t in 0..steps {
        let off = &env.legal().offsets;
        for (i, a) in actions.iter_mut().enumerate() {
            let count = off[i + 1] - off[i];
            *a = (t as i64 * 7 + i as i64) % count;
        }
        env.step(&actions).expect("legal");
    }
    println!("{}", env.legal().offsets[256]);
}

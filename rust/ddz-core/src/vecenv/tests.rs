use super::*;
use crate::cards::SLOTS;
use crate::rules::{Rules, PRESETS};
use crate::table::physical::parse_identities;
use crate::table::{Action, Card, Rng, RoleType, RoleValue};
use env::{Ctx, Env};
use players::{Limits, Seating};
use serde_json::Value;

fn engine(preset: &str) -> Arc<Engine> {
    Arc::new(Engine::new(Rules::preset(preset).unwrap()).unwrap())
}

fn presets() -> impl Iterator<Item = &'static str> {
    PRESETS.iter().copied()
}

fn options(threads: usize) -> Options {
    Options {
        history: 6,
        threads,
        ..Options::default()
    }
}

/// Random legal indices for every env, drawn from `rng`.
fn random_actions(env: &VecEnv, rng: &mut Rng) -> Vec<i64> {
    let o = &env.legal().offsets;
    (0..env.num_envs())
        .map(|i| rng.below((o[i + 1] - o[i]) as usize) as i64)
        .collect()
}

/// Every array of the observation and outcome, as bytes-like vectors.
fn snapshot(env: &VecEnv) -> String {
    let d = env.dims();
    format!(
        "{:?}{:?}{:?}",
        env.obs().columns(&d),
        env.outcome().columns(&d),
        env.legal()
    )
}

#[test]
fn a_run_is_the_same_on_one_thread_or_two() {
    for preset in ["classic", "laizi"] {
        let mut runs = Vec::new();
        for threads in [1, 2] {
            let mut env = VecEnv::new(engine(preset), 40, 9, options(threads)).unwrap();
            let mut rng = Rng(5);
            let mut seen = vec![snapshot(&env)];
            for _ in 0..150 {
                let a = random_actions(&env, &mut rng);
                env.step(&a).unwrap();
                seen.push(snapshot(&env));
            }
            runs.push(seen);
        }
        assert!(
            runs[0] == runs[1],
            "{preset}: the thread count changed the run"
        );
    }
}

#[test]
fn a_finished_deal_is_settled_and_dealt_again() {
    let e = engine("classic");
    let mut env = VecEnv::new(e.clone(), 6, 3, options(2)).unwrap();
    let mut rng = Rng(1);
    let mut finished = vec![0i64; 6];
    for _ in 0..2000 {
        let a = random_actions(&env, &mut rng);
        env.step(&a).unwrap();
        let out = env.outcome();
        for (i, done) in finished.iter_mut().enumerate() {
            let scores = &out.scores[i * 3..(i + 1) * 3];
            if !out.terminated[i] {
                assert!(scores.iter().all(|&s| s == 0));
                assert!(out.reward[i * 3..(i + 1) * 3].iter().all(|&r| r == 0.0));
                continue;
            }
            assert_eq!(scores.iter().sum::<i64>(), 0);
            assert!(out.length[i] > 0 && out.final_multiplier[i] >= 1);
            assert_eq!(out.episode[i], *done);
            let reward: Vec<i64> = out.reward[i * 3..(i + 1) * 3]
                .iter()
                .map(|&r| r as i64)
                .collect();
            assert_eq!(reward, scores);
            *done += 1;
            // The next deal is game `finished` of the series seed + i.
            let next = Table::seeded(e.clone(), 3 + i as u64, *done as u64).unwrap();
            assert_eq!(env.table(i).deals()[0], next.deals()[0]);
            let seat = env.obs().seat[i] as usize;
            assert_eq!(
                env.obs().hand[i * SLOTS..(i + 1) * SLOTS],
                next.core().hands()[seat].counts.0
            );
            assert!(env.obs().played[i * 3 * SLOTS..(i + 1) * 3 * SLOTS]
                .iter()
                .all(|&c| c == 0));
        }
    }
    assert!(finished.iter().all(|&f| f >= 3), "{finished:?}");
}

#[test]
fn win_split_rewards_split_each_sides_one_and_sum_to_zero() {
    for preset in presets() {
        let mut o = options(1);
        o.reward = Reward::WinSplit;
        let mut env = VecEnv::new(engine(preset), 4, 0, o).unwrap();
        let p = env.dims().players;
        let mut rng = Rng(2);
        let mut ends = 0;
        for _ in 0..600 {
            let a = random_actions(&env, &mut rng);
            env.step(&a).unwrap();
            let out = env.outcome();
            for i in (0..4).filter(|&i| out.terminated[i]) {
                let winners = &out.winners[i * p..(i + 1) * p];
                let won = winners.iter().filter(|&&w| w).count() as f32;
                let lost = p as f32 - won;
                let rewards = &out.reward[i * p..(i + 1) * p];
                for s in 0..p {
                    let want = if winners[s] { 1.0 / won } else { -1.0 / lost };
                    assert_eq!(rewards[s], want, "{preset}");
                }
                assert!(rewards.iter().sum::<f32>().abs() < 1e-5, "{preset}");
                ends += 1;
            }
        }
        assert!(ends > 0, "{preset}");
    }
}

#[test]
fn win_and_adp_rewards_pay_every_seat_of_a_side_alike() {
    // "win": ±1 per seat as its side won; "adp": ±2^bombs, `bombs` the
    // outcome's count of the deal's bombs.
    for preset in presets() {
        for reward in [Reward::WinLoss, Reward::Adp] {
            let mut o = options(1);
            o.reward = reward;
            let mut env = VecEnv::new(engine(preset), 4, 3, o).unwrap();
            let p = env.dims().players;
            let mut rng = Rng(5);
            let mut ends = 0;
            for _ in 0..400 {
                let a = random_actions(&env, &mut rng);
                env.step(&a).unwrap();
                let out = env.outcome();
                for i in (0..4).filter(|&i| out.terminated[i]) {
                    let winners = &out.winners[i * p..(i + 1) * p];
                    let scale = match reward {
                        Reward::Adp => 2f32.powi(out.bombs[i]),
                        _ => 1.0,
                    };
                    for (s, &won) in winners.iter().enumerate() {
                        let want = if won { scale } else { -scale };
                        assert_eq!(out.reward[i * p + s], want, "{preset}");
                    }
                    ends += 1;
                }
            }
            assert!(ends > 0, "{preset}");
        }
    }
}

/// The observation rows agree with the table they describe, in every
/// preset the table plays.
#[test]
fn every_preset_steps_and_its_rows_describe_its_tables() {
    for preset in presets() {
        let mut env = VecEnv::new(engine(preset), 8, 11, options(2)).unwrap();
        let p = env.dims().players;
        let mut rng = Rng(7);
        let mut ends = 0;
        for _ in 0..400 {
            for i in 0..env.num_envs() {
                let t = env.table(i);
                let obs = env.obs();
                let seat = t.to_act();
                assert_eq!(obs.seat[i] as usize, seat);
                assert_eq!(obs.phase[i], t.phase().id() as i8);
                assert_eq!(
                    obs.hand[i * SLOTS..(i + 1) * SLOTS],
                    t.core().hands()[seat].counts.0
                );
                for j in 0..p {
                    let s = (seat + j) % p;
                    assert_eq!(
                        obs.cards_left[i * p + j] as usize,
                        t.core().hands()[s].len()
                    );
                }
                let o = &env.legal().offsets;
                let rows = o[i] as usize..o[i + 1] as usize;
                let legal = t.legal_unordered();
                assert_eq!(rows.len(), legal.len());
                for (k, a) in rows.zip(legal.iter()) {
                    let (kind, rank, length) = kinds::describe(&a);
                    assert_eq!(env.legal().kind[k], kind);
                    assert_eq!(env.legal().rank[k], rank);
                    assert_eq!(env.legal().length[k], length);
                    if let Action::Play(m) = a {
                        assert_eq!(env.legal().cards[k * SLOTS..(k + 1) * SLOTS], m.cards.0);
                    }
                }
            }
            let a = random_actions(&env, &mut rng);
            env.step(&a).unwrap();
            ends += env.outcome().terminated.iter().filter(|&&t| t).count();
        }
        assert!(ends > 0, "{preset}: no deal ended");
    }
}

#[test]
fn a_bad_index_names_the_env_and_moves_nothing() {
    let mut env = VecEnv::new(engine("classic"), 3, 0, options(1)).unwrap();
    let before = snapshot(&env);
    let n = env.legal().offsets[2] - env.legal().offsets[1];
    let err = env.step(&[0, n, 0]).unwrap_err();
    assert!(
        err.0.contains("actions[1]") && err.0.contains("env 1"),
        "{err}"
    );
    let err = env.step(&[0, -1, 0]).unwrap_err();
    assert!(err.0.contains("env 1"), "{err}");
    let err = env.step(&[0, 0]).unwrap_err();
    assert!(err.0.contains("one per env is 3"), "{err}");
    assert_eq!(before, snapshot(&env));
    assert!(VecEnv::new(engine("classic"), 0, 0, options(1)).is_err());
}
#[test]
fn a_deal_over_as_dealt_is_skipped_for_the_series_next() {
    let e = engine("six-player-3v3");
    // Game 0 of series 32 is an auto-win: over before anyone decides.
    assert!(Table::seeded(e.clone(), 32, 0).unwrap().is_over());
    let env = VecEnv::new(e.clone(), 1, 32, options(1)).unwrap();
    assert!(!env.table(0).is_over());
    assert!(env.legal().offsets[1] > 0);
    let next = (1..)
        .map(|k| Table::seeded(e.clone(), 32, k).unwrap())
        .find(|t| !t.is_over())
        .unwrap();
    assert_eq!(env.table(0).deals()[0], next.deals()[0]);
}

// ---- secrecy -------------------------------------------------------------

fn single(table: Table, seed: u64, history: usize) -> Env {
    Env::new(table, seed, history)
}

/// Step `env` (every seat the learner's) by legal index `i`.
fn step_single(env: &mut Env, i: usize) {
    let players = env.table.rules().players as usize;
    let seating = Seating::learners(players);
    let roles = RoleColumns::new(&[]);
    let ctx = Ctx {
        seats: &seating.seats(),
        seating: &seating,
        limits: Limits::defaults(),
        reward: Reward::Score,
        reward_for: RewardFor::Seat,
        dealing: Dealing::Series,
        roles: &roles,
        ids: None,
    };
    let d = Dims {
        envs: 1,
        players,
        history: 6,
        roles: 0,
        rewards: players,
    };
    let mut out = OutcomeArrays::new(&d);
    env.step(i, &ctx, &mut out.rows(&d)[0], None);
}

/// What `seat` sees of `env`: every array, and the legal list when it is
/// the seat to act.
fn view(env: &mut Env, roles: &RoleColumns, seat: usize) -> String {
    let d = Dims {
        envs: 1,
        players: env.table.rules().players as usize,
        history: 6,
        roles: roles.len(),
        rewards: 1,
    };
    let mut obs = Obs::new(&d);
    let mut rows = obs.rows(&d);
    obs::write(
        &mut rows[0],
        &env.table,
        seat,
        &env.log,
        roles,
        &mut env.scratch,
    );
    drop(rows);
    let to_act = env.table.to_act() == seat;
    let legal: Vec<String> = env
        .table
        .legal_unordered()
        .iter()
        .filter(|_| to_act)
        .map(|a| a.to_string())
        .collect();
    format!("{:?}{legal:?}", obs.columns(&d))
}

/// Where the current deal's card `c` is, among the cards still hidden in
/// `place` (a seat's hand, or the kitty/set-aside as 100/101).
fn locate(deal: &mut crate::table::Deal, place: usize, c: Card) -> Option<&mut Card> {
    let list = match place {
        100 => &mut deal.kitty,
        101 => &mut deal.set_aside,
        s => &mut deal.hands[s],
    };
    list.iter_mut().find(|x| **x == c)
}

/// A twin of `env`'s current deal with two cards the seat to act cannot
/// see swapped, replayed with the same actions; None if no swap could be
/// made or the twin could not take the same actions.
fn hidden_twin(env: &Env, engine: &Arc<Engine>, rng: &mut Rng, viewer: usize) -> Option<Env> {
    let t = &env.table;
    let core = t.core();
    let seen = t.family().hands_seen_by(core, viewer);
    let deal = t.deals().last()?;
    let mut places: Vec<(usize, Vec<Card>)> = (0..core.players())
        .filter(|&s| s != viewer && !seen.contains(&s))
        .map(|s| (s, core.hands()[s].cards()))
        .collect();
    // Cards that came from the kitty are known to whoever saw it; leave them.
    let kitty_known = t.family().kitty_seen_by(core, viewer);
    if !core.kitty_given() && !kitty_known {
        places.push((100, deal.kitty.clone()));
    }
    places.push((101, deal.set_aside.clone()));
    if core.kitty_given() {
        for (_, cards) in &mut places {
            cards.retain(|c| !deal.kitty.contains(c));
        }
    }
    // A card the roles name (a marked card) may have a known holder once
    // roles are out: leave it too.
    let mut roles = Vec::new();
    t.family().role_values(core, Some(viewer), &mut roles);
    let named: Vec<(u8, Option<u8>)> = roles
        .iter()
        .filter_map(|v| match v {
            RoleValue::Card(c) | RoleValue::SeatCard(_, c) => Some((c.slot, Some(c.suit))),
            _ => None,
        })
        .collect();
    for (_, cards) in &mut places {
        cards.retain(|c| !named.contains(&(c.slot, Some(c.suit))));
    }
    places.retain(|(_, c)| !c.is_empty());
    if places.len() < 2 {
        return None;
    }
    let mut twin_deal = deal.clone();
    let (a, b) = loop {
        let a = rng.below(places.len());
        let b = rng.below(places.len());
        if a != b {
            break (a, b);
        }
    };
    let x = places[a].1[rng.below(places[a].1.len())];
    let y = places[b].1[rng.below(places[b].1.len())];
    if x.slot == y.slot {
        return None;
    }
    *locate(&mut twin_deal, places[a].0, x)? = y;
    *locate(&mut twin_deal, places[b].0, y)? = x;
    for h in &mut twin_deal.hands {
        h.sort_unstable();
    }
    let mut deals = t.deals().to_vec();
    *deals.last_mut()? = twin_deal;
    let table = Table::new(engine.clone(), Rng(0), deals).ok()?;
    let mut twin = single(table, env.seed, 6);
    for taken in t.actions() {
        let i = twin
            .table
            .legal_unordered()
            .iter()
            .position(|a| a == taken.action)?;
        step_single(&mut twin, i);
    }
    // The same physical cards must have been played (a play takes the
    // lowest suits, which a swap can change): else the twin is not a
    // replay of the same deal with two hidden cards exchanged.
    let same_cards = t
        .actions()
        .iter()
        .zip(twin.table.actions())
        .all(|(a, b)| t.cards_of(a) == twin.table.cards_of(b));
    let same_moment = twin.table.to_act() == t.to_act() && twin.table.phase() == t.phase();
    (same_cards && same_moment).then_some(twin)
}

#[test]
fn no_observation_changes_when_hidden_cards_are_swapped() {
    for preset in presets() {
        let e = engine(preset);
        let probe = VecEnv::new(e.clone(), 1, 0, options(1)).unwrap();
        let roles = probe.roles.clone();
        let mut rng = Rng(preset.len() as u64);
        let mut checked = 0;
        let deals = 300;
        for seed in 0..deals {
            let mut env = single(Table::seeded(e.clone(), seed, 0).unwrap(), seed, 6);
            if env.table.is_over() {
                // Won as dealt (an auto-win): nobody has anything to see.
                continue;
            }
            let stop = rng.below(60);
            for _ in 0..stop {
                let n = env.table.legal_unordered().len();
                step_single(&mut env, rng.below(n));
                if env.episode > 0 {
                    break;
                }
            }
            if env.episode > 0 {
                continue;
            }
            // The seat to act, or (every other deal) any seat: a view
            // between turns (`VecEnv::view`) keeps the same secrets.
            let viewer = match seed % 2 {
                0 => env.table.to_act(),
                _ => rng.below(env.table.rules().players as usize),
            };
            let Some(mut twin) = hidden_twin(&env, &e, &mut rng, viewer) else {
                continue;
            };
            // Where the rules themselves tell the seat something of the
            // swap (a called card chosen from a hand), the table's own
            // observation differs too; the arrays must hold no more than it.
            let told = |t: &Table| format!("{:?}", t.clone().observation(viewer));
            if told(&env.table) != told(&twin.table) {
                continue;
            }
            assert_eq!(
                view(&mut env, &roles, viewer),
                view(&mut twin, &roles, viewer),
                "{preset} seed {seed}: seat {viewer} sees a hidden card",
            );
            checked += 1;
        }
        assert!(
            checked > deals / 3,
            "{preset}: only {checked} swaps checked"
        );
    }
}

/// The role columns say what the observation's JSON roles say, at every
/// seat of every state of random deals: decoded here from the JSON by the
/// declared type, the column must be the same number.
#[test]
fn role_columns_match_the_observation() {
    let mut checked = 0;
    for preset in presets() {
        let mut env = VecEnv::new(engine(preset), 4, 21, options(1)).unwrap();
        let roles = env.roles.clone();
        let players = env.dims().players;
        let mut rng = Rng(3);
        let mut scratch = Vec::new();
        for _ in 0..200 {
            for i in 0..env.num_envs() {
                let mut t = env.table(i).clone();
                for seat in 0..players {
                    let mut columns = vec![7i16; roles.len()];
                    roles.write(t.core(), t.family(), seat, &mut scratch, &mut columns);
                    let json = t.observation(seat).to_json(preset);
                    let rel = |s: u64| ((s as usize + players - seat) % players) as i16;
                    for (spec, &got) in roles.specs().iter().zip(&columns) {
                        let v = &json[spec.key];
                        let want = decode(spec.ty, v, &rel);
                        assert_eq!(got, want, "{preset} seat {seat} {}: {v}", spec.key);
                        checked += 1;
                    }
                }
            }
            let a = random_actions(&env, &mut rng);
            env.step(&a).unwrap();
        }
    }
    assert!(checked > 10_000, "{checked}");
}

/// A JSON role as a role column holds it (docs/rl.md's encodings).
fn decode(ty: RoleType, v: &Value, rel: &dyn Fn(u64) -> i16) -> i16 {
    use crate::table::roles::ROLE_WORDS;
    let seat_of = |v: &Value| rel(v.as_u64().expect("a seat"));
    if v.is_null() {
        return -1;
    }
    match ty {
        RoleType::Seat => seat_of(v),
        RoleType::SeatCard | RoleType::SeatReason => seat_of(&v["seat"]),
        RoleType::Seats => v
            .as_array()
            .unwrap()
            .iter()
            .fold(0, |m, s| m | 1 << seat_of(s)),
        RoleType::Claims => v
            .as_array()
            .unwrap()
            .iter()
            .fold(0, |m, c| m | 1 << seat_of(&c[0])),
        RoleType::Count => v.as_i64().unwrap() as i16,
        RoleType::Flag => i16::from(v.as_bool().unwrap()),
        RoleType::Card => {
            let card = parse_identities(v.as_str().unwrap()).unwrap()[0];
            i16::from(card.slot) * 4 + i16::from(card.suit.unwrap())
        }
        RoleType::Word => ROLE_WORDS.iter().position(|w| v == w).unwrap() as i16,
        RoleType::Cards | RoleType::Sides => -2,
    }
}

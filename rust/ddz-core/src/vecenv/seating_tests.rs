//! Opponents inside the step, external players, truncation, action ids
//! and masks, whose rewards and the final observations.

use super::*;
use crate::cards::SLOTS;
use crate::policy::{greedy_in_order, Policy};
use crate::rules::{Rules, PRESETS};
use crate::simulate::{Opening, Series};
use crate::table::{Action, Phase, Rng};
use players::{Limits, Player, Seating};

fn engine(preset: &str) -> Arc<Engine> {
    Arc::new(Engine::new(Rules::preset(preset).unwrap()).unwrap())
}

fn seated(players: Vec<Player>, threads: usize) -> Options {
    Options {
        history: 4,
        threads,
        seating: Some(Seating {
            players,
            opening: Opening::Auction,
        }),
        ..Options::default()
    }
}

/// Env `i`'s legal actions as the step lists them (plays as `None`).
fn listed(env: &VecEnv, i: usize) -> Vec<Option<Action>> {
    let legal = env.table(i).legal_unordered();
    legal.iter().map(|a| (!a.is_play()).then_some(a)).collect()
}

/// What `GreedyAgent` picks for every env, from the lists in step order.
fn greedy_actions(env: &VecEnv) -> Vec<i64> {
    (0..env.num_envs())
        .map(|i| greedy_in_order(&listed(env, i)) as i64)
        .collect()
}

/// The scores of each env's deals in order, stepping `steps` times.
fn deal_scores(env: &mut VecEnv, steps: usize) -> Vec<Vec<Vec<i64>>> {
    let (n, p) = (env.num_envs(), env.dims().players);
    let mut out = vec![Vec::new(); n];
    for _ in 0..steps {
        let a = greedy_actions(env);
        env.step(&a).unwrap();
        let o = env.outcome();
        for (i, deals) in out.iter_mut().enumerate() {
            if o.terminated[i] {
                assert_eq!(o.episode[i] as usize, deals.len(), "no deal is skipped");
                deals.push(o.scores[i * p..(i + 1) * p].to_vec());
            }
        }
    }
    out
}

#[test]
fn the_learner_sees_only_its_seat_and_its_deals_are_simulates() {
    // Seat 0 plays as the greedy player would (its pick in the step's
    // order), seats 1 and 2 are built-in policies inside the step: each
    // env's deals must be `simulate`'s with the same policy per seat.
    use Policy::{Greedy, Random};
    for (others, threads) in [([Greedy, Greedy], 1), ([Random, Greedy], 2)] {
        let players = vec![
            Player::Learner,
            Player::Policy(others[0]),
            Player::Policy(others[1]),
        ];
        let mut env = VecEnv::new(engine("classic"), 20, 40, seated(players, threads)).unwrap();
        assert!(env.obs().seat.iter().all(|&s| s == 0));
        let deals = deal_scores(&mut env, 150);
        assert!(env.obs().seat.iter().all(|&s| s == 0));
        let seats = Seats::Each(vec![Greedy, others[0], others[1]]);
        for (i, played) in deals.iter().enumerate() {
            assert!(!played.is_empty());
            let e = engine("classic");
            let series =
                Series::seated(&e, 40 + i as u64, seats.clone(), Opening::Auction).unwrap();
            let want: Vec<Vec<i64>> = series
                .play(0, played.len(), 1, 0)
                .into_iter()
                .map(|o| o.scores)
                .collect();
            assert_eq!(played, &want, "env {i} with {others:?}");
        }
    }
}

#[test]
fn external_players_are_asked_for_all_their_envs_at_once() {
    // The same run with seats 1 and 2 answered from outside (greedy's
    // pick) and with the built-in greedy policy: the same observations.
    let inside = vec![
        Player::Learner,
        Player::Policy(Policy::Greedy),
        Player::Policy(Policy::Greedy),
    ];
    let outside = vec![Player::Learner, Player::External(0), Player::External(0)];
    let mut a = VecEnv::new(engine("classic"), 12, 3, seated(inside, 2)).unwrap();
    let mut b = VecEnv::built(
        engine("classic"),
        12,
        3,
        0,
        Dealing::Series,
        seated(outside, 2),
    )
    .unwrap();
    let answer = |b: &mut VecEnv| {
        let mut asked = 0;
        while b.any_external() {
            let envs = b.waiting(0);
            b.write_side(&envs).unwrap();
            let (side_envs, side_obs, side_legal, _) = b.side();
            assert_eq!(side_envs, &envs[..]);
            for (j, &i) in envs.iter().enumerate() {
                assert_eq!(side_obs.seat[j] as usize, b.table(i).to_act());
                let count = side_legal.offsets[j + 1] - side_legal.offsets[j];
                assert_eq!(count as usize, b.table(i).legal_unordered().len());
            }
            let picks: Vec<i64> = envs
                .iter()
                .map(|&i| greedy_in_order(&listed(b, i)) as i64)
                .collect();
            assert!(b.answer(0, &envs, &vec![999; envs.len()]).is_err());
            b.answer(0, &envs, &picks).unwrap();
            asked += 1;
        }
        b.finish(None).unwrap();
        asked
    };
    b.reset_begin(None);
    answer(&mut b);
    let snap = |e: &VecEnv| format!("{:?}{:?}", e.obs().columns(&e.dims()), e.legal());
    let mut asked = 0;
    for _ in 0..100 {
        assert_eq!(snap(&a), snap(&b));
        let actions = greedy_actions(&a);
        a.step(&actions).unwrap();
        assert!(
            b.step(&actions).is_err(),
            "a step with externals is begun, answered, finished"
        );
        b.begin_step(&actions).unwrap();
        assert!(
            b.begin_step(&actions).is_err(),
            "the last step is not finished"
        );
        asked += answer(&mut b);
        let out = |e: &VecEnv| format!("{:?}", e.outcome().columns(&e.dims()));
        assert_eq!(out(&a), out(&b));
    }
    assert!(asked >= 100);
}

#[test]
fn one_deal_each_plays_simulates_deals_with_any_opening() {
    use Policy::{Greedy, Random};
    for (preset, opening) in [
        ("classic", Opening::SeatZeroLandlord),
        ("classic", Opening::Auction),
        ("five-player", Opening::Auction),
    ] {
        let e = engine(preset);
        let n = e.rules().players as usize;
        let policies: Vec<Policy> = (0..n).map(|s| [Greedy, Random][s.min(1)]).collect();
        let options = Options {
            seating: Some(Seating {
                players: policies.iter().map(|&p| Player::Policy(p)).collect(),
                opening,
            }),
            limits: Limits::none(),
            threads: 2,
            ..Options::default()
        };
        let mut env = VecEnv::built(e.clone(), 30, 7, 100, Dealing::Once, options).unwrap();
        env.reset_begin(None);
        assert!((0..30).all(|i| env.wait(i) == Wait::Done));
        env.finish(None).unwrap();
        let series = Series::seated(&e, 7, Seats::Each(policies), opening).unwrap();
        let want = series.play(100, 30, 1, 0);
        for (got, want) in env.outcomes().into_iter().zip(want) {
            let got = got.expect("every deal is played out");
            let facts =
                |o: &Outcome| format!("{:?} {} {} {:?}", o.report, o.turns, o.bombs, o.scores);
            assert_eq!(facts(&got), facts(&want), "{preset} {opening:?}");
        }
    }
}

#[test]
fn the_seat_zero_opening_hands_the_learner_the_play_only() {
    let mut options = seated(vec![Player::Learner; 3], 1);
    options.seating.as_mut().unwrap().opening = Opening::SeatZeroLandlord;
    let mut env = VecEnv::new(engine("classic"), 8, 1, options).unwrap();
    let mut rng = Rng(3);
    for _ in 0..300 {
        assert!(env.obs().phase.iter().all(|&p| p == Phase::Play.id() as i8));
        let o = &env.legal().offsets;
        let a: Vec<i64> = (0..8)
            .map(|i| rng.below((o[i + 1] - o[i]) as usize) as i64)
            .collect();
        env.step(&a).unwrap();
        for i in (0..8).filter(|&i| env.outcome().terminated[i]) {
            assert_eq!(env.outcome().landlord[i], 0);
        }
    }
    let five = seated(vec![Player::Learner; 5], 1);
    let mut refused = five.clone();
    refused.seating.as_mut().unwrap().opening = Opening::SeatZeroLandlord;
    assert!(VecEnv::new(engine("five-player"), 1, 0, refused).is_err());
}

/// Index of `word` among env `i`'s legal actions.
fn word_index(env: &VecEnv, i: usize, word: Action) -> Option<i64> {
    listed(env, i)
        .iter()
        .position(|a| *a == Some(word))
        .map(|x| x as i64)
}

#[test]
fn deals_redealt_too_often_are_cut() {
    // Everyone passes the auction: dealt again and again until the limit.
    let mut options = seated(vec![Player::Learner; 3], 1);
    options.limits.max_redeals = Some(2);
    let mut env = VecEnv::new(engine("classic"), 2, 5, options).unwrap();
    for step in 1..=9 {
        let pass: Vec<i64> = (0..2)
            .map(|i| word_index(&env, i, Action::Pass).unwrap())
            .collect();
        env.step(&pass).unwrap();
        let out = env.outcome();
        // Three passes a deal; the third redeal is one too many.
        assert_eq!(out.truncated[0], step == 9, "step {step}");
        assert!(!out.terminated[0]);
    }
    let out = env.outcome();
    assert_eq!((out.length[0], out.episode[0], out.landlord[0]), (9, 0, -1));
    assert!(out.reward.iter().all(|&r| r == 0.0) && out.scores.iter().all(|&s| s == 0));
    // The next deal is the series' next game, its auction from the start.
    assert_eq!(env.table(0).redeals(), 0);
    let pass: Vec<i64> = (0..2)
        .map(|i| word_index(&env, i, Action::Pass).unwrap())
        .collect();
    env.step(&pass).unwrap();
    assert!(!env.outcome().truncated[0], "the flags last one step");
    // By default too every deal ends: action 0 for ever (the loop).
    let mut env = VecEnv::new(engine("classic"), 4, 0, options_default()).unwrap();
    let mut cut = 0;
    for _ in 0..400 {
        env.step(&[0; 4]).unwrap();
        cut += env.outcome().truncated.iter().filter(|&&t| t).count();
    }
    assert!(cut > 0);
}

fn options_default() -> Options {
    Options {
        threads: 1,
        ..Options::default()
    }
}

#[test]
fn deals_longer_than_max_decisions_are_cut_at_the_learners_turn() {
    let players = vec![
        Player::Learner,
        Player::Policy(Policy::Random),
        Player::Policy(Policy::Random),
    ];
    let mut options = seated(players, 1);
    options.limits.max_decisions = Some(10);
    options.final_obs = true;
    options.reward_for = RewardFor::Acting;
    let mut env = VecEnv::new(engine("classic"), 16, 2, options).unwrap();
    let mut rng = Rng(9);
    let mut steps = [0; 16];
    let (mut cut, mut ended) = (0, 0);
    for _ in 0..200 {
        let o = &env.legal().offsets;
        let a: Vec<i64> = (0..16)
            .map(|i| rng.below((o[i + 1] - o[i]) as usize) as i64)
            .collect();
        env.step(&a).unwrap();
        let out = env.outcome();
        let fin = env.final_obs().unwrap();
        for (i, s) in steps.iter_mut().enumerate() {
            *s += 1;
            assert!(!(out.terminated[i] && out.truncated[i]));
            if out.truncated[i] {
                assert_eq!(*s, 10, "cut after the learner's 10th decision");
                cut += 1;
            }
            if out.terminated[i] {
                assert!(*s <= 10);
                assert_eq!(out.reward[i], out.scores[i * 3] as f32, "the acting seat's");
                ended += 1;
            }
            if out.terminated[i] || out.truncated[i] {
                assert_eq!(fin.seat[i], 0, "the final view is the learner's");
                *s = 0;
            }
        }
    }
    assert!(cut > 0 && ended > 0, "{cut} {ended}");
}

#[test]
fn legal_ids_and_the_mask_follow_each_moment() {
    for preset in PRESETS {
        let e = engine(preset);
        let table = Arc::new(ActionTable::new(&e));
        let options = Options {
            ids: Some(table.clone()),
            mask: true,
            threads: 2,
            ..options_default()
        };
        let mut env = VecEnv::new(e.clone(), 20, 8, options).unwrap();
        let width = table.len();
        let mut rng = Rng(1);
        for _ in 0..60 {
            let l = env.legal();
            for i in 0..20 {
                let rows = l.offsets[i] as usize..l.offsets[i + 1] as usize;
                let legal = env.table(i).legal_unordered();
                let mask = &env.mask()[i * width..(i + 1) * width];
                assert_eq!(mask.iter().filter(|&&b| b).count(), rows.len());
                for (k, a) in rows.clone().zip(legal.iter()) {
                    let id = l.ids[k];
                    assert_eq!(table.action(id as usize), Some(a), "{preset}");
                    assert!(mask[id as usize]);
                    assert_eq!(env.index_of_id(i, i64::from(id)), Some(k - rows.start));
                }
            }
            let ids: Vec<i64> = (0..20)
                .map(|i| {
                    let rows = l.offsets[i] as usize..l.offsets[i + 1] as usize;
                    i64::from(l.ids[rows.start + rng.below(rows.len())])
                })
                .collect();
            let a = env.indices_of_ids(&ids).unwrap();
            env.step(&a).unwrap();
        }
        let bad = env.indices_of_ids(&[-1; 20]).unwrap_err();
        assert!(bad.0.contains("actions[0] is -1"), "{bad}");
    }
}

#[test]
fn legal_rows_list_the_actions_in_games_order() {
    // `Table::legal` is `Game`'s order; the step's rows are the same.
    let mut env = VecEnv::new(engine("laizi"), 6, 4, options_default()).unwrap();
    let mut rng = Rng(2);
    for _ in 0..200 {
        let l = env.legal().clone();
        for i in 0..6 {
            let mut table = env.table(i).clone();
            let game: Vec<Action> = table.legal().iter().collect();
            let rows = l.offsets[i] as usize..l.offsets[i + 1] as usize;
            assert_eq!(rows.len(), game.len());
            for (k, a) in rows.zip(&game) {
                if let Action::Play(m) = a {
                    assert_eq!(l.cards[k * SLOTS..(k + 1) * SLOTS], m.cards.0);
                    assert_eq!(l.represents[k * SLOTS..(k + 1) * SLOTS], m.represents.0);
                }
                assert_eq!((l.kind[k], l.rank[k], l.length[k]), kinds::describe(a));
            }
        }
        let a: Vec<i64> = (0..6)
            .map(|i| rng.below((l.offsets[i + 1] - l.offsets[i]) as usize) as i64)
            .collect();
        env.step(&a).unwrap();
    }
}

#[test]
fn a_seating_that_does_not_fit_is_refused() {
    let two = seated(vec![Player::Learner; 2], 1);
    assert!(VecEnv::new(engine("classic"), 1, 0, two).is_err());
    let gap = seated(
        vec![Player::Learner, Player::External(1), Player::Learner],
        1,
    );
    let err = VecEnv::built(engine("classic"), 1, 0, 0, Dealing::Series, gap);
    assert!(err.err().unwrap().0.contains("external player 0"));
    let mask = Options {
        mask: true,
        ..options_default()
    };
    assert!(VecEnv::new(engine("classic"), 1, 0, mask).is_err());
}

#[test]
fn default_threads_grow_with_the_batch() {
    assert_eq!(default_threads_for(1), 1);
    assert_eq!(default_threads_for(ENVS_PER_THREAD), 1);
    assert!(default_threads_for(100 * ENVS_PER_THREAD) >= 1);
    assert!(default_threads_for(100 * ENVS_PER_THREAD) <= default_threads());
}

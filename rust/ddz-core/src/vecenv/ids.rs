//! Fixed action ids for one env's legal actions, and a 0/1 mask over every
//! id kept up to date in place: the single-game adapters' action table
//! (`python/ddz/envs/_actions.py` numbers the actions; docs/rl.md).

use super::Legal;
use std::collections::HashMap;

/// An action's identity: kind, rank, length, cards and represents, the
/// five columns `Legal` lists.
pub type Key = [u8; KEY_BYTES];
pub const KEY_BYTES: usize = 35;

/// The key of legal row `i`.
pub fn key_of(legal: &Legal, i: usize) -> Key {
    let mut k = [0u8; KEY_BYTES];
    k[0] = legal.kind[i] as u8;
    k[1] = legal.rank[i] as u8;
    k[2] = legal.length[i] as u8;
    k[3..19].copy_from_slice(&legal.cards[16 * i..16 * i + 16]);
    k[19..35].copy_from_slice(&legal.represents[16 * i..16 * i + 16]);
    k
}

/// Every action of a rule set by its key, and which ids each seat's mask
/// has set.
pub struct ActionIds {
    ids: HashMap<Key, u32>,
    size: usize,
    /// Per seat: the ids of its latest moment, in legal order.
    set: Vec<Vec<u32>>,
}

impl ActionIds {
    /// The table `keys[i] -> ids[i]`; masks of `seats` seats.
    pub fn new(keys: &[Key], ids: &[u32], seats: usize) -> Result<ActionIds, String> {
        if keys.len() != ids.len() {
            return Err(format!("{} keys but {} ids", keys.len(), ids.len()));
        }
        let size = keys.len();
        if let Some(&bad) = ids.iter().find(|&&id| id as usize >= size) {
            return Err(format!("id {bad} is outside 0..{size}"));
        }
        let map: HashMap<Key, u32> = keys.iter().copied().zip(ids.iter().copied()).collect();
        if map.len() != size {
            return Err("two actions share a key".into());
        }
        Ok(ActionIds {
            ids: map,
            size,
            set: vec![Vec::new(); seats],
        })
    }

    /// Ids in all (the mask's length).
    pub fn len(&self) -> usize {
        self.size
    }

    pub fn is_empty(&self) -> bool {
        self.size == 0
    }

    /// Seat `seat`'s mask to env `env`'s legal actions: only the entries
    /// that change are written.
    pub fn refresh(
        &mut self,
        seat: usize,
        legal: &Legal,
        env: usize,
        mask: &mut [i8],
    ) -> Result<(), String> {
        if mask.len() != self.size {
            return Err(format!(
                "a mask of {} entries, not {}",
                mask.len(),
                self.size
            ));
        }
        let set = &mut self.set[seat];
        for &id in set.iter() {
            mask[id as usize] = 0;
        }
        set.clear();
        let (lo, hi) = (legal.offsets[env] as usize, legal.offsets[env + 1] as usize);
        for i in lo..hi {
            let Some(&id) = self.ids.get(&key_of(legal, i)) else {
                return Err(format!("legal action {} has no id", i - lo));
            };
            set.push(id);
            mask[id as usize] = 1;
        }
        Ok(())
    }

    /// The legal index of action `id` at seat `seat`'s latest moment.
    pub fn index_of(&self, seat: usize, id: i64) -> Option<usize> {
        self.set.get(seat)?.iter().position(|&x| i64::from(x) == id)
    }

    /// The ids of seat `seat`'s latest moment, in legal order.
    pub fn ids(&self, seat: usize) -> &[u32] {
        &self.set[seat]
    }

    /// Forget every seat's moment (a new deal); masks must be cleared with it.
    pub fn clear(&mut self, masks: &mut [&mut [i8]]) {
        for (set, mask) in self.set.iter_mut().zip(masks.iter_mut()) {
            for &id in set.iter() {
                mask[id as usize] = 0;
            }
            set.clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::vecenv::{Options, Reward, VecEnv};
    use crate::{Engine, Rules};
    use std::sync::Arc;

    /// Ids for every action a few random deals meet, numbered as met.
    #[test]
    fn masks_follow_the_legal_actions_in_place() {
        let engine = Arc::new(Engine::new(Rules::preset("classic").unwrap()).unwrap());
        let options = Options {
            history: 4,
            reward: Reward::Score,
            threads: 1,
        };
        let mut env = VecEnv::new(engine, 1, 5, options).unwrap();
        let mut keys: Vec<Key> = Vec::new();
        let mut trail = Vec::new();
        for step in 0..300 {
            let l = env.legal();
            let m = (l.offsets[1]) as usize;
            for i in 0..m {
                let k = key_of(l, i);
                if !keys.contains(&k) {
                    keys.push(k);
                }
            }
            trail.push((env.obs().seat[0] as usize, l.clone()));
            env.step(&[(step % m) as i64]).unwrap();
        }
        let ids: Vec<u32> = (0..keys.len() as u32).rev().collect();
        let mut table = ActionIds::new(&keys, &ids, 3).unwrap();
        let mut masks = vec![vec![0i8; keys.len()]; 3];
        for (seat, l) in &trail {
            table.refresh(*seat, l, 0, &mut masks[*seat]).unwrap();
            let m = l.offsets[1] as usize;
            let want: Vec<u32> = (0..m)
                .map(|i| ids[keys.iter().position(|k| *k == key_of(l, i)).unwrap()])
                .collect();
            assert_eq!(table.ids(*seat), &want[..]);
            let on: usize = masks[*seat].iter().map(|&b| b as usize).sum();
            assert_eq!(on, m);
            for (i, &id) in want.iter().enumerate() {
                assert_eq!(masks[*seat][id as usize], 1);
                assert_eq!(table.index_of(*seat, i64::from(id)), Some(i));
            }
        }
        assert_eq!(table.index_of(0, -1), None);
        let mut views: Vec<&mut [i8]> = masks.iter_mut().map(|m| &mut m[..]).collect();
        table.clear(&mut views);
        assert!(masks.iter().all(|m| m.iter().all(|&b| b == 0)));
        assert!(ActionIds::new(&keys, &ids[1..], 3).is_err());
        let dup = vec![keys[0], keys[0]];
        assert!(ActionIds::new(&dup, &[0, 1], 3).is_err());
    }
}

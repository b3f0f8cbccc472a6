//! Per-seat 0/1 masks over every action id, kept up to date in place:
//! each seat's mask shows the ids of its latest moment (the PettingZoo
//! adapter's `action_mask`, one array per agent made once). The ids come
//! from the env's own numbering (`table::ActionTable`, `LegalArrays::ids`).

/// Which ids each seat's mask has set.
pub struct SeatMasks {
    size: usize,
    /// Per seat: the ids of its latest moment, in legal order.
    set: Vec<Vec<u32>>,
}

impl SeatMasks {
    /// Masks of `size` ids for `seats` seats, all clear.
    pub fn new(size: usize, seats: usize) -> SeatMasks {
        SeatMasks {
            size,
            set: vec![Vec::new(); seats],
        }
    }

    /// Ids in all (a mask's length).
    pub fn len(&self) -> usize {
        self.size
    }

    pub fn is_empty(&self) -> bool {
        self.size == 0
    }

    /// Seat `seat`'s mask to the legal `ids` of its moment: only the
    /// entries that change are written.
    pub fn refresh(&mut self, seat: usize, ids: &[i32], mask: &mut [i8]) -> Result<(), String> {
        if mask.len() != self.size {
            return Err(format!(
                "a mask of {} entries, not {}",
                mask.len(),
                self.size
            ));
        }
        if let Some(bad) = ids.iter().find(|&&id| id < 0 || id as usize >= self.size) {
            return Err(format!("id {bad} is outside 0..{}", self.size));
        }
        let set = &mut self.set[seat];
        for &id in set.iter() {
            mask[id as usize] = 0;
        }
        set.clear();
        for &id in ids {
            set.push(id as u32);
            mask[id as usize] = 1;
        }
        Ok(())
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
    use crate::table::ActionTable;
    use crate::vecenv::{Options, VecEnv};
    use crate::{Engine, Rules};
    use std::sync::Arc;

    #[test]
    fn masks_follow_the_legal_actions_in_place() {
        let engine = Arc::new(Engine::new(Rules::preset("classic").unwrap()).unwrap());
        let table = Arc::new(ActionTable::new(&engine));
        let options = Options {
            history: 4,
            threads: 1,
            ids: Some(table.clone()),
            ..Options::default()
        };
        let mut env = VecEnv::new(engine, 1, 5, options).unwrap();
        let mut masks = SeatMasks::new(table.len(), 3);
        let mut arrays = vec![vec![0i8; table.len()]; 3];
        for step in 0..300 {
            let seat = env.obs().seat[0] as usize;
            let ids = env.legal().ids.clone();
            masks.refresh(seat, &ids, &mut arrays[seat]).unwrap();
            let set: Vec<u32> = ids.iter().map(|&i| i as u32).collect();
            assert_eq!(masks.ids(seat), &set[..]);
            let on: usize = arrays[seat].iter().map(|&b| b as usize).sum();
            assert_eq!(on, ids.len());
            assert!(ids.iter().all(|&id| arrays[seat][id as usize] == 1));
            env.step(&[(step % ids.len()) as i64]).unwrap();
        }
        let mut views: Vec<&mut [i8]> = arrays.iter_mut().map(|m| &mut m[..]).collect();
        masks.clear(&mut views);
        assert!(arrays.iter().all(|m| m.iter().all(|&b| b == 0)));
        assert!(masks.refresh(0, &[-1], &mut vec![0; table.len()]).is_err());
        assert!(masks.refresh(0, &[0], &mut [0; 3]).is_err());
    }
}

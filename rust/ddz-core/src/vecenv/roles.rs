//! The roles a seat knows, as one integer column per role the family
//! declares (`table::roles`): the column order is the declaration's, and
//! each value's encoding follows its declared type (`RoleValue::column`;
//! docs/rl.md lists the encodings). A new family needs no code here.

use crate::table::roles::{RoleSpec, RoleValue};
use crate::table::{Core, Family};

/// Turns a family's role values into columns, relative to the viewing seat.
#[derive(Clone, Debug)]
pub struct RoleColumns {
    pub keys: Vec<String>,
    specs: &'static [RoleSpec],
}

impl RoleColumns {
    /// One column per role of `specs`.
    pub fn new(specs: &'static [RoleSpec]) -> RoleColumns {
        RoleColumns {
            keys: specs.iter().map(|s| s.key.to_string()).collect(),
            specs,
        }
    }

    pub fn len(&self) -> usize {
        self.specs.len()
    }

    pub fn is_empty(&self) -> bool {
        self.specs.is_empty()
    }

    /// The declarations, in column order.
    pub fn specs(&self) -> &'static [RoleSpec] {
        self.specs
    }

    /// Write the roles `viewer` knows into `out`, one value per column
    /// (`values` is scratch, reused from step to step).
    pub fn write(
        &self,
        t: &Core,
        family: &dyn Family,
        viewer: usize,
        values: &mut Vec<RoleValue>,
        out: &mut [i16],
    ) {
        family.role_values(t, Some(viewer), values);
        let rel = seat_from(viewer, t.players());
        for (o, v) in out.iter_mut().zip(values.iter()) {
            *o = v.column(&rel);
        }
    }
}

/// Absolute seat -> seat relative to `viewer`. A seat is below `players`,
/// so one subtraction does the `% players` (a division per call otherwise,
/// several times a step); a larger number takes the division.
fn seat_from(viewer: usize, players: usize) -> impl Fn(usize) -> i16 {
    let shift = players - viewer % players;
    move |s: usize| {
        let d = s + shift;
        (if d < players {
            d
        } else if d < 2 * players {
            d - players
        } else {
            d % players
        }) as i16
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seats_are_relative_to_the_viewer() {
        let rel = seat_from(2, 5);
        let got: Vec<i16> = (0..5).map(&rel).collect();
        assert_eq!(got, vec![3, 4, 0, 1, 2]);
        assert_eq!(rel(7), 0, "a larger number wraps too");
    }
}

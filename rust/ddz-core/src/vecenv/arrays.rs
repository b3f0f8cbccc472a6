//! Flat arrays with the env as first axis, and each env's slice of them.
//!
//! `per_env!` declares a set of fields once and makes from it: the arrays
//! (`Vec`s of `num_envs * width`), one env's mutable view of every array
//! (so that envs fill their rows in parallel), and the list of columns with
//! their shapes that the bindings turn into numpy arrays.

/// One array as the bindings see it: its elements, by type.
#[derive(Clone, Copy, Debug)]
pub enum Column<'a> {
    U8(&'a [u8]),
    I8(&'a [i8]),
    I16(&'a [i16]),
    I32(&'a [i32]),
    I64(&'a [i64]),
    F32(&'a [f32]),
    Bool(&'a [bool]),
}

macro_rules! column_from {
    ($($t:ty => $v:ident),*) => {
        $(impl<'a> From<&'a [$t]> for Column<'a> {
            fn from(s: &'a [$t]) -> Self {
                Column::$v(s)
            }
        })*
    };
}
column_from!(u8 => U8, i8 => I8, i16 => I16, i32 => I32, i64 => I64, f32 => F32, bool => Bool);

/// The sizes an array's shape is made of.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Dims {
    pub envs: usize,
    pub players: usize,
    /// Plays kept in `recent` (the `history` option).
    pub history: usize,
    /// Role columns.
    pub roles: usize,
    /// Rewards per env: one per seat, or the acting seat's alone.
    pub rewards: usize,
}

/// `per_env!(Arrays, Row, |d| { name: type = [dims after the env axis], ... })`
macro_rules! per_env {
    ($arrays:ident, $row:ident, |$d:ident| { $($name:ident : $t:ty = [$($dim:expr),*]),* $(,)? }) => {
        /// Arrays with the env as first axis (docs/rl.md).
        #[derive(Clone, Debug, Default)]
        pub struct $arrays {
            $(pub $name: Vec<$t>,)*
        }

        /// One env's rows of every array.
        pub struct $row<'a> {
            $(pub $name: &'a mut [$t],)*
        }

        #[allow(clippy::identity_op)]
        impl $arrays {
            pub fn new($d: &$crate::vecenv::arrays::Dims) -> $arrays {
                $arrays {
                    $($name: vec![<$t>::default(); $d.envs $(* $dim)*],)*
                }
            }

            /// Each env's rows, env 0 first.
            pub fn rows(&mut self, $d: &$crate::vecenv::arrays::Dims) -> Vec<$row<'_>> {
                $(let mut $name = self.$name.chunks_mut((1 $(* $dim)*).max(1));)*
                (0..$d.envs)
                    .map(|_| $row {
                        $($name: $name.next().unwrap_or(&mut []),)*
                    })
                    .collect()
            }

            /// Every env's rows of every array at once, as one row set.
            pub fn all(&mut self) -> $row<'_> {
                $row {
                    $($name: &mut self.$name[..],)*
                }
            }

            /// `(name, elements, shape)` of every array.
            pub fn columns(
                &self,
                $d: &$crate::vecenv::arrays::Dims,
            ) -> Vec<(&'static str, $crate::vecenv::arrays::Column<'_>, Vec<usize>)> {
                vec![$((
                    stringify!($name),
                    $crate::vecenv::arrays::Column::from(&self.$name[..]),
                    vec![$d.envs $(, $dim)*],
                ),)*]
            }

            /// `f(name, elements)` of every array in `columns` order, no
            /// list made (a one-env adapter copies them at every step).
            pub fn each_column<E>(
                &self,
                mut f: impl FnMut(&'static str, $crate::vecenv::arrays::Column<'_>) -> Result<(), E>,
            ) -> Result<(), E> {
                $(f(stringify!($name), $crate::vecenv::arrays::Column::from(&self.$name[..]))?;)*
                Ok(())
            }
        }

        #[allow(clippy::identity_op)]
        impl $row<'_> {
            /// The rows of `block` envs at a time, env 0 first: each item
            /// holds its envs' elements of every array (`env` picks one),
            /// so that blocks of envs fill their rows in parallel without a
            /// list of every env's rows being made first.
            pub fn blocks(
                &mut self,
                $d: &$crate::vecenv::arrays::Dims,
                block: usize,
            ) -> Vec<$row<'_>> {
                let count = $d.envs.div_ceil(block.max(1));
                $(let mut $name = self.$name.chunks_mut((block $(* $dim)*).max(1));)*
                (0..count)
                    .map(|_| $row {
                        $($name: $name.next().unwrap_or(&mut []),)*
                    })
                    .collect()
            }

            /// Env `k`'s rows of a block (`blocks`).
            pub fn env(&mut self, k: usize, $d: &$crate::vecenv::arrays::Dims) -> $row<'_> {
                $row {
                    $($name: {
                        let width = 1 $(* $dim)*;
                        &mut self.$name[k * width..(k + 1) * width]
                    },)*
                }
            }
        }
    };
}

pub(crate) use per_env;

/// Row `i` of a run of 16-slot rows, as an array: a copy into it has a
/// size known when compiling, so it is a few moves rather than a call.
#[inline]
pub fn slot_row(rows: &mut [u8], i: usize) -> &mut [u8; crate::cards::SLOTS] {
    &mut rows.as_chunks_mut::<{ crate::cards::SLOTS }>().0[i]
}

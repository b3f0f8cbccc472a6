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
        }
    };
}

pub(crate) use per_env;

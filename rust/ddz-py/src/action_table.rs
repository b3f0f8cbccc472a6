//! `ActionTable`: a rule set's fixed action ids (`ddz_core::table::ActionTable`),
//! made once per rule set and process and shared by `VecEnv` and the adapters.

use crate::convert::{play_from, value_error};
use crate::table::{action_from, action_to_py};
use crate::types::PyRules;
use ddz_core::table::{Action, ActionTable};
use ddz_core::Engine;
use numpy::PyReadonlyArray1;
use pyo3::prelude::*;
use pyo3::types::PyDict;
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The rule set's table: made on first use, then shared (laizi's holds
/// more than half a million plays and takes a moment to make).
pub(crate) fn table_of(engine: &Engine) -> Arc<ActionTable> {
    static TABLES: OnceLock<Mutex<HashMap<String, Arc<ActionTable>>>> = OnceLock::new();
    let key = serde_json::to_string(engine.rules()).unwrap_or_default();
    let tables = TABLES.get_or_init(Default::default);
    if let Some(t) = tables.lock().expect("not poisoned").get(&key) {
        return t.clone();
    }
    let made = Arc::new(ActionTable::new(engine));
    let mut tables = tables.lock().expect("not poisoned");
    tables.entry(key).or_insert(made).clone()
}

/// Every decision of a rule set numbered (docs/rl.md, "Fixed action ids").
#[pyclass(name = "ActionTable", module = "ddz", frozen)]
pub struct PyActionTable {
    pub(crate) table: Arc<ActionTable>,
    rules: Py<PyRules>,
}

impl PyActionTable {
    pub(crate) fn of(py: Python<'_>, rules: &Bound<'_, PyRules>) -> PyResult<PyActionTable> {
        let engine = rules.get().shared_engine();
        let table = py.detach(|| table_of(&engine));
        Ok(PyActionTable {
            table,
            rules: rules.clone().unbind(),
        })
    }

    fn actions_of(&self, ids: &Bound<'_, PyAny>) -> PyResult<Vec<Action>> {
        let np = ids.py().import("numpy")?;
        let ids = np.call_method1("asarray", (ids, "int64"))?;
        let ids = ids.call_method1("reshape", (-1,))?;
        let ids: PyReadonlyArray1<'_, i64> = ids.extract()?;
        let n = self.table.len();
        ids.as_array()
            .iter()
            .map(|&id| self.action_at(id, n))
            .collect()
    }

    fn action_at(&self, id: i64, n: usize) -> PyResult<Action> {
        usize::try_from(id)
            .ok()
            .and_then(|i| self.table.action(i))
            .ok_or_else(|| value_error(format!("no action id {id}: ids are 0..{}", n - 1)))
    }
}

#[pymethods]
impl PyActionTable {
    #[new]
    fn new(py: Python<'_>, rules: &Bound<'_, PyRules>) -> PyResult<Self> {
        PyActionTable::of(py, rules)
    }

    fn __len__(&self) -> usize {
        self.table.len()
    }

    /// The rule set the table numbers.
    #[getter]
    fn rules(&self, py: Python<'_>) -> Py<PyRules> {
        self.rules.clone_ref(py)
    }

    /// The decision id `action_id` stands for, as `Game` takes it: a
    /// `Move`, or its word.
    fn action<'py>(&self, py: Python<'py>, action_id: i64) -> PyResult<Bound<'py, PyAny>> {
        let a = self.action_at(action_id, self.table.len())?;
        action_to_py(py, &a)
    }

    /// The id of an action (a `Move` or a word); a play's text is read
    /// by the rule set when it has one reading.
    fn id(&self, action: &Bound<'_, PyAny>) -> PyResult<u32> {
        let a = match action_from(action) {
            Some(a) => a,
            None => Action::Play(play_from(self.rules.get().engine(), action)?),
        };
        self.table
            .id(&a)
            .ok_or_else(|| value_error(format!("{a} has no id: no seat can ever hold it")))
    }

    /// `kind`, `rank`, `length`, `cards`, `represents` of some ids, as
    /// `VecEnv`'s legal columns give them.
    fn columns<'py>(
        &self,
        py: Python<'py>,
        ids: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let actions = self.actions_of(ids)?;
        crate::movelist::columns(py, &actions)
    }

    fn __repr__(&self) -> String {
        format!(
            "ActionTable({:?}, {} ids)",
            self.rules.get().engine().rules().preset,
            self.table.len()
        )
    }
}

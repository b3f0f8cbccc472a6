//! The exception family of `ddz.errors` (docs/errors.md): each core error
//! becomes one class, raised with the attributes that say what was wrong.

use pyo3::prelude::*;
use pyo3::types::PyDict;
use pyo3::PyTypeInfo;
use std::fmt::Display;

pyo3::import_exception!(ddz.errors, DdzError);
pyo3::import_exception!(ddz.errors, CardError);
pyo3::import_exception!(ddz.errors, RulesError);
pyo3::import_exception!(ddz.errors, IllegalAction);
pyo3::import_exception!(ddz.errors, RecordError);

/// The attributes of an error; None where they do not apply.
#[derive(Default)]
pub struct Detail {
    pub text: Option<String>,
    pub option: Option<String>,
    pub allowed: Option<Vec<String>>,
    pub seat: Option<usize>,
    pub phase: Option<&'static str>,
}

const FIELDS: [&str; 5] = ["text", "option", "allowed", "seat", "phase"];

fn raise<T: PyTypeInfo>(message: impl Display, d: Detail) -> PyErr {
    Python::attach(|py| {
        let made = (|| {
            let kw = PyDict::new(py);
            kw.set_item("text", d.text)?;
            kw.set_item("option", d.option)?;
            kw.set_item("allowed", d.allowed)?;
            kw.set_item("seat", d.seat)?;
            kw.set_item("phase", d.phase)?;
            py.get_type::<T>().call((message.to_string(),), Some(&kw))
        })();
        match made {
            Ok(value) => PyErr::from_value(value),
            Err(e) => e,
        }
    })
}

/// Cards that cannot be read or do not fit the deck.
pub fn card_error(e: impl Display) -> PyErr {
    raise::<CardError>(e, Detail::default())
}

/// A card error naming the cards as given.
pub fn card_error_in(e: impl Display, text: &str) -> PyErr {
    let text = Some(text.to_string());
    raise::<CardError>(
        e,
        Detail {
            text,
            ..Detail::default()
        },
    )
}

/// A rule set that cannot be built; the option is read from the core's
/// `RulesError` when it names one.
pub fn rules_error(e: impl Display) -> PyErr {
    raise::<RulesError>(e, Detail::default())
}

/// A rules error about `option` (its value as given, and the choices).
pub fn option_error(
    e: impl Display,
    option: &str,
    text: Option<String>,
    allowed: Option<Vec<String>>,
) -> PyErr {
    let option = Some(option.to_string());
    raise::<RulesError>(
        e,
        Detail {
            text,
            option,
            allowed,
            ..Detail::default()
        },
    )
}

/// The core's `RulesError` with its option, the value at fault (`shown`,
/// as the caller wrote it, else as JSON) and the choices where they are a
/// few names.
pub fn core_rules_error(e: &ddz_core::RulesError, shown: Option<&str>) -> PyErr {
    use ddz_core::RulesError as E;
    let text = match e {
        E::UnknownPreset { name } => Some(name.clone()),
        E::BadValue { value, .. } => Some(shown.map_or_else(|| value.to_string(), str::to_string)),
        _ => None,
    };
    let allowed = e
        .allowed()
        .map(|words| words.into_iter().map(str::to_string).collect());
    let message = e.describe(shown);
    match e.option() {
        Some(option) => option_error(message, option, text, allowed),
        None => rules_error(message),
    }
}

/// An action the rules do not allow now.
pub fn illegal_action(e: impl Display, d: Detail) -> PyErr {
    raise::<IllegalAction>(e, d)
}

/// `e` with `at: ` before its message, keeping its class and attributes.
pub fn prefixed(py: Python<'_>, e: PyErr, at: &str) -> PyErr {
    let value = e.value(py);
    let message = format!("{at}: {value}");
    if !value.is_instance_of::<DdzError>() {
        return PyErr::from_type(value.get_type(), message);
    }
    let made = (|| {
        let kw = PyDict::new(py);
        for field in FIELDS {
            kw.set_item(field, value.getattr(field)?)?;
        }
        value.get_type().call((message,), Some(&kw))
    })();
    match made {
        Ok(v) => PyErr::from_value(v),
        Err(e) => e,
    }
}

/// A record that cannot be read or replayed, with the seat, phase and
/// text of the action at fault.
pub fn record_error(e: &ddz_core::table::RecordError) -> PyErr {
    raise::<RecordError>(
        &e.message,
        Detail {
            text: e.text.clone(),
            seat: e.seat,
            phase: e.phase.map(|p| p.name()),
            ..Detail::default()
        },
    )
}

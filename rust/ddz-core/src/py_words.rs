//! JSON values named in Python's words, for error messages that the
//! Python layer raises as they are: one copy of each rule, so two messages
//! never name the same value two ways.

use serde_json::Value;

/// A JSON value's type as Python names it (`type(v).__name__`: `NoneType`,
/// `bool`, `int`, `float`, `str`, `list`, `dict`).
pub(crate) fn json_type(value: &Value) -> &'static str {
    match value {
        Value::Null => "NoneType",
        Value::Bool(_) => "bool",
        Value::Number(n) if n.is_f64() => "float",
        Value::Number(_) => "int",
        Value::String(_) => "str",
        Value::Array(_) => "list",
        Value::Object(_) => "dict",
    }
}

/// A JSON value as Python's `repr` shows it (`'4'`, `True`, `None`,
/// `['a', 1]`, `{'k': None}`).
pub(crate) fn py_repr(value: &Value) -> String {
    match value {
        Value::Null => "None".into(),
        Value::Bool(true) => "True".into(),
        Value::Bool(false) => "False".into(),
        Value::String(s) => format!("'{s}'"),
        Value::Array(items) => {
            let inner: Vec<String> = items.iter().map(py_repr).collect();
            format!("[{}]", inner.join(", "))
        }
        Value::Object(fields) => {
            let inner: Vec<String> = fields
                .iter()
                .map(|(k, v)| format!("'{k}': {}", py_repr(v)))
                .collect();
            format!("{{{}}}", inner.join(", "))
        }
        number => number.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn values_are_named_as_python_names_them() {
        assert_eq!(json_type(&Value::Null), "NoneType");
        assert_eq!(json_type(&json!(1.5)), "float");
        assert_eq!(json_type(&json!([1])), "list");
        let v = json!({"a": [null, true, "x", 3]});
        assert_eq!(py_repr(&v), "{'a': [None, True, 'x', 3]}");
    }
}

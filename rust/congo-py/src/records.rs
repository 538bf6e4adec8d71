//! Records: the plain values the core hands to Python (a search's findings, a table's report),
//! as frozen classes whose fields are attributes, as rpds-py and pydantic-core do. Python uses them
//! directly: no tuple unpacked by position, no field copied into a second class.
//!
//! [`record!`] writes one: the struct, its constructor (keyword arguments with the same names, for
//! tests and pickling), `==` and `hash` over the fields (a record holding a list is unhashable, as a
//! frozen dataclass holding one is), a dataclass-style `repr`, and pickling.

use pyo3::prelude::*;
use pyo3::types::PyTuple;

/// A field's Python name (a raw identifier such as `r#move` without its `r#`).
fn python_name(field: &str) -> &str {
    field.trim_start_matches("r#")
}

/// The fields of a record, in order, as a tuple.
pub fn fields<'py>(record: &Bound<'py, PyAny>, names: &[&str]) -> PyResult<Bound<'py, PyTuple>> {
    let values = names.iter().map(|n| record.getattr(python_name(n))).collect::<PyResult<Vec<_>>>()?;
    PyTuple::new(record.py(), values)
}

/// `Name(field=repr, ...)`, as a dataclass shows itself.
pub fn repr(record: &Bound<'_, PyAny>, names: &[&str]) -> PyResult<String> {
    let class = record.get_type().name()?;
    let parts = names
        .iter()
        .map(|n| Ok(format!("{}={}", python_name(n), record.getattr(python_name(n))?.repr()?)))
        .collect::<PyResult<Vec<_>>>()?;
    Ok(format!("{class}({})", parts.join(", ")))
}

/// `record == other`: equal fields and the same class; `NotImplemented` for another class.
pub fn eq(record: &Bound<'_, PyAny>, other: &Bound<'_, PyAny>, names: &[&str]) -> PyResult<Py<PyAny>> {
    let py = record.py();
    if !other.get_type().is(record.get_type()) {
        return Ok(py.NotImplemented());
    }
    let equal = fields(record, names)?.eq(fields(other, names)?)?;
    Ok(pyo3::types::PyBool::new(py, equal).to_owned().into_any().unbind())
}

/// The hash of the fields (`TypeError` for a record holding a list).
pub fn hash(record: &Bound<'_, PyAny>, names: &[&str]) -> PyResult<isize> {
    fields(record, names)?.hash()
}

/// `(class, fields)`: the record is rebuilt by its constructor.
pub fn reduce<'py>(record: &Bound<'py, PyAny>, names: &[&str]) -> PyResult<Bound<'py, PyTuple>> {
    let class = record.get_type();
    PyTuple::new(record.py(), [class.into_any(), fields(record, names)?.into_any()])
}

/// Declares a record class: `record! { /// doc  Name [as "PythonName"] in "module" { /// doc  field: Type [= default], ... }
/// [methods { more #[pymethods] }] }`. Defaults make the constructor's trailing arguments optional.
macro_rules! record {
    (
        $(#[$meta:meta])*
        $name:ident $(as $pyname:literal)? in $module:literal {
            $( $(#[$fmeta:meta])* $field:ident : $ty:ty $(= $default:expr)? ),* $(,)?
        }
        $( methods { $($extra:tt)* } )?
    ) => {
        $(#[$meta])*
        #[pyclass(frozen, get_all, module = $module $(, name = $pyname)?)]
        pub struct $name {
            $( $(#[$fmeta])* pub $field: $ty, )*
        }

        impl $name {
            pub const FIELDS: &'static [&'static str] = &[$(stringify!($field)),*];
        }

        #[pymethods]
        impl $name {
            #[new]
            #[pyo3(signature = ($($field $(= $default)?),*))]
            #[allow(clippy::too_many_arguments)]
            fn __new__($($field: $ty),*) -> Self {
                Self { $($field),* }
            }

            fn __repr__(slf: &Bound<'_, Self>) -> PyResult<String> {
                $crate::records::repr(slf.as_any(), Self::FIELDS)
            }

            fn __eq__(slf: &Bound<'_, Self>, other: &Bound<'_, PyAny>) -> PyResult<Py<PyAny>> {
                $crate::records::eq(slf.as_any(), other, Self::FIELDS)
            }

            fn __hash__(slf: &Bound<'_, Self>) -> PyResult<isize> {
                $crate::records::hash(slf.as_any(), Self::FIELDS)
            }

            fn __reduce__<'py>(slf: &Bound<'py, Self>) -> PyResult<Bound<'py, pyo3::types::PyTuple>> {
                $crate::records::reduce(slf.as_any(), Self::FIELDS)
            }

            $($($extra)*)?
        }
    };
}

pub(crate) use record;

//! Requirements with options, and resources with attributes.

use std::collections::BTreeMap;
use std::fmt;

use crate::error::UtilityError;

/// A property of a resource that a job can ask for.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[non_exhaustive]
pub enum Attribute {
    /// Operating system (text, e.g. `"Linux"`).
    Os,
    /// Architecture (text or a word size such as 32 or 64).
    Arch,
    /// Number of cores.
    Cores,
    /// Processor speed (MIPS or any consistent unit).
    Speed,
    /// Memory in MB.
    Memory,
    /// Disk in MB.
    Disk,
    /// Execution time the resource offers for the job, in seconds.
    ExecTime,
    /// Anything else, by name.
    Other(String),
}

impl fmt::Display for Attribute {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Attribute::Os => f.write_str("operating system"),
            Attribute::Arch => f.write_str("architecture"),
            Attribute::Cores => f.write_str("cores"),
            Attribute::Speed => f.write_str("processor speed"),
            Attribute::Memory => f.write_str("memory"),
            Attribute::Disk => f.write_str("disk"),
            Attribute::ExecTime => f.write_str("execution time"),
            Attribute::Other(name) => f.write_str(name),
        }
    }
}

/// The value of a resource attribute.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Value {
    /// A name, e.g. an operating system.
    Text(String),
    /// A number, e.g. cores or MB.
    Int(i64),
}

impl From<&str> for Value {
    fn from(s: &str) -> Value {
        Value::Text(s.to_owned())
    }
}

impl From<i64> for Value {
    fn from(n: i64) -> Value {
        Value::Int(n)
    }
}

/// What one option of a requirement accepts.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Want {
    /// The attribute equals this value.
    Is(Value),
    /// The attribute is a number at least this large.
    AtLeast(i64),
    /// The attribute is a number at most this large.
    AtMost(i64),
}

impl Want {
    /// Whether a resource whose attribute has value `have` meets this option.
    /// A missing attribute meets nothing.
    pub fn met_by(&self, have: Option<&Value>) -> bool {
        match (self, have) {
            (Want::Is(want), Some(have)) => want == have,
            (Want::AtLeast(min), Some(Value::Int(n))) => n >= min,
            (Want::AtMost(max), Some(Value::Int(n))) => n <= max,
            _ => false,
        }
    }
}

/// One requirement of a job: an attribute, the acceptable options each with
/// its utility `α ∈ [0, 1]`, and the requirement's weight `β ∈ [0, 1]`.
#[derive(Clone, Debug, PartialEq)]
pub struct Requirement {
    attribute: Attribute,
    options: Vec<(Want, f64)>,
    weight: f64,
}

impl Requirement {
    /// A requirement; fails if there is no option or a utility or the weight
    /// lies outside `[0, 1]`. The paper's PU sets every weight to 1.
    pub fn new(
        attribute: Attribute,
        weight: f64,
        options: Vec<(Want, f64)>,
    ) -> Result<Requirement, UtilityError> {
        if !(0.0..=1.0).contains(&weight) {
            return Err(UtilityError::Weight {
                attribute,
                value: weight,
            });
        }
        if options.is_empty() {
            return Err(UtilityError::NoOptions { attribute });
        }
        if let Some((option, &(_, value))) = options
            .iter()
            .enumerate()
            .find(|(_, (_, u))| !(0.0..=1.0).contains(u))
        {
            return Err(UtilityError::OptionUtility {
                attribute,
                option,
                value,
            });
        }
        Ok(Requirement {
            attribute,
            options,
            weight,
        })
    }

    /// The attribute asked for.
    pub fn attribute(&self) -> &Attribute {
        &self.attribute
    }

    /// The options with their utilities, in the order given.
    pub fn options(&self) -> &[(Want, f64)] {
        &self.options
    }

    /// The weight `β`.
    pub fn weight(&self) -> f64 {
        self.weight
    }

    /// The preferred option: the one of highest utility, the first on ties.
    /// Binary utility and matchmaking consider this option alone.
    pub fn preferred(&self) -> &(Want, f64) {
        // `Requirement::new` guarantees at least one option.
        let mut best = &self.options[0];
        for o in &self.options[1..] {
            if o.1 > best.1 {
                best = o;
            }
        }
        best
    }
}

/// A resource as a set of attribute values (static ones such as the
/// operating system, dynamic ones such as free memory, as the caller keeps them).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resource {
    attributes: BTreeMap<Attribute, Value>,
}

impl Resource {
    /// A resource with no attribute.
    pub fn new() -> Resource {
        Resource::default()
    }

    /// The same resource with `attribute` set to `value`.
    pub fn with(mut self, attribute: Attribute, value: impl Into<Value>) -> Resource {
        self.attributes.insert(attribute, value.into());
        self
    }

    /// Sets `attribute` to `value` (dynamic state changes).
    pub fn set(&mut self, attribute: Attribute, value: impl Into<Value>) {
        self.attributes.insert(attribute, value.into());
    }

    /// The value of `attribute`, if the resource has it.
    pub fn get(&self, attribute: &Attribute) -> Option<&Value> {
        self.attributes.get(attribute)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wants() {
        let linux = Value::from("Linux");
        assert!(Want::Is("Linux".into()).met_by(Some(&linux)));
        assert!(!Want::Is("MacOS".into()).met_by(Some(&linux)));
        assert!(!Want::Is("Linux".into()).met_by(None));
        assert!(Want::AtLeast(4).met_by(Some(&Value::Int(4))));
        assert!(!Want::AtLeast(4).met_by(Some(&Value::Int(3))));
        assert!(Want::AtMost(4).met_by(Some(&Value::Int(4))));
        assert!(!Want::AtMost(4).met_by(Some(&Value::Int(5))));
        // Numeric wants never match text.
        assert!(!Want::AtLeast(0).met_by(Some(&linux)));
    }

    #[test]
    fn requirement_checks() {
        let check = |r: Result<Requirement, UtilityError>, msg: &str| {
            assert_eq!(r.unwrap_err().to_string(), msg)
        };
        check(
            Requirement::new(Attribute::Os, 1.0, vec![]),
            "requirement on operating system lists no option, expected at least one",
        );
        check(
            Requirement::new(
                Attribute::Cores,
                1.0,
                vec![(Want::AtLeast(2), 0.5), (Want::AtLeast(1), 1.5)],
            ),
            "requirement on cores, option 1: utility is 1.5, expected a number in [0, 1]",
        );
        check(
            Requirement::new(
                Attribute::Other("gpu".into()),
                f64::NAN,
                vec![(Want::AtLeast(1), 1.0)],
            ),
            "requirement on gpu: weight is NaN, expected a number in [0, 1]",
        );
    }

    #[test]
    fn preferred_is_highest_utility_first_on_ties() {
        let r = Requirement::new(
            Attribute::Os,
            1.0,
            vec![
                (Want::Is("Linux".into()), 0.5),
                (Want::Is("MacOS".into()), 0.9),
                (Want::Is("BSD".into()), 0.9),
            ],
        )
        .unwrap();
        assert_eq!(r.preferred(), &(Want::Is("MacOS".into()), 0.9));
    }

    #[test]
    fn resources_hold_static_and_dynamic_values() {
        let mut r = Resource::new()
            .with(Attribute::Os, "Linux")
            .with(Attribute::Memory, 2048);
        assert_eq!(r.get(&Attribute::Os), Some(&Value::from("Linux")));
        r.set(Attribute::Memory, 1024);
        assert_eq!(r.get(&Attribute::Memory), Some(&Value::Int(1024)));
        assert_eq!(r.get(&Attribute::Disk), None);
    }
}

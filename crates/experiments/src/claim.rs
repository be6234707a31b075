//! A claim as the schema holds it: a paper's statement and the predicate
//! that checks it, as data (see `crate::claims` for how a predicate is
//! judged).

use std::ops::Range;

use serde::{Deserialize, Serialize};
use toml::Spanned;

use crate::encode::list_shown;
use crate::numfmt::fmt_exact;

/// A statement from a paper and the predicate that checks it.
#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Claim {
    /// The paper's words.
    pub text: String,
    /// The paper's number, where it gives one.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub paper_value: Option<String>,
    /// Why our result differs, found after a search for bugs; shown under
    /// the claims when the verdict is FAIL.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub explanation: Option<String>,
    /// Why the claim does not PASS, by category.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub cause: Option<Cause>,
    pub(crate) check: Spanned<Check>,
}

/// Why a claim does not PASS: a category with its evidence.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum Cause {
    /// The paper contradicts itself or its other figures: the quote.
    Paper(String),
    /// Data nobody can get: what is missing.
    Data(String),
    /// A reading of a vague text: the id of the sensitivity run that tries
    /// the other reading (e.g. `adaptive/sensitivity/sp-20pct`).
    Reading(String),
}

impl Cause {
    /// `paper inconsistent`, `data unavailable` or `reading`.
    pub fn category(&self) -> &'static str {
        match self {
            Cause::Paper(_) => "paper inconsistent",
            Cause::Data(_) => "data unavailable",
            Cause::Reading(_) => "reading",
        }
    }

    /// The quote, the missing data, or the sensitivity run's id.
    pub fn detail(&self) -> &str {
        match self {
            Cause::Paper(s) | Cause::Data(s) | Cause::Reading(s) => s,
        }
    }
}

/// Read by hand, not derived: a table holding two predicates, or none,
/// then gets a message naming `check` and the predicates, where the derived
/// enum said "wanted exactly 1 element".
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Check {
    Above(Compare),
    Below(Compare),
    Within(Within),
    Ratio(Ratio),
    Monotone(Monotone),
    Ordering(Ordering),
    Rise(Rise),
    RisesMore(RisesMore),
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Compare {
    pub(crate) panel: String,
    pub(crate) series: String,
    pub(crate) than: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) at: Option<XKey>,
    #[serde(default)]
    pub(crate) margin: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Within {
    pub(crate) panel: String,
    pub(crate) series: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) at: Option<XKey>,
    pub(crate) lo: f64,
    pub(crate) hi: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Ratio {
    pub(crate) panel: String,
    pub(crate) series: String,
    pub(crate) than: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) at: Option<XKey>,
    pub(crate) lo: f64,
    pub(crate) hi: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Monotone {
    pub(crate) panel: String,
    pub(crate) series: String,
    pub(crate) direction: Direction,
    #[serde(default)]
    pub(crate) strict: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub(crate) enum Direction {
    Increasing,
    Decreasing,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Ordering {
    pub(crate) panel: String,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(crate) at: Option<XKey>,
    pub(crate) highest_first: Vec<String>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Rise {
    pub(crate) panel: String,
    pub(crate) series: String,
    pub(crate) from: XKey,
    pub(crate) to: XKey,
    pub(crate) lo: f64,
    pub(crate) hi: f64,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct RisesMore {
    pub(crate) panel: String,
    pub(crate) series: String,
    pub(crate) than: String,
    pub(crate) from: XKey,
    pub(crate) to: XKey,
    #[serde(default)]
    pub(crate) margin: f64,
}

/// The predicates a `check` table may hold, as its keys.
const PREDICATES: [&str; 8] = [
    "above",
    "below",
    "within",
    "ratio",
    "monotone",
    "ordering",
    "rise",
    "rises_more",
];

impl<'de> Deserialize<'de> for Check {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Check, D::Error> {
        struct Visit;
        impl<'de> serde::de::Visitor<'de> for Visit {
            type Value = Check;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                write!(
                    f,
                    "a `check` table holding one predicate ({})",
                    PREDICATES.join(", ")
                )
            }
            fn visit_map<M: serde::de::MapAccess<'de>>(
                self,
                mut map: M,
            ) -> Result<Check, M::Error> {
                use serde::de::Error;
                let Some(key) = map.next_key::<String>()? else {
                    return Err(M::Error::custom(format!(
                        "`check` holds no predicate; give one of: {}",
                        PREDICATES.join(", ")
                    )));
                };
                let check = match key.as_str() {
                    "above" => Check::Above(map.next_value()?),
                    "below" => Check::Below(map.next_value()?),
                    "within" => Check::Within(map.next_value()?),
                    "ratio" => Check::Ratio(map.next_value()?),
                    "monotone" => Check::Monotone(map.next_value()?),
                    "ordering" => Check::Ordering(map.next_value()?),
                    "rise" => Check::Rise(map.next_value()?),
                    "rises_more" => Check::RisesMore(map.next_value()?),
                    other => return Err(M::Error::unknown_variant(other, &PREDICATES)),
                };
                if let Some(second) = map.next_key::<String>()? {
                    return Err(M::Error::custom(format!(
                        "`check` holds two predicates, `{key}` and `{}`; a claim checks one: \
                         split it into two claims",
                        crate::encode::terminal_name(&second)
                    )));
                }
                Ok(check)
            }
        }
        d.deserialize_map(Visit)
    }
}

/// An x value in a claim: a category name or a number.
#[derive(Debug, Clone, Serialize)]
#[serde(untagged)]
pub(crate) enum XKey {
    Text(String),
    Number(f64),
    /// An integer, kept exact (beyond 2^53 a float would merge neighbours).
    Integer(i64),
}

/// Read by hand, not derived: a value of another type (a boolean, say)
/// gets a message saying what an x value is, where the derived untagged
/// enum named its own type.
impl<'de> Deserialize<'de> for XKey {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<XKey, D::Error> {
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = XKey;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an x value: a category name in quotes, or a number")
            }
            fn visit_str<E>(self, v: &str) -> Result<XKey, E> {
                Ok(XKey::Text(v.to_string()))
            }
            fn visit_f64<E>(self, v: f64) -> Result<XKey, E> {
                Ok(XKey::Number(v))
            }
            fn visit_i64<E>(self, v: i64) -> Result<XKey, E> {
                Ok(XKey::Integer(v))
            }
            fn visit_u64<E>(self, v: u64) -> Result<XKey, E> {
                Ok(i64::try_from(v).map_or(XKey::Number(v as f64), XKey::Integer))
            }
        }
        d.deserialize_any(Visit)
    }
}

impl XKey {
    pub(crate) fn key(&self) -> String {
        match self {
            XKey::Text(s) => s.clone(),
            XKey::Number(v) => fmt_exact(*v),
            XKey::Integer(i) => i.to_string(),
        }
    }
}

impl Claim {
    /// Where the predicate is in the configuration file.
    pub(crate) fn span(&self) -> Range<usize> {
        self.check.span()
    }

    /// The x values the claim names (`at`, `from`, `to`) that are not among
    /// `xs`, as data.csv writes them.
    pub(crate) fn missing_xs(&self, xs: &Names<'_>) -> Vec<String> {
        let named: Vec<&XKey> = match self.check.get_ref() {
            Check::Above(Compare { at, .. })
            | Check::Within(Within { at, .. })
            | Check::Ratio(Ratio { at, .. })
            | Check::Ordering(Ordering { at, .. }) => at.iter().collect(),
            Check::Rise(Rise { from, to, .. }) | Check::RisesMore(RisesMore { from, to, .. }) => {
                vec![from, to]
            }
            Check::Below(Compare { at, .. }) => at.iter().collect(),
            Check::Monotone(_) => Vec::new(),
        };
        named
            .into_iter()
            .map(XKey::key)
            .filter(|k| !xs.contains(k))
            .collect()
    }

    /// The predicate's key in `check` (`below`, `rises_more`).
    pub(crate) fn predicate(&self) -> &'static str {
        match self.check.get_ref() {
            Check::Above(_) => "above",
            Check::Below(_) => "below",
            Check::Within(_) => "within",
            Check::Ratio(_) => "ratio",
            Check::Monotone(_) => "monotone",
            Check::Ordering(_) => "ordering",
            Check::Rise(_) => "rise",
            Check::RisesMore(_) => "rises_more",
        }
    }

    /// Checks that the claim refers to existing panels, series and x values.
    /// An error comes with the key at fault, as a path inside the
    /// predicate's table (`["than"]`, `["highest_first", "2"]`); an empty
    /// path for the predicate as a whole.
    /// `missing` are the x values the claim names that the sweep lacks
    /// ([`Claim::missing_xs`]): known here, as the claim is left out.
    pub(crate) fn validate(
        &self,
        panels: &Names<'_>,
        series: &Names<'_>,
        xs: &Names<'_>,
        missing: &[String],
    ) -> Result<(), (Vec<String>, String)> {
        let key = |k: &str| vec![k.to_string()];
        let panel = |p: &str| {
            if panels.contains(p) {
                Ok(())
            } else {
                Err((
                    key("panel"),
                    format!(
                        "claim refers to unknown panel '{p}', expected one of: {}",
                        panels.shown()
                    ),
                ))
            }
        };
        let one = |field: Vec<String>, s: &str| {
            if series.contains(s) {
                Ok(())
            } else {
                Err((
                    field,
                    format!(
                        "claim refers to unknown series '{s}', expected one of: {}",
                        series.shown()
                    ),
                ))
            }
        };
        let at = |field: &str, a: Option<&XKey>| match a {
            Some(k) if !xs.contains(&k.key()) && !missing.contains(&k.key()) => Err((
                key(field),
                format!(
                    "claim refers to x = {}, expected one of: {}",
                    k.key(),
                    xs.shown()
                ),
            )),
            _ => Ok(()),
        };
        // The bound at fault: one not finite, else `hi` below `lo`.
        let range = |lo: f64, hi: f64| {
            if lo.is_finite() && hi.is_finite() && lo <= hi {
                Ok(())
            } else {
                let bound = if lo.is_finite() { "hi" } else { "lo" };
                Err((
                    key(bound),
                    format!("claim range [{lo}, {hi}] is empty or not finite"),
                ))
            }
        };
        let margin = |m: f64| {
            if m.is_finite() && m >= 0.0 {
                Ok(())
            } else {
                Err((
                    key("margin"),
                    format!("margin {m} must be a non-negative number"),
                ))
            }
        };
        // A series compared with itself, a rise from an x value to the
        // same one, or a trend over one x value, has a verdict fixed before
        // any run: refused.
        let two = |series: &str, than: &str| {
            if series == than {
                Err((
                    key("than"),
                    format!(
                        "claim compares series '{series}' with itself (`series` and `than` are \
                         the same); name two different series"
                    ),
                ))
            } else {
                Ok(())
            }
        };
        let rise = |from: &XKey, to: &XKey| {
            if from.key() == to.key() {
                Err((
                    key("to"),
                    format!(
                        "claim rises from x = {} to the same x (`from` and `to` are the same); \
                         name two different x values",
                        from.key()
                    ),
                ))
            } else {
                Ok(())
            }
        };
        match self.check.get_ref() {
            Check::Above(c) | Check::Below(c) => margin(c.margin)
                .and(panel(&c.panel))
                .and(one(key("series"), &c.series))
                .and(one(key("than"), &c.than))
                .and(at("at", c.at.as_ref()))
                .and(two(&c.series, &c.than)),
            Check::Within(w) => panel(&w.panel)
                .and(one(key("series"), &w.series))
                .and(at("at", w.at.as_ref()))
                .and(range(w.lo, w.hi)),
            Check::Ratio(r) => panel(&r.panel)
                .and(one(key("series"), &r.series))
                .and(one(key("than"), &r.than))
                .and(at("at", r.at.as_ref()))
                .and(range(r.lo, r.hi))
                .and(two(&r.series, &r.than)),
            // A trend over fewer than two x values always FAILs.
            Check::Monotone(_) if xs.len() < 2 => Err((
                Vec::new(),
                format!(
                    "a monotone claim needs a trend over at least two x values, and the sweep \
                     has {}; sweep more values, or check one value with `within`",
                    xs.len()
                ),
            )),
            Check::Monotone(m) => panel(&m.panel).and(one(key("series"), &m.series)),
            Check::Ordering(o) => {
                if o.highest_first.len() < 2 {
                    return Err((
                        key("highest_first"),
                        "an ordering needs at least two series".into(),
                    ));
                }
                panel(&o.panel).and(at("at", o.at.as_ref()))?;
                let element = |i: usize| vec!["highest_first".to_string(), i.to_string()];
                for (i, s) in o.highest_first.iter().enumerate() {
                    one(element(i), s)?;
                    if o.highest_first[..i].contains(s) {
                        return Err((
                            element(i),
                            format!(
                                "ordering names series '{s}' twice in `highest_first`; name \
                                 each series once"
                            ),
                        ));
                    }
                }
                Ok(())
            }
            Check::Rise(r) => panel(&r.panel)
                .and(one(key("series"), &r.series))
                .and(at("from", Some(&r.from)))
                .and(at("to", Some(&r.to)))
                .and(range(r.lo, r.hi))
                .and(rise(&r.from, &r.to)),
            Check::RisesMore(r) => margin(r.margin)
                .and(panel(&r.panel))
                .and(one(key("series"), &r.series))
                .and(one(key("than"), &r.than))
                .and(at("from", Some(&r.from)))
                .and(at("to", Some(&r.to)))
                .and(two(&r.series, &r.than))
                .and(rise(&r.from, &r.to)),
        }
    }
}

/// Names a claim may refer to (panels, series or x values): in order, for
/// messages, and hashed, for lookups. A study may have 20,000 panels and
/// thousands of claims; each reference is one lookup, not a scan.
pub(crate) struct Names<'a> {
    list: Vec<&'a str>,
    set: std::collections::HashSet<&'a str>,
}

impl<'a> Names<'a> {
    pub(crate) fn new(names: &'a [String]) -> Self {
        let list: Vec<&str> = names.iter().map(String::as_str).collect();
        let set = list.iter().copied().collect();
        Names { list, set }
    }

    pub(crate) fn contains(&self, name: &str) -> bool {
        self.set.contains(name)
    }

    pub(crate) fn len(&self) -> usize {
        self.list.len()
    }

    /// The names as a message lists them ([`list_shown`]).
    pub(crate) fn shown(&self) -> String {
        list_shown(&self.list)
    }
}

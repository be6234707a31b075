//! Utility of one job on one resource: partial, binary, matchmaking.

use std::fmt;
use std::str::FromStr;

use crate::model::{Requirement, Resource};

/// The utility in `[0, 1]` of running a job with these requirements on
/// this resource. The scheduler picks the resource of highest utility.
pub trait UtilityFunction {
    /// The utility of `resource` for a job with `requirements`.
    fn utility(&self, requirements: &[Requirement], resource: &Resource) -> f64;
}

/// Partial utility, eq. 1 of Vasques & Veiga:
///
/// `globalUtility[v, r] = Σ_i max(α(i)·β(i)) / N`
///
/// where, for each of the `N` requirements, the maximum runs over the
/// options the resource meets (0 when it meets none). A resource that meets
/// only a second-choice option still earns that option's utility.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct PartialUtility;

/// Binary utility: each requirement is met or not by its single option. On
/// a job with several options per requirement the preferred option (highest
/// utility, first on ties) stands for the requirement; a met requirement
/// earns `α·β` of that option, an unmet one 0, averaged over the `N`
/// requirements as in eq. 1.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct BinaryUtility;

/// Matchmaking (Raman, Livny & Solomon): the resource is usable only if it
/// meets every requirement's preferred option; then its utility is the
/// binary utility, otherwise 0.
#[derive(Copy, Clone, Debug, Default, PartialEq, Eq)]
pub struct Matchmaking;

/// The three schedulers of the paper's evaluation by name, as one
/// [`UtilityFunction`]: `pu` (partial utility), `bu` (binary utility) and
/// `mm` (matchmaking). [`Display`](fmt::Display) writes the short name and
/// [`FromStr`] reads it back (or the long one: `partial`, `binary`,
/// `matchmaking`); with the `serde` feature the kind is (de)serialised as
/// that string, through the same two.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash)]
#[cfg_attr(
    feature = "serde",
    derive(serde::Serialize, serde::Deserialize),
    serde(try_from = "String", into = "&'static str")
)]
#[non_exhaustive]
pub enum UtilityKind {
    /// [`PartialUtility`].
    Partial,
    /// [`BinaryUtility`].
    Binary,
    /// [`Matchmaking`].
    Matchmaking,
}

impl UtilityKind {
    /// Every kind, in the paper's order.
    pub const ALL: [UtilityKind; 3] = [
        UtilityKind::Partial,
        UtilityKind::Binary,
        UtilityKind::Matchmaking,
    ];

    /// The paper's short name: `pu`, `bu` or `mm`.
    pub fn name(self) -> &'static str {
        match self {
            UtilityKind::Partial => "pu",
            UtilityKind::Binary => "bu",
            UtilityKind::Matchmaking => "mm",
        }
    }
}

impl fmt::Display for UtilityKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

impl FromStr for UtilityKind {
    type Err = String;

    /// `pu`, `bu` or `mm` (also `partial`, `binary`, `matchmaking`).
    fn from_str(s: &str) -> Result<UtilityKind, String> {
        match s {
            "pu" | "partial" => Ok(UtilityKind::Partial),
            "bu" | "binary" => Ok(UtilityKind::Binary),
            "mm" | "matchmaking" => Ok(UtilityKind::Matchmaking),
            _ => Err(format!("unknown scheduler '{s}', expected pu, bu or mm")),
        }
    }
}

impl TryFrom<String> for UtilityKind {
    type Error = String;

    /// As [`FromStr`].
    fn try_from(s: String) -> Result<UtilityKind, String> {
        s.parse()
    }
}

impl From<UtilityKind> for &'static str {
    /// [`UtilityKind::name`].
    fn from(kind: UtilityKind) -> &'static str {
        kind.name()
    }
}

impl UtilityFunction for UtilityKind {
    fn utility(&self, requirements: &[Requirement], resource: &Resource) -> f64 {
        match self {
            UtilityKind::Partial => PartialUtility.utility(requirements, resource),
            UtilityKind::Binary => BinaryUtility.utility(requirements, resource),
            UtilityKind::Matchmaking => Matchmaking.utility(requirements, resource),
        }
    }
}

/// `α·β` of the preferred option if the resource meets it, else `None`.
fn preferred_met(req: &Requirement, resource: &Resource) -> Option<f64> {
    let (want, alpha) = req.preferred();
    want.met_by(resource.get(req.attribute()))
        .then(|| alpha * req.weight())
}

/// The mean of `per_requirement` over the requirements; a job that asks for
/// nothing is fully satisfied anywhere (utility 1).
fn mean(requirements: &[Requirement], per_requirement: impl Fn(&Requirement) -> f64) -> f64 {
    if requirements.is_empty() {
        return 1.0;
    }
    requirements.iter().map(per_requirement).sum::<f64>() / requirements.len() as f64
}

impl UtilityFunction for PartialUtility {
    fn utility(&self, requirements: &[Requirement], resource: &Resource) -> f64 {
        mean(requirements, |req| {
            let have = resource.get(req.attribute());
            req.options()
                .iter()
                .filter(|(want, _)| want.met_by(have))
                .map(|(_, alpha)| alpha * req.weight())
                .fold(0.0, f64::max)
        })
    }
}

impl UtilityFunction for BinaryUtility {
    fn utility(&self, requirements: &[Requirement], resource: &Resource) -> f64 {
        mean(requirements, |req| {
            preferred_met(req, resource).unwrap_or(0.0)
        })
    }
}

impl UtilityFunction for Matchmaking {
    fn utility(&self, requirements: &[Requirement], resource: &Resource) -> f64 {
        if requirements
            .iter()
            .all(|req| preferred_met(req, resource).is_some())
        {
            BinaryUtility.utility(requirements, resource)
        } else {
            0.0
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Attribute, Value, Want};

    fn os_and_arch() -> Vec<Requirement> {
        vec![
            // The paper's example: MacOS is worth 1, Linux 0.5.
            Requirement::new(
                Attribute::Os,
                1.0,
                vec![
                    (Want::Is("MacOS".into()), 1.0),
                    (Want::Is("Linux".into()), 0.5),
                ],
            )
            .unwrap(),
            Requirement::new(
                Attribute::Arch,
                1.0,
                vec![
                    (Want::Is(Value::Int(64)), 1.0),
                    (Want::Is(Value::Int(32)), 0.3),
                ],
            )
            .unwrap(),
        ]
    }

    fn machine(os: &str, arch: i64) -> Resource {
        Resource::new()
            .with(Attribute::Os, os)
            .with(Attribute::Arch, arch)
    }

    fn all(reqs: &[Requirement], res: &Resource) -> [f64; 3] {
        [
            PartialUtility.utility(reqs, res),
            BinaryUtility.utility(reqs, res),
            Matchmaking.utility(reqs, res),
        ]
    }

    fn close(a: [f64; 3], b: [f64; 3]) -> bool {
        a.iter().zip(b).all(|(x, y)| (x - y).abs() < 1e-12)
    }

    /// Hand-computed eq. 1 values: [partial, binary, matchmaking].
    #[test]
    fn hand_computed_cases() {
        let reqs = os_and_arch();
        let check = |res: Resource, want: [f64; 3]| {
            let got = all(&reqs, &res);
            assert!(close(got, want), "{res:?}: got {got:?}, want {want:?}");
        };
        check(machine("MacOS", 64), [1.0, 1.0, 1.0]);
        check(machine("MacOS", 32), [(1.0 + 0.3) / 2.0, 0.5, 0.0]);
        check(machine("Linux", 64), [(0.5 + 1.0) / 2.0, 0.5, 0.0]);
        check(machine("Linux", 32), [(0.5 + 0.3) / 2.0, 0.0, 0.0]);
        check(machine("Windows", 16), [0.0, 0.0, 0.0]);
        check(Resource::new(), [0.0, 0.0, 0.0]);
    }

    #[test]
    fn weights_scale_each_requirement() {
        let reqs = vec![
            Requirement::new(
                Attribute::Cores,
                0.5,
                vec![(Want::AtLeast(8), 1.0), (Want::AtLeast(4), 0.6)],
            )
            .unwrap(),
            Requirement::new(Attribute::Memory, 1.0, vec![(Want::AtLeast(4096), 0.8)]).unwrap(),
        ];
        let res = Resource::new()
            .with(Attribute::Cores, 4)
            .with(Attribute::Memory, 8192);
        // (0.6 × 0.5 + 0.8 × 1) / 2
        assert!((PartialUtility.utility(&reqs, &res) - 0.55).abs() < 1e-12);
        // Binary: cores' preferred option (8) unmet → (0 + 0.8) / 2.
        assert!((BinaryUtility.utility(&reqs, &res) - 0.4).abs() < 1e-12);
        assert_eq!(Matchmaking.utility(&reqs, &res), 0.0);
    }

    #[test]
    fn kinds_by_name() {
        for k in UtilityKind::ALL {
            assert_eq!(k.name().parse::<UtilityKind>(), Ok(k));
            assert_eq!(
                k.to_string().parse::<UtilityKind>(),
                Ok(k),
                "Display round trip"
            );
            assert_eq!(UtilityKind::try_from(k.to_string()), Ok(k));
            assert_eq!(<&str>::from(k), k.name());
        }
        let names: Vec<String> = UtilityKind::ALL.iter().map(|k| k.to_string()).collect();
        assert_eq!(names, ["pu", "bu", "mm"]);
        assert_eq!(
            "matchmaking".parse::<UtilityKind>(),
            Ok(UtilityKind::Matchmaking)
        );
        assert_eq!(
            "xx".parse::<UtilityKind>().unwrap_err(),
            "unknown scheduler 'xx', expected pu, bu or mm"
        );
        let reqs = os_and_arch();
        let res = machine("Linux", 64);
        assert_eq!(
            UtilityKind::Partial.utility(&reqs, &res),
            PartialUtility.utility(&reqs, &res)
        );
        assert_eq!(
            UtilityKind::Binary.utility(&reqs, &res),
            BinaryUtility.utility(&reqs, &res)
        );
    }

    #[test]
    fn a_job_that_asks_for_nothing_fits_anywhere() {
        assert_eq!(all(&[], &Resource::new()), [1.0, 1.0, 1.0]);
    }

    /// Over many generated jobs and resources: every utility lies in [0, 1]
    /// and partial >= binary >= matchmaking. (A fixed-seed generator keeps
    /// the crate free of dependencies beyond `profile`.)
    #[test]
    fn bounded_and_ordered_on_generated_cases() {
        let mut state = 0x9E37_79B9_7F4A_7C15u64;
        let mut next = move |n: u64| {
            // xorshift64*
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) % n
        };
        let oses = ["Linux", "MacOS", "Solaris", "Windows"];
        let attrs = [
            Attribute::Os,
            Attribute::Arch,
            Attribute::ExecTime,
            Attribute::Speed,
        ];
        for case in 0..5000 {
            let mut reqs = Vec::new();
            for attr in attrs.iter().take(1 + next(4) as usize) {
                let options = (0..1 + next(4))
                    .map(|_| {
                        let want = match attr {
                            Attribute::Os => Want::Is(oses[next(4) as usize].into()),
                            Attribute::Arch => Want::Is(Value::Int([32, 64][next(2) as usize])),
                            Attribute::ExecTime => Want::AtMost(600 * (1 + next(4) as i64)),
                            _ => Want::AtLeast(1000 * (1 + next(4) as i64)),
                        };
                        // The paper's draw: one of four intervals, then a value in it.
                        (want, (next(4) as f64 + next(1001) as f64 / 1000.0) / 4.0)
                    })
                    .collect();
                let weight = next(5) as f64 / 4.0;
                reqs.push(Requirement::new(attr.clone(), weight, options).unwrap());
            }
            let res = Resource::new()
                .with(Attribute::Os, oses[next(4) as usize])
                .with(Attribute::Arch, [32i64, 64][next(2) as usize])
                .with(Attribute::ExecTime, 600 * (1 + next(4) as i64))
                .with(Attribute::Speed, 1000 * (1 + next(4) as i64));
            let [pu, bu, mm] = all(&reqs, &res);
            assert!((0.0..=1.0).contains(&pu), "case {case}: {pu}");
            assert!(
                pu >= bu && bu >= mm && mm >= 0.0,
                "case {case}: pu {pu} bu {bu} mm {mm}"
            );
        }
    }
}

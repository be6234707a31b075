//! A float a user gave is echoed in a message as `profile::ShortFloat`
//! writes it: `-5e-324`, not 325 digits; `1.7976931348623157e308`, not
//! 309. Each error that quotes one, built with the extremes.

/// Floats whose `{}` form is hundreds of characters long.
const EXTREMES: [f64; 4] = [-5e-324, 5e-324, f64::MAX, -1e300];

/// The message is short and shows the value in scientific notation.
fn check(message: String, value: f64) {
    let short = profile::ShortFloat(value).to_string();
    assert!(
        message.len() < 300,
        "{} characters: {message}",
        message.len()
    );
    assert!(message.contains(&short), "{message}\nexpected {short}");
}

#[test]
fn errors_show_floats_short() {
    use utility_match::{GridConfig, Scenario, UtilityKind, simulate};
    let w = Scenario::paper().generate(1).unwrap();
    // The extremes outside [0, 1] (5e-324 is a weight and a utilisation).
    for v in EXTREMES.into_iter().filter(|v| !(0.0..=1.0).contains(v)) {
        let mut s = Scenario::paper();
        s.weights[0] = v;
        match s.generate(1) {
            Err(e) => check(e.to_string(), v),
            Ok(_) => panic!("weight {v} taken"),
        }
        if v < 0.0 {
            let mut s = Scenario::paper();
            s.mean_interarrival = v;
            match s.generate(1) {
                Err(e) => check(e.to_string(), v),
                Ok(_) => panic!("mean_interarrival {v} taken"),
            }
        }
        let mut g = GridConfig::default();
        g.updates.l_max = v;
        match simulate(&g, &UtilityKind::ALL[0], &w.machines, &w.jobs) {
            Err(e) => check(e.to_string(), v),
            Ok(_) => panic!("l_max {v} taken"),
        }
    }
}

//! Errors about weights, mean interarrival times and `l_max` echo the float a user gave as
//! `profile::ShortFloat` writes it (`-5e-324`, not 325 digits).

use profile::testing::{LONG_FLOATS, assert_short_float};

#[test]
fn errors_show_floats_short() {
    use utility_match::{GridConfig, Scenario, UtilityKind, simulate};
    let w = Scenario::paper().generate(1).unwrap();
    // The extremes outside [0, 1] (5e-324 is a weight and a utilisation).
    for v in LONG_FLOATS.into_iter().filter(|v| !(0.0..=1.0).contains(v)) {
        let mut s = Scenario::paper();
        s.weights[0] = v;
        match s.generate(1) {
            Err(e) => assert_short_float(&e.to_string(), v),
            Ok(_) => panic!("weight {v} taken"),
        }
        if v < 0.0 {
            let mut s = Scenario::paper();
            s.mean_interarrival = v;
            match s.generate(1) {
                Err(e) => assert_short_float(&e.to_string(), v),
                Ok(_) => panic!("mean_interarrival {v} taken"),
            }
        }
        let mut g = GridConfig::default();
        g.updates.l_max = v;
        match simulate(&g, &UtilityKind::ALL[0], &w.machines, &w.jobs) {
            Err(e) => assert_short_float(&e.to_string(), v),
            Ok(_) => panic!("l_max {v} taken"),
        }
    }
}

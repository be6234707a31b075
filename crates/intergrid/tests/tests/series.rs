//! Series names: `<provider>+<gateway>`.

use gateway::{GatewayPolicy, Information};
use intergrid::{GatewayKind, IntergridError, Series};
use partitions_forecast::ProviderPolicy;

/// Parses `name` and checks the result, or the error's message.
fn check(name: &str, expected: Result<&str, &str>) {
    match (name.parse::<Series>(), expected) {
        (Ok(s), Ok(shown)) => assert_eq!(s.to_string(), shown, "{name}"),
        (Err(e), Err(message)) => assert_eq!(e.to_string(), message, "{name}"),
        (got, _) => panic!("{name}: got {got:?}, expected {expected:?}"),
    }
}

#[test]
fn names_round_trip_and_bad_names_say_what_is_expected() {
    check("arcb+earliest-ask", Ok("arcb+earliest-ask"));
    check("arebmf+earliest-partial", Ok("arebmf+earliest-partial"));
    check("areb+least-load", Ok("areb+least-load"));
    check("ArCbM+least-load", Ok("arcbm+least-load"));
    check(
        "arcb",
        Err("series 'arcb' must look like '<provider>+<gateway>', e.g. 'arcb+earliest-partial'"),
    );
    check(
        "arcb+nearest",
        Err(
            "unknown gateway policy 'nearest' in 'arcb+nearest', expected least-load, earliest-ask or earliest-partial",
        ),
    );
    check(
        "arxx+least-load",
        Err("unknown provider policy 'arxx', expected one of: arcb, areb, arcbm, arebm, arebmf"),
    );
    check(
        "arcb+Least-Load",
        Err(
            "unknown gateway policy 'Least-Load' in 'arcb+Least-Load', expected least-load, earliest-ask or earliest-partial",
        ),
    );
}

#[test]
fn every_pair_of_policies_is_a_series() {
    for provider in ProviderPolicy::ALL {
        for gateway in GatewayKind::ALL {
            let series = Series { provider, gateway };
            assert_eq!(series.to_string().parse::<Series>(), Ok(series));
        }
    }
}

#[test]
fn the_gateway_half_becomes_the_gateway_policy() {
    assert_eq!(
        GatewayKind::LeastLoad.policy(60),
        GatewayPolicy::LeastLoaded
    );
    assert_eq!(
        GatewayKind::EarliestAsk.policy(60),
        GatewayPolicy::EarliestStart(Information::Ask)
    );
    assert_eq!(
        GatewayKind::EarliestPartial.policy(7200),
        GatewayPolicy::EarliestStart(Information::Partial { interval: 7200 })
    );
}

#[test]
fn a_parse_error_is_a_typed_error() {
    let e = "arcb-least-load".parse::<Series>().unwrap_err();
    assert_eq!(
        e,
        IntergridError::MalformedSeries {
            series: "arcb-least-load".into()
        }
    );
}

#[cfg(feature = "serde")]
#[test]
fn with_serde_a_series_is_a_string() {
    use serde::Deserialize;
    use serde::de::IntoDeserializer;
    use serde::de::value::{Error, StrDeserializer};

    let de: StrDeserializer<'_, Error> = "arebm+earliest-partial".into_deserializer();
    assert_eq!(
        Series::deserialize(de).unwrap().to_string(),
        "arebm+earliest-partial"
    );
    let de: StrDeserializer<'_, Error> = "arebm".into_deserializer();
    let message = Series::deserialize(de).unwrap_err().to_string();
    assert!(message.contains("must look like"), "{message}");
}

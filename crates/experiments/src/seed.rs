//! Seeds: independent streams derived from a configuration's base seed, and
//! how a seed is written into TOML files.

/// Derives an independent seed for the component called `name` from `base`
/// (SplitMix64 over the bytes), so adding a component never shifts another's stream.
pub fn derive_seed(base: u64, name: &str) -> u64 {
    let mut x = base ^ 0x9E37_79B9_7F4A_7C15;
    for b in name.bytes() {
        x = splitmix(x ^ u64::from(b));
    }
    splitmix(x)
}

fn splitmix(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// Serialises an optional seed as a decimal string, so a seed above
/// `i64::MAX` still makes a valid TOML file.
pub(crate) fn seed_as_string<S: serde::Serializer>(
    seed: &Option<u64>,
    serializer: S,
) -> Result<S::Ok, S::Error> {
    match seed {
        Some(s) => serializer.serialize_str(&s.to_string()),
        None => serializer.serialize_none(),
    }
}

/// Reads a seed written by [`seed_as_string`].
pub(crate) fn seed_from_string<'de, D: serde::Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<u64>, D::Error> {
    let text: Option<String> = serde::Deserialize::deserialize(deserializer)?;
    text.map(|t| t.parse().map_err(serde::de::Error::custom))
        .transpose()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn derived_seeds_differ_by_name_and_base() {
        assert_ne!(derive_seed(1, "a"), derive_seed(1, "b"));
        assert_ne!(derive_seed(1, "a"), derive_seed(2, "a"));
        assert_eq!(derive_seed(7, "workload/x"), derive_seed(7, "workload/x"));
    }
}

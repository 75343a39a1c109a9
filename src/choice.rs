//! Options whose value is one of a few names (`--favor balanced`, Python's `favor="balanced"`).
//!
//! Each option type lists its names once, as a [`Choice`]; its `FromStr` and `Display`, the
//! command line's value parsers and Python's keywords all read that list, so a wrong value gets
//! the same message everywhere:
//!
//! ```
//! use cowrex::Favor;
//!
//! assert_eq!("recall".parse::<Favor>().unwrap(), Favor::Recall);
//! assert_eq!(Favor::Precision.to_string(), "precision");
//! let e = "fast".parse::<Favor>().unwrap_err();
//! assert_eq!(
//!     e.to_string(),
//!     "invalid value 'fast' for favor: expected one of precision, balanced, recall"
//! );
//! ```

use crate::Error;

/// One value of a [`Choice`]: its name and what it means.
#[derive(Debug, Clone, Copy)]
pub struct Named<T> {
    /// The name the command line and Python take.
    pub name: &'static str,
    /// What the value does, in a few words (the command line's help lists it).
    pub help: &'static str,
    /// The value.
    pub value: T,
}

/// An option whose value is one of a few names.
pub trait Choice: Copy + PartialEq + 'static {
    /// How messages name the option (Python's keyword).
    const OPTION: &'static str;

    /// Every value, in the order the help lists them.
    fn values() -> &'static [Named<Self>];

    /// Its name (for a set of flags, the names of those set, joined by `,`).
    fn name(self) -> &'static str {
        Self::values()
            .iter()
            .find(|v| v.value == self)
            .map_or("?", |v| v.name)
    }
}

/// The value named `name`, or a usage error that lists the names.
pub fn parse<T: Choice>(name: &str) -> Result<T, Error> {
    T::values()
        .iter()
        .find(|v| v.name == name)
        .map(|v| v.value)
        .ok_or_else(|| {
            let names: Vec<&str> = T::values().iter().map(|v| v.name).collect();
            Error::usage(format!(
                "invalid value '{name}' for {}: expected one of {}",
                T::OPTION,
                names.join(", ")
            ))
        })
}

/// `FromStr` by [`parse`] and `Display` by [`Choice::name`] for a [`Choice`].
macro_rules! text_of_choice {
    ($t:ty) => {
        impl std::str::FromStr for $t {
            type Err = $crate::Error;
            fn from_str(s: &str) -> Result<$t, $crate::Error> {
                $crate::choice::parse(s)
            }
        }

        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str($crate::choice::Choice::name(*self))
            }
        }
    };
}
pub(crate) use text_of_choice;

/// A [`Choice`] of an enum's values, with `FromStr` and `Display`: `choice!(Favor, "favor",
/// [Favor::Precision, "precision", "what it does"; …])`.
macro_rules! choice {
    ($t:ty, $option:literal, [$($value:expr, $name:literal, $help:literal;)+]) => {
        impl $crate::choice::Choice for $t {
            const OPTION: &'static str = $option;
            fn values() -> &'static [$crate::choice::Named<$t>] {
                &[$($crate::choice::Named { name: $name, help: $help, value: $value },)+]
            }
        }
        $crate::choice::text_of_choice!($t);
    };
}
pub(crate) use choice;

/// The union of the values of comma-separated names (`email,uri`); empty names are skipped.
pub(crate) fn parse_set<T: Choice + std::ops::BitOr<Output = T>>(
    empty: T,
    names: &str,
) -> Result<T, Error> {
    names
        .split(',')
        .filter(|n| !n.is_empty())
        .try_fold(empty, |set, name| Ok(set | parse::<T>(name)?))
}

/// The names of the values a set holds, comma-separated, in [`Choice::values`]' order.
pub fn set_names<T: Choice + std::ops::BitOr<Output = T>>(set: T) -> String {
    let names: Vec<&str> = T::values()
        .iter()
        .filter(|v| (set | v.value) == set)
        .map(|v| v.name)
        .collect();
    names.join(",")
}

/// A [`Choice`] for a struct of flags, each name setting one field (`choice_set!(Mask, "mask",
/// [email, "email", "what it does"; …])`), with `NONE`, `|`, `FromStr` of a comma-separated
/// list and `Display` as one.
macro_rules! choice_set {
    ($t:ident, $option:literal, [$($field:ident, $name:literal, $help:literal;)+]) => {
        impl $t {
            /// Nothing set.
            pub const NONE: $t = $t { $($field: false,)+ };
        }

        impl $crate::choice::Choice for $t {
            const OPTION: &'static str = $option;
            fn values() -> &'static [$crate::choice::Named<$t>] {
                &[$($crate::choice::Named {
                    name: $name,
                    help: $help,
                    value: $t { $field: true, ..$t::NONE },
                },)+]
            }
        }

        impl std::ops::BitOr for $t {
            type Output = $t;
            fn bitor(self, other: $t) -> $t {
                $t { $($field: self.$field || other.$field,)+ }
            }
        }

        impl std::str::FromStr for $t {
            type Err = $crate::Error;
            fn from_str(s: &str) -> Result<$t, $crate::Error> {
                $crate::choice::parse_set($t::NONE, s)
            }
        }

        impl std::fmt::Display for $t {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(&$crate::choice::set_names(*self))
            }
        }
    };
}
pub(crate) use choice_set;

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analyze::{DupBlocks, Mask};
    use crate::classify::{Favor, LangChoice, NgramChoice, Scorer, mlp::ErrorFunction};
    use crate::error::ErrorKind;
    use crate::pipeline::{ExactDups, Formats};
    use crate::signals::Preset;

    /// Every name parses to its value and prints as itself; names are unique.
    fn round_trip<
        T: Choice + std::str::FromStr<Err = Error> + std::fmt::Display + std::fmt::Debug,
    >() {
        let values = T::values();
        assert!(!values.is_empty(), "{}", T::OPTION);
        for v in values {
            assert_eq!(v.name.parse::<T>().unwrap(), v.value, "{}", v.name);
            assert_eq!(v.value.to_string(), v.name);
            assert!(!v.help.is_empty(), "{} {}", T::OPTION, v.name);
            assert_eq!(values.iter().filter(|w| w.name == v.name).count(), 1);
        }
        let e = "no-such-value".parse::<T>().unwrap_err();
        assert_eq!(e.kind(), ErrorKind::Usage);
        assert!(
            e.to_string().starts_with(&format!(
                "invalid value 'no-such-value' for {}: expected one of ",
                T::OPTION
            )),
            "{e}"
        );
        assert!(e.to_string().ends_with(values.last().unwrap().name), "{e}");
    }

    #[test]
    fn every_choice_round_trips() {
        round_trip::<Favor>();
        round_trip::<LangChoice>();
        round_trip::<NgramChoice>();
        round_trip::<Scorer>();
        round_trip::<DupBlocks>();
        round_trip::<ExactDups>();
        round_trip::<ErrorFunction>();
        round_trip::<Preset>();
    }

    #[test]
    fn sets_parse_comma_separated_lists() {
        let m: Mask = "email,hashtag".parse().unwrap();
        assert!(m.email && m.hashtag && !m.uri);
        assert_eq!(m.to_string(), "email,hashtag");
        assert_eq!("".parse::<Mask>().unwrap(), Mask::default());
        let e = "email,url".parse::<Mask>().unwrap_err();
        assert_eq!(
            e.to_string(),
            "invalid value 'url' for mask: expected one of email, uri, hashtag"
        );
        let f: Formats = "jsonl,xml".parse().unwrap();
        assert!(f.xml && f.jsonl && !f.vrt && !f.parquet);
        assert_eq!(f.to_string(), "xml,jsonl");
        assert!("xml,docx".parse::<Formats>().is_err());
    }
}

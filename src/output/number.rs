//! Numbers as texrex writes them: `FloatToStrF(x, ffGeneral, 6, …)`.

/// Format a value as texrex's `FloatToStrF(x, ffGeneral, 6, …)`: 6 significant digits, no
/// trailing zeros.
pub fn format_general(x: f64) -> String {
    let mut out = Vec::new();
    write_general(&mut out, x);
    String::from_utf8(out).expect("numbers are ASCII")
}

/// Append [`format_general`]'s text of `x` to `out`.
pub(crate) fn write_general(out: &mut Vec<u8>, x: f64) {
    use std::io::Write;
    if x == 0.0 || !x.is_finite() {
        out.push(b'0');
        return;
    }
    let exp = x.abs().log10().floor() as i32;
    if !(-5..15).contains(&exp) {
        write!(out, "{x:.5E}").expect("writing to a Vec");
        return;
    }
    let decimals = (5 - exp).max(0) as usize;
    if write_rounded(out, x, decimals) {
        return;
    }
    let start = out.len();
    write!(out, "{x:.decimals$}").expect("writing to a Vec");
    if out[start..].contains(&b'.') {
        while out.last() == Some(&b'0') {
            out.pop();
        }
        if out.last() == Some(&b'.') {
            out.pop();
        }
    }
    if out[start..] == *b"-0" {
        out.truncate(start);
        out.push(b'0');
    }
}

/// `x` rounded to `decimals` places, trailing zeros dropped, without the formatter's exact
/// (and slow) decimal expansion: `x·10^decimals` is computed in floating point, which rounds
/// the same as the exact value unless it lies within 1e-6 of a tie. Returns false (writing
/// nothing) when it does, or when the scaled value is too large to be exact.
fn write_rounded(out: &mut Vec<u8>, x: f64, decimals: usize) -> bool {
    const POW10: [f64; 11] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];
    let Some(&scale) = POW10.get(decimals) else {
        return false;
    };
    let y = x.abs() * scale;
    if y >= 1e9 || (y - y.floor() - 0.5).abs() < 1e-6 {
        return false;
    }
    let r = y.round() as u64;
    if r == 0 {
        out.push(b'0');
        return true;
    }
    if x < 0.0 {
        out.push(b'-');
    }
    let unit = 10u64.pow(decimals as u32);
    let (int, mut frac) = (r / unit, r % unit);
    out.extend_from_slice(itoa::Buffer::new().format(int).as_bytes());
    if frac > 0 {
        let mut places = decimals;
        while frac % 10 == 0 {
            frac /= 10;
            places -= 1;
        }
        let mut buf = itoa::Buffer::new();
        let digits = buf.format(frac).as_bytes();
        out.push(b'.');
        out.resize(out.len() + places - digits.len(), b'0');
        out.extend_from_slice(digits);
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn general_format() {
        assert_eq!(format_general(0.8746214), "0.874621");
        assert_eq!(format_general(1.0), "1");
        assert_eq!(format_general(-1.0), "-1");
        assert_eq!(format_general(35.0), "35");
        assert_eq!(format_general(0.0), "0");
    }

    #[test]
    fn fast_rounding_equals_exact_formatting() {
        let exact = |x: f64| {
            let exp = x.abs().log10().floor() as i32;
            if !(-5..15).contains(&exp) {
                return format!("{x:.5E}");
            }
            let decimals = (5 - exp).max(0) as usize;
            let s = format!("{x:.decimals$}");
            let s = if s.contains('.') {
                s.trim_end_matches('0').trim_end_matches('.').to_string()
            } else {
                s
            };
            if s == "-0" { "0".to_string() } else { s }
        };
        let mut seed = 0x9e3779b97f4a7c15u64;
        let mut fast = 0;
        for i in 0..200_000 {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            let unit = (seed >> 11) as f64 / (1u64 << 53) as f64;
            // Magnitudes 1e-5..1e15, both signs, and values on or near ties and round numbers.
            let mut x = unit * 10f64.powi((i % 20) - 5);
            if i % 3 == 0 {
                x = (x * 1e4).round() / 1e4 + [0.0, 5e-7, -5e-7][i as usize % 3];
            }
            if i % 2 == 1 {
                x = -x;
            }
            if x == 0.0 {
                continue;
            }
            let mut out = Vec::new();
            let exp = x.abs().log10().floor() as i32;
            if (-5..15).contains(&exp) && write_rounded(&mut out, x, (5 - exp).max(0) as usize) {
                fast += 1;
                assert_eq!(String::from_utf8(out).unwrap(), exact(x), "{x:e}");
            }
            assert_eq!(format_general(x), exact(x), "{x:e}");
        }
        assert!(fast > 100_000, "fast path taken {fast} times");
        for (x, s) in [
            (0.5, "0.5"),
            (2.5e-5, "0.000025"),
            (-1.5e-5, "-0.000015"),
            (1234567.5, "1234568"),
        ] {
            assert_eq!(format_general(x), s);
        }
    }
}

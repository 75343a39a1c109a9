//! Block scorers. Each fills one score per block (0 = content, 1 = boilerplate).

pub mod mlp;

use mlp::Mlp;

/// The default English texrex MLP, trained by `cowrex train mlp` (see `models/MODELS.md`).
pub const DEFAULT_MLP: &str = include_str!("../../models/texrex-en.mlp");

/// Load the built-in English model.
pub fn default_mlp() -> Mlp {
    Mlp::parse(DEFAULT_MLP).expect("built-in model is valid (checked by tests)")
}

#[cfg(test)]
mod tests {
    #[test]
    fn builtin_model_loads() {
        let m = super::default_mlp();
        assert_eq!((m.inputs, m.hidden), (37, 18));
    }
}

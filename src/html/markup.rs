//! The words of `class` and `id` values: split where case changes, as the tokens the markup
//! model knows blocks by ([`markup_token`], [`RawBlock::markup`](super::RawBlock::markup)),
//! as the vocabulary of a page ([`markup_words`]), and, for `class`, as the key that repeated
//! elements of one kind share ([`class_key`]).

use memchr::memchr;

use super::scan::{attributes, find_tag_end};

/// The words of a `class` or `id` value as [`markup_token`]s, appended to `out`.
pub(super) fn markup_tokens(v: &[u8], out: &mut Vec<u32>) {
    split_markup(v, |word| out.push(markup_token(word)));
}

/// The words of a `class` or `id` value: runs of ASCII letters, split where a lower-case letter
/// meets an upper-case one (`postBody` is post and body), of 2 to 24 letters.
pub(super) fn split_markup(v: &[u8], mut each: impl FnMut(&[u8])) {
    let mut start = None;
    let mut push = |word: &[u8]| {
        if (2..=24).contains(&word.len()) {
            each(word);
        }
    };
    for (i, &b) in v.iter().enumerate() {
        let letter = b.is_ascii_alphabetic();
        let camel = letter && b.is_ascii_uppercase() && i > 0 && v[i - 1].is_ascii_lowercase();
        match start {
            Some(s) if !letter || camel => {
                push(&v[s..i]);
                start = letter.then_some(i);
            }
            None if letter => start = Some(i),
            _ => {}
        }
    }
    if let Some(s) = start {
        push(&v[s..]);
    }
}

/// The distinct words of every `class` and `id` value of a page, lower-cased (the words
/// behind the [`markup_token`]s of its blocks).
pub fn markup_words(page: &[u8]) -> Vec<Vec<u8>> {
    let mut words = std::collections::BTreeSet::new();
    let mut pos = 0;
    while let Some(lt) = memchr(b'<', &page[pos..]).map(|o| pos + o) {
        let mut i = lt + 1;
        while i < page.len() && page[i].is_ascii_alphanumeric() {
            i += 1;
        }
        if i == lt + 1 {
            pos = lt + 1;
            continue;
        }
        let (gt, _) = find_tag_end(page, i);
        let Some(gt) = gt else { break };
        for (k, v) in attributes(&page[i..gt]) {
            if k.eq_ignore_ascii_case(b"class") || k.eq_ignore_ascii_case(b"id") {
                split_markup(v, |w| {
                    words.insert(w.to_ascii_lowercase());
                });
            }
        }
        pos = gt + 1;
    }
    words.into_iter().collect()
}

/// The token of a word of markup (its lower-case letters hashed): what the markup model
/// ([`crate::classify::markup`]) knows words of `class` and `id` values by.
pub fn markup_token(word: &[u8]) -> u32 {
    let mut lower = [0u8; 64];
    if word.len() <= lower.len() {
        let lower = &mut lower[..word.len()];
        lower.copy_from_slice(word);
        lower.make_ascii_lowercase();
        xxhash_rust::xxh3::xxh3_64(lower) as u32
    } else {
        xxhash_rust::xxh3::xxh3_64(&word.to_ascii_lowercase()) as u32
    }
}

/// The most markup tokens kept per block (the innermost elements' first).
pub(super) const MAX_BLOCK_TOKENS: usize = 64;

/// A hash of a `class` value without its digits, so that repeated elements of one kind
/// (`item-1`, `item-2`) share it.
pub(super) fn class_key(v: &[u8]) -> u64 {
    if !v.iter().any(u8::is_ascii_digit) {
        return xxhash_rust::xxh3::xxh3_64(v);
    }
    // Without its digits, in a buffer on the stack: most values are short.
    let mut buf = [0u8; 256];
    if v.len() > buf.len() {
        let rest: Vec<u8> = v.iter().copied().filter(|b| !b.is_ascii_digit()).collect();
        return xxhash_rust::xxh3::xxh3_64(&rest);
    }
    let mut n = 0;
    for &b in v {
        buf[n] = b;
        n += usize::from(!b.is_ascii_digit());
    }
    xxhash_rust::xxh3::xxh3_64(&buf[..n])
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::html::segmenter::tests::blocks;

    #[test]
    fn markup_words_and_tokens() {
        let b = blocks(
            r#"<body><div id="mainContent" class="post-body x1 a"><ul class="related-posts"><li>Item</ul>
            <p>Text</p></div><p>Outside</p></body>"#,
        );
        let t = |w: &str| markup_token(w.as_bytes());
        let mut want: Vec<u32> = ["main", "content", "post", "body", "related", "posts"]
            .iter()
            .map(|w| t(w))
            .collect();
        want.sort_unstable();
        assert_eq!(b[0].markup, want);
        let mut want: Vec<u32> = ["main", "content", "post", "body"]
            .iter()
            .map(|w| t(w))
            .collect();
        want.sort_unstable();
        assert_eq!(b[1].markup, want);
        assert!(b[2].markup.is_empty());
        assert_eq!(t("Main"), t("main"));
        let words = markup_words(
            br#"<div id="mainContent" class="post-body x1 a"><a class=Related>x</a><!-- class="no" -->"#,
        );
        let words: Vec<&[u8]> = words.iter().map(|w| w.as_slice()).collect();
        assert_eq!(
            words,
            [&b"body"[..], b"content", b"main", b"post", b"related"]
        );
    }

    #[test]
    fn class_keys_leave_out_digits_at_any_length() {
        let h = xxhash_rust::xxh3::xxh3_64;
        assert_eq!(class_key(b"item-12 x3"), h(b"item- x"));
        assert_eq!(class_key(b"item"), h(b"item"));
        assert_eq!(class_key(b"item-1"), class_key(b"item-2"));
        // Longer than the buffer on the stack.
        let long: Vec<u8> = b"col-7 ".iter().copied().cycle().take(600).collect();
        let letters: Vec<u8> = b"col- ".iter().copied().cycle().take(500).collect();
        assert_eq!(class_key(&long), h(&letters));
        assert_eq!(class_key(&long[..256]), h(&letters[..256 - 256 / 6]));
    }
}

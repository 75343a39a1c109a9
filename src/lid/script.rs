//! The script of a text (ISO 15924), decided from its letters: the script of most letters,
//! with Han told apart as `Jpan` (with kana), `Hans` or `Hant` (from characters that only one
//! of the two writes), or `Hani`, and Hangul as `Hang`.
//!
//! Counting is incremental ([`ScriptCounts::add`]), so a document's counts are its blocks'
//! counts added up ([`ScriptCounts::merge`]).

/// The scripts told apart, each variant named by its ISO 15924 code.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(u8)]
#[allow(missing_docs)] // a variant's name is its code
pub enum Script {
    Latn,
    Cyrl,
    Grek,
    Armn,
    Hebr,
    Arab,
    Syrc,
    Thaa,
    Nkoo,
    Deva,
    Beng,
    Guru,
    Gujr,
    Orya,
    Taml,
    Telu,
    Knda,
    Mlym,
    Sinh,
    Thai,
    Laoo,
    Tibt,
    Mymr,
    Geor,
    Hang,
    Ethi,
    Cher,
    Cans,
    Ogam,
    Runr,
    Khmr,
    Mong,
    Hira,
    Kana,
    Bopo,
    Hani,
    Yiii,
    Tfng,
    Olck,
    Vaii,
    Java,
    Bali,
    Copt,
    Glag,
    Goth,
    /// Letters of any other script.
    Zyyy,
}

const COUNT: usize = Script::Zyyy as usize + 1;

impl Script {
    /// The ISO 15924 code.
    pub fn code(self) -> &'static str {
        use Script::*;
        match self {
            Latn => "Latn",
            Cyrl => "Cyrl",
            Grek => "Grek",
            Armn => "Armn",
            Hebr => "Hebr",
            Arab => "Arab",
            Syrc => "Syrc",
            Thaa => "Thaa",
            Nkoo => "Nkoo",
            Deva => "Deva",
            Beng => "Beng",
            Guru => "Guru",
            Gujr => "Gujr",
            Orya => "Orya",
            Taml => "Taml",
            Telu => "Telu",
            Knda => "Knda",
            Mlym => "Mlym",
            Sinh => "Sinh",
            Thai => "Thai",
            Laoo => "Laoo",
            Tibt => "Tibt",
            Mymr => "Mymr",
            Geor => "Geor",
            Hang => "Hang",
            Ethi => "Ethi",
            Cher => "Cher",
            Cans => "Cans",
            Ogam => "Ogam",
            Runr => "Runr",
            Khmr => "Khmr",
            Mong => "Mong",
            Hira => "Hira",
            Kana => "Kana",
            Bopo => "Bopo",
            Hani => "Hani",
            Yiii => "Yiii",
            Tfng => "Tfng",
            Olck => "Olck",
            Vaii => "Vaii",
            Java => "Java",
            Bali => "Bali",
            Copt => "Copt",
            Glag => "Glag",
            Goth => "Goth",
            Zyyy => "Zyyy",
        }
    }

    /// Every script, in order.
    pub const ALL: [Script; COUNT] = {
        use Script::*;
        [
            Latn, Cyrl, Grek, Armn, Hebr, Arab, Syrc, Thaa, Nkoo, Deva, Beng, Guru, Gujr, Orya,
            Taml, Telu, Knda, Mlym, Sinh, Thai, Laoo, Tibt, Mymr, Geor, Hang, Ethi, Cher, Cans,
            Ogam, Runr, Khmr, Mong, Hira, Kana, Bopo, Hani, Yiii, Tfng, Olck, Vaii, Java, Bali,
            Copt, Glag, Goth, Zyyy,
        ]
    };
}

/// The script of a letter (`None` for anything that is not a letter: digits, punctuation,
/// symbols, marks; combining marks belong to no script here).
pub(crate) fn script_of(c: char) -> Option<Script> {
    use Script::*;
    let u = c as u32;
    if u < 0x80 {
        return c.is_ascii_alphabetic().then_some(Latn);
    }
    if !c.is_alphabetic() {
        return None;
    }
    Some(match u {
        0x00C0..=0x024F
        | 0x1E00..=0x1EFF
        | 0x2C60..=0x2C7F
        | 0xA720..=0xA7FF
        | 0xAB30..=0xAB6F
        | 0xFB00..=0xFB06
        | 0xFF21..=0xFF3A
        | 0xFF41..=0xFF5A
        | 0x0250..=0x02AF
        | 0x1D00..=0x1DBF => Latn,
        0x00AA | 0x00BA => Latn,
        0x0370..=0x03FF | 0x1F00..=0x1FFF => Grek,
        0x0400..=0x052F | 0x1C80..=0x1C8F | 0x2DE0..=0x2DFF | 0xA640..=0xA69F => Cyrl,
        0x0530..=0x058F | 0xFB13..=0xFB17 => Armn,
        0x0590..=0x05FF | 0xFB1D..=0xFB4F => Hebr,
        0x0600..=0x06FF | 0x0750..=0x077F | 0x0870..=0x08FF | 0xFB50..=0xFDFF | 0xFE70..=0xFEFF => {
            Arab
        }
        0x0700..=0x074F => Syrc,
        0x0780..=0x07BF => Thaa,
        0x07C0..=0x07FF => Nkoo,
        0x0900..=0x097F | 0xA8E0..=0xA8FF => Deva,
        0x0980..=0x09FF => Beng,
        0x0A00..=0x0A7F => Guru,
        0x0A80..=0x0AFF => Gujr,
        0x0B00..=0x0B7F => Orya,
        0x0B80..=0x0BFF => Taml,
        0x0C00..=0x0C7F => Telu,
        0x0C80..=0x0CFF => Knda,
        0x0D00..=0x0D7F => Mlym,
        0x0D80..=0x0DFF => Sinh,
        0x0E00..=0x0E7F => Thai,
        0x0E80..=0x0EFF => Laoo,
        0x0F00..=0x0FFF => Tibt,
        0x1000..=0x109F | 0xA9E0..=0xA9FF | 0xAA60..=0xAA7F => Mymr,
        0x10A0..=0x10FF | 0x1C90..=0x1CBF | 0x2D00..=0x2D2F => Geor,
        0x1100..=0x11FF | 0x3130..=0x318F | 0xA960..=0xA97F | 0xAC00..=0xD7FF | 0xFFA0..=0xFFDC => {
            Hang
        }
        0x1200..=0x139F | 0x2D80..=0x2DDF | 0xAB00..=0xAB2F => Ethi,
        0x13A0..=0x13FF | 0xAB70..=0xABBF => Cher,
        0x1400..=0x167F | 0x18B0..=0x18FF => Cans,
        0x1680..=0x169F => Ogam,
        0x16A0..=0x16FF => Runr,
        0x1780..=0x17FF | 0x19E0..=0x19FF => Khmr,
        0x1800..=0x18AF => Mong,
        0x3041..=0x309F => Hira,
        0x30A0..=0x30FF | 0x31F0..=0x31FF | 0xFF66..=0xFF9F => Kana,
        0x3100..=0x312F | 0x31A0..=0x31BF => Bopo,
        0x2E80..=0x2FDF
        | 0x3005..=0x3007
        | 0x3021..=0x3029
        | 0x3038..=0x303B
        | 0x3400..=0x4DBF
        | 0x4E00..=0x9FFF
        | 0xF900..=0xFAFF
        | 0x20000..=0x323AF => Hani,
        0xA000..=0xA4CF => Yiii,
        0x2D30..=0x2D7F => Tfng,
        0x1C50..=0x1C7F => Olck,
        0xA500..=0xA63F => Vaii,
        0xA980..=0xA9DF => Java,
        0x1B00..=0x1B7F => Bali,
        0x2C80..=0x2CFF => Copt,
        0x2C00..=0x2C5F => Glag,
        0x10330..=0x1034F => Goth,
        _ => Zyyy,
    })
}

/// Common characters written only in simplified Chinese.
const SIMPLIFIED_ONLY: &str = "们这来个时说国会为对学过发经实问样现还进动长开关间见东门车马鸟鱼书语话认让请谁给从电头买卖爱气应该种两与业义点体变华历区设计记议论产资总级线报场传带边达运连选万无乐专务员团园图听网号数读转统结题务约纪类际项将处觉难观钱办饭欢岁烟写习飞机广厂亲热脑亚声医药术标条权质济财网页讯则费们块红";
/// Common characters written only in traditional Chinese.
const TRADITIONAL_ONLY: &str = "們這來個時說國會為對學過發經實問樣現還進動長開關間見東門車馬鳥魚書語話認讓請誰給從電頭買賣愛氣應該種兩與業義點體變華歷區設計記議論產資總級線報場傳帶邊達運連選萬無樂專務員團園圖聽網號數讀轉統結題約紀類際項將處覺難觀錢辦飯歡歲煙寫習飛機廣廠親熱腦亞聲醫藥術標條權質濟財頁訊則費塊紅";

/// Letters counted per script, and Han characters only one Chinese standard writes.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptCounts {
    counts: [u32; COUNT],
    /// The scripts with letters, as a [`script_mask`].
    present: u64,
    simplified: u32,
    traditional: u32,
}

impl Default for ScriptCounts {
    fn default() -> Self {
        ScriptCounts {
            counts: [0; COUNT],
            present: 0,
            simplified: 0,
            traditional: 0,
        }
    }
}

impl ScriptCounts {
    /// Count the letters of `text`: its runs of ASCII by the byte, the other characters one
    /// by one.
    pub fn add(&mut self, text: &str) {
        let b = text.as_bytes();
        let mut latin = 0;
        let mut i = 0;
        while i < b.len() {
            let run = b[i..]
                .iter()
                .position(|&x| x >= 0x80)
                .unwrap_or(b.len() - i);
            latin += b[i..i + run]
                .iter()
                .filter(|c| c.is_ascii_alphabetic())
                .count();
            i += run;
            if let Some(c) = text[i..].chars().next() {
                self.add_char(c);
                i += c.len_utf8();
            }
        }
        self.counts[Script::Latn as usize] += latin as u32;
        if latin > 0 {
            self.present |= 1 << Script::Latn as usize;
        }
    }

    /// Count one character.
    fn add_char(&mut self, c: char) {
        if let Some(s) = script_of(c) {
            self.counts[s as usize] += 1;
            self.present |= 1 << s as usize;
            if s == Script::Hani {
                if SIMPLIFIED_ONLY.contains(c) {
                    self.simplified += 1;
                } else if TRADITIONAL_ONLY.contains(c) {
                    self.traditional += 1;
                }
            }
        }
    }

    /// Add another text's counts.
    pub fn merge(&mut self, other: &ScriptCounts) {
        for (a, b) in self.counts.iter_mut().zip(other.counts) {
            *a += b;
        }
        self.present |= other.present;
        self.simplified += other.simplified;
        self.traditional += other.traditional;
    }

    /// The scripts with letters, as a [`script_mask`].
    pub fn mask(&self) -> u64 {
        self.present
    }

    /// How many letters were counted.
    pub fn letters(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// Letters of `script`.
    pub fn count(&self, script: Script) -> u32 {
        self.counts[script as usize]
    }

    /// The script of most letters, as a coarse [`Script`] (kana and Han together count as
    /// Han; `None` without letters).
    pub(crate) fn main_script(&self) -> Option<Script> {
        let mut counts = self.counts;
        let han = counts[Script::Hani as usize]
            + counts[Script::Hira as usize]
            + counts[Script::Kana as usize]
            + counts[Script::Bopo as usize];
        counts[Script::Hira as usize] = 0;
        counts[Script::Kana as usize] = 0;
        counts[Script::Bopo as usize] = 0;
        counts[Script::Hani as usize] = han;
        let (i, &n) = counts
            .iter()
            .enumerate()
            .max_by_key(|&(i, &n)| (n, std::cmp::Reverse(i)))?;
        (n > 0).then(|| Script::ALL[i])
    }

    /// The ISO 15924 code of the text's script: that of most letters, where Han (with kana
    /// and bopomofo) is `Jpan` if a tenth of it is kana, else `Hans` or `Hant` if characters
    /// only one standard writes say so, else `Hani`. `None` without letters.
    pub fn code(&self) -> Option<&'static str> {
        let main = self.main_script()?;
        if main != Script::Hani {
            return Some(main.code());
        }
        let kana = self.count(Script::Hira) + self.count(Script::Kana);
        let han = self.count(Script::Hani) + kana + self.count(Script::Bopo);
        Some(if kana * 10 >= han {
            "Jpan"
        } else if self.simplified > self.traditional {
            "Hans"
        } else if self.traditional > self.simplified {
            "Hant"
        } else {
            "Hani"
        })
    }
}

impl ScriptCounts {
    /// The share of the letters that a language written in `scripts` (space-separated ISO
    /// 15924 codes, as in [`super::labels::LID176`]) can be written with (Han and kana count
    /// for `Jpan`/`Hani`/`Hans`/`Hant`, Hangul and Han for `Kore`). 1 without letters.
    pub fn share(&self, scripts: &str) -> f32 {
        self.share_of_mask(script_mask(scripts))
    }

    /// [`ScriptCounts::share`] for a mask made by [`script_mask`].
    pub(crate) fn share_of_mask(&self, mask: u64) -> f32 {
        let present = self.mask();
        if present & !mask == 0 {
            return 1.0; // all letters (or none) in the mask's scripts
        }
        if present & mask == 0 {
            return 0.0;
        }
        let total = self.letters();
        let n: u32 = (0..COUNT)
            .filter(|&i| mask & (1 << i) != 0)
            .map(|i| self.counts[i])
            .sum();
        n as f32 / total as f32
    }
}

/// The scripts a language written in `scripts` (space-separated ISO 15924 codes) uses, as a
/// bit set over [`Script`]: `Jpan`/`Hani`/`Hans`/`Hant` are Han, kana and bopomofo; `Kore` is
/// Hangul and Han.
pub fn script_mask(scripts: &str) -> u64 {
    let mut mask = 0u64;
    for s in scripts.split(' ') {
        let members: &[Script] = match s {
            "Jpan" | "Hani" | "Hans" | "Hant" => {
                &[Script::Hani, Script::Hira, Script::Kana, Script::Bopo]
            }
            "Kore" => &[Script::Hang, Script::Hani],
            _ => match Script::ALL.iter().find(|x| x.code() == s) {
                Some(x) => std::slice::from_ref(x),
                None => &[],
            },
        };
        for &m in members {
            mask |= 1 << (m as u32);
        }
    }
    mask
}

/// The ISO 15924 code of `text`'s script (see [`ScriptCounts::code`]).
pub fn script_code(text: &str) -> Option<&'static str> {
    let mut c = ScriptCounts::default();
    c.add(text);
    c.code()
}

/// Whether a language written in `scripts` (space-separated ISO 15924 codes, as in
/// [`super::labels::LID176`]) can be written in the text's main script `main`.
pub fn written_in(scripts: &str, main: Script) -> bool {
    scripts.split(' ').any(|s| match s {
        "Jpan" | "Hani" | "Hans" | "Hant" => main == Script::Hani,
        "Kore" => main == Script::Hang || main == Script::Hani,
        _ => s == main.code(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scripts_of_texts() {
        assert_eq!(script_code("Hello, world! 123"), Some("Latn"));
        assert_eq!(script_code("Привет, мир"), Some("Cyrl"));
        assert_eq!(script_code("Γειά σου"), Some("Grek"));
        assert_eq!(script_code("مرحبا بالعالم"), Some("Arab"));
        assert_eq!(script_code("नमस्ते दुनिया"), Some("Deva"));
        assert_eq!(script_code("こんにちは世界"), Some("Jpan"));
        assert_eq!(script_code("我们这个国家"), Some("Hans"));
        assert_eq!(script_code("我們這個國家"), Some("Hant"));
        assert_eq!(script_code("中文"), Some("Hani"));
        assert_eq!(script_code("안녕하세요"), Some("Hang"));
        assert_eq!(script_code("ሰላም"), Some("Ethi"));
        assert_eq!(script_code("123 !?"), None);
        // Most letters decide.
        assert_eq!(
            script_code("Москва (Moscow) — столица России"),
            Some("Cyrl")
        );
    }

    /// Counting ASCII by the byte counts what counting every character does.
    #[test]
    fn ascii_runs_count_as_characters_do() {
        for text in [
            "",
            "plain ascii, 123",
            "it’s a “quote” – and more",
            "Москва (Moscow) — столица",
            "我们 and 我們 and ª º",
            "ends in é",
            "é starts",
            "ǅ ﬁ Ａ ａ 1̈",
        ] {
            let mut by_char = ScriptCounts::default();
            for c in text.chars() {
                by_char.add_char(c);
            }
            let mut counts = ScriptCounts::default();
            counts.add(text);
            assert_eq!(counts, by_char, "{text}");
        }
    }

    #[test]
    fn counts_merge() {
        let (mut a, mut b) = (ScriptCounts::default(), ScriptCounts::default());
        a.add("abc");
        b.add("где это");
        assert_eq!(a.code(), Some("Latn"));
        a.merge(&b);
        assert_eq!(a.letters(), 9);
        assert_eq!(a.code(), Some("Cyrl"));
    }

    #[test]
    fn label_scripts() {
        assert!(written_in("Latn Cyrl", Script::Cyrl));
        assert!(!written_in("Knda", Script::Latn));
        assert!(written_in("Jpan Hani", Script::Hani));
        let mut c = ScriptCounts::default();
        c.add("abc где");
        assert_eq!(c.share("Latn"), 0.5);
        assert_eq!(c.share("Cyrl Latn"), 1.0);
        assert_eq!(c.share("Knda"), 0.0);
        c = ScriptCounts::default();
        c.add("日本語のテキスト");
        assert_eq!(c.share("Jpan Hani"), 1.0);
        assert_eq!(c.share("Hang Kore"), 0.375);
    }
}

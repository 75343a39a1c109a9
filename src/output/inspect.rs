//! The page inspector: one self-contained HTML file that shows a document's metadata and every
//! block in page order, with its kind, its `bpv` as a colour band, whether it is kept, and
//! every detector's view of it; with a gold text, what was kept that is not in it (noise) and
//! what of it was dropped (missed), with the page's bag-of-words precision, recall and F1.
//! Its two controls (hide dropped blocks, the decision shown) are kept in the URL's fragment
//! (`#hide&decision=justext`), so a view can be bookmarked or opened as it was.
//!
//! The file needs no network. Everything from the page (text, URLs, metadata) is escaped, no
//! link or attribute takes a value from it but as text, and a Content-Security-Policy allows
//! only the file's own style sheet and script (by their hashes).

use sha2::{Digest, Sha256};

use crate::classify::combined;
use crate::classify::detector::Decision;
use crate::classify::markup;
use crate::classify::registry;
use crate::document::{Block, Document};
use crate::eval::{Overlap, labels};
use crate::output::xml::bpc;

/// At most this many blocks are drawn (a page has at most `--max-blocks`, 20,000 by
/// default); the page says when some are left out.
pub(crate) const MAX_BLOCKS: usize = 20_000;

/// Whether a detector's decision ([`registry::decisions`]) keeps a block of `doc`: the
/// document's own decision as the document says ([`Document::is_content`]), the others when
/// their `bpv` is at most 0.5 (a detector that did not run keeps nothing: the combined model
/// runs only when it decides).
pub fn keeps(decision: &Decision, doc: &Document, b: &Block) -> bool {
    if decision.name == doc.scorer {
        doc.is_content(b)
    } else {
        (decision.bpv)(b) <= 0.5
    }
}

const STYLE: &str = "\
body{font:15px/1.45 system-ui,sans-serif;margin:0;color:#222;background:#fafafa}\
header,nav{padding:.6em 1em;background:#fff;border-bottom:1px solid #ddd}\
nav{position:sticky;top:0;z-index:1}h1{font-size:1.1em;margin:.2em 0;word-break:break-all}\
dl.meta{display:flex;flex-wrap:wrap;gap:.1em 1.4em;margin:.2em 0}dl.meta div{display:flex;gap:.4em}\
dt{color:#666}dd{margin:0}\
ol{list-style:none;margin:0;padding:.5em 1em}\
li.block{display:flex;gap:.5em;margin:.15em 0;padding:.15em .4em;background:#fff;border-radius:3px}\
.band{flex:0 0 .45em;border-radius:2px}.body{flex:1;min-width:0}\
.text{white-space:pre-wrap;overflow-wrap:anywhere}.tags{font-size:.78em;color:#666}\
details{display:inline}details[open]{display:block}summary{cursor:pointer;display:inline}\
li.dropped .text{color:#999}li.dropped{background:#f1f1f1}\
body.hide-dropped li.dropped{display:none}\
li.noise{outline:2px solid #e8a000}li.missed{outline:2px dashed #c00}\
li.comment{box-shadow:inset 3px 0 #7b3294}.tag.comment{background:#e7d4e8;color:#40004b}\
.tag{display:inline-block;padding:0 .3em;margin-right:.3em;border-radius:2px;background:#eee}\
details table td{padding:0 .8em 0 0;font-size:.85em}\
.a{background:#1a9850}.b{background:#46b15a}.c{background:#74c364}.d{background:#a2d76a}\
.e{background:#d0ec7e}.f{background:#f7e58a}.g{background:#fcc46b}.h{background:#f99a55}\
.i{background:#ef6c42}.j{background:#de3f2e}.k{background:#c0192a}\
.legend span{display:inline-block;width:1.4em;height:.8em}";

const SCRIPT: &str = "\
const body=document.body,blocks=document.querySelectorAll('li.block');\
function show(){const s=document.getElementById('scorer').value;let kept=0;\
for(const li of blocks){const k=li.dataset.keep.split(' ').includes(s);\
li.classList.toggle('kept',k);li.classList.toggle('dropped',!k);if(k)kept++;}\
document.getElementById('kept').textContent=kept;}\
const scorer=document.getElementById('scorer'),hide=document.getElementById('hide');\
function keep(){try{history.replaceState(null,'','#'+(hide.checked?'hide&':'')+'decision='+scorer.value);}catch(e){}}\
scorer.addEventListener('change',()=>{show();keep();});\
hide.addEventListener('change',()=>{body.classList.toggle('hide-dropped',hide.checked);keep();});\
const q=new URLSearchParams(location.hash.slice(1)),d=q.get('decision');\
if(q.has('hide')){hide.checked=true;body.classList.add('hide-dropped');}\
if(d&&[...scorer.options].some(o=>o.value==d)){scorer.value=d;show();}\
function fill(d){if(!d.dataset||!d.dataset.s||d.querySelector('table'))return;\
const t=document.createElement('table');for(const kv of d.dataset.s.split('|')){const i=kv.indexOf('='),r=t.insertRow();\
r.insertCell().textContent=kv.slice(0,i);r.insertCell().textContent=kv.slice(i+1);}d.appendChild(t);}\
document.addEventListener('toggle',e=>fill(e.target),true);\
for(const d of document.querySelectorAll('details[open]'))fill(d);\
body.dataset.ready='1';";

/// `sha256-…` of a style sheet or script, for the Content-Security-Policy.
pub fn csp_hash(code: &str) -> String {
    format!("'sha256-{}'", base64(&Sha256::digest(code.as_bytes())))
}

/// Standard base64 with padding.
fn base64(bytes: &[u8]) -> String {
    const ABC: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | (b as u32) << (16 - 8 * i));
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ABC[(n >> (18 - 6 * i) & 63) as usize] as char);
            } else {
                out.push('=');
            }
        }
    }
    out
}

/// Append `s` escaped for HTML text and attribute values.
pub fn esc(out: &mut String, s: &str) {
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
}

/// How many features the inspector names for each block's combined-model score.
const WHY: usize = 5;

/// The inspector's HTML of a document; `gold` is the page's gold text, when there is one;
/// with the combined `model` that scored it, each block also shows the features that moved
/// that model's score most ([`combined::Model::explain`]).
pub fn page(doc: &Document, gold: Option<&str>, model: Option<&combined::Model>) -> String {
    let why = model.map(|m| {
        let shared = combined::SharedRows::of(&doc.blocks, &doc.regions);
        m.explain(&doc.blocks, &doc.regions, &doc.page_text, &shared, WHY)
    });
    let names = combined::feature_names();
    let mut out = String::with_capacity(4096 + doc.blocks.len() * 600);
    out.push_str("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">\n");
    out.push_str(
        "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src ",
    );
    out.push_str(&csp_hash(STYLE));
    out.push_str("; script-src ");
    out.push_str(&csp_hash(SCRIPT));
    out.push_str(
        "\">\n<meta name=\"viewport\" content=\"width=device-width\">\n<title>cowrex inspect: ",
    );
    esc(&mut out, &doc.meta.url);
    out.push_str("</title>\n<style>");
    out.push_str(STYLE);
    out.push_str("</style></head>\n<body>\n<header><h1>");
    esc(
        &mut out,
        doc.metadata.title.as_deref().unwrap_or("(no title)"),
    );
    out.push_str("</h1>\n<dl class=\"meta\">\n");

    // Gold labels per block, and the page's figures.
    let texts: Vec<&str> = doc.blocks.iter().map(|b| b.text.as_str()).collect();
    let gold_labels = gold.map(|g| labels::align_gold(&texts, g));
    let m = &doc.metadata;
    let row = |out: &mut String, name: &str, value: &str| {
        out.push_str("<div><dt>");
        esc(out, name);
        out.push_str("</dt><dd>");
        esc(out, value);
        out.push_str("</dd></div>\n");
    };
    let opt = |v: &Option<String>| v.clone().unwrap_or_else(|| "–".into());
    row(&mut out, "URL", &doc.meta.url);
    row(&mut out, "author", &opt(&m.author));
    row(&mut out, "published", &opt(&m.published));
    row(&mut out, "site", &opt(&m.sitename));
    row(
        &mut out,
        "language",
        &format!(
            "{}{} (declared: {})",
            doc.language_code(),
            doc.language.map_or(String::new(), |l| format!(
                " {}, score {:.2}",
                l.script.unwrap_or("–"),
                l.score
            )),
            m.declared_language.as_deref().unwrap_or("–")
        ),
    );
    row(
        &mut out,
        "badness",
        &doc.badness.map_or("–".into(), |b| format!("{b:.2}")),
    );
    row(
        &mut out,
        "threshold (bpt)",
        &format!("{:.3}", doc.threshold),
    );
    let kept = doc.blocks.iter().filter(|b| doc.is_content(b)).count();
    out.push_str("<div><dt>blocks</dt><dd><span id=\"kept\">");
    out.push_str(&kept.to_string());
    out.push_str("</span> kept of ");
    out.push_str(&doc.blocks.len().to_string());
    if let Some(cap) = doc.capped {
        out.push_str(" (segmentation stopped at its ");
        out.push_str(cap.name());
        out.push_str(" cap)");
    }
    out.push_str("</dd></div>\n");
    if let Some(g) = gold {
        let o = Overlap::of(&doc.text(), g);
        row(
            &mut out,
            "against the gold text",
            &format!(
                "precision {:.3}, recall {:.3}, F1 {:.3} (bag of words, as cowrex eval); \
                 outlined: kept but not in the gold text (noise), dashed: gold text dropped (missed)",
                o.precision(),
                o.recall(),
                o.f1()
            ),
        );
    }
    out.push_str("</dl></header>\n<nav><label><input type=\"checkbox\" id=\"hide\"> hide dropped blocks</label> \
                  &nbsp; <label>decision: <select id=\"scorer\">");
    for d in registry::decisions() {
        out.push_str("<option value=\"");
        out.push_str(d.name);
        out.push_str(if d.name == doc.scorer {
            "\" selected>"
        } else {
            "\">"
        });
        esc(&mut out, d.about);
        out.push_str("</option>");
    }
    out.push_str("</select></label> &nbsp; <span class=\"legend\">bpv 0 ");
    for c in 'a'..='k' {
        out.push_str("<span class=\"");
        out.push(c);
        out.push_str("\"></span>");
    }
    out.push_str(" 1</span></nav>\n<ol>\n");
    for (i, b) in doc.blocks.iter().enumerate().take(MAX_BLOCKS) {
        let why = why.as_ref().map(|w| &w[i][..]).unwrap_or(&[]);
        let why: Vec<(&str, f32)> = why.iter().map(|&(f, v)| (names[f].as_str(), v)).collect();
        block(
            &mut out,
            doc,
            b,
            gold_labels.as_ref().and_then(|l| l[i]),
            &why,
        );
    }
    out.push_str("</ol>\n");
    if doc.blocks.len() > MAX_BLOCKS {
        out.push_str("<p>… and ");
        out.push_str(&(doc.blocks.len() - MAX_BLOCKS).to_string());
        out.push_str(" more blocks, not shown.</p>\n");
    }
    out.push_str("<script>");
    out.push_str(SCRIPT);
    out.push_str("</script>\n</body></html>\n");
    out
}

/// One block: its colour band, kind and scores, text, every detector's values, and the
/// features that moved the combined model's score most (`why`: name, change of its margin).
fn block(out: &mut String, doc: &Document, b: &Block, gold: Option<bool>, why: &[(&str, f32)]) {
    let kept = doc.is_content(b);
    out.push_str("<li class=\"block ");
    out.push_str(if kept { "kept" } else { "dropped" });
    match (gold, kept) {
        (Some(false), true) => out.push_str(" noise"),
        (Some(true), false) => out.push_str(" missed"),
        _ => {}
    }
    if b.comment {
        out.push_str(" comment");
    }
    out.push_str("\" data-idx=\"");
    out.push_str(&b.idx.to_string());
    out.push_str("\" data-keep=\"");
    let keeping: Vec<&str> = registry::decisions()
        .filter(|d| keeps(d, doc, b))
        .map(|d| d.name)
        .collect();
    out.push_str(&keeping.join(" "));
    out.push_str("\"><span class=\"band ");
    out.push(bpc(b.bpv));
    out.push_str("\"></span><div class=\"body\"><div class=\"tags\"><span class=\"tag");
    if b.comment {
        out.push_str(" comment");
    }
    out.push_str("\">");
    out.push_str(b.kind_name());
    out.push_str("</span>#");
    out.push_str(&b.idx.to_string());
    out.push_str(&format!(" · bpv {:.3}", b.bpv));
    if let Some(of) = b.dup_of {
        out.push_str(&format!(" · repeats block #{of}"));
    }
    // The detectors' values as `name=value|…`, made a table when opened (a table per block
    // would make a long page's document several times larger).
    out.push_str(" · <details data-s=\"");
    let fields = super::block_scores(b)
        .chain(super::kind_fields(b))
        .chain(super::block_language(b));
    for (name, score) in fields {
        out.push_str(name);
        out.push('=');
        esc(out, &score.text());
        out.push('|');
    }
    let m = markup::of(b);
    out.push_str(&format!("markup={:.2} ({} words known)", m.sum, m.known));
    for (name, v) in why {
        out.push_str(&format!(
            "|why: {name}={v:+.2} (towards {})",
            if *v > 0.0 { "boilerplate" } else { "content" }
        ));
    }
    out.push_str("\"><summary>detectors</summary></details></div><div class=\"text\">");
    esc(out, &b.text);
    out.push_str("</div></div></li>\n");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn base64_and_hashes() {
        assert_eq!(base64(b""), "");
        assert_eq!(base64(b"f"), "Zg==");
        assert_eq!(base64(b"fo"), "Zm8=");
        assert_eq!(base64(b"foo"), "Zm9v");
        assert_eq!(base64(b"foobar"), "Zm9vYmFy");
        assert!(csp_hash("x").starts_with("'sha256-") && csp_hash("x").len() == 53);
    }

    #[test]
    fn hostile_pages_render_as_text() {
        let html = "<html><head><title>\"><img src=x onerror=alert(1)></title></head><body>\
            <h1>&lt;script&gt;alert(1)&lt;/script&gt;</h1>\
            <p>Click <a href=\"javascript:alert(1)\">here</a> &lt;img src=x onerror=alert(2)&gt; \
            for the long text of this page, which goes on for a while to be content.</p></body></html>";
        let ex = crate::Extractor::new(&crate::Options::default()).unwrap();
        let doc = ex.extract(html.as_bytes(), Some("javascript:alert(3)"));
        let page = page(&doc, Some("Click here for the long text"), None);
        // Exactly one script, ours; no element from the page.
        assert_eq!(page.matches("<script").count(), 1);
        assert_eq!(page.matches("<img").count(), 0);
        assert!(!page.contains("href="));
        assert!(page.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
        assert!(page.contains("&lt;img src=x onerror=alert(2)&gt;"));
        assert!(page.contains("javascript:alert(3)"));
        assert!(page.contains("Content-Security-Policy"));
        assert!(page.contains("precision"));
        let blocks = page.matches("<li class=\"block").count();
        assert_eq!(blocks, doc.blocks.len());
        assert!(!page.contains("|why: "));
    }

    #[test]
    fn blocks_say_what_moved_the_combined_models_score() {
        let ex = crate::Extractor::new(&crate::Options::default()).unwrap();
        let doc = ex.extract(
            b"<body><nav><a href=/>Home</a> <a href=/a>About</a></nav><p>The rain in Spain               falls mainly on the plain, as everyone who lives there knows very well.</p></body>",
            None,
        );
        let page = page(&doc, None, Some(ex.models().combined()));
        // Each block names its features (at most WHY), each with its sign's direction.
        let whys: Vec<&str> = page.split("|why: ").skip(1).collect();
        assert!(!whys.is_empty() && whys.len() <= WHY * doc.blocks.len());
        let names = combined::feature_names();
        for w in &whys {
            let (name, rest) = w.split_once('=').unwrap();
            assert!(names.iter().any(|n| n == name), "{name}");
            let v: f32 = rest.split(' ').next().unwrap().parse().unwrap();
            let towards = if v > 0.0 { "boilerplate" } else { "content" };
            assert!(rest.contains(towards), "{w}");
        }
    }
}

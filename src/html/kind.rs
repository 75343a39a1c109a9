//! What a block is ([`Kind`]): heading, paragraph, list item, table cell, code, quote,
//! caption, from the elements around its first text.

use crate::document::Kind;

/// Where an open element stands for the kinds of the blocks inside it
/// ([`Stripper`](super::segmenter::Stripper) keeps one per open element, inherited from its
/// parent).
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Context {
    /// The kind of text directly inside it.
    pub kind: Kind,
    /// Lists it is in (or is).
    pub lists: u8,
    /// The innermost of them is an `ol`.
    pub ordered: bool,
    /// It is in a `thead`.
    pub(crate) thead: bool,
}

impl Context {
    /// The context of a start tag's element inside `parent`, except for table cells, whose
    /// position [`Stripper`](super::segmenter::Stripper) knows ([`Kind::Cell`]).
    pub fn child(parent: Context, name: &[u8]) -> Context {
        let mut c = parent;
        let keeps = |k: Kind| {
            matches!(
                k,
                Kind::Item { .. } | Kind::Cell { .. } | Kind::Quote | Kind::Caption | Kind::Code
            )
        };
        match name {
            b"h1" | b"h2" | b"h3" | b"h4" | b"h5" | b"h6" => {
                c.kind = Kind::Heading(name[1] - b'0');
            }
            b"p" if !keeps(parent.kind) && !matches!(parent.kind, Kind::Heading(_)) => {
                c.kind = Kind::Paragraph;
            }
            b"ul" | b"ol" | b"dl" | b"menu" => {
                c.lists = c.lists.saturating_add(1);
                c.ordered = name == b"ol";
            }
            b"li" | b"dt" | b"dd" => {
                c.kind = Kind::Item {
                    ordered: c.ordered && name == b"li",
                    depth: c.lists.max(1),
                };
            }
            b"table" => {
                c.kind = Kind::Table;
                c.thead = false;
            }
            b"thead" => c.thead = true,
            b"tbody" | b"tfoot" => c.thead = false,
            b"pre" | b"listing" | b"xmp" => c.kind = Kind::Code,
            b"blockquote" => c.kind = Kind::Quote,
            b"figcaption" | b"caption" => c.kind = Kind::Caption,
            _ => {}
        }
        c
    }
}

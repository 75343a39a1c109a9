//! What a block is: heading, paragraph, list item, table cell, code, quote, caption, from the
//! elements around its first text.

/// A block's kind: what the innermost element with a kind around its first text makes it
/// (a `p` inside a list item, cell, quote or caption leaves that kind; inline elements have
/// none).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Kind {
    /// None of the others: text of a `div`, `section`, `span`, the body, ….
    #[default]
    Other,
    /// `h1` … `h6`, by level.
    Heading(u8),
    /// `p`.
    Paragraph,
    /// A list item (`li`, and `dt` and `dd` of a definition list): whether its list is an
    /// `ol`, and how many lists (`ul`, `ol`, `dl`, `menu`) it is in, 1 in a top-level list.
    Item {
        /// Its list is an `ol`.
        ordered: bool,
        /// Lists the item is in, 1 in a top-level list.
        depth: u8,
    },
    /// A table cell (`td`, `th`): its row and column, from 0 (a cell spanning columns counts
    /// as many), and whether it is a header cell (`th`, or any cell of a `thead`).
    Cell {
        /// Row in the table, from 0.
        row: u32,
        /// Column in the row, from 0 (a cell spanning columns counts as many).
        col: u32,
        /// A header cell: `th`, or any cell of a `thead`.
        header: bool,
    },
    /// Text of a table that is in none of its cells.
    Table,
    /// Preformatted text: `pre`, `listing`, `xmp`.
    Code,
    /// `blockquote`.
    Quote,
    /// `figcaption`, a table's `caption`.
    Caption,
}

impl Kind {
    /// The kind's name in every output: `h1`…`h6`, `p`, `li`, `td`, `th`, `table`, `pre`,
    /// `quote`, `caption`, `other`.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Other => "other",
            Kind::Heading(level) => {
                ["h1", "h2", "h3", "h4", "h5", "h6"][(level.clamp(1, 6) - 1) as usize]
            }
            Kind::Paragraph => "p",
            Kind::Item { .. } => "li",
            Kind::Cell { header: false, .. } => "td",
            Kind::Cell { header: true, .. } => "th",
            Kind::Table => "table",
            Kind::Code => "pre",
            Kind::Quote => "quote",
            Kind::Caption => "caption",
        }
    }

    /// A list item's list: `ol` or `ul`.
    pub fn list(self) -> Option<&'static str> {
        match self {
            Kind::Item { ordered, .. } => Some(if ordered { "ol" } else { "ul" }),
            _ => None,
        }
    }

    /// A list item's depth (1 in a top-level list).
    pub fn depth(self) -> Option<u8> {
        match self {
            Kind::Item { depth, .. } => Some(depth),
            _ => None,
        }
    }

    /// A cell's row and column.
    pub fn cell(self) -> Option<(u32, u32)> {
        match self {
            Kind::Cell { row, col, .. } => Some((row, col)),
            _ => None,
        }
    }
}

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
    pub thead: bool,
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names() {
        assert_eq!(Kind::Heading(2).name(), "h2");
        assert_eq!(Kind::Heading(9).name(), "h6");
        let item = Kind::Item {
            ordered: true,
            depth: 2,
        };
        assert_eq!(
            (item.name(), item.list(), item.depth()),
            ("li", Some("ol"), Some(2))
        );
        let th = Kind::Cell {
            row: 0,
            col: 3,
            header: true,
        };
        assert_eq!((th.name(), th.cell()), ("th", Some((0, 3))));
        assert_eq!(Kind::default().name(), "other");
    }
}

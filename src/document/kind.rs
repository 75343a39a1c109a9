//! What a block is: heading, paragraph, list item, table cell, code, quote, caption
//! (segmentation finds it from the elements around the block's first text).

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

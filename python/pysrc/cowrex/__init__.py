"""cowrex: clean, annotated web corpora from crawled pages.

Every text block of a page is kept and scored for boilerplate by several detectors (texrex's
MLP, NCleaner's n-gram models, jusText, boilerpipe and a combined model); ``Document.text`` is
the content, ``Document.blocks`` every block with its scores.

    >>> import cowrex
    >>> doc = cowrex.extract("<html><body><p>Some text.</p></body></html>")
    >>> doc.text
    'Some text.'

For many pages build one ``cowrex.Extractor(**options)`` and reuse it (it is thread-safe and
releases the GIL while it works). ``cowrex.read_warc(path_or_url)`` streams the documents of a
WARC file, analysed on worker threads. ``cowrex.datatrove.CowrexExtractor`` is a datatrove
pipeline step.
"""

from ._cowrex import Block, Document, Extractor, WarcReader, __version__, extract, filter_reason, read_warc

__all__ = ["Block", "Document", "Extractor", "WarcReader", "extract", "filter_reason", "read_warc", "__version__"]

"""A datatrove extractor step: ``CowrexExtractor`` drops into a pipeline where
``Trafilatura()`` stands::

    from datatrove.pipeline.readers import WarcReader
    from datatrove.pipeline.writers import JsonlWriter
    from cowrex.datatrove import CowrexExtractor

    pipeline = [WarcReader("crawl/"), CowrexExtractor(keep_blocks=True), JsonlWriter("out/")]

Each document's HTML (its ``text``) is replaced by cowrex's content text; a document without
content is dropped. With ``keep_blocks=True`` the document's ``metadata["cowrex"]`` holds
cowrex's view of the page: ``language``, ``title``, ``bpt`` (the decision threshold), ``bdv``
(badness) and ``blocks`` (every block as in cowrex's JSONL output: ``idx``, ``bpv``, ``bpc``,
every scorer's value, ``dup_of`` and ``text``; a block is content when its ``bpv`` is at most
``bpt``).

Unlike Python extractors, cowrex runs in the worker's own process, not in a sandbox with a
timeout: its work per page is bounded (caps on depth and blocks), it releases the GIL, and a
page it cannot read gives an empty document rather than an exception.
"""

from datatrove.data import DocumentsPipeline
from datatrove.pipeline.extractors.base import BaseExtractor
from datatrove.utils.logging import logger
from datatrove.utils.typeshelper import StatHints

import cowrex


class CowrexExtractor(BaseExtractor):
    """cowrex as a datatrove extractor.

    Args:
        keep_blocks: keep cowrex's blocks and scores in ``metadata["cowrex"]``.
        **options: cowrex's options (``scorer``, ``threshold``, ``lang``, ... as for
            ``cowrex.Extractor``).
    """

    name = "🐄 cowrex"
    _requires_dependencies = []

    def __init__(self, keep_blocks: bool = False, **options):
        super().__init__(timeout=1)
        self.keep_blocks = keep_blocks
        self.options = options
        self._extractor = None
        # Fail now, on the driver, if the options are wrong.
        cowrex.Extractor(**options) if options else None

    def __getstate__(self):
        # Steps are pickled to the workers; the extractor is built there.
        state = dict(self.__dict__)
        state["_extractor"] = None
        return state

    @property
    def extractor(self) -> "cowrex.Extractor":
        if self._extractor is None:
            self._extractor = cowrex.Extractor(**self.options)
        return self._extractor

    def extract(self, text: str) -> str:
        """The content text of an HTML page."""
        return self.extractor.extract(text).text

    def run(self, data: DocumentsPipeline, rank: int = 0, world_size: int = 1) -> DocumentsPipeline:
        for doc in data:
            self.stat_update(StatHints.total)
            with self.track_time():
                try:
                    result = self.extractor.extract(doc.text, url=doc.metadata.get("url"))
                except Exception as e:  # bad input gives an empty document; this is a bug
                    self.stat_update("clean_error")
                    if not self._warned_error:
                        logger.warning(f'❌ cowrex error "{e}"; skipping the record. This message appears once.')
                        self._warned_error = True
                    continue
                self.stat_update("extracted")
                doc.text = result.text
                if self.keep_blocks:
                    record = result.to_dict()
                    doc.metadata["cowrex"] = {
                        key: record[key] for key in ("language", "title", "bpt", "bdv", "blocks") if key in record
                    }
            if doc.text:
                self.stat_update(StatHints.forwarded)
                self.update_doc_stats(doc)
                yield doc
            else:
                self.stat_update(StatHints.dropped)

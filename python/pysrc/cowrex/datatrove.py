"""datatrove steps. ``CowrexExtractor`` drops into a pipeline where ``Trafilatura()`` stands::

    from datatrove.pipeline.readers import WarcReader
    from datatrove.pipeline.writers import JsonlWriter
    from cowrex.datatrove import CowrexExtractor

    pipeline = [WarcReader("crawl/"), CowrexExtractor(keep_blocks=True), JsonlWriter("out/")]

``CowrexExtractor`` replaces each document's HTML (its ``text``) by cowrex's content text; a
document without content is dropped. Each document's ``metadata`` gets ``language``,
``language_score`` and ``language_script`` as datatrove's ``LanguageFilter`` writes them (the
language's ISO 639-1 code where it has one, as fastText's lid.176 labels it, else its ISO
639-3 code), so that datatrove's filters after it (``LanguageFilter``, or a
``LambdaFilter`` on ``language_score >= 0.65`` as FineWeb's) work unchanged; ``signals`` holds
the quality signals (``cowrex.filter_reason(doc.metadata["signals"], "fineweb")`` decides as
FineWeb's four filters would, see docs/formats.md#quality-signals). With
``keep_blocks=True`` the document's ``metadata["cowrex"]`` holds
cowrex's view of the page: ``language``, ``title``, ``bpt`` (the decision threshold), ``bdv``
(badness) and ``blocks`` (every block as in cowrex's JSONL output: ``idx``, ``bpv``, ``bpc``,
every scorer's value, ``dup_of`` and ``text``; a block is content when its ``bpv`` is at most
``bpt``).

``CowrexWarcReader`` stands for both, reader and extractor: cowrex reads the web archives
itself (every kind ``cowrex process`` reads: ``.warc``, ``.warc.gz``, ``.warc.zst`` with or
without its dictionary frame, ARC files; local, http(s) or s3://), finds each page's charset
itself, and hands on documents that already hold its text::

    from cowrex.datatrove import CowrexWarcReader

    pipeline = [CowrexWarcReader("s3://bucket/crawl/", glob_pattern="*.warc.zst"), JsonlWriter("out/")]

Unlike Python extractors, cowrex runs in the worker's own process, not in a sandbox with a
timeout: its work per page is bounded (caps on depth and blocks), it releases the GIL, and a
page it cannot read gives an empty document rather than an exception.
"""

import itertools

from datatrove.data import DocumentsPipeline
from datatrove.io import DataFileLike, DataFolderLike
from datatrove.pipeline.extractors.base import BaseExtractor
from datatrove.pipeline.readers.base import BaseDiskReader
from datatrove.utils.logging import logger
from datatrove.utils.typeshelper import StatHints

import cowrex


class _CowrexOptions:
    """cowrex's options for a step, checked when the step is built (on the driver), and the
    extractor built from them in each worker (steps are pickled to the workers)."""

    def _set_options(self, options: dict) -> None:
        self.options = options
        self._extractor = None
        # Fail now, on the driver, if the options are wrong.
        cowrex.Extractor(**options) if options else None

    def __getstate__(self):
        state = dict(self.__dict__)
        state["_extractor"] = None
        return state

    @property
    def extractor(self) -> "cowrex.Extractor":
        if self._extractor is None:
            self._extractor = cowrex.Extractor(**self.options)
        return self._extractor


class CowrexExtractor(_CowrexOptions, BaseExtractor):
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
        self._set_options(options)

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
                doc.metadata.update(language_metadata(result))
                if self.keep_blocks:
                    doc.metadata["cowrex"] = cowrex_view(result)
            if doc.text:
                self.stat_update(StatHints.forwarded)
                self.update_doc_stats(doc)
                yield doc
            else:
                self.stat_update(StatHints.dropped)


def language_metadata(document: "cowrex.Document") -> dict:
    """A document's language as datatrove's ``LanguageFilter`` writes it in ``metadata``, and
    its quality signals (``signals``) when they are on."""
    meta = {}
    if document.language is not None:
        meta = {
            "language": document.language_iso639_1 or document.language,
            "language_score": document.language_score,
            "language_script": document.language_script,
        }
    if document.signals is not None:
        meta["signals"] = document.signals
    return meta


def cowrex_view(document: "cowrex.Document") -> dict:
    """What ``keep_blocks=True`` keeps of a cowrex document in ``metadata["cowrex"]``."""
    record = document.to_dict()
    return {key: record[key] for key in ("language", "title", "bpt", "bdv", "blocks") if key in record}


class CowrexWarcReader(_CowrexOptions, BaseDiskReader):
    """Web archives read by cowrex, as datatrove documents that hold cowrex's content text.

    Each HTML page with content becomes a document: ``id`` is its WARC record id (for an ARC
    record, which has none, cowrex's document id), ``metadata`` holds ``url``, ``date`` (the
    capture's date), ``file_path``, ``language``, ``language_score`` and ``language_script`` (as
    ``CowrexExtractor`` writes them), and with ``keep_blocks=True`` ``cowrex`` as
    ``CowrexExtractor`` keeps it. Pages without content are dropped, as ``CowrexExtractor``
    drops them.

    Files are found as by datatrove's ``WarcReader`` (``data_folder``, ``paths_file``,
    ``glob_pattern``, ``recursive``); cowrex opens them itself, so the folder must be local,
    http(s) or s3:// (s3:// credentials and endpoint come from the ``AWS_*`` variables and
    profile files, see cowrex's docs/batch.md). Each record's fate is counted in the step's
    stats as ``fate.<fate>``, damage in the stream as ``stream_error.<reason>``. A file that
    cannot be read (missing, not a web archive, a broken connection after the retries) is
    logged and counted as ``failed_files``, and the next file is read; the documents read
    from it before the failure are kept.

    Args:
        data_folder, paths_file, limit, skip, file_progress, doc_progress, adapter,
            default_metadata, recursive, glob_pattern, shuffle_files: as for datatrove's
            ``WarcReader``.
        keep_blocks: keep cowrex's blocks and scores in ``metadata["cowrex"]``.
        threads: cowrex's worker threads per file (1: datatrove's tasks are the parallelism).
        **options: cowrex's options (``scorer``, ``threshold``, ``lang``, ... as for
            ``cowrex.Extractor``).
    """

    name = "🐄 cowrex WARC"
    _requires_dependencies = []

    def __init__(
        self,
        data_folder: DataFolderLike,
        paths_file: DataFileLike | None = None,
        limit: int = -1,
        skip: int = 0,
        file_progress: bool = False,
        doc_progress: bool = False,
        adapter=None,
        default_metadata: dict | None = None,
        recursive: bool = True,
        glob_pattern: str | None = None,
        shuffle_files: bool = False,
        keep_blocks: bool = False,
        threads: int = 1,
        **options,
    ):
        super().__init__(
            data_folder,
            paths_file,
            limit,
            skip,
            file_progress,
            doc_progress,
            adapter,
            "text",
            "id",
            default_metadata,
            recursive,
            glob_pattern,
            shuffle_files,
        )
        protocol = self.data_folder.fs.protocol
        protocols = {protocol} if isinstance(protocol, str) else set(protocol)
        if not protocols & {"file", "local", "s3", "s3a", "http", "https"}:
            raise ValueError(f"CowrexWarcReader reads local, http(s) and s3:// folders, not {'/'.join(protocols)}://")
        self.keep_blocks = keep_blocks
        self.threads = threads
        self._set_options(options)

    def source(self, filepath: str) -> str:
        """What cowrex opens for ``filepath`` (relative to the data folder): a local path or a URL."""
        path = self.data_folder.resolve_paths(filepath)
        return "s3://" + path[len("s3a://") :] if path.startswith("s3a://") else path

    def read_file(self, filepath: str) -> DocumentsPipeline:
        source = self.source(filepath)
        reader = None
        try:
            reader = self.extractor.read_warc(source, threads=self.threads)
            for i in itertools.count():
                with self.track_time():  # cowrex's reading and analysis of the next page
                    document = next(reader, None)
                if document is None:
                    break
                if not document.text:
                    self.stat_update("no_content")
                    continue
                data = {
                    "text": document.text,
                    "id": document.record_id or document.id,
                    "url": document.url,
                    "date": document.warc_date,
                    **language_metadata(document),
                }
                if self.keep_blocks:
                    data["cowrex"] = cowrex_view(document)
                doc = self.get_document_from_dict(data, filepath, i)
                if doc:
                    yield doc
        except OSError as e:
            self.stat_update("failed_files")
            logger.error(f"cowrex could not read {source}: {e}")
        finally:
            if reader is not None:
                stats = reader.stats
                for fate, n in stats["fates"].items():
                    self.stat_update(f"fate.{fate}", value=n, unit="input_file")
                for reason, n in stats["stream_errors"].items():
                    self.stat_update(f"stream_error.{reason}", value=n, unit="input_file")

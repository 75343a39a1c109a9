"""Type stubs of cowrex's compiled module."""

import os
from typing import Any, Iterator, Literal, Optional, Sequence, TypedDict, Union

# Generated from the registry by tests/docs.rs (COWREX_BLESS=1 cargo test --release --test docs):
# the detectors' decisions.
Scorer = Literal[
    "mlp",
    "ngram",
    "justext",
    "boilerpipe",
    "boilerpipe-density",
    "boilerpipe-cleaneval",
    "boilerpipe-largest",
    "combined",
]

class Options(TypedDict, total=False):
    scorer: Scorer
    """The scorer whose result is ``bpv`` and decides what is boilerplate (default: combined)."""
    threshold: Optional[float]
    """Blocks with ``bpv`` above it are boilerplate; default: each document's own (combined) or 0.5."""
    favor: Literal["precision", "balanced", "recall"]
    """Where the combined model cuts a document without ``threshold`` (default: balanced)."""
    comments: Literal["drop", "keep", "scored"]
    """Whether the blocks of a comment section (``Block.kind == "comment"``) are content (default: drop)."""
    lang: Literal["auto", "en", "de", "fr", "sv"]
    ngram: Literal["auto", "standard", "nonlexical", "off"]
    # Generated from the registry by tests/docs.rs (COWREX_BLESS=1 cargo test --release --test docs):
    # the detectors' model files.
    model: Union[str, os.PathLike[str]]
    """Boilerplate MLP for every document instead of the built-in ones (cowrex compact format or FANN .net)."""
    ngram_model: Union[str, os.PathLike[str]]
    """N-gram model file (from `cowrex train ngram`) instead of the built-in one."""
    markup_model: Union[str, os.PathLike[str]]
    """Markup model (from `cowrex train markup`) instead of the built-in one."""
    comment_model: Union[str, os.PathLike[str]]
    """Comment model (from `cowrex train comment`) instead of the built-in one."""
    combined_model: Union[str, os.PathLike[str]]
    """Combined model (from `cowrex train combined`) instead of the built-in one."""
    # End of the detectors' model files.
    profiles: Sequence[Union[str, os.PathLike[str]]]
    lid_model: Union[str, os.PathLike[str]]
    """A fastText language identification model (OpenLID's, GlotLID's) instead of the built-in identifier."""
    max_depth: int
    max_blocks: int
    max_work: int
    texrex_syntax: bool
    mask: Sequence[Literal["email", "uri", "hashtag"]]
    """Mask these in the text as texrex does (``emailblank``, ``uriblank``, ``hashtagblank``)."""
    texrex_text: bool
    """The text is texrex's second-pass text (entities decoded twice, markup and the above masked)."""
    shingles: bool
    signals: bool
    """Compute each document's quality signals (``Document.signals``; on by default)."""
    min_length: int
    dup_blocks: Literal["mark", "drop", "keep"]

__version__: str

class Block:
    """One text block of a page with every detector's view of it."""
    @property
    def idx(self) -> int: ...
    @property
    def text(self) -> str:
        """The text as the page shows it (line breaks of ``<br>`` and preformatted text kept)."""
    @property
    def c4(self) -> Optional[str]:
        """A content block with a line C4's rules drop: its lines' fates (``kept``,
        ``no_terminal_punc``, …), joined by ``,``."""
    @property
    def kind(self) -> Literal["comment", "h1", "h2", "h3", "h4", "h5", "h6", "p", "li", "td", "th", "table", "pre", "quote", "caption", "other"]:
        """What the block is: ``comment`` in the page's comment section, else from the elements around its first text."""
    @property
    def list(self) -> Optional[Literal["ol", "ul"]]:
        """A list item's list (``None`` for other blocks)."""
    @property
    def depth(self) -> Optional[int]:
        """A list item's depth, 1 in a top-level list."""
    @property
    def row(self) -> Optional[int]:
        """A table cell's row, from 0."""
    @property
    def col(self) -> Optional[int]:
        """A table cell's column, from 0 (cells spanning columns counted)."""
    @property
    def bpv(self) -> float:
        """Boilerplate score of the deciding scorer (0: content, 1: boilerplate)."""
    @property
    def bpc(self) -> str:
        """texrex's class of ``bpv``: ``a`` (0) to ``k`` (1)."""
    @property
    def boilerplate(self) -> bool:
        """``bpv`` is above the document's threshold."""
    @property
    def dup_of(self) -> Optional[int]:
        """``idx`` of an earlier block with the same text."""
    @property
    def language(self) -> Optional[str]:
        """ISO 639-3 code of the block's own identified language (blocks of 30 letters or more)."""
    @property
    def language_score(self) -> Optional[float]:
        """How sure the block's identification is, 0–1."""
    @property
    def mlp(self) -> float:
        """texrex's MLP score."""
    @property
    def ngram(self) -> Optional[float]:
        """NCleaner's score in bits per character (positive: clean); ``None`` when off."""
    @property
    def justext(self) -> Optional[str]: ...
    @property
    def justextcf(self) -> Optional[str]: ...
    @property
    def boilerpipe(self) -> Optional[str]: ...
    @property
    def scores(self) -> dict[str, Union[float, str]]:
        """Every scorer's result besides ``bpv``, by the names of the JSONL output."""

class Document:
    """An analysed page."""
    @property
    def text(self) -> str:
        """The content blocks (repeated blocks included), one per line."""
    @property
    def blocks(self) -> list[Block]: ...
    @property
    def language(self) -> Optional[str]:
        """ISO 639-3 code of the identified language (``None``: no letters)."""
    @property
    def language_iso639_1(self) -> Optional[str]:
        """ISO 639-1 code of the identified language, where it has one."""
    @property
    def language_script(self) -> Optional[str]:
        """ISO 15924 script of the identified language (``Latn``, ``Cyrl``, ``Hans``)."""
    @property
    def language_score(self) -> Optional[float]:
        """How sure the identification is, 0–1."""
    @property
    def title(self) -> Optional[str]:
        """The headline: the ``h1`` the page's metadata confirm, its JSON-LD headline, ``og:title`` or ``<title>`` without the site name."""
    @property
    def author(self) -> Optional[str]: ...
    @property
    def published(self) -> Optional[str]:
        """Publication date, ISO 8601 (``2024-05-17``, or with time and offset)."""
    @property
    def modified(self) -> Optional[str]:
        """Modification date, ISO 8601."""
    @property
    def date(self) -> Optional[str]:
        """The page's date, for dating a text: its publication date, else its modification date (ISO 8601)."""
    @property
    def sitename(self) -> Optional[str]: ...
    @property
    def canonical(self) -> Optional[str]:
        """The canonical URL (``<link rel=canonical>``, else ``og:url``)."""
    @property
    def description(self) -> Optional[str]: ...
    @property
    def declared_language(self) -> Optional[str]:
        """The language the page declares (``<html lang>``), as written."""
    @property
    def markdown(self) -> str:
        """The content as Markdown (CommonMark with GFM tables), links kept."""
    def to_markdown(self, links: bool = True) -> str:
        """The content as Markdown, with or without its links."""
    def to_html(self, gold: Optional[str] = None) -> str:
        """The inspector's self-contained HTML page of the document (``cowrex inspect``); with ``gold``, noise and missed text marked."""
    @property
    def keywords(self) -> Optional[str]: ...
    @property
    def url(self) -> str: ...
    @property
    def id(self) -> str: ...
    @property
    def host(self) -> str: ...
    @property
    def charset(self) -> str:
        """The charset the page was decoded from (``sourcecharset``)."""
    @property
    def declared_charset(self) -> Optional[str]:
        """The charset the page declared, when its bytes were read as UTF-8 against it."""
    @property
    def threshold(self) -> float: ...
    @property
    def badness(self) -> Optional[float]: ...
    @property
    def signals(self) -> Optional[dict[str, Union[int, float]]]:
        """The quality signals of ``text`` (Gopher, C4, FineWeb, RedPajama-V2) by name."""
    @property
    def shingles(self) -> Optional[list[int]]: ...
    @property
    def duplicate_of(self) -> Optional[str]: ...
    @property
    def warc_file(self) -> str: ...
    @property
    def record_id(self) -> Optional[str]: ...
    @property
    def warc_date(self) -> Optional[str]: ...
    @property
    def offset(self) -> int: ...
    @property
    def length(self) -> int: ...
    @property
    def truncated(self) -> Optional[str]:
        """Why the record's block is incomplete: ``WARC-Truncated``'s reason, or ``end_of_input``."""
    def to_json(self) -> str:
        """The JSONL record of ``cowrex process --format jsonl``."""
    def to_dict(self) -> dict[str, Any]:
        """The JSONL record as a dict."""

class WarcReader(Iterator[Document]):
    """The documents of a WARC input, in order."""
    def __iter__(self) -> "WarcReader": ...
    def __next__(self) -> Document: ...
    @property
    def stats(self) -> dict[str, Any]:
        """``records``, ``documents``, ``fates`` and ``stream_errors`` so far."""

class Extractor:
    """Analyses pages with one set of models and options; thread-safe, reuse it."""
    def __init__(self, **options: Any) -> None: ...
    def extract(self, html: Union[str, bytes], url: Optional[str] = None) -> Document:
        """Analyse one page: bytes have their charset sniffed (BOM, HTTP head, meta, detection);
        a str is taken as the text it is, whatever its meta charset says."""
    def read_warc(
        self, source: Union[str, os.PathLike[str]], threads: int = 0, input_base: Optional[str] = None
    ) -> WarcReader: ...

def extract(html: Union[str, bytes], url: Optional[str] = None, **options: Any) -> Document:
    """Analyse one page (with options, models load per call: prefer an Extractor)."""

def read_warc(
    source: Union[str, os.PathLike[str]], threads: int = 0, input_base: Optional[str] = None, **options: Any
) -> WarcReader:
    """The documents of a WARC or ARC file (``.warc``, ``.warc.gz``, ``.warc.zst``, ``.arc``,
    ``.arc.gz``), an http(s) or s3:// URL of one, or ``-`` (standard input).

    With ``input_base`` (a directory or URL) ``source`` is a manifest line relative to it,
    written as the documents' ``warc_file`` (as ``cowrex process --manifest`` does)."""

def filter_reason(
    signals: dict[str, float], preset: Optional[Literal["fineweb", "gopher", "c4"]] = None, require: Sequence[str] = ()
) -> Optional[str]:
    """Why ``cowrex filter --preset PRESET --require …`` drops a document with these signals
    (``filter/reason``, e.g. ``gopher_quality/gopher_short_doc``), or ``None`` when it stays."""

def run_cli(argv: list[str]) -> int:
    """The ``cowrex`` command line on ``argv`` (``argv[0]`` names the program): its exit code.
    It installs the command line's signal handlers; the console script (``cowrex._cli.main``)
    is the way to call it."""

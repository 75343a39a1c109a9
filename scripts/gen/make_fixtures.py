#!/usr/bin/env python3
"""Generate the test fixtures in fixtures/ (Python standard library only; deterministic).

  fixtures/sample.warc.gz   Common-Crawl-shaped: warcinfo, then request/response/metadata per
                            page, one gzip member per record; pages in UTF-8 (with and without
                            BOM), windows-1252, ISO-8859-2 and Shift_JIS, plus non-HTML and
                            non-200 responses and a revisit record.
  fixtures/sample-arc.arc.gz
                            The same crawl as an ARC file (version 1, one gzip member per
                            record): the filedesc record, then one record per page (the HTTP
                            response), as the Internet Archive wrote crawls before WARC.
  fixtures/broken.warc.gz   Damage: garbage between members, a truncated member, a record with a
                            wrong (short) Content-Length, binary junk served as HTML, invalid
                            UTF-8, 100,000-deep nesting, a 50 MB record, and good records
                            between them that must all survive.
  fixtures/cjk-zh.html      A Chinese and a Japanese news page (UTF-8), each with a navigation
  fixtures/cjk-ja.html      menu of short links, an article of several paragraphs and a footer:
                            scripts written without spaces between words (tests/words.rs).

Run from the repository root: python3 scripts/gen/make_fixtures.py
"""
import gzip
import io
import os

OUT = "fixtures"
DATE = "2024-05-01T12:00:00Z"

ARTICLE = """<!DOCTYPE html>
<html><head><title>{title}</title>
<meta name="description" content="{title} - a test page">
<meta name="keywords" content="test, cowrex">
<meta charset="{meta_charset}">
<style>body {{ color: black; }}</style>
<script>var a = 1 < 2; document.write("<div>not text</div>");</script>
</head>
<body>
<div id="nav"><ul><li><a href="/">Home</a></li><li><a href="/news">News</a></li>
<li><a href="/about">About us</a></li><li><a href="/contact">Contact</a></li></ul></div>
<div id="content">
<h1>{title}</h1>
<p>{p1}</p>
<p>{p2}</p>
<p>{p3}</p>
</div>
<div id="footer"><p>&copy; 2024 Example Ltd. All rights reserved. <a href="/imprint">Imprint</a> | <a href="/privacy">Privacy</a></p></div>
</body></html>
"""

TEXTS = [
    ("The river festival returns",
     "After a two-year pause, the river festival returns to the old harbour this summer. Organisers expect more than twenty thousand visitors over the three days of music, food and boat races.",
     "The programme includes concerts on a floating stage, a market with regional producers and guided walks along the restored quay walls. Tickets for the evening concerts go on sale next week.",
     "Local residents have been invited to a public meeting on Thursday, where the organisers will explain the traffic plans and answer questions about noise and parking."),
    ("Library extends opening hours",
     "The city library will open until ten in the evening on weekdays from next month. The council approved the extra funding after a survey showed strong demand from students and working parents.",
     "New self-service machines allow visitors to borrow and return books without staff, and the reading rooms will be staffed by volunteers during the late hours.",
     "The library also plans a series of free evening courses on digital skills, starting with introductions to online banking and video calls for older residents."),
]

CAFE = "Café Müller öffnet wieder: Die Gäste können sich auf Kuchen, Kaffee und ein neues Frühstücksangebot freuen. Die Öffnungszeiten sind täglich von acht bis achtzehn Uhr."
POLISH = "Zażółć gęślą jaźń. Miasto otwiera nowy park z placem zabaw, ścieżkami rowerowymi i kawiarnią nad stawem. Prace budowlane trwały dwa lata."
JAPANESE = "東京の新しい図書館が来月開館します。館内には約五十万冊の本があり、子ども向けの読書室も設けられます。"


# Scripts without spaces between words: made-up local news, with the parts of a news site.
CJK_PAGE = """<!DOCTYPE html>
<html lang="{lang}"><head><meta charset="utf-8">
<title>{title} | {site}</title>
</head>
<body>
<header><div class="logo"><a href="/">{site}</a></div>
<nav class="menu"><ul>
{menu}
</ul></nav></header>
<main><article>
<h1>{title}</h1>
{paragraphs}
</article></main>
<footer><p>{footer}</p>
<p>{footer_links}</p></footer>
</body></html>
"""

CJK_PAGES = {
    "zh": dict(
        site="江城日报",
        title="城南新区图书馆下月开放",
        menu=["首页", "新闻", "城市", "文化", "体育", "关于我们"],
        paragraphs=[
            "记者从市文化局获悉，位于城南新区的市立图书馆新馆将于下月十五日正式向公众开放。"
            "新馆总建筑面积约三万平方米，地上共有五层，设有阅览区、儿童阅读区、自习室和多功能报告厅。",
            "据介绍，新馆首批上架图书约六十万册，其中包括一批珍贵的地方文献和老照片。"
            "图书馆还将开通自助借还书服务，读者只需刷身份证或者扫描二维码，就可以在馆内任何一台设备上办理借阅手续。",
            "市文化局负责人表示，过去几年城南新区人口增长很快，但附近一直缺少大型公共文化设施。"
            "新馆建成后，周边居民步行十分钟左右就能到达，周末还会定期举办讲座、展览和亲子阅读活动。",
            "开馆初期，图书馆每天上午九点至晚上九点开放，每周一闭馆。"
            "为了避免人流过于集中，开馆第一周实行网上预约入馆，每天限约三千人次。",
        ],
        footer="版权所有 © 2024 江城日报社",
        footer_links=["联系我们", "隐私政策", "广告服务"],
    ),
    "ja": dict(
        site="みなと新聞",
        title="駅前の商店街に新しい市場がオープン",
        menu=["ホーム", "ニュース", "地域", "経済", "スポーツ", "お問い合わせ"],
        paragraphs=[
            "みなと市の駅前商店街に二十日、地元の農家や漁師が野菜や魚を直接販売する「みなと朝市」がオープンした。"
            "初日は開店前から多くの買い物客が列を作り、用意した商品の半分以上が昼までに売り切れたという。",
            "市場は、数年前に閉店したスーパーの建物を市が買い取り、改装して作られた。"
            "店内には約三十の店が並び、新鮮な野菜や果物のほか、地元の米を使ったおにぎりや手作りのパンなども販売されている。",
            "商店街の組合によると、駅前では空き店舗が増え、客足が遠のいていることが長年の課題だった。"
            "組合の代表は「市場をきっかけに、若い人や家族連れにもまた商店街に来てもらいたい」と話している。",
            "市場の営業時間は午前七時から午後二時までで、毎週水曜日が定休日。"
            "駐車場は三十台分あり、買い物をした客は二時間まで無料で利用できる。",
        ],
        footer="© 2024 みなと新聞社",
        footer_links=["利用規約", "個人情報の取り扱い", "お問い合わせ"],
    ),
}


def cjk_page(lang):
    p = CJK_PAGES[lang]
    link = '<a href="/%d">%s</a>'
    return CJK_PAGE.format(
        lang=lang, site=p["site"], title=p["title"],
        menu="\n".join("<li>%s</li>" % (link % (i, m)) for i, m in enumerate(p["menu"])),
        paragraphs="\n".join("<p>%s</p>" % t for t in p["paragraphs"]),
        footer=p["footer"],
        footer_links=" | ".join(link % (100 + i, m) for i, m in enumerate(p["footer_links"])),
    )


def record(wtype, uri, block, rid, extra=(), content_type=None, length=None):
    headers = [
        ("WARC-Type", wtype),
        ("WARC-Date", DATE),
        ("WARC-Record-ID", "<urn:uuid:%s>" % rid),
    ]
    if uri:
        headers.append(("WARC-Target-URI", uri))
    headers.extend(extra)
    if content_type:
        headers.append(("Content-Type", content_type))
    headers.append(("Content-Length", str(len(block) if length is None else length)))
    head = "WARC/1.1\r\n" + "".join("%s: %s\r\n" % kv for kv in headers) + "\r\n"
    return head.encode() + block + b"\r\n\r\n"


def uuid(n):
    return "00000000-0000-4000-8000-%012d" % n


def member(data):
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0) as g:
        g.write(data)
    return buf.getvalue()


def http_response(body, content_type="text/html; charset=UTF-8", status="200 OK", extra=""):
    head = "HTTP/1.1 %s\r\nContent-Type: %s\r\nDate: Wed, 01 May 2024 12:00:00 GMT\r\n%sContent-Length: %d\r\n\r\n" % (
        status, content_type, extra, len(body))
    return head.encode("latin-1") + body


class Warc:
    def __init__(self):
        self.members = []
        self.n = 0

    def add(self, data):
        self.members.append(member(data))

    def page(self, uri, body, content_type="text/html; charset=UTF-8", status="200 OK", ip="192.0.2.1", extra=""):
        self.n += 1
        req = ("GET %s HTTP/1.1\r\nHost: example.org\r\n\r\n" % uri).encode()
        self.add(record("request", uri, req, uuid(self.n * 10 + 1), content_type="application/http; msgtype=request"))
        resp = http_response(body, content_type, status, extra)
        self.add(record("response", uri, resp, uuid(self.n * 10 + 2),
                        extra=[("WARC-IP-Address", ip), ("WARC-Identified-Payload-Type", content_type.split(";")[0])],
                        content_type="application/http; msgtype=response"))
        meta = b"fetchTimeMs: 120\r\n"
        self.add(record("metadata", uri, meta, uuid(self.n * 10 + 3), content_type="application/warc-fields"))

    def warcinfo(self):
        info = b"software: cowrex fixtures\r\nformat: WARC File Format 1.1\r\n"
        self.add(record("warcinfo", None, info, uuid(0), content_type="application/warc-fields"))

    def bytes(self):
        return b"".join(self.members)


class Arc:
    """An ARC file (version 1) of the same pages: `Warc.page`'s arguments, the HTTP response only."""

    DATE = DATE.replace("-", "").replace("T", "").replace(":", "").rstrip("Z")

    def __init__(self, name):
        self.members = []
        self.n = 0
        block = b"1 0 cowrex fixtures\nURL IP-address Archive-date Content-type Archive-length\n"
        self.add("filedesc://%s 0.0.0.0 %s text/plain" % (name, self.DATE), block)

    def add(self, header, block):
        self.members.append(member(("%s %d\n" % (header, len(block))).encode() + block + b"\n"))

    def page(self, uri, body, content_type="text/html; charset=UTF-8", status="200 OK", ip="192.0.2.1", extra=""):
        self.n += 1
        self.add("%s %s %s %s" % (uri, ip, self.DATE, content_type.split(";")[0]),
                 http_response(body, content_type, status, extra))

    def bytes(self):
        return b"".join(self.members)


def article(i, charset="UTF-8", title=None, paragraphs=None):
    t = TEXTS[i % len(TEXTS)]
    title = title or t[0]
    p = paragraphs or t[1:]
    return ARTICLE.format(title=title, p1=p[0], p2=p[1], p3=p[2], meta_charset=charset)


def pages(w):
    """The sample's pages, written by `w` (a Warc or an Arc)."""
    w.page("https://example.org/news/festival", article(0).encode("utf-8"))
    w.page("https://example.org/news/library", b"\xef\xbb\xbf" + article(1).encode("utf-8"), content_type="text/html")
    w.page("https://example.de/cafe", article(0, "windows-1252", "Café Müller", [CAFE, CAFE, CAFE]).encode("cp1252"),
           content_type="text/html")
    w.page("https://example.pl/park", article(1, "iso-8859-2", "Nowy park", [POLISH, POLISH, POLISH]).encode("iso-8859-2"),
           content_type="text/html; charset=ISO-8859-2")
    w.page("https://example.jp/library", article(0, "Shift_JIS", "図書館", [JAPANESE, JAPANESE, JAPANESE]).encode("shift_jis"),
           content_type="text/html")
    w.page("https://example.org/logo.png", b"\x89PNG\r\n\x1a\n" + bytes(range(256)), content_type="image/png")
    w.page("https://example.org/missing", b"<html><body><p>Not found</p></body></html>", status="404 Not Found")
    w.page("https://example.org/news/library2", article(1).replace("Library", "The library").encode("utf-8"))


def sample():
    w = Warc()
    w.warcinfo()
    pages(w)
    w.n += 1
    revisit = b"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n\r\n"
    w.add(record("revisit", "https://example.org/news/festival", revisit, uuid(w.n * 10 + 2),
                 extra=[("WARC-Profile", "http://netpreserve.org/warc/1.1/revisit/identical-payload-digest")],
                 content_type="application/http; msgtype=response"))
    return w.bytes()


def sample_arc():
    a = Arc("sample-arc.arc.gz")
    pages(a)
    return a.bytes()


def broken():
    w = Warc()
    w.warcinfo()
    w.page("https://example.org/good/1", article(0).encode("utf-8"))
    w.members.append(b"GARBAGE between gzip members \x00\x01\x02" * 10)
    w.page("https://example.org/good/2", article(1).encode("utf-8"))
    # A truncated member: the response of good/3 is cut in half.
    w.page("https://example.org/truncated", article(0).encode("utf-8"))
    w.members[-2] = w.members[-2][: len(w.members[-2]) // 2]
    w.page("https://example.org/good/3", article(1).encode("utf-8"))
    # A response whose Content-Length is too short (plain record inside one member).
    body = http_response(article(0).encode("utf-8"))
    w.n += 1
    w.add(record("response", "https://example.org/short-length", body, uuid(w.n * 10 + 2),
                 content_type="application/http; msgtype=response", length=len(body) // 2))
    w.page("https://example.org/good/4", article(0).encode("utf-8"))
    w.page("https://example.org/junk", bytes((i * 97 + 13) % 256 for i in range(20000)), content_type="text/html")
    w.page("https://example.org/bad-utf8", article(1).encode("utf-8").replace(b"library", b"libr\xff\xfeary"))
    w.page("https://example.org/deep", b"<html><body>" + b"<div>" * 100000 + b"deep text" + b"</div>" * 100000 + b"</body></html>")
    w.page("https://example.org/huge", b"<html><body>" + b"<p>big record</p>\n" * (50 * 1024 * 1024 // 18) + b"</body></html>")
    w.page("https://example.org/good/5", article(1).encode("utf-8"))
    return w.bytes()


def main():
    os.makedirs(OUT, exist_ok=True)
    with open(os.path.join(OUT, "sample.warc.gz"), "wb") as f:
        f.write(sample())
    with open(os.path.join(OUT, "sample-arc.arc.gz"), "wb") as f:
        f.write(sample_arc())
    with open(os.path.join(OUT, "broken.warc.gz"), "wb") as f:
        f.write(broken())
    for lang in CJK_PAGES:
        with open(os.path.join(OUT, "cjk-%s.html" % lang), "w", encoding="utf-8", newline="\n") as f:
            f.write(cjk_page(lang))
    for name in ("sample.warc.gz", "sample-arc.arc.gz", "broken.warc.gz", "cjk-zh.html", "cjk-ja.html"):
        print("%s: %d bytes" % (os.path.join(OUT, name), os.path.getsize(os.path.join(OUT, name))))


if __name__ == "__main__":
    main()

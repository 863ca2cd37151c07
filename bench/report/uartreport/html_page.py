"""report.html: the Markdown report as one self-contained HTML page.

to_html(markdown_text, outdir) converts the Markdown subset report.py writes
(headings, paragraphs, `- ` lists, pipe tables, fenced code, image lines,
inline code and bold, <br> in table headers) with the standard library
only; each `![title](name.png)` becomes an <img> whose src is the PNG as a
base64 data URI, so the page needs no other file. A line of several images
(glance()) becomes a row of them side by side, each a link to its section
of full-size plots: the plots that go with a headline, on the first screen
beside it. Called by report.py and sweep_md.py.
"""

import base64
import html
import os
import re

STYLE = """body{font-family:sans-serif;max-width:1600px;margin:1em auto;padding:0 1em;
line-height:1.4}table{border-collapse:collapse;margin:.5em 0;font-size:90%}
th,td{border:1px solid #bbb;padding:2px 6px;vertical-align:top}th{background:#eee}
td:first-child{white-space:nowrap}tr:nth-child(even) td{background:#f7f7f7}
img{max-width:100%;height:auto}pre{background:#f4f4f4;padding:.5em;overflow-x:auto}
code{background:#f4f4f4}.glance{display:flex;gap:1%;margin:.5em 0}
.glance a{flex:1 1 0;min-width:0}h1{margin:.2em 0 .4em}
.glance img{width:100%;height:auto;max-height:30vh;object-fit:contain;border:1px solid #ddd}"""
IMAGE = re.compile(r"^!\[([^\]]*)\]\(([^)]+)\)$")
GLANCE_IMAGE = re.compile(r"!\[([^\]]*)\]\(([^)#]+)#([a-z0-9-]+)\)")
GLANCE = re.compile(r"^(?:!\[[^\]]*\]\([^)#]+#[a-z0-9-]+\) ?){2,}$")
PIPE = re.compile(r"(?<!\\)\|")


def _inline(text):
    """HTML of one line of Markdown (`code`, **bold**, _emphasis_, <br>); called by to_html()."""
    parts = text.split("`") if text.count("`") % 2 == 0 else [text]
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append("<code>%s</code>" % html.escape(part))
            continue
        part = html.escape(part, quote=False)
        part = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", part)
        part = re.sub(r"(?<![\w\\])_(\S(?:.*?\S)?)_(?!\w)", r"<em>\1</em>", part)
        out.append(part.replace("&lt;br&gt;", "<br>"))
    return "".join(out)


def _cells(line):
    """The cells of a pipe-table line, `\\|` unescaped; called by _table()."""
    inner = line.strip()
    inner = inner[1:] if inner.startswith("|") else inner
    inner = inner[:-1] if inner.endswith("|") and not inner.endswith("\\|") else inner
    return [c.strip().replace("\\|", "|") for c in PIPE.split(inner)]


def _table(lines):
    """HTML of a pipe table (header, separator, rows); called by to_html()."""
    out = ["<table>", "<tr>" + "".join("<th>%s</th>" % _inline(c) for c in _cells(lines[0]))
           + "</tr>"]
    for line in lines[2:]:
        out.append("<tr>" + "".join("<td>%s</td>" % _inline(c) for c in _cells(line)) + "</tr>")
    return out + ["</table>"]


def _image(alt, name, outdir):
    """An <img> with outdir/name inlined as a data URI (or a note why not);
    called by to_html() (in a paragraph) and _glance() (in a link)."""
    path = os.path.join(outdir, name)
    try:
        with open(path, "rb") as fh:
            data = base64.b64encode(fh.read()).decode("ascii")
    except OSError as exc:
        return "<em>%s: %s not readable (%s)</em>" % (
            html.escape(alt), html.escape(name), html.escape(exc.strerror or str(exc)))
    return ('<img alt="%s" title="%s" width="1200" src="data:image/png;base64,%s">'
            % (html.escape(alt), html.escape(name), data))


def glance(images):
    """One Markdown line of images side by side (title, file name, the id of
    the heading it links to); report.py and sweep_md.py put it under a
    headline."""
    return " ".join("![%s](%s#%s)" % (t, name, sid) for t, name, sid in images)


def _glance(line, outdir):
    """HTML of a glance() line: the images in a row, each a link to its
    heading; called by to_html()."""
    out = ['<div class="glance">']
    for alt, name, sid in GLANCE_IMAGE.findall(line):
        out.append('<a href="#%s">%s</a>' % (sid, _image(alt, name, outdir)))
    return "".join(out) + "</div>"


def slug(text):
    """An id for a heading; called by to_html() and by the glance lines' makers."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "section"


def to_html(text, outdir):
    """The HTML page of a Markdown report; called by write() and the tests."""
    lines = text.splitlines()
    title = next((l[2:] for l in lines if l.startswith("# ")), "Report")
    body, i, seen = [], 0, set()
    while i < len(lines):
        line = lines[i]
        if line.startswith("```"):
            end = next((j for j in range(i + 1, len(lines)) if lines[j].startswith("```")),
                       len(lines))
            body.append("<pre>%s</pre>" % html.escape("\n".join(lines[i + 1:end])))
            i = end + 1
        elif re.match(r"^#{1,6} ", line):
            level = len(line) - len(line.lstrip("#"))
            sid = slug(line[level:])
            while sid in seen:
                sid += "-"
            seen.add(sid)
            body.append('<h%d id="%s">%s</h%d>' % (level, sid, _inline(line[level + 1:]), level))
            i += 1
        elif line.startswith("|"):
            end = next((j for j in range(i, len(lines)) if not lines[j].startswith("|")),
                       len(lines))
            body.extend(_table(lines[i:end]))
            i = end
        elif line.startswith("- "):
            end = next((j for j in range(i, len(lines)) if not lines[j].startswith("- ")),
                       len(lines))
            body.append("<ul>" + "".join("<li>%s</li>" % _inline(l[2:]) for l in lines[i:end])
                        + "</ul>")
            i = end
        elif GLANCE.match(line):
            body.append(_glance(line, outdir))
            i += 1
        elif IMAGE.match(line):
            body.append("<p>%s</p>" % _image(*IMAGE.match(line).groups(), outdir))
            i += 1
        elif line.strip():
            end = next((j for j in range(i, len(lines)) if not lines[j].strip()
                        or lines[j].startswith(("|", "#", "- ", "```", "!["))), len(lines))
            body.append("<p>%s</p>" % "<br>\n".join(_inline(l) for l in lines[i:end]))
            i = max(end, i + 1)
        else:
            i += 1
    return ('<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
            "<title>%s</title>\n<style>%s</style>\n</head>\n<body>\n%s\n</body>\n</html>\n"
            % (html.escape(title), STYLE, "\n".join(body)))


def write(text, outdir, name="report.html"):
    """Write outdir/name from the Markdown text; returns its path; called by
    report.write() and sweep_md.write()."""
    path = os.path.join(outdir, name)
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(to_html(text, outdir))
    return path

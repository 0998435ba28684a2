#!/usr/bin/env python3
"""Draws proxy-vs-decorator.svg, the picture of the lesson in ProxyVersusDecorator.md.

The picture is made from this file, never edited by hand: change the boxes here and run
`python3 proxy-vs-decorator.py` (CI runs it with --check, which fails when the SVG is stale).
"""
import pathlib
import sys

WIDTH, HEIGHT = 900, 440
BOX_W, BOX_H = 200, 46
FONT = "font-family='-apple-system, Helvetica, Arial, sans-serif'"

# Each column: a title, a note, and its boxes top to bottom (label, subtitle, style).
COLUMNS = [
    (
        ["The safe order", "AccessProxy(CachingLoader(loader))"],
        ["The gate decides whether, on every call;", "the cache only changes how."],
        [
            ("caller", "load(key)", "plain"),
            ("AccessProxy", "asks every gatekeeper, every call", "gate"),
            ("CachingLoader", "a decorator: decides nothing", "cache"),
            ("loader", "the real service", "plain"),
        ],
        ("AccessDenied", ["denied: the cache and", "the loader are never reached"]),
    ),
    (
        ["The wrong order (does not compile)", "CachingLoader(AccessProxy(...))"],
        ["A warm cache would keep serving", "after access is revoked."],
        [
            ("caller", "load(key)", "plain"),
            ("CachingLoader", "a hit returns here: no gate asked", "wrong"),
            ("AccessProxy", "asked only on a miss", "gate"),
            ("loader", "the real service", "plain"),
        ],
        None,
    ),
]

STYLES = {
    "plain": ("#ffffff", "#444444"),
    "gate": ("#e6f2ea", "#1e7b3c"),
    "cache": ("#eef2fb", "#3556a8"),
    "wrong": ("#fbeaea", "#b02a2a"),
}


def escape(text):
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def draw():
    out = [
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{WIDTH}' height='{HEIGHT}' "
        f"viewBox='0 0 {WIDTH} {HEIGHT}' role='img' "
        "aria-label='Two call paths: a gate in front of a cache, and a cache in front of a gate'>",
        "<defs><marker id='arrow' viewBox='0 0 10 10' refX='9' refY='5' markerWidth='7' "
        "markerHeight='7' orient='auto-start-reverse'><path d='M0,0 L10,5 L0,10 z' fill='#444'/>"
        "</marker></defs>",
        f"<rect width='{WIDTH}' height='{HEIGHT}' fill='#ffffff'/>",
    ]
    for index, (title, note, boxes, denial) in enumerate(COLUMNS):
        left = 20 + index * (WIDTH // 2)
        center = left + 120
        heading, code = title
        out.append(
            f"<text x='{left}' y='26' {FONT} font-size='15' font-weight='bold' fill='#222'>"
            f"{escape(heading)}</text>")
        out.append(
            f"<text x='{left}' y='46' font-family='Menlo, monospace' font-size='13' fill='#222'>"
            f"{escape(code)}</text>")
        for line, text in enumerate(note):
            out.append(
                f"<text x='{left}' y='{68 + 16 * line}' {FONT} font-size='12' fill='#555'>"
                f"{escape(text)}</text>")
        top = 110
        for row, (label, subtitle, style) in enumerate(boxes):
            fill, stroke = STYLES[style]
            y = top + row * 86
            x = center - BOX_W // 2
            dash = " stroke-dasharray='6,4'" if style == "wrong" else ""
            out.append(
                f"<rect x='{x}' y='{y}' width='{BOX_W}' height='{BOX_H}' rx='8' fill='{fill}' "
                f"stroke='{stroke}' stroke-width='2'{dash}/>")
            out.append(
                f"<text x='{center}' y='{y + 20}' {FONT} font-size='14' font-weight='bold' "
                f"text-anchor='middle' fill='{stroke}'>{escape(label)}</text>")
            out.append(
                f"<text x='{center}' y='{y + 37}' {FONT} font-size='11' text-anchor='middle' "
                f"fill='#555'>{escape(subtitle)}</text>")
            if row + 1 < len(boxes):
                out.append(
                    f"<line x1='{center}' y1='{y + BOX_H}' x2='{center}' y2='{y + 84}' "
                    "stroke='#444' stroke-width='2' marker-end='url(#arrow)'/>")
        if denial:
            label, lines = denial
            gate_y = top + 86 + BOX_H // 2
            x = center + BOX_W // 2
            out.append(
                f"<line x1='{x}' y1='{gate_y}' x2='{x + 36}' y2='{gate_y}' stroke='#b02a2a' "
                "stroke-width='2' marker-end='url(#arrow)'/>")
            out.append(
                f"<text x='{x + 42}' y='{gate_y + 4}' {FONT} font-size='13' font-weight='bold' "
                f"fill='#b02a2a'>{escape(label)}</text>")
            for line, text in enumerate(lines):
                out.append(
                    f"<text x='{x + 42}' y='{gate_y + 22 + 14 * line}' {FONT} font-size='11' "
                    f"fill='#555'>{escape(text)}</text>")
    out.append("</svg>")
    return "\n".join(out) + "\n"


def main():
    target = pathlib.Path(__file__).with_suffix(".svg")
    picture = draw()
    if "--check" in sys.argv[1:]:
        if not target.exists() or target.read_text() != picture:
            sys.exit(f"{target} is stale: run python3 {pathlib.Path(__file__).name}")
        return
    target.write_text(picture)


if __name__ == "__main__":
    main()

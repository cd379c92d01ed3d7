"""Server-rendered SVG charts: plain strings with every text escaped (card and type names are data)."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape


def bar_chart(bars: Sequence[tuple[str, int]], *, title: str, width: int = 360, height: int = 160) -> str:
    """Vertical bars with labels under them and counts above; an empty chart says so."""
    label = escape(title, quote=True)
    if not bars:
        return (
            f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{label}" width="{width}" height="40">'
            f'<text x="4" y="24" font-size="12">{escape(title)}: —</text></svg>'
        )
    top = max(count for _label, count in bars) or 1
    pad_bottom, pad_top = 28, 18
    slot = width / len(bars)
    bar_width = max(4.0, slot * 0.7)
    usable = height - pad_bottom - pad_top
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{label}" class="chart" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
        f"<title>{escape(title)}</title>",
    ]
    for index, (name, count) in enumerate(bars):
        bar_height = usable * count / top
        x = index * slot + (slot - bar_width) / 2
        y = pad_top + usable - bar_height
        centre = x + bar_width / 2
        parts.append(
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{bar_width:.1f}" height="{bar_height:.1f}" fill="#2f5bd3">'
            f"<title>{escape(name)}: {count}</title></rect>"
        )
        parts.append(
            f'<text x="{centre:.1f}" y="{y - 3:.1f}" font-size="11" text-anchor="middle">{count}</text>'
        )
        parts.append(
            f'<text x="{centre:.1f}" y="{height - 10}" font-size="11" text-anchor="middle">'
            f"{escape(name[:10])}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def hbar_chart(bars: Sequence[tuple[str, int]], *, title: str, width: int = 360) -> str:
    """Horizontal bars for long labels (card types)."""
    label = escape(title, quote=True)
    row = 20
    height = max(1, len(bars)) * row + 10
    top = max((count for _l, count in bars), default=1) or 1
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" aria-label="{label}" class="chart" '
        f'width="{width}" height="{height}" viewBox="0 0 {width} {height}">',
        f"<title>{escape(title)}</title>",
    ]
    for index, (name, count) in enumerate(bars):
        y = 5 + index * row
        length = (width - 160) * count / top
        parts.append(f'<text x="0" y="{y + 13}" font-size="12">{escape(name[:18])}</text>')
        parts.append(f'<rect x="120" y="{y + 2}" width="{length:.1f}" height="14" fill="#1f7a3a"/>')
        parts.append(f'<text x="{124 + length:.1f}" y="{y + 13}" font-size="12">{count}</text>')
    parts.append("</svg>")
    return "".join(parts)

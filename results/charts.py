"""Charts drawn on the server as SVG (pure): a viewBox so they scale to a 390 px phone and print crisp."""

from __future__ import annotations

from html import escape


def share_bars(rows: list[dict[str, object]], *, width: int = 360, bar: int = 22) -> str:
    """One horizontal bar per archetype: its share of the field, the cut count beside it."""
    height = max(1, len(rows)) * (bar + 8) + 8
    # Drawn at its natural size (readable on a desktop, not blown up) and shrunk to fit a narrow phone.
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="{width}" '
             f'height="{height}" style="max-width:100%;height:auto" role="img" class="chart" '
             f'data-testid="share-chart" preserveAspectRatio="xMinYMin meet">']  # fmt: skip
    label_w = 130
    for i, row in enumerate(rows):
        y = 8 + i * (bar + 8)
        share = float(row["share"])  # type: ignore[arg-type]
        w = max(1, round((width - label_w - 70) * share))
        name = escape(str(row["name"]) or "?")
        parts.append(f'<text x="0" y="{y + bar * 0.7:.0f}" font-size="13">{name[:18]}</text>')
        parts.append(f'<rect x="{label_w}" y="{y}" width="{w}" height="{bar}" fill="#3b6ea5"><title>{name}'
                     f"</title></rect>")  # fmt: skip
        parts.append(f'<text x="{label_w + w + 4}" y="{y + bar * 0.7:.0f}" font-size="12">'
                     f"{share * 100:.0f}% · {row['count']}</text>")  # fmt: skip
    parts.append("</svg>")
    return "".join(parts)

"""Draw Muster's app icons (PNG) from the same design as static/favicon.svg: a khaki star on olive.

Run once when the design changes: ``.venv/bin/python scripts/make_icons.py``. The PNGs are committed, because
an installed app's icons must be plain files the browser can fetch; Pillow comes with WeasyPrint.
"""

from __future__ import annotations

import math
from pathlib import Path

from PIL import Image, ImageDraw

OLIVE = (75, 83, 32, 255)
KHAKI = (195, 176, 145, 255)
OUT = Path(__file__).resolve().parent.parent / "static" / "site" / "icons"


def star(cx: float, cy: float, outer: float) -> list[tuple[float, float]]:
    """The five-pointed star of the favicon, pointing up, as polygon corners."""
    inner = outer * 0.42
    points = []
    for i in range(10):
        radius = outer if i % 2 == 0 else inner
        angle = -math.pi / 2 + i * math.pi / 5
        points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    return points


def icon(size: int, *, maskable: bool) -> Image.Image:
    """A maskable icon fills the square (the platform cuts its own shape) and keeps the star in the
    safe zone, the centre circle of 80%; an ordinary one has rounded corners like the favicon."""
    scale = 4  # drawn large, then reduced, for smooth edges
    big = size * scale
    image = Image.new("RGBA", (big, big), (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    if maskable:
        draw.rectangle((0, 0, big, big), fill=OLIVE)
        outer = big * 0.30
    else:
        draw.rounded_rectangle((0, 0, big - 1, big - 1), radius=big * 12 // 64, fill=OLIVE)
        outer = big * 0.38
    draw.polygon(star(big / 2, big * 0.53, outer), fill=KHAKI)
    return image.resize((size, size), Image.Resampling.LANCZOS)


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for size in (192, 512):
        icon(size, maskable=False).save(OUT / f"icon-{size}.png", optimize=True)
    icon(512, maskable=True).save(OUT / "icon-maskable-512.png", optimize=True)
    # iOS ignores the manifest's icons and wants an opaque square; it rounds the corners itself.
    icon(180, maskable=True).convert("RGB").save(OUT / "apple-touch-icon.png", optimize=True)


if __name__ == "__main__":
    main()

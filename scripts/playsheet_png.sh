#!/usr/bin/env bash
# Render every kind of playsheet PDF from the dev database, then each page to a PNG to look at.
#
#   scripts/playsheet_png.sh            # every edition's sheet, and the latest list that has units
#   scripts/playsheet_png.sh 3 4        # the same, for lists 3 and 4
#
# Writes out/playsheets/*.pdf and *-<page>.png (git-ignored). OUT_DIR, DPI, LANGS and PAPERS
# override the defaults. Needs the reference data (make data) and Debian's poppler-utils.
set -euo pipefail
cd "$(dirname "$0")/.."

OUT_DIR=${OUT_DIR:-out/playsheets}
DPI=${DPI:-60}
LANGS=${LANGS:-en fr}
PAPERS=${PAPERS:-a4 letter}

command -v pdftoppm >/dev/null || { echo "pdftoppm is missing: apt-get install poppler-utils" >&2; exit 1; }
mkdir -p "$OUT_DIR"
rm -f "$OUT_DIR"/*.pdf "$OUT_DIR"/*.png

DJANGO_SETTINGS_MODULE=armybuilder.settings PYTHONPATH=. .venv/bin/python - "$OUT_DIR" "$LANGS" "$PAPERS" "$@" <<'PY'
from __future__ import annotations

import sys
from pathlib import Path

import django

django.setup()

from django.db.models import Count
from django.utils import translation

from armybuilder.lists.models import ArmyList
from armybuilder.playsheets import pdf
from armybuilder.playsheets.context import list_context, reference_sheet_context
from armybuilder.reference.models import Edition

out, langs, papers, *ids = sys.argv[1:]
out_dir = Path(out)
langs, papers = langs.split(), papers.split()


def write(name: str, data: bytes) -> None:
    (out_dir / name).write_bytes(data)
    print(f"{out_dir / name}  {len(data) // 1024} KB")


for edition in Edition.objects.all():
    for lang in langs:
        for paper in papers:
            with translation.override(lang):
                data = pdf.render_pdf(pdf.SHEET_TEMPLATE, reference_sheet_context(edition, paper=paper))
            write(f"sheet-{edition.slug}-{lang}-{paper}.pdf", data)

lists = ArmyList.objects.active().for_builder()
if ids:
    chosen = list(lists.filter(pk__in=[int(i) for i in ids]))
else:
    latest = ArmyList.objects.active().annotate(n=Count("entries")).filter(n__gt=0).order_by("-updated_at").first()
    chosen = list(lists.filter(pk=latest.pk)) if latest else []
    if not chosen:
        print("No list with units in the dev database: build one, or pass list ids.", file=sys.stderr)
kinds = {"roster": ("roster",), "cards": ("cards",), "playsheet": ("roster", "summary")}
for army_list in chosen:
    for lang in langs:
        for kind, parts in kinds.items():
            with translation.override(lang):
                data = pdf.render_pdf("playsheets/list_document.html", list_context(army_list, paper=papers[0], parts=parts))
            write(f"list{army_list.pk}-{kind}-{lang}-{papers[0]}.pdf", data)
PY

for file in "$OUT_DIR"/*.pdf; do
  pdftoppm -png -r "$DPI" "$file" "${file%.pdf}"
done
echo "PNG pages: $(ls "$OUT_DIR"/*.png | wc -l) in $OUT_DIR"

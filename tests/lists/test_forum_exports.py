"""A list as Markdown (Discord) and BBCode (forums), compact and full, and every list of mine in one zip."""

from __future__ import annotations

import io
import json
import zipfile

import pytest
from django.test import Client

from armybuilder.catalogue.models import Unit
from armybuilder.lists.models import ArmyList
from tests.builtin_data import V2_NATIONS, module_data
from tests.lists.factories import make_entry, make_list, make_platoon, make_user

built_in = module_data(*V2_NATIONS)


@pytest.fixture
def grenadiers(built_in, alice):
    """A German 2nd-edition list from the built-in data: a Leutnant, two grenadier squads (one with an
    LMG), an MMG team and a Panzer IV."""
    units = Unit.objects.filter(army__edition__slug="v2", army__name="Germany")
    army = units.first().army
    army_list = make_list(owner=alice, army=army, name="Grenadiers at Caen", points_limit=1000, force_org="platoons")
    platoon = make_platoon(army_list, kind="reinforced_platoon", name="1. Zug")
    squad = units.get(name="Heer Grenadier Squad")
    lmg = squad.options.get(name__icontains="LMG")
    make_entry(
        army_list, units.get(name="Second Lieutenant (Leutnant)"), platoon=platoon, quality="regular", position=0
    )
    make_entry(army_list, squad, platoon=platoon, quality="regular", models_count=8, options={lmg.slug: 1}, position=1)
    make_entry(
        army_list,
        units.get(name="Heer Veteran Grenadier Squad"),
        platoon=platoon,
        quality="veteran",
        models_count=5,
        position=2,
    )
    make_entry(army_list, units.get(name="Medium Machine Gun Team"), platoon=platoon, quality="regular", position=3)
    make_entry(army_list, units.get(name="Panzer IV Ausf G"), platoon=platoon, quality="regular", position=4)
    return army_list


@pytest.mark.django_db
def test_markdown_full_reads_as_a_discord_post(alice_client, grenadiers):
    response = alice_client.get(f"/lists/{grenadiers.pk}/export.md")
    assert response.status_code == 200 and response["Content-Type"] == "text/markdown; charset=utf-8"
    text = response.text
    print(text)  # looked at as text: `pytest -s` shows it
    lines = text.splitlines()
    assert lines[0] == "## Grenadiers at Caen"
    assert lines[1].startswith("Germany · 2nd edition · **") and lines[1].endswith("order dice")
    assert "**1. Zug (" in text
    assert any(line.startswith("- Heer Grenadier Squad (Regular, 8 models): ") and "LMG" in line for line in lines)
    assert "- Second Lieutenant (Leutnant) (Regular, 1 model) – 50 pts" in lines
    assert "- Panzer IV Ausf G (Regular, 1 model) – " in text
    assert "**Officers**" in text and "command range" in text
    assert lines[-1] == "Built with Muster"
    # The points in the post are the list's points.
    total = sum(
        int(line.rsplit("– ", 1)[1].removesuffix(" pts")) for line in lines if line.startswith("- ") and "pts" in line
    )
    assert f"**{total} / 1000 pts**" in lines[1]


@pytest.mark.django_db
def test_compact_is_one_line_a_unit_without_options(alice_client, grenadiers):
    for kind, item in (("md", "- "), ("bbcode", "[*]")):
        text = alice_client.get(f"/lists/{grenadiers.pk}/export.{kind}?style=compact").text
        units = [line for line in text.splitlines() if line.startswith(item)]
        assert len(units) == 5, text
        assert all(":" not in line.split(")")[1] for line in units), units  # no option lists
        assert "Officers" not in text


@pytest.mark.django_db
def test_bbcode_full_wraps_each_platoon_in_a_list(alice_client, grenadiers):
    text = alice_client.get(f"/lists/{grenadiers.pk}/export.bbcode").text
    print(text)
    assert text.startswith("[size=150][b]Grenadiers at Caen[/b][/size]\n")
    assert text.count("[list]") == text.count("[/list]") == 2  # the platoon, the officers: a legal list
    assert "[*]Heer Veteran Grenadier Squad (Veteran, 5 models) – 65 pts" in text


@pytest.mark.django_db
def test_names_never_become_markup(alice_client, grenadiers):
    ArmyList.objects.filter(pk=grenadiers.pk).update(name="**win** [url=https://evil.example]x[/url] <b>")
    markdown = alice_client.get(f"/lists/{grenadiers.pk}/export.md").text.splitlines()[0]
    assert markdown == "## \\*\\*win\\*\\* \\[url=https://evil.example\\]x\\[/url\\]"  # shown as typed
    bbcode = alice_client.get(f"/lists/{grenadiers.pk}/export.bbcode").text.splitlines()[0]
    assert "[url" not in bbcode and "［url=https://evil.example］x［/url］" in bbcode


@pytest.mark.django_db
def test_the_shared_page_offers_both_and_strangers_get_nothing_private(grenadiers):
    client = Client()  # a visitor with the link, not signed in
    token = grenadiers.share_token
    page = client.get(f"/s/{token}/").content.decode()
    assert f"/s/{token}/export.md" in page and f"/s/{token}/export.bbcode" in page
    assert client.get(f"/s/{token}/export.md").text.startswith("## Grenadiers at Caen")
    assert client.get(f"/s/{token}/export.bbcode")["X-Robots-Tag"] == "noindex"
    # Without the link, another visitor cannot read the list by its number.
    assert client.get(f"/lists/{grenadiers.pk}/export.md").status_code == 404
    assert client.get(f"/lists/{grenadiers.pk}/export.pdf").status_code == 404  # no such format


@pytest.mark.django_db
def test_the_builder_links_each_format(alice_client, grenadiers):
    page = alice_client.get(f"/lists/{grenadiers.pk}/").content.decode()
    for link in ("export.md", "export.md?style=compact", "export.bbcode", "export.bbcode?style=compact"):
        assert f"/lists/{grenadiers.pk}/{link}" in page


@pytest.mark.django_db
def test_export_all_zips_every_list_of_mine_and_nothing_else(alice_client, alice, grenadiers):
    bob = make_user("bob")
    second = make_list(owner=alice, army=grenadiers.army, name="Grenadiers at Caen", points_limit=500)
    make_list(owner=bob, army=grenadiers.army, name="Bob's secret")
    trashed = make_list(owner=alice, army=grenadiers.army, name="Old")
    alice_client.post(f"/lists/{trashed.pk}/delete/")
    assert 'id="export-all"' in alice_client.get("/lists/").content.decode()
    response = alice_client.get("/lists/export-all.zip")
    assert response["Content-Type"] == "application/zip"
    archive = zipfile.ZipFile(io.BytesIO(response.content))
    names = sorted(archive.namelist())
    assert names == sorted(
        f"{army_list.pk}-grenadiers-at-caen.{ext}" for army_list in (grenadiers, second) for ext in ("json", "txt")
    )
    # Each JSON imports again as the same list.
    exported = json.loads(archive.read(f"{grenadiers.pk}-grenadiers-at-caen.json"))
    assert exported == alice_client.get(f"/lists/{grenadiers.pk}/export.json").json()


@pytest.mark.django_db
def test_export_all_with_no_lists_says_so(client):
    response = client.get("/lists/export-all.zip", follow=True)
    assert response.redirect_chain == [("/lists/", 302)]
    assert "You have no lists to export yet." in response.content.decode()
    assert 'id="export-all"' not in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("de", ("Deutschland · 2. Edition · **", "Befehlswürfel", "**Offiziere**", "Modelle)", "Erstellt mit Muster")),
        ("fr", ("Allemagne", "dés d'ordre", "**Officiers**", "Fait avec Muster")),
    ],
)
def test_the_exports_speak_the_visitors_language(alice_client, grenadiers, language, words):
    # A German player posts to a German forum: the frame's words are German like the names.
    alice_client.cookies["django_language"] = language
    markdown = alice_client.get(f"/lists/{grenadiers.pk}/export.md").text
    print(markdown)  # looked at as text: `pytest -s` shows it
    for word in words:
        assert word in markdown, word
    assert "order dice" not in markdown and "Built with" not in markdown
    bbcode = alice_client.get(f"/lists/{grenadiers.pk}/export.bbcode").text
    assert words[-1] in bbcode and "[list]" in bbcode
    text = alice_client.get(f"/lists/{grenadiers.pk}/export.txt").text
    assert words[-1] in text and "Points:" not in text

"""The staff page that imports catalogue files (``/catalogue/import/``): the command, on the web.

Uploads are bounded twice: a request larger than the page accepts is refused from its
``Content-Length`` before anything is parsed, and an upload handler stops receiving any file as
soon as it passes the 20 MB per-file limit, so an oversized file is never stored whole. That
handler has to be installed before the request body is read, and Django's CSRF middleware reads
it first; so the view is marked ``csrf_exempt`` and checks CSRF itself with ``csrf_protect``
once the handler is in place (the pattern Django's upload-handler docs give).

The form is checked here (sizes, kinds of file, the repository's name), and refusals are shown
next to it at once. What passes is imported by the task worker (``jobs``), whether files (kept
with the job until the worker has read them) or a GitHub repository to download: the POST answers
with the job's report fragment (htmx, only the ``#import-report`` partial), which polls until the
report is in, or redirects to the job's page (``jobs/<id>/``), which reloads itself until then.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable
from functools import wraps
from typing import Any

from django import forms
from django.contrib.admin.views.decorators import staff_member_required
from django.core.exceptions import PermissionDenied
from django.core.files.uploadedfile import UploadedFile
from django.core.files.uploadhandler import FileUploadHandler, SkipFile
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.csrf import csrf_exempt, csrf_protect
from django.views.decorators.http import require_http_methods, require_safe
from django.views.decorators.vary import vary_on_headers

from armybuilder import jobs as pipeline
from armybuilder.http import HtmxHttpRequest
from armybuilder.importers import jobs
from armybuilder.importers.compare import compare_sources
from armybuilder.importers.models import ImportJob
from armybuilder.importers.source_list import source_row_of, source_rows
from armybuilder.reference.models import Edition
from armydata.builder_module import sniff_module
from armydata.github import parse_repository
from armydata.safety import MAX_FILE_BYTES, CatalogueImportError

ALLOWED_SUFFIXES = (".gst", ".cat", ".gstz", ".catz", ".zip", ".json")
MAX_UPLOAD_FILES = 100
MAX_REQUEST_BYTES = 100 * 1024 * 1024
TEMPLATE = "importers/upload.html"
COMPARE_TEMPLATE = "importers/compare.html"


def _megabytes(size: int) -> str:
    return f"{size // (1024 * 1024)} MB"


class SizeLimitUploadHandler(FileUploadHandler):
    """Stops receiving a file once it passes the per-file limit and remembers its name."""

    def __init__(self, request: HttpRequest | None = None) -> None:
        super().__init__(request)
        self.received = 0
        self.refused: list[str] = []

    def new_file(self, *args: Any, **kwargs: Any) -> None:
        super().new_file(*args, **kwargs)
        self.received = 0

    def receive_data_chunk(self, raw_data: bytes, start: int) -> bytes:
        self.received += len(raw_data)
        if self.received > MAX_FILE_BYTES:
            self.refused.append(self.file_name or "?")
            raise SkipFile
        return raw_data

    def file_complete(self, file_size: int) -> None:
        return None


class MultipleFileInput(forms.ClearableFileInput):
    allow_multiple_selected = True


class MultipleFileField(forms.FileField):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        # No "accept" filter: an army-builder module often has no extension, and a file picker
        # filtered by suffixes would grey it out. The form checks every file instead.
        kwargs.setdefault("widget", MultipleFileInput())
        super().__init__(*args, **kwargs)

    def clean(self, data: Any, initial: Any = None) -> list[UploadedFile]:
        single = super().clean
        if isinstance(data, (list, tuple)):
            return [single(item, initial) for item in data]
        return [single(data, initial)]


class CatalogueUploadForm(forms.Form):
    files = MultipleFileField(
        required=False,
        label=gettext_lazy("Files"),
        help_text=gettext_lazy(
            "BattleScribe .gst and .cat (or .gstz, .catz, .zip), Barracks armies.json, core.json and the "
            "units files, or a Bolt Action army-builder module (JSON, any name, often no extension); several "
            "at once. 20 MB at most per file."
        ),
    )
    github = forms.CharField(
        required=False,
        max_length=200,
        label=gettext_lazy("Or a GitHub repository"),
        help_text=gettext_lazy(
            "OWNER/REPO, or OWNER/REPO@BRANCH: its .gst and .cat files are downloaded and imported, e.g. "
            "BSData/boltaction (2nd edition) or Jelle-Kuipers/Bolt-Action-Third-Edition-NRData (3rd edition)."
        ),
        widget=forms.TextInput(
            attrs={"placeholder": "BSData/boltaction", "autocomplete": "off", "spellcheck": "false"}
        ),
    )
    edition = forms.ChoiceField(
        label=gettext_lazy("Edition"),
        required=False,
        help_text=gettext_lazy("Leave on “detect” unless the data's edition cannot be read from it."),
    )
    dry_run = forms.BooleanField(
        label=gettext_lazy("Dry run: check the files and show the report, write nothing"), required=False
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        editions = Edition.objects.order_by("number").values_list("slug", "name")
        self.fields["edition"].choices = [("", _("Detect from the data")), *editions]

    def clean_github(self) -> str:
        text = self.cleaned_data["github"].strip()
        if text:
            try:
                parse_repository(text)
            except CatalogueImportError as exc:
                raise forms.ValidationError(exc.message) from exc
        return text

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean()
        if not self.errors and not cleaned.get("files") and not cleaned.get("github"):
            raise forms.ValidationError(_("Choose files to upload or name a GitHub repository."))
        return cleaned

    def clean_files(self) -> list[UploadedFile]:
        uploads: list[UploadedFile] = [upload for upload in self.cleaned_data["files"] if upload]
        if len(uploads) > MAX_UPLOAD_FILES:
            raise forms.ValidationError(_("At most %(count)s files at once.") % {"count": MAX_UPLOAD_FILES})
        names: set[str] = set()
        for upload in uploads:
            name = upload.name or ""
            # The size is known from the upload before any of it is read into memory.
            if (upload.size or 0) > MAX_FILE_BYTES:
                raise forms.ValidationError(
                    _("%(name)s is larger than %(limit)s, the limit per file.")
                    % {"name": name, "limit": _megabytes(MAX_FILE_BYTES)}
                )
            if not name.lower().endswith(ALLOWED_SUFFIXES) and not _is_module(upload):
                raise forms.ValidationError(
                    _("%(name)s is not a catalogue file (%(suffixes)s, or an army-builder module).")
                    % {"name": name, "suffixes": ", ".join(ALLOWED_SUFFIXES)}
                )
            if name in names:
                raise forms.ValidationError(_("Two files are named %(name)s.") % {"name": name})
            names.add(name)
        return uploads


def _is_module(upload: UploadedFile) -> bool:
    """Whether an upload of any name is an army-builder module: its content says (bounded by the size check)."""
    data = upload.read()
    upload.seek(0)
    return sniff_module(upload.name or "", data)


def _staff_only(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """``staff_member_required``, except that a signed-in non-staff user gets a 403.

    Redirecting them to the login page would loop: it sends signed-in users straight back.
    """
    guarded = staff_member_required(view, login_url="login")

    @wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.user.is_authenticated and not request.user.is_staff:
            raise PermissionDenied
        return guarded(request, *args, **kwargs)

    return wrapper


def _render(
    request: HtmxHttpRequest,
    form: CatalogueUploadForm,
    *,
    errors: list[str] | None = None,
    job: ImportJob | None = None,
) -> HttpResponse:
    # Refusals are 200 like successes: htmx swaps only 2xx responses, and the report is the answer.
    template = f"{TEMPLATE}#import-report" if request.htmx else TEMPLATE
    errors = list(errors or [])
    result = None
    if job is not None:
        if job.is_done:
            result = job.report
        elif job.is_failed:
            errors.append(_job_error(job))
    context = {"form": form, "errors": errors, "result": result, "job": job, "poll_seconds": pipeline.POLL_SECONDS}
    if not request.htmx:
        context["sources"] = source_rows()
    elif job is not None and job.is_done and not job.dry_run and not job.is_upload:
        # The source's card on the page shows its new last import (an out-of-band swap).
        context["refreshed_source"] = source_row_of(job)
    response = render(request, template, context)
    if job is not None:
        response["Cache-Control"] = "no-store"  # a job's report changes while it runs
    return response


def _job_error(job: ImportJob) -> str:
    if job.is_stale:
        return _("The worker stopped during the import. Nothing was imported; start it again.")
    if job.error:
        return _("%(reason)s. Nothing was imported.") % {"reason": job.error}
    return _("The import failed unexpectedly. Nothing was imported.")


@csrf_exempt
@require_http_methods(["GET", "HEAD", "POST"])
@_staff_only
@vary_on_headers("HX-Request")
def catalogue_import(request: HtmxHttpRequest) -> HttpResponse:
    if request.method == "POST":
        length = request.META.get("CONTENT_LENGTH") or "0"
        if not length.isdigit() or int(length) > MAX_REQUEST_BYTES:
            message = _("The upload is larger than %(limit)s in total; send fewer files at once.") % {
                "limit": _megabytes(MAX_REQUEST_BYTES)
            }
            return _render(request, CatalogueUploadForm(), errors=[message])
        request.upload_handlers.insert(0, SizeLimitUploadHandler(request))
    return _catalogue_import(request)


@csrf_protect
def _catalogue_import(request: HtmxHttpRequest) -> HttpResponse:
    if request.method != "POST":
        return _render(request, CatalogueUploadForm())
    form = CatalogueUploadForm(request.POST, request.FILES)
    limiter = request.upload_handlers[0]
    refused = limiter.refused if isinstance(limiter, SizeLimitUploadHandler) else []
    if refused:
        errors = [
            _("%(name)s is larger than %(limit)s, the limit per file. Nothing was imported.")
            % {"name": name, "limit": _megabytes(MAX_FILE_BYTES)}
            for name in refused
        ]
        return _render(request, form, errors=errors)
    if not form.is_valid():
        return _render(request, form)
    options = {"edition": form.cleaned_data["edition"], "dry_run": form.cleaned_data["dry_run"]}
    if form.cleaned_data["github"]:
        if form.cleaned_data["files"]:
            message = _("Import files and a GitHub repository one at a time. Nothing was imported.")
            return _render(request, form, errors=[message])
        # Downloading and importing a repository takes seconds to a minute: the task worker does it.
        job = jobs.enqueue_github_import(form.cleaned_data["github"], user=request.user, **options)
    else:
        # So does importing uploaded files (a whole module takes long): they wait with the job.
        files = {upload.name or "": upload.read() for upload in form.cleaned_data["files"]}
        try:
            job = jobs.enqueue_upload_import(files, request=request, **options)
        except pipeline.Refused as refused:
            return refused.response
    if not request.htmx:
        return redirect("imp-catalogue-import-job", job=job.pk)
    job = ImportJob.objects.get(pk=job.pk)  # as the task left it, if it has run already
    return _render(request, CatalogueUploadForm(initial={"dry_run": job.dry_run}), job=job)


@require_safe
@_staff_only
@vary_on_headers("HX-Request")
def catalogue_import_job(request: HtmxHttpRequest, job: uuid.UUID) -> HttpResponse:
    """An import the worker runs: its progress, then its report (the page polls while it runs)."""
    import_job = get_object_or_404(ImportJob, pk=job)
    return _render(request, CatalogueUploadForm(initial={"dry_run": import_job.dry_run}), job=import_job)


@require_safe
@_staff_only
def compare_imported_sources(request: HttpRequest) -> HttpResponse:
    """Where two sources of one army (same edition and nation) give a unit different costs or sizes."""
    editions = list(Edition.objects.order_by("number"))
    edition = request.GET.get("edition", "")
    if edition not in {choice.slug for choice in editions}:
        edition = ""
    comparisons = compare_sources(edition or None)
    context = {
        "comparisons": comparisons,
        "editions": editions,
        "edition": edition,
        "disagreeing": sum(len(comparison.disagreements) for comparison in comparisons),
    }
    return render(request, COMPARE_TEMPLATE, context)

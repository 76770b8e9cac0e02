/* The builder's few touches that need JavaScript (the page works without it):
   - "Copy link" copies the share link (the link stays readable and selectable without it);
   - an editor just opened takes the focus; a change, "Done" or Escape closes it, the focus back
     on its row's link; a row just added is scrolled into view, below the sticky summary (CSS
     scroll-margin-top). */
(function () {
  "use strict";

  function setUpCopy(root) {
    root.querySelectorAll("[data-copy]").forEach(function (button) {
      if (!navigator.clipboard) return;
      button.hidden = false;
      button.addEventListener("click", function () {
        var field = document.querySelector(button.getAttribute("data-copy"));
        navigator.clipboard.writeText(field.value).then(function () {
          button.textContent = button.getAttribute("data-copied");
        });
      });
    });
  }

  document.addEventListener("DOMContentLoaded", function () { setUpCopy(document); });

  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail.elt;
    if (!target || !target.closest) return;
    var row = target.closest(".unit-row") || target;
    if (row.id === "builder") setUpCopy(row);
    var trigger = event.detail.requestConfig && event.detail.requestConfig.elt;
    // Opened with the row's link: the editor's heading takes the focus (keyboard, screen readers).
    if (trigger && trigger.classList && trigger.classList.contains("unit-open")) {
      var opened = document.getElementById(trigger.id.replace(/-open$/, "-name"));
      if (opened) opened.focus({ preventScroll: true });
    }
    // A change in an editor (or "Done", or Escape) closed it: the focus goes back to the unit's
    // row link, so Enter opens it again. (A refused change answers the editor again: htmx puts the
    // focus back on the field, whose id is the same.)
    var editor = trigger && trigger.closest && trigger.closest(".unit-row.is-open");
    if (editor && !editor.isConnected) {
      var link = document.getElementById(editor.id + "-open");
      if (link) link.focus({ preventScroll: true });
    }
  });

  // Escape in a unit's editor closes it, as its "Done" link does.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || !event.target.closest) return;
    var editor = event.target.closest(".unit-row.is-open");
    var done = editor && editor.querySelector(".editor-close");
    if (done) done.click();
  });

  document.addEventListener("htmx:oobAfterSwap", function (event) {
    var added = event.detail.target && event.detail.target.querySelector && event.detail.target.querySelector(".unit-row.is-new");
    if (added) added.scrollIntoView({ block: "nearest" });
  });
})();

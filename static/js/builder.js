/* The builder's touches that need JavaScript (the page works without it):
   - "Copy link" copies the share link (the link stays readable and selectable without it);
   - a unit's editor stays open across changes: the server's answer is morphed into it (idiomorph's
     "morph" htmx extension), so its forms and the focused control stay the same elements;
   - opening and closing an editor cost no request when the browser already has it: "Done",
     Escape or opening another unit close it locally (its closed row comes with each answer), and
     a closed editor is kept to open again at once until anything else in the list changes;
     every unit's editor is fetched in one background request once the page has loaded (and
     again, once things are quiet, after a change to the list), so any unit opens locally; when
     that copy is missing or out of date a first opening is fetched from the moment the finger
     or the mouse button goes down, and a unit just added has its editor fetched at once;
   - a unit moved (up, down, to another platoon) keeps its editor open, the focus on the control
     used;
   - Enter in a field whose change was just sent sends nothing more (the change is the request);
   - "Remove" and "Duplicate" show their result at once (the row goes or a greyed copy appears,
     the totals move), put back just before the server's answer is swapped in, so the page
     always ends with the server's figures; a failed request puts the row back with a message;
   - "Add" shows the unit's row (pending) and the totals at once, priced by the server ahead
     (the Add button's data), and the answer replaces them; quick taps are sent one after the
     other, each with its own unit (see "Add at once");
     their request waits for the unit's changes made before the tap (so the server copies or
     removes the unit the player saw);
   - a change of men, quality or options shows the unit's points and the totals at once, priced
     from the editor's price table, and the server's answer has the last word (see below);
   - an editor's changes are sent one at a time, in order, so no answer is older than the page
     (a men, quality or option change once its guess is painted: see "One change at a time");
   - a row just added is scrolled into view, below the sticky summary (CSS scroll-margin-top). */
(function () {
  "use strict";

  // The builder's decisions without a page (pricing, sending in order): static/js/builder_logic.js,
  // loaded first and tested by Node.
  var logic = window.MusterBuilder;

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

  // --- Morphing an answer into an open editor -------------------------------------------------
  //
  // An answer to a change is the unit's editor again, morphed into the open one by idiomorph's
  // htmx extension ("morph", static/vendor/idiomorph/, loaded after htmx): the editor stays open,
  // its forms and controls stay the same elements (``outstanding`` counts changes by form, and a
  // change queued behind another is sent from the element it was made in), and the focused
  // control keeps the focus. What the builder adds, through idiomorph's documented callbacks
  // (``Idiomorph.defaults``: only the editors morph on this page):
  // - a control's attributes (its default) follow the answer, but not its live state (what it
  //   shows) while a change of its form is on its way (a later answer has it), nor the value of
  //   the field the player is in (an answer never overwrites typing);
  // - the closed row kept in a template takes the answer's copy whole (inert content: nothing to
  //   keep, and no id of it is matched against the editor's own).

  var liveSelects = new Map(); // a select keeping its choice -> that choice, during its morph

  function keepsLiveState(control) {
    if (control.form && (outstanding.get(control.form) || 0) > 0) return true; // a change not yet answered
    var typedIn = control.nodeName === "INPUT" && control.type !== "checkbox" && control.type !== "radio";
    return typedIn && control === document.activeElement;
  }

  function setUpMorph() {
    if (!window.Idiomorph) return;
    var callbacks = window.Idiomorph.defaults.callbacks;
    callbacks.beforeNodeMorphed = function (from, to) {
      if (from.nodeName === "TEMPLATE") {
        from.content.replaceChildren(document.importNode(to.content, true));
        return false;
      }
      if (from.nodeName === "INPUT" && keepsLiveState(from)) {
        // idiomorph copies the answer's live state: the answer is given the page's.
        if (from.type === "checkbox" || from.type === "radio") to.checked = from.checked;
        else to.value = from.value;
      } else if (from.nodeName === "SELECT" && keepsLiveState(from)) {
        liveSelects.set(from, from.value); // its options' attributes may move the choice: put back after
      }
      return true;
    };
    callbacks.afterNodeMorphed = function (from) {
      if (!liveSelects.has(from)) return;
      var value = liveSelects.get(from);
      liveSelects.delete(from);
      if (from.value !== value) from.value = value;
    };
  }

  // --- Opening and closing an editor without a request -----------------------------------------

  var closedEditors = new Map(); // row id -> its editor, closed, ready to open again
  var fetching = new Map(); // row id -> the editor's HTML, on its way
  var busy = new Map(); // editor -> requests under way from it
  var busyBy = new WeakMap(); // request -> the editor it is counted in ``busy`` for
  var closeWhenDone = new Set(); // editors "Done" was asked of while a change was under way

  function fetchEditor(link) {
    var id = link.closest(".unit-row").id;
    if (!fetching.has(id)) {
      var html = fetch(link.getAttribute("hx-get"), {
        headers: { "HX-Request": "true" },
        credentials: "same-origin",
        cache: "no-store",
      }).then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.text();
      });
      html.catch(function () {
        if (fetching.get(id) === html) fetching.delete(id); // the next opening asks again
      });
      fetching.set(id, html);
    }
    return fetching.get(id);
  }

  // --- Every unit's editor, fetched in the background --------------------------------------
  //
  // One request for all of them (gzipped, about 13 KB for 50 units), after the page has loaded:
  // not with the page, whose size stays as it was. Each is kept as a closed editor until the list
  // changes. Its answer is used only if no request was sent while it was on its way (a change
  // might be missing from it); otherwise it is asked for again once the page is quiet.

  var generation = 0; // moves with every request the page sends
  var inFlight = 0;
  var allWanted = true; // the kept editors are not (or no longer) every unit's
  var allTimer = null;

  function whenIdle(callback) {
    if (window.requestIdleCallback) window.requestIdleCallback(callback, { timeout: 2000 });
    else setTimeout(callback, 200);
  }

  function scheduleAll(delay) {
    clearTimeout(allTimer);
    allTimer = setTimeout(function () { whenIdle(fetchAllEditors); }, delay);
  }

  function fetchAllEditors() {
    var roster = document.getElementById("roster");
    var url = roster && roster.getAttribute("data-editors");
    if (!url || !allWanted) return;
    if (inFlight > 0) return scheduleAll(1000); // after the answers under way
    var asked = generation;
    fetch(url, { headers: { "HX-Request": "true" }, credentials: "same-origin", cache: "no-cache" })
      .then(function (response) {
        if (!response.ok) throw new Error(response.status);
        return response.text();
      })
      .then(function (html) {
        if (asked !== generation) return scheduleAll(1000); // the list changed meanwhile
        var template = document.createElement("template");
        template.innerHTML = html;
        Array.prototype.forEach.call(template.content.children, function (editor) {
          var row = document.getElementById(editor.id);
          if (row && !row.classList.contains("is-open") && !closedEditors.has(editor.id)) {
            closedEditors.set(editor.id, editor);
          }
        });
        allWanted = false;
        var now = document.getElementById("roster");
        if (now) now.setAttribute("data-editors-kept", String(closedEditors.size));
      })
      .catch(function () {}); // no copy: an opening asks for its editor, as without it
  }

  function forgetEditors() {
    closedEditors.clear();
    fetching.clear();
    allWanted = true;
    var roster = document.getElementById("roster");
    if (roster) roster.removeAttribute("data-editors-kept");
  }

  function parse(html) {
    var template = document.createElement("template");
    template.innerHTML = html.trim();
    return template.content.firstElementChild;
  }

  function closeEditor(editor, focus) {
    if ((busy.get(editor) || 0) > 0 || waiting(editor)) {
      closeWhenDone.add(editor); // its answer first: the closed row shows the change
      return;
    }
    var template = editor.querySelector(":scope > template.closed-row");
    if (!template || !editor.isConnected) return;
    var row = template.content.firstElementChild.cloneNode(true);
    editor.replaceWith(row);
    window.htmx.process(row);
    closedEditors.set(editor.id, editor);
    if (focus) {
      var link = document.getElementById(editor.id + "-open");
      if (link) link.focus({ preventScroll: true });
    }
  }

  function openEditor(link) {
    var id = link.closest(".unit-row").id;
    document.querySelectorAll(".unit-row.is-open").forEach(function (other) {
      if (other.id !== id) closeEditor(other, false);
    });
    var kept = closedEditors.get(id);
    // A fetch started early (a finger down, a unit just added) that failed is tried once more.
    var ready = kept
      ? Promise.resolve(kept)
      : fetchEditor(link).catch(function () { return fetchEditor(link); }).then(parse);
    ready.then(
      function (editor) {
        fetching.delete(id);
        var row = document.getElementById(id);
        if (!row || row.classList.contains("is-open") || !editor) return;
        closedEditors.delete(id);
        row.replaceWith(editor);
        window.htmx.process(editor);
        var heading = document.getElementById(id + "-name");
        if (heading) heading.focus({ preventScroll: true });
      },
      function () {
        fetching.delete(id);
        window.location.href = link.href; // the page with the editor open
      }
    );
  }

  // Capture: before htmx's own handler on the link, which would fetch the editor again.
  document.addEventListener(
    "click",
    function (event) {
      if (!event.target.closest || event.button !== 0 || event.ctrlKey || event.metaKey || event.shiftKey) return;
      var link = event.target.closest(".unit-open");
      var done = !link && event.target.closest(".editor-close");
      if (!link && !done) return;
      if (link && link.closest(".is-pending")) {
        event.preventDefault(); // a row not answered yet (a copy, a unit being added): nothing to open
        event.stopPropagation();
        return;
      }
      event.preventDefault();
      event.stopPropagation();
      if (link) openEditor(link);
      else closeEditor(done.closest(".unit-row.is-open"), true);
    },
    true
  );

  document.addEventListener("pointerdown", function (event) {
    var link = event.target.closest && event.target.closest(".unit-open");
    if (!link || link.closest(".is-pending")) return; // not in the list yet: nothing to fetch
    if (event.button === 0 && !closedEditors.has(link.closest(".unit-row").id)) fetchEditor(link);
  });

  // Escape in a unit's editor closes it, as its "Done" link does.
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape" || !event.target.closest) return;
    var editor = event.target.closest(".unit-row.is-open");
    if (editor) closeEditor(editor, true);
  });

  // --- Remove and duplicate at once ---------------------------------------------------------
  //
  // Shown at the tap (the row goes or a greyed copy appears, the totals move), whether their
  // request is sent then or waits behind the unit's changes (see "One change at a time"). While
  // they wait, the answers to those changes rewrite the figures and morph the editor: the
  // previews are laid again on whatever the page then shows (``previewFigures``). Until its
  // request is sent, a preview moves the totals by the unit's points as shown at the tap (a
  // guess, maybe): a change made after the tap is not in the copy. Once sent, the changes before
  // it are all answered: the unit as the server has it is what it copies or removes.

  var pending = new WeakMap(); // request -> how to put the page back as it was
  var previews = []; // shown, not yet answered: { id: the unit's row, removal, copy, closed }
  var shifted = new Map(); // figure id -> { el, base: its text without the previews, shown: with them }

  function plain(element) {
    // A figure's text as the server or a guess left it, without the previews laid on it.
    var known = element && shifted.get(element.id);
    if (known && known.el === element && element.textContent === known.shown) return known.base;
    return element ? element.textContent : "";
  }

  function rewritten(element) {
    // About to be written afresh (a guess, or putting one back): no preview in it any more.
    if (element) shifted.delete(element.id);
  }

  function shownPoints(row) {
    var figure = document.getElementById(row.id + "-points");
    var n = figure && figure.textContent.match(/-?\d+/);
    return n ? Number(n[0]) : Number(row.getAttribute("data-points")) || 0;
  }

  function copyOf(template) {
    var copy = template.content.firstElementChild.cloneNode(true);
    copy.removeAttribute("id");
    copy.querySelectorAll("[id]").forEach(function (el) { el.removeAttribute("id"); });
    copy.querySelectorAll("a").forEach(function (a) {
      a.removeAttribute("href");
      a.removeAttribute("hx-get");
    });
    copy.classList.add("is-pending");
    copy.setAttribute("aria-busy", "true");
    return copy;
  }

  function previewFigures() {
    var shifts = {};
    function add(id, points) { shifts[id] = (shifts[id] || 0) + points; }
    previews.forEach(function (preview) {
      if (preview.adding) {
        // A unit being added: its pending row is in the page, the totals move by it. Another
        // answer (a new platoon) may have redrawn the roster meanwhile: the row is laid again.
        if (!preview.row.isConnected) {
          var rows = document.getElementById(preview.group + "-rows") || document.getElementById("platoon-none-rows");
          if (rows) rows.appendChild(preview.row);
        }
        if (preview.points !== null) {
          add("summary-points", preview.points);
          add(preview.group + "-points", preview.points);
        }
        add("summary-dice", preview.dice);
        return;
      }
      var row = document.getElementById(preview.id);
      if (!row || !row.classList.contains("is-open")) return; // answered meanwhile: nothing to lay on
      var points = preview.sent ? Number(row.getAttribute("data-points")) || 0 : preview.points;
      if (preview.removal) {
        row.classList.add("is-leaving"); // an answer morphed into the editor has its own classes
        points = -points;
      } else {
        var template = row.querySelector(":scope > template.closed-row");
        if (preview.sent && template && template.innerHTML !== preview.closed) {
          // The editor answered a change meanwhile (its closed row is the answer's): the copy as
          // the unit now is.
          var fresh = copyOf(template);
          preview.copy.replaceWith(fresh);
          preview.copy = fresh;
          preview.closed = template.innerHTML;
        }
        if (row.nextElementSibling !== preview.copy) row.after(preview.copy); // moved meanwhile
        setFigure(preview.copy.querySelector(".unit-points"), points);
      }
      var group = row.closest("section.platoon");
      add("summary-points", points);
      if (group) add(group.id + "-points", points);
    });
    Array.from(shifted.keys()).concat(Object.keys(shifts)).forEach(function (id) {
      var element = document.getElementById(id);
      var base = plain(element);
      var delta = shifts[id] || 0;
      shifted.delete(id);
      if (!element) return;
      element.textContent = base;
      if (!delta) return;
      addToFigure(element, delta);
      shifted.set(id, { el: element, base: base, shown: element.textContent });
    });
    markAdding();
  }

  function addToFigure(element, delta) {
    if (!element) return;
    element.textContent = element.textContent.replace(/-?\d+/, function (n) { return String(Number(n) + delta); });
  }

  // --- Add at once ---------------------------------------------------------------------------
  //
  // Each catalogue "Add" button carries the unit as the server adds it (its default quality and
  // base men, no option): name, points, order dice and facts, priced by the server (the
  // catalogue's ``added``). At the tap a pending row appears last in the platoon chosen in "Add
  // to" (where the server puts it) and the totals move; just before the server's answer is
  // swapped in, both are put back, so the answer (its row, its totals) has the last word. A
  // refusal (the list full, a unit no longer offered) answers its message and no totals: the page
  // is as it was, with the message. No answer at all: the same, with a message of our own. What
  // cannot be known cheaply ("n left", problems, officers) waits for the answer, marked.

  function markAdding() {
    // "n left" (and, for a unit the server could not price, the points) waits for the answer.
    var adding = previews.some(function (preview) { return preview.adding; });
    var note = document.querySelector("#summary-bar .summary-note");
    if (!note) return;
    note.classList.toggle("is-guess", adding);
    if (adding) note.setAttribute("aria-busy", "true");
    else note.removeAttribute("aria-busy");
  }

  function addedRow(button) {
    var row = document.createElement("li");
    row.className = "unit-row is-pending";
    row.setAttribute("aria-busy", "true");
    var look = document.createElement("a"); // as a closed row looks; nothing to open yet
    look.className = "unit-open";
    [
      ["unit-name", button.getAttribute("data-name")],
      ["unit-points", button.getAttribute("data-points") || "–"],
      ["unit-facts", button.getAttribute("data-facts")],
    ].forEach(function (part) {
      var span = document.createElement("span");
      span.className = part[0];
      span.textContent = part[1] || "";
      look.appendChild(span);
    });
    row.appendChild(look);
    return row;
  }

  function foreseeAdd(button, form) {
    var select = document.getElementById("add-platoon");
    var group = select && select.value ? "platoon-" + select.value : "platoon-none";
    var rows = document.getElementById(group + "-rows") || document.getElementById("platoon-none-rows");
    var points = count(button.getAttribute("data-points") || "");
    var preview = { adding: true, group: group, points: points, dice: count(button.getAttribute("data-dice") || "") || 0, row: addedRow(button) };
    if (rows) {
      rows.appendChild(preview.row);
      preview.row.scrollIntoView({ block: "nearest" });
    }
    previews.push(preview);
    previewFigures();
    function putBack() {
      var at = previews.indexOf(preview);
      if (at < 0) return;
      previews.splice(at, 1);
      preview.row.remove();
      previewFigures();
    }
    function failed() {
      // No answer, or an error: the server's message when it sent one is not ours to show.
      var errors = document.getElementById("add-errors");
      if (!errors) return;
      var list = document.createElement("ul");
      list.className = "errorlist";
      var item = document.createElement("li");
      item.textContent = form.getAttribute("data-failed");
      list.appendChild(item);
      errors.replaceChildren(list);
    }
    return { putBack: putBack, failed: failed };
  }

  // Taps on "Add" are shown at once and sent one after the other, each with the unit and the
  // platoon of its own tap: htmx would hold a second request of the form until the first is
  // answered, then send it (and any third, dropping the one between) with the last button tapped.
  // Uses htmx's documented "htmx:confirm" event, as the editors' queue does.
  var adds = logic.serialQueue({
    send: function (item) {
      issuing = item;
      try {
        item.send(true);
      } finally {
        issuing = null;
      }
      if (!item.xhr) return false;
      if (item.preview) pending.set(item.xhr, item.preview);
      return true; // the next once this one is answered
    },
    dropped: function (item) {
      if (item.preview) item.preview.putBack(); // not sent (the form is gone): nothing to show
    },
  });

  document.addEventListener("htmx:confirm", function (event) {
    var detail = event.detail;
    if (issuing || detail.elt.id !== "add-form") return;
    event.preventDefault();
    var trigger = detail.triggeringEvent;
    var button = trigger && trigger.submitter;
    adds.push({
      data: snapshot(detail.elt, trigger),
      send: detail.issueRequest,
      // Without the button's figures (none given): the answer alone shows the unit.
      preview: button && button.hasAttribute("data-points") ? foreseeAdd(button, detail.elt) : null,
    });
    adds.next();
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    if (!adds.current || adds.current.xhr !== event.detail.xhr) return;
    adds.answered();
    setTimeout(adds.next, 0); // htmx releases the form after this event
  });

  function foresee(button, editor) {
    var preview = {
      id: editor.id,
      removal: button.id === editor.id + "-remove",
      points: shownPoints(editor),
      sent: false,
      copy: null,
      closed: null, // the closed row the copy was made from
    };
    if (!preview.removal) {
      var template = editor.querySelector(":scope > template.closed-row");
      preview.copy = copyOf(template);
      preview.closed = template.innerHTML;
      editor.after(preview.copy);
    }
    previews.push(preview);
    previewFigures();
    function putBack() {
      var at = previews.indexOf(preview);
      if (at < 0) return;
      previews.splice(at, 1);
      editor.classList.remove("is-leaving");
      var row = document.getElementById(preview.id);
      if (row) row.classList.remove("is-leaving");
      if (preview.copy) preview.copy.remove();
      previewFigures();
    }
    putBack.sent = function () {
      preview.sent = true;
      previewFigures();
    };
    return putBack;
  }

  function refused(editor) {
    var form = editor.querySelector(".editor-actions");
    if (!form || !editor.isConnected) return;
    var id = editor.id + "-actions-errors";
    var list = document.getElementById(id);
    if (!list) {
      list = document.createElement("ul");
      list.id = id;
      list.className = "errorlist";
      list.setAttribute("role", "alert");
      form.after(list);
    }
    var item = document.createElement("li");
    item.textContent = form.getAttribute("data-failed");
    list.replaceChildren(item);
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail.elt;
    var editor = elt.closest && elt.closest(".unit-row.is-open");
    var reads = (event.detail.requestConfig && event.detail.requestConfig.verb) === "get";
    inFlight += 1;
    // A GET (the catalogue's filter) changes nothing. A change in the editor's body or its name
    // changes that unit only (its editor is answered); anything else may change other units'
    // editors (their move buttons, platoons): all dropped.
    if (!reads) generation += 1;
    if (!reads && (!editor || !(elt.closest(".editor-body") || elt.closest(".editor-rename")))) {
      forgetEditors();
    }
    if (editor) {
      busy.set(editor, (busy.get(editor) || 0) + 1);
      busyBy.set(event.detail.xhr, editor);
    }
    if (editor && (elt.id === editor.id + "-remove" || elt.id === editor.id + "-duplicate")) {
      // Shown at the tap already when it came through the editor's queue (as it always does).
      var putBack = issuing && issuing.putBack ? issuing.putBack : foresee(elt, editor);
      putBack.sent();
      pending.set(event.detail.xhr, { putBack: putBack, editor: editor });
    }
  });

  function settle(event, failed) {
    var guess = pending.get(event.detail.xhr);
    if (!guess) return;
    pending.delete(event.detail.xhr);
    guess.putBack(); // the server's answer, swapped next, has the real figures
    if (failed && guess.failed) guess.failed();
    else if (failed) refused(guess.editor);
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    settle(event, !event.detail.shouldSwap);
  });
  ["htmx:sendError", "htmx:timeout", "htmx:sendAbort"].forEach(function (name) {
    document.addEventListener(name, function (event) { settle(event, true); });
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    inFlight = Math.max(0, inFlight - 1);
    if (allWanted) scheduleAll(1500); // once the player pauses
    // By its request: an answer that replaced the editor (a copy's) is reported on an element
    // still in the page, outside it.
    var editor = busyBy.get(event.detail.xhr);
    busyBy.delete(event.detail.xhr);
    if (!editor || !busy.has(editor)) return;
    var left = busy.get(editor) - 1;
    if (left > 0) {
      busy.set(editor, left);
      return;
    }
    busy.delete(editor);
    if (!closeWhenDone.has(editor)) return;
    // Next turn: a change queued behind this request is sent then (see "One change at a time"),
    // and it must be answered before the editor closes.
    setTimeout(function () { closeIfDone(editor); }, 0);
  });

  function closeIfDone(editor) {
    if (!busy.has(editor) && !waiting(editor) && closeWhenDone.delete(editor)) closeEditor(editor, true);
  }

  // --- Men, quality and options priced at once ----------------------------------------------
  //
  // Each open editor carries its unit's price table (data-price, ``Row.price_table``). A change of
  // men, quality or options shows the unit's new points, men and the totals at once, marked as a
  // guess (class "is-guess", aria-busy); just before the server's answer is swapped in, the page
  // is put back as it was, so the answer (or a refusal, which sends no totals) always has the
  // last word. Taps queued behind one another (the stepper's) keep the guess until the last
  // answer. Anything the table cannot price (a free unit, a count that does not parse, a quality
  // or a man count it has no price for) shows nothing early: the answer alone moves the figures.

  // The pricing itself is static/js/builder_logic.js (no page, tested by Node against the
  // Python rules); this part reads the editor and shows the figures.
  var count = logic.count;
  var guesses = new Map(); // editor -> { count: answers awaited, points: guessed, models, undo }

  function priceTable(editor) {
    return logic.parseTable(editor.getAttribute("data-price") || "");
  }

  function taken(editor) {
    // slug -> count, as the options form now stands (null: a count that does not parse).
    var chosen = {};
    var form = editor.querySelector(".options-form");
    if (!form) return chosen;
    for (var i = 0; i < form.elements.length; i++) {
      var field = form.elements[i];
      if (field.type === "radio") {
        if (field.checked && field.value) chosen[field.value] = 1;
      } else if (field.name && field.name.indexOf("opt-") === 0) {
        var n = field.type === "checkbox" ? (field.checked ? 1 : 0) : count(field.value || "0");
        if (n === null) return null;
        chosen[field.name.slice(4)] = n;
      }
    }
    return chosen;
  }

  function setFigure(element, value) {
    if (element) element.textContent = element.textContent.replace(/-?\d+/, String(value));
  }

  function figures(editor) {
    var group = editor.closest("section.platoon");
    return {
      points: document.getElementById(editor.id + "-points"),
      total: document.getElementById("summary-points"),
      head: group && document.getElementById(group.id + "-points"),
      models: document.getElementById(editor.id + "-models"),
    };
  }

  function markGuess(editor, on) {
    var f = figures(editor);
    [f.points, f.total, f.head].forEach(function (element) {
      if (!element) return;
      element.classList.toggle("is-guess", on);
      if (on) element.setAttribute("aria-busy", "true");
      else element.removeAttribute("aria-busy");
    });
  }

  function showGuess(editor, guess) {
    // On the page as the server last left it (``guess.undo``): the guessed points and men.
    var f = figures(editor);
    var delta = guess.points - guess.undo.shown;
    rewritten(f.total);
    rewritten(f.head);
    setFigure(f.points, guess.points);
    if (f.total) f.total.textContent = guess.undo.total;
    if (f.head) f.head.textContent = guess.undo.head;
    setFigure(f.total, Number(guess.undo.total.match(/-?\d+/)) + delta);
    if (f.head) setFigure(f.head, Number(guess.undo.head.match(/-?\d+/)) + delta);
    if (f.models && guess.models !== null && !typing(f.models)) f.models.value = String(guess.models);
    markGuess(editor, true);
    previewFigures(); // its points moved: a copy of it or its removal moves the totals as much
  }

  function serverFigures(editor) {
    // Without the previews of a removal or a copy under way (laid again on the guess).
    var f = figures(editor);
    var shown = count(editor.getAttribute("data-points"));
    if (shown === null || !f.points || !f.total) return null;
    return { shown: shown, points: f.points.textContent, total: plain(f.total), head: f.head ? plain(f.head) : "" };
  }

  function putBack(editor, guess) {
    var f = figures(editor);
    rewritten(f.total);
    rewritten(f.head);
    f.points.textContent = guess.undo.points;
    f.total.textContent = guess.undo.total;
    if (f.head) f.head.textContent = guess.undo.head;
    // The server's men, unless the player is typing there (an answer never overwrites that).
    if (f.models && !typing(f.models)) f.models.value = f.models.getAttribute("value") || f.models.value;
    markGuess(editor, false);
    previewFigures();
  }

  function typing(field) {
    return field === document.activeElement;
  }

  function guessChange(editor, step) {
    var table = priceTable(editor);
    var f = figures(editor);
    var guess = guesses.get(editor);
    var undo = guess ? guess.undo : serverFigures(editor);
    if (!table || !undo) return;
    var select = document.getElementById(editor.id + "-quality");
    var quality = select ? select.value : logic.firstQuality(table);
    var models = f.models ? count(f.models.value) : table.base;
    if (models !== null && step) models += step;
    var points = logic.price(table, quality, models, taken(editor));
    if (!guess) {
      guess = { count: 0, undo: undo };
      guesses.set(editor, guess);
    }
    guess.count += 1; // one answer more to wait for, priced or not
    if (points === null) {
      // Unsure: the server's figures until its answer.
      guess.points = undo.shown;
      guess.models = null;
      putBack(editor, guess);
      markGuess(editor, true);
      return;
    }
    guess.points = points;
    guess.models = f.models ? models : null;
    showGuess(editor, guess);
  }

  document.addEventListener(
    "submit",
    function (event) {
      var button = event.submitter;
      var editor = event.target.closest && event.target.closest(".unit-row.is-open");
      if (!editor || !button || button.name !== "step" || event.defaultPrevented) return;
      guessChange(editor, Number(button.value) || 0);
    },
    true
  );

  document.addEventListener(
    "change",
    function (event) {
      var field = event.target;
      var editor = field.closest && field.closest(".unit-row.is-open");
      if (!editor) return;
      if (field.id === editor.id + "-models" || field.id === editor.id + "-quality" || field.closest(".options-form")) {
        guessChange(editor, 0);
      }
    },
    true
  );

  function guessed(event) {
    // The editor whose guess this request's answer settles (a change of men, quality or options).
    // The request's element: "beforeSwap" is fired on the swap's target, the editor itself.
    var elt = (event.detail.requestConfig && event.detail.requestConfig.elt) || event.detail.elt;
    if (!elt || !elt.closest || !elt.closest(".editor-body")) return null;
    var editor = elt.closest(".unit-row.is-open");
    return editor && guesses.has(editor) ? editor : null;
  }

  function answered(event, swapping) {
    var editor = guessed(event);
    if (editor) answeredFor(editor, swapping);
  }

  function answeredFor(editor, swapping) {
    var guess = guesses.get(editor);
    if (!guess) return;
    guess.count -= 1;
    putBack(editor, guess); // the answer, swapped next, has the real figures
    if (guess.count <= 0) guesses.delete(editor);
    else if (swapping) guess.rebase = true; // more taps under way: guessed again on this answer
    else showGuess(editor, guess); // no answer (replaced by a later change, or failed): as it was
  }

  document.addEventListener("htmx:beforeSwap", function (event) { answered(event, true); });
  ["htmx:sendError", "htmx:timeout", "htmx:sendAbort"].forEach(function (name) {
    document.addEventListener(name, function (event) { answered(event, false); });
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    var editor = guessed(event);
    var guess = editor && guesses.get(editor);
    if (!guess || !guess.rebase) return;
    guess.rebase = false;
    var undo = serverFigures(editor);
    if (!undo) return;
    guess.undo = undo;
    if (guess.models === null) markGuess(editor, true);
    else showGuess(editor, guess);
  });

  // --- One change at a time, shown before it is sent ------------------------------------------
  //
  // An editor's changes (men, quality, options, name, platoon, moves) are sent one at a time, in
  // the order they were made: each is sent once the answer to the one before is in. So the
  // server applies them in that order and the last answer shows everything: an answer can never
  // be older than what the page already shows (two forms of one editor sent together, a "+" then
  // a typed count, could be answered out of order). Each request carries the values its form
  // had when the player made the change, not when it is sent: an answer morphed in meanwhile may
  // have put a box back as the server last had it.
  //
  // Remove and duplicate take their turn too: their result is shown at the tap (see "Remove and
  // duplicate at once"), their request waits for the unit's changes made before it, so the copy
  // the server makes, or the unit it removes, is the one the player saw. A change made after a
  // "Duplicate" waits for its answer, which closes the editor: that editor is put back in place
  // of the original's row to send it (the player was still in it).
  //
  // A change of men, quality or options is sent only once the browser has painted its guessed
  // figures (the next frame), so htmx's work on the request never delays them. Uses htmx's
  // documented "htmx:confirm" event: the request is held (preventDefault) and sent later with
  // ``detail.issueRequest``.

  var queues = new Map(); // editor id -> { items: changes waiting, current: the one under way }
  var outstanding = new Map(); // form -> its changes not yet answered (they keep their state: setUpMorph)
  var issuing = null; // the change being sent, while htmx prepares its request

  function waiting(editor) {
    var queue = queues.get(editor.id);
    return !!queue && queue.busy();
  }

  function queuedEditor(elt, verb) {
    if (verb === "get" || !elt.closest) return null;
    return elt.closest(".unit-row.is-open");
  }

  function isAction(elt, editor) {
    return elt.id === editor.id + "-remove" || elt.id === editor.id + "-duplicate";
  }

  function snapshot(elt, trigger) {
    var form = elt.nodeName === "FORM" ? elt : elt.form;
    var data = form ? new FormData(form) : new FormData();
    var button = elt.nodeName === "BUTTON" ? elt : trigger && trigger.submitter;
    if (button && button.name) data.append(button.name, button.value);
    return data;
  }

  function afterPaint(callback) {
    var done = false;
    function once() {
      if (!done) {
        done = true;
        callback();
      }
    }
    requestAnimationFrame(function () { setTimeout(once, 0); }); // after the frame is painted
    setTimeout(once, 100); // a hidden page paints no frame: sent anyway
  }

  function settleItem(item) {
    if (item.settled) return;
    item.settled = true;
    var left = (outstanding.get(item.form) || 1) - 1;
    if (left > 0) outstanding.set(item.form, left);
    else outstanding.delete(item.form);
  }

  function again(item) {
    // The element the change was made in, or its counterpart in the unit's editor as it is now
    // (a move to another platoon answers a new editor): same form action, same button.
    if (item.elt.isConnected) return item.elt;
    var editor = document.getElementById(item.editorId);
    var before = item.elt.closest(".unit-row.is-open");
    if (editor && !editor.classList.contains("is-open") && editor.querySelector(".unit-open") && before && before.id === item.editorId) {
      // Closed by a "Duplicate" answered meanwhile (its original's row): the editor the change was
      // made in is put back to send it, as an editor kept closed is opened again.
      editor.replaceWith(before);
      window.htmx.process(before);
      // Its guess (the change on its way) laid again on the figures the copy's answer left.
      var guess = guesses.get(before);
      var undo = guess && serverFigures(before);
      if (undo) {
        guess.undo = undo;
        if (guess.models === null) markGuess(before, true);
        else showGuess(before, guess);
      }
      return item.elt.isConnected ? item.elt : null;
    }
    if (!editor || !editor.classList.contains("is-open")) return null;
    if (item.elt.id) return document.getElementById(item.elt.id);
    var action = item.elt.getAttribute("hx-post");
    return Array.prototype.find.call(editor.querySelectorAll("form[hx-post]"), function (form) {
      return form.getAttribute("hx-post") === action;
    }) || null;
  }

  function editorQueue(editor) {
    var queue = logic.serialQueue({
      send: function (item) {
        var elt = again(item);
        issuing = item;
        try {
          if (elt === item.elt) item.send(true);
          else if (elt) window.htmx.ajax(item.verb, item.path, { source: elt });
        } finally {
          issuing = null; // whatever happened, the next confirm is a player's change again
        }
        return !!item.xhr; // under way: the next once it is answered
      },
      dropped: function (item) {
        // Nothing sent (the unit is gone, or its editor closed): the change is dropped, its guess
        // or its preview too.
        settleItem(item);
        if (item.putBack) item.putBack();
        else answeredFor(item.editor, false);
      },
      idle: function () {
        if (queues.get(queue.id) !== queue) return;
        queues.delete(queue.id);
        closeIfDone(queue.editor);
      },
    });
    queue.id = editor.id;
    return queue;
  }

  document.addEventListener("htmx:confirm", function (event) {
    var detail = event.detail;
    if (issuing) return; // a change sent from the queue: on its way
    var editor = queuedEditor(detail.elt, detail.verb);
    if (!editor) return;
    event.preventDefault();
    var queue = queues.get(editor.id);
    if (!queue) {
      queue = editorQueue(editor);
      queues.set(editor.id, queue);
    }
    queue.editor = editor;
    var form = detail.elt.nodeName === "FORM" ? detail.elt : detail.elt.form;
    var item = {
      editor: editor,
      editorId: editor.id,
      elt: detail.elt,
      form: form,
      verb: detail.verb,
      path: detail.path,
      data: snapshot(detail.elt, detail.triggeringEvent),
      send: detail.issueRequest,
    };
    // Remove, duplicate: shown now, at the tap, sent in their turn.
    if (isAction(detail.elt, editor)) item.putBack = foresee(detail.elt, editor);
    outstanding.set(form, (outstanding.get(form) || 0) + 1);
    queue.push(item);
    if (queue.current) return; // sent once the change before it is answered
    if (detail.elt.closest(".editor-body")) {
      // Men, quality, options: guessed already (capture listeners above), painted, then sent.
      queue.hold();
      afterPaint(queue.release);
    } else {
      queue.next();
    }
  });

  document.addEventListener("htmx:configRequest", function (event) {
    // The values as they were when the change was made.
    if (issuing) event.detail.parameters = issuing.data;
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (issuing) issuing.xhr = event.detail.xhr;
  });

  function queueOf(event) {
    var xhr = event.detail.xhr;
    var found = null;
    queues.forEach(function (queue) {
      if (queue.current && queue.current.xhr === xhr) found = queue;
    });
    return found;
  }

  document.addEventListener("htmx:beforeSwap", function (event) {
    var queue = queueOf(event);
    if (queue) settleItem(queue.current); // before the morph: the form's controls are the answer's
  });

  // An answer to a change rewrites the figures and morphs the editor: the previews of a removal
  // or a copy still waiting are laid on them again, before the page is painted.
  ["htmx:afterSwap", "htmx:afterRequest"].forEach(function (name) {
    document.addEventListener(name, function () { if (previews.length) previewFigures(); });
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    // Answered, failed or timed out: the next change is sent.
    var queue = queueOf(event);
    if (!queue) return;
    settleItem(queue.current);
    queue.answered();
    // Next turn: htmx releases the request's element after this event, and the next change may
    // come from the same form.
    setTimeout(queue.next, 0);
  });

  document.addEventListener("DOMContentLoaded", function () {
    setUpCopy(document);
    setUpMorph(); // idiomorph and its extension are loaded after htmx, after this script
  });
  window.addEventListener("load", function () { whenIdle(fetchAllEditors); });

  // --- Enter in a field just changed -----------------------------------------------------------
  //
  // Enter in a number field fires "change" (sent at once) and then submits its form: a second
  // request that would cancel the first (hx-sync "replace"). The submit is dropped when the form
  // holds exactly what its change just sent.

  var sentOnChange = new WeakMap(); // form -> its fields as its last "change" sent them

  function fields(form) {
    return new URLSearchParams(new FormData(form)).toString();
  }

  // Recorded when htmx is asked for the request ("htmx:confirm"), not when it is sent: an editor's
  // change may be sent a moment later (see "One change at a time" below).
  document.addEventListener("htmx:confirm", function (event) {
    var form = event.detail.elt;
    var trigger = event.detail.triggeringEvent;
    if (form.nodeName !== "FORM" || !trigger) return;
    if (trigger.type === "change") sentOnChange.set(form, fields(form));
    else sentOnChange.delete(form);
  });

  document.addEventListener(
    "submit",
    function (event) {
      var form = event.target;
      if (!sentOnChange.has(form) || event.submitter) return; // a button says what to send
      if (sentOnChange.get(form) !== fields(form)) return;
      event.preventDefault(); // no page load either: the change is on its way
      event.stopPropagation(); // nor htmx's request
    },
    true
  );

  document.addEventListener("htmx:afterSettle", function (event) {
    var target = event.detail.elt;
    if (!target || !target.closest) return;
    var row = target.closest(".unit-row") || target;
    if (row.id === "builder") setUpCopy(row);
    refocus(event.detail.requestConfig && event.detail.requestConfig.elt);
  });

  function refocus(trigger) {
    // A move to another platoon answers the unit's editor afresh at its new place: the focus goes
    // to the same control there. A move up or down is morphed in place: the focus stays, unless
    // the button used is now disabled (at an end), then it goes to the unit's heading.
    // "Duplicate" answers closed rows: the focus goes back to the unit's row link, so Enter
    // opens it again.
    var editor = trigger && trigger.closest && trigger.closest(".unit-row.is-open");
    if (editor && editor.isConnected && trigger.disabled && trigger.id === editor.id + (trigger.value === "up" ? "-up" : "-down")) {
      // Moved to an end: the button used is now disabled and has lost the focus.
      var name = document.getElementById(editor.id + "-name");
      if (name) name.focus({ preventScroll: true });
      return;
    }
    if (!editor || editor.isConnected) return;
    var id = trigger.id || focusedIn.get(trigger);
    var again = id && document.getElementById(id);
    var target = again && !again.disabled && again.closest(".unit-row.is-open") ? again : null;
    target = target || document.querySelector("#" + editor.id + ".is-open #" + editor.id + "-name");
    target = target || document.getElementById(editor.id + "-open");
    if (target) target.focus({ preventScroll: true });
  }

  // A form's request (the platoon select's) names no control: the one focused when it was sent.
  var focusedIn = new WeakMap();
  document.addEventListener("htmx:beforeRequest", function (event) {
    var focused = document.activeElement;
    if (focused && focused.id && event.detail.elt.contains(focused)) focusedIn.set(event.detail.elt, focused.id);
  });

  // A move to another platoon swaps nothing in place (all out of band): no settle on its target.
  document.addEventListener("htmx:afterRequest", function (event) {
    var trigger = event.detail.requestConfig && event.detail.requestConfig.elt;
    setTimeout(function () { refocus(trigger); }, 0);
  });

  document.addEventListener("htmx:oobAfterSwap", function (event) {
    var news = event.detail.target && event.detail.target.querySelectorAll ? event.detail.target.querySelectorAll(".unit-row.is-new") : [];
    var added = news[news.length - 1]; // the last: rows added before keep the class
    if (!added) return;
    added.scrollIntoView({ block: "nearest" });
    // A unit just added is usually the next one changed: its editor is fetched now, so opening
    // it costs no round trip (until anything else in the list changes).
    var link = added.querySelector(".unit-open");
    if (link) fetchEditor(link);
  });
})();

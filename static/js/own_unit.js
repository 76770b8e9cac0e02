/* The own-unit form on a phone: −/+ buttons beside every count, the folded sections opened when
 * the kind needs them, and weapon swaps added to the options in one tap. The form works without
 * it: the boxes stay typeable and the server checks everything. */
(function () {
  "use strict";

  function labelOf(input) {
    var label = input.labels && input.labels[0];
    return label ? label.textContent.replace(/[:\s]+$/, "").trim() : input.name;
  }

  function step(input, delta) {
    var min = input.min === "" ? -Infinity : Number(input.min);
    var max = input.max === "" ? Infinity : Number(input.max);
    var now = parseInt(input.value, 10);
    var next = isNaN(now) ? (delta > 0 ? Math.max(min, 1) : Math.max(min, 0)) : now + delta;
    next = Math.min(max, Math.max(min, next));
    input.value = String(next);
    input.dispatchEvent(new Event("input", { bubbles: true }));
    input.dispatchEvent(new Event("change", { bubbles: true }));
  }

  function addStepper(form, input) {
    var wrap = document.createElement("span");
    wrap.className = "own-stepper";
    input.parentNode.insertBefore(wrap, input);
    var name = labelOf(input);
    [[-1, "−", form.dataset.fewer], [1, "+", form.dataset.more]].forEach(function (spec, i) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "own-step";
      button.textContent = spec[1];
      button.setAttribute("aria-label", spec[2] + ": " + name);
      button.addEventListener("click", function () { step(input, spec[0]); });
      if (i === 0) { wrap.appendChild(button); wrap.appendChild(input); } else { wrap.appendChild(button); }
    });
  }

  function lowerFirst(text) {
    // "Rifle" reads "rifle" inside a sentence; "LMG" stays as it is.
    return /^\p{Lu}\p{Ll}/u.test(text) ? text.charAt(0).toLowerCase() + text.slice(1) : text;
  }

  var SQUADS = ["infantry", "headquarters", "team"];
  var VEHICLES = ["vehicle_soft", "vehicle_armoured", "transport"];

  function carriedWeapon(form) {
    // The men's own weapon: the first weapon line without a mount.
    var rows = form.querySelectorAll("#weapon-lines .own-row");
    for (var i = 0; i < rows.length; i++) {
      var weapon = rows[i].querySelector("select[name$='-weapon']");
      var mount = rows[i].querySelector("select[name$='-mount']");
      if (weapon && weapon.value && (!mount || !mount.value)) { return weapon; }
    }
    return null;
  }

  function addSwap(form, swaps, button) {
    var status = swaps.querySelector("[role=status]");
    var rows = form.querySelectorAll("#option-rows .own-row");
    var row = null;
    for (var i = 0; i < rows.length && !row; i++) {
      var name = rows[i].querySelector("input[name$='-name']");
      var gives = rows[i].querySelector("select[name$='-grants_weapon']");
      if (!name.value && !gives.value) { row = rows[i]; }
    }
    if (!row) { status.textContent = swaps.dataset.full; return; }
    var mode = button.dataset.mode;
    var carried = mode === "adds" ? null : carriedWeapon(form);
    var gives = button.textContent.trim();
    var label = gives;
    if (carried && carried.value !== button.dataset.weapon) {
      label = swaps.dataset.instead.replace("{gives}", gives)
        .replace("{replaced}", lowerFirst(carried.options[carried.selectedIndex].text));
    } else {
      carried = null;
    }
    row.querySelector("input[name$='-name']").value = label;
    row.querySelector("select[name$='-grants_weapon']").value = button.dataset.weapon;
    row.querySelector("select[name$='-replaces_weapon']").value = carried ? carried.value : "";
    row.querySelector("input[name$='-per_model']").checked = mode !== "team";
    document.getElementById("option-rows").open = true;
    status.textContent = swaps.dataset.added.replace("{name}", label);
    var cost = row.querySelector("input[name$='-cost']");
    cost.focus();
    cost.scrollIntoView({ block: "center" });
  }

  function showForKind(form, swaps) {
    var kind = form.querySelector("#id_unit_type");
    if (!kind) { return; }
    if (swaps) { swaps.hidden = SQUADS.indexOf(kind.value) < 0; }
    if (VEHICLES.indexOf(kind.value) >= 0 || kind.value === "headquarters") {
      document.getElementById("own-profile").open = true;
    }
  }

  function foldArcs(form) {
    // A carried weapon has no arc: its box is shown only once the line has a mount (or a refusal).
    form.querySelectorAll("#weapon-lines .own-row").forEach(function (row) {
      var mount = row.querySelector("select[name$='-mount']");
      var arc = row.querySelector("select[name$='-arc']");
      if (!mount || !arc) { return; }
      var box = arc.closest(".field-row");
      var sync = function () { box.hidden = !mount.value && !box.querySelector(".errorlist"); };
      mount.addEventListener("change", sync);
      sync();
    });
  }

  document.addEventListener("DOMContentLoaded", function () {
    var form = document.getElementById("own-unit-form");
    if (!form) { return; }
    foldArcs(form);
    form.querySelectorAll("input[data-stepper]").forEach(function (input) { addStepper(form, input); });
    var swaps = document.getElementById("own-swaps");
    if (swaps) {
      swaps.querySelectorAll("button[data-weapon]").forEach(function (button) {
        button.addEventListener("click", function () { addSwap(form, swaps, button); });
      });
    }
    showForKind(form, swaps);
    var kind = form.querySelector("#id_unit_type");
    if (kind) { kind.addEventListener("change", function () { showForKind(form, swaps); }); }
  });
})();

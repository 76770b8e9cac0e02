/* Muster's only script besides htmx, loaded by base.html (the CSP allows no inline script).
 *
 * 1. An htmx request that fails (an error status, or no answer at all) shows a visible,
 *    translated notice instead of failing silently. htmx swaps nothing on an error, so what the
 *    player typed or chose stays in place, ready to be sent again.
 * 2. The language menu switches as soon as a language is chosen (its Go button serves without
 *    JavaScript).
 * 3. The header's "Menu" (a <details>, which opens without JavaScript) also closes on Escape, giving
 *    the focus back to its button, and when the player taps elsewhere.
 * 4. "Install the app" appears where the browser offers to install Muster, and asks it to.
 */
(function () {
  "use strict";

  function notice() {
    return document.getElementById("htmx-error");
  }

  function show(text) {
    var box = notice();
    if (!box) {
      return;
    }
    box.querySelector("[data-text]").textContent = text;
    box.hidden = false;
  }

  function message(xhr) {
    var box = notice();
    var status = xhr ? xhr.status : 0;
    var type = xhr ? xhr.getResponseHeader("Content-Type") || "" : "";
    // Muster's own refusals (429, 413, 400 at the edge) carry a translated sentence as plain text.
    if (status >= 400 && type.indexOf("text/plain") === 0 && xhr.responseText && xhr.responseText.length < 400) {
      return xhr.responseText;
    }
    if (status === 429) {
      return box.dataset.limited;
    }
    if (status === 503 || status === 502 || status === 504) {
      return box.dataset.busy;
    }
    if (status >= 400 && status < 500) {
      return box.dataset.refused;
    }
    return box.dataset.failed;
  }

  document.addEventListener("htmx:responseError", function (event) {
    show(message(event.detail.xhr));
  });
  document.addEventListener("htmx:sendError", function () {
    show(notice() ? notice().dataset.network : "");
  });
  document.addEventListener("htmx:timeout", function () {
    show(notice() ? notice().dataset.network : "");
  });
  document.addEventListener("htmx:beforeRequest", function () {
    // A new attempt clears the previous notice; a new failure shows it again.
    var box = notice();
    if (box) {
      box.hidden = true;
    }
  });
  document.addEventListener("click", function (event) {
    if (event.target.closest("[data-dismiss-error]")) {
      notice().hidden = true;
    }
  });
  document.addEventListener("change", function (event) {
    if (event.target.matches("select[data-autosubmit]")) {
      event.target.form.submit();
    }
  });

  function openMenus() {
    return document.querySelectorAll("details[data-nav-menu][open]");
  }
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Escape") {
      return;
    }
    openMenus().forEach(function (menu) {
      menu.open = false;
      menu.querySelector("summary").focus();
    });
  });
  document.addEventListener("click", function (event) {
    openMenus().forEach(function (menu) {
      if (!menu.contains(event.target)) {
        menu.open = false;
      }
    });
  });

  // The browser's own offer, kept until the player asks (browsers fire it only when Muster can be installed).
  var installOffer = null;
  window.addEventListener("beforeinstallprompt", function (event) {
    event.preventDefault();
    installOffer = event;
    document.querySelectorAll("[data-install]").forEach(function (button) {
      button.hidden = false;
    });
  });
  window.addEventListener("appinstalled", function () {
    installOffer = null;
    document.querySelectorAll("[data-install]").forEach(function (button) {
      button.hidden = true;
    });
  });
  document.addEventListener("click", function (event) {
    if (!event.target.closest("[data-install]") || !installOffer) {
      return;
    }
    installOffer.prompt();
    installOffer = null;
  });
})();

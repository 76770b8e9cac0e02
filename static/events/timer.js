/* The round timer: counts down to the round's end shown on the page (data-timer-end) and shows the
 * end and last-turn times in the phone's own time zone. The page says both in text without it; the
 * section is fetched again every 30 s (htmx), so each tick reads it afresh from the page. */
(function () {
  "use strict";

  function pad(n) {
    return n < 10 ? "0" + n : String(n);
  }

  function tick() {
    var section = document.querySelector("[data-timer-end]");
    if (!section) return;
    var end = Date.parse(section.getAttribute("data-timer-end"));
    var out = section.querySelector("[data-countdown]");
    if (isNaN(end) || !out) return;
    var left = Math.max(0, Math.round((end - Date.now()) / 1000));
    var lang = document.documentElement.lang || "en";
    var over = out.getAttribute("data-over") || "";
    var text = Math.floor(left / 3600) + ":" + pad(Math.floor((left % 3600) / 60)) + ":" + pad(left % 60);
    out.textContent = left === 0 ? over : text;
    out.hidden = false;
    section.querySelectorAll("time[data-local-time]").forEach(function (el) {
      var when = new Date(el.getAttribute("datetime"));
      if (!isNaN(when.getTime()) && !el.dataset.localised) {
        el.textContent = when.toLocaleTimeString(lang, { hour: "2-digit", minute: "2-digit" });
        el.dataset.localised = "1";
      }
    });
  }

  function start() {
    tick();
    window.setInterval(tick, 1000);
  }

  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", start);
  } else {
    start();
  }
})();

// A wide table scrolls inside its own box on a phone (cardroom.css, "Phones"). Keyboard users
// must be able to scroll it too: a box that does overflow is made focusable and named.
(function () {
  "use strict";
  function mark() {
    document.querySelectorAll("table.ledger").forEach(function (box) {
      if (box.scrollWidth > box.clientWidth + 1 && !box.hasAttribute("tabindex")) {
        box.setAttribute("tabindex", "0");
        if (!box.getAttribute("aria-label")) {
          var caption = box.querySelector("caption");
          var heading = box.closest("section") && box.closest("section").querySelector("h1, h2, h3");
          var name = (caption || heading || {}).textContent || "Table";
          box.setAttribute("aria-label", name.trim() + " (scrolls sideways)");
        }
      }
    });
  }
  document.addEventListener("DOMContentLoaded", mark);
  window.addEventListener("resize", mark);
  document.addEventListener("htmx:afterSettle", mark);
})();

// A wide table scrolls inside its own box on a phone (cardroom.css, "Phones"). Keyboard users
// must be able to scroll it too: a box that does overflow is made focusable and named.
// The words come in the page's language from templates/base.html (#scroll-words).
(function () {
  "use strict";
  var words = { table: "Table", scrolls: "{name} (scrolls sideways)" };
  try {
    var given = JSON.parse((document.getElementById("scroll-words") || {}).textContent || "{}");
    Object.keys(words).forEach(function (key) { if (given[key]) words[key] = given[key]; });
  } catch (e) { /* no words given: English */ }
  function mark() {
    document.querySelectorAll("table.ledger").forEach(function (box) {
      if (box.scrollWidth > box.clientWidth + 1 && !box.hasAttribute("tabindex")) {
        box.setAttribute("tabindex", "0");
        if (!box.getAttribute("aria-label")) {
          var caption = box.querySelector("caption");
          var heading = box.closest("section") && box.closest("section").querySelector("h1, h2, h3");
          var name = (caption || heading || {}).textContent || words.table;
          box.setAttribute("aria-label", words.scrolls.split("{name}").join(name.trim()));
        }
      }
    });
  }
  document.addEventListener("DOMContentLoaded", mark);
  window.addEventListener("resize", mark);
  document.addEventListener("htmx:afterSettle", mark);
})();

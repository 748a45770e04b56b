// The table chat panel (templates/cardroom/partials/_chat.html): show or hide it (remembered
// in this browser), its two tabs (players' chat and the dealer's results), the input cleared
// once a line is sent, the list kept scrolled to its newest line, and times in local time.
// Lines arrive from the server as escaped HTML, out of band; this script writes only text.
(function () {
  "use strict";

  var SHOWN = "cardroom:chat-shown";
  var MAX_LINES = 200;

  function toggle(show) {
    var panel = document.getElementById("chat");
    var button = document.getElementById("chat-toggle");
    if (!panel || !button) return;
    panel.classList.toggle("collapsed", !show);
    button.setAttribute("aria-expanded", String(show));
    button.textContent = show ? button.dataset.hide : button.dataset.show;
  }

  function select(tab) {
    document.querySelectorAll('#chat [role="tab"]').forEach(function (other) {
      var chosen = other === tab;
      other.setAttribute("aria-selected", String(chosen));
      other.tabIndex = chosen ? 0 : -1;
      var pane = document.getElementById(other.getAttribute("aria-controls"));
      if (pane) pane.hidden = !chosen;
    });
  }

  var localTime = new Intl.DateTimeFormat(document.documentElement.lang || undefined, {
    hour: "2-digit", minute: "2-digit",
  });
  function tidy() {
    var list = document.getElementById("chat-lines");
    if (!list) return;
    while (list.children.length > MAX_LINES) list.removeChild(list.firstElementChild);
    list.querySelectorAll("time:not([data-local-done])").forEach(function (node) {
      var moment = new Date(node.getAttribute("datetime"));
      if (!isNaN(moment.getTime())) node.textContent = localTime.format(moment);
      node.setAttribute("data-local-done", "");
    });
    list.scrollTop = list.scrollHeight;
  }

  // The dealer's tab repeats the results of the hands from the "Recent hands" log, oldest
  // first, as text only.
  var dealerSaid = "";
  function dealer() {
    var list = document.getElementById("dealer-lines");
    if (!list) return;
    var items = Array.prototype.slice.call(document.querySelectorAll("#log ol li:not(.empty)"));
    var texts = items.reverse().map(function (item) {
      return item.textContent.replace(/\s+/g, " ").trim();
    });
    var said = texts.join("\n");
    if (said === dealerSaid) return;
    dealerSaid = said;
    while (list.firstChild) list.removeChild(list.firstChild);
    texts.forEach(function (text) {
      var line = document.createElement("li");
      line.textContent = text;
      list.appendChild(line);
    });
    var empty = document.getElementById("dealer-empty");
    if (empty) empty.hidden = texts.length > 0;
    list.scrollTop = list.scrollHeight;
  }

  document.addEventListener("DOMContentLoaded", function () {
    var button = document.getElementById("chat-toggle");
    if (!button) return;
    toggle(window.localStorage.getItem(SHOWN) !== "false");
    button.addEventListener("click", function () {
      var show = button.getAttribute("aria-expanded") !== "true";
      try { window.localStorage.setItem(SHOWN, String(show)); } catch (e) { /* no matter */ }
      toggle(show);
    });
    var tabs = Array.prototype.slice.call(document.querySelectorAll('#chat [role="tab"]'));
    tabs.forEach(function (tab, index) {
      tab.addEventListener("click", function () { select(tab); });
      tab.addEventListener("keydown", function (event) {
        var step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
        if (!step) return;
        event.preventDefault();
        var next = tabs[(index + step + tabs.length) % tabs.length];
        select(next);
        next.focus();
      });
    });
    tidy();
    dealer();
  });

  // A line sent: the input is emptied for the next one.
  document.addEventListener("htmx:wsAfterSend", function (event) {
    var form = event.target;
    if (form && form.id === "chat-form") {
      var input = document.getElementById("chat-text");
      if (input) input.value = "";
    }
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    tidy();
    dealer();
  });
})();

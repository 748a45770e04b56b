// The table page's own script: the countdown ring, keyboard shortcuts, the connection light.
// Everything else is htmx: forms go out over the WebSocket, fragments come back out of band.
(function () {
  "use strict";

  function tick() {
    document.querySelectorAll("svg.countdown[data-deadline]").forEach(function (ring) {
      var deadline = Date.parse(ring.dataset.deadline);
      if (!ring.dataset.total) {
        ring.dataset.total = String(Math.max(1, (deadline - Date.now()) / 1000));
      }
      var left = Math.max(0, (deadline - Date.now()) / 1000);
      var share = Math.min(100, (left / Number(ring.dataset.total)) * 100);
      ring.querySelector(".ring").setAttribute("stroke-dasharray", share + " 100");
      ring.querySelector(".seconds").textContent = String(Math.ceil(left));
      ring.classList.toggle("urgent", left <= 5);
    });
  }
  setInterval(tick, 200);

  document.addEventListener("keydown", function (event) {
    var target = event.target;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    var button = document.querySelector('#actions button[data-key="' + event.key.toUpperCase() + '"]');
    if (button) {
      event.preventDefault();
      button.click();
    }
  });

  // A form that gives up a hand in play asks first. Listening in the capture phase runs before
  // htmx's own submit listener on the form, so a "no" stops the frame from being sent.
  document.addEventListener("submit", function (event) {
    var form = event.target;
    var question = form && form.dataset ? form.dataset.confirm : "";
    if (question && !window.confirm(question)) {
      event.preventDefault();
      event.stopPropagation();
    }
  }, true);

  function light(text, ok) {
    var node = document.getElementById("connection");
    if (node) {
      node.textContent = text;
      node.classList.toggle("ok", ok);
    }
  }
  document.addEventListener("htmx:wsOpen", function () { light("connected", true); });
  document.addEventListener("htmx:wsClose", function () { light("reconnecting…", false); });
  document.addEventListener("htmx:wsAfterMessage", function () { tick(); });
})();

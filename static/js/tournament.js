// A tournament level's time left (templates/cardroom/partials/_level_clock.html): each
// <time data-level-ends> counts down to its deadline (ISO 8601, UTC, written by the server) as
// minutes and seconds. The words around it are the server's; the panel itself is drawn again
// by htmx, and a new deadline is picked up at the next tick.
(function () {
  "use strict";
  function tick() {
    document.querySelectorAll("time[data-level-ends]").forEach(function (clock) {
      var left = Math.max(0, Math.floor((Date.parse(clock.dataset.levelEnds) - Date.now()) / 1000));
      if (isNaN(left)) return;
      var text = Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0");
      if (clock.textContent !== text) clock.textContent = text;
    });
  }
  tick();
  window.setInterval(tick, 1000);
})();

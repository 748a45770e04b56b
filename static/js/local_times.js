// Times are written by the server in UTC and labelled so; a reader's browser knows its own
// time zone, so each <time data-local> is rewritten in it (the label says which).
(function () {
  "use strict";
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const format = new Intl.DateTimeFormat(undefined, {
    year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit",
  });
  for (const element of document.querySelectorAll("time[data-local]")) {
    const moment = new Date(element.getAttribute("datetime"));
    if (!Number.isNaN(moment.getTime())) {
      element.textContent = format.format(moment);
      element.title = zone;
    }
  }
})();

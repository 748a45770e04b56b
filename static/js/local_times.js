// Times are written by the server in UTC and labelled so; a reader's browser knows its own
// time zone, so each <time data-local> is rewritten in it (the label says which), in the
// page's language (the switcher's choice, docs/languages.md) rather than the browser's.
(function () {
  "use strict";
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const language = document.documentElement.lang || undefined;
  const format = new Intl.DateTimeFormat(language, {
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

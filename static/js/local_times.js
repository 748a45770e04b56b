// Times are written by the server in UTC and labelled so (accounts/templatetags/moments.py); a
// reader's browser knows its own time zone, so each <time data-local> is rewritten in it, in
// the same pattern (data-format: Django's Y m d H i, the page language's one way of writing a
// moment, docs/languages.md) and followed by the zone's short name; the title names the zone.
(function () {
  "use strict";
  var zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  var language = document.documentElement.lang || undefined;
  // Digits only: the pattern, not the browser's locale, decides the order and separators.
  var digits = new Intl.DateTimeFormat("en-GB", {
    year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit",
    hourCycle: "h23"
  });
  var zoneNames = new Intl.DateTimeFormat(language, { timeZoneName: "short" });

  function parts(format, moment) {
    var found = {};
    format.formatToParts(moment).forEach(function (part) { found[part.type] = part.value; });
    return found;
  }

  function written(moment, pattern) {
    var found = parts(digits, moment);
    var tokens = { Y: found.year, m: found.month, d: found.day, H: found.hour, i: found.minute };
    var text = pattern.replace(/[YmdHi]/g, function (token) { return tokens[token]; });
    return text + " " + (parts(zoneNames, moment).timeZoneName || zone);
  }

  var elements = document.querySelectorAll("time[data-local]");
  for (var index = 0; index < elements.length; index += 1) {
    var element = elements[index];
    var moment = new Date(element.getAttribute("datetime"));
    var pattern = element.getAttribute("data-format") || "Y-m-d H:i";
    if (!isNaN(moment.getTime())) {
      element.textContent = written(moment, pattern);
      element.title = zone;
    }
  }
})();

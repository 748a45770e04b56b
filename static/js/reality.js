// The reality check at the table (docs/responsible-gaming.md): every N minutes of a session the
// server says a check is due; the dialog shows the time played and the net result, and the
// player keeps playing (the next check is N minutes away) or leaves every table at the end of
// the hand in play. The forms also work without this script, as plain posts.
(function () {
  "use strict";
  var dialog = document.getElementById("reality-check");
  if (!dialog) return;
  var LONGEST_WAIT = 5 * 60 * 1000; // ask again at least this often: a session may begin or end
  var timer = null;

  function part(name) {
    return dialog.querySelector('[data-reality="' + name + '"]');
  }

  function schedule(milliseconds) {
    if (timer) clearTimeout(timer);
    timer = setTimeout(check, Math.max(1000, Math.min(LONGEST_WAIT, milliseconds)));
  }

  function show(status) {
    part("played").textContent = status.played;
    part("net").textContent = status.net;
    part("interval").textContent = String(status.interval_minutes);
    part("said").textContent = "";
    if (!dialog.open) {
      if (typeof dialog.showModal === "function") dialog.showModal();
      else dialog.setAttribute("open", "");
    }
  }

  function check() {
    fetch(dialog.dataset.statusUrl, { headers: { Accept: "application/json" }, credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (status) {
        if (!status || !status.in_session) { schedule(LONGEST_WAIT); return; }
        if (status.due) { show(status); return; }
        schedule(status.next_check_in_seconds * 1000);
      })
      .catch(function () { schedule(60 * 1000); });
  }

  function close() {
    if (typeof dialog.close === "function") dialog.close();
    else dialog.removeAttribute("open");
  }

  function post(form, then) {
    fetch(form.action, {
      method: "POST",
      body: new FormData(form),
      headers: { Accept: "application/json" },
      credentials: "same-origin",
    })
      .then(function (response) { return response.json(); })
      .then(then)
      .catch(function () { form.submit(); });
  }

  part("keep").addEventListener("submit", function (event) {
    event.preventDefault();
    post(event.target, function () { close(); check(); });
  });
  part("leave").addEventListener("submit", function (event) {
    event.preventDefault();
    post(event.target, function (answer) {
      part("said").textContent = answer.message || "";
      setTimeout(close, 2500);
      schedule(LONGEST_WAIT);
    });
  });
  // Escape would close the dialog without an answer: the player chooses one of the two.
  dialog.addEventListener("cancel", function (event) { event.preventDefault(); });
  check();
})();

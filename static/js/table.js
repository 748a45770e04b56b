// The table page's own script: the countdown ring, keyboard shortcuts, the connection light.
// Everything else is htmx: forms go out over the WebSocket, fragments come back out of band.
(function () {
  "use strict";

  // The words this script writes, in the page's language (templates/cardroom/table.html,
  // #table-words); English when the page gives none.
  var WORDS = { connected: "connected", reconnecting: "reconnecting…" };
  try {
    var given = JSON.parse((document.getElementById("table-words") || {}).textContent || "{}");
    Object.keys(WORDS).forEach(function (key) {
      if (typeof given[key] === "string") WORDS[key] = given[key];
    });
  } catch (e) { /* no words given: English */ }

  // The ring's full length is the time there was when this deadline was first seen: kept per
  // deadline in the tab's session storage, so a reload shows the same ring, not a full one.
  function totalFor(ring, deadline) {
    var key = "countdown:" + ring.dataset.deadline;
    var known = Number(window.sessionStorage.getItem(key));
    if (known > 0) return known;
    var total = Math.max(1, (deadline - Date.now()) / 1000);
    try { window.sessionStorage.setItem(key, String(total)); } catch (e) { /* full: no matter */ }
    return total;
  }

  function tick() {
    document.querySelectorAll("svg.countdown[data-deadline]").forEach(function (ring) {
      var deadline = Date.parse(ring.dataset.deadline);
      if (!ring.dataset.total) ring.dataset.total = String(totalFor(ring, deadline));
      var left = Math.max(0, (deadline - Date.now()) / 1000);
      var share = Math.min(100, (left / Number(ring.dataset.total)) * 100);
      // Only what changed is written: every write has the browser lay the ring out and paint
      // it again, and the seconds' text changes once a second, not at each tick.
      var dash = share.toFixed(1) + " 100";
      var arc = ring.querySelector(".ring");
      if (arc.getAttribute("stroke-dasharray") !== dash) arc.setAttribute("stroke-dasharray", dash);
      var seconds = ring.querySelector(".seconds");
      var shown = String(Math.ceil(left));
      if (seconds.textContent !== shown) seconds.textContent = shown;
      // Red only when someone must act before it runs out, not for a pause between hands.
      var urgent = left <= 5 && ring.dataset.decision === "true";
      if (ring.classList.contains("urgent") !== urgent) ring.classList.toggle("urgent", urgent);
    });
  }

  // Phase changes, turns and results are read out: the regions are replaced by each push, so
  // a persistent live region is told what changed.
  var spoken = "";
  function announce() {
    var region = document.getElementById("announcer");
    if (!region) return;
    var parts = [];
    ["#table-status .phase", "#table-status .house-note", "#turn-note", "#result-banner"]
      .forEach(function (selector) {
        var node = document.querySelector(selector);
        if (node && node.textContent.trim()) parts.push(node.textContent.trim());
      });
    var text = parts.join(". ");
    if (text && text !== spoken) {
      spoken = text;
      region.textContent = text;
    }
  }

  // Auto-post ante: a preference of this browser; when an Ante button appears, it is pressed.
  var AUTO_ANTE = "cardroom:auto-ante";
  function autoAnte() {
    var box = document.getElementById("auto-ante");
    if (!box || !box.checked) return;
    var button = document.querySelector("#actions form.action-ante button");
    var version = (document.getElementById("table-status") || {}).dataset;
    var stamp = version ? version.version : "";
    if (button && button.dataset.autoSent !== stamp) {
      button.dataset.autoSent = stamp;
      button.click();
    }
  }
  // Sound, off unless chosen: a short tone when a decision of this player's appears (made with
  // the Web Audio API, so no file to fetch).
  var SOUND = "cardroom:sound";
  var asked = "";
  function chime() {
    var box = document.getElementById("sound");
    var decision = document.querySelector("#actions .decisions form");
    var stamp = decision ? decision.className + (document.getElementById("table-status") || {}).dataset.version : "";
    if (!box || !box.checked || !decision || stamp === asked) { if (!decision) asked = ""; return; }
    asked = stamp;
    try {
      var context = new (window.AudioContext || window.webkitAudioContext)();
      var tone = context.createOscillator();
      var volume = context.createGain();
      tone.frequency.value = 660;
      volume.gain.setValueAtTime(0.08, context.currentTime);
      volume.gain.exponentialRampToValueAtTime(0.001, context.currentTime + 0.25);
      tone.connect(volume).connect(context.destination);
      tone.start();
      tone.stop(context.currentTime + 0.25);
    } catch (e) { /* no audio here: the page works without it */ }
  }

  document.addEventListener("DOMContentLoaded", function () {
    var sound = document.getElementById("sound");
    if (sound) {
      sound.checked = window.localStorage.getItem(SOUND) === "true";
      sound.addEventListener("change", function () {
        window.localStorage.setItem(SOUND, String(sound.checked));
      });
    }
    var box = document.getElementById("auto-ante");
    if (box) {
      box.checked = window.localStorage.getItem(AUTO_ANTE) === "true";
      box.addEventListener("change", function () {
        window.localStorage.setItem(AUTO_ANTE, String(box.checked));
        autoAnte();
      });
    }
    announce();
    autoAnte();
  });
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
  document.addEventListener("htmx:wsOpen", function () { light(WORDS.connected, true); });
  // 4401 after the socket had spoken: its login no longer holds (docs/protocol.md). htmx does
  // not reconnect after it, so the page is loaded again: a browser still logged in (its session
  // renewed by a password change made here) gets a new socket, one logged out gets the login
  // page. A socket refused at its handshake has said nothing: reloading would only loop.
  var spokeOnThisSocket = false;
  document.addEventListener("htmx:wsOpen", function () { spokeOnThisSocket = false; });
  document.addEventListener("htmx:wsAfterMessage", function () { spokeOnThisSocket = true; });
  document.addEventListener("htmx:wsClose", function (event) {
    light(WORDS.reconnecting, false);
    var closed = event.detail && event.detail.event;
    if (closed && closed.code === 4401 && spokeOnThisSocket) window.location.reload();
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    tick(); announce(); autoAnte(); chime();
  });
})();

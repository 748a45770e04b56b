// The table's sounds, each switched on or off by the player in the page's Sound settings and
// remembered by this browser (localStorage), all off until chosen: cards dealt and chips moving
// (told by static/js/motion.js's "cardroom:motion" event), and time running out, once, when a
// decision of this player's has 5 seconds left. "My turn" (#sound) is played by static/js/table.js.
// The tones are made with the Web Audio API: no file to fetch.
(function () {
  "use strict";

  var KEY = "cardroom:sound:";
  var LAST_SECONDS = 5;
  var context = null;

  function on(name) {
    var box = document.querySelector('input[data-sound="' + name + '"]');
    return !!(box && box.checked);
  }

  // One short tone: a frequency, a length in seconds, a start after now, a volume.
  function tone(frequency, length, after, volume, shape) {
    try {
      context = context || new (window.AudioContext || window.webkitAudioContext)();
      var start = context.currentTime + (after || 0);
      var oscillator = context.createOscillator();
      var gain = context.createGain();
      oscillator.type = shape || "sine";
      oscillator.frequency.value = frequency;
      gain.gain.setValueAtTime(volume || 0.06, start);
      gain.gain.exponentialRampToValueAtTime(0.001, start + length);
      oscillator.connect(gain).connect(context.destination);
      oscillator.start(start);
      oscillator.stop(start + length);
    } catch (e) { /* no audio here: the page works without it */ }
  }

  var SOUNDS = {
    deal: function () { tone(1400, 0.05, 0, 0.04, "triangle"); tone(1100, 0.05, 0.07, 0.04, "triangle"); },
    chips: function () { tone(2200, 0.04, 0, 0.035, "square"); tone(2600, 0.04, 0.05, 0.03, "square"); },
    time: function () { tone(880, 0.12, 0, 0.07); tone(880, 0.12, 0.18, 0.07); }
  };

  document.addEventListener("cardroom:motion", function (event) {
    var told = event.detail || {};
    if (told.dealt && on("deal")) SOUNDS.deal();
    if ((told.chipsIn || told.chipsOut) && on("chips")) SOUNDS.chips();
  });

  // Time running out: the table's countdown of a decision, while this player has one to make.
  var warned = "";
  function watchTheClock() {
    var ring = document.querySelector('#table-status svg.countdown[data-decision="true"]');
    var mine = document.querySelector("#actions .decisions form");
    if (!ring || !mine || !on("time")) return;
    var left = (Date.parse(ring.dataset.deadline) - Date.now()) / 1000;
    if (left > 0 && left <= LAST_SECONDS && warned !== ring.dataset.deadline) {
      warned = ring.dataset.deadline;
      SOUNDS.time();
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    document.querySelectorAll("input[data-sound]").forEach(function (box) {
      var key = KEY + box.dataset.sound;
      box.checked = window.localStorage.getItem(key) === "true";
      box.addEventListener("change", function () {
        try { window.localStorage.setItem(key, String(box.checked)); } catch (e) { /* kept for now only */ }
      });
    });
    setInterval(watchTheClock, 250);
  });
})();

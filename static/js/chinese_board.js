// Chinese Poker's setting board: swap two cards by clicking one then the other, by dragging one
// onto the other, or with the keyboard (arrows move, Enter or Space picks, Escape drops).
// The rows always hold 3, 5 and 5 cards, so every change is a whole arrangement: it is sent as
// a `set` over the page's socket, and the server's answer redraws the board with each row's
// hand name and the foul warning. The page holds no poker logic of its own.
(function () {
  "use strict";

  var picked = null; // the data-card of the card picked first, waiting for its partner
  var focused = null; // the data-card to focus again after the server redraws the board

  function board() {
    var node = document.getElementById("cp-board");
    return node && node.classList.contains("editable") ? node : null;
  }

  function cardButton(card) {
    var root = board();
    return root ? root.querySelector('.cp-card[data-card="' + card + '"]') : null;
  }

  function rowsText() {
    var rows = {};
    board().querySelectorAll(".cp-row").forEach(function (row) {
      var cards = [];
      row.querySelectorAll(".cp-card").forEach(function (button) { cards.push(button.dataset.card); });
      rows[row.dataset.row] = cards.join(" ");
    });
    return rows;
  }

  // Keep every form of the board (set, submit, declare) carrying the rows shown.
  function syncForms(rows) {
    document.querySelectorAll("#game-board form").forEach(function (form) {
      Object.keys(rows).forEach(function (name) {
        var input = form.querySelector('input[name="' + name + '"]');
        if (input) input.value = rows[name];
      });
    });
  }

  function pick(card) {
    if (picked === null) {
      picked = card;
      var button = cardButton(card);
      if (button) button.setAttribute("aria-pressed", "true");
      return;
    }
    var first = picked;
    drop();
    if (first !== card) swap(first, card);
  }

  function drop() {
    var root = board();
    if (root) {
      root.querySelectorAll('.cp-card[aria-pressed="true"]').forEach(function (button) {
        button.setAttribute("aria-pressed", "false");
      });
    }
    picked = null;
  }

  function swap(one, two) {
    var a = cardButton(one);
    var b = cardButton(two);
    if (!a || !b) return;
    var marker = document.createElement("span");
    a.parentNode.insertBefore(marker, a);
    b.parentNode.insertBefore(a, b);
    marker.parentNode.insertBefore(b, marker);
    marker.remove();
    var rows = rowsText();
    syncForms(rows);
    var form = document.getElementById("cp-set");
    if (form) form.requestSubmit();
  }

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest("#cp-board.editable .cp-card");
    if (!button) return;
    focused = button.dataset.card;
    pick(button.dataset.card);
  });

  document.addEventListener("dragstart", function (event) {
    var button = event.target.closest && event.target.closest("#cp-board.editable .cp-card");
    if (!button) return;
    drop();
    event.dataTransfer.setData("text/plain", button.dataset.card);
    event.dataTransfer.effectAllowed = "move";
  });
  document.addEventListener("dragover", function (event) {
    if (event.target.closest && event.target.closest("#cp-board.editable .cp-card")) {
      event.preventDefault();
    }
  });
  document.addEventListener("drop", function (event) {
    var button = event.target.closest && event.target.closest("#cp-board.editable .cp-card");
    if (!button) return;
    event.preventDefault();
    var card = event.dataTransfer.getData("text/plain");
    focused = card;
    if (card && card !== button.dataset.card) swap(card, button.dataset.card);
  });

  // Arrow keys walk the cards (left/right within a row, up/down between rows).
  document.addEventListener("keydown", function (event) {
    var button = event.target.closest && event.target.closest("#cp-board.editable .cp-card");
    if (!button) return;
    if (event.key === "Escape") { drop(); event.preventDefault(); return; }
    var moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    var move = moves[event.key];
    if (!move) {
      // Letters belong to the board here, not to the page's action shortcuts.
      if (event.key.length === 1) event.stopPropagation();
      return;
    }
    event.preventDefault();
    var rows = Array.prototype.slice.call(board().querySelectorAll(".cp-row"));
    var row = button.closest(".cp-row");
    var r = rows.indexOf(row);
    var cards = Array.prototype.slice.call(row.querySelectorAll(".cp-card"));
    var c = cards.indexOf(button);
    var target = rows[Math.max(0, Math.min(rows.length - 1, r + move[0]))];
    var targetCards = target.querySelectorAll(".cp-card");
    var next = targetCards[Math.max(0, Math.min(targetCards.length - 1, c + move[1]))];
    if (next) { next.focus(); focused = next.dataset.card; }
  }, true);

  // Where the main pointer is a finger, the board's name speaks of taps, not of arrow keys
  // (its touch words are in data-touch-label): keys are not advertised to touch users.
  var TOUCH = window.matchMedia ? window.matchMedia("(hover: none) and (pointer: coarse)") : null;
  function touchWords() {
    var root = board();
    if (root && TOUCH && TOUCH.matches && root.dataset.touchLabel) {
      root.setAttribute("aria-label", root.dataset.touchLabel);
    }
  }
  document.addEventListener("DOMContentLoaded", touchWords);

  // After each push: keep the picked card and the focus, and forget a suggestion from an earlier hand.
  document.addEventListener("htmx:wsAfterMessage", function () {
    touchWords();
    var still = picked && cardButton(picked);
    if (still) still.setAttribute("aria-pressed", "true"); else picked = null;
    if (focused && (document.activeElement === document.body || !document.activeElement)) {
      var button = cardButton(focused);
      if (button) button.focus();
    }
    var suggestion = document.getElementById("cp-suggestion");
    var current = document.getElementById("cp-board");
    if (suggestion && suggestion.dataset.hand &&
        (!current || current.dataset.hand !== suggestion.dataset.hand)) {
      suggestion.innerHTML = "";
      delete suggestion.dataset.hand;
    }
  });
})();

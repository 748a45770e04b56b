// The table's motion: cards newly dealt fly in from the middle of the felt, chips go from a seat
// to the pot when its stack drops and the pot grows, and from the pot to a winner; a new winner's
// seat is lit. What changed is read from the page just before and just after each push of
// fragments (htmx's wsBeforeMessage / wsAfterMessage), so nothing is asked of the server.
//
// Nothing here waits or blocks: the fragments are in place at once and the buttons usable; the
// animations (Web Animations API) move the new cards themselves or chips laid over the page
// with pointer-events none. With prefers-reduced-motion: reduce nothing moves at all.
//
// Each push's changes are also told as a "cardroom:motion" event on the document
// ({dealt, chipsIn, chipsOut, won}), which static/js/sound.js plays, motion or not.
(function () {
  "use strict";

  var DURATION = 380;
  var reduced = window.matchMedia ? window.matchMedia("(prefers-reduced-motion: reduce)") : null;

  function still() {
    return (reduced && reduced.matches) || typeof Element.prototype.animate !== "function";
  }

  // An amount as the page writes it ("$1,234.50", "1 234,50 $") in cents: its digits.
  function cents(text) {
    var digits = String(text || "").replace(/[^0-9]/g, "");
    return digits ? Number(digits) : null;
  }

  function middleOf(element) {
    var box = element.getBoundingClientRect();
    return { x: box.left + box.width / 2, y: box.top + box.height / 2 };
  }

  function visible(element) {
    return !!(element && !element.hidden && element.getClientRects().length);
  }

  // Where cards come from and chips go: the pot, else the dealer's place (Three Card Poker),
  // else the middle of the felt.
  function centre() {
    var pot = document.getElementById("pot");
    if (visible(pot)) return middleOf(pot);
    var dealer = document.querySelector(".tcp-dealer");
    if (visible(dealer)) return middleOf(dealer);
    var seats = document.getElementById("seats");
    return seats ? middleOf(seats) : { x: window.innerWidth / 2, y: window.innerHeight / 3 };
  }

  function reading() {
    var seats = {};
    document.querySelectorAll("#seats li.seat[data-seat]").forEach(function (item) {
      seats[item.dataset.seat] = {
        name: (item.querySelector(".name") || {}).textContent || "",
        stack: cents((item.querySelector(".stack") || {}).textContent),
        cards: item.querySelectorAll(".hand-cards .card").length,
        won: item.classList.contains("won")
      };
    });
    var pot = document.querySelector("#pot strong");
    return {
      seats: seats,
      pot: visible(document.getElementById("pot")) && pot ? cents(pot.textContent) : null,
      yours: document.querySelectorAll("#you .your-cards .card").length
    };
  }

  function flyIn(cards, from, first) {
    for (var index = first; index < cards.length; index++) {
      var to = middleOf(cards[index]);
      cards[index].animate([
        { transform: "translate(" + (from.x - to.x) + "px, " + (from.y - to.y) + "px) scale(.4)",
          opacity: 0 },
        { transform: "none", opacity: 1 }
      ], { duration: DURATION, delay: (index - first) * 70, easing: "ease-out", fill: "backwards" });
    }
  }

  // A few chips laid over the page, from one point to another, then gone.
  function chips(from, to) {
    for (var index = 0; index < 3; index++) {
      var chip = document.createElement("div");
      chip.className = "motion-chip";
      chip.setAttribute("aria-hidden", "true");
      chip.style.left = from.x + "px";
      chip.style.top = from.y + "px";
      document.body.appendChild(chip);
      var flight = chip.animate([
        { transform: "translate(0, 0)", opacity: 1 },
        { transform: "translate(" + (to.x - from.x) + "px, " + (to.y - from.y) + "px)", opacity: .6 }
      ], { duration: DURATION + 120, delay: index * 60, easing: "ease-in-out", fill: "both" });
      flight.onfinish = flight.oncancel = (function (node) {
        return function () { node.remove(); };
      })(chip);
    }
  }

  function light(item) {
    item.animate([
      { boxShadow: "0 0 0 0 rgba(74, 222, 128, .9)" },
      { boxShadow: "0 0 0 14px rgba(74, 222, 128, 0)" }
    ], { duration: 900, iterations: 2, easing: "ease-out" });
  }

  var before = null;

  function compare(after) {
    var moving = !still();
    var middle = centre();
    var told = { dealt: 0, chipsIn: 0, chipsOut: 0, won: 0 };
    var potGrew = before.pot !== null && after.pot !== null && after.pot > before.pot;
    var potShrank = before.pot !== null && after.pot !== null && after.pot < before.pot;
    var house = after.pot === null;  // Three Card Poker, Chinese Poker: no pot between players
    Object.keys(after.seats).forEach(function (number) {
      var was = before.seats[number];
      var now = after.seats[number];
      if (!was || was.name !== now.name) return;  // a new player: nothing moved
      var item = document.querySelector('#seats li.seat[data-seat="' + number + '"]');
      if (!item) return;
      if (now.cards > was.cards) {
        told.dealt += now.cards - was.cards;
        if (moving) flyIn(item.querySelectorAll(".hand-cards .card"), middle, was.cards);
      }
      if (was.stack !== null && now.stack !== null && now.stack < was.stack && (potGrew || house)) {
        told.chipsIn += 1;
        if (moving) chips(middleOf(item), middle);
      }
      if (was.stack !== null && now.stack !== null && now.stack > was.stack &&
          (potShrank || house || now.won)) {
        told.chipsOut += 1;
        if (moving) chips(middle, middleOf(item));
      }
      if (now.won && !was.won) {
        told.won += 1;
        if (moving) light(item);
      }
    });
    if (after.yours > before.yours) {
      told.dealt += after.yours - before.yours;
      if (moving) flyIn(document.querySelectorAll("#you .your-cards .card"), middle, before.yours);
    }
    document.dispatchEvent(new CustomEvent("cardroom:motion", { detail: told }));
  }

  document.addEventListener("htmx:wsBeforeMessage", function () {
    try { before = reading(); } catch (e) { before = null; }
  });
  document.addEventListener("htmx:wsAfterMessage", function () {
    if (!before) return;
    try { compare(reading()); } catch (e) { /* the page works without motion */ }
    before = null;
  });
})();

// The replayer: steps through a hand's pictures, embedded in the page as JSON (json_script),
// drawing each the way templates/cardroom/replay.html draws the first. ← and → (or the
// buttons) move a step, Home and End to either end; Play steps on by itself. Without this
// script the page still works: every step is its own page (?step=N).
(function () {
  "use strict";
  const root = document.querySelector("[data-replay]");
  const source = document.getElementById("replay-steps");
  if (!root || !source) return;
  const steps = JSON.parse(source.textContent);
  const last = steps.length - 1;
  const picture = root.querySelector("[data-picture]");
  const caption = root.querySelector("[data-caption]");
  const counter = root.querySelector("[data-counter]");
  const section = root.querySelector("[data-section]");
  const previous = root.querySelector("[data-go=previous]");
  const next = root.querySelector("[data-go=next]");
  const play = root.querySelector("[data-go=play]");
  const reduced = window.matchMedia("(prefers-reduced-motion: reduce)");
  const SVG = "http://www.w3.org/2000/svg";
  const SUITS = { c: ["♣", "clubs"], d: ["♦", "diamonds"], h: ["♥", "hearts"], s: ["♠", "spades"] };
  // The words drawn, in the page's language (templates/cardroom/replay.html, #replay-words);
  // English when the page gives none. "{name}" is filled in by say().
  const WORDS = {
    rake: "Rake {amount}", nobody: "Nobody sat at the table.", moves: "Money moved",
    step: "Step {number} of {total}", play: "Play", pause: "Pause", seat: "seat {number}",
    button: "button", card: "{rank} of {suit}", down: "a card face down",
    clubs: "clubs", diamonds: "diamonds", hearts: "hearts", spades: "spades",
    front: "front", middle: "middle", back: "back",
    choice_in: "IN", choice_out: "OUT", choice_high: "HIGH", choice_low: "LOW",
  };
  try {
    const given = JSON.parse((document.getElementById("replay-words") || {}).textContent || "{}");
    Object.keys(WORDS).forEach(function (key) {
      if (typeof given[key] === "string") WORDS[key] = given[key];
    });
  } catch (error) { /* no words given: English */ }
  let index = Math.min(Math.max(Number(root.dataset.step) || 0, 0), last);
  let timer = null;

  function say(key, values) {
    let text = WORDS[key];
    if (text === undefined) return key;
    Object.entries(values || {}).forEach(function ([name, value]) {
      text = text.split("{" + name + "}").join(String(value));
    });
    return text;
  }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function svg(tag, attributes, text) {
    const node = document.createElementNS(SVG, tag);
    Object.entries(attributes).forEach(function ([name, value]) { node.setAttribute(name, value); });
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // The same drawing as templates/cardroom/partials/_card.html and _card_back.html.
  function card(text) {
    const rank = text[0] === "T" ? "10" : text[0];
    const [symbol, suit] = SUITS[text[1]];
    const red = text[1] === "d" || text[1] === "h";
    const face = svg("svg", {
      class: "card" + (red ? " red" : ""), viewBox: "0 0 60 84", role: "img",
      "aria-label": say("card", { rank: rank, suit: say(suit) }), "data-card": text,
    });
    face.append(
      svg("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-paper" }),
      svg("text", { x: 6, y: 18, class: "card-rank" }, rank),
      svg("text", { x: 6, y: 32, class: "card-suit-small" }, symbol),
      svg("text", { x: 30, y: 58, "text-anchor": "middle", class: "card-suit" }, symbol),
      svg("text", { x: 54, y: 78, "text-anchor": "end", class: "card-rank" }, rank),
    );
    return face;
  }

  function back() {
    const face = svg("svg", {
      class: "card back", viewBox: "0 0 60 84", role: "img", "aria-label": say("down"),
    });
    face.append(
      svg("rect", { x: 1, y: 1, width: 58, height: 82, rx: 6, class: "card-back" }),
      svg("rect", { x: 7, y: 7, width: 46, height: 70, rx: 4, class: "card-back-inner" }),
    );
    return face;
  }

  function cards(holder, texts, down) {
    texts.forEach(function (text) { holder.append(card(text)); });
    for (let i = 0; i < (down || 0); i += 1) holder.append(back());
    return holder;
  }

  function seatItem(seat) {
    const item = element("li", "seat" + (seat.you ? " you" : "") + (seat.acting ? " acting" : ""));
    item.dataset.seat = seat.seat;
    const head = element("div", "seat-head");
    head.append(element("strong", "name", seat.player), " ",
      element("span", "replay-seat-number", say("seat", { number: seat.seat })));
    if (seat.button) {
      const button = element("span", "dealer-button", "D");
      button.title = say("button");
      head.append(button);
    }
    const stack = element("div", "stack", seat.stack_text);
    stack.dataset.stack = "";
    item.append(head, stack);
    if (seat.rows) {
      const rows = element("div", "replay-rows");
      ["front", "middle", "back"].forEach(function (name) {
        const row = element("div", "replay-row");
        row.append(element("span", "replay-row-name", say(name)));
        rows.append(cards(row, seat.rows[name] || [], 0));
      });
      item.append(rows);
    } else {
      item.append(cards(element("div", "hand-cards"), seat.cards, seat.down));
    }
    const note = element("div", "seat-note");
    if (seat.note) note.append(element("span", "hand-name", seat.note));
    if (seat.choice) {
      const word = WORDS["choice_" + seat.choice] || seat.choice.toUpperCase();
      note.append(element("span", "choice choice-" + seat.choice, word));
    }
    seat.bets.forEach(function (bet) { note.append(element("span", "replay-bet", bet.name + " " + bet.text)); });
    seat.results.forEach(function (result) { note.append(element("span", "replay-result", result)); });
    if (seat.marks) note.append(element("span", "marks", seat.marks));
    cards(note, seat.points, 0);
    if (seat.status) note.append(element("span", "status", seat.status));
    if (seat.net) note.append(element("span", "replay-net " + (seat.net > 0 ? "won" : "lost"), seat.net_text));
    item.append(note);
    return item;
  }

  function draw(step) {
    const pots = element("div", "replay-pots");
    step.pots.forEach(function (pot) {
      const node = element("span", "pot");
      node.append(element("span", "label", pot.name), " ", element("strong", "", pot.text));
      pots.append(node);
    });
    if (step.rake) pots.append(element("span", "replay-rake", say("rake", { amount: step.rake_text })));
    const parts = [pots];
    if (step.board.length) {
      const board = element("div", "replay-board");
      step.board.forEach(function (hand) {
        const node = element("div", "replay-board-hand");
        node.append(element("span", "label", hand.name));
        cards(node, hand.cards, hand.down);
        if (hand.note) node.append(element("span", "hand-name", hand.note));
        board.append(node);
      });
      parts.push(board);
    }
    const seats = element("ol", "seats");
    step.seats.forEach(function (seat) { seats.append(seatItem(seat)); });
    if (!step.seats.length) seats.append(element("li", "seat empty", say("nobody")));
    const moves = element("ul", "replay-moves");
    moves.setAttribute("aria-label", say("moves"));
    step.moves.concat(step.payments).forEach(function (move) {
      moves.append(element("li", "", move.from + " → " + move.to + ": " + move.text));
    });
    parts.push(seats, moves);
    picture.replaceChildren.apply(picture, parts);
  }

  function go(target) {
    index = Math.min(Math.max(target, 0), last);
    const step = steps[index];
    draw(step);
    caption.textContent = step.caption;
    counter.textContent = say("step", { number: index + 1, total: steps.length });
    section.textContent = step.section_name;
    root.dataset.step = String(index);
    previous.href = "?step=" + Math.max(index - 1, 0);
    next.href = "?step=" + Math.min(index + 1, last);
    previous.setAttribute("aria-disabled", String(index === 0));
    next.setAttribute("aria-disabled", String(index === last));
    root.querySelectorAll("[data-step-link]").forEach(function (link) {
      if (Number(link.dataset.stepLink) === index) link.setAttribute("aria-current", "step");
      else link.removeAttribute("aria-current");
    });
    // A reload, or the address shared, opens this step.
    window.history.replaceState(null, "", "?step=" + index);
    if (index === last) stop();
  }

  function stop() {
    if (timer !== null) window.clearInterval(timer);
    timer = null;
    play.textContent = say("play");
    play.setAttribute("aria-pressed", "false");
  }

  function start() {
    if (index === last) go(0);
    play.textContent = say("pause");
    play.setAttribute("aria-pressed", "true");
    // Less movement asked for: the same steps, more slowly, and no transitions (the CSS).
    timer = window.setInterval(function () { go(index + 1); }, reduced.matches ? 2600 : 1400);
  }

  previous.addEventListener("click", function (event) { event.preventDefault(); stop(); go(index - 1); });
  next.addEventListener("click", function (event) { event.preventDefault(); stop(); go(index + 1); });
  play.hidden = false;
  play.addEventListener("click", function () { if (timer === null) start(); else stop(); });
  root.querySelectorAll("[data-step-link]").forEach(function (link) {
    link.addEventListener("click", function (event) {
      event.preventDefault();
      stop();
      go(Number(link.dataset.stepLink));
    });
  });
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const typing = event.target.closest && event.target.closest("input, textarea, select");
    if (typing) return;
    const moves = { ArrowLeft: index - 1, ArrowRight: index + 1, Home: 0, End: last };
    if (!(event.key in moves)) return;
    event.preventDefault();
    stop();
    go(moves[event.key]);
  });
})();

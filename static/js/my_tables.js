// A player at several tables (templates/cardroom/partials/_my_tables.html): the "my tables"
// strip kept live, the turn notifications, and the tiled view's frames.
//
// The strip learns the turns two ways: it polls /my-tables.json every few seconds while the
// page is visible, and it hears at once from the browser's open table pages, which say "turn at
// table N: yes/no" on a BroadcastChannel as their fragments arrive (no work for the server).
(function () {
  "use strict";

  var CHANNEL = "cardroom:turns";
  var NOTIFY = "cardroom:turn-notify";
  var POLL_MS = 5000;
  // A hidden page polls only to notify, and slowly: the open table pages tell it sooner.
  var HIDDEN_POLL_MS = 30000;
  var DECISIONS = "#actions .decisions form:not(.action-sit), #game-board .tcp-bet-form, #cp-board.editable";

  // The words this script writes, in the page's language (#my-tables-words); English when the
  // page gives none.
  var WORDS = {
    yourTurn: "Your turn", left: "{time} left", turnAt: "Your turn at {table}",
    blocked: "This browser blocks the cardroom's notifications: allow them in its site settings."
  };
  try {
    var given = JSON.parse((document.getElementById("my-tables-words") || {}).textContent || "{}");
    Object.keys(WORDS).forEach(function (key) {
      if (typeof given[key] === "string") WORDS[key] = given[key];
    });
  } catch (e) { /* no words given: English */ }

  function say(template, values) {
    return template.replace(/\{(\w+)\}/g, function (whole, name) {
      return name in values ? String(values[name]) : whole;
    });
  }

  function clock(until) {
    var seconds = Math.max(0, Math.ceil((until - Date.now()) / 1000));
    var rest = seconds % 60;
    return Math.floor(seconds / 60) + ":" + (rest < 10 ? "0" : "") + rest;
  }

  var channel = null;
  try { channel = window.BroadcastChannel ? new window.BroadcastChannel(CHANNEL) : null; } catch (e) { channel = null; }

  // The table of this page, if it is a table page (a tile of the tiled view is one too).
  var page = document.querySelector(".table-page[data-table]");
  var here = page ? page.dataset.table : "";
  // The tables of the tiled view on this page, by id.
  var tiles = {};

  // The strip's tables by id, and their order: {id, name, game, url, turn, until (ms or null)}.
  var tables = {};
  var order = [];

  function inView(id) {
    return !document.hidden && (String(id) === here || Boolean(tiles[String(id)]));
  }

  function notifying() {
    return window.localStorage.getItem(NOTIFY) === "true" && "Notification" in window &&
      window.Notification.permission === "granted";
  }

  // A turn has just come at a table: said politely (except for the table on this page, which
  // says it itself), and notified when the player cannot see it.
  function arrived(table) {
    var words = say(WORDS.turnAt, { table: table.name });
    var said = document.getElementById("my-tables-said");
    if (said && String(table.id) !== here) said.textContent = words;
    if (!notifying() || inView(table.id)) return;
    try {
      var note = new window.Notification(words, { tag: "cardroom-turn-" + table.id });
      note.onclick = function () {
        window.focus();
        if (!inView(table.id) && String(table.id) !== here) window.location.href = table.url;
        note.close();
      };
    } catch (e) { /* this browser notifies only from a service worker: the strip says it */ }
  }

  function item(table) {
    var li = document.createElement("li");
    li.dataset.table = String(table.id);
    if (table.turn) li.className = "turn";
    var link = document.createElement("a");
    link.href = table.url;
    link.textContent = table.name;
    if (table.url === window.location.pathname) link.setAttribute("aria-current", "page");
    var game = document.createElement("span");
    game.className = "my-table-game";
    game.textContent = table.game;
    li.appendChild(link);
    li.appendChild(document.createTextNode(" "));
    li.appendChild(game);
    if (table.turn) {
      var mark = document.createElement("strong");
      mark.className = "turn-mark";
      mark.textContent = WORDS.yourTurn;
      li.appendChild(document.createTextNode(" "));
      li.appendChild(mark);
      if (table.until) {
        var time = document.createElement("span");
        time.className = "turn-time";
        time.textContent = say(WORDS.left, { time: clock(table.until) });
        li.appendChild(document.createTextNode(" "));
        li.appendChild(time);
      }
    }
    return li;
  }

  // Drawn again only when something shown changed (the times tick by themselves), keeping
  // the keyboard's focus on the link it was on.
  var drawn = "";
  function render() {
    var strip = document.getElementById("my-tables");
    var shown = order.map(function (id) {
      var table = tables[id];
      return [id, table.name, table.game, table.turn, Boolean(table.until)].join("|");
    }).join("\n");
    if (strip && shown !== drawn) {
      drawn = shown;
      var list = strip.querySelector(".my-tables-list");
      var focused = document.activeElement;
      var focusedId = focused && list.contains(focused) ? focused.parentNode.dataset.table : "";
      while (list.firstChild) list.removeChild(list.firstChild);
      order.forEach(function (id) { list.appendChild(item(tables[id])); });
      var again = focusedId ? list.querySelector('li[data-table="' + focusedId + '"] a') : null;
      if (again) again.focus();
      strip.hidden = order.length === 0;
      var tiled = strip.querySelector(".tiled-link");
      if (tiled) tiled.hidden = order.length < 2;
    }
    Object.keys(tiles).forEach(function (id) {
      var turn = Boolean(tables[id] && tables[id].turn);
      tiles[id].classList.toggle("turn", turn);
      var mark = tiles[id].querySelector(".turn-mark");
      if (mark) mark.hidden = !turn;
    });
  }

  function tickTimes() {
    document.querySelectorAll("#my-tables li[data-table] .turn-time").forEach(function (node) {
      var table = tables[node.parentNode.dataset.table];
      if (table && table.until) node.textContent = say(WORDS.left, { time: clock(table.until) });
    });
  }

  // The turn at one table changed (a table page said so, or the poll did).
  function turnAt(id, turn, until) {
    var table = tables[String(id)];
    if (!table) return false;
    var was = table.turn;
    table.turn = Boolean(turn);
    table.until = turn && until ? until : null;
    if (table.turn && !was) arrived(table);
    return true;
  }

  // What the server said (/my-tables.json): the strip's tables become those, in its order.
  function fromServer(answer) {
    var next = {};
    var ids = [];
    (answer.tables || []).forEach(function (row) {
      var id = String(row.id);
      var until = row.seconds === null || row.seconds === undefined ? null : Date.now() + row.seconds * 1000;
      next[id] = tables[id] || { id: row.id, turn: false, until: null };
      next[id].name = row.name;
      next[id].game = row.game;
      next[id].url = row.url;
      ids.push(id);
    });
    tables = next;
    order = ids;
    (answer.tables || []).forEach(function (row) {
      turnAt(row.id, row.turn, row.seconds === null ? null : Date.now() + row.seconds * 1000);
    });
    render();
  }

  // The strip as the server drew it: the state the script starts from.
  function fromPage() {
    document.querySelectorAll("#my-tables li[data-table]").forEach(function (li) {
      var id = li.dataset.table;
      var link = li.querySelector("a");
      var seconds = li.dataset.seconds;
      tables[id] = {
        id: Number(id), name: link.textContent, url: link.getAttribute("href"),
        game: (li.querySelector(".my-table-game") || {}).textContent || "",
        turn: li.classList.contains("turn"),
        until: seconds ? Date.now() + Number(seconds) * 1000 : null
      };
      order.push(id);
    });
  }

  var timer = null;
  var polling = false;
  function schedule() {
    window.clearTimeout(timer);
    var wait = document.hidden ? (notifying() ? HIDDEN_POLL_MS : 0) : POLL_MS;
    if (wait) timer = window.setTimeout(poll, wait);
  }

  function poll() {
    var strip = document.getElementById("my-tables");
    if (!strip || polling) return;
    polling = true;
    window.fetch(strip.dataset.url, {
      credentials: "same-origin", cache: "no-store", headers: { Accept: "application/json" }
    }).then(function (response) {
      if (response.status === 401) { order = []; render(); return "stop"; }
      return response.ok ? response.json().then(fromServer) : null;
    }).catch(function () { /* offline for now: the next poll tries again */ })
      .then(function (stop) {
        polling = false;
        if (stop !== "stop") schedule();
      });
  }

  // A table page: whether a decision of this player's is awaited here, as its fragments show
  // it (a running countdown, and a decision form of theirs), told to the other pages.
  var told = "";
  function tell() {
    if (!here) return;
    var ring = document.querySelector("#table-status svg.countdown[data-deadline]");
    var turn = Boolean(ring && document.querySelector(DECISIONS));
    var until = turn ? Date.parse(ring.dataset.deadline) || null : null;
    var stamp = turn + ":" + until;
    if (stamp === told) return;
    told = stamp;
    if (channel) channel.postMessage({ type: "turn", table: Number(here), turn: turn, until: until });
    if (turnAt(here, turn, until)) render();
    else if (turn) poll();  // just seated here: the strip does not list this table yet
  }

  if (channel) {
    channel.onmessage = function (event) {
      var message = event.data || {};
      if (message.type !== "turn" || typeof message.table !== "number") return;
      var until = typeof message.until === "number" ? message.until : null;
      if (turnAt(message.table, message.turn === true, until)) render();
      else if (message.turn === true) poll();  // a table the strip does not list yet
    };
  }

  function setUpNotify() {
    var button = document.querySelector("#my-tables .my-tables-notify");
    if (!button || !("Notification" in window)) return;
    button.hidden = false;
    button.setAttribute("aria-pressed", String(notifying()));
    button.addEventListener("click", function () {
      if (button.getAttribute("aria-pressed") === "true") {
        window.localStorage.setItem(NOTIFY, "false");
        button.setAttribute("aria-pressed", "false");
        return;
      }
      var granted = function (permission) {
        var on = permission === "granted";
        window.localStorage.setItem(NOTIFY, String(on));
        button.setAttribute("aria-pressed", String(on));
        if (!on) document.getElementById("my-tables-said").textContent = WORDS.blocked;
      };
      if (window.Notification.permission === "granted") granted("granted");
      else {
        var asked = window.Notification.requestPermission(granted);
        if (asked && asked.then) asked.then(granted);
      }
    });
  }

  // The tiled view: each tile framed on a screen wide enough for four, a link on a phone; a
  // choice of at most four tables.
  function setUpTiles() {
    document.querySelectorAll(".tile[data-table]").forEach(function (tile) {
      tiles[tile.dataset.table] = tile;
    });
    var wide = window.matchMedia("(min-width: 60rem)");
    var frame = function () {
      if (!wide.matches) return;
      document.querySelectorAll(".tile-frame[data-src]").forEach(function (box) {
        if (box.querySelector("iframe")) return;
        var iframe = document.createElement("iframe");
        iframe.src = box.dataset.src;
        iframe.title = box.dataset.title;
        box.appendChild(iframe);
      });
    };
    frame();
    if (wide.addEventListener) wide.addEventListener("change", frame);
    var choice = document.querySelector(".tile-choice[data-most]");
    if (choice) {
      var limit = function () {
        var boxes = choice.querySelectorAll("input[type=checkbox]");
        var picked = choice.querySelectorAll("input[type=checkbox]:checked").length;
        boxes.forEach(function (box) { box.disabled = !box.checked && picked >= Number(choice.dataset.most); });
      };
      choice.addEventListener("change", limit);
      limit();
    }
  }

  document.addEventListener("DOMContentLoaded", function () {
    fromPage();
    setUpTiles();
    setUpNotify();
    render();
    tell();
    schedule();
  });
  document.addEventListener("htmx:wsAfterMessage", tell);
  document.addEventListener("visibilitychange", function () {
    if (document.hidden) schedule();
    else poll();
  });
  window.setInterval(tickTimes, 1000);
})();

"use strict";
// One seat's page: a WebSocket to the table server, the page redrawn from each state message,
// answers sent as the rules core's own action JSON. Reconnects by itself after sleep or a
// Wi-Fi drop; a seat paired again on the tablet stops here for good.
(function () {
  var token = location.pathname.split("/").pop();
  var COLOURS = { red: "#d9292a", blue: "#2a61db", white: "#f4f4ee", orange: "#f98f1a",
                  green: "#2e9e42", brown: "#85542e" };
  var socket = null, retry = 0, retryTimer = null, stopped = false, nextId = 1;
  var pingTimer = null, lastPage = null;
  // The page's words in the seat's language, from the server: {words: {id: text},
  // plurals: {id: [forms]}, form: [the form for n = 0..199]}.
  var WORDS = {{WORDS}};

  function fill(text, values) {
    return text.replace(/\{(\w+)\}/g, function (all, key) {
      return values && Object.prototype.hasOwnProperty.call(values, key) ? String(values[key]) : all;
    });
  }
  function _(id, values) {
    var text = Object.prototype.hasOwnProperty.call(WORDS.words, id) ? WORDS.words[id] : id;
    return fill(text, values);
  }
  function n_(one, many, count, values) {
    var forms = WORDS.plurals[one];
    var n = Math.abs(Math.floor(count));
    var form = forms ? WORDS.form[n < 200 ? n : 100 + (n % 100)] : (count === 1 ? 0 : 1);
    var text = forms ? forms[form] : (count === 1 ? one : many);
    var all = { count: count };
    for (var key in values) all[key] = values[key];
    return fill(text, all);
  }
  // A language chosen on this phone wins over the browser's: remembered, and asked for.
  var chosen = null;
  try { chosen = localStorage.getItem("lang"); } catch (e) { /* private mode */ }
  if (chosen && chosen !== document.documentElement.lang && !/[?&]lang=/.test(location.search)) {
    location.replace(location.pathname + "?lang=" + encodeURIComponent(chosen));
    return;
  }
  document.getElementById("lang").addEventListener("change", function (event) {
    try { localStorage.setItem("lang", event.target.value); } catch (e) { /* private mode */ }
    location.replace(location.pathname + "?lang=" + encodeURIComponent(event.target.value));
  });

  function $(id) { return document.getElementById(id); }
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = String(text);
    return e;
  }
  function clear(node) { while (node.firstChild) node.removeChild(node.firstChild); }

  function setLink(up, words) {
    var link = $("link");
    link.className = "link " + (up ? "up" : "down");
    link.textContent = words;
  }
  function notice(words, info) {
    var n = $("notice");
    if (!words) { n.hidden = true; return; }
    n.hidden = false;
    n.className = info ? "info" : "";
    n.textContent = words;
  }

  function connect() {
    if (stopped) return;
    clearTimeout(retryTimer);
    var scheme = location.protocol === "https:" ? "wss://" : "ws://";
    var ws = new WebSocket(scheme + location.host + "/ws/" + token +
      "?lang=" + encodeURIComponent(document.documentElement.lang));
    socket = ws;
    setLink(false, retry ? _("reconnecting…") : _("connecting…"));
    ws.onopen = function () { retry = 0; setLink(true, _("live")); notice(""); };
    ws.onmessage = function (event) {
      if (socket !== ws) return;  // a connection given up for dead
      var msg;
      try { msg = JSON.parse(event.data); } catch (e) { return; }
      clearTimeout(pingTimer);
      if (msg.type === "state") { lastPage = msg.page; render(msg.page); }
      else if (msg.type === "result") {
        if (!msg.ok) { notice(_("Not taken: {reason}", { reason: msg.error })); enableChoices(); }
      }
      else if (msg.type === "hint") { hinted(msg); }
      else if (msg.type === "refused") { notice(_("Refused: {reason}", { reason: msg.error })); enableChoices(); }
    };
    ws.onclose = function (event) {
      if (socket !== ws) return;
      socket = null;
      disableChoices();  // an answer needs the table: the next page brings them back
      if (event.code === 4001) {
        stopped = true;
        setLink(false, _("not paired"));
        notice(_("This seat was paired again on the tablet: scan its new QR code."));
        return;
      }
      if (event.code === 4002) {
        stopped = true;
        setLink(false, _("opened elsewhere"));
        notice(_("This seat's page was opened on another phone. Reload to take it back."), true);
        return;
      }
      retry += 1;
      var delay = Math.min(5000, 250 * Math.pow(2, Math.min(retry, 5)));
      setLink(false, _("reconnecting…"));
      retryTimer = setTimeout(connect, delay);
    };
  }

  // Back from sleep or a network change: a socket that looks open may be dead. Reconnect
  // at once if closed; otherwise ask the server, and reconnect if it does not answer.
  function wake() {
    if (stopped) return;
    if (!socket || socket.readyState > 1) { retry = 0; connect(); return; }
    if (socket.readyState === 1) {
      try { socket.send('{"type":"ping"}'); } catch (e) { /* closed meanwhile */ }
      var s = socket;
      clearTimeout(pingTimer);
      pingTimer = setTimeout(function () {
        if (socket !== s) return;
        socket = null;  // a dead socket's close can hang: leave it and connect afresh
        try { s.close(); } catch (e) { /* already closing */ }
        retry = 0;
        connect();
      }, 3000);
    }
  }
  document.addEventListener("visibilitychange", function () {
    if (document.visibilityState === "visible") wake();
  });
  window.addEventListener("online", wake);
  window.addEventListener("focus", wake);

  function answer(action, button) {
    if (!socket || socket.readyState !== 1) { notice(_("Not connected: wait a moment.")); return; }
    disableChoices();
    if (button) button.classList.add("sent");
    socket.send(JSON.stringify({ type: "answer", id: nextId++, action: action }));
  }
  function disableChoices() {
    var buttons = document.querySelectorAll("#decision button");
    for (var i = 0; i < buttons.length; i++) buttons[i].disabled = true;
  }
  function enableChoices() {
    var buttons = document.querySelectorAll("#decision button");
    for (var i = 0; i < buttons.length; i++) buttons[i].disabled = false;
  }

  function render(p) {
    document.documentElement.style.setProperty("--seat", COLOURS[p.colour] || "#888");
    $("seat-name").textContent = p.name;
    document.title = p.name + " · Catan Companion";
    renderDecision(p);
    renderHint(p);
    renderWhyNot(p.why_not || {});
    renderHand(p.hand);
    renderProgress(p.progress, p.vp_cards);
    $("vp-total").textContent = p.vp.total;
    var parts = $("vp-parts"); clear(parts);
    if (!p.vp.parts.length) parts.appendChild(el("li", "muted", _("none yet")));
    p.vp.parts.forEach(function (part) {
      var li = el("li"); li.appendChild(el("span", "", part[0]));
      li.appendChild(el("span", "muted", "+" + part[1])); parts.appendChild(li);
    });
    renderSea(p.sea);
    renderKnights(p);
    renderTable(p);
    var log = $("log"); clear(log);
    if (!p.log.length) log.appendChild(el("li", "muted", _("nothing yet")));
    p.log.slice().reverse().forEach(function (line) {
      var text = typeof line === "string" ? line : line.text;
      log.appendChild(el("li", line && line.private ? "private" : "", text));
    });
  }

  // On this seat's turn: what it cannot do now and why, in this page's language.
  function renderWhyNot(byLanguage) {
    var rows = byLanguage[document.documentElement.lang] || byLanguage.en || [];
    $("why-not-card").hidden = !rows.length;
    var list = $("why-not"); clear(list);
    rows.forEach(function (r) {
      var li = el("li", "why-not");
      li.appendChild(el("b", "", r.title + ": "));
      li.appendChild(document.createTextNode(r.text));
      if (r.rule) li.appendChild(el("div", "muted", r.rule));
      list.appendChild(li);
    });
  }

  // "What would the Expert do?" (games with a seat the tablet plays), on this seat's own
  // decision: the tablet's Expert answers this phone only; the answer stays while the
  // decision is due.
  var hintId = 0, hintKey = null;
  function renderHint(p) {
    var key = p.hint ? p.turn.moves + "|" + p.turn.prompt : null;
    $("hint-card").hidden = !p.hint;
    if (key === hintKey) return;
    hintKey = key; hintId = 0;
    $("hint-ask").disabled = false;
    showHint("", false);
  }
  function showHint(text, muted) {
    var a = $("hint-answer");
    a.hidden = !text;
    a.className = muted ? "muted" : "";
    a.textContent = text;
  }
  function askHint() {
    if (!socket || socket.readyState !== 1) { notice(_("Not connected: wait a moment.")); return; }
    hintId = nextId++;
    $("hint-ask").disabled = true;
    showHint(_("The Expert is thinking…"), true);
    socket.send(JSON.stringify({ type: "hint", id: hintId }));
  }
  function hinted(msg) {
    if (msg.id !== hintId) return;  // asked about an earlier decision
    $("hint-ask").disabled = false;
    if (msg.ok) showHint(msg.text, false);
    else showHint(_("Not taken: {reason}", { reason: msg.error }), true);
  }
  $("hint-ask").addEventListener("click", askHint);

  // The special build phase (5-6 players): "I'll build" asks the table to let this seat build
  // now; the tablet shows the request, the building is done there.
  function askToBuild(button) {
    if (!socket || socket.readyState !== 1) { notice(_("Not connected: wait a moment.")); return; }
    disableChoices();
    button.classList.add("sent");
    socket.send(JSON.stringify({ type: "build", id: nextId++ }));
  }
  function renderSpecialBuild(box, s) {
    box.hidden = false;
    box.appendChild(el("h2", "", _("Special build")));
    box.appendChild(el("p", "", s.builder
      ? _("{player} builds now; then {next} rolls.", { player: s.builder, next: s.next })
      : _("Before {player} rolls, who builds?", { player: s.next })));
    if (s.asked) {
      box.appendChild(el("p", "muted", _("The tablet shows that you would like to build.")));
      return;
    }
    if (!s.may_ask) return;
    var choices = el("div", "choices");
    var b = el("button", "accept", _("I'll build"));
    b.setAttribute("data-request", "build");
    b.addEventListener("click", function () { askToBuild(b); });
    choices.appendChild(b);
    box.appendChild(choices);
  }

  function renderDecision(p) {
    var box = $("decision");
    clear(box);
    var d = p.decision;
    if (!d && p.special_build) { renderSpecialBuild(box, p.special_build); return; }
    if (!d) { box.hidden = true; return; }
    box.hidden = false;
    // The rules core's words, once: for a gold field they count the choices still owed.
    box.appendChild(el("h2", "", d.words));
    if (d.detail) box.appendChild(el("p", "", d.detail));
    var choices = el("div", "choices");
    d.choices.forEach(function (c) {
      var cls = c.action.type === "accept_trade" ? "accept"
              : c.action.type === "decline_trade" ? "decline"
              : c.action.type === "take_gold" ? "gold" : "";
      var b = el("button", cls, c.label);
      b.setAttribute("data-action", c.action.type);
      if (c.action.type === "take_gold") b.style.background = "var(--" + c.action.card + ")";
      b.addEventListener("click", function () { answer(c.action, b); });
      choices.appendChild(b);
    });
    box.appendChild(choices);
  }

  function renderHand(h) {
    $("hand-total").textContent = n_("{count} card", "{count} cards", h.total) + " · " +
      _("a 7 takes half above {limit}", { limit: h.limit });
    [["resources", h.resources], ["commodities", h.commodities]].forEach(function (pair) {
      var box = $(pair[0]); clear(box);
      pair[1].forEach(function (kc) {
        var d = el("div", "res" + (kc[1] ? "" : " zero"));
        d.style.background = "var(--" + kc[0] + ")";
        d.setAttribute("data-card", kc[0]);
        d.appendChild(el("span", "n", kc[1]));
        d.appendChild(el("span", "k", (h.names && h.names[kc[0]]) || kc[0]));
        box.appendChild(d);
      });
    });
  }

  function renderProgress(cards, revealed) {
    var box = $("progress"); clear(box);
    if (!cards.length) box.appendChild(el("p", "muted", _("none in hand")));
    if (revealed.length) box.appendChild(el("p", "muted", _("Shown (1 VP each): {cards}", { cards: revealed.join(", ") })));
    cards.forEach(function (c) {
      var d = el("div", "progress " + c.track);
      d.appendChild(el("b", "", c.title));
      d.appendChild(el("span", "muted", c.text));
      box.appendChild(d);
    });
  }

  // On a sea board (§13): the seat's ships, its small islands and the Longest Trade Route.
  function renderSea(s) {
    $("sea-card").hidden = !s;
    var list = $("sea"); clear(list);
    if (!s) return;
    function row(words, value) {
      var li = el("li"); li.appendChild(el("span", "", words));
      if (value !== undefined) li.appendChild(el("span", "muted", value));
      list.appendChild(li);
    }
    row(n_("{count} ship on the board", "{count} ships on the board", s.ships),
      _("{left} of {total} still to build", { left: s.ships_left, total: s.ships_total }));
    if (s.by_pirate) {
      row(n_("{count} ship next to the pirate: it does not move",
        "{count} ships next to the pirate: they do not move", s.by_pirate));
    }
    row(n_("{count} small island settled", "{count} small islands settled", s.islands),
      s.islands ? _("+{vp} VP (island chits)", { vp: 2 * s.islands }) : undefined);
    row(n_("your trade route: {count} road or ship", "your trade route: {count} roads and ships", s.route),
      s.route_holder ? _("Longest Trade Route: {player}", { player: s.route_holder })
                     : _("Longest Trade Route: nobody yet"));
  }

  function renderKnights(p) {
    var box = $("knights"); clear(box);
    if (!p.knights.length) box.appendChild(el("p", "muted", _("no knights on the board")));
    p.knights.forEach(function (k) {
      box.appendChild(el("span", "chip" + (k.active ? " active" : ""),
        k.level + " · " + (k.active ? _("active") : _("inactive"))));
    });
    var imp = $("improvements"); clear(imp);
    p.improvements.forEach(function (i) {
      imp.appendChild(el("span", "chip", i.words + ": " + (i.level ? i.name + " (" + i.level + ")" : "—")));
    });
  }

  function forecastWords(f) {
    var when = n_("{count} space left", "{count} spaces left", f.spaces) + " · " +
      n_("about {count} roll", "about {count} rolls", f.rolls);
    var now = _("if they came now: {strength} against {defence}", { strength: f.strength, defence: f.defence });
    var outcome;
    if (f.losers.length) outcome = _("{players} would lose a city", { players: f.losers.join(", ") });
    else if (f.defender) outcome = _("Defender: {player}", { player: f.defender });
    else if (f.tied.length) outcome = _("tie: {players} would each draw a progress card", { players: f.tied.join(", ") });
    else if (f.defence >= f.strength) outcome = _("Catan would hold");
    else outcome = _("nobody has a city to lose");
    return when + " · " + now + " · " + outcome;
  }

  function renderCastles(castles) {
    var titles = { trade: _("Yellow castle (trade)"), politics: _("Blue castle (politics)"), science: _("Green castle (science)") };
    var box = $("castles"); clear(box);
    castles.forEach(function (c) {
      var runs = [], start = 0;
      for (var red = 1; red <= c.draws.length; red++) {
        if (red < c.draws.length && c.draws[red].join() === c.draws[start].join()) continue;
        var numbers = red === start + 1 ? String(start + 1) : (start + 1) + "–" + red;
        var who = c.draws[start].length ? c.draws[start].join(", ") : _("nobody");
        runs.push(_("red {numbers}: {players}", { numbers: numbers, players: who }));
        start = red;
      }
      box.appendChild(el("div", "", (titles[c.track] || c.track) + " · " + runs.join(" · ")));
    });
  }

  function renderTable(p) {
    $("turn").textContent = p.winner ? _("{player} has won the game", { player: p.winner }) :
      _("{player}'s turn", { player: p.turn.active }) + " · " + p.turn.prompt;
    var roll = $("roll"); clear(roll);
    if (p.roll) {
      roll.appendChild(document.createTextNode(_("Last roll:") + " "));
      roll.appendChild(el("span", "die yellow", p.roll.yellow));
      roll.appendChild(el("span", "die red", p.roll.red));
      roll.appendChild(document.createTextNode(" = " + p.roll.total + " · " +
        _("event die: {face}", { face: p.roll.face })));
    } else {
      roll.textContent = _("No roll yet");
    }
    var modes = { balanced: _("Dice: balanced"), deck: _("Dice: card deck") };
    if (modes[p.dice_mode]) { roll.appendChild(el("div", "dice-mode", modes[p.dice_mode])); }
    // Where the robber stands and, on a sea board, the pirate: the server's words.
    $("robber").textContent = [p.robber, p.pirate].filter(Boolean).join(" · ");
    var b = p.barbarians, box = $("barbarians"); clear(box);
    box.appendChild(el("div", "",
      _("Barbarians {position} of {length} · strength {strength} against knights {knights}",
        { position: b.position, length: b.length, strength: b.strength, knights: b.knights }) +
      (b.attacks ? " · " + _("attacks so far: {count}", { count: b.attacks }) : "")));
    var track = el("div", "track");
    for (var i = 1; i <= b.length; i++) track.appendChild(el("span", i <= b.position ? "ship" : ""));
    box.appendChild(track);
    box.appendChild(el("div", "", forecastWords(b.forecast)));
    renderCastles(p.castles);
    var table = $("players"); clear(table);
    p.players.forEach(function (q) {
      var tr = el("tr", q.active ? "active" : "");
      var name = el("td");
      var sw = el("span", "swatch"); sw.style.background = COLOURS[q.colour] || "#888";
      name.appendChild(sw); name.appendChild(document.createTextNode(q.name));
      tr.appendChild(name);
      tr.appendChild(el("td", "", _("{vp} VP", { vp: q.vp })));
      tr.appendChild(el("td", "muted", n_("{count} card", "{count} cards", q.cards)));
      tr.appendChild(el("td", "muted", n_("{count} progress card", "{count} progress cards", q.progress_cards)));
      var pieces = el("td", "muted", _("strength {strength}", { strength: q.knights }));
      if (q.ships !== undefined) pieces.appendChild(el("div", "", n_("{count} ship", "{count} ships", q.ships)));
      tr.appendChild(pieces);
      table.appendChild(tr);
    });
  }

  connect();
})();

/* One game's page: add a photo per turn, show move-by-move reports, scores, winner. */
"use strict";
(() => {
  const { $, el, send, render, showError, setupUpload, photoForm, setPhoto, state } = TTC;
  const gameId = () => $("game-title").dataset.game;
  let lastTurn = 0;

  function describe(turn, prev) {
    const before = new Map((prev ? prev.board.tiles : []).map((t) => [t.tile, t]));
    const added = turn.board.tiles.filter((t) => !before.has(t.tile)).map((t) => `${t.tile} at (${t.q}, ${t.r})`);
    const r = turn.report;
    const parts = [];
    parts.push(added.length ? `placed ${added.join(", ")}` : "no new tile");
    parts.push(`${r.tiles} tiles on the table`);
    if (r.mismatches.length) parts.push(`${r.mismatches.length} mismatch${r.mismatches.length > 1 ? "es" : ""}`);
    if (r.forced_spaces.length) parts.push(`${r.forced_spaces.length} forced space${r.forced_spaces.length > 1 ? "s" : ""}`);
    for (const v of r.restraint_violations || []) parts.push(`restraint ${v.rule} broken: ${v.reason}`);
    return parts.join("; ");
  }

  /* One turn of the referee's replay (referee.replay) in words. */
  function replayTurn(rt) {
    const parts = [];
    const who = rt.player ? `${rt.player} (${rt.colour})` : "";
    const placed = rt.placed.map((p) => `${p.kind} tile ${p.tile} at (${p.cell[0]}, ${p.cell[1]})` +
      (p.legal ? "" : ` — not allowed: ${p.reason}`));
    parts.push((who ? who + ": " : "") + (placed.length ? placed.join(", ") : "no tile played"));
    for (const n of rt.notes) if (n !== "no tile played") parts.push(n);
    return { text: parts.join("; "), violations: rt.violations, bag: rt.bag };
  }

  function show(game) {
    const ol = $("turns");
    ol.replaceChildren();
    const rturns = game.replay && Array.isArray(game.replay.turns) ? game.replay.turns : null;
    game.turns.forEach((t, i) => {
      const li = el("li", { class: "turn", "data-n": t.n });
      const rt = rturns && rturns[i] ? replayTurn(rturns[i]) : null;
      li.appendChild(el("span", {}, `Turn ${t.n}: ` + (rt ? rt.text : describe(t, game.turns[i - 1]))));
      const scores = game.players.map((p) => `${p.name} ${t.scores[p.colour]}`).join(", ");
      li.appendChild(el("span", { class: "hint" }, ` — ${scores}` + (rt ? `; bag ${rt.bag} before the turn` : "")));
      if (t.photo) { const a = el("a", { href: t.photo, target: "_blank" }, " photo"); li.appendChild(a); }
      if (rt && rt.violations.length) {
        const ul = el("ul", { class: "violations" });
        for (const v of rt.violations) ul.appendChild(el("li", { class: "finding violation" }, v));
        li.appendChild(ul);
      }
      ol.appendChild(li);
    });
    if (game.replay && game.replay.error) {
      ol.appendChild(el("li", { class: "error" }, "The move-by-move replay could not judge this game: " + game.replay.error));
    }
    lastTurn = game.turns.length ? game.turns[game.turns.length - 1].n : 0;
    for (const tr of document.querySelectorAll("#players tbody tr")) {
      tr.querySelector(".score").textContent = game.scores ? game.scores[tr.dataset.colour] : 0;
    }
    let status = `${game.turns.length} turn${game.turns.length === 1 ? "" : "s"} recorded.`;
    if (typeof game.bag === "number" && game.turns.length) status += game.bag ? ` ${game.bag} tile${game.bag === 1 ? "" : "s"} left in the bag.` : " The bag is empty: endgame, restraints lifted.";
    if (game.replay && game.replay.violations) status += ` ${game.replay.violations} rule violation${game.replay.violations === 1 ? "" : "s"} so far.`;
    if (game.winners) status += ` Game over — winner: ${game.winners.join(" and ")}.`;
    else if (game.leaders && game.turns.length) status += ` Leading: ${game.leaders.join(" and ")}.`;
    $("game-status").textContent = status;
    if (game.finished) { const f = $("finish"); if (f) f.hidden = true; const u = $("upload"); if (u) u.hidden = true; }
    const bag = $("bag-empty");
    // once the bag is empty it stays empty for the rest of the game
    if (bag && game.turns.length && game.turns[game.turns.length - 1].board.bag_empty) bag.checked = true;
    if (game.view && game.turns.length) {
      const last = game.turns[game.turns.length - 1];
      setPhoto(null);
      state.photoURL = last.photo;
      render(Object.assign({}, last.report, { board: last.board }, game.view));
    } else {
      $("result").hidden = true;
    }
  }

  async function refresh() {
    const r = await fetch(`/api/games/${encodeURIComponent(gameId())}?view=1`);
    const data = await r.json();
    if (!r.ok) throw new Error(data.error || r.status);
    show(data);
  }

  async function add(body, stage) {
    try {
      await send("POST", `/api/games/${encodeURIComponent(gameId())}/turns`, body, stage);
      await refresh();
      showError("");
    } catch (e) { showError(e.message); }
  }

  document.addEventListener("DOMContentLoaded", () => {
    state.onCorrect = async (board) => {
      await send("PUT", `/api/games/${encodeURIComponent(gameId())}/turns/${lastTurn}`, board, "Re-checking…");
      await refresh();
    };
    setupUpload((file) => add(photoForm(file)), (board) => add(board, "Refereeing…"));
    $("undo").addEventListener("click", async () => {
      if (!confirm("Remove the last turn?")) return;
      try { await send("DELETE", `/api/games/${encodeURIComponent(gameId())}/turns/last`, {}, "Removing…"); await refresh(); }
      catch (e) { showError(e.message); }
    });
    const fin = $("finish");
    if (fin) fin.addEventListener("click", async () => {
      try { await send("POST", `/api/games/${encodeURIComponent(gameId())}/finish`, {}, "Finishing…"); await refresh(); }
      catch (e) { showError(e.message); }
    });
    refresh().catch((e) => showError(e.message));
  });
})();

/* Shared page code: uploads with progress, drawing a result (overlay, diagram, scores,
   findings) and hand correction of tiles.  Plain JS, no build step, no network but ours.
   Text from the server is only ever inserted with textContent (escaped by the DOM). */
"use strict";

const TTC = (() => {
  const $ = (id) => document.getElementById(id);
  const SVGNS = "http://www.w3.org/2000/svg";
  const COLOURS = ["red", "yellow", "green", "blue"];
  const state = { board: null, report: null, photoURL: null, onCorrect: null };

  function showError(msg) {
    const el = $("error");
    if (!el) { alert(msg); return; }
    el.textContent = msg;
    el.hidden = !msg;
  }

  function progress(fraction, text) {
    const box = $("progress");
    if (!box) return;
    box.hidden = fraction === null;
    if (fraction === null) return;
    const bar = $("progress-bar");
    bar.classList.toggle("busy", fraction < 0);
    bar.style.width = fraction < 0 ? "100%" : Math.round(fraction * 100) + "%";
    $("progress-text").textContent = text;
  }

  /* POST (or PUT) a FormData or JSON body; resolves with the parsed JSON answer.
     Upload progress, then an "analysing" stage with elapsed seconds. */
  function send(method, url, body, stageText) {
    return new Promise((resolve, reject) => {
      const xhr = new XMLHttpRequest();
      let timer = null;
      const t0 = Date.now();
      xhr.open(method, url);
      xhr.responseType = "text";
      if (!(body instanceof FormData)) {
        xhr.setRequestHeader("Content-Type", "application/json");
        body = JSON.stringify(body);
      }
      xhr.upload.onprogress = (e) => {
        if (e.lengthComputable) progress(e.loaded / e.total * 0.999, "Uploading… " + Math.round(100 * e.loaded / e.total) + "%");
      };
      xhr.upload.onload = () => {
        const tick = () => progress(-1, (stageText || "Reading the tiles and refereeing…") + " " + ((Date.now() - t0) / 1000).toFixed(0) + " s");
        tick();
        timer = setInterval(tick, 500);
      };
      xhr.onload = () => {
        clearInterval(timer);
        progress(null);
        let data = null;
        try { data = JSON.parse(xhr.responseText); } catch (e) { /* not JSON */ }
        if (xhr.status >= 200 && xhr.status < 300 && data) resolve(data);
        else reject(new Error((data && data.error) || ("server answered " + xhr.status)));
      };
      xhr.onerror = () => { clearInterval(timer); progress(null); reject(new Error("network error: is the server running?")); };
      progress(0, "Uploading…");
      xhr.send(body);
    });
  }

  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function svg(tag, attrs, text) {
    const e = document.createElementNS(SVGNS, tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }

  function hexPoints(x, y, r) {
    const pts = [];
    for (let k = 0; k < 6; k++) {
      const a = Math.PI / 3 * k;
      pts.push((x + r * Math.cos(a)).toFixed(1) + "," + (y + r * Math.sin(a)).toFixed(1));
    }
    return pts.join(" ");
  }

  /* The reader's view drawn over the photo: tile numbers at their pixels, mismatching
     edges, marks on empty cells, low-confidence tiles outlined (click to correct). */
  function drawOverlay(ov) {
    const layer = $("overlay");
    if (!layer) return;
    layer.replaceChildren();
    if (!ov || !ov.width) { layer.removeAttribute("viewBox"); return; }
    layer.setAttribute("viewBox", `0 0 ${ov.width} ${ov.height}`);
    const r = ov.radius;
    const font = Math.max(10, r * 0.55);
    for (const m of ov.marks) {
      const g = svg("g", { class: "mark " + m.kind });
      g.appendChild(svg("polygon", { points: hexPoints(m.x, m.y, r * 0.9) }));
      g.appendChild(svg("title", {}, `${m.kind} (${m.cell[0]}, ${m.cell[1]})`));
      layer.appendChild(g);
    }
    for (const t of ov.tiles) {
      const g = svg("g", { class: "otile" + (t.low ? " low" : ""), "data-q": t.cell[0], "data-r": t.cell[1], "data-tile": t.tile });
      g.appendChild(svg("circle", { cx: t.x, cy: t.y, r: r * 0.34 }));
      g.appendChild(svg("text", { x: t.x, y: t.y + font * 0.33, "font-size": font * 0.8 }, String(t.tile)));
      const conf = typeof t.confidence === "number" ? `, confidence ${t.confidence.toFixed(2)}` : "";
      g.appendChild(svg("title", {}, `tile ${t.tile} rotation ${t.rotation}${conf} — click to correct`));
      g.addEventListener("click", () => openFix(t.cell[0], t.cell[1]));
      layer.appendChild(g);
    }
    for (const t of ov.loose) {
      const g = svg("g", { class: "loose" });
      g.appendChild(svg("circle", { cx: t.x, cy: t.y, r: r * 0.42 }));
      g.appendChild(svg("title", {}, `loose tile ${t.tile === null || t.tile === undefined ? "?" : t.tile} (not part of the Tantrix)`));
      layer.appendChild(g);
    }
    for (const u of ov.unreadable || []) {
      const g = svg("g", { class: "unreadable", "data-q": u.cell[0], "data-r": u.cell[1] });
      g.appendChild(svg("polygon", { points: hexPoints(u.x, u.y, r * 0.9) }));
      g.appendChild(svg("text", { x: u.x, y: u.y + font * 0.35, "font-size": font * 1.4 }, "?"));
      g.appendChild(svg("title", {}, `unreadable tile at (${u.cell[0]}, ${u.cell[1]}) — click to say which tile it is`));
      g.addEventListener("click", () => openFix(u.cell[0], u.cell[1]));
      layer.appendChild(g);
    }
    for (const m of ov.mismatches) {
      const line = svg("line", { class: "mismatch", x1: m.x1, y1: m.y1, x2: m.x2, y2: m.y2, "stroke-width": Math.max(3, r * 0.14) });
      line.appendChild(svg("title", {}, `mismatch: ${m.colours[0]} meets ${m.colours[1]}`));
      layer.appendChild(line);
    }
  }

  function drawScores(report) {
    const body = document.querySelector("#scores tbody");
    body.replaceChildren();
    for (const c of COLOURS) {
      const s = report.colours[c];
      if (!s) continue;
      const tr = el("tr", { "data-colour": c });
      const name = el("td");
      name.appendChild(el("span", { class: "swatch " + c }));
      name.appendChild(document.createTextNode(c));
      tr.appendChild(name);
      tr.appendChild(el("td", {}, String(s.longest_line)));
      tr.appendChild(el("td", {}, String(s.longest_loop)));
      tr.appendChild(el("td", { class: "score" }, String(s.score)));
      body.appendChild(tr);
    }
  }

  function drawFindings(items) {
    const ul = $("findings");
    ul.replaceChildren();
    for (const f of items) ul.appendChild(el("li", { class: "finding " + f.kind }, f.text));
  }

  function verdictText(report) {
    const bad = report.mismatches.length + (report.restraint_violations || []).length +
                report.same_colour_forced.length + report.holes.length;
    const low = (report.low_tiles || []).length;
    let text = `${report.tiles} tile${report.tiles === 1 ? "" : "s"} read. `;
    text += bad ? `${bad} problem${bad === 1 ? "" : "s"} found.` : "No problems found.";
    if (report.forced_spaces.length) text += ` ${report.forced_spaces.length} forced space${report.forced_spaces.length === 1 ? "" : "s"} to fill.`;
    if (low) text += ` ${low} tile${low === 1 ? "" : "s"} read with low confidence: please check the outlined tiles.`;
    if (report.unreadable) text += ` ${report.unreadable} tile${report.unreadable === 1 ? "" : "s"} could not be read (marked ?): click to say which.`;
    return { text, bad: bad > 0 };
  }

  /* Draw a full /api/analyze?view=1 answer (or a puzzle verdict carrying one). */
  function render(report, extraVerdict, solved) {
    state.report = report;
    state.board = report.board;
    $("result").hidden = false;
    const v = $("verdict");
    v.replaceChildren();
    const main = verdictText(report);
    // A puzzle's verdict decides the colour; otherwise any broken rule does.
    const bad = solved === undefined ? main.bad : !solved;
    v.className = "verdict card " + (bad ? "bad" : "good");
    if (extraVerdict) v.appendChild(extraVerdict);
    v.appendChild(el("p", { id: "verdict-text" }, main.text));
    $("diagram").innerHTML = report.diagram;  // server-built SVG; every text in it is escaped
    for (const g of $("diagram").querySelectorAll("g.tile, g.unreadable")) {
      g.addEventListener("click", () => openFix(+g.dataset.q, +g.dataset.r));
    }
    const pane = $("photo-pane");
    if (pane) {
      pane.hidden = !(state.photoURL && report.overlay);
      if (state.photoURL) $("photo").src = state.photoURL;
      drawOverlay(report.overlay);
    }
    drawScores(report);
    drawFindings(report.findings);
    $("board-json").textContent = JSON.stringify(report.board, null, 1);
    document.body.dataset.state = "done";
  }

  function openFix(q, r) {
    if (!state.board) return;
    let t = state.board.tiles.find((t) => t.q === q && t.r === r);
    if (!t) {
      const u = (state.board.unreadable || []).find((u) => u.q === q && u.r === r);
      if (!u) return;
      t = { q, r, tile: 1, rotation: 0, confidence: 0 };
    }
    $("fix-cell").textContent = `(${q}, ${r})`;
    $("fix-conf").textContent = !t.confidence && !t.pixel ? "not read: which tile lies here?" :
      typeof t.confidence === "number" ? `read as tile ${t.tile}, rotation ${t.rotation}, confidence ${t.confidence.toFixed(2)}` : `tile ${t.tile}, rotation ${t.rotation}`;
    $("fix-tile").value = t.tile;
    $("fix-rot").value = t.rotation;
    const dlg = $("fix");
    dlg.dataset.q = q;
    dlg.dataset.r = r;
    dlg.showModal();
  }

  function setupFix() {
    const dlg = $("fix");
    if (!dlg) return;
    $("fix-cancel").addEventListener("click", () => dlg.close());
    $("fix-form").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const q = +dlg.dataset.q, r = +dlg.dataset.r;
      const board = JSON.parse(JSON.stringify(state.board));
      let t = board.tiles.find((t) => t.q === q && t.r === r);
      if (!t) {  // an unreadable tile named by hand: it joins the board at the reader's pixel
        const i = (board.unreadable || []).findIndex((u) => u.q === q && u.r === r);
        t = { q, r, pixel: board.unreadable[i].pixel };
        board.unreadable.splice(i, 1);
        board.tiles.push(t);
      }
      delete t.low_confidence;
      t.tile = parseInt($("fix-tile").value, 10);
      t.rotation = parseInt($("fix-rot").value, 10);
      t.confidence = 1.0;
      t.corrected = true;
      dlg.close();
      try {
        if (state.onCorrect) await state.onCorrect(board);
        else render(await send("POST", "/api/analyze?view=1", board, "Re-checking…"));
        showError("");
      } catch (e) { showError(e.message); }
    });
  }

  /* Wire the drop zone, file pickers and camera capture to a handler(file). */
  function setupUpload(onFile, onBoard) {
    const drop = $("drop");
    if (!drop) return;
    const pick = (file) => { if (file) { showError(""); onFile(file); } };
    for (const id of ["file", "capture"]) {
      const input = $(id);
      if (input) input.addEventListener("change", () => { pick(input.files[0]); input.value = ""; });
    }
    const bf = $("board-file");
    if (bf) bf.addEventListener("change", async () => {
      const f = bf.files[0];
      bf.value = "";
      if (!f) return;
      let data;
      try { data = JSON.parse(await f.text()); } catch (e) { showError("that file is not JSON: " + e.message); return; }
      showError("");
      onBoard(data);
    });
    drop.addEventListener("dragover", (e) => { e.preventDefault(); drop.classList.add("over"); });
    drop.addEventListener("dragleave", () => drop.classList.remove("over"));
    drop.addEventListener("drop", (e) => {
      e.preventDefault();
      drop.classList.remove("over");
      pick(e.dataTransfer.files[0]);
    });
  }

  /* A calibration profile chosen on the page is remembered in this browser and sent
     with every photo (the server's own --profile is used when none is chosen). */
  const PROFILE_KEY = "tantrix-profile";
  function setupProfile() {
    const input = $("profile-file");
    if (!input) return;
    const show = () => {
      const saved = localStorage.getItem(PROFILE_KEY);
      $("profile-name").textContent = saved ? "using " + JSON.parse(saved).name : "";
      $("profile-clear").hidden = !saved;
    };
    input.addEventListener("change", async () => {
      const f = input.files[0];
      input.value = "";
      if (!f) return;
      const text = await f.text();
      try { JSON.parse(text); } catch (e) { showError("that profile is not JSON: " + e.message); return; }
      localStorage.setItem(PROFILE_KEY, JSON.stringify({ name: f.name, text }));
      show();
    });
    $("profile-clear").addEventListener("click", () => { localStorage.removeItem(PROFILE_KEY); show(); });
    show();
  }

  function photoForm(file) {
    const fd = new FormData();
    fd.append("photo", file, file.name || "photo.jpg");
    const bag = $("bag-empty");
    if (bag && bag.checked) fd.append("bag_empty", "1");
    const saved = localStorage.getItem(PROFILE_KEY);
    if (saved) {
      const p = JSON.parse(saved);
      fd.append("profile", new Blob([p.text], { type: "application/json" }), p.name);
    }
    return fd;
  }

  function setPhoto(file) {
    if (state.photoURL) URL.revokeObjectURL(state.photoURL);
    state.photoURL = file ? URL.createObjectURL(file) : null;
  }

  document.addEventListener("DOMContentLoaded", () => { setupFix(); setupProfile(); });
  return { $, el, state, send, render, showError, setupUpload, photoForm, setPhoto, progress, openFix };
})();

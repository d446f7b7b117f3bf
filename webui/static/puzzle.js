/* "Check a puzzle": choose a puzzle, upload a photo -> /api/check/<puzzle> -> verdict. */
"use strict";
(() => {
  const { $, el, send, render, showError, setupUpload, photoForm, setPhoto, state } = TTC;

  function show(verdict) {
    const box = el("div", { class: "puzzle-verdict " + (verdict.solved ? "solved" : "unsolved") });
    box.appendChild(el("h2", { id: "puzzle-solved" }, `${verdict.puzzle}: ${verdict.solved ? "solved" : "not solved"}`));
    if (verdict.goal) box.appendChild(el("p", { class: "hint" }, "Goal: " + verdict.goal));
    if (verdict.reasons && verdict.reasons.length) {
      const ul = el("ul", { id: "reasons" });
      for (const r of verdict.reasons) ul.appendChild(el("li", {}, typeof r === "string" ? r : JSON.stringify(r)));
      box.appendChild(ul);
    }
    const report = Object.assign({}, verdict.report, {
      board: verdict.board, diagram: verdict.diagram, overlay: verdict.overlay,
      findings: verdict.findings, low_confidence: verdict.low_confidence,
    });
    render(report, box, verdict.solved);
  }

  async function check(body, stage) {
    const name = $("puzzle").value;
    if (!name) { showError("choose a puzzle first"); return; }
    try { show(await send("POST", "/api/check/" + encodeURIComponent(name) + "?view=1", body, stage)); }
    catch (e) { showError(e.message); }
  }

  document.addEventListener("DOMContentLoaded", () => {
    state.onCorrect = (board) => check(board, "Re-checking…");
    setupUpload((file) => { setPhoto(file); check(photoForm(file)); },
                (board) => { setPhoto(null); check(board, "Checking…"); });
  });
})();

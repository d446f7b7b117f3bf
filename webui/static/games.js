/* "Referee a game": create a game, then go to its page. */
"use strict";
(() => {
  const { $, send, showError } = TTC;
  document.addEventListener("DOMContentLoaded", () => {
    $("new-game").addEventListener("submit", async (ev) => {
      ev.preventDefault();
      const names = [...document.querySelectorAll("input[name=player]")];
      const colours = [...document.querySelectorAll("select[name=colour]")];
      const players = [];
      names.forEach((n, i) => {
        const name = n.value.trim() || (i < 2 ? n.placeholder : "");
        if (name) players.push({ name, colour: colours[i].value });
      });
      try {
        const game = await send("POST", "/api/games", { name: $("game-name").value || "Game", players }, "Creating…");
        location.href = "/games/" + encodeURIComponent(game.id);
      } catch (e) { showError(e.message); }
    });
  });
})();

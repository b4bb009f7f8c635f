/* hotdice: an online table's lobby — join, start, and follow the others joining (WebSocket). */
"use strict";

(() => {
  const { api, toast, busy, t, seatName, escapeHTML } = HD;
  const lobby = document.getElementById("lobby");
  const code = lobby.dataset.code;

  function show(state) {
    if (state.game) {
      window.location.reload(); // the game has started: the table replaces the lobby
      return;
    }
    document.getElementById("seats").innerHTML = state.seats
      .map((s) => `<li>${escapeHTML(seatName(s.name, s.name ? null : { code: "player" }))}${s.you ? ` <span class="badge">${escapeHTML(t("board.you"))}</span>` : ""}${s.bot ? ` <span class="badge">${escapeHTML(t("board.bot"))}</span>` : ""}</li>`)
      .join("");
    document.getElementById("seat-count").textContent = `${state.seats.length}/8`;
    const startButton = document.getElementById("start");
    if (startButton) startButton.disabled = state.seats.length < 2;
    const join = document.getElementById("join-form");
    if (join && state.seated) join.remove();
  }

  async function refresh() {
    try {
      show(await api("GET", `/api/tables/${code}`));
    } catch (err) {
      toast(err.message, true);
    }
  }

  const join = document.getElementById("join-form");
  if (join) {
    join.addEventListener("submit", async (event) => {
      event.preventDefault();
      const button = join.querySelector("button");
      busy(button, true);
      try {
        show(await api("POST", `/api/tables/${code}/join`, { name: join.elements.name.value }));
      } catch (err) {
        toast(err.message, true);
        busy(button, false);
      }
    });
  }

  const startButton = document.getElementById("start");
  if (startButton) {
    startButton.addEventListener("click", async () => {
      busy(startButton, true);
      try {
        show(await api("POST", `/api/tables/${code}/start`, {}));
      } catch (err) {
        toast(err.message, true);
        busy(startButton, false);
      }
    });
  }

  let delay = 500;
  function connect() {
    const scheme = window.location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${window.location.host}/ws/tables/${code}`);
    socket.addEventListener("open", () => { delay = 500; });
    socket.addEventListener("message", () => refresh());
    socket.addEventListener("close", (event) => {
      if (event.code === 4404) return;
      setTimeout(connect, delay);
      delay = Math.min(delay * 2, 8000);
    });
  }
  connect();
})();

/* hotdice: your devices. "Use on another device" asks for a one-time link code (POST /api/me/links) and draws
   its QR code from the modules the server gives, with the time left; "Sign out" ends a device's access
   (DELETE /api/me/devices/{id}): signing out this one makes this browser a new player. */
"use strict";

(() => {
  const { api, toast, t, busy, go } = HD;
  const SVG = "http://www.w3.org/2000/svg";
  const QUIET = 4; // modules of light margin a reader needs round the code

  function drawQR(rows, label) {
    const size = rows.length + 2 * QUIET;
    const svg = document.createElementNS(SVG, "svg");
    svg.setAttribute("viewBox", `0 0 ${size} ${size}`);
    svg.setAttribute("role", "img");
    svg.setAttribute("aria-label", label);
    svg.setAttribute("shape-rendering", "crispEdges");
    const back = document.createElementNS(SVG, "rect");
    back.setAttribute("width", size);
    back.setAttribute("height", size);
    back.setAttribute("class", "qr-light");
    svg.append(back);
    let d = "";
    rows.forEach((row, y) => {
      for (let x = 0; x < row.length; x += 1) if (row[x] === "1") d += `M${x + QUIET} ${y + QUIET}h1v1h-1z`;
    });
    const dark = document.createElementNS(SVG, "path");
    dark.setAttribute("d", d);
    dark.setAttribute("class", "qr-dark");
    svg.append(dark);
    return svg;
  }

  const make = document.getElementById("link-make");
  let ticking = null;
  if (make) {
    make.addEventListener("click", async () => {
      busy(make, true);
      try {
        const link = await api("POST", "/api/me/links");
        const box = document.getElementById("link-qr");
        box.replaceChildren(drawQR(link.qr, t("devices.qr_label")));
        document.getElementById("link-code").textContent = link.code;
        document.getElementById("link-where").textContent = `${window.location.origin}/link`;
        document.getElementById("link-made").hidden = false;
        const ends = Date.parse(link.expires_at);
        const shown = document.getElementById("link-expires");
        clearInterval(ticking);
        const tick = () => {
          const left = Math.max(0, Math.round((ends - Date.now()) / 1000));
          if (left === 0) {
            clearInterval(ticking);
            box.replaceChildren();
            document.getElementById("link-code").textContent = "";
            shown.textContent = t("devices.link_expired");
            return;
          }
          const minutes = Math.floor(left / 60);
          const seconds = String(left % 60).padStart(2, "0");
          shown.textContent = t("devices.link_left", { time: `${minutes}:${seconds}` });
        };
        tick();
        ticking = setInterval(tick, 1000);
      } catch (err) {
        toast(err.message, true);
      } finally {
        busy(make, false);
      }
    });
  }

  document.querySelectorAll("[data-sign-out]").forEach((button) => {
    button.addEventListener("click", async () => {
      const current = button.hasAttribute("data-current");
      if (current && !window.confirm(t("devices.sign_out_this_confirm"))) return;
      busy(button, true);
      try {
        await api("DELETE", `/api/me/devices/${button.dataset.signOut}`);
        if (current) {
          go("/");
          return;
        }
        button.closest("li").remove();
        toast(t("devices.signed_out"));
      } catch (err) {
        toast(err.message, true);
        busy(button, false);
      }
    });
  });
})();

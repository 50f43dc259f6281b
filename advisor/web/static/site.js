// Is this page a static site (`yahtzee site` marks its index.html and writes site.json
// beside it) or served by `yahtzee serve`? On a static site the page answers itself
// (local.js), works offline after the first visit (its service worker, sw.js) and says
// which features need the server.

/** The answering module (local.js) on a static site, null under `yahtzee serve`. */
export async function staticSite() {
  if (!document.querySelector('meta[name="yahtzee-site"]')) return null;  // no request
  let site = null;
  try {
    const res = await fetch("site.json", { cache: "no-cache" });
    if (res.ok) site = await res.json();
  } catch { site = null; }
  if (!site || site.kind !== "yahtzee-site") return null;
  const local = await import("./local.js");
  await local.detectSite();
  document.body.dataset.site = "static";
  const note = document.createElement("p");
  note.id = "site-note";
  note.className = "hint site-note";
  note.textContent = "No server needed, works offline: advice, the game, practice and reviews "
    + "by expected score. Playing to win, for a target or to top a tournament, what a choice "
    + "leads to (?) and the "
    + "chances of each score need yahtzee serve on a computer.";
  const main = document.getElementById("main");
  if (main) main.prepend(note);
  if ("serviceWorker" in navigator && window.isSecureContext) {
    navigator.serviceWorker.register("sw.js").catch(() => { /* still works online */ });
  }
  return local;
}

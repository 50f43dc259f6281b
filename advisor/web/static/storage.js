// What the page keeps in this browser (localStorage): the game and its undo steps
// (state.js), a practice session and the past sessions' figures (practice.js). A write that
// fails (the storage full, or refused by the browser's settings) does not stop the page:
// it plays on without saving, and says so once.

export const NOT_SAVED = "This browser's storage is full (or turned off): the page goes on, "
  + "but what you do is no longer kept here, and a reload would lose it. Save the game as a "
  + "file to keep it.";

let told = false;

/** localStorage.setItem(key, text); false (and the note shown, once) when it fails. */
export function keep(key, text) {
  try {
    localStorage.setItem(key, text);
    return true;
  } catch {
    if (!told) {
      told = true;
      const note = document.createElement("p");
      note.id = "storage-note";
      note.className = "error";
      note.setAttribute("role", "alert");
      note.textContent = NOT_SAVED;
      const main = document.getElementById("main");
      if (main) main.prepend(note);
    }
    return false;
  }
}
